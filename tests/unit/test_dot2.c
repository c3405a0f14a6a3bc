/* IEEE 1609.2 envelope (COER): signed and unsecured vectors from asn1_codec, jpo-ode
 * and device captures checked against their decodes, hand-built envelopes for the
 * optional parts, and clean errors for every cut and malformed tag. */
#include <stdlib.h>
#include <string.h>

#include "ieee1609dot2.h"
#include "sha256.h"
#include "unit.h"

/* Signed, certificate signer: the values of asn1_codec Ieee1609Dot2Data.signedData.xml
 * (payload "This is a BSM\r\n", psid 32, generationTime 1112131415161718 =
 * 0x0003f37a45f1bb76), certificate count 1, certificate and signature cut short. */
#define SIGNED_WITH_CERTIFICATE                                                          \
	"03 81 00 40 03 80 0f 5468697320697320612042534d0d0a"                            \
	"40 0120 0003f37a45f1bb76"                                                      \
	"81 0101 00 03 01 80 2122232425262728"
#define SIGNED_WITH_CERTIFICATE_SIGNER_END 36

/* Every HeaderInfo optional field, a public encryption key and one extension addition
 * (requestedCertificate as a 3-octet open type), then a digest signer. */
#define HEADER_INFO_ALL_FIELDS                                                           \
	"03 81 00 40 03 80 02 0014"                                                     \
	"fe 0120 0000000000000001 0000000000000002"                                     \
	"11111111 22222222 3333 444444"                                                 \
	"00 555555 0066"                                                                \
	"80 00 80 82 7777777777777777777777777777777777777777777777777777777777777777"  \
	"02 06 40 03 aabbcc"                                                            \
	"80 0102030405060708 80 80"
#define HEADER_INFO_ALL_FIELDS_SIGNER_END 99

struct parsed {
	uint8_t *buf;
	size_t len;
	struct v2x_dot2 d;
	const char *why;
	int rc;
};

static struct parsed parse_buf(uint8_t *buf, size_t len)
{
	struct parsed p = {.buf = buf, .len = len};
	if (buf)
		p.rc = v2x_dot2_parse(buf, len, &p.d, &p.why);
	else
		p.rc = -2;
	return p;
}

static struct parsed parse_hex(const char *hex)
{
	size_t len;
	uint8_t *b = unit_hex(hex, &len);
	return parse_buf(b, len);
}

/* Parses an envelope that must be accepted; NULL when buf is NULL (a missing vector:
 * the case is skipped). Takes buf; the result points into it, both last until the case
 * ends. */
static const struct v2x_dot2 *parse_buf_ok(uint8_t *buf, size_t len)
{
	struct parsed *p = unit_keep(malloc(sizeof(*p)));
	*p = parse_buf(unit_keep(buf), len);
	if (p->rc == -2)
		return NULL;
	CHECK_INT(p->rc, 0);
	return &p->d;
}

static const struct v2x_dot2 *parse_ok(const char *hex)
{
	size_t len;
	uint8_t *b = unit_hex(hex, &len);
	return parse_buf_ok(b, len);
}

TEST(dot2_udp2_signed_bsm)
{
	size_t len;
	uint8_t *b = unit_vector_file("ieee1609-examples/udp2-data.bin", &len);
	const struct v2x_dot2 *d = parse_buf_ok(b, b ? len : 0);
	if (!d)
		return;
	/* udp2-data.json */
	CHECK_INT(d->version, 3);
	CHECK_INT(d->content, V2X_DOT2_SIGNED);
	CHECK_INT(d->hash_id, 0); /* sha256 */
	CHECK(d->has_psid);
	CHECK_INT(d->psid, 32);
	CHECK(d->has_generation_time);
	CHECK_INT(d->generation_time, 637434485860000LL);
	CHECK_INT(d->signer, V2X_DOT2_SIGNER_DIGEST);
	CHECK_MEM(d->digest, "\xb2\xef\xb1\xbb\x38\x32\x8c\x83", 8);
	CHECK_INT(d->payload_len, 95);
	CHECK(d->payload_len == 95 && memcmp(d->payload, "\x00\x14\x5c\x5a", 4) == 0 &&
	      memcmp(d->payload + 91, "\x28\x08\x54\x00", 4) == 0);
}

