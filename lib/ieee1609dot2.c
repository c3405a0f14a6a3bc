/* IEEE 1609.2 Ieee1609Dot2Data in COER (X.696): content type, signedData's PSID,
 * generation time and signer, the unsecuredData octets inside, and what verifying the
 * signature needs (tbsData's octets, the signature, the certificate's key). */
#include "ieee1609dot2.h"

#include <stddef.h>
#include <string.h>

#include "cursor.h"
#include "sha256.h"
#include "zero.h"

#define DOT2_PROTOCOL_VERSION 3
#define COER_CONTEXT_TAG 0x80 /* class bits 10: [n] tags of AUTOMATIC TAGS */

/* COER length determinant: 0xxxxxxx, or 1nnnnnnn followed by an n-octet length. */
static inline size_t read_length(struct v2x_cursor *c)
{
	uint8_t first = v2x_u8(c);
	if (!(first & 0x80))
		return first;
	size_t n = first & 0x7F;
	if (n == 0 || n > 4) {
		c->err = true; /* longer than any frame can be */
		return 0;
	}
	return (size_t)v2x_beN(c, n);
}

/* A CHOICE tag octet: the alternative's index, or -1 (err set) if not context-specific.
 * Tags above 62 (a long form) occur in no 1609.2 CHOICE. */
static inline int read_choice(struct v2x_cursor *c)
{
	uint8_t tag = v2x_u8(c);
	if (c->err || (tag & 0xC0) != COER_CONTEXT_TAG || (tag & 0x3F) == 0x3F) {
		c->err = true;
		return -1;
	}
	return tag & 0x3F;
}

/* An open type (extension addition or extension alternative): length and octets. */
static void skip_open_type(struct v2x_cursor *c)
{
	v2x_skip(c, read_length(c));
}

/* The extension additions of a SEQUENCE whose preamble had its extension bit set:
 * a length-prefixed presence bitmap, then one open type per bit set. */
static void skip_extension_additions(struct v2x_cursor *c)
{
	size_t len = read_length(c);
	uint8_t unused = v2x_u8(c);
	const uint8_t *bitmap = v2x_bytes(c, len ? len - 1 : 0);
	if (len == 0 || unused > 7 || c->err) {
		c->err = true;
		return;
	}
	struct v2x_bits bits;
	v2x_bits_init(&bits, bitmap, len - 1);
	size_t nbits = (len - 1) * 8 - (len > 1 ? unused : 0);
	for (size_t i = 0; i < nbits && !c->err; i++)
		if (v2x_bits_bit(&bits))
			skip_open_type(c);
}

/* A CHOICE whose root alternatives are fixed-size octet strings (sizes[i]); extension
 * alternatives (index >= n) are open types. */
static void skip_fixed_choice(struct v2x_cursor *c, const size_t *sizes, int n, bool ext)
{
	int alt = read_choice(c);
	if (alt < 0)
		return;
	if (alt < n)
		v2x_skip(c, sizes[alt]);
	else if (ext)
		skip_open_type(c);
	else
		c->err = true;
}

/* EccP256CurvePoint: x-only, fill (NULL), compressed-y-0, compressed-y-1,
 * uncompressedP256 { x, y }: its octets (x first; none for fill), its alternative in
 * *form */
static const uint8_t *read_point(struct v2x_cursor *c, uint8_t *form)
{
	static const size_t sizes[] = {32, 0, 32, 32, 64};
	int alt = read_choice(c);
	if (alt < 0 || alt > V2X_ECC_UNCOMPRESSED) {
		c->err = true;
		*form = V2X_ECC_FILL; /* no point */
		return NULL;
	}
	*form = (uint8_t)alt;
	return v2x_bytes(c, sizes[alt]);
}

/* A point of a certificate (cert: its first octet; tag: the point's CHOICE octet) that
 * its canonical encoding rewrites: a key's uncompressed point, a signature's r not
 * x-only. */
