/* v2xcap report: IEEE 1609.2 signatures verified with OpenSSL (optional at build): ECDSA
 * with SHA-256 over SHA-256(tbsData) || SHA-256(the signer certificate, canonical), with
 * the certificate's explicit verification key. A certificate heard in the capture also
 * verifies the later frames that name it by its digest. The certificate's own chain is
 * not checked: its issuer is not in the capture. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sha256.h"

#ifdef V2X_HAVE_OPENSSL
#include "dynlib.h"
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#endif

#define VERIFY_SOURCE                                                                     \
	"IEEE 1609.2 SignedData: ECDSA (NIST P-256 or brainpoolP256r1, SHA-256) over "      \
	"Hash(Hash(tbsData) || Hash(signer certificate in its canonical encoding: key "      \
	"points compressed, the signature's r x-only)), with the certificate's "             \
	"verification key; as vanetza computes it (security/v3/hash.cpp, "                   \
	"calculate_message_hash). The certificate's own signature (its issuer) is not checked"

const struct rpt_requirement rpt_req_signature = {
	"security.signature", "Signatures verify", VERIFY_SOURCE};
static const struct rpt_requirement req_unverified = {
	"security.signature-unverified", "Signatures verifiable from the capture",
	VERIFY_SOURCE};

/* Some signers are not verifiable from the frame; say why, once per sender */
static int unverified(struct report *r, struct rpt_sec *g, const struct rpt_where *at,
		      const char *sender, const char *why)
{
	g->sig_unverified++;
	return rpt_note(&r->findings, RPT_INFO, &req_unverified, sender, at, why);
}

#ifndef V2X_HAVE_OPENSSL

int rpt_verify_frame(struct report *r, struct rpt_sec *g, const struct rpt_where *at,
		     const struct v2x_frame *f, const char *sender)
{
	(void)f;
	(void)sender;
	/* one finding for the whole capture, not one per sender */
	return unverified(r, g, at, "", "signature verification needs OpenSSL (libssl-dev)");
}

void rpt_verify_free(struct report *r)
{
	(void)r;
}

#else

/* libcrypto, loaded by the first frame to verify (dynlib.h); each function with the type
 * its header gives it. */
#define CRYPTO_FUNCS(X) \
	X(OSSL_PARAM_construct_utf8_string) \
	X(OSSL_PARAM_construct_octet_string) \
	X(OSSL_PARAM_construct_end) \
	X(EVP_PKEY_CTX_new_from_name) \
	X(EVP_PKEY_fromdata_init) \
	X(EVP_PKEY_fromdata) \
	X(EVP_PKEY_CTX_free) \
	X(EVP_PKEY_free) \
	X(ECDSA_SIG_new) \
	X(ECDSA_SIG_set0) \
	X(ECDSA_SIG_free) \
	X(BN_bin2bn) \
	X(BN_free) \
	X(i2d_ECDSA_SIG) \
	X(EVP_MD_CTX_new) \
	X(EVP_DigestVerifyInit) \
	X(EVP_sha256) \
	X(EVP_DigestVerify) \
	X(EVP_MD_CTX_free) \
	X(CRYPTO_free)
#define CRYPTO_FIELD(f) __typeof__(&f) f;
static struct {
	CRYPTO_FUNCS(CRYPTO_FIELD)
} crypto;

/* 1 loaded, 0 not: *why says why (once per capture, as the finding's text) */
static int load_crypto(const char **why)
{
	static int state; /* 0 untried, 1 loaded, -1 failed */
	static char err[200];
#define CRYPTO_SYM(f) {#f, (void **)&crypto.f},
	const struct v2xcap_dynsym syms[] = {CRYPTO_FUNCS(CRYPTO_SYM)};
	if (state == 0) {
		char e[96];
		state = v2xcap_dynlib_load("libcrypto.so.3", syms, sizeof(syms) / sizeof(syms[0]),
					   e, sizeof(e)) == 0 ? 1 : -1;
		if (state < 0)
			snprintf(err, sizeof(err), "signature verification needs OpenSSL's "
				 "libcrypto.so.3 (Debian: libssl3): %s", e);
	}
	*why = err;
	return state > 0;
}

/* The uncompressed or compressed point of a verification key as OpenSSL reads it
 * (SEC 1: 04 x y, 02|03 x); 0 for an x-only or fill point, which is not a key */
static size_t key_octets(uint8_t form, const uint8_t *p, uint8_t out[65])
{
	if (form == V2X_ECC_UNCOMPRESSED) {
		out[0] = 4;
		memcpy(out + 1, p, 64);
		return 65;
	}
	if (form != V2X_ECC_COMPRESSED_Y0 && form != V2X_ECC_COMPRESSED_Y1)
		return 0;
	out[0] = form == V2X_ECC_COMPRESSED_Y0 ? 2 : 3;
	memcpy(out + 1, p, 32);
	return 33;
}

static EVP_PKEY *make_key(enum v2x_dot2_curve curve, uint8_t form, const uint8_t *point)
{
	uint8_t pub[65];
	size_t n = key_octets(form, point, pub);
	if (!n)
		return NULL;
	char group[24];
	snprintf(group, sizeof(group), "%s",
		 curve == V2X_DOT2_NISTP256 ? "prime256v1" : "brainpoolP256r1");
	OSSL_PARAM params[] = {
		crypto.OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
		crypto.OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, pub, n),
		crypto.OSSL_PARAM_construct_end(),
	};
	EVP_PKEY *key = NULL;
	EVP_PKEY_CTX *ctx = crypto.EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (!ctx || crypto.EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    crypto.EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		key = NULL;
	crypto.EVP_PKEY_CTX_free(ctx);
	return key;
}

