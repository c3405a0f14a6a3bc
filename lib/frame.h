/* One captured frame through every layer: link type -> (radiotap) -> 802.11/Ethernet ->
 * WSMP -> IEEE 1609.2 -> J2735 MessageFrame header. The one pipeline v2xcap uses.
 * <v2x/frame.h> is its public face (the link types, the layers, the parse functions);
 * struct v2x_frame is defined here, private, and read by applications through
 * v2x_frame_get_info. */
#ifndef V2X_FRAME_H
#define V2X_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ieee1609dot2.h"
#include "ieee80211.h"
#include "j2735.h"
#include "radiotap.h"
#include "rsu.h"
#include "wsmp.h"
#include "wydot.h"
#include <v2x/frame.h>

#define V2X_ETHERTYPE_WSMP 0x88DC
#define V2X_ETHERTYPE_IPV4 0x0800
#define V2X_ETHERTYPE_IPV6 0x86DD

/* What carries the V2X frame when it is not the link layer itself: a UDP datagram (over
 * IPv4 or IPv6, on any link or in an 802.11 frame) holding a WSM, a 1609.2 message or a
 * bare MessageFrame, found by content; or a capture forwarder's record holding an 802.11
 * frame. Names: v2x_encap_name. */
enum v2x_encap {
	V2X_ENCAP_NONE = 0,     /* the link layer carries WSMP (or nothing V2X) */
	V2X_ENCAP_UDP,          /* IP/UDP, nothing V2X found in it */
	V2X_ENCAP_UDP_WSMP,     /* a whole WSMP packet in UDP */
	V2X_ENCAP_UDP_DOT2,     /* a 1609.2 message (03 80/81/82) in UDP */
	V2X_ENCAP_UDP_J2735,    /* a bare MessageFrame in UDP (the strict content rule) */
	V2X_ENCAP_C2P,          /* Commsignia C2P record (UDP 7943) around an 802.11 frame */
	V2X_ENCAP_TZSP,         /* TZSP (UDP 37008) around an 802.11 frame */
	V2X_ENCAP_UDP_PC5,      /* a C-V2X PC5 non-IP PDU in UDP: the V2X message family
				 * octet 1 (IEEE 1609), then a whole WSMP packet */
	V2X_ENCAP_UDP_ETHERTYPE, /* EtherType 0x88DC, then a whole WSMP packet, in UDP */
	V2X_ENCAP_UDP_RSU,      /* a USDOT RSU text record (rsu.h) in UDP */
	V2X_ENCAP_COUNT
};
/* UDP ports of C2P and TZSP */
enum {
	V2X_UDP_PORT_C2P = 7943,
	V2X_UDP_PORT_TZSP = 37008,
};
/* jpo-ode's UDP receivers: a port, its name, and the messageId whose start flag it looks
 * for (0: the generic receiver, any type's). Add a receiver here. */
struct v2x_jpo_ode_receiver {
	uint16_t port;
	const char *name;
	uint8_t msg_id;
};
enum { V2X_JPO_ODE_N_PORTS = 9 };
extern const struct v2x_jpo_ode_receiver v2x_jpo_ode_receivers[V2X_JPO_ODE_N_PORTS];
/* The receiver on a port, or NULL */
const struct v2x_jpo_ode_receiver *v2x_jpo_ode_receiver(uint16_t port);
bool v2x_udp_port_jpo_ode(uint16_t port);
/* Where the message starts in a datagram to jpo-ode's receiver on port, as jpo-ode finds
 * it (the rule is written down at its definition): the offset of the MessageFrame or of
 * the 1609.2 message around it; -1 when the port is no receiver's or the datagram has no
 * start flag for it. What follows the MessageFrame is left over (mf.trailing). The
 * frame path's rule on those ports and the J2735 plugin's. */
long v2x_jpo_ode_message_at(const uint8_t *buf, size_t len, uint16_t port);
/* The frame path's whole UDP rule for a datagram between these ports, for a dissector
 * that meets it after the content rules had their turn: -1 when an earlier rule takes the
 * datagram (C2P or TZSP by port; an RSU record, 1609.2, WSMP, a whole MessageFrame by
 * content) or no receiver's start flag is in it, else v2x_jpo_ode_message_at's offset
 * (destination port first). */
long v2x_jpo_ode_datagram_at(const uint8_t *buf, size_t len, uint16_t src_port,
			     uint16_t dst_port);