static void note_cert_point(struct v2x_dot2 *d, const uint8_t *cert, const uint8_t *tag,
			    uint8_t form, bool sig_r)
{
	bool rewritten = sig_r ? form != V2X_ECC_X_ONLY && form != V2X_ECC_FILL
			       : form == V2X_ECC_UNCOMPRESSED;
	if (!rewritten || d->n_cert_points == V2X_DOT2_MAX_CERT_POINTS)
		return;
	d->cert_points[d->n_cert_points++] = (struct v2x_dot2_cert_point){
		.off = (uint16_t)(tag - cert), .form = form, .sig_r = sig_r};
}

/* PublicEncryptionKey { supportedSymmAlg, BasePublicEncryptionKey }: the point's tag
 * (NULL for another kind of key), its alternative in *form */
static const uint8_t *read_public_encryption_key(struct v2x_cursor *c, uint8_t *form)
{
	v2x_skip(c, 1); /* SymmAlgorithm: a one-octet ENUMERATED */
	int key = read_choice(c);
	if (key == 0 || key == 1) { /* eciesNistP256, eciesBrainpoolP256r1 */
		const uint8_t *tag = c->p;
		read_point(c, form);
		return tag;
	}
	if (key > 1)
		skip_open_type(c);
	return NULL;
}

/* HeaderInfo.encryptionKey: public PublicEncryptionKey | symmetric { aes128Ccm } */
static void skip_encryption_key(struct v2x_cursor *c)
{
	static const size_t aes128_ccm[] = {16};
	uint8_t form;
	switch (read_choice(c)) {
	case 0:
		read_public_encryption_key(c, &form);
		break;
	case 1:
		skip_fixed_choice(c, aes128_ccm, 1, true);
		break;
	default:
		c->err = true;
	}
}

/* HeaderInfo: psid, then optional fields in the order of its preamble bits. */
static void read_header_info(struct v2x_cursor *c, struct v2x_dot2 *d)
{
	uint8_t preamble = v2x_u8(c);
	size_t psid_len = read_length(c);
	if (psid_len == 0 || psid_len > 4)
		c->err = true; /* PSIDs fit in four octets (IEEE 1609.12) */
	d->psid = (uint32_t)v2x_beN(c, c->err ? 0 : psid_len);
	d->has_psid = !c->err;
	if (preamble & 0x40) { /* generationTime: Time64 */
		d->generation_time = v2x_be64(c);
		d->has_generation_time = !c->err;
	}
	if (preamble & 0x20) /* expiryTime: Time64 */
		v2x_skip(c, 8);
	if (preamble & 0x10) /* generationLocation: latitude, longitude, elevation */
		v2x_skip(c, 4 + 4 + 2);
	if (preamble & 0x08) /* p2pcdLearningRequest: HashedId3 */
		v2x_skip(c, 3);
	if (preamble & 0x04) { /* missingCrlIdentifier: { cracaId, crlSeries, ... } */
		bool ext = v2x_u8(c) & 0x80;
		v2x_skip(c, 3 + 2);
		if (ext)
			skip_extension_additions(c);
	}
	if (preamble & 0x02)
		skip_encryption_key(c);
	if (preamble & 0x80) /* inlineP2pcdRequest, requestedCertificate, ... */
		skip_extension_additions(c);
}

/* A SEQUENCE OF's quantity: a length-prefixed unsigned count */
static size_t read_quantity(struct v2x_cursor *c)
{
	size_t n = read_length(c);
	if (n == 0 || n > 4)
		c->err = true;
	return (size_t)v2x_beN(c, c->err ? 0 : n);
}

/* n items of size octets each, the count first */
static void skip_sequence_of_fixed(struct v2x_cursor *c, size_t size)
{
	size_t n = read_quantity(c);
	if (n > v2x_cur_left(c))
		c->err = true;
	for (size_t i = 0; i < n && !c->err; i++)
		v2x_skip(c, size);
}

