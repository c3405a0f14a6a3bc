/* mkcap: link layers around a WSMP packet: those libv2x encodes (radiotap + 802.11 OCB
 * data frame as Linux mac80211 emits it, raw 802.11, Ethernet, Linux SLL/SLL2), and
 * IPv4/UDP or IPv6/UDP over Ethernet, or the 802.11 frame in a Commsignia C2P (DSRC or
 * C-V2X) or a TZSP record over IPv4/UDP; a C-V2X PC5 non-IP frame or an RSU text record over IPv4/UDP. */
#include <stdio.h>
#include <string.h>

#include "frame.h"
#include "ieee80211.h"
#include "mkcap.h"
#include "psid.h"
#include "registry.h"

/* The pcap LINKTYPE of each; UDP and C2P travel over Ethernet */
static const int linktypes[] = {
	[LINK_RADIOTAP] = V2X_LINK_RADIOTAP, [LINK_80211] = V2X_LINK_IEEE80211,
	[LINK_ETHER] = V2X_LINK_ETHERNET, [LINK_SLL] = V2X_LINK_LINUX_SLL,
	[LINK_SLL2] = V2X_LINK_LINUX_SLL2, [LINK_UDP] = V2X_LINK_ETHERNET,
	[LINK_C2P] = V2X_LINK_ETHERNET, [LINK_TZSP] = V2X_LINK_ETHERNET,
	[LINK_UDP6] = V2X_LINK_ETHERNET, [LINK_PC5] = V2X_LINK_ETHERNET,
	[LINK_PC5_ETHER] = V2X_LINK_ETHERNET, [LINK_RSU] = V2X_LINK_ETHERNET,
	[LINK_C2P_CV2X] = V2X_LINK_ETHERNET,
};

uint32_t link_dlt(enum link l)
{
	return (uint32_t)linktypes[l];
}