/* A UDP payload that is a 1609.2 message: it starts 03 80/81/82 (version, unsecured/
 * signed/encrypted) and its envelope reads; the frame path's test, and the plugins' UDP
 * heuristic, so that both take the same datagrams. */
bool v2x_udp_dot2_start(const uint8_t *buf, size_t len);

/* C-V2X PC5 non-IP frames as radios forward them. 3GPP TS 24.587 9.3 (TS 24.386 7.1):
 * the non-IP PDU is the V2X message family octet (1 IEEE 1609, 2 ISO, 3 ETSI-ITS, 4 CCSA)
 * then the message; some units put the EtherType 0x88DC (2 octets) first instead. */
/* A whole WSMP v3 packet: its header reads and its length ends exactly where buf ends
 * (w: the header as read, scratch). The content rule for WSMP in a UDP datagram, of the
 * frame path and of the WSMP plugin's UDP heuristic. */
bool v2x_udp_wsmp_whole(const uint8_t *buf, size_t len, struct v2x_wsmp *w);
enum { V2X_PC5_FAMILY_IEEE1609 = 1 };
/* The octets before a whole WSMP v3 packet (one that ends exactly where buf ends): 1 for
 * the family octet 1, 2 for EtherType 0x88DC, 0 when buf is neither. w: the WSMP header
 * as read (scratch). The one content rule of the frame path and the plugin. */
size_t v2x_pc5_wsmp_prefix(const uint8_t *buf, size_t len, struct v2x_wsmp *w);
/* "IEEE 1609", "ISO", "ETSI-ITS", "CCSA", or NULL (reserved) */
const char *v2x_pc5_family_name(uint8_t family);
struct v2x_frame {
	enum v2x_layer layer;
	bool has_radiotap, has_mac;
	enum v2x_llc llc;
	uint16_t ethertype;
	uint8_t src[6], dst[6];  /* sender / receiver MAC whatever the link type */
	bool has_src;
	enum v2x_encap encap;
	uint8_t ip_version;     /* 4 or 6 when the frame went through IP */
	uint16_t udp_src_port, udp_dst_port;
	uint32_t encap_skipped; /* octets before the message in UDP (a forwarder's prefix) */
	size_t encap_len;       /* octets the innermost UDP datagram carries */
	bool has_wsmp;          /* WSMP present (the V2X message layer may be without it) */
	bool has_wydot;         /* a log record: wydot holds its metadata */
	/* The message layer's octets: a WSM's data, or the 1609.2 message / MessageFrame a
	 * datagram or record carried (NULL when the frame got no further) */
	const uint8_t *msg;
	size_t msg_len;
	bool has_rsu;           /* an RSU text record: rsu holds it */
	bool has_dot2;
	bool has_j2735;         /* the payload is taken as J2735 (j2735_basis) */
	const uint8_t *j2735;   /* ... those octets (WSM, 1609.2 or UDP payload) */
	size_t j2735_len;
	enum v2x_j2735_basis j2735_basis;
	/* The first error met (static string), with the layer it happened in;
	 * NULL when every layer present parsed. */
	const char *error;
	enum v2x_layer error_layer;
	/* The layers, each initialised by its own parser and all zeros when not reached.
	 * WSMP is last: its extension arrays, valid up to wsmp.n_ext / n_text, are the one
	 * part of the frame a parse leaves as it was. */
	/* Radio metadata: radiotap's, or (has_radiotap false) the channel, rate and RSSI
	 * of a C2P or TZSP record */
	struct v2x_radiotap rt;
	struct v2x_mac mac;
	struct v2x_dot2 dot2;
	struct v2x_msgframe mf;
	/* A log record's metadata, valid when has_wydot (and, unlike the layers, not
	 * cleared otherwise: no need to pay for it on every radio frame). */
	struct v2x_wydot_rec wydot;
	/* An RSU text record, valid when has_rsu (not cleared either); its decoded payload
	 * is what j2735 points into. */
	struct v2x_rsu_rec rsu;
	struct v2x_wsmp wsmp;
};

/* "ether/80211" style short names, snake_case: "none", "udp", "udp_wsmp", "udp_dot2",
 * "udp_j2735", "c2p", "tzsp", "udp_pc5", "udp_ethertype", "udp_rsu" */
const char *v2x_encap_name(enum v2x_encap e);

#endif
