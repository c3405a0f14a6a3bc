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

/* A PsidSsp's ServiceSpecificPermissions (IEEE 1609.2): none, opaque OCTET STRING,
 * bitmapSsp (an extension alternative: its OCTET STRING (SIZE(0..31))), or another
 * extension alternative (OTHER: skipped by its length, no octets) */
enum v2x_dot2_ssp_kind {
	V2X_DOT2_SSP_NONE = 0,
	V2X_DOT2_SSP_OPAQUE,
	V2X_DOT2_SSP_BITMAP,
	V2X_DOT2_SSP_OTHER,
};

/* An SSP's octets, in the parsed buffer */
struct v2x_dot2_ssp {
	const uint8_t *octets;
	uint16_t len;
	uint8_t kind;                   /* enum v2x_dot2_ssp_kind */
};

/* The curve of a signature or a verification key (1609.2 Signature /
 * PublicVerificationKey alternatives 0 and 1; the rest: OTHER) */
enum v2x_dot2_curve {
	V2X_DOT2_CURVE_NONE = 0,
	V2X_DOT2_NISTP256,
	V2X_DOT2_BRAINPOOLP256R1,
	V2X_DOT2_CURVE_OTHER,
};

/* The signer certificate's verifyKeyIndicator */
enum v2x_dot2_key {
	V2X_DOT2_KEY_NONE = 0,          /* no certificate read */
	V2X_DOT2_KEY_EXPLICIT,          /* verificationKey */
	V2X_DOT2_KEY_IMPLICIT,          /* reconstructionValue: the key needs the issuer */
	V2X_DOT2_KEY_OTHER,
};

/* An EccP256CurvePoint alternative */
enum { V2X_ECC_X_ONLY = 0, V2X_ECC_FILL = 1, V2X_ECC_COMPRESSED_Y0 = 2,
       V2X_ECC_COMPRESSED_Y1 = 3, V2X_ECC_UNCOMPRESSED = 4 };

/* A point in the certificate that its canonical encoding rewrites: its tag's offset in
 * the certificate, its alternative, and whether it is a signature's r (x-only) or a
 * key (compressed) */
struct v2x_dot2_cert_point {
	uint16_t off;
	uint8_t form;
	bool sig_r;
};
#define V2X_DOT2_MAX_CERT_POINTS 3

struct v2x_dot2 {
	uint8_t version;                /* protocolVersion, 3 */
	enum v2x_dot2_content content;
	uint8_t hash_id;                /* signedData: 0 sha256, 1 sha384, 2 sm3 */
	bool has_psid;
	uint32_t psid;                  /* headerInfo.psid */
	bool has_generation_time;
	uint64_t generation_time;       /* Time64: microseconds since 2004-01-01 TAI */
	enum v2x_dot2_signer signer;
	const uint8_t *payload;         /* unsecuredData octets (for signed: tbsData's) */
	size_t payload_len;             /* 0 when no payload (encrypted, external) */
	/* From here on signedData's alone: set only for it (the functions below check),
	 * as clearing them for every other 1609.2 frame cost more than its parse */
	uint8_t digest[8];              /* HashedId8 when signer is a digest */
	unsigned n_certs;               /* certificates in the signer when it is a certificate */
	/* The signer's (first) certificate: its appPermissions, and its octets when it was
	 * read to its end (certIssuePermissions, certRequestPermissions: not read, as no
	 * end-entity certificate carries them; then cert is NULL). */
	bool has_app_psids;
	unsigned n_app_psids;           /* PSIDs of appPermissions (the first ones kept) */
	uint32_t app_psids[V2X_DOT2_MAX_APP_PSIDS];
	struct v2x_dot2_ssp app_ssps[V2X_DOT2_MAX_APP_PSIDS]; /* app_psids[i]'s SSP */
	const uint8_t *cert;
	size_t cert_len;
	/* ECDSA verification's inputs (signedData): tbsData's octets; the signature (r's
	 * x coordinate and s, 32 octets each; sig_curve NONE when it was not located: a
	 * signer of several certificates, or not read); the certificate's key (the
	 * point's alternative and its 32 or 64 octets) and the points its canonical
	 * encoding rewrites */
	const uint8_t *tbs;
	size_t tbs_len;
	enum v2x_dot2_curve sig_curve;
	const uint8_t *sig_r, *sig_s;
	enum v2x_dot2_key key;
	enum v2x_dot2_curve key_curve;
	uint8_t key_form;
	const uint8_t *key_point;
	unsigned n_cert_points;
	struct v2x_dot2_cert_point cert_points[V2X_DOT2_MAX_CERT_POINTS];
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
/* The SHA-256 of the signer certificate's canonical encoding (IEEE 1609.2: the points
 * of its keys compressed, its signature's r x-only), the input of HashedId8 and of the
 * signed data's hash; false without a certificate read to its end. */
bool v2x_dot2_cert_hash(const struct v2x_dot2 *d, uint8_t h[32]);
/* The certificate allows psid (appPermissions); true when it carries none to check. */
bool v2x_dot2_cert_permits(const struct v2x_dot2 *d, uint32_t psid);
/* The SSP the certificate grants with psid (its first appPermissions entry of psid);
 * NULL when no appPermissions were read, or psid is not among the entries kept. */
const struct v2x_dot2_ssp *v2x_dot2_cert_ssp(const struct v2x_dot2 *d, uint32_t psid);
const char *v2x_dot2_ssp_kind_name(enum v2x_dot2_ssp_kind k);
/* Writes n in the COER length form (X.696 8.6: one octet below 128, else 0x80 | octets
 * and the octets) into out[5]; returns how many octets. */
unsigned v2x_coer_length_encode(size_t n, uint8_t out[5]);

#endif
