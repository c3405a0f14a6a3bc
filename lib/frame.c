/* The frame pipeline: link header -> 802.11 (or Ethernet/SLL) -> WSMP -> 1609.2 -> J2735
 * MessageFrame header, stopping at the first layer that is absent or malformed. */
#include "frame.h"

#include <string.h>

#include "cursor.h"
#include "registry.h"
#include "zero.h"

/* v2x_frame_parse clears the frame's own fields (all before rt) and each layer as a
 * whole, WSMP but for the extension arrays that end the frame; the WYDOT and RSU records
 * are valid only when has_wydot / has_rsu. */
_Static_assert(offsetof(struct v2x_frame, rt) < offsetof(struct v2x_frame, mac) &&
		       offsetof(struct v2x_frame, mac) < offsetof(struct v2x_frame, dot2) &&
		       offsetof(struct v2x_frame, dot2) < offsetof(struct v2x_frame, mf) &&
		       offsetof(struct v2x_frame, mf) < offsetof(struct v2x_frame, wydot) &&
		       offsetof(struct v2x_frame, wydot) < offsetof(struct v2x_frame, rsu) &&
		       offsetof(struct v2x_frame, rsu) < offsetof(struct v2x_frame, wsmp) &&
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

/* The message a link, UDP or WSMP carries: 1609.2 when it starts with 0x03, then the
 * J2735 MessageFrame in it or in msg, when v2x_j2735_basis says so (or always: given,
 * the user's or a jpo-ode port's word; V2X_J2735_NOT to ask the rule); has_psid/psid
 * are WSMP's. */
static int parse_message(const uint8_t *msg, size_t msg_len, bool has_psid, uint32_t psid,
			 enum v2x_j2735_basis given, struct v2x_frame *f)
{
	const char *why = NULL;
	f->msg = msg;
	f->msg_len = msg_len;
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
	f->j2735_basis = given ? given : v2x_j2735_basis(has_psid, psid, msg, msg_len);
	if (f->j2735_basis == V2X_J2735_NOT)
		return f->error ? -1 : 0;
	f->has_j2735 = true;
	f->j2735 = msg;
	f->j2735_len = msg_len;
	if (v2x_msgframe_parse(msg, msg_len, &f->mf, &why) < 0)
		return fail(f, V2X_LAYER_J2735, why);
	f->layer = V2X_LAYER_J2735;
	return f->error ? -1 : 0;
}

/* WSMP and what it carries. A WSM cut short (its length beyond the frame) is an error,
 * but what it holds is still read: a message whose id is there keeps its type. */
static inline int parse_wsmp_up(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	const char *why = NULL;
	f->has_wsmp = true;
	if (v2x_wsmp_parse(buf, len, &f->wsmp, &why) < 0)
		return fail(f, V2X_LAYER_WSMP, why);
	f->layer = V2X_LAYER_WSMP;
	if (f->wsmp.truncated)
		fail(f, V2X_LAYER_WSMP, "WSM length exceeds the frame");
	return parse_message(f->wsmp.payload, f->wsmp.payload_len, f->wsmp.has_psid,
			     f->wsmp.psid, V2X_J2735_NOT, f);
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
	return parse_message(p, n, false, 0, V2X_J2735_NOT, f);
}

/* A USDOT RSU text record (a file's, or a datagram's): its PSID goes with the payload,
 * its TxChannel fills the channel as a forwarder's record does. */
static int parse_rsu(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	const char *why = NULL;
	if (v2x_rsu_parse(buf, len, &f->rsu, &why) < 0)
		return fail(f, V2X_LAYER_LINK, why);
	f->has_rsu = true;
	f->layer = V2X_LAYER_WSMP;
	if (f->rsu.has_channel && v2x_5ghz_mhz(f->rsu.channel)) {
		f->rt.has_channel = true;
		f->rt.freq = (uint16_t)v2x_5ghz_mhz(f->rsu.channel);
	}
	return parse_message(f->rsu.payload, f->rsu.payload_len, true, f->rsu.psid, V2X_J2735_NOT, f);
}

/* Wireshark's exported PDUs (what v2xcap convert writes): the TLVs up to the end tag,
 * then the PDU for the dissector the name tag gives; the plugins' "ieee1609dot3",
 * "j2735" and "usdot_rsu" are followed, any other is the end of the road. */
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
		return parse_message(pdu, pdu_len, false, 0, V2X_J2735_NOT, f);
	if (name_len == 9 && memcmp(name, "usdot_rsu", 9) == 0)
		return parse_rsu(pdu, pdu_len, f);
	return 0;
}

