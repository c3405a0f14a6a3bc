/* The JSON writer of v2xcap (decode, stats): separators and escaping in one place. Text is
 * gathered in the writer's buffer and given to stdio in large writes, because decode spends
 * most of its time here and per-character stdio calls dominated it. The visitor backend
 * (json_init_visit) gives the same document as events: one branch per call on the text
 * path. */
#include "json.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char hex_digits[] = "0123456789abcdef";

/* Ready for a new top-level value. */
static void restart(struct json_writer *w)
{
	w->depth = 0;
	w->after_key = false;
	w->has_items[0] = false; /* deeper levels are cleared as they are entered */
	w->overflow = false;
}

static void init(struct json_writer *w, FILE *out, struct v2x_buf *to, bool held)
{
	/* Field by field: clearing buf would cost more than a short value. */
	w->visit = NULL;
	w->ctx = NULL;
	w->out = out;
	w->to = to;
	w->base = w->buf;
	w->cap = to ? 0 : sizeof(w->buf); /* to: its room is asked for on the first write */
	w->held = held;
	w->len = 0;
	restart(w);
}

void json_init(struct json_writer *w, FILE *out)
{
	init(w, out, NULL, false);
}

void json_init_held(struct json_writer *w, FILE *out)
{
	init(w, out, NULL, true);
}

void json_init_buf(struct json_writer *w, struct v2x_buf *to)
{
	init(w, NULL, to, true);
}

void json_init_visit(struct json_writer *w, const struct v2x_visitor *visit, void *ctx)
{
	init(w, NULL, NULL, true);
	w->visit = visit;
	w->ctx = ctx;
}

/* With the visitor backend, a public call gives its event instead of text (nothing past
 * an overflow, as the text drops it) and returns. */
#define VISIT(w, event)                    \
	if ((w)->visit) {                  \
		if (!(w)->overflow)        \
			(w)->visit->event; \
		return;                    \
	}

/* Hands the held text on: to out, or into to's length (it is already in place). */
static void spill(struct json_writer *w)
{
	if (w->to) {
		if (w->base != w->buf) { /* buf: to ran out of memory, the text is dropped */
			w->to->len += w->len;
			w->base += w->len;
			w->cap -= w->len;
		}
	} else if (w->len) {
		fwrite(w->buf, 1, w->len, w->out);
	}
	w->len = 0;
}

int json_flush(struct json_writer *w)
{
	if (w->visit)
		return 0;
	spill(w);
	return (w->to ? w->to->err : ferror(w->out)) ? -1 : 0;
}

/* The end of every public call: an unheld writer hands its text on at once. */
static void done(struct json_writer *w)
{
	if (!w->held)
		spill(w);
}

static void make_room(struct json_writer *w, size_t n)
{
	spill(w);
	if (!w->to)
		return;
	char *p = (char *)v2x_buf_room(w->to, n > JSON_BUF_SIZE ? n : JSON_BUF_SIZE);
	w->base = p ? p : w->buf;
	w->cap = p ? w->to->cap - w->to->len : sizeof(w->buf);
}

/* Room for n more octets at base (n at most JSON_BUF_SIZE). */
static char *room(struct json_writer *w, size_t n)
{
	if (n > w->cap - w->len)
		make_room(w, n);
	return w->base + w->len;
}

static void put(struct json_writer *w, const char *s, size_t n)
{
	if (n > sizeof(w->buf)) {
		spill(w);
		if (w->to)
			v2x_put(w->to, s, n);
		else
			fwrite(s, 1, n, w->out);
		w->cap = 0; /* to may have moved: room is asked for again */
		return;
	}
	memcpy(room(w, n), s, n);
	w->len += n;
}

static void put_char(struct json_writer *w, char c)
{
	*room(w, 1) = c;
	w->len++;
}

/* Digits written straight into buf, once their count is known. */
static void put_uint(struct json_writer *w, unsigned long long v, bool negative)
{
	size_t n = 1 + negative;
	for (unsigned long long t = v; t >= 10; t /= 10)
		n++;
	char *p = room(w, n) + n;
	w->len += n;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (negative)
		*--p = '-';
}

/* Writes the comma a new item needs, unless it is the value of the key just written. */
static bool item(struct json_writer *w)
{
	if (w->overflow)
		return false;
	if (w->after_key)
		w->after_key = false;
	else if (w->has_items[w->depth])
		put_char(w, ',');
	w->has_items[w->depth] = true;
	return true;
}

static void begin(struct json_writer *w, char c)
{
	if (w->depth == JSON_MAX_DEPTH)
		w->overflow = true;
	if (w->visit) {
		if (!w->overflow) {
			w->depth++;
			w->visit->open(w->ctx, c == '[');
		}
		return;
	}
	if (!item(w))
		return;
	put_char(w, c);
	w->has_items[++w->depth] = false;
	done(w);
}

