/* The frame pipeline: link header -> 802.11 (or Ethernet/SLL) -> WSMP -> 1609.2 -> J2735
 * MessageFrame header, stopping at the first layer that is absent or malformed. */
#include "frame.h"

#include <string.h>

#include "cursor.h"
#include "registry.h"

/* v2x_frame_parse clears the frame's own fields (all before rt) and each layer as a
 * whole, WSMP but for the extension arrays that end the frame. */
_Static_assert(offsetof(struct v2x_frame, rt) < offsetof(struct v2x_frame, mac) &&
		       offsetof(struct v2x_frame, mac) < offsetof(struct v2x_frame, dot2) &&
		       offsetof(struct v2x_frame, dot2) < offsetof(struct v2x_frame, mf) &&
		       offsetof(struct v2x_frame, mf) < offsetof(struct v2x_frame, wsmp) &&
		       offsetof(struct v2x_frame, wsmp) + sizeof(struct v2x_wsmp) ==
			       sizeof(struct v2x_frame),
	       "the layers end struct v2x_frame, WSMP last");

enum {
	ETHERTYPE_VLAN = 0x8100,
	ARPHRD_IEEE80211 = 801,          /* SLL/SLL2 hatype of a raw 802.11 interface */
	ARPHRD_IEEE80211_RADIOTAP = 803, /* ... of a monitor interface */
};

/* Keeps the first error met. */
static int fail(struct v2x_frame *f, enum v2x_layer at, const char *why)
{
	if (!f->error) {
		f->error = why;
		f->error_layer = at;
	}
	return -1;
}

static void copy_addr(uint8_t out[6], const uint8_t *a)
{
	if (a)
		memcpy(out, a, 6);
}

/* The message a link or WSMP carries: 1609.2 when it starts with 0x03, then J2735 when
 * v2x_j2735_basis says so. */
static int parse_message(const uint8_t *msg, size_t msg_len, bool has_psid, uint32_t psid,
			 struct v2x_frame *f)
{
	const char *why = NULL;
	if (v2x_dot2_first_octet(msg, msg_len)) {
		f->has_dot2 = true;
		if (v2x_dot2_parse(msg, msg_len, &f->dot2, &why) < 0)
			return fail(f, V2X_LAYER_DOT2, why);
		f->layer = V2X_LAYER_DOT2;
		msg = f->dot2.payload;
		msg_len = f->dot2.payload_len;
		if (f->dot2.has_psid) {
			has_psid = true;
			psid = f->dot2.psid;
		}
	}
	/* An empty (e.g. encrypted) payload has no message. */
	if (msg_len == 0 || !msg)
		return f->error ? -1 : 0;
	f->j2735_basis = v2x_j2735_basis(has_psid, psid, has_psid && v2x_j2735_user_psid(psid),
					 msg, msg_len);
	if (f->j2735_basis == V2X_J2735_NOT)
		return f->error ? -1 : 0;
	f->has_j2735 = true;
	if (v2x_msgframe_parse(msg, msg_len, &f->mf, &why) < 0)
		return fail(f, V2X_LAYER_J2735, why);
	f->layer = V2X_LAYER_J2735;
	return f->error ? -1 : 0;
}

/* WSMP and what it carries: 1609.2 when the payload starts with 0x03, then J2735 when
 * v2x_j2735_basis says so. A WSM cut short (its length beyond the frame) is an error, but
 * what it holds is still read: a message whose id is there keeps its type. */
static inline int parse_wsmp_up(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	const char *why = NULL;
	if (v2x_wsmp_parse(buf, len, &f->wsmp, &why) < 0)
		return fail(f, V2X_LAYER_WSMP, why);
	f->layer = V2X_LAYER_WSMP;
	f->has_wsmp = true;
	if (f->wsmp.truncated)
		fail(f, V2X_LAYER_WSMP, "WSM length exceeds the frame");

	return parse_message(f->wsmp.payload, f->wsmp.payload_len, f->wsmp.has_psid,
			     f->wsmp.psid, f);
}

/* A WYDOT log record (pseudo link): its metadata, then the payload: a whole WSM (the
 * later firmware logs the WSMP header too: a v3 N-header, 0x03 or 0x0B with extensions,
 * then a TPID below 0x80 where 1609.2 has its content tag 0x80..), or what a WSM carries. */
static int parse_wydot(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	const char *why = NULL;
	if (v2x_wydot_parse(buf, len, &f->wydot, &why) < 0)
		return fail(f, V2X_LAYER_NONE, why);
	f->has_wydot = true;
	f->layer = V2X_LAYER_LINK;
	const uint8_t *p = f->wydot.payload;
	size_t n = f->wydot.payload_len;
	if (n > 1 && (p[0] == 0x0B || (p[0] == 0x03 && p[1] < 0x80)))
		return parse_wsmp_up(p, n, f);
	return parse_message(p, n, false, 0, f);
}

