/* The JSON writer of v2xcap (decode, stats): separators and escaping in one place. */
#include "json.h"

#include <math.h>
#include <string.h>

void json_init(struct json_writer *w, FILE *out)
{
	*w = (struct json_writer){.out = out};
}

/* Writes the comma a new item needs, unless it is the value of the key just written. */
static bool item(struct json_writer *w)
{
	if (w->overflow)
		return false;
	if (w->after_key)
		w->after_key = false;
	else if (w->has_items[w->depth])
		fputc(',', w->out);
	w->has_items[w->depth] = true;
	return true;
}

static void begin(struct json_writer *w, char c)
{
	if (w->depth == JSON_MAX_DEPTH)
		w->overflow = true;
	if (!item(w))
		return;
	fputc(c, w->out);
	w->has_items[++w->depth] = false;
}

static void end(struct json_writer *w, char c)
{
	if (w->overflow || w->depth == 0)
		return;
	w->depth--;
	fputc(c, w->out);
}

void json_begin_object(struct json_writer *w) { begin(w, '{'); }
void json_end_object(struct json_writer *w) { end(w, '}'); }
void json_begin_array(struct json_writer *w) { begin(w, '['); }
void json_end_array(struct json_writer *w) { end(w, ']'); }

static void quoted(FILE *out, const char *s, size_t len)
{
	fputc('"', out);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c >= 0x7f) /* control and non-ASCII octets: never bad UTF-8 */
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void json_key(struct json_writer *w, const char *key)
{
	if (!item(w))
		return;
	quoted(w->out, key, strlen(key));
	fputc(':', w->out);
	w->after_key = true;
}

void json_string_len(struct json_writer *w, const char *s, size_t len)
{
	if (item(w))
		quoted(w->out, s, len);
}

void json_string(struct json_writer *w, const char *s)
{
	json_string_len(w, s, strlen(s));
}

void json_int(struct json_writer *w, long long v)
{
	if (item(w))
		fprintf(w->out, "%lld", v);
}

void json_uint(struct json_writer *w, unsigned long long v)
{
	if (item(w))
		fprintf(w->out, "%llu", v);
}

void json_double(struct json_writer *w, double v, int decimals)
{
	if (!item(w))
		return;
	if (isfinite(v))
		fprintf(w->out, "%.*f", decimals, v);
	else
		fputs("null", w->out); /* JSON has no NaN or infinity */
}

void json_bool(struct json_writer *w, bool v)
{
	if (item(w))
		fputs(v ? "true" : "false", w->out);
}

void json_null(struct json_writer *w)
{
	if (item(w))
		fputs("null", w->out);
}

void json_hex(struct json_writer *w, const uint8_t *p, size_t len)
{
	if (!item(w))
		return;
	fputc('"', w->out);
	for (size_t i = 0; i < len; i++)
		fprintf(w->out, "%02x", p[i]);
	fputc('"', w->out);
}

void json_mac(struct json_writer *w, const uint8_t mac[6])
{
	if (item(w))
		fprintf(w->out, "\"%02x:%02x:%02x:%02x:%02x:%02x\"", mac[0], mac[1], mac[2],
			mac[3], mac[4], mac[5]);
}
