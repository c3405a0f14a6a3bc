/* One frame through every layer libv2x knows: link (radiotap, 802.11, Ethernet, Linux
 * cooked, Wireshark's exported PDUs), IP/UDP forwarders, WSMP (IEEE 1609.3), IEEE 1609.2
 * and the SAE J2735 MessageFrame header. Frames come parsed from a capture
 * (<v2x/capture.h>), or a program parses octets it got elsewhere:
 *
 *   struct v2x_frame *f = v2x_frame_new();
 *   if (v2x_frame_parse(V2X_LINK_RADIOTAP, buf, len, f) == V2X_EFORMAT) ...;
 *   struct v2x_frame_info info = {.size = sizeof(info)};
 *   v2x_frame_get_info(f, &info);
 *   if (info.has_message_id) printf("%s\n", info.message_name);
 *   v2x_frame_free(f);
 *
 * A frame points into the octets it was parsed from: they must stay as they are while
 * the frame is used. */
#ifndef V2X_V2X_FRAME_H
#define V2X_V2X_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <v2x/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The link types (pcap LINKTYPE_* values) libv2x parses. */
enum {
	V2X_LINK_ETHERNET = 1,
	V2X_LINK_IEEE80211 = 105,
	V2X_LINK_LINUX_SLL = 113,
	V2X_LINK_RADIOTAP = 127,
	V2X_LINK_LINUX_SLL2 = 276,
	V2X_LINK_UPPER_PDU = 252, /* Wireshark's exported PDUs ("j2735", "ieee1609dot3") */
	/* Pseudo link type of the capture reader for WYDOT/JPO ODE log records:
	 * LINKTYPE_USER15, private: parsed, but neither read from a capture file nor
	 * written to one. */
	V2X_LINK_WYDOT = 162,
	/* ... for a file of USDOT RSU text records: one record's text a frame;
	 * LINKTYPE_USER14, private in the same way. */
	V2X_LINK_RSU_TEXT = 161,
};

/* How far parsing got; each level implies the ones before it. */
enum v2x_layer {
	V2X_LAYER_NONE = 0,     /* link layer unreadable or unsupported link type */
	V2X_LAYER_LINK,         /* link header(s) read; not a WSMP frame */
	V2X_LAYER_WSMP,         /* the V2X message layer: WSMP, or (in UDP, has_wsmp false)
				 * a 1609.2 message or MessageFrame without it */
	V2X_LAYER_DOT2,         /* 1609.2 envelope present and read */
	V2X_LAYER_J2735,        /* MessageFrame header read */
};

/* A parsed frame: opaque, reused from frame to frame. */
struct v2x_frame;

/* A frame for v2x_frame_parse / v2x_message_parse; NULL when out of memory. Free it with
 * v2x_frame_free (NULL is fine). */
V2X_API struct v2x_frame *v2x_frame_new(void);
V2X_API void v2x_frame_free(struct v2x_frame *f);

/* Parses len octets of the link type through every layer, filling f as far as it can
 * (f keeps pointers into buf). Returns 0 when every layer present parsed,
 * V2X_EFORMAT when one was malformed or the link type is not one libv2x parses (the
 * info's error names it; the layers before it stay readable), V2X_EINVAL for a NULL f,
 * or a NULL buf with len > 0. */
V2X_API int v2x_frame_parse(int linktype, const uint8_t *buf, size_t len,
			    struct v2x_frame *f);

/* A message without a link (a line of hex, a file's content): a 1609.2 message when it
 * starts 03 80/81/82, else a MessageFrame, taken as J2735 whatever its content. Returns
 * as v2x_frame_parse. */
V2X_API int v2x_message_parse(const uint8_t *buf, size_t len, struct v2x_frame *f);

/* What a frame holds, layer by layer. The caller sets size = sizeof(struct
 * v2x_frame_info) and the library fills what both it and the caller know of (members
 * are only ever added at the end). Names and strings are static. */