TEST(dot2_unsecured_bsm_wrapper)
{
	size_t len, want_len;
	uint8_t *b = unit_vector_hex("asn1_codec/Ieee1609Dot2Data.unsecuredData.Bsm.coer.hex", &len);
	struct parsed p = parse_buf(b, b ? len : 0);
	uint8_t *want = unit_vector_xml_hex("asn1_codec/Ieee1609Dot2Data.unsecuredData.Bsm.xml",
					    "unsecuredData", &want_len);
	if (p.rc != -2 && want) {
		CHECK_INT(p.rc, 0);
		CHECK_INT(p.d.content, V2X_DOT2_UNSECURED);
		CHECK(!p.d.has_psid);
		CHECK_INT(p.d.signer, V2X_DOT2_SIGNER_NONE);
		CHECK_INT(p.d.payload_len, want_len);
		CHECK(p.d.payload_len == want_len && memcmp(p.d.payload, want, want_len) == 0);
	}
	free(p.buf);
	free(want);
}

TEST(dot2_signed_bsm_asn1_codec)
{
	size_t len;
	uint8_t *b = unit_vector_file("asn1_codec/Ieee1609Dot2Data.unsecuredData.Bsm.coer", &len);
	const struct v2x_dot2 *d = parse_buf_ok(b, b ? len : 0);
	if (!d)
		return;
	CHECK_INT(d->content, V2X_DOT2_SIGNED);
	CHECK_INT(d->psid, 32);
	CHECK_INT(d->generation_time, 0x0001869cfa1aefccLL);
	CHECK_INT(d->signer, V2X_DOT2_SIGNER_DIGEST);
	CHECK_MEM(d->digest, "\x85\xc3\xce\xed\xa2\x19\x1f\x14", 8);
	CHECK_INT(d->payload_len, 134);
	CHECK(d->payload && d->payload[0] == 0x00 && d->payload[1] == 0x14); /* BSM */
}

TEST(dot2_signed_tim_jpo_ode)
{
	size_t len;
	uint8_t *b = unit_vector_xml_hex("jpo-ode/decoder-output-tim.xml", "asn1", &len);
	const struct v2x_dot2 *d = parse_buf_ok(b, b ? len : 0);
	if (!d)
		return;
	CHECK_INT(d->content, V2X_DOT2_SIGNED);
	CHECK_INT(d->psid, 0x83); /* traveller information */
	CHECK(d->has_generation_time);
	CHECK_INT(d->signer, V2X_DOT2_SIGNER_DIGEST);
	CHECK_MEM(d->digest, "\xa3\x00\x29\xd6\x58\x50\x09\xef", 8);
	CHECK_INT(d->payload_len, 212);
	CHECK(d->payload && d->payload[0] == 0x00 && d->payload[1] == 0x1f); /* TIM */
}

TEST(dot2_signed_with_certificate_signer)
{
	const struct v2x_dot2 *d = parse_ok(SIGNED_WITH_CERTIFICATE);
	CHECK_INT(d->content, V2X_DOT2_SIGNED);
	CHECK_INT(d->psid, 32);
	CHECK_INT(d->generation_time, 1112131415161718LL);
	CHECK_INT(d->signer, V2X_DOT2_SIGNER_CERTIFICATE);
	CHECK_INT(d->n_certs, 1);
	CHECK_INT(d->payload_len, 15);
	CHECK(d->payload_len == 15 && memcmp(d->payload, "This is a BSM\r\n", 15) == 0);
}