static int parse_ip(const uint8_t *buf, size_t len, struct v2x_frame *f);
static int parse_80211(const uint8_t *buf, size_t len, struct v2x_frame *f);

/* The EtherType's payload: WSMP, IP (for UDP), or, for anything else, the end of the
 * road. */
static int parse_ethertype(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	f->layer = V2X_LAYER_LINK;
	if (f->ethertype == V2X_ETHERTYPE_WSMP)
		return parse_wsmp_up(buf, len, f);
	/* one encapsulation per frame: an IP frame inside a C2P/TZSP record ends here */
	if ((f->ethertype == V2X_ETHERTYPE_IPV4 || f->ethertype == V2X_ETHERTYPE_IPV6) &&
	    f->encap == V2X_ENCAP_NONE)
		return parse_ip(buf, len, f);
	return 0;
}

static int parse_80211(const uint8_t *buf, size_t len, struct v2x_frame *f)
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

/* Commsignia C2P, version 1 (the layout of Wireshark 4.6's packet-c2p.c; big-endian):
 * version/type, seconds (since 2004) and milliseconds, then per record type
 * - DSRC RX/TX: primary and secondary channel, interface, data rate (500 kb/s), antenna,
 *   latitude, longitude, speed, heading; RX then RSSI and noise of antennas 1 and 2 and
 *   two CBRs (u16), TX its power and two TSSIs;
 * - C-V2X RX: socket index, EtherType, RSSI, data rate;
 * - C-V2X TX: SPS flag, SPS and event ports, power (i32 dBm), V2X id, reservation
 *   period and size, priority;
 * then the frame: for all four an 802.11 frame (Wireshark's dissector hands each to its
 * 802.11 dissector: the units put the C-V2X frame behind an 802.11 header too, its LLC
 * carrying the EtherType). dBm fields are i8, 127 unavailable; channel and data rate 0
 * unavailable. The other types (navigation, CAN, station info) carry no frame. */
enum {
	C2P_VERSION = 1, C2P_DSRC_RX = 1, C2P_DSRC_TX = 2, C2P_CV2X_RX = 7, C2P_CV2X_TX = 8,
	C2P_TIME_END = 9, /* version/type and timestamp: every record starts so */
	C2P_DBM_NA = 127,
};

/* Per record type carrying a frame: its header length, and the offsets of its channel,
 * data rate, RSSI and noise (antenna 1), 0 where it has none */
static const struct c2p_layout {
	uint8_t len, channel, rate, rssi, noise;
} c2p_layouts[] = {
	[C2P_DSRC_RX] = {34, 9, 12, 26, 28},
	[C2P_DSRC_TX] = {29, 9, 12, 0, 0},
	[C2P_CV2X_RX] = {14, 0, 13, 12, 0},
	[C2P_CV2X_TX] = {31, 0, 0, 0, 0},
};

/* The layout of a version 1 record that carries a frame, else NULL */
static const struct c2p_layout *c2p_layout(const uint8_t *buf, size_t len)
{
	if (len < C2P_TIME_END || buf[0] >> 4 != C2P_VERSION)
		return NULL;
	unsigned type = buf[0] & 0x0F;
	if (type >= sizeof c2p_layouts / sizeof c2p_layouts[0] || !c2p_layouts[type].len)
		return NULL;
	return &c2p_layouts[type];
}

static int parse_c2p(const struct c2p_layout *l, const uint8_t *buf, size_t len,
		     struct v2x_frame *f)
{
	f->encap = V2X_ENCAP_C2P;
	if (len < l->len)
		return fail(f, V2X_LAYER_LINK, "C2P record truncated");
	if (l->channel && buf[l->channel]) {
		f->rt.has_channel = true;
		f->rt.freq = (uint16_t)v2x_5ghz_mhz(buf[l->channel]);
	}
	if (l->rate && buf[l->rate]) {
		f->rt.has_rate = true;
		f->rt.rate = buf[l->rate];
	}
	if (l->rssi && buf[l->rssi] != C2P_DBM_NA) {
		f->rt.has_signal = true;
		f->rt.signal_dbm = (int8_t)buf[l->rssi];
	}
	if (l->noise && buf[l->noise] != C2P_DBM_NA) {
		f->rt.has_noise = true;
		f->rt.noise_dbm = (int8_t)buf[l->noise];
	}
	return parse_80211(buf + l->len, len - l->len, f);
}

