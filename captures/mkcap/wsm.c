/* mkcap: wraps a payload in an IEEE 1609.2 envelope (COER) and a WSMP v3 or legacy v2
 * header (IEEE 1609.3-2016 / -2010). */
#include "mkcap.h"
#include "ieee1609dot2.h"
#include "psid.h"
#include "wsmp.h"
#include "registry.h"

/* 1609.2 Time64 counts TAI microseconds from 2004-01-01 00:00:00 UTC; TAI has been
 * 5 s ahead of UTC's count since then (leap seconds of 2005, 2008, 2012, 2015, 2016). */
#define TAI_LEAP_SINCE_2004_S 5ull

static void coer_len(struct buf *b, size_t n)
{
	uint8_t len[5];
	buf_put(b, len, v2x_coer_length_encode(n, len));
}

/* Ieee1609Dot2Data { protocolVersion 3, content unsecuredData } */
static void dot2_unsecured(struct buf *b, const uint8_t *payload, size_t n)
{
	buf_u8(b, 3);
	buf_u8(b, 0x80); /* content: [0] unsecuredData */
	coer_len(b, n);
	buf_put(b, payload, n);
}

/* A syntactically valid signedData: sha256, payload = unsecuredData, headerInfo with
 * psid and generationTime, signer digest, a dummy ecdsaNistP256 x-only signature. */
static void dot2_signed(struct buf *b, const struct frame_opts *o, const struct frame_ctx *f,
			const uint8_t *payload, size_t n)
{
	buf_u8(b, 3);
	buf_u8(b, 0x81); /* content: [1] signedData */
	buf_u8(b, 0x00); /* hashId sha256 */
	buf_u8(b, 0x40); /* SignedDataPayload: no extension, data present, no extDataHash */
	dot2_unsecured(b, payload, n);
	buf_u8(b, 0x40); /* HeaderInfo: no extension, generationTime only */
	uint8_t psid[4];
	unsigned np = 0;
	for (uint32_t v = o->psid; v || np == 0; v >>= 8)
		np++;
	for (unsigned i = 0; i < np; i++)
		psid[i] = (uint8_t)(o->psid >> (8 * (np - 1 - i)));
	coer_len(b, np); /* Psid: INTEGER (0..MAX) in the fewest octets */
	buf_put(b, psid, np);
	buf_be64(b, f->ts_us - UNIX_2004_S * 1000000u + TAI_LEAP_SINCE_2004_S * 1000000u);
	buf_u8(b, 0x80); /* signer: [0] digest, HashedId8 made from the sender's MAC */
	buf_be16(b, 0xD1D2);
	buf_put(b, o->src, 6);
	buf_u8(b, 0x80); /* signature: [0] ecdsaNistP256Signature */
	buf_u8(b, 0x80); /* rSig: [0] x-only */
	for (unsigned i = 0; i < 64; i++) /* rSig x, then sSig: a fixed dummy value */
		buf_u8(b, (uint8_t)(i < 32 ? 0xA5 : 0x5A));
}

void dot2_wrap(struct buf *out, const struct frame_opts *o, const struct frame_ctx *f,
	       const uint8_t *payload, size_t n)
{
	switch (o->dot2) {
	case DOT2_NONE:
		buf_put(out, payload, n);
		break;
	case DOT2_UNSECURED:
		dot2_unsecured(out, payload, n);
		break;
	case DOT2_SIGNED:
		dot2_signed(out, o, f, payload, n);
		break;
	}
}

static void wsmp_count(struct buf *b, size_t n)
{
	uint8_t octets[2];
	buf_put(b, octets, v2x_wsmp_count_encode(n, octets));
}

static void wsmp_psid(struct buf *b, const struct frame_opts *o)
{
	if (o->psid_raw_len) {
		buf_put(b, o->psid_raw, o->psid_raw_len);
		return;
	}
	uint8_t p[4];
	unsigned n = v2x_psid_encode(o->psid, p);
	buf_put(b, p, n);
}

static void wsmp_elements(struct buf *b, const struct frame_opts *o)
{
	for (size_t i = 0; i < o->n_ext; i++) {
		const struct wave_ext *e = &o->ext[i];
		buf_u8(b, e->id);
		wsmp_count(b, e->len);
		if (e->dbm && o->wsmp_version == 3)
			buf_u8(b, (uint8_t)(e->val[0] + 128)); /* UPER: offset from -128 */
		else
			buf_put(b, e->val, e->len);
	}
}

static void wsmp_v3(struct buf *b, const struct frame_opts *o, const uint8_t *wsm, size_t n)
{
	/* N-header: subtype 0 (null networking), option indicator, version 3 */
	buf_u8(b, (uint8_t)((o->n_ext ? 0x08 : 0x00) | 3));
	if (o->n_ext) {
		wsmp_count(b, o->n_ext);
		wsmp_elements(b, o);
	}
	/* T-header: TPID, then PSID (0, 1), port numbers (2, 3) or the p-encoded LPP (4, 5);
	 * the odd TPIDs carry an empty T-header extension list. */
	buf_u8(b, (uint8_t)o->tpid);
	if (o->tpid <= 1) {
		wsmp_psid(b, o);
	} else if (o->tpid <= 3) {
		buf_be16(b, o->udp_port);
		buf_be16(b, o->udp_port);
	} else {
		uint8_t p[4];
		buf_put(b, p, v2x_psid_encode(o->lpp, p));
	}
	if (o->tpid % 2)
		buf_u8(b, 0);
	wsmp_count(b, o->wsm_len >= 0 ? (size_t)o->wsm_len : n);
	buf_put(b, wsm, n);
}

/* 1609.3-2010: version, PSID, optional extension fields, WSMP element id, 2-octet length */
static void wsmp_v2(struct buf *b, const struct frame_opts *o, const uint8_t *wsm, size_t n)
{
	buf_u8(b, 2);
	wsmp_psid(b, o);
	wsmp_elements(b, o);
	buf_u8(b, V2X_WEID_WSMP);
	buf_be16(b, (uint16_t)(o->wsm_len >= 0 ? (size_t)o->wsm_len : n));
	buf_put(b, wsm, n);
}

void wsmp_wrap(struct buf *out, const struct frame_opts *o, const uint8_t *wsm, size_t n)
{
	if (o->wsmp_version == 2)
		wsmp_v2(out, o, wsm, n);
	else
		wsmp_v3(out, o, wsm, n);
}
