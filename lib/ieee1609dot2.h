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

#define V2X_DOT2_MAX_APP_PSIDS 8

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
	/* The signer's (first) certificate: its appPermissions, and its octets when it was
	 * read to its end (certIssuePermissions, certRequestPermissions: not read, as no
	 * end-entity certificate carries them; then cert is NULL). */
	bool has_app_psids;
	unsigned n_app_psids;           /* PSIDs of appPermissions (the first ones kept) */
	uint32_t app_psids[V2X_DOT2_MAX_APP_PSIDS];
	const uint8_t *cert;
	size_t cert_len;
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
/* Who signed, as 1609.2 names a signer: the digest, or the HashedId8 of the certificate
 * (the last 8 octets of its SHA-256, IEEE 1609.2 HashedId8); false when neither is
 * known (unsigned, self-signed, a certificate not read to its end). */
bool v2x_dot2_signer_id(const struct v2x_dot2 *d, uint8_t id[8]);
/* The certificate allows psid (appPermissions); true when it carries none to check. */
bool v2x_dot2_cert_permits(const struct v2x_dot2 *d, uint32_t psid);
/* Writes n in the COER length form (X.696 8.6: one octet below 128, else 0x80 | octets
 * and the octets) into out[5]; returns how many octets. */
unsigned v2x_coer_length_encode(size_t n, uint8_t out[5]);

#endif
