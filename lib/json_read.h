/* A JSON reader, the mirror of json.h: one text into a tree of values held in one
 * arena, for the encoder (JSON Lines that `v2xcap decode` wrote, or a user edited). Depth
 * is bounded and every error names its offset; nothing is read past the given length. */
#ifndef V2X_JSON_READ_H
#define V2X_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_READ_MAX_DEPTH 64

enum json_kind { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY,
		 JSON_OBJECT };

struct json_value {
	enum json_kind kind;
	const char *key;           /* a member's name (NUL-terminated), NULL in an array */
	const char *str;           /* JSON_STRING: the unescaped text, NUL-terminated (it
				    * may hold NULs: len counts them); JSON_NUMBER: its text */
	size_t len;
	bool is_integer;           /* JSON_NUMBER without fraction or exponent that fits */
	long long integer;
	double number;             /* JSON_NUMBER, integer or not */
	struct json_value *first;  /* JSON_ARRAY, JSON_OBJECT: the items in order */
	struct json_value *next;   /* the next item of the array or object holding it */
	size_t count;              /* items of an array or object */
};

/* The arena behind a parsed text; zero-initialised, reused from text to text. */
struct json_doc {
	struct json_chunk *chunks;
	struct json_chunk *spare;  /* kept by json_doc_reset for the next text */
};

/* Parses text[0..len) (one value, whitespace around it): 0 with *root, or -1 with a
 * sentence in err ("at offset 12: expected ':'") and *root NULL. The tree lives until
 * json_doc_reset or json_doc_free. */
int json_read(struct json_doc *doc, const char *text, size_t len, const struct json_value **root,
	      char *err, size_t errlen);
void json_doc_reset(struct json_doc *doc);
void json_doc_free(struct json_doc *doc);

/* The member of an object named key, NULL when absent or o is not an object. */
const struct json_value *json_member(const struct json_value *o, const char *key);
/* "a number", "a string", ...: for messages. */
const char *json_kind_name(enum json_kind k);

#endif
