/* The JSON reader (json_read.h): recursive descent over a bounded text, values and
 * unescaped strings in chunks of one arena that the next text reuses. */
#include "json_read.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"

#define CHUNK_SIZE (64 * 1024)

struct json_chunk {
	struct json_chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct parser {
	struct json_doc *doc;
	const char *p, *start, *end;
	char *err;
	size_t errlen;
	bool failed;
};

static void *arena_alloc(struct parser *ps, size_t n)
{
	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	struct json_chunk *c = ps->doc->chunks;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK_SIZE ? n : CHUNK_SIZE;
		struct json_chunk *s = ps->doc->spare;
		if (s && s->cap >= cap) {
			ps->doc->spare = s->next;
			c = s;
		} else if (!(c = malloc(sizeof(*c) + cap))) {
			return NULL;
		} else {
			c->cap = cap;
		}
		c->used = 0;
		c->next = ps->doc->chunks;
		ps->doc->chunks = c;
	}
	void *r = (char *)c->data + c->used;
	c->used += n;
	return r;
}

static void fail(struct parser *ps, const char *what)
{
	if (ps->failed)
		return;
	ps->failed = true;
	snprintf(ps->err, ps->errlen, "at offset %zu: %s", (size_t)(ps->p - ps->start), what);
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
				   *ps->p == '\r'))
		ps->p++;
}

static struct json_value *new_value(struct parser *ps, enum json_kind kind)
{
	struct json_value *v = arena_alloc(ps, sizeof(*v));
	if (!v) {
		fail(ps, "out of memory");
		return NULL;
	}
	memset(v, 0, sizeof(*v));
	v->kind = kind;
	return v;
}

static bool literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) {
		fail(ps, "expected a value");
		return false;
	}
	ps->p += n;
	return true;
}

static int hex4(const char *p)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		int d = v2x_hex_digit((unsigned char)p[i]);
		if (d < 0)
			return -1;
		v = v << 4 | d;
	}
	return v;
}

static size_t put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A \uXXXX escape at p (after the backslash and u), a surrogate pair joined. */
static bool unicode_escape(struct parser *ps, char *o, size_t *n)
{
	int hi = ps->end - ps->p >= 4 ? hex4(ps->p) : -1;
	if (hi < 0) {
		fail(ps, "bad \\u escape");
		return false;
	}
	ps->p += 4;
	uint32_t cp = (uint32_t)hi;
	if (hi >= 0xd800 && hi < 0xdc00) {
		int lo = ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u'
				 ? hex4(ps->p + 2) : -1;
		if (lo < 0xdc00 || lo >= 0xe000) {
			fail(ps, "unpaired surrogate in \\u escape");
			return false;
		}
		ps->p += 6;
		cp = 0x10000 + (((uint32_t)hi - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
	} else if (hi >= 0xdc00 && hi < 0xe000) {
		fail(ps, "unpaired surrogate in \\u escape");
		return false;
	}
	*n += put_utf8(o + *n, cp);
	return true;
}

/* The string at p (its opening quote): unescaped into the arena. */
static const char *string(struct parser *ps, size_t *len)
{
	const char *q = ++ps->p;
	while (q < ps->end && *q != '"')
		q += *q == '\\' ? 2 : 1;
	if (q >= ps->end) {
		fail(ps, "unterminated string");
		return NULL;
	}
	/* An escape never yields more octets than it takes (\uXXXX: at most 3 of 6, a pair
	 * 4 of 12), so the raw length bounds the text. */
	char *o = arena_alloc(ps, (size_t)(q - ps->p) + 1);
	if (!o) {
		fail(ps, "out of memory");
		return NULL;
	}
	size_t n = 0;
	while (*ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p++;
		if (c < 0x20) {
			ps->p--;
			fail(ps, "control character in string");
			return NULL;
		}
		if (c != '\\') {
			o[n++] = (char)c;
			continue;
		}
		switch (*ps->p++) {
		case '"': o[n++] = '"'; break;
		case '\\': o[n++] = '\\'; break;
		case '/': o[n++] = '/'; break;
		case 'b': o[n++] = '\b'; break;
		case 'f': o[n++] = '\f'; break;
		case 'n': o[n++] = '\n'; break;
		case 'r': o[n++] = '\r'; break;
		case 't': o[n++] = '\t'; break;
		case 'u':
			if (!unicode_escape(ps, o, &n))
				return NULL;
			break;
		default:
			ps->p--;
			fail(ps, "bad escape in string");
			return NULL;
		}
	}
	ps->p++;
	o[n] = '\0';
	*len = n;
	return o;
}

static bool digits(struct parser *ps)
{
	const char *s = ps->p;
	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
		ps->p++;
	return ps->p > s;
}

static struct json_value *number(struct parser *ps)
{
	const char *s = ps->p;
	bool integer = true;
	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p < ps->end && *ps->p == '0')
		ps->p++;
	else if (!digits(ps))
		goto bad;
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		integer = false;
		if (!digits(ps))
			goto bad;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		integer = false;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (!digits(ps))
			goto bad;
	}
	struct json_value *v = new_value(ps, JSON_NUMBER);
	char *text = v ? arena_alloc(ps, (size_t)(ps->p - s) + 1) : NULL;
	if (!text) {
		fail(ps, "out of memory");
		return NULL;
	}
	v->len = (size_t)(ps->p - s);
	memcpy(text, s, v->len);
	text[v->len] = '\0';
	v->str = text;
	v->number = strtod(text, NULL);
	if (integer) {
		errno = 0;
		v->integer = strtoll(text, NULL, 10);
		v->is_integer = errno == 0;
	}
	return v;
bad:
	fail(ps, "malformed number");
	return NULL;
}