struct v2x_frame_info {
	size_t size;
	enum v2x_layer layer;           /* how far parsing got */
	const char *error;              /* the first error met, NULL when none ... */
	enum v2x_layer error_layer;     /* ... and the layer it happened in */
	/* link */
	bool has_src;                   /* src: the sender's MAC address (802.11 addr2,
					 * Ethernet source ...) */
	uint8_t src[6], dst[6];
	const char *llc;                /* 802.11 data: "epd" (EtherType right after the MAC
					 * header) or "snap"; "ethernet" for an Ethernet/SLL link;
					 * "none" */
	bool has_radio;                 /* radiotap, or a forwarder's record of the radio */
	uint16_t freq_mhz;              /* 0: not given */
	uint16_t rate_500kbps;          /* 0: not given */
	bool has_signal;
	int8_t signal_dbm;
	/* what carried the V2X frame: "none" (the link itself), "udp", "udp_wsmp",
	 * "udp_dot2", "udp_j2735", "c2p", "tzsp", "udp_pc5", "udp_ethertype", "udp_rsu" */
	const char *encap;
	uint8_t ip_version;             /* 4 or 6 when the frame went through IP, else 0 */
	uint16_t udp_src_port, udp_dst_port;
	uint32_t udp_prefix;            /* octets before the message in the UDP payload (a
					 * forwarder's header, jpo-ode's prefix) */
	/* IEEE 1609.3 WSMP */
	bool has_wsmp;
	uint8_t wsmp_version;           /* 2 or 3 */
	bool has_wsmp_psid;
	uint32_t wsmp_psid;
	/* IEEE 1609.2 */
	bool has_dot2;
	const char *dot2_content;       /* "unsecuredData", "signedData", ... */
	bool has_dot2_psid;
	uint32_t dot2_psid;             /* headerInfo.psid */
	bool has_generation_time;
	uint64_t generation_time_us;    /* Time64: microseconds since 2004-01-01 00:00 TAI */
	/* SAE J2735 MessageFrame */
	bool has_message_id;            /* set even when the rest of the header is malformed */
	uint16_t message_id;
	const char *message_name;       /* "BSM", "MAP" ...; NULL for an id J2735 does not
					 * define */
	size_t message_len;             /* its octets as received: v2x_frame_message's */
	bool message_truncated;         /* its open type is longer than the octets holding it */
	size_t trailing_octets;         /* octets after it: a sender's or forwarder's
					 * leftovers, never part of the message */
};

/* Fills *info from f (see struct v2x_frame_info). V2X_EINVAL when f or info is NULL or
 * info->size is smaller than the first members' (offsetof error_layer's end). */
V2X_API int v2x_frame_get_info(const struct v2x_frame *f, struct v2x_frame_info *info);

/* The MessageFrame's octets as received (UPER, from its first octet to its own end,
 * without trailing octets; cut short when it is truncated) and *len their count; NULL
 * (and *len 0) when the frame has no MessageFrame. len may be NULL. */
V2X_API const uint8_t *v2x_frame_message(const struct v2x_frame *f, size_t *len);

/* Whether libv2x parses frames of this link type (those above but the pseudo ones). */
V2X_API bool v2x_linktype_supported(int linktype);

/* Names, static strings: the layer an error happened in ("link", "WSMP", "1609.2",
 * "J2735"); the registry's name of a PSID, or NULL; a J2735 message id's abbreviation
 * ("BSM", "MAP", "SPAT" ...), or NULL for an id no edition defines. */
V2X_API const char *v2x_layer_name(enum v2x_layer l);
V2X_API const char *v2x_psid_name(uint32_t psid);
V2X_API const char *v2x_message_name(unsigned message_id);

/* The PSID a J2735 message of this id is sent under by default (IEEE 1609.12: BSM 0x20;
 * MAP, SPaT, SRM, SSM 0x82; TIM, RSA 0x83; PSM 0x27; EVA 0x85; probe data 0x84; RTCM
 * 0x80, NMEA 0x81) in *psid: true; false, *psid untouched, for an id without one (the
 * sender names the PSID). */
V2X_API bool v2x_message_psid(unsigned message_id, uint32_t *psid);

#ifdef __cplusplus
}
#endif

#endif