/* CertificateId: linkageData { iCert, linkage-value[9], group-linkage-value? {jValue[4],
 * value[9]} } | name Hostname | binaryId | none | ... */
static void skip_certificate_id(struct v2x_cursor *c)
{
	switch (read_choice(c)) {
	case 0:
		v2x_skip(c, v2x_u8(c) & 0x80 ? 2 + 9 + 4 + 9 : 2 + 9);
		break;
	case 1: /* Hostname, UTF8String */
	case 2: /* binaryId, OCTET STRING */
		v2x_skip(c, read_length(c));
		break;
	case 3: /* none: NULL */
		break;
	default:
		if (!c->err)
			skip_open_type(c);
	}
}

/* GeographicRegion: circular { TwoDLocation, radius } | rectangular (SEQUENCE OF two
 * corners) | polygonal (SEQUENCE OF TwoDLocation) | identified (SEQUENCE OF
 * IdentifiedRegion) | ... ; a TwoDLocation is two 4-octet integers. */
static void skip_region(struct v2x_cursor *c)
{
	switch (read_choice(c)) {
	case 0:
		v2x_skip(c, 8 + 2);
		break;
	case 1:
		skip_sequence_of_fixed(c, 16);
		break;
	case 2:
		skip_sequence_of_fixed(c, 8);
		break;
	case 3: {
		size_t n = read_quantity(c);
		for (size_t i = 0; i < n && !c->err; i++) {
			switch (read_choice(c)) {
			case 0: /* countryOnly */
				v2x_skip(c, 2);
				break;
			case 1: /* countryAndRegions { country, SequenceOfUint8 } */
				v2x_skip(c, 2);
				skip_sequence_of_fixed(c, 1);
				break;
			case 2: { /* countryAndSubregions { country, SEQUENCE OF { region,
				   * SequenceOfUint16 } } */
				v2x_skip(c, 2);
				size_t m = read_quantity(c);
				for (size_t k = 0; k < m && !c->err; k++) {
					v2x_skip(c, 1);
					skip_sequence_of_fixed(c, 2);
				}
				break;
			}
			default:
				if (!c->err)
					skip_open_type(c);
			}
		}
		break;
	}
	default:
		if (!c->err)
			skip_open_type(c);
	}
}

/* ServiceSpecificPermissions: opaque OCTET STRING | ..., bitmapSsp BitmapSsp (an
 * extension alternative: an open type around the OCTET STRING (SIZE(0..31)), its
 * content filling the open type) | ... (later alternatives: skipped by their length). */
static void read_ssp(struct v2x_cursor *c, struct v2x_dot2_ssp *ssp)
{
	int alt = read_choice(c);
	size_t len = alt < 0 ? 0 : read_length(c);
	if (alt == 1) { /* the open type holds the BitmapSsp's own length and octets */
		const uint8_t *p = v2x_bytes(c, len);
		struct v2x_cursor open;
		v2x_cur_init(&open, p, p ? len : 0);
		len = read_length(&open);
		ssp->octets = v2x_bytes(&open, len);
		if (open.err || v2x_cur_left(&open))
			c->err = true;
		ssp->kind = V2X_DOT2_SSP_BITMAP;
	} else {
		ssp->octets = v2x_bytes(c, len);
		ssp->kind = alt == 0 ? V2X_DOT2_SSP_OPAQUE : V2X_DOT2_SSP_OTHER;
	}
	if (len > UINT16_MAX) /* an SSP is a few octets: longer, none kept */
		ssp->kind = V2X_DOT2_SSP_OTHER;
	if (ssp->kind == V2X_DOT2_SSP_OTHER)
		ssp->octets = NULL;
	ssp->len = ssp->octets ? (uint16_t)len : 0;
}

/* SequenceOfPsidSsp: each { psid, ssp ServiceSpecificPermissions OPTIONAL }; the first
 * V2X_DOT2_MAX_APP_PSIDS kept. */
