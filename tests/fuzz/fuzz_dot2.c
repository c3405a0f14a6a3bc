/* libFuzzer harness over the IEEE 1609.2 Ieee1609Dot2Data envelope (lib/ieee1609dot2.c,
 * COER): the payload it hands on to J2735, and what signature verification reads
 * (tbsData, the signature, the certificate and its key) and the certificate's SSPs must
 * lie inside the input. */
#include <stddef.h>
#include <stdint.h>

#include "ieee1609dot2.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct v2x_dot2 d;
	const char *why = NULL;
	if (v2x_dot2_parse(data, size, &d, &why) < 0) {
		if (!why)
			__builtin_trap(); /* a failure must say why */
		return 0;
	}
	if (d.payload_len && (d.payload < data || d.payload + d.payload_len > data + size))
		__builtin_trap();
	if (d.content != V2X_DOT2_SIGNED) /* the signer's members are signedData's alone */
		return 0;
	if (d.tbs && (d.tbs < data || d.tbs + d.tbs_len > data + size))
		__builtin_trap();
	if (d.sig_curve != V2X_DOT2_CURVE_NONE && d.sig_curve != V2X_DOT2_CURVE_OTHER &&
	    (d.sig_r < data || d.sig_s < data || d.sig_r + 32 > data + size ||
	     d.sig_s + 32 > data + size))
		__builtin_trap();
	if (d.cert && (d.cert < data || d.cert + d.cert_len > data + size))
		__builtin_trap();
	static const size_t point_len[] = {32, 0, 32, 32, 64}; /* by EccP256CurvePoint form */
	if (d.key == V2X_DOT2_KEY_EXPLICIT &&
	    (d.key_form > V2X_ECC_UNCOMPRESSED || d.key_point < d.cert ||
	     d.key_point + point_len[d.key_form] > d.cert + d.cert_len))
		__builtin_trap();
	for (unsigned i = 0; i < d.n_app_psids; i++) { /* each SSP inside the input */
		const struct v2x_dot2_ssp *s = &d.app_ssps[i];
		if (s->octets ? s->octets < data || s->octets + s->len > data + size : s->len)
			__builtin_trap();
	}
	uint8_t h[32], id[8];
	(void)v2x_dot2_cert_hash(&d, h); /* the canonical copy stays in its bounds */
	(void)v2x_dot2_signer_id(&d, id);
	(void)v2x_dot2_content_name(d.content);
	return 0;
}