TEST(dot2_header_info_optional_fields_skipped)
{
	const struct v2x_dot2 *d = parse_ok(HEADER_INFO_ALL_FIELDS);
	CHECK_INT(d->psid, 0x20);
	CHECK_INT(d->generation_time, 1);
	CHECK_INT(d->signer, V2X_DOT2_SIGNER_DIGEST);
	CHECK_MEM(d->digest, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	CHECK_INT(d->payload_len, 2);
}

TEST(dot2_header_info_symmetric_key_skipped)
{
	const struct v2x_dot2 *d = parse_ok("03 81 00 40 03 80 01 aa 02 0120"
					    "81 80 00112233445566778899aabbccddeeff"
					    "82 80");
	CHECK(!d->has_generation_time);
	CHECK_INT(d->psid, 0x20);
	CHECK_INT(d->signer, V2X_DOT2_SIGNER_SELF);
}

TEST(dot2_two_octet_psid_in_header_info)
{
	const struct v2x_dot2 *d = parse_ok("03 81 00 40 03 80 00 00 02 8010 80 0102030405060708");
	CHECK_INT(d->psid, 0x8010);
	CHECK_INT(d->payload_len, 0);
}

TEST(dot2_ext_data_hash_has_no_payload)
{
	const struct v2x_dot2 *d = parse_ok("03 81 00 20 80 "
					    "0000000000000000000000000000000000000000000000000000000000000000"
					    "00 0127 82");
	CHECK(d->payload == NULL);
	CHECK_INT(d->payload_len, 0);
	CHECK_INT(d->psid, 0x27);
	CHECK_INT(d->signer, V2X_DOT2_SIGNER_SELF);
}

TEST(dot2_encrypted_content_has_no_payload)
{
	const struct v2x_dot2 *d = parse_ok("03 82 01 80 aabbcc");
	CHECK_INT(d->content, V2X_DOT2_ENCRYPTED);
	CHECK(d->payload == NULL);
	CHECK_STR(v2x_dot2_content_name(d->content), "encryptedData");
}

TEST(dot2_content_names)
{
	CHECK_STR(v2x_dot2_content_name(V2X_DOT2_UNSECURED), "unsecuredData");
	CHECK_STR(v2x_dot2_content_name(V2X_DOT2_SIGNED), "signedData");
	CHECK_STR(v2x_dot2_content_name(V2X_DOT2_SIGNED_CERT_REQUEST),
		  "signedCertificateRequest");
	CHECK_STR(v2x_dot2_content_name(V2X_DOT2_OTHER), "other");
}

TEST(dot2_long_form_length)
{
	char hex[700] = "03 80 82 0100 ";
	for (int i = 0; i < 256; i++)
		strcat(hex, "a5");
	const struct v2x_dot2 *d = parse_ok(hex);
	CHECK_INT(d->payload_len, 256);
}

static void check_rejected(const char *hex, const char *why_part)
{
	struct parsed p = parse_hex(hex);
	CHECK_INT(p.rc, -1);
	if (!p.why || !strstr(p.why, why_part))
		unit_fail(__FILE__, __LINE__, "%s: why \"%s\" lacks \"%s\"", hex,
			  p.why ? p.why : "(null)", why_part);
	free(p.buf);
}

TEST(dot2_malformed_rejected)
{
	check_rejected("02 80 01 aa", "protocolVersion");
	check_rejected("03 40 01 aa", "content tag");
	check_rejected("03 80 85 0000000001 aa", "truncated");           /* 5-octet length */
	check_rejected("03 81 00 40 03 81 00 40", "not unsecuredData"); /* nested signed */
	check_rejected("03 81 00 40 03 80 00 00 05 0102030405 80", "headerInfo");
	check_rejected("03 81 00 40 03 80 00 00 01 20 40", "signer");
}

TEST(dot2_three_msgs_file_rejected_cleanly)
{
	size_t len;
	uint8_t *b = unit_vector_file("asn1_codec/Ieee1609Dot2Data.3.msgs.coer", &len);
	if (!b)
		return;
	/* starts 00 00: not protocolVersion 3 */
	struct parsed p = parse_buf(b, len);
	CHECK_INT(p.rc, -1);
	CHECK(p.why && strstr(p.why, "protocolVersion"));
	/* from any offset: an answer, never a crash or an over-read */
	for (size_t off = 0; off < len; off++) {
		struct v2x_dot2 d;
		const char *why = NULL;
		if (v2x_dot2_parse(b + off, len - off, &d, &why) != 0 && !why)
			unit_fail(__FILE__, __LINE__, "offset %zu: error without why", off);
	}
	free(b);
}

/* Every cut before the end of the signer is an error with a reason (the signature
 * after it is not read). Each cut is an exact-size copy for the sanitizers. */
static void check_every_cut(const uint8_t *buf, size_t len, size_t signer_end)
{
	for (size_t cut = 0; cut <= len; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);
		memcpy(copy, buf, cut);
		struct v2x_dot2 d;
		const char *why = NULL;
		int rc = v2x_dot2_parse(copy, cut, &d, &why);
		if (cut < signer_end && (rc != -1 || !why))
			unit_fail(__FILE__, __LINE__, "cut at %zu accepted", cut);
		if (cut >= signer_end && rc != 0)
			unit_fail(__FILE__, __LINE__, "cut at %zu rejected: %s", cut, why);
		free(copy);
	}
}

