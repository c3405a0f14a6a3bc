/* A small streaming JSON writer: objects, arrays, keys and scalars in order, commas and
 * string escaping done here, nesting checked. One value per json_writer (one JSON line),
 * or one per line with json_end_line() (JSON Lines). */
#ifndef V2XCAP_JSON_H
#define V2XCAP_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 64
#define JSON_BUF_SIZE (64 * 1024)

struct json_writer {
	FILE *out;
	bool held;                          /* output waits in buf for json_flush() */
	int depth;
	bool after_key;                     /* a key was written, its value comes next */
	bool has_items[JSON_MAX_DEPTH + 1]; /* per level: a comma precedes the next item */
	bool overflow;                      /* nesting beyond JSON_MAX_DEPTH: output dropped */
	size_t len;                         /* octets in buf not yet written to out */
	char buf[JSON_BUF_SIZE];
};

/* Each call's output is in out when it returns. */
void json_init(struct json_writer *w, FILE *out);
/* The output is collected in w and reaches out in large writes: when w's buffer fills and
 * at json_flush(), which must come before anything else is written to out. */
void json_init_held(struct json_writer *w, FILE *out);
/* 0, or -1 when out failed (ferror(out) is then set too). */
int json_flush(struct json_writer *w);

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
void json_hex(struct json_writer *w, const uint8_t *p, size_t len);
void json_mac(struct json_writer *w, const uint8_t mac[6]);
/* Ends a JSON Lines record: a newline after the value, and w takes the next value. */
void json_end_line(struct json_writer *w);

#endif
