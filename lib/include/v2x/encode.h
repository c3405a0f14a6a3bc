/* libv2x: SAE J2735 encoding, the way back from the decoder's JSON: a message as
 * `v2xcap decode` writes it (its whole line, or the "j2735" object {"messageId" or "name",
 * "value"}), possibly edited, to the UPER MessageFrame a radio sends. The JSON is the
 * decoder's own vocabulary: field names of the ASN.1, enum names, BIT STRINGs as objects
 * of named flags (or strings of '0' and '1'), OCTET STRINGs in hex, open types (BSM part
 * II, regional extensions) by their ids; optional members may be left out.
 *
 *   struct v2x_encoder *e = v2x_encoder_open(errbuf);
 *   struct v2x_encoded m = {.size = sizeof(m)};
 *   if (v2x_encode_json(e, line, strlen(line), &m) == V2X_OK)
 *           send(m.octets, m.len);
 *   else
 *           fprintf(stderr, "%s\n", v2x_encoder_geterr(e)); // ".value.coreData.speed:
 *                                                            //  9000 is outside 0..8191"
 *   v2x_encoder_close(e); */
#ifndef V2X_V2X_ENCODE_H
#define V2X_V2X_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <v2x/base.h>

#ifdef __cplusplus
extern "C" {
#endif

struct v2x_encoder;

/* An encoder; NULL only out of memory or for a NULL errbuf (errbuf says which). One
 * encoder per thread; encoders in different threads are independent. */
V2X_API struct v2x_encoder *v2x_encoder_open(char *errbuf);

/* What v2x_encode_json made. The caller sets size = sizeof(struct v2x_encoded); members
 * are only ever added at the end. */
struct v2x_encoded {
	size_t size;
	const uint8_t *octets;   /* the UPER MessageFrame, owned by the encoder, valid until
				  * the next call on it */
	size_t len;
	unsigned message_id;
	/* The JSON held the octets it was decoded from ("octets", `v2xcap decode
	 * --octets`): whether the encoding is bit for bit those, and when not, the first bit
	 * that differs (counted from 0, the first octet's most significant bit; the shorter
	 * length in bits when one is a prefix of the other). A difference means the sender's
	 * encoding is not canonical UPER, or the JSON was edited. */
	bool has_received;
	bool same_as_received;
	size_t first_different_bit;
};

/* Encodes one JSON text (json[0..len), one object; no NUL needed). V2X_OK with *out
 * filled; V2X_EFORMAT when the text is not JSON or not a message of the built edition:
 * v2x_encoder_geterr names the path and the rule (".value.coreData.speed: 9000 is
 * outside 0..8191", unknown or missing members, wrong types, enum names, SIZE); V2X_ENOTSUP
 * when the library was built without a J2735 schema; V2X_ENOMEM; V2X_EINVAL for a NULL
 * argument or a size too small. */
V2X_API int v2x_encode_json(struct v2x_encoder *e, const char *json, size_t len,
			    struct v2x_encoded *out);

/* The cause of the last error on e; "" when there was none. Never NULL. */
V2X_API const char *v2x_encoder_geterr(const struct v2x_encoder *e);

/* Frees e; NULL is fine. */
V2X_API void v2x_encoder_close(struct v2x_encoder *e);

#ifdef __cplusplus
}
#endif

#endif