/* TZSP: version 1, type 0 (received), encapsulation (18: 802.11), tagged fields
 * (tag 0 padding, 1 end, others tag/length/value: 10 signal dBm, 12 rate, 18 channel)
 * up to the end tag, then the frame. Other encapsulations end at the link. */
enum { TZSP_VERSION = 1, TZSP_RECEIVED = 0, TZSP_ENCAP_80211 = 18,
       TZSP_TAG_PAD = 0, TZSP_TAG_END = 1, TZSP_TAG_SIGNAL = 10, TZSP_TAG_RATE = 12,
       TZSP_TAG_CHANNEL = 18 };

static int parse_tzsp(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	struct v2x_cursor c;
	v2x_cur_init(&c, buf, len);
	uint8_t version = v2x_u8(&c), type = v2x_u8(&c);
	uint16_t encap = v2x_be16(&c);
	if (c.err || version != TZSP_VERSION || type != TZSP_RECEIVED)
		return 0;
	f->encap = V2X_ENCAP_TZSP;
	for (;;) {
		uint8_t tag = v2x_u8(&c);
		if (c.err)
			return fail(f, V2X_LAYER_LINK, "TZSP tags without their end tag");
		if (tag == TZSP_TAG_END)
			break;
		if (tag == TZSP_TAG_PAD)
			continue;
		uint8_t n = v2x_u8(&c);
		const uint8_t *v = v2x_bytes(&c, n);
		if (c.err)
			return fail(f, V2X_LAYER_LINK, "TZSP tag truncated");
		if (tag == TZSP_TAG_SIGNAL && n == 1) {
			f->rt.has_signal = true;
			f->rt.signal_dbm = (int8_t)v[0];
		} else if (tag == TZSP_TAG_RATE && n == 1) {
			f->rt.has_rate = true;
			f->rt.rate = v[0];
		} else if (tag == TZSP_TAG_CHANNEL && n == 1 && v[0]) {
			f->rt.has_channel = true;
			f->rt.freq = (uint16_t)v2x_5ghz_mhz(v[0]);
		}
	}
	if (encap != TZSP_ENCAP_80211)
		return 0;
	return parse_80211(c.p, v2x_cur_left(&c), f);
}

/* jpo-ode's UDP receivers (jpo-ode-svcs application.yaml, ode.receivers) and the
 * message type each one's start flag names (SupportedMessageType: "00" then the id) */
const struct v2x_jpo_ode_receiver v2x_jpo_ode_receivers[V2X_JPO_ODE_N_PORTS] = {
	{44990, "generic", 0},
	{46800, "BSM", 20},
	{44920, "MAP", 18},
	{44940, "PSM", 32},
	{44910, "SPaT", 19},
	{44930, "SRM", 29},
	{44900, "SSM", 30},
	{47900, "TIM", 31},
	{44950, "SDSM", 41},
};

const struct v2x_jpo_ode_receiver *v2x_jpo_ode_receiver(uint16_t port)
{
	for (unsigned i = 0; i < V2X_JPO_ODE_N_PORTS; i++)
		if (v2x_jpo_ode_receivers[i].port == port)
			return &v2x_jpo_ode_receivers[i];
	return NULL;
}

bool v2x_udp_port_jpo_ode(uint16_t port)
{
	return v2x_jpo_ode_receiver(port) != NULL;
}

/* In a datagram the content tag is checked too (unsecured, signed, encrypted): a
 * stricter test than inside WSMP, where the PSID already says what follows. */
bool v2x_udp_dot2_start(const uint8_t *buf, size_t len)
{
	/* nothing else in the datagram says 1609.2: two octets are too weak a sign */
	struct v2x_dot2 d;
	const char *why;
	return v2x_dot2_first_octet(buf, len) && len >= 2 && buf[1] >= 0x80 && buf[1] <= 0x82 &&
	       v2x_dot2_parse(buf, len, &d, &why) == 0;
}

bool v2x_udp_wsmp_whole(const uint8_t *buf, size_t len, struct v2x_wsmp *w)
{
	const char *why = NULL;
	return len > 0 && (buf[0] & 0x07) == 3 && buf[0] >> 4 == 0 &&
	       v2x_wsmp_parse(buf, len, w, &why) == 0 && !w->truncated &&
	       w->payload + w->payload_len == buf + len;
}