static void read_app_permissions(struct v2x_cursor *c, struct v2x_dot2 *d)
{
	size_t n = read_quantity(c);
	for (size_t i = 0; i < n && !c->err; i++) {
		bool has_ssp = v2x_u8(c) & 0x80;
		size_t len = read_length(c);
		if (len == 0 || len > 4)
			c->err = true;
		uint32_t psid = (uint32_t)v2x_beN(c, c->err ? 0 : len);
		struct v2x_dot2_ssp ssp = {.kind = V2X_DOT2_SSP_NONE};
		if (has_ssp)
			read_ssp(c, &ssp);
		if (!c->err && d->n_app_psids < V2X_DOT2_MAX_APP_PSIDS) {
			d->app_ssps[d->n_app_psids] = ssp;
			d->app_psids[d->n_app_psids++] = psid;
		}
	}
	d->has_app_psids = !c->err;
}

/* Signature: ecdsaNistP256Signature | ecdsaBrainpoolP256r1Signature { rSig
 * EccP256CurvePoint, sSig OCTET STRING (32) } | ... (P-384: another curve); r's x
 * coordinate and s when sig_r is given. Returns rSig's tag (NULL for another curve). */
static const uint8_t *read_signature(struct v2x_cursor *c, enum v2x_dot2_curve *curve,
				     uint8_t *form, const uint8_t **sig_r,
				     const uint8_t **sig_s)
{
	int alt = read_choice(c);
	if (alt == 0 || alt == 1) {
		const uint8_t *tag = c->p;
		const uint8_t *r = read_point(c, form);
		const uint8_t *s = v2x_bytes(c, 32);
		*curve = alt == 0 ? V2X_DOT2_NISTP256 : V2X_DOT2_BRAINPOOLP256R1;
		if (sig_r) {
			*sig_r = *form == V2X_ECC_FILL ? NULL : r;
			*sig_s = s;
		}
		return tag;
	}
	if (alt > 1)
		skip_open_type(c);
	*curve = V2X_DOT2_CURVE_OTHER;
	return NULL;
}

/* Certificate { version, type, issuer, toBeSigned, signature? }: the appPermissions, the
 * verification key, and the octets when the whole certificate could be read. */
static void read_certificate(struct v2x_cursor *c, struct v2x_dot2 *d)
{
	const uint8_t *start = c->p;
	bool has_signature = v2x_u8(c) & 0x80;
	v2x_skip(c, 2); /* version, CertificateType */
	int issuer = read_choice(c); /* sha256AndDigest | self HashAlgorithm | ... */
	if (issuer == 0)
		v2x_skip(c, 8);
	else if (issuer == 1)
		v2x_skip(c, 1);
	else if (issuer > 1)
		skip_open_type(c);
	/* ToBeSignedCertificate: extension bit and 7 optional members' bits */
	uint8_t pre = v2x_u8(c);
	skip_certificate_id(c);
	v2x_skip(c, 3 + 2 + 4); /* cracaId, crlSeries, validityPeriod.start */
	skip_fixed_choice(c, (const size_t[]){2, 2, 2, 2, 2, 2, 2}, 7, false); /* duration */
	if (pre & 0x40)
		skip_region(c);
	if (pre & 0x20) /* assuranceLevel */
		v2x_skip(c, 1);
	if (pre & 0x10)
		read_app_permissions(c, d);
	if (c->err || pre & (0x08 | 0x04))
		return; /* certIssuePermissions, certRequestPermissions: not read */
	/* canRequestRollover (0x02) is a NULL: no octets */
	uint8_t form;
	const uint8_t *tag;
	if (pre & 0x01 && (tag = read_public_encryption_key(c, &form)))
		note_cert_point(d, start, tag, form, false);
	/* verifyKeyIndicator: verificationKey PublicVerificationKey { ecdsaNistP256 |
	 * ecdsaBrainpoolP256r1 | ... } | reconstructionValue EccP256CurvePoint | ... */
	int vki = read_choice(c);
	int key = vki == 0 ? read_choice(c) : vki == 1 ? 0 : -1;
	if (key == 0 || key == 1) {
		tag = c->p;
		d->key_point = read_point(c, &d->key_form);
		note_cert_point(d, start, tag, d->key_form, false);
		d->key = vki == 0 ? V2X_DOT2_KEY_EXPLICIT : V2X_DOT2_KEY_IMPLICIT;
		d->key_curve = key == 0 ? V2X_DOT2_NISTP256 : V2X_DOT2_BRAINPOOLP256R1;
	} else if (vki > 1 || key > 1) {
		skip_open_type(c);
		d->key = V2X_DOT2_KEY_OTHER;
		d->key_curve = V2X_DOT2_CURVE_OTHER;
	}
	if (pre & 0x80)
		skip_extension_additions(c);
	enum v2x_dot2_curve sig_curve;
	if (has_signature &&
	    (tag = read_signature(c, &sig_curve, &form, NULL, NULL)))
		note_cert_point(d, start, tag, form, true);
	if (!c->err) {
		d->cert = start;
		d->cert_len = (size_t)(c->p - start);
	} else {
		d->key = V2X_DOT2_KEY_NONE;
	}
}

