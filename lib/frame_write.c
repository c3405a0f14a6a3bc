/* Frame encoder (see frame_write.h): each layer appends its header and then what it
 * carries, in the layout frame.c reads. */
#include "frame_write.h"

#include "frame.h"
#include "psid.h"
#include "registry.h"

static void coer_psid(struct v2x_buf *b, uint32_t psid)
{
	/* Psid: INTEGER (0..MAX), COER: a length, then the fewest octets */
	unsigned n = 1;
	while (n < 4 && psid >> 8 * n)
		n++;
	v2x_put_coer_length(b, n);
	v2x_put_be(b, psid, n);
}

static void dot2_unsecured(struct v2x_buf *b, const uint8_t *payload, size_t n)
{
	v2x_put_u8(b, 3);    /* protocolVersion */
	v2x_put_u8(b, 0x80); /* content: [0] unsecuredData */
	v2x_put_coer_length(b, n);
	v2x_put(b, payload, n);
}

void v2x_dot2_write(struct v2x_buf *out, const struct v2x_dot2_spec *s,
		    const uint8_t *payload, size_t n)
{
	if (s->content != V2X_DOT2_SIGNED) {
		dot2_unsecured(out, payload, n);
		return;
	}
	v2x_put_u8(out, 3);
	v2x_put_u8(out, 0x81); /* content: [1] signedData */
	v2x_put_u8(out, 0x00); /* hashId sha256 */
	v2x_put_u8(out, 0x40); /* SignedDataPayload: no extension, data, no extDataHash */
	dot2_unsecured(out, payload, n);
	v2x_put_u8(out, 0x40); /* HeaderInfo: no extension, generationTime only */
	coer_psid(out, s->psid);
	v2x_put_be64(out, s->generation_time);
	v2x_put_u8(out, 0x80); /* signer: [0] digest */
	v2x_put(out, s->digest, sizeof s->digest);
	v2x_put_u8(out, 0x80); /* signature: [0] ecdsaNistP256Signature */
	v2x_put_u8(out, 0x80); /* rSig: [0] x-only */
	for (unsigned i = 0; i < 64; i++) /* rSig x, then sSig */
		v2x_put_u8(out, (uint8_t)(i < 32 ? 0xA5 : 0x5A));
}

static void wsmp_psid(struct v2x_buf *b, const struct v2x_wsmp_spec *s)
{
	if (s->psid_raw) {
		v2x_put(b, s->psid_raw, s->psid_raw_len);
		return;
	}
	uint8_t p[4];
	v2x_put(b, p, v2x_psid_encode(s->psid, p));
}

static void wsmp_elements(struct v2x_buf *b, const struct v2x_wsmp_spec *s)
{
	for (size_t i = 0; i < s->n_ext; i++) {
		const struct v2x_wsmp_element *e = &s->ext[i];
		v2x_put_u8(b, e->id);
		if (s->version == 3)
			v2x_put_uper_length(b, e->len);
		else
			v2x_put_u8(b, e->len);
		if (e->dbm && s->version == 3)
			v2x_put_u8(b, (uint8_t)(e->value[0] + 128)); /* offset from -128 */
		else
			v2x_put(b, e->value, e->len);
	}
}

static void wsmp_v3(struct v2x_buf *b, const struct v2x_wsmp_spec *s, size_t length)
{
	/* N-header: subtype 0 (null networking), option indicator, version 3 */
	v2x_put_u8(b, (uint8_t)((s->n_ext ? 0x08 : 0x00) | 3));
	if (s->n_ext) {
		v2x_put_uper_length(b, s->n_ext);
		wsmp_elements(b, s);
	}
	/* T-header: TPID, then the PSID (0, 1), port numbers (2, 3) or the p-encoded LPP
	 * (4, 5); the odd TPIDs carry an (empty) T-header extension list. */
	v2x_put_u8(b, (uint8_t)s->tpid);
	if (s->tpid <= 1) {
		wsmp_psid(b, s);
	} else if (s->tpid <= 3) {
		v2x_put_be16(b, s->src_port);
		v2x_put_be16(b, s->dst_port);
	} else {
		uint8_t p[4];
		v2x_put(b, p, v2x_psid_encode(s->lpp, p));
	}
	if (s->tpid % 2)
		v2x_put_u8(b, 0); /* T-header extension count */
	v2x_put_uper_length(b, length);
}

/* 1609.3-2010: version, PSID, optional fields, WSMP element id, 2-octet length */
static void wsmp_v2(struct v2x_buf *b, const struct v2x_wsmp_spec *s, size_t length)
{
	v2x_put_u8(b, 2);
	wsmp_psid(b, s);
	wsmp_elements(b, s);
	v2x_put_u8(b, V2X_WEID_WSMP);
	v2x_put_be16(b, (uint16_t)length);
}

void v2x_wsmp_write(struct v2x_buf *out, const struct v2x_wsmp_spec *s,
		    const uint8_t *wsm, size_t n)
{
	size_t length = s->length >= 0 ? (size_t)s->length : n;
	if (s->version == 2)
		wsmp_v2(out, s, length);
	else
		wsmp_v3(out, s, length);
	v2x_put(out, wsm, n);
}