/* 1 verifies, 0 does not, -1 out of memory */
static int ecdsa_verify(EVP_PKEY *key, const uint8_t r32[32], const uint8_t s32[32],
			const uint8_t *msg, size_t len)
{
	ECDSA_SIG *sig = crypto.ECDSA_SIG_new();
	BIGNUM *r = crypto.BN_bin2bn(r32, 32, NULL), *s = crypto.BN_bin2bn(s32, 32, NULL);
	if (!sig || !r || !s || !crypto.ECDSA_SIG_set0(sig, r, s)) {
		crypto.ECDSA_SIG_free(sig);
		crypto.BN_free(r);
		crypto.BN_free(s);
		return -1;
	}
	unsigned char *der = NULL;
	int der_len = crypto.i2d_ECDSA_SIG(sig, &der);
	crypto.ECDSA_SIG_free(sig);
	EVP_MD_CTX *md = crypto.EVP_MD_CTX_new();
	int rc = -1;
	if (der_len > 0 && md &&
	    crypto.EVP_DigestVerifyInit(md, NULL, crypto.EVP_sha256(), NULL, key) > 0)
		rc = crypto.EVP_DigestVerify(md, der, (size_t)der_len, msg, len) == 1;
	crypto.EVP_MD_CTX_free(md);
	crypto.CRYPTO_free(der, __FILE__, __LINE__);
	return rc;
}

/* The certificate of the frame in the cache (made when new), or the one its digest names;
 * NULL with *why when there is no key to verify with */
static struct rpt_cert_key *signer_key(struct report *r, const struct v2x_dot2 *d,
				       const char **why)
{
	uint8_t id[8];
	if (d->signer == V2X_DOT2_SIGNER_SELF) {
		*why = "self-signed: no verification key in the frame";
		return NULL;
	}
	if (d->signer == V2X_DOT2_SIGNER_CERTIFICATE && d->key == V2X_DOT2_KEY_IMPLICIT) {
		*why = "implicit certificate: its key is reconstructed with the issuer's "
		       "certificate, which the capture does not carry";
		return NULL;
	}
	if (d->signer == V2X_DOT2_SIGNER_CERTIFICATE && d->key != V2X_DOT2_KEY_EXPLICIT) {
		*why = "certificate not read to its verification key (permissions to issue, or "
		       "a key on another curve)";
		return NULL;
	}
	if (!v2x_dot2_signer_id(d, id)) {
		*why = "signer not identified";
		return NULL;
	}
	for (unsigned i = 0; i < r->n_certs; i++)
		if (memcmp(r->certs[i].id, id, 8) == 0)
			return &r->certs[i];
	if (d->signer == V2X_DOT2_SIGNER_DIGEST) {
		*why = "signer is a digest whose certificate was not heard before in the capture";
		return NULL;
	}
	/* a new certificate: the oldest entry gives way when the cache is full */
	struct rpt_cert_key *k = &r->certs[r->next_cert++ % RPT_CERT_CACHE];
	if (r->n_certs < RPT_CERT_CACHE)
		r->n_certs++;
	crypto.EVP_PKEY_free(k->key);
	memset(k, 0, sizeof(*k));
	memcpy(k->id, id, 8);
	if (!v2x_dot2_cert_hash(d, k->cert_hash)) {
		*why = "certificate too long to hash";
		memset(k->id, 0, 8);
		return NULL;
	}
	k->key = make_key(d->key_curve, d->key_form, d->key_point);
	return k;
}

int rpt_verify_frame(struct report *r, struct rpt_sec *g, const struct rpt_where *at,
		     const struct v2x_frame *f, const char *sender)
{
	const struct v2x_dot2 *d = &f->dot2;
	const char *why = NULL;
	struct rpt_cert_key *k = NULL;
	if (!load_crypto(&why)) /* one finding for the whole capture, as without OpenSSL */
		return unverified(r, g, at, "", why);
	if (d->hash_id != 0)
		why = "hashId is not SHA-256";
	else if (d->sig_curve == V2X_DOT2_CURVE_OTHER)
		why = "signature on a curve other than P-256 (NIST, brainpool)";
	else if (d->sig_curve == V2X_DOT2_CURVE_NONE)
		why = d->n_certs > 1 ? "signer is a chain of certificates: not read"
				     : "signature not located";
	else if (!d->tbs)
		why = "tbsData not read";
	else
		k = signer_key(r, d, &why);
	if (!k)
		return unverified(r, g, at, sender, why);
	int ok = 0;
	if (k->key) {
		uint8_t msg[64];
		v2x_sha256(d->tbs, d->tbs_len, msg);
		memcpy(msg + 32, k->cert_hash, 32);
		if ((ok = ecdsa_verify(k->key, d->sig_r, d->sig_s, msg, sizeof(msg))) < 0)
			return -1;
	}
	if (ok) {
		g->sig_verified++;
		return 0;
	}
	g->sig_failed++;
	struct rpt_finding *fi = rpt_finding(&r->findings, RPT_ERROR, &rpt_req_signature,
						   sender);
	if (!fi)
		return -1;
	if (!k->key) /* else the count, at the end (rpt_check_security) */
		snprintf(fi->text, sizeof(fi->text), "%s",
			 "the certificate's verification key is not a point of its curve");
	rpt_finding_at(fi, at);
	return 0;
}

void rpt_verify_free(struct report *r)
{
	for (unsigned i = 0; i < r->n_certs; i++)
		crypto.EVP_PKEY_free(r->certs[i].key); /* certs only once crypto is loaded */
}

#endif
