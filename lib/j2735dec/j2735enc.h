/* SAE J2735 encoding, the mirror of j2735dec: a JSON value in the decoder's own vocabulary
 * (field names of the ASN.1, enum names, BIT STRINGs as objects of named flags, OCTET
 * STRINGs in hex, open types by their ids) filled into the asn1c structures generated
 * from the user's schema and written as UPER by asn1c's encoder. */
#ifndef J2735ENC_H
#define J2735ENC_H

#include <stddef.h>
#include <stdint.h>

#include "json_read.h"
#include "writer.h"

enum j2735enc_result {
	J2735ENC_OK = 0,
	J2735ENC_NO_ENCODER, /* built without a J2735 schema */
	J2735ENC_INVALID,    /* the JSON is not a message of the schema: err says where, why */
	J2735ENC_NOMEM,
};

/* Writes the UPER MessageFrame of message msg_id whose value is the JSON value, appended
 * to out. On J2735ENC_INVALID, err holds "PATH: why" with PATH from ".value" on
 * (".value.coreData.speed: 9000 is outside 0..8191"). Thread-safe. */
enum j2735enc_result j2735enc_encode(long msg_id, const struct json_value *value,
				     struct v2x_buf *out, char *err, size_t errlen);

#endif
