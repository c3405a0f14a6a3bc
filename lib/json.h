/* A small streaming JSON writer: objects, arrays, keys and scalars in order, commas and
 * string escaping done here, nesting checked. One value per json_writer (one JSON line),
 * or one per line with json_end_line() (JSON Lines). Or, with json_init_visit, the same
 * document as the events of a struct v2x_visitor instead of text. */
#ifndef V2X_JSON_H
#define V2X_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "writer.h"

#include <v2x/j2735.h>

#define JSON_MAX_DEPTH 64
#define JSON_BUF_SIZE (64 * 1024)

struct json_writer {
	const struct v2x_visitor *visit;    /* json_init_visit: events, not text */
	void *ctx;                          /* visit's */
	FILE *out;
	struct v2x_buf *to;                 /* json_init_buf: the output goes here, not to out */
	char *base;                         /* the held text: buf, or to's free space */
	size_t cap;                         /* octets at base */
	bool held;                          /* output waits in buf for json_flush() */
	int depth;
	bool after_key;                     /* a key was written, its value comes next */
	bool has_items[JSON_MAX_DEPTH + 1]; /* per level: a comma precedes the next item */
	bool overflow;                      /* nesting beyond JSON_MAX_DEPTH: output dropped */
	size_t len;                         /* octets at base not yet handed on */
	char buf[JSON_BUF_SIZE];
};

/* Each call's output is in out when it returns. */
void json_init(struct json_writer *w, FILE *out);
/* The output is collected in w and reaches out in large writes: when w's buffer fills and
 * at json_flush(), which must come before anything else is written to out. */
void json_init_held(struct json_writer *w, FILE *out);
/* Held, into a growable buffer instead of a stream: a thread of decode -j N gathers a
 * batch's lines in one it keeps from batch to batch (a memory stream per batch took fresh
 * pages each time). The text is written straight into to, after its contents; it counts
 * in to->len from json_flush() on. */
void json_init_buf(struct json_writer *w, struct v2x_buf *to);
/* The document as visit's events, with ctx: each value as a JSON parser reads it of the
 * text (hex and MAC addresses as text, a real number as the printed digits give it).
 * visit is used as it is: every member set, its size not looked at. There is no text, so
 * json_flush does nothing; nesting beyond JSON_MAX_DEPTH is dropped as in the text. */
void json_init_visit(struct json_writer *w, const struct v2x_visitor *visit, void *ctx);
/* 0, or -1 when out failed (ferror(out) is then set too) or to ran out of memory. */
int json_flush(struct json_writer *w);
/* With json_init_buf: where the next octet goes in to (its length after json_flush). */
static inline size_t json_buf_offset(const struct json_writer *w)
{
	return w->to->len + w->len;
}

void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *s);
void json_string_len(struct json_writer *w, const char *s, size_t len);
void json_int(struct json_writer *w, long long v);
void json_uint(struct json_writer *w, unsigned long long v);
void json_double(struct json_writer *w, double v, int decimals);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);
/* Octets as a lower-case hex string; a MAC address as "aa:bb:cc:dd:ee:ff". */
/* "key": value, one call per member */
void json_uint_field(struct json_writer *w, const char *key, unsigned long long v);
void json_int_field(struct json_writer *w, const char *key, long long v);
void json_double_field(struct json_writer *w, const char *key, double v, int decimals);
void json_string_field(struct json_writer *w, const char *key, const char *s);
void json_bool_field(struct json_writer *w, const char *key, bool v);
void json_hex(struct json_writer *w, const uint8_t *p, size_t len);
void json_mac(struct json_writer *w, const uint8_t mac[6]);
/* Ends a JSON Lines record: a newline after the value, and w takes the next value. */
void json_end_line(struct json_writer *w);

#endif