static struct json_value *value(struct parser *ps, int depth);

/* An array or object at p (its bracket); members get their keys. */
static struct json_value *container(struct parser *ps, int depth, bool object)
{
	if (depth >= JSON_READ_MAX_DEPTH) {
		fail(ps, "nested too deeply");
		return NULL;
	}
	struct json_value *c = new_value(ps, object ? JSON_OBJECT : JSON_ARRAY);
	if (!c)
		return NULL;
	char close = object ? '}' : ']';
	struct json_value **tail = &c->first;
	ps->p++;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return c;
	}
	for (;;) {
		const char *key = NULL;
		if (object) {
			size_t klen;
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != '"') {
				fail(ps, "expected a member name");
				return NULL;
			}
			if (!(key = string(ps, &klen)))
				return NULL;
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				fail(ps, "expected ':'");
				return NULL;
			}
			ps->p++;
		}
		struct json_value *item = value(ps, depth + 1);
		if (!item)
			return NULL;
		item->key = key;
		*tail = item;
		tail = &item->next;
		c->count++;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return c;
		}
		fail(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
		return NULL;
	}
}

static struct json_value *value(struct parser *ps, int depth)
{
	skip_space(ps);
	if (ps->p >= ps->end) {
		fail(ps, "expected a value");
		return NULL;
	}
	switch (*ps->p) {
	case '{': return container(ps, depth, true);
	case '[': return container(ps, depth, false);
	case '"': {
		struct json_value *v = new_value(ps, JSON_STRING);
		return v && (v->str = string(ps, &v->len)) ? v : NULL;
	}
	case 't': return literal(ps, "true") ? new_value(ps, JSON_TRUE) : NULL;
	case 'f': return literal(ps, "false") ? new_value(ps, JSON_FALSE) : NULL;
	case 'n': return literal(ps, "null") ? new_value(ps, JSON_NULL) : NULL;
	default: return number(ps);
	}
}

int json_read(struct json_doc *doc, const char *text, size_t len, const struct json_value **root,
	      char *err, size_t errlen)
{
	struct parser ps = {doc, text, text, text + len, err, errlen, false};
	json_doc_reset(doc);
	struct json_value *v = value(&ps, 0);
	if (v) {
		skip_space(&ps);
		if (ps.p != ps.end)
			fail(&ps, "text after the value");
	}
	*root = ps.failed ? NULL : v;
	return ps.failed ? -1 : 0;
}

void json_doc_reset(struct json_doc *doc)
{
	while (doc->chunks) {
		struct json_chunk *c = doc->chunks;
		doc->chunks = c->next;
		c->next = doc->spare;
		doc->spare = c;
	}
}

void json_doc_free(struct json_doc *doc)
{
	json_doc_reset(doc);
	while (doc->spare) {
		struct json_chunk *c = doc->spare;
		doc->spare = c->next;
		free(c);
	}
}

const struct json_value *json_member(const struct json_value *o, const char *key)
{
	if (!o || o->kind != JSON_OBJECT)
		return NULL;
	for (const struct json_value *m = o->first; m; m = m->next)
		if (strcmp(m->key, key) == 0)
			return m;
	return NULL;
}

const char *json_kind_name(enum json_kind k)
{
	switch (k) {
	case JSON_NULL: return "null";
	case JSON_FALSE:
	case JSON_TRUE: return "a boolean";
	case JSON_NUMBER: return "a number";
	case JSON_STRING: return "a string";
	case JSON_ARRAY: return "an array";
	case JSON_OBJECT: return "an object";
	}
	return "?";
}