/* The signer, and the signature after it when it can be located (after a digest, self,
 * or one certificate read to its end): on a copy, as nothing after it is needed. */
static void read_signer(struct v2x_cursor *c, struct v2x_dot2 *d)
{
	struct v2x_cursor sig = *c;
	int alt = read_choice(c);
	switch (alt) {
	case V2X_DOT2_SIGNER_DIGEST: {
		const uint8_t *h = v2x_bytes(c, sizeof(d->digest));
		if (h)
			memcpy(d->digest, h, sizeof(d->digest));
		sig = *c;
		break;
	}
	case V2X_DOT2_SIGNER_CERTIFICATE: {
		d->n_certs = (unsigned)read_quantity(c);
		/* on a copy: a certificate not understood leaves the signer as read */
		struct v2x_cursor cert = *c;
		if (!c->err && d->n_certs)
			read_certificate(&cert, d);
		sig = cert;
		if (!d->cert || d->n_certs != 1)
			sig.err = true;
		break;
	}
	case V2X_DOT2_SIGNER_SELF:
		sig = *c;
		break;
	default:
		if (alt > V2X_DOT2_SIGNER_SELF)
			skip_open_type(c);
		d->signer = V2X_DOT2_SIGNER_NONE;
		return;
	}
	d->signer = c->err ? V2X_DOT2_SIGNER_NONE : (enum v2x_dot2_signer)alt;
	uint8_t form;
	enum v2x_dot2_curve curve;
	const uint8_t *r = NULL, *s = NULL;
	if (!c->err && !sig.err) {
		read_signature(&sig, &curve, &form, &r, &s);
		if (!sig.err && (curve == V2X_DOT2_CURVE_OTHER || (r && s))) {
			d->sig_curve = curve;
			d->sig_r = r;
			d->sig_s = s;
		}
	}
}

static int read_data(struct v2x_cursor *c, struct v2x_dot2 *d, bool nested,
		     const char **why);

