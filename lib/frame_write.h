/* Frame encoder, the inverse of frame.c: a payload in an IEEE 1609.2 envelope, a WSMP v3
 * or v2 header, and a link layer (radiotap + 802.11 OCB QoS data with EPD or SNAP,
 * raw 802.11, Ethernet, Linux SLL/SLL2). Used by `v2xcap send`, mkcap and gencap. */
#ifndef V2X_FRAME_WRITE_H
#define V2X_FRAME_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ieee1609dot2.h"
#include "ieee80211.h"
#include "writer.h"

/* IEEE 1609.2 Ieee1609Dot2Data around the payload. */
struct v2x_dot2_spec {
	enum v2x_dot2_content content; /* V2X_DOT2_UNSECURED or V2X_DOT2_SIGNED */
	/* signedData: sha256, headerInfo with psid and generationTime, a digest signer and
	 * an ecdsaNistP256 x-only signature of fixed dummy octets (never a valid one) */
	uint32_t psid;
	uint64_t generation_time; /* Time64: TAI microseconds since 2004-01-01 */
	uint8_t digest[8];        /* HashedId8 of the signer */
};
void v2x_dot2_write(struct v2x_buf *out, const struct v2x_dot2_spec *s,
		    const uint8_t *payload, size_t n);

/* A WAVE information element: its id and value octets. */
#define V2X_WSMP_ELEMENT_MAX 16
struct v2x_wsmp_element {
	uint8_t id;
	uint8_t len;
	uint8_t value[V2X_WSMP_ELEMENT_MAX];
	/* value[0] is a dBm (Transmit Power Used): v3 codes it + 128 (UPER), v2 as it is */
	bool dbm;
};

struct v2x_wsmp_spec {
	unsigned version;       /* 3, or 2 (1609.3-2010) */
	unsigned tpid;          /* v3: 0, 1 (PSID), 2, 3 (ports) or 4, 5 (LPP); the odd ones
				 * add an empty T-header extension list */
	uint32_t psid;
	uint32_t lpp;           /* TPID 4, 5: the local port, p-encoded like a PSID */
	const uint8_t *psid_raw; /* when set, these octets instead of the p-encoded psid */
	size_t psid_raw_len;
	uint16_t src_port, dst_port;
	const struct v2x_wsmp_element *ext; /* v3: N-header extension elements; v2: the */
	size_t n_ext;                       /* optional fields before the WSMP element id */
	long length;            /* the WSM Length field; -1 for the length of the data */
};
void v2x_wsmp_write(struct v2x_buf *out, const struct v2x_wsmp_spec *s,
		    const uint8_t *wsm, size_t n);

/* The link layer, for V2X_LINK_RADIOTAP, _IEEE80211, _ETHERNET, _LINUX_SLL, _LINUX_SLL2
 * (frame.h); frames go to the broadcast address. */
struct v2x_link_spec {
	int linktype;
	uint8_t src[6];
	enum v2x_llc llc;       /* 802.11: V2X_LLC_EPD or V2X_LLC_SNAP */
	uint16_t seq;           /* 802.11 sequence number */
	/* radiotap: TSFT, flags, rate, channel, antenna signal, antenna, RX flags */
	uint64_t tsft;
	uint16_t freq;          /* MHz */
	unsigned width;         /* 5, 10 or 20 MHz */
	uint8_t rate;           /* 500 kb/s */
	int8_t rssi;            /* dBm */
	bool fcs;               /* append the 802.11 FCS (radiotap flag set) */
	bool bad_fcs;           /* radiotap flags say the FCS check failed (test input) */
};
/* The link header(s) for an EtherType, the body, and the FCS when asked. */
void v2x_link_write(struct v2x_buf *out, const struct v2x_link_spec *s, uint16_t ethertype,
		    const uint8_t *body, size_t n);
/* The 802.11 QoS data header and LLC alone (for records that embed one). */
void v2x_80211_write(struct v2x_buf *out, const struct v2x_link_spec *s, uint16_t ethertype);
void v2x_ether_write(struct v2x_buf *out, const uint8_t src[6], uint16_t ethertype);

#endif