size_t v2x_pc5_wsmp_prefix(const uint8_t *buf, size_t len, struct v2x_wsmp *w)
{
	if (len > 1 && buf[0] == V2X_PC5_FAMILY_IEEE1609 && v2x_udp_wsmp_whole(buf + 1, len - 1, w))
		return 1;
	if (len > 2 && (buf[0] << 8 | buf[1]) == V2X_ETHERTYPE_WSMP &&
	    v2x_udp_wsmp_whole(buf + 2, len - 2, w))
		return 2;
	return 0;
}

const char *v2x_pc5_family_name(uint8_t family)
{
	static const char *const names[] = {NULL, "IEEE 1609", "ISO", "ETSI-ITS", "CCSA"};
	return family < sizeof(names) / sizeof(names[0]) ? names[family] : NULL;
}

/* UperUtil.findValidStartFlagLocation: the flag's first place if that is octet 0, else
 * its first octet-aligned place from octet 2 on (so that a header's own octets 0-1 are
 * not taken for it; a place off the octet grid is skipped). -1: nowhere. */
static long jpo_ode_flag_at(const uint8_t *buf, size_t len, uint8_t msg_id)
{
	if (len >= 2 && buf[0] == 0 && buf[1] == msg_id)
		return 0;
	for (size_t k = 2; k + 2 <= len; k++)
		if (buf[k] == 0 && buf[k + 1] == msg_id)
			return (long)k;
	return -1;
}

/* The rule of each receiver, as jpo-ode 2025 (dfb2e16) applies it (UdpHexDecoder.
 * getPayloadHexString, UperUtil.stripDot3Header, GenericReceiver):
 *  1. the message starts at the receiver's start flag (jpo_ode_flag_at); the generic
 *     receiver takes the type whose flag comes first (determineHexPacketType); no flag:
 *     jpo-ode drops the datagram ("Payload does not contain start flag");
 *  2. the octets before it are a header and are stripped, unless they hold 03 81 00 (a
 *     signed 1609.2 header): then the message starts there, 1609.2 around the frame
 *     (jpo-ode searches the hex text; a match off the octet grid gives it an odd-length
 *     hex string it cannot decode, so only octet-aligned ones count here);
 *  3. everything to the end of the datagram goes to asn1_codec, which decodes the
 *     MessageFrame by its own length: what follows it is left over (mf.trailing).
 * Beyond jpo-ode: an unsecuredData envelope (03 80 + length) that ends exactly at the
 * datagram's end and holds the message is shown as what it is; jpo-ode strips it, the
 * message is the same. */
long v2x_jpo_ode_message_at(const uint8_t *buf, size_t len, uint16_t port)
{
	const struct v2x_jpo_ode_receiver *r = v2x_jpo_ode_receiver(port);
	if (!r || !buf)
		return -1;
	long at = -1;
	for (unsigned i = 0; i < V2X_JPO_ODE_N_PORTS; i++) {
		uint8_t id = v2x_jpo_ode_receivers[i].msg_id;
		if (!id || (r->msg_id && id != r->msg_id))
			continue;
		long k = jpo_ode_flag_at(buf, len, id);
		if (k >= 0 && (at < 0 || k < at))
			at = k;
	}
	if (at <= 0)
		return at;
	for (long k = 0; k + 3 <= at; k++)
		if (buf[k] == 0x03 && buf[k + 1] == 0x81 && buf[k + 2] == 0x00)
			return k;
	struct v2x_dot2 d;
	const char *why;
	for (long k = at - 5 > 0 ? at - 5 : 0; k + 3 <= at; k++)
		if (buf[k] == 0x03 && buf[k + 1] == 0x80 &&
		    v2x_dot2_parse(buf + k, len - (size_t)k, &d, &why) == 0 &&
		    d.payload == buf + at && d.payload + d.payload_len == buf + len)
			return k;
	return at;
}

/* The receiver on the destination port first, else on the source port */
static long jpo_ode_ports_at(const uint8_t *buf, size_t len, uint16_t src_port,
			     uint16_t dst_port)
{
	long at = v2x_jpo_ode_message_at(buf, len, dst_port);
	return at >= 0 ? at : v2x_jpo_ode_message_at(buf, len, src_port);
}

/* A 1609.2 message or a MessageFrame skip octets into a datagram; given: what says it is
 * J2735 (V2X_J2735_NOT: the content rule) */
static int parse_udp_message(const uint8_t *buf, size_t len, size_t skip,
			     enum v2x_j2735_basis given, struct v2x_frame *f)
{
	f->encap_skipped = (uint32_t)skip;
	f->encap = v2x_dot2_first_octet(buf + skip, len - skip) ? V2X_ENCAP_UDP_DOT2
								: V2X_ENCAP_UDP_J2735;
	f->layer = V2X_LAYER_WSMP;
	return parse_message(buf + skip, len - skip, false, 0, given, f);
}

