/* libv2x: SAE J2735 decoding, as JSON and as a walk over the decoded tree.
 *
 * The decoder is the one generated at build time from the user's J2735 schema (one
 * edition: v2x_decoder_edition). Built without a schema, a decoder still opens: its JSON
 * carries each message's id and name but no "value", and the edition is NULL.
 *
 * The JSON is exactly what `v2xcap decode` writes (README "JSON keys"): J2735's own names
 * for the message ("messageId", "value" and everything below it), enums as their names,
 * BIT STRINGs as objects of named flags, OCTET STRINGs as hex, open types (BSM part II,
 * regional extensions) replaced by their decode.
 *
 * Threads: a decoder is used by one thread at a time; decoders on several threads
 * decode at once (each thread its own decoder). */
#ifndef V2X_V2X_J2735_H
#define V2X_V2X_J2735_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <v2x/base.h>
#include <v2x/capture.h>

#ifdef __cplusplus
extern "C" {
#endif

struct v2x_decoder;

/* A decoder; NULL only out of memory or for a NULL errbuf (errbuf says which). */
V2X_API struct v2x_decoder *v2x_decoder_open(char *errbuf);

/* The edition of the schema the library was built with ("2016", "2020", "2024"), or NULL
 * when it was built without one (then: cmake -DJ2735_ASN1_DIR=<the schema's folder>). */
V2X_API const char *v2x_decoder_edition(const struct v2x_decoder *d);

/* flags of the JSON calls: the MessageFrame as received, in hex, beside its decode
 * ("octets"; octets after it: "trailing"), as `v2xcap decode --octets`. */
enum { V2X_JSON_OCTETS = 1 };

/* The "j2735" object `v2xcap decode` writes for a message: octets hold a UPER
 * MessageFrame or an IEEE 1609.2 message carrying one (len octets). *json (NUL-ended, its
 * length in *json_len when json_len is not NULL) is valid until the next call on d.
 * V2X_OK; V2X_EFORMAT when the message does not decode (the object's "error" says why,
 * v2x_decoder_geterr too) or the octets hold no MessageFrame (*json NULL);
 * V2X_ENOMEM; V2X_EINVAL for a NULL d, octets or json. */
V2X_API int v2x_decode_json(struct v2x_decoder *d, const uint8_t *octets, size_t len,
			    unsigned flags, const char **json, size_t *json_len);

/* The whole line (with its newline) `v2xcap decode FILE` writes for a record of
 * v2x_capture_next: "file" (as given), "frame", "time", "link", "wsmp", "ieee1609dot2",
 * "j2735". 1 with the line; 0 when the record holds no J2735 message (decode writes no
 * line; *json NULL); V2X_EFORMAT with the line when the frame or its message is
 * malformed (the line's "error" or "j2735"."error", and v2x_decoder_geterr, say so);
 * V2X_ENOMEM; V2X_EINVAL for a NULL d, rec or json. Valid until the next call on d. */
V2X_API int v2x_decode_record_json(struct v2x_decoder *d, const char *file,
				   const struct v2x_record *rec, unsigned flags,
				   const char **json, size_t *json_len);

/* The decoded tree, depth first: objects (SEQUENCE, CHOICE, named BIT STRING flags) and
 * arrays (SEQUENCE OF) open and close, each member announced by key() before its value.
 * The caller sets size = sizeof(struct v2x_visitor); a NULL callback is skipped, and so
 * is a member beyond the size a caller built with an older header gave. Strings and
 * octets are valid during the call only. */
struct v2x_visitor {
	size_t size;
	void (*key)(void *ctx, const char *name);
	void (*open)(void *ctx, bool array);
	void (*close)(void *ctx, bool array);
	void (*integer)(void *ctx, long long v);
	void (*text)(void *ctx, const char *s, size_t len);      /* enum names, strings */
	void (*octets)(void *ctx, const uint8_t *p, size_t len); /* OCTET STRING */
	void (*boolean)(void *ctx, bool v);
	void (*null)(void *ctx);
	/* Added with v2x_decode_record_walk, which alone calls them: */
	void (*number)(void *ctx, double v);               /* a real number ("time") */
	void (*uinteger)(void *ctx, unsigned long long v); /* an integer above LLONG_MAX */
};

/* Decodes the message (as v2x_decode_json takes it) and visits its "value": V2X_OK;
 * V2X_EFORMAT (nothing visited) when it does not decode, v2x_decoder_geterr says why;
 * V2X_ENOTSUP when the library has no decoder, or the built edition does not define the
 * message id (or holds it as a placeholder); V2X_EINVAL for NULL or a size too small. */
V2X_API int v2x_decode_walk(struct v2x_decoder *d, const uint8_t *octets, size_t len,
			    const struct v2x_visitor *v, void *ctx);

/* The line v2x_decode_record_json(d, file, rec, flags, ...) gives, as visits, not text: the same
 * document from the same code, each value as a JSON parser reads it of the line. Objects
 * and arrays open() and close(), members are key() then their value; a whole number is
 * integer() (uinteger() above LLONG_MAX), "time" is number() (the value of the line's
 * digits, exactly), true and false boolean(), null null(), and every string text(): the
 * line's strings, MAC addresses ("aa:bb:..") and hex octets (octets() is never called),
 * each octet of a string one character as the line's \u00XX escapes give it (Latin-1).
 * v as for v2x_decode_walk (size = sizeof(struct v2x_visitor); an older, smaller size
 * skips the members it lacks). Returns what v2x_decode_record_json returns: 1 after the
 * visits; 0 when the record holds no J2735 message (nothing visited); V2X_EFORMAT after
 * the visits when the frame or its message is malformed (v2x_decoder_geterr says how);
 * V2X_EINVAL for a NULL d, rec or v or a size too small. The callbacks run on the
 * caller's thread before the call returns; strings are valid during their callback. */
V2X_API int v2x_decode_record_walk(struct v2x_decoder *d, const char *file,
				   const struct v2x_record *rec, unsigned flags,
				   const struct v2x_visitor *v, void *ctx);

/* The cause of the last error on d; "" when there was none. Never NULL. */
V2X_API const char *v2x_decoder_geterr(const struct v2x_decoder *d);

/* Frees d; NULL is fine. */
V2X_API void v2x_decoder_close(struct v2x_decoder *d);

#ifdef __cplusplus
}
#endif

#endif