/* Wireshark's exported PDUs (what v2xcap convert writes): the TLVs up to the end tag,
 * then the PDU for the dissector the name tag gives; the plugins' "ieee1609dot3" and
 * "j2735" are followed, any other is the end of the road. */
static int parse_upper_pdu(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	enum { END = 0, DISSECTOR_NAME = 12 };
	struct v2x_cursor c;
	v2x_cur_init(&c, buf, len);
	const uint8_t *name = NULL;
	uint16_t tag, name_len = 0;
	do {
		tag = v2x_be16(&c);
		uint16_t n = v2x_be16(&c);
		const uint8_t *v = v2x_bytes(&c, n);
		if (tag == DISSECTOR_NAME && !name) {
			name = v;
			name_len = n;
		}
	} while (tag != END && !c.err);
	if (c.err)
		return fail(f, V2X_LAYER_NONE, "exported PDU tags truncated");
	f->layer = V2X_LAYER_LINK;
	const uint8_t *pdu = c.p;
	size_t pdu_len = v2x_cur_left(&c);
	/* a string value may end in NULs */
	while (name_len > 0 && name[name_len - 1] == 0)
		name_len--;
	if (name_len == 12 && memcmp(name, "ieee1609dot3", 12) == 0)
		return parse_wsmp_up(pdu, pdu_len, f);
	if (name_len == 5 && memcmp(name, "j2735", 5) == 0)
		return parse_message(pdu, pdu_len, false, 0, f);
	return 0;
}

/* The EtherType's payload: WSMP or, for anything else, the end of the road. */
static int parse_ethertype(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	f->layer = V2X_LAYER_LINK;
	if (f->ethertype != V2X_ETHERTYPE_WSMP)
		return 0;
	return parse_wsmp_up(buf, len, f);
}

static inline int parse_80211(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	const char *why = NULL;
	size_t off;
	if (v2x_ieee80211_parse(buf, len, &f->mac, &f->llc, &f->ethertype, &off, &why) < 0)
		return fail(f, V2X_LAYER_NONE, why);
	f->has_mac = true;
	if (f->mac.is_data) {
		/* Destination and source by the DS bits (IEEE 802.11 table 9-26). */
		const struct v2x_mac *m = &f->mac;
		copy_addr(f->dst, m->to_ds ? m->addr3 : m->addr1);
		copy_addr(f->src, m->has_addr4 ? m->addr4 : m->from_ds ? m->addr3 : m->addr2);
		f->has_src = true;
	}
	return parse_ethertype(buf + off, len - off, f);
}

static int parse_radiotap(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	const char *why = NULL;
	if (v2x_radiotap_parse(buf, len, &f->rt, &why) < 0)
		return fail(f, V2X_LAYER_NONE, why);
	f->has_radiotap = true;
	/* The receiver says the frame failed its FCS check: none of it is good data. */
	if (f->rt.bad_fcs)
		return fail(f, V2X_LAYER_NONE, "802.11 FCS check failed (radiotap flags: bad FCS)");
	size_t rest = len - f->rt.hdr_len;
	if (f->rt.fcs_at_end) {
		if (rest < 4)
			return fail(f, V2X_LAYER_NONE, "802.11 frame shorter than its FCS");
		rest -= 4;
	}
	return parse_80211(buf + f->rt.hdr_len, rest, f);
}

static int parse_ethernet(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	struct v2x_cursor c;
	v2x_cur_init(&c, buf, len);
	copy_addr(f->dst, v2x_bytes(&c, 6));
	copy_addr(f->src, v2x_bytes(&c, 6));
	f->ethertype = v2x_be16(&c);
	if (f->ethertype == ETHERTYPE_VLAN) {
		v2x_skip(&c, 2);
		f->ethertype = v2x_be16(&c);
	}
	if (c.err)
		return fail(f, V2X_LAYER_NONE, "Ethernet header truncated");
	f->has_src = true;
	f->llc = V2X_LLC_ETHERNET;
	return parse_ethertype(c.p, v2x_cur_left(&c), f);
}

/* What follows a Linux cooked header: by hatype a whole 802.11/radiotap frame, else the
 * payload of the protocol (EtherType) field. */