/* What a UDP payload is, by the frame path's rules in their order: by port (C2P, TZSP),
 * then by content (an RSU text record; 1609.2; WSMP alone, or after a PC5 family octet
 * or EtherType; a MessageFrame by the strict content rule), then, on a jpo-ode port, a
 * message after a short prefix. The one order of parse_udp_payload and
 * v2x_jpo_ode_datagram_at. *at: the PC5 prefix's length or jpo-ode's offset; *c2p: the
 * C2P record's layout; w: scratch for the WSMP rules. */
enum udp_kind {
	UDP_OTHER, UDP_C2P, UDP_TZSP, UDP_RSU, UDP_DOT2, UDP_WSMP, UDP_PC5, UDP_J2735,
	UDP_JPO_ODE,
};
static enum udp_kind udp_kind(const uint8_t *buf, size_t len, uint16_t sp, uint16_t dp,
			      struct v2x_wsmp *w, const struct c2p_layout **c2p, long *at)
{
	if ((sp == V2X_UDP_PORT_C2P || dp == V2X_UDP_PORT_C2P) && (*c2p = c2p_layout(buf, len)))
		return UDP_C2P;
	if (sp == V2X_UDP_PORT_TZSP || dp == V2X_UDP_PORT_TZSP)
		return UDP_TZSP;
	if (v2x_rsu_starts(buf, len))
		return UDP_RSU;
	if (v2x_udp_dot2_start(buf, len))
		return UDP_DOT2;
	if (v2x_udp_wsmp_whole(buf, len, w))
		return UDP_WSMP;
	if ((*at = (long)v2x_pc5_wsmp_prefix(buf, len, w)) > 0)
		return UDP_PC5;
	if (v2x_msgframe_strict(buf, len))
		return UDP_J2735;
	if ((*at = jpo_ode_ports_at(buf, len, sp, dp)) >= 0)
		return UDP_JPO_ODE;
	return UDP_OTHER;
}

long v2x_jpo_ode_datagram_at(const uint8_t *buf, size_t len, uint16_t src_port,
			     uint16_t dst_port)
{
	struct v2x_wsmp w;
	const struct c2p_layout *c2p;
	long at = -1;
	if (!buf || (!v2x_udp_port_jpo_ode(dst_port) && !v2x_udp_port_jpo_ode(src_port)))
		return -1; /* no receiver's port: no need to look at the content */
	return udp_kind(buf, len, src_port, dst_port, &w, &c2p, &at) == UDP_JPO_ODE ? at : -1;
}

/* The UDP payload, as udp_kind finds it. */
static int parse_udp_payload(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	const struct c2p_layout *c2p = NULL;
	long at = 0;
	f->encap = V2X_ENCAP_UDP;
	f->encap_len = len;
	switch (udp_kind(buf, len, f->udp_src_port, f->udp_dst_port, &f->wsmp, &c2p, &at)) {
	case UDP_C2P:
		return parse_c2p(c2p, buf, len, f);
	case UDP_TZSP:
		return parse_tzsp(buf, len, f);
	case UDP_RSU:
		f->encap = V2X_ENCAP_UDP_RSU;
		return parse_rsu(buf, len, f);
	case UDP_DOT2:
	case UDP_J2735:
		return parse_udp_message(buf, len, 0, V2X_J2735_NOT, f);
	case UDP_WSMP:
		f->encap = V2X_ENCAP_UDP_WSMP;
		return parse_wsmp_up(buf, len, f);
	case UDP_PC5:
		f->encap = at == 1 ? V2X_ENCAP_UDP_PC5 : V2X_ENCAP_UDP_ETHERTYPE;
		f->encap_skipped = (uint32_t)at;
		return parse_wsmp_up(buf + at, len - (size_t)at, f);
	case UDP_JPO_ODE:
		return parse_udp_message(buf, len, (size_t)at, V2X_J2735_BY_PORT, f);
	case UDP_OTHER:
		break;
	}
	f->encap_skipped = 0;
	return 0;
}