TEST(dot2_truncated_at_every_offset)
{
	size_t len;
	uint8_t *b = unit_vector_file("ieee1609-examples/udp2-data.bin", &len);
	if (b)
		check_every_cut(b, len, len - 66); /* ecdsaNistP256Signature: 66 octets */
	free(b);
	b = unit_vector_file("asn1_codec/Ieee1609Dot2Data.unsecuredData.Bsm.coer", &len);
	if (b)
		check_every_cut(b, len, len - 66);
	free(b);
	b = unit_vector_hex("asn1_codec/Ieee1609Dot2Data.unsecuredData.Bsm.coer.hex", &len);
	if (b)
		check_every_cut(b, len, len);
	free(b);
	b = unit_hex(SIGNED_WITH_CERTIFICATE, &len);
	check_every_cut(b, len, SIGNED_WITH_CERTIFICATE_SIGNER_END);
	free(b);
	b = unit_hex(HEADER_INFO_ALL_FIELDS, &len);
	check_every_cut(b, len, HEADER_INFO_ALL_FIELDS_SIGNER_END);
	free(b);
}

TEST(dot2_coer_length_encoding_read_back)
{
	static const struct { size_t n; unsigned len; uint8_t b0, b1; } cases[] = {
		{0, 1, 0x00, 0}, {127, 1, 0x7f, 0}, {128, 2, 0x81, 0x80}, {255, 2, 0x81, 0xff},
		{256, 3, 0x82, 0x01}, {65535, 3, 0x82, 0xff}, {65536, 4, 0x83, 0x01},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t out[5] = {0};
		CHECK_INT(v2x_coer_length_encode(cases[i].n, out), cases[i].len);
		CHECK_INT(out[0], cases[i].b0);
		if (cases[i].len > 1)
			CHECK_INT(out[1], cases[i].b1);
	}
	/* Every length written is the one the parser reads: an unsecuredData envelope. */
	static uint8_t buf[3 + 5 + 70000];
	for (size_t n = 0; n < sizeof(buf) - 8; n = n < 300 ? n + 1 : n * 2) {
		buf[0] = 0x03;
		buf[1] = 0x80;
		size_t hdr = 2 + v2x_coer_length_encode(n, buf + 2);
		struct v2x_dot2 d;
		const char *why = NULL;
		CHECK_INT(v2x_dot2_parse(buf, hdr + n, &d, &why), 0);
		CHECK_INT(d.payload_len, n);
		CHECK(d.payload == buf + hdr);
	}
}

/* The certificate of asn1_codec Ieee1609Dot2Data.signedData.xml whole (implicit,
 * linkageData id, identifiedRegion 124 484 840, hours 169, appPermissions 32 and 38,
 * reconstructionValue, its signature), then the data's signature. Wireshark 4.0's
 * ieee1609dot2 dissector reads it as stated, malformed nowhere. */
#define CERTIFICATE_HEAD                                                                 \
	"80 03 01 80 2122232425262728"                                                  \
	"50 80 80 03e8 313233343536373839 41424344 515253545556575859"                 \
	"616263 0046 04e09a20 84 00a9"                                                  \
	"83 0103 80007c 8001e4 800348"
#define CERTIFICATE_TAIL                                                                 \
	"81 82 9192939495969798919293949596979891929394959697989192939495969798"        \
	"80 82 3132333435363738313233343536373831323334353637383132333435363738"        \
	"4142434445464748414243444546474841424344454647484142434445464748"
#define CERTIFICATE_WHOLE CERTIFICATE_HEAD "0102 00 0120 00 0126" CERTIFICATE_TAIL
#define SIGNATURE                                                                        \
	"80 82 3132333435363738313233343536373831323334353637383132333435363738"        \
	"4142434445464748414243444546474841424344454647484142434445464748"