static int parse_cooked(uint16_t hatype, uint16_t protocol, const uint8_t *addr,
			unsigned addr_len, struct v2x_cursor *c, struct v2x_frame *f)
{
	if (hatype == ARPHRD_IEEE80211_RADIOTAP)
		return parse_radiotap(c->p, v2x_cur_left(c), f);
	if (hatype == ARPHRD_IEEE80211)
		return parse_80211(c->p, v2x_cur_left(c), f);
	if (addr_len == 6) {
		copy_addr(f->src, addr);
		f->has_src = true;
	}
	f->ethertype = protocol;
	f->llc = V2X_LLC_ETHERNET;
	return parse_ethertype(c->p, v2x_cur_left(c), f);
}

static int parse_sll(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	struct v2x_cursor c;
	v2x_cur_init(&c, buf, len);
	v2x_skip(&c, 2); /* packet type */
	uint16_t hatype = v2x_be16(&c);
	uint16_t addr_len = v2x_be16(&c);
	const uint8_t *addr = v2x_bytes(&c, 8);
	uint16_t protocol = v2x_be16(&c);
	if (c.err)
		return fail(f, V2X_LAYER_NONE, "Linux cooked (SLL) header truncated");
	return parse_cooked(hatype, protocol, addr, addr_len, &c, f);
}

static int parse_sll2(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	struct v2x_cursor c;
	v2x_cur_init(&c, buf, len);
	uint16_t protocol = v2x_be16(&c);
	v2x_skip(&c, 2 + 4); /* reserved, interface index */
	uint16_t hatype = v2x_be16(&c);
	v2x_skip(&c, 1); /* packet type */
	uint8_t addr_len = v2x_u8(&c);
	const uint8_t *addr = v2x_bytes(&c, 8);
	if (c.err)
		return fail(f, V2X_LAYER_NONE, "Linux cooked (SLL2) header truncated");
	return parse_cooked(hatype, protocol, addr, addr_len, &c, f);
}

/* The upper layers' parsers initialise their own structs; the layers a frame did not
 * reach read as zeros. parse_ethertype, the one way to WSMP, sets V2X_LAYER_LINK before
 * it hands a WSMP EtherType on, and has_dot2 / has_j2735 are set before their parsers. */
static void clear_unreached(struct v2x_frame *f)
{
	if (f->layer == V2X_LAYER_NONE || (f->ethertype != V2X_ETHERTYPE_WSMP && !f->has_wsmp))
		memset(&f->wsmp, 0, V2X_WSMP_HEAD_SIZE);
	if (!f->has_dot2)
		memset(&f->dot2, 0, sizeof(f->dot2));
	if (!f->has_j2735)
		memset(&f->mf, 0, sizeof(f->mf));
}

static int parse_link(int linktype, const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	switch (linktype) {
	case V2X_LINK_RADIOTAP:
		return parse_radiotap(buf, len, f);
	case V2X_LINK_IEEE80211:
		return parse_80211(buf, len, f);
	case V2X_LINK_ETHERNET:
		return parse_ethernet(buf, len, f);
	case V2X_LINK_LINUX_SLL:
		return parse_sll(buf, len, f);
	case V2X_LINK_LINUX_SLL2:
		return parse_sll2(buf, len, f);
	case V2X_LINK_WYDOT:
		return parse_wydot(buf, len, f);
	case V2X_LINK_UPPER_PDU:
		return parse_upper_pdu(buf, len, f);
	default:
		return fail(f, V2X_LAYER_NONE, "unsupported link type");
	}
}

int v2x_frame_parse(int linktype, const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	/* The frame's own fields, and the link layers' whose parsers it may not reach;
	 * apart, as each is a few stores where one memset of all is a string instruction. */
	memset(f, 0, offsetof(struct v2x_frame, rt));
	memset(&f->rt, 0, sizeof(f->rt));
	memset(&f->mac, 0, sizeof(f->mac));
	int rc = parse_link(linktype, buf, len, f);
	clear_unreached(f);
	return rc;
}

bool v2x_linktype_supported(int linktype)
{
	switch (linktype) {
	case V2X_LINK_RADIOTAP:
	case V2X_LINK_IEEE80211:
	case V2X_LINK_ETHERNET:
	case V2X_LINK_LINUX_SLL:
	case V2X_LINK_LINUX_SLL2:
	case V2X_LINK_UPPER_PDU:
		return true;
	default:
		return false;
	}
}

const char *v2x_layer_name(enum v2x_layer l)
{
	switch (l) {
	case V2X_LAYER_NONE: /* an error there is the link layer's */
	case V2X_LAYER_LINK:
		return "link";
	case V2X_LAYER_WSMP:
		return "WSMP";
	case V2X_LAYER_DOT2:
		return "1609.2";
	case V2X_LAYER_J2735:
		return "J2735";
	}
	return "?";
}
