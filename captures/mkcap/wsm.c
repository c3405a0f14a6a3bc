/* mkcap: the frame options as libv2x encoder specs: a 1609.2 envelope (COER) and a WSMP
 * v3 or legacy v2 header (IEEE 1609.3-2016 / -2010) around a payload. */
#include "mkcap.h"

/* 1609.2 Time64 counts TAI microseconds from 2004-01-01 00:00:00 UTC; TAI has been
 * 5 s ahead of UTC's count since then (leap seconds of 2005, 2008, 2012, 2015, 2016). */
#define TAI_LEAP_SINCE_2004_S 5ull

void dot2_wrap(struct v2x_buf *out, const struct frame_opts *o, const struct frame_ctx *f,
	       const uint8_t *payload, size_t n)
{
	if (o->dot2 == DOT2_NONE) {
		v2x_put(out, payload, n);
		return;
	}
	/* signed: the signer digest is made from the sender's MAC */
	struct v2x_dot2_spec s = {
		.content = o->dot2 == DOT2_SIGNED ? V2X_DOT2_SIGNED : V2X_DOT2_UNSECURED,
		.psid = o->psid,
		.generation_time = f->ts_us - UNIX_2004_S * 1000000u +
				   TAI_LEAP_SINCE_2004_S * 1000000u,
		.digest = {0xD1, 0xD2, o->src[0], o->src[1], o->src[2], o->src[3], o->src[4],
			   o->src[5]},
	};
	v2x_dot2_write(out, &s, payload, n);
}

void wsmp_wrap(struct v2x_buf *out, const struct frame_opts *o, const uint8_t *wsm, size_t n)
{
	struct v2x_wsmp_spec s = {
		.version = o->wsmp_version,
		.tpid = o->tpid,
		.psid = o->psid,
		.lpp = o->lpp,
		.psid_raw = o->psid_raw_len ? o->psid_raw : NULL,
		.psid_raw_len = o->psid_raw_len,
		.src_port = o->udp_port,
		.dst_port = o->udp_port,
		.ext = o->ext,
		.n_ext = o->n_ext,
		.length = o->wsm_len,
	};
	v2x_wsmp_write(out, &s, wsm, n);
}