TEST(dot2_certificate_app_permissions_and_hashedid8)
{
	const struct v2x_dot2 *d = parse_ok(
		"03 81 00 40 03 80 0f 5468697320697320612042534d0d0a"
		"40 0120 0003f37a45f1bb76 81 0101 " CERTIFICATE_WHOLE SIGNATURE);
	if (!d)
		return;
	CHECK_INT(d->signer, V2X_DOT2_SIGNER_CERTIFICATE);
	CHECK_INT(d->has_app_psids, 1);
	CHECK_INT(d->n_app_psids, 2);
	CHECK_INT(d->app_psids[0], 0x20);
	CHECK_INT(d->app_psids[1], 0x26);
	CHECK_INT(d->cert_len, 171);
	CHECK(v2x_dot2_cert_permits(d, 0x20));
	CHECK(!v2x_dot2_cert_permits(d, 0x82));
	/* HashedId8 hashes the canonical encoding: the certificate's signature r (sent
	 * compressed-y-0, 80 82) as x-only (80 80); Python's hashlib.sha256 of those 171
	 * octets ends 41aae5faeee93bed */
	uint8_t id[8], want[8] = {0x41, 0xaa, 0xe5, 0xfa, 0xee, 0xe9, 0x3b, 0xed};
	CHECK(v2x_dot2_signer_id(d, id));
	CHECK_MEM(id, want, 8);
	/* what verification reads: tbsData (from 40 03 80 to the generationTime: 4 + 15 +
	 * 3 + 8 octets), the implicit key (reconstructionValue), the signature after the
	 * certificate */
	CHECK_INT(d->tbs_len, 30);
	CHECK_INT(d->tbs[0], 0x40);
	CHECK_INT(d->key, V2X_DOT2_KEY_IMPLICIT);
	CHECK_INT(d->sig_curve, V2X_DOT2_NISTP256);
	CHECK_INT(d->sig_r[0], 0x31);
	CHECK_INT(d->sig_s[0], 0x41);
	CHECK_INT(d->n_cert_points, 1);
}

/* The same certificate with an SSP in each appPermissions entry (no vector holds a
 * certificate with SSPs: ieee1609-examples' and jpo-ode's signers are digests, the
 * asn1_codec certificate has none): 0x20 opaque 0a0b0c; 0x26 bitmapSsp 8040 (tag 81, an
 * open type of 3 octets: length 02, 80 40); 0x27 an extension alternative unknown to
 * 1609.2-2016 (tag 82, 2 octets); 0x82 without SSP. Expected values: Wireshark 4.0.17's
 * ieee1609dot2 dissector (asn2wrs from IEEE's ASN.1; the frame built with mkcap --dot2
 * none, read with tshark -V) reads the first two as "opaque: 0a0b0c" and "bitmapSsp:
 * 8040", the third's ssp as "Unknown", the fourth as psid 130 alone, and the rest of the
 * certificate (verifyKeyIndicator, signature) after them, malformed nowhere. */
#define SIGNED_BY_CERTIFICATE_WITH_SSPS(perms)                                           \
	"03 81 00 40 03 80 0f 5468697320697320612042534d0d0a"                            \
	"40 0120 0003f37a45f1bb76 81 0101 " CERTIFICATE_HEAD perms CERTIFICATE_TAIL SIGNATURE
#define APP_PERMISSIONS_WITH_SSPS                                                         \
	"0104 80 0120 80 03 0a0b0c 80 0126 81 03 02 8040 80 0127 82 02 aabb 00 0182"