static void end(struct json_writer *w, char c)
{
	if (w->overflow || w->depth == 0)
		return;
	w->depth--;
	if (w->visit) {
		w->visit->close(w->ctx, c == ']');
		return;
	}
	put_char(w, c);
	done(w);
}

void json_begin_object(struct json_writer *w) { begin(w, '{'); }
void json_end_object(struct json_writer *w) { end(w, '}'); }
void json_begin_array(struct json_writer *w) { begin(w, '['); }
void json_end_array(struct json_writer *w) { end(w, ']'); }

/* An octet that goes between quotes as it is. */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* Whether one of the 8 octets in x needs escaping: below 0x20, '"', '\\', 0x7f and above.
 * Each case is the exact "has a zero octet" test, (v - 0x01..) & ~v & 0x80.., or its
 * "has an octet below n" form; bytes with the top bit set are caught on their own. */
static bool word_needs_escape(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101u, tops = 0x8080808080808080u;
	uint64_t quote = x ^ ('"' * ones), backslash = x ^ ('\\' * ones), del = x ^ (0x7f * ones);
	uint64_t hits = x | ((x - 0x20 * ones) & ~x) | ((quote - ones) & ~quote) |
			((backslash - ones) & ~backslash) | ((del - ones) & ~del);
	return (hits & tops) != 0;
}

/* Whether some octet of s needs escaping, looked at eight at a time where it can. */
static bool needs_escape(const char *s, size_t len)
{
	uint64_t x;
	if (len < 4) {
		for (size_t i = 0; i < len; i++)
			if (!plain((unsigned char)s[i]))
				return true;
		return false;
	}
	if (len < 8) { /* two overlapping halves */
		uint32_t head, tail;
		memcpy(&head, s, sizeof(head));
		memcpy(&tail, s + len - sizeof(tail), sizeof(tail));
		return word_needs_escape(head | (uint64_t)tail << 32);
	}
	for (size_t i = 0; i + sizeof(x) < len; i += sizeof(x)) {
		memcpy(&x, s + i, sizeof(x));
		if (word_needs_escape(x))
			return true;
	}
	memcpy(&x, s + len - sizeof(x), sizeof(x)); /* the last eight, overlapping */
	return word_needs_escape(x);
}

/* Text that needs no escaping, between quotes, copied whole: most keys and strings. False,
 * with nothing written, otherwise. */
static bool plain_quoted(struct json_writer *w, const char *s, size_t len)
{
	if (len > JSON_BUF_SIZE - 2 || needs_escape(s, len))
		return false;
	char *p = room(w, len + 2);
	p[0] = '"';
	memcpy(p + 1, s, len);
	p[len + 1] = '"';
	w->len += len + 2;
	return true;
}

/* Writes c escaped at p; returns the octets written. */
static size_t escape(char *p, unsigned char c)
{
	p[0] = '\\';
	if (c == '\n') {
		p[1] = 'n';
	} else if (c == '\t') {
		p[1] = 't';
	} else if (c == '"' || c == '\\') {
		p[1] = (char)c;
	} else { /* control and non-ASCII octets: never bad UTF-8 */
		memcpy(p + 1, "u00", 3);
		p[4] = hex_digits[c >> 4];
		p[5] = hex_digits[c & 0xf];
		return 6;
	}
	return 2;
}

/* The string between quotes, escaped; in pieces that fit buf even when every octet
 * needs the six of \u00XX. */
static void quoted(struct json_writer *w, const char *s, size_t len)
{
	put_char(w, '"');
	while (len) {
		size_t n = len < JSON_BUF_SIZE / 6 ? len : JSON_BUF_SIZE / 6;
		char *start = room(w, 6 * n), *p = start;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];
			if (plain(c))
				*p++ = (char)c;
			else
				p += escape(p, c);
		}
		w->len += (size_t)(p - start);
		s += n;
		len -= n;
	}
	put_char(w, '"');
}

void json_key(struct json_writer *w, const char *key)
{
	VISIT(w, key(w->ctx, key))
	if (!item(w))
		return;
	size_t len = strlen(key);
	if (!plain_quoted(w, key, len))
		quoted(w, key, len);
	put_char(w, ':');
	w->after_key = true;
	done(w);
}

void json_string_len(struct json_writer *w, const char *s, size_t len)
{
	VISIT(w, text(w->ctx, s, len))
	if (!item(w))
		return;
	if (!plain_quoted(w, s, len))
		quoted(w, s, len);
	done(w);
}

void json_string(struct json_writer *w, const char *s)
{
	json_string_len(w, s, strlen(s));
}

void json_int(struct json_writer *w, long long v)
{
	VISIT(w, integer(w->ctx, v))
	if (!item(w))
		return;
	/* the magnitude in unsigned arithmetic: -LLONG_MIN does not fit a long long */
	put_uint(w, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, v < 0);
	done(w);
}