/* The Internet checksum (RFC 1071) of IPv4 headers and UDP over IPv6 */
static uint16_t inet_checksum(const uint8_t *h, size_t n)
{
	uint32_t sum = 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

/* IPv4 from 192.168.0.<last octet of the sender's MAC> to the subnet broadcast, UDP
 * from and to the same port, without checksum */
static void ipv4_udp(struct v2x_buf *b, const uint8_t src[6], uint16_t port,
		     const struct frame_ctx *f, size_t payload_len)
{
	struct v2x_buf ip = {0};
	uint16_t total = (uint16_t)(20 + 8 + payload_len);
	v2x_put_u8(&ip, 0x45);
	v2x_put_u8(&ip, 0);
	v2x_put_be16(&ip, total);
	v2x_put_be16(&ip, f->seq); /* identification */
	v2x_put_be16(&ip, 0x4000); /* don't fragment */
	v2x_put_u8(&ip, 64);       /* TTL */
	v2x_put_u8(&ip, 17);       /* UDP */
	v2x_put_be16(&ip, 0);      /* checksum, filled in below */
	v2x_put_be32(&ip, 0xC0A80000u | src[5]);
	v2x_put_be32(&ip, 0xC0A800FFu);
	if (!ip.err) {
		uint16_t sum = inet_checksum(ip.p, ip.len);
		ip.p[10] = (uint8_t)(sum >> 8);
		ip.p[11] = (uint8_t)sum;
	}
	v2x_put(b, ip.p, ip.len);
	b->err |= ip.err;
	v2x_buf_free(&ip);
	v2x_put_be16(b, port);
	v2x_put_be16(b, port);
	v2x_put_be16(b, (uint16_t)(8 + payload_len));
	v2x_put_be16(b, 0);
}

/* IPv6 from fe80::ff:fe00:<last octet of the sender's MAC> to the all-nodes address
 * ff02::1, hop limit 255, UDP from and to the same port with its checksum (mandatory in
 * IPv6: RFC 8200 8.1, over the pseudo-header, the UDP header and the payload) */
static void ipv6_udp(struct v2x_buf *b, const uint8_t src[6], uint16_t port,
		     const uint8_t *payload, size_t n)
{
	static const uint8_t all_nodes[16] = {0xff, 0x02, [15] = 0x01};
	uint8_t addr[16] = {0xfe, 0x80, [11] = 0xff, [12] = 0xfe};
	addr[15] = src[5];
	uint16_t ulen = (uint16_t)(8 + n);
	struct v2x_buf sum = {0}; /* pseudo-header, UDP header, payload */
	v2x_put(&sum, addr, 16);
	v2x_put(&sum, all_nodes, 16);
	v2x_put_be32(&sum, ulen);
	v2x_put_be32(&sum, 17);
	v2x_put_be16(&sum, port);
	v2x_put_be16(&sum, port);
	v2x_put_be16(&sum, ulen);
	v2x_put_be16(&sum, 0);
	v2x_put(&sum, payload, n);
	v2x_put_u8(&sum, 0); /* pads an odd length; the sum reads whole pairs only */
	uint16_t check = sum.err ? 0 : inet_checksum(sum.p, sum.len);
	b->err |= sum.err;
	v2x_buf_free(&sum);
	v2x_put_be32(b, 0x60000000u); /* version 6, no traffic class, no flow label */
	v2x_put_be16(b, ulen);
	v2x_put_u8(b, 17); /* next header UDP */
	v2x_put_u8(b, 255);
	v2x_put(b, addr, 16);
	v2x_put(b, all_nodes, 16);
	v2x_put_be16(b, port);
	v2x_put_be16(b, port);
	v2x_put_be16(b, ulen);
	v2x_put_be16(b, check ? check : 0xFFFF); /* 0 is "no checksum", not allowed */
}

/* TZSP (TaZmen Sniffer Protocol, UDP 37008): version 1, type 0 (received frame),
 * encapsulation 18 (IEEE 802.11), tags signal (10, dBm), data rate (12, 500 kb/s) and
 * channel (18, the 5 GHz number of --freq), end (1), then the 802.11 frame. */
#define TZSP_PORT 37008
static void tzsp(struct v2x_buf *b, const struct frame_opts *o)
{
	v2x_put_u8(b, 1);
	v2x_put_u8(b, 0);
	v2x_put_be16(b, 18);
	const uint8_t tags[] = {10, 1, (uint8_t)o->rssi, 12, 1, o->rate, 18, 1,
				(uint8_t)v2x_5ghz_channel(o->freq), 1};
	v2x_put(b, tags, sizeof(tags));
}

/* Commsignia C2P (Capture Protocol), in the layout Wireshark 4.6's packet-c2p.c reads:
 * UDP port 7943; version 1 records of type DSRC RX and TX, C-V2X RX and TX carry an
 * 802.11 frame. */
#define C2P_PORT 7943
enum {
	C2P_VERSION = 1, C2P_TYPE_DSRC_RX = 1, C2P_TYPE_DSRC_TX = 2, C2P_TYPE_CV2X_RX = 7,
	C2P_TYPE_CV2X_TX = 8,
	/* C2P's "unavailable" values, for the fields mkcap has no fact for */
	C2P_CHANNEL_NA = 0, C2P_LAT_NA = 900000001, C2P_LONG_NA = 1800000001,
	C2P_SPEED_NA = 16383, C2P_HEADING_NA = 3601, C2P_POWER_NA = 127, C2P_CBR_NA = 1001,
	C2P_CV2X_POWER_NA = 32767,
	/* the C-V2X radio's socket that received the frame (the first one) */
	C2P_CV2X_SOCKET = 0,
};

/* The unit that forwards what its radio received and sent (its Ethernet/IPv4 sender) */
static const uint8_t c2p_forwarder[6] = {0x02, 0x00, 0x00, 0x00, 0xc2, 0x01};

/* A TX record's power: the WSMP Transmit Power Used element of the frame, if any */
static bool c2p_tx_power(const struct frame_opts *o, int8_t *dbm)
{
	for (size_t i = 0; i < o->n_ext; i++)
		if (o->ext[i].id == V2X_WEID_TX_POWER) {
			*dbm = (int8_t)o->ext[i].value[0];
			return true;
		}
	return false;
}

/* The DSRC record fields after the timestamp: radio and position fields, then
 * RSSI/noise/CBR (RX) or power (TX). */
static void c2p_dsrc(struct v2x_buf *b, const struct frame_opts *o, bool rx)
{
	int8_t power;
	/* primary channel: the 5 GHz channel number of --freq */
	v2x_put_u8(b, v2x_5ghz_channel(o->freq) ? (uint8_t)v2x_5ghz_channel(o->freq)
						 : C2P_CHANNEL_NA);
	v2x_put_u8(b, C2P_CHANNEL_NA); /* secondary channel */
	v2x_put_u8(b, 0);              /* used interface */
	v2x_put_u8(b, o->rate);        /* 500 kb/s units, as radiotap */
	v2x_put_u8(b, 1);              /* used antenna */
	v2x_put_be32(b, C2P_LAT_NA);   /* the forwarding unit's own position and motion */
	v2x_put_be32(b, C2P_LONG_NA);
	v2x_put_be16(b, C2P_SPEED_NA);
	v2x_put_be16(b, C2P_HEADING_NA);
	if (rx) {
		v2x_put_u8(b, (uint8_t)o->rssi); /* RSSI antenna 1 (dBm), antenna 2 */
		v2x_put_u8(b, C2P_POWER_NA);
		v2x_put_u8(b, C2P_POWER_NA);     /* noise antenna 1, 2 */
		v2x_put_u8(b, C2P_POWER_NA);
		v2x_put_be16(b, C2P_CBR_NA);     /* channel busy ratio antenna 1, 2 */
		v2x_put_be16(b, C2P_CBR_NA);
	} else {
		/* TX power (dBm), then TSSI antenna 1, 2 */
		v2x_put_u8(b, c2p_tx_power(o, &power) ? (uint8_t)power : C2P_POWER_NA);
		v2x_put_u8(b, C2P_POWER_NA);
		v2x_put_u8(b, C2P_POWER_NA);
	}
}

/* The C-V2X record fields after the timestamp: RX the socket, the EtherType of what the
 * frame carries, RSSI and data rate; TX an event-driven (not SPS) frame with no port or
 * reservation, its power (i32 dBm) and priority 0 */
static void c2p_cv2x(struct v2x_buf *b, const struct frame_opts *o, bool rx)
{
	int8_t power;
	if (rx) {
		v2x_put_u8(b, C2P_CV2X_SOCKET);
		v2x_put_be16(b, V2X_ETHERTYPE_WSMP);
		v2x_put_u8(b, (uint8_t)o->rssi);
		v2x_put_u8(b, o->rate);
		return;
	}
	v2x_put_u8(b, 0);    /* SPS flow: no */
	v2x_put_be16(b, 0);  /* SPS port, event port */
	v2x_put_be16(b, 0);
	v2x_put_be32(b, c2p_tx_power(o, &power) ? (uint32_t)(int32_t)power : C2P_CV2X_POWER_NA);
	v2x_put_be32(b, 0);  /* V2X id, reservation period and size */
	v2x_put_be32(b, 0);
	v2x_put_be32(b, 0);
	v2x_put_u8(b, 0);    /* priority */
}

/* The record header, big-endian: version/type, time since 2004-01-01 UTC in seconds and
 * milliseconds, then the fields of the DSRC or C-V2X record. */
static void c2p(struct v2x_buf *b, bool cv2x, const struct frame_opts *o,
		const struct frame_ctx *f)
{
	bool rx = o->c2p == C2P_RX;
	uint8_t type = cv2x ? (rx ? C2P_TYPE_CV2X_RX : C2P_TYPE_CV2X_TX)
			    : (rx ? C2P_TYPE_DSRC_RX : C2P_TYPE_DSRC_TX);
	v2x_put_u8(b, C2P_VERSION << 4 | type);
	v2x_put_be32(b, (uint32_t)(f->ts_us / 1000000u - UNIX_2004_S));
	v2x_put_be32(b, (uint32_t)(f->ts_us % 1000000u / 1000u));
	if (cv2x)
		c2p_cv2x(b, o, rx);
	else
		c2p_dsrc(b, o, rx);
}

static struct v2x_link_spec link_spec(enum link l, const struct frame_opts *o,
				      const struct frame_ctx *f)
{
	struct v2x_link_spec s = {
		.linktype = linktypes[l],
		.llc = o->llc == LLC_SNAP ? V2X_LLC_SNAP : V2X_LLC_EPD,
		.seq = f->seq,
		.tsft = f->tsft,
		.freq = o->freq,
		.width = o->width,
		.rate = o->rate,
		.rssi = o->rssi,
		.fcs = o->fcs,
		.bad_fcs = o->bad_fcs,
	};
	memcpy(s.src, o->src, 6);
	return s;
}

/* C2P (DSRC or C-V2X) or TZSP record (header, 802.11 frame, WSMP) in IPv4/UDP from the forwarding unit */
static void forwarded(struct v2x_buf *b, enum link l, const struct frame_opts *o,
		      const struct frame_ctx *f, const uint8_t *body, size_t n)
{
	struct v2x_buf rec = {0};
	struct v2x_link_spec s = link_spec(l, o, f);
	if (l == LINK_TZSP)
		tzsp(&rec, o);
	else
		c2p(&rec, l == LINK_C2P_CV2X, o, f);
	v2x_80211_write(&rec, &s, V2X_ETHERTYPE_WSMP);
	v2x_put(&rec, body, n);
	v2x_ether_write(b, c2p_forwarder, V2X_ETHERTYPE_IPV4);
	ipv4_udp(b, c2p_forwarder, l == LINK_TZSP ? TZSP_PORT : C2P_PORT, f, rec.len);
	v2x_put(b, rec.p, rec.len);
	b->err |= rec.err;
	v2x_buf_free(&rec);
}

void rsu_record(struct v2x_buf *out, const struct frame_opts *o, const uint8_t *body,
		size_t n)
{
	struct v2x_frame fr;
	v2x_message_parse(body, n, &fr);
	const struct v2x_msgid *m = fr.mf.has_msg_id ? v2x_msgid_lookup(fr.mf.msg_id) : NULL;
	uint8_t pe[4];
	unsigned pn = v2x_psid_encode(o->psid, pe);
	char line[128];
	int k = snprintf(line, sizeof line, "Version=0.7\nType=%s\nPSID=0x", m ? m->abbrev : "");
	v2x_put(out, line, (size_t)k);
	for (unsigned i = 0; i < pn; i++) {
		k = snprintf(line, sizeof line, "%02X", pe[i]);
		v2x_put(out, line, (size_t)k);
	}
	k = snprintf(line, sizeof line, "\nPriority=7\nTxMode=CONT\nTxChannel=%d\nTxInterval=0\n",
		     v2x_5ghz_channel(o->freq));
	v2x_put(out, line, (size_t)k);
	k = snprintf(line, sizeof line, "DeliveryStart=\nDeliveryStop=\nSignature=%s\n"
		     "Encryption=False\nPayload=", o->dot2 == DOT2_SIGNED ? "True" : "False");
	v2x_put(out, line, (size_t)k);
	for (size_t i = 0; i < n; i++) {
		k = snprintf(line, sizeof line, "%02X", body[i]);
		v2x_put(out, line, (size_t)k);
	}
	v2x_put_u8(out, '\n');
}

/* What a UDP forwarder sends: the PC5 prefix and WSMP, or an RSU record */
static void udp_forwarded(struct v2x_buf *out, enum link l, const struct frame_opts *o,
			  const struct frame_ctx *f, const uint8_t *body, size_t n)
{
	struct v2x_buf d = {0};
	if (l == LINK_PC5)
		v2x_put_u8(&d, V2X_PC5_FAMILY_IEEE1609);
	else if (l == LINK_PC5_ETHER)
		v2x_put_be16(&d, V2X_ETHERTYPE_WSMP);
	if (l == LINK_RSU)
		rsu_record(&d, o, body, n);
	else
		v2x_put(&d, body, n);
	v2x_ether_write(out, o->src, V2X_ETHERTYPE_IPV4);
	ipv4_udp(out, o->src, l == LINK_RSU ? V2X_RSU_UDP_PORT : o->udp_port, f, d.len);
	v2x_put(out, d.p, d.len);
	out->err |= d.err;
	v2x_buf_free(&d);
}

void link_wrap(struct v2x_buf *out, enum link l, const struct frame_opts *o,
	       const struct frame_ctx *f, const uint8_t *body, size_t n)
{
	struct v2x_link_spec s = link_spec(l, o, f);
	struct v2x_buf dgram = {0}; /* a forwarder's prefix, then the payload */
	switch (l) {
	case LINK_UDP:
	case LINK_UDP6:
		v2x_put(&dgram, o->udp_prefix, o->udp_prefix_len);
		v2x_put(&dgram, body, n);
		v2x_ether_write(out, o->src, l == LINK_UDP ? V2X_ETHERTYPE_IPV4 : V2X_ETHERTYPE_IPV6);
		if (l == LINK_UDP)
			ipv4_udp(out, o->src, o->udp_port, f, dgram.len);
		else
			ipv6_udp(out, o->src, o->udp_port, dgram.p, dgram.len);
		v2x_put(out, dgram.p, dgram.len);
		v2x_buf_free(&dgram);
		break;
	case LINK_C2P:
	case LINK_C2P_CV2X:
	case LINK_TZSP:
		forwarded(out, l, o, f, body, n);
		break;
	case LINK_PC5:
	case LINK_PC5_ETHER:
	case LINK_RSU:
		udp_forwarded(out, l, o, f, body, n);
		break;
	default:
		v2x_link_write(out, &s, V2X_ETHERTYPE_WSMP, body, n);
		break;
	}
}