static const uint8_t broadcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/* IEEE 802.3 CRC-32, as the 802.11 FCS */
static uint32_t crc32_ieee(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xFFFFFFFFu;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (unsigned k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

/* Radiotap present bits and the flags written */
enum {
	RT_TSFT = 0, RT_FLAGS = 1, RT_RATE = 2, RT_CHANNEL = 3, RT_DBM_SIGNAL = 5,
	RT_ANTENNA = 11, RT_RX_FLAGS = 14,
	RT_FLAG_FCS = 0x10, RT_FLAG_BADFCS = 0x40,
	RT_CHAN_OFDM = 0x0040, RT_CHAN_5GHZ = 0x0100, RT_CHAN_HALF = 0x4000,
	RT_CHAN_QUARTER = 0x8000,
	RT_LEN = 26, /* 8 + the fields, naturally aligned */
};

static void radiotap(struct v2x_buf *b, const struct v2x_link_spec *s)
{
	uint16_t chan_flags = RT_CHAN_OFDM | RT_CHAN_5GHZ;
	if (s->width == 10)
		chan_flags |= RT_CHAN_HALF;
	else if (s->width == 5)
		chan_flags |= RT_CHAN_QUARTER;
	v2x_put_u8(b, 0); /* version */
	v2x_put_u8(b, 0); /* pad */
	v2x_put_le16(b, RT_LEN);
	v2x_put_le32(b, 1u << RT_TSFT | 1u << RT_FLAGS | 1u << RT_RATE | 1u << RT_CHANNEL |
				1u << RT_DBM_SIGNAL | 1u << RT_ANTENNA | 1u << RT_RX_FLAGS);
	v2x_put_le64(b, s->tsft);
	v2x_put_u8(b, (uint8_t)((s->fcs ? RT_FLAG_FCS : 0) | (s->bad_fcs ? RT_FLAG_BADFCS : 0)));
	v2x_put_u8(b, s->rate);
	v2x_put_le16(b, s->freq);
	v2x_put_le16(b, chan_flags);
	v2x_put_u8(b, (uint8_t)s->rssi);
	v2x_put_u8(b, 0);   /* antenna */
	v2x_put_le16(b, 0); /* RX flags */
}

/* QoS data frame, From/To DS 0, to broadcast, BSSID the OCB wildcard, then the LLC. */
void v2x_80211_write(struct v2x_buf *out, const struct v2x_link_spec *s, uint16_t ethertype)
{
	static const uint8_t snap[6] = {0xAA, 0xAA, 0x03, 0x00, 0x00, 0x00};
	v2x_put_u8(out, 0x88); /* frame control: type data, subtype QoS data */
	v2x_put_u8(out, 0x00);
	v2x_put_le16(out, 0);  /* duration */
	v2x_put(out, broadcast, 6);
	v2x_put(out, s->src, 6);
	v2x_put(out, broadcast, 6); /* wildcard BSSID */
	v2x_put_le16(out, (uint16_t)((s->seq & 0x0FFF) << 4));
	v2x_put_le16(out, 0);  /* QoS control: TID 0 */
	if (s->llc == V2X_LLC_SNAP)
		v2x_put(out, snap, sizeof snap);
	v2x_put_be16(out, ethertype);
}

void v2x_ether_write(struct v2x_buf *out, const uint8_t src[6], uint16_t ethertype)
{
	v2x_put(out, broadcast, 6);
	v2x_put(out, src, 6);
	v2x_put_be16(out, ethertype);
}

enum { SLL_BROADCAST = 1, ARPHRD_ETHER = 1, SLL_IFINDEX = 3 };

static void sll(struct v2x_buf *b, const struct v2x_link_spec *s, uint16_t ethertype)
{
	v2x_put_be16(b, SLL_BROADCAST);
	v2x_put_be16(b, ARPHRD_ETHER);
	v2x_put_be16(b, 6);
	v2x_put(b, s->src, 6);
	v2x_put_be16(b, 0); /* the address field is 8 octets */
	v2x_put_be16(b, ethertype);
}

static void sll2(struct v2x_buf *b, const struct v2x_link_spec *s, uint16_t ethertype)
{
	v2x_put_be16(b, ethertype);
	v2x_put_be16(b, 0); /* reserved */
	v2x_put_be32(b, SLL_IFINDEX);
	v2x_put_be16(b, ARPHRD_ETHER);
	v2x_put_u8(b, SLL_BROADCAST);
	v2x_put_u8(b, 6);
	v2x_put(b, s->src, 6);
	v2x_put_be16(b, 0);
}

void v2x_link_write(struct v2x_buf *out, const struct v2x_link_spec *s, uint16_t ethertype,
		    const uint8_t *body, size_t n)
{
	size_t start = out->len; /* the FCS covers the 802.11 frame only */
	switch (s->linktype) {
	case V2X_LINK_RADIOTAP:
		radiotap(out, s);
		start = out->len;
		v2x_80211_write(out, s, ethertype);
		break;
	case V2X_LINK_IEEE80211:
		v2x_80211_write(out, s, ethertype);
		break;
	case V2X_LINK_LINUX_SLL:
		sll(out, s, ethertype);
		break;
	case V2X_LINK_LINUX_SLL2:
		sll2(out, s, ethertype);
		break;
	default:
		v2x_ether_write(out, s->src, ethertype);
		break;
	}
	v2x_put(out, body, n);
	if (s->linktype == V2X_LINK_RADIOTAP && s->fcs && !out->err)
		v2x_put_le32(out, crc32_ieee(out->p + start, out->len - start));
}
