/* IEEE 802.11 MAC header of data / QoS data frames and the EPD or SNAP LLC behind it. */
#include "ieee80211.h"

#include <string.h>

#include "cursor.h"

enum {
	TYPE_DATA = 2,
	SUBTYPE_QOS = 0x8,        /* QoS variants of the data subtypes */
	SUBTYPE_NO_BODY = 0x4,    /* (QoS) Null and CF-Ack/Poll without data */
	FLAG_TO_DS = 0x01,
	FLAG_FROM_DS = 0x02,
	FLAG_PROTECTED = 0x40,
	FLAG_ORDER = 0x80,        /* +HTC: a 4-octet HT Control field on QoS frames */
	ETHERTYPE_MIN = 0x0600,   /* below: an 802.3 length, not an EtherType */
};

static const uint8_t snap_rfc1042[6] = {0xAA, 0xAA, 0x03, 0x00, 0x00, 0x00};

/* The LLC of a data frame body; c is positioned right after the MAC header. */
static int parse_llc(struct v2x_cursor *c, enum v2x_llc *llc, uint16_t *ethertype,
		     const char **why)
{
	if (v2x_cur_left(c) == 0)
		return 0; /* empty body: nothing carried */
	if (c->p[0] == snap_rfc1042[0]) { /* DSAP 0xAA: SNAP (no EtherType starts so) */
		const uint8_t *snap = v2x_bytes(c, 8); /* LLC, OUI, EtherType */
		if (!snap) {
			*why = "802.11 LLC/SNAP header truncated";
			return -1;
		}
		if (memcmp(snap, snap_rfc1042, 6) == 0) {
			*llc = V2X_LLC_SNAP;
			*ethertype = v2x_get_be16(snap + 6);
		}
		return 0;
	}
	const uint8_t *q = v2x_bytes(c, 2);
	if (!q) {
		*why = "802.11 frame body too short for an EtherType";
		return -1;
	}
	uint16_t type = v2x_get_be16(q);
	if (type >= ETHERTYPE_MIN) {
		*llc = V2X_LLC_EPD;
		*ethertype = type;
	}
	return 0;
}

/* A data frame's MAC header after the frame control, whose flags and subtype say how
 * long it is: it is taken in one bounds check and read at fixed offsets. */
static int read_data_header(struct v2x_cursor *c, uint8_t flags, struct v2x_mac *mac)
{
	size_t len = 22 + (mac->has_addr4 ? 6 : 0);
	if (mac->is_qos)
		len += 2 + (flags & FLAG_ORDER ? 4 : 0);
	const uint8_t *h = v2x_bytes(c, len);
	if (!h)
		return -1;
	mac->duration = v2x_get_le16(h);
	memcpy(mac->addr1, h + 2, 6);
	memcpy(mac->addr2, h + 8, 6);
	memcpy(mac->addr3, h + 14, 6);
	uint16_t seqctl = v2x_get_le16(h + 20);
	mac->seq = seqctl >> 4;
	mac->frag = (uint8_t)(seqctl & 0xF);
	h += 22;
	if (mac->has_addr4) {
		memcpy(mac->addr4, h, 6);
		h += 6;
	}
	if (mac->is_qos)
		mac->qos = v2x_get_le16(h);
	return 0;
}

int v2x_ieee80211_parse(const uint8_t *buf, size_t len, struct v2x_mac *mac,
			enum v2x_llc *llc, uint16_t *ethertype, size_t *payload_off,
			const char **why)
{
	struct v2x_cursor c;
	memset(mac, 0, sizeof(*mac));
	*llc = V2X_LLC_NONE;
	*ethertype = 0;
	*payload_off = len;
	v2x_cur_init(&c, buf, len);
	const uint8_t *fc = v2x_bytes(&c, 2);
	if (!fc) {
		*why = "802.11 frame control truncated";
		return -1;
	}
	mac->fc = v2x_get_le16(fc);
	mac->type = (uint8_t)(mac->fc >> 2 & 3);
	mac->subtype = (uint8_t)(mac->fc >> 4 & 0xF);
	uint8_t flags = (uint8_t)(mac->fc >> 8);
	mac->to_ds = (flags & FLAG_TO_DS) != 0;
	mac->from_ds = (flags & FLAG_FROM_DS) != 0;
	mac->is_protected = (flags & FLAG_PROTECTED) != 0;
	mac->is_data = mac->type == TYPE_DATA;
	if (!mac->is_data)
		return 0; /* management/control/extension: nothing for V2X, skipped */

	mac->is_qos = (mac->subtype & SUBTYPE_QOS) != 0;
	mac->has_addr4 = mac->to_ds && mac->from_ds;
	if (read_data_header(&c, flags, mac) < 0) {
		*why = "802.11 MAC header truncated";
		return -1;
	}
	mac->hdr_len = (uint16_t)v2x_cur_offset(&c);
	*payload_off = mac->hdr_len;
	if (mac->is_protected || (mac->subtype & SUBTYPE_NO_BODY))
		return 0; /* encrypted body or none: no LLC to read */
	if (parse_llc(&c, llc, ethertype, why) < 0)
		return -1;
	if (*llc != V2X_LLC_NONE)
		*payload_off = v2x_cur_offset(&c);
	return 0;
}