TEST(dot2_certificate_ssps)
{
	const struct v2x_dot2 *d =
		parse_ok(SIGNED_BY_CERTIFICATE_WITH_SSPS(APP_PERMISSIONS_WITH_SSPS));
	if (!d)
		return;
	CHECK(d->cert != NULL); /* read to its end: the SSPs skipped right */
	CHECK_INT(d->n_app_psids, 4);
	CHECK_INT(d->app_psids[3], 0x82);
	const struct v2x_dot2_ssp *s = v2x_dot2_cert_ssp(d, 0x20);
	CHECK(s && s->kind == V2X_DOT2_SSP_OPAQUE && s->len == 3);
	if (s && s->len == 3)
		CHECK_MEM(s->octets, "\x0a\x0b\x0c", 3);
	s = v2x_dot2_cert_ssp(d, 0x26);
	CHECK(s && s->kind == V2X_DOT2_SSP_BITMAP && s->len == 2);
	if (s && s->len == 2)
		CHECK_MEM(s->octets, "\x80\x40", 2);
	s = v2x_dot2_cert_ssp(d, 0x27);
	CHECK(s && s->kind == V2X_DOT2_SSP_OTHER && s->len == 0 && !s->octets);
	s = v2x_dot2_cert_ssp(d, 0x82);
	CHECK(s && s->kind == V2X_DOT2_SSP_NONE);
	CHECK(v2x_dot2_cert_ssp(d, 0x83) == NULL); /* not granted */
	CHECK_STR(v2x_dot2_ssp_kind_name(V2X_DOT2_SSP_BITMAP), "bitmapSsp");
	/* the asn1_codec certificate: PSIDs without SSP */
	d = parse_ok("03 81 00 40 03 80 0f 5468697320697320612042534d0d0a"
		     "40 0120 0003f37a45f1bb76 81 0101 " CERTIFICATE_WHOLE SIGNATURE);
	s = v2x_dot2_cert_ssp(d, 0x26);
	CHECK(s && s->kind == V2X_DOT2_SSP_NONE && s->len == 0);
}

TEST(dot2_certificate_ssp_malformed)
{
	/* a bitmapSsp whose open type (3 octets) holds more than its own length (01): the
	 * certificate is not understood, the signer is still a certificate */
	const struct v2x_dot2 *d = parse_ok(
		SIGNED_BY_CERTIFICATE_WITH_SSPS("0101 80 0120 81 03 01 8040"));
	if (!d)
		return;
	CHECK_INT(d->signer, V2X_DOT2_SIGNER_CERTIFICATE);
	CHECK(d->cert == NULL);
	CHECK(v2x_dot2_cert_ssp(d, 0x20) == NULL);
	/* every cut of the certificate with SSPs: an error with a reason, or the signer read
	 * without its certificate; never an over-read (sanitizers) */
	size_t len;
	uint8_t *b = unit_hex(SIGNED_BY_CERTIFICATE_WITH_SSPS(APP_PERMISSIONS_WITH_SSPS), &len);
	for (size_t cut = 0; cut < len; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);
		memcpy(copy, b, cut);
		struct v2x_dot2 c;
		const char *why = NULL;
		if (v2x_dot2_parse(copy, cut, &c, &why) == 0 && c.cert && c.cert + c.cert_len > copy + cut)
			unit_fail(__FILE__, __LINE__, "cut at %zu: certificate past the end", cut);
		free(copy);
	}
	free(b);
}

TEST(dot2_certificate_cut_short_keeps_the_signer)
{
	/* SIGNED_WITH_CERTIFICATE ends inside the certificate: signer read, no certificate */
	const struct v2x_dot2 *d = parse_ok(SIGNED_WITH_CERTIFICATE);
	if (!d)
		return;
	CHECK_INT(d->signer, V2X_DOT2_SIGNER_CERTIFICATE);
	CHECK(d->cert == NULL);
	uint8_t id[8];
	CHECK(!v2x_dot2_signer_id(d, id));
	CHECK(v2x_dot2_cert_permits(d, 0x82)); /* nothing read: nothing to say */
}

TEST(dot2_signer_id_of_a_digest_is_the_digest)
{
	const struct v2x_dot2 *d = parse_ok(
		"03 81 00 40 03 80 02 0014 40 0120 0000000000000001 80 0102030405060708");
	if (!d)
		return;
	uint8_t id[8], want[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	CHECK(v2x_dot2_signer_id(d, id));
	CHECK_MEM(id, want, 8);
}

/* FIPS 180-4 examples (NIST CSRC "SHA256.pdf"): one block, two blocks, and a length
 * whose padding needs a second block. */
TEST(sha256_fips_examples)
{
	uint8_t h[32];
	size_t len;
	v2x_sha256((const uint8_t *)"abc", 3, h);
	CHECK_MEM(h, unit_keep(unit_hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", &len)), 32);
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	v2x_sha256((const uint8_t *)two, strlen(two), h);
	CHECK_MEM(h, unit_keep(unit_hex("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", &len)), 32);
	v2x_sha256((const uint8_t *)"", 0, h);
	CHECK_MEM(h, unit_keep(unit_hex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", &len)), 32);
}
