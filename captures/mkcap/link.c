/* mkcap: link layers around a WSMP packet: radiotap + 802.11 OCB data frame (as Linux
 * mac80211 emits it), raw 802.11, Ethernet, Linux SLL/SLL2, IPv4/UDP over Ethernet, or
 * the 802.11 frame in a Commsignia C2P record over IPv4/UDP. */
#include "mkcap.h"
#include "registry.h"

#define ETHERTYPE_WSMP 0x88DC
#define ETHERTYPE_IPV4 0x0800

/* pcap LINKTYPE_* values */
uint32_t link_dlt(enum link l)
{
	switch (l) {
	case LINK_RADIOTAP: return 127;
	case LINK_80211: return 105;
	case LINK_ETHER: return 1;
	case LINK_SLL: return 113;
	case LINK_SLL2: return 276;
	case LINK_UDP: return 1;
	case LINK_C2P: return 1;
	}
	return 0;
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

/* Radiotap present bits and the flags mkcap sets */
enum {
	RT_TSFT = 0, RT_FLAGS = 1, RT_RATE = 2, RT_CHANNEL = 3, RT_DBM_SIGNAL = 5,
	RT_ANTENNA = 11, RT_RX_FLAGS = 14,
	RT_FLAG_FCS = 0x10, RT_FLAG_BADFCS = 0x40,
	RT_CHAN_OFDM = 0x0040, RT_CHAN_5GHZ = 0x0100, RT_CHAN_HALF = 0x4000,
	RT_CHAN_QUARTER = 0x8000,
};

static void radiotap(struct buf *b, const struct frame_opts *o, const struct frame_ctx *f)
{
	uint16_t chan_flags = RT_CHAN_OFDM | RT_CHAN_5GHZ;
	if (o->width == 10)
		chan_flags |= RT_CHAN_HALF;
	else if (o->width == 5)
		chan_flags |= RT_CHAN_QUARTER;
	buf_u8(b, 0);      /* version */
	buf_u8(b, 0);      /* pad */
	buf_le16(b, 26);   /* header length: 8 + the fields below, naturally aligned */
	buf_le32(b, 1u << RT_TSFT | 1u << RT_FLAGS | 1u << RT_RATE | 1u << RT_CHANNEL |
			    1u << RT_DBM_SIGNAL | 1u << RT_ANTENNA | 1u << RT_RX_FLAGS);
	buf_le64(b, f->tsft);                         /* offset 8 */
	buf_u8(b, (uint8_t)((o->fcs ? RT_FLAG_FCS : 0) |
			    (o->bad_fcs ? RT_FLAG_BADFCS : 0))); /* 16 */
	buf_u8(b, o->rate);                           /* 17 */
	buf_le16(b, o->freq);                         /* 18 */
	buf_le16(b, chan_flags);                      /* 20 */
	buf_u8(b, (uint8_t)o->rssi);                  /* 22 */
	buf_u8(b, 0);                                 /* 23 antenna */
	buf_le16(b, 0);                               /* 24 RX flags */
}

/* QoS data frame, From/To DS 0, to broadcast, BSSID the OCB wildcard, then the LLC. */
static void ieee80211(struct buf *b, const struct frame_opts *o, const struct frame_ctx *f)
{
	buf_u8(b, 0x88); /* frame control: type data, subtype QoS data */
	buf_u8(b, 0x00);
	buf_le16(b, 0);  /* duration */
	buf_put(b, broadcast, 6);
	buf_put(b, o->src, 6);
	buf_put(b, broadcast, 6); /* wildcard BSSID */
	buf_le16(b, (uint16_t)((f->seq & 0x0FFF) << 4));
	buf_le16(b, 0);  /* QoS control: TID 0 */
	if (o->llc == LLC_SNAP) {
		static const uint8_t snap[6] = {0xAA, 0xAA, 0x03, 0x00, 0x00, 0x00};
		buf_put(b, snap, sizeof snap);
	}
	buf_be16(b, ETHERTYPE_WSMP);
}

static void ether(struct buf *b, const uint8_t src[6], uint16_t ethertype)
{
	buf_put(b, broadcast, 6);
	buf_put(b, src, 6);
	buf_be16(b, ethertype);
}

enum { SLL_BROADCAST = 1, ARPHRD_ETHER = 1, SLL_IFINDEX = 3 };

static void sll(struct buf *b, const struct frame_opts *o)
{
	buf_be16(b, SLL_BROADCAST);
	buf_be16(b, ARPHRD_ETHER);
	buf_be16(b, 6);
	buf_put(b, o->src, 6);
	buf_be16(b, 0); /* address field is 8 octets */
	buf_be16(b, ETHERTYPE_WSMP);
}

static void sll2(struct buf *b, const struct frame_opts *o)
{
	buf_be16(b, ETHERTYPE_WSMP);
	buf_be16(b, 0); /* reserved */
	buf_be32(b, SLL_IFINDEX);
	buf_be16(b, ARPHRD_ETHER);
	buf_u8(b, SLL_BROADCAST);
	buf_u8(b, 6);
	buf_put(b, o->src, 6);
	buf_be16(b, 0);
}

static uint16_t ipv4_checksum(const uint8_t *h, size_t n)
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
static void ipv4_udp(struct buf *b, const uint8_t src[6], uint16_t port,
		     const struct frame_ctx *f, size_t payload_len)
{
	struct buf ip = {0};
	uint16_t total = (uint16_t)(20 + 8 + payload_len);
	buf_u8(&ip, 0x45);
	buf_u8(&ip, 0);
	buf_be16(&ip, total);
	buf_be16(&ip, f->seq); /* identification */
	buf_be16(&ip, 0x4000); /* don't fragment */
	buf_u8(&ip, 64);       /* TTL */
	buf_u8(&ip, 17);       /* UDP */
	buf_be16(&ip, 0);      /* checksum, filled in below */
	buf_be32(&ip, 0xC0A80000u | src[5]);
	buf_be32(&ip, 0xC0A800FFu);
	if (!ip.oom) {
		uint16_t sum = ipv4_checksum(ip.p, ip.len);
		ip.p[10] = (uint8_t)(sum >> 8);
		ip.p[11] = (uint8_t)sum;
	}
	buf_put(b, ip.p, ip.len);
	b->oom |= ip.oom;
	buf_free(&ip);
	buf_be16(b, port);
	buf_be16(b, port);
	buf_be16(b, (uint16_t)(8 + payload_len));
	buf_be16(b, 0);
}

/* Commsignia C2P (Capture Protocol), in the layout Wireshark 4.6's packet-c2p.c reads:
 * UDP port 7943; version 1 records of type DSRC RX and TX carry an 802.11 frame. */
#define C2P_PORT 7943
enum {
	C2P_VERSION = 1, C2P_TYPE_DSRC_RX = 1, C2P_TYPE_DSRC_TX = 2,
	/* C2P's "unavailable" values, for the fields mkcap has no fact for */
	C2P_CHANNEL_NA = 0, C2P_LAT_NA = 900000001, C2P_LONG_NA = 1800000001,
	C2P_SPEED_NA = 16383, C2P_HEADING_NA = 3601, C2P_POWER_NA = 127, C2P_CBR_NA = 1001,
};

/* The unit that forwards what its radio received and sent (its Ethernet/IPv4 sender) */
static const uint8_t c2p_forwarder[6] = {0x02, 0x00, 0x00, 0x00, 0xc2, 0x01};

/* A TX record's power: the WSMP Transmit Power Used element of the frame, if any */
static uint8_t c2p_tx_power(const struct frame_opts *o)
{
	for (size_t i = 0; i < o->n_ext; i++)
		if (o->ext[i].id == V2X_WEID_TX_POWER)
			return o->ext[i].val[0];
	return C2P_POWER_NA;
}

/* The record header, big-endian: version/type, time since 2004-01-01 UTC in seconds and
 * milliseconds, radio and position fields, then RSSI/noise/CBR (RX) or power (TX). */
static void c2p(struct buf *b, const struct frame_opts *o, const struct frame_ctx *f)
{
	bool rx = o->c2p == C2P_RX;
	buf_u8(b, C2P_VERSION << 4 | (rx ? C2P_TYPE_DSRC_RX : C2P_TYPE_DSRC_TX));
	buf_be32(b, (uint32_t)(f->ts_us / 1000000u - UNIX_2004_S));
	buf_be32(b, (uint32_t)(f->ts_us % 1000000u / 1000u));
	/* primary channel: the 5 GHz channel number of --freq */
	buf_u8(b, o->freq > 5000 && o->freq < 6000 ? (uint8_t)((o->freq - 5000) / 5)
						    : C2P_CHANNEL_NA);
	buf_u8(b, C2P_CHANNEL_NA); /* secondary channel */
	buf_u8(b, 0);              /* used interface */
	buf_u8(b, o->rate);        /* 500 kb/s units, as radiotap */
	buf_u8(b, 1);              /* used antenna */
	buf_be32(b, C2P_LAT_NA);   /* the forwarding unit's own position and motion */
	buf_be32(b, C2P_LONG_NA);
	buf_be16(b, C2P_SPEED_NA);
	buf_be16(b, C2P_HEADING_NA);
	if (rx) {
		buf_u8(b, (uint8_t)o->rssi); /* RSSI antenna 1 (dBm), antenna 2 */
		buf_u8(b, C2P_POWER_NA);
		buf_u8(b, C2P_POWER_NA);     /* noise antenna 1, 2 */
		buf_u8(b, C2P_POWER_NA);
		buf_be16(b, C2P_CBR_NA);     /* channel busy ratio antenna 1, 2 */
		buf_be16(b, C2P_CBR_NA);
	} else {
		buf_u8(b, c2p_tx_power(o));  /* TX power (dBm), then TSSI antenna 1, 2 */
		buf_u8(b, C2P_POWER_NA);
		buf_u8(b, C2P_POWER_NA);
	}
}

/* C2P record (header, 802.11 frame, WSMP) in IPv4/UDP from the forwarding unit */
static void c2p_udp(struct buf *b, const struct frame_opts *o, const struct frame_ctx *f,
		    const uint8_t *body, size_t n)
{
	struct buf rec = {0};
	c2p(&rec, o, f);
	ieee80211(&rec, o, f);
	buf_put(&rec, body, n);
	ether(b, c2p_forwarder, ETHERTYPE_IPV4);
	ipv4_udp(b, c2p_forwarder, C2P_PORT, f, rec.len);
	buf_put(b, rec.p, rec.len);
	b->oom |= rec.oom;
	buf_free(&rec);
}

void link_wrap(struct buf *out, enum link l, const struct frame_opts *o,
	       const struct frame_ctx *f, const uint8_t *body, size_t n)
{
	size_t start = out->len;
	switch (l) {
	case LINK_RADIOTAP:
		radiotap(out, o, f);
		start = out->len; /* the FCS covers the 802.11 frame only */
		ieee80211(out, o, f);
		break;
	case LINK_80211:
		ieee80211(out, o, f);
		break;
	case LINK_ETHER:
		ether(out, o->src, ETHERTYPE_WSMP);
		break;
	case LINK_SLL:
		sll(out, o);
		break;
	case LINK_SLL2:
		sll2(out, o);
		break;
	case LINK_UDP:
		ether(out, o->src, ETHERTYPE_IPV4);
		ipv4_udp(out, o->src, o->udp_port, f, n);
		break;
	case LINK_C2P:
		c2p_udp(out, o, f, body, n);
		return;
	}
	buf_put(out, body, n);
	if (l == LINK_RADIOTAP && o->fcs && !out->oom)
		buf_le32(out, crc32_ieee(out->p + start, out->len - start));
}