/* SignedData up to the signer: hashId, tbsData { payload, headerInfo }, signer. */
static int read_signed(struct v2x_cursor *c, struct v2x_dot2 *d, const char **why)
{
	static const size_t hashed_data_sizes[] = {32};
	d->hash_id = v2x_u8(c);
	const uint8_t *tbs = c->p;
	uint8_t preamble = v2x_u8(c); /* SignedDataPayload: ext, data?, extDataHash? */
	if (preamble & 0x40) {
		struct v2x_dot2 inner;
		if (read_data(c, &inner, true, why) < 0)
			return -1;
		d->payload = inner.payload;
		d->payload_len = inner.payload_len;
	}
	if (preamble & 0x20)
		skip_fixed_choice(c, hashed_data_sizes, 1, true);
	if (preamble & 0x80)
		skip_extension_additions(c);
	if (c->err) {
		*why = "IEEE 1609.2 signed payload truncated or malformed";
		return -1;
	}
	read_header_info(c, d);
	if (c->err) {
		*why = "IEEE 1609.2 headerInfo truncated or malformed";
		return -1;
	}
	d->tbs = tbs;
	d->tbs_len = (size_t)(c->p - tbs);
	read_signer(c, d);
	if (c->err) {
		*why = "IEEE 1609.2 signer truncated or malformed";
		return -1;
	}
	return 0;
}

/* Where the members only signedData sets start (zero.h: cleared in pieces) */
#define SIGNED_PART offsetof(struct v2x_dot2, digest)

/* Ieee1609Dot2Data { protocolVersion, content }. A nested one (a signed payload)
 * must be unsecuredData: anything else would have to be parsed to its end. */
static int read_data(struct v2x_cursor *c, struct v2x_dot2 *d, bool nested,
		     const char **why)
{
	v2x_zero(d, SIGNED_PART); /* the rest for signedData alone (ieee1609dot2.h) */
	d->signer = V2X_DOT2_SIGNER_NONE;
	d->version = v2x_u8(c);
	if (!c->err && d->version != DOT2_PROTOCOL_VERSION) {
		*why = "IEEE 1609.2 protocolVersion is not 3";
		return -1;
	}
	int alt = read_choice(c);
	if (c->err) {
		*why = "IEEE 1609.2 data truncated or content tag malformed";
		return -1;
	}
	d->content = alt <= V2X_DOT2_SIGNED_CERT_REQUEST ? (enum v2x_dot2_content)alt
							 : V2X_DOT2_OTHER;
	if (nested && d->content != V2X_DOT2_UNSECURED) {
		*why = "IEEE 1609.2 signed payload is not unsecuredData";
		return -1;
	}
	switch (d->content) {
	case V2X_DOT2_UNSECURED: {
		size_t n = read_length(c);
		d->payload = v2x_bytes(c, n);
		d->payload_len = d->payload ? n : 0;
		break;
	}
	case V2X_DOT2_SIGNED:
		v2x_zero((char *)d + SIGNED_PART, sizeof(*d) - SIGNED_PART);
		return read_signed(c, d, why);
	case V2X_DOT2_ENCRYPTED: /* recipients and ciphertext: nothing readable */
		break;
	case V2X_DOT2_SIGNED_CERT_REQUEST:
	case V2X_DOT2_OTHER:
		skip_open_type(c); /* Opaque, or an extension alternative */
		break;
	}
	if (c->err) {
		*why = "IEEE 1609.2 data truncated";
		return -1;
	}
	return 0;
}

int v2x_dot2_parse(const uint8_t *buf, size_t len, struct v2x_dot2 *d, const char **why)
{
	struct v2x_cursor c;
	v2x_cur_init(&c, buf, len);
	return read_data(&c, d, false, why);
}

const char *v2x_dot2_content_name(enum v2x_dot2_content content)
{
	switch (content) {
	case V2X_DOT2_UNSECURED:
		return "unsecuredData";
	case V2X_DOT2_SIGNED:
		return "signedData";
	case V2X_DOT2_ENCRYPTED:
		return "encryptedData";
	case V2X_DOT2_SIGNED_CERT_REQUEST:
		return "signedCertificateRequest";
	case V2X_DOT2_OTHER:
		break;
	}
	return "other";
}

/* A certificate longer than this with points to rewrite is not hashed: end-entity
 * certificates are a few hundred octets */
#define CANONICAL_MAX 1024