void json_uint(struct json_writer *w, unsigned long long v)
{
	if (w->visit) { /* a long long where it fits, as the decoded tree's integers */
		if (w->overflow)
			return;
		if (v > LLONG_MAX)
			w->visit->uinteger(w->ctx, v);
		else
			w->visit->integer(w->ctx, (long long)v);
		return;
	}
	if (!item(w))
		return;
	put_uint(w, v, false);
	done(w);
}

/* The value a JSON parser reads of the text json_double writes: v rounded to decimals. A
 * text too long for text[] holds every digit of v (%f of a huge magnitude), so it is v. */
static void visit_double(struct json_writer *w, double v, int decimals)
{
	char text[64];
	int n = snprintf(text, sizeof(text), "%.*f", decimals, v);
	w->visit->number(w->ctx, n > 0 && (size_t)n < sizeof(text) ? strtod(text, NULL) : v);
}

void json_double(struct json_writer *w, double v, int decimals)
{
	if (w->visit) {
		if (w->overflow)
			return;
		if (isfinite(v))
			visit_double(w, v, decimals);
		else
			w->visit->null(w->ctx);
		return;
	}
	if (!item(w))
		return;
	if (isfinite(v)) {
		char text[64];
		int n = snprintf(text, sizeof(text), "%.*f", decimals, v);
		if (n >= 0 && (size_t)n < sizeof(text)) {
			put(w, text, (size_t)n);
		} else if (n > 0) { /* a huge magnitude: printed again at its length */
			char *big = malloc((size_t)n + 1);
			if (big && snprintf(big, (size_t)n + 1, "%.*f", decimals, v) == n)
				put(w, big, (size_t)n);
			else
				put(w, "null", 4); /* out of memory: still JSON */
			free(big);
		}
	} else {
		put(w, "null", 4); /* JSON has no NaN or infinity */
	}
	done(w);
}

void json_bool(struct json_writer *w, bool v)
{
	VISIT(w, boolean(w->ctx, v))
	if (!item(w))
		return;
	if (v)
		put(w, "true", 4);
	else
		put(w, "false", 5);
	done(w);
}

void json_null(struct json_writer *w)
{
	VISIT(w, null(w->ctx))
	if (!item(w))
		return;
	put(w, "null", 4);
	done(w);
}

/* n octets as 2 * n hex digits at to */
static void to_hex(char *to, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		to[2 * i] = hex_digits[p[i] >> 4];
		to[2 * i + 1] = hex_digits[p[i] & 0xf];
	}
}

/* The hex text in one event: on the stack when short (a BSM's id), else allocated; out
 * of memory, null, as json_double's text. */
static void visit_hex(struct json_writer *w, const uint8_t *p, size_t len)
{
	char small[256];
	small[0] = '\0'; /* len 0: gcc would see an uninitialized array handed on */
	char *text = len <= sizeof(small) / 2 ? small : malloc(2 * len);
	if (!text) {
		w->visit->null(w->ctx);
		return;
	}
	to_hex(text, p, len);
	w->visit->text(w->ctx, text, 2 * len);
	if (text != small)
		free(text);
}

void json_hex(struct json_writer *w, const uint8_t *p, size_t len)
{
	if (w->visit) {
		if (!w->overflow)
			visit_hex(w, p, len);
		return;
	}
	if (!item(w))
		return;
	char chunk[256];
	put_char(w, '"');
	while (len) {
		size_t n = len < sizeof(chunk) / 2 ? len : sizeof(chunk) / 2;
		to_hex(chunk, p, n);
		put(w, chunk, 2 * n);
		p += n;
		len -= n;
	}
	put_char(w, '"');
	done(w);
}

void json_mac(struct json_writer *w, const uint8_t mac[6])
{
	char quoted_mac[19] = {'"'};
	for (int i = 0; i < 6; i++) {
		quoted_mac[1 + 3 * i] = hex_digits[mac[i] >> 4];
		quoted_mac[2 + 3 * i] = hex_digits[mac[i] & 0xf];
		quoted_mac[3 + 3 * i] = i < 5 ? ':' : '"';
	}
	VISIT(w, text(w->ctx, quoted_mac + 1, sizeof(quoted_mac) - 2))
	if (!item(w))
		return;
	put(w, quoted_mac, sizeof(quoted_mac));
	done(w);
}

void json_end_line(struct json_writer *w)
{
	if (!w->visit)
		put_char(w, '\n');
	restart(w);
	done(w);
}

void json_uint_field(struct json_writer *w, const char *key, unsigned long long v)
{
	json_key(w, key);
	json_uint(w, v);
}

void json_int_field(struct json_writer *w, const char *key, long long v)
{
	json_key(w, key);
	json_int(w, v);
}

void json_double_field(struct json_writer *w, const char *key, double v, int decimals)
{
	json_key(w, key);
	json_double(w, v, decimals);
}

void json_string_field(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_string(w, s);
}

void json_bool_field(struct json_writer *w, const char *key, bool v)
{
	json_key(w, key);
	json_bool(w, v);
}