/* IPv4 (not a later fragment) or IPv6 (UDP as the first next header) carrying UDP */
static int parse_ip(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	enum { IPPROTO_UDP_ = 17 };
	struct v2x_cursor c;
	v2x_cur_init(&c, buf, len);
	uint8_t vihl = v2x_u8(&c);
	uint8_t proto;
	size_t ip_end;
	if (f->ethertype == V2X_ETHERTYPE_IPV4) {
		size_t ihl = (size_t)(vihl & 0x0F) * 4;
		v2x_skip(&c, 1);
		uint16_t total = v2x_be16(&c);
		v2x_skip(&c, 2);
		uint16_t frag = v2x_be16(&c);
		v2x_skip(&c, 1);
		proto = v2x_u8(&c);
		if (c.err || vihl >> 4 != 4 || ihl < 20 || total < ihl || total > len)
			return fail(f, V2X_LAYER_LINK, "IPv4 header malformed or truncated");
		if (frag & 0x1FFF) /* a later fragment: no UDP header */
			return 0;
		f->ip_version = 4;
		v2x_cur_init(&c, buf + ihl, total - ihl);
		ip_end = total - ihl;
	} else {
		v2x_skip(&c, 3);
		uint16_t plen = v2x_be16(&c);
		proto = v2x_u8(&c);
		v2x_skip(&c, 1 + 32);
		if (c.err || vihl >> 4 != 6 || plen > v2x_cur_left(&c))
			return fail(f, V2X_LAYER_LINK, "IPv6 header malformed or truncated");
		f->ip_version = 6;
		v2x_cur_init(&c, c.p, plen);
		ip_end = plen;
	}
	if (proto != IPPROTO_UDP_)
		return 0;
	f->udp_src_port = v2x_be16(&c);
	f->udp_dst_port = v2x_be16(&c);
	uint16_t ulen = v2x_be16(&c);
	v2x_skip(&c, 2);
	if (c.err || ulen < 8 || ulen > ip_end)
		return fail(f, V2X_LAYER_LINK, "UDP header malformed or truncated");
	return parse_udp_payload(c.p, (size_t)ulen - 8, f);
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
 * reach read as zeros. has_wsmp / has_dot2 / has_j2735 are set before their parsers (a
 * WSMP content check in UDP that fails leaves has_wsmp false). */
static void clear_unreached(struct v2x_frame *f)
{
	if (!f->has_wsmp)
		v2x_zero(&f->wsmp, V2X_WSMP_HEAD_SIZE);
	if (!f->has_dot2)
		v2x_zero(&f->dot2, sizeof(f->dot2));
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
	case V2X_LINK_RSU_TEXT:
		return parse_rsu(buf, len, f);
	case V2X_LINK_UPPER_PDU:
		return parse_upper_pdu(buf, len, f);
	default:
		return fail(f, V2X_LAYER_NONE, "unsupported link type");
	}
}

/* The frame's own fields, and the link layers' whose parsers it may not reach; apart, as
 * each is a few stores where one memset of all is a string instruction. */
static void clear_head(struct v2x_frame *f)
{
	v2x_zero(f, offsetof(struct v2x_frame, rt));
	v2x_zero(&f->rt, sizeof(f->rt));
	v2x_zero(&f->mac, sizeof(f->mac));
}

int v2x_frame_parse(int linktype, const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	if (!f || (!buf && len))
		return V2X_EINVAL;
	clear_head(f);
	int rc = parse_link(linktype, buf, len, f);
	clear_unreached(f);
	return rc;
}

int v2x_message_parse(const uint8_t *buf, size_t len, struct v2x_frame *f)
{
	if (!f || (!buf && len))
		return V2X_EINVAL;
	clear_head(f);
	f->layer = V2X_LAYER_WSMP;
	int rc = parse_message(buf, len, false, 0, V2X_J2735_BY_USER, f);
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

const char *v2x_encap_name(enum v2x_encap e)
{
	static const char *const names[V2X_ENCAP_COUNT] = {
		[V2X_ENCAP_NONE] = "none",           [V2X_ENCAP_UDP] = "udp",
		[V2X_ENCAP_UDP_WSMP] = "udp_wsmp",   [V2X_ENCAP_UDP_DOT2] = "udp_dot2",
		[V2X_ENCAP_UDP_J2735] = "udp_j2735", [V2X_ENCAP_C2P] = "c2p",
		[V2X_ENCAP_TZSP] = "tzsp",           [V2X_ENCAP_UDP_PC5] = "udp_pc5",
		[V2X_ENCAP_UDP_ETHERTYPE] = "udp_ethertype", [V2X_ENCAP_UDP_RSU] = "udp_rsu",
	};
	return (unsigned)e < V2X_ENCAP_COUNT ? names[e] : "?";
}