bool v2x_dot2_cert_hash(const struct v2x_dot2 *d, uint8_t h[32])
{
	if (d->content != V2X_DOT2_SIGNED || !d->cert)
		return false;
	if (!d->n_cert_points) { /* the usual case: sent in the canonical form */
		v2x_sha256(d->cert, d->cert_len, h);
		return true;
	}
	if (d->cert_len > CANONICAL_MAX)
		return false;
	uint8_t out[CANONICAL_MAX];
	size_t n = 0, from = 0;
	for (unsigned i = 0; i < d->n_cert_points; i++) {
		const struct v2x_dot2_cert_point *pt = &d->cert_points[i];
		const uint8_t *x = d->cert + pt->off + 1;
		memcpy(out + n, d->cert + from, pt->off - from);
		n += pt->off - from;
		/* a key's y parity picks compressed-y-0/1; a signature's r keeps x only */
		out[n++] = (uint8_t)(COER_CONTEXT_TAG |
				     (pt->sig_r ? V2X_ECC_X_ONLY
						: V2X_ECC_COMPRESSED_Y0 + (x[63] & 1)));
		memcpy(out + n, x, 32);
		n += 32;
		from = pt->off + 1u + (pt->form == V2X_ECC_UNCOMPRESSED ? 64u : 32u);
	}
	memcpy(out + n, d->cert + from, d->cert_len - from);
	n += d->cert_len - from;
	v2x_sha256(out, n, h);
	return true;
}

bool v2x_dot2_signer_id(const struct v2x_dot2 *d, uint8_t id[8])
{
	if (d->signer == V2X_DOT2_SIGNER_DIGEST) {
		memcpy(id, d->digest, 8);
		return true;
	}
	uint8_t h[32];
	if (d->signer != V2X_DOT2_SIGNER_CERTIFICATE || !v2x_dot2_cert_hash(d, h))
		return false;
	memcpy(id, h + 24, 8); /* HashedId8: the low-order eight octets */
	return true;
}

/* The appPermissions entry of psid in the signer's certificate; -1 when it has none (or
 * none were read). */
static int app_entry(const struct v2x_dot2 *d, uint32_t psid)
{
	if (d->content != V2X_DOT2_SIGNED || !d->has_app_psids)
		return -1;
	for (unsigned i = 0; i < d->n_app_psids; i++)
		if (d->app_psids[i] == psid)
			return (int)i;
	return -1;
}

bool v2x_dot2_cert_permits(const struct v2x_dot2 *d, uint32_t psid)
{
	if (d->content != V2X_DOT2_SIGNED || !d->has_app_psids ||
	    d->n_app_psids == V2X_DOT2_MAX_APP_PSIDS)
		return true; /* none read, or more than kept: nothing to say */
	return app_entry(d, psid) >= 0;
}

const struct v2x_dot2_ssp *v2x_dot2_cert_ssp(const struct v2x_dot2 *d, uint32_t psid)
{
	int i = app_entry(d, psid);
	return i < 0 ? NULL : &d->app_ssps[i];
}

const char *v2x_dot2_ssp_kind_name(enum v2x_dot2_ssp_kind k)
{
	switch (k) {
	case V2X_DOT2_SSP_NONE:
		return "none";
	case V2X_DOT2_SSP_OPAQUE:
		return "opaque";
	case V2X_DOT2_SSP_BITMAP:
		return "bitmapSsp";
	case V2X_DOT2_SSP_OTHER:
		break;
	}
	return "other";
}

unsigned v2x_coer_length_encode(size_t n, uint8_t out[5])
{
	if (n < 0x80) {
		out[0] = (uint8_t)n;
		return 1;
	}
	unsigned octets = 1;
	while (octets < 4 && n >> (8 * octets))
		octets++;
	out[0] = (uint8_t)(0x80 | octets);
	for (unsigned i = 0; i < octets; i++)
		out[1 + i] = (uint8_t)(n >> (8 * (octets - 1 - i)));
	return 1 + octets;
}
