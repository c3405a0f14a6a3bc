/* IEEE 1609.2 Ieee1609Dot2Data envelope (COER): what is inside, who signed, which PSID,
 * and the bytes handed on to J2735. */
#ifndef V2X_IEEE1609DOT2_H
#define V2X_IEEE1609DOT2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum v2x_dot2_content {
	V2X_DOT2_UNSECURED = 0,
	V2X_DOT2_SIGNED = 1,
	V2X_DOT2_ENCRYPTED = 2,
	V2X_DOT2_SIGNED_CERT_REQUEST = 3,
	V2X_DOT2_OTHER = 255,
};

enum v2x_dot2_signer {
	V2X_DOT2_SIGNER_NONE = -1,
	V2X_DOT2_SIGNER_DIGEST = 0,
	V2X_DOT2_SIGNER_CERTIFICATE = 1,
	V2X_DOT2_SIGNER_SELF = 2,
};

struct v2x_dot2 {
	uint8_t version;                /* protocolVersion, 3 */
	enum v2x_dot2_content content;
	uint8_t hash_id;                /* signedData: 0 sha256, 1 sha384, 2 sm3 */
	bool has_psid;
	uint32_t psid;                  /* headerInfo.psid */
	bool has_generation_time;
	uint64_t generation_time;       /* Time64: microseconds since 2004-01-01 TAI */
	enum v2x_dot2_signer signer;
	uint8_t digest[8];              /* HashedId8 when signer is a digest */
	unsigned n_certs;               /* certificates in the signer when it is a certificate */
	const uint8_t *payload;         /* unsecuredData octets (for signed: tbsData's) */
	size_t payload_len;             /* 0 when no payload (encrypted, external) */
};

/* A payload is taken for 1609.2 when it starts with protocolVersion 3 (WSMP payloads,
 * messages without WSMP). */
static inline bool v2x_dot2_first_octet(const uint8_t *buf, size_t len)
{
	return len > 0 && buf[0] == 3;
}

/* 0 on success, -1 with *why on malformed/truncated COER. */
int v2x_dot2_parse(const uint8_t *buf, size_t len, struct v2x_dot2 *d, const char **why);
const char *v2x_dot2_content_name(enum v2x_dot2_content c);
/* Writes n in the COER length form (X.696 8.6: one octet below 128, else 0x80 | octets
 * and the octets) into out[5]; returns how many octets. */
unsigned v2x_coer_length_encode(size_t n, uint8_t out[5]);

#endif
