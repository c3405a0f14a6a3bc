/* mkcap: builds bit-exact sample captures (link layer, 802.11, WSMP, 1609.2) around
 * real J2735 payloads. Shared types of the builder's files. */
#ifndef MKCAP_H
#define MKCAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frame_write.h"
#include "writer.h"

enum link {
	LINK_RADIOTAP, LINK_80211, LINK_ETHER, LINK_SLL, LINK_SLL2, LINK_UDP, LINK_C2P, LINK_TZSP,
	LINK_UDP6, LINK_PC5, LINK_PC5_ETHER, LINK_RSU, LINK_C2P_CV2X
};
enum llc { LLC_SNAP, LLC_EPD };
enum dot2 { DOT2_NONE, DOT2_UNSECURED, DOT2_SIGNED };
/* Commsignia C2P: a received or a transmitted frame (DSRC with --link c2p, C-V2X with
 * --link c2p-cv2x) */
enum c2p_record { C2P_RX, C2P_TX };

/* 2004-01-01 00:00:00 UTC in Unix seconds: the epoch of 1609.2 Time64 and of C2P */
#define UNIX_2004_S 1072915200ull

#define MAX_EXT 8

/* Everything that describes one frame; options on the command line change it for the
 * payloads that follow them. */
struct frame_opts {
	enum llc llc;
	unsigned wsmp_version; /* 3 or 2 */
	uint32_t psid;
	uint8_t psid_raw[8]; /* --psid-raw: written instead of the p-encoding (bad input) */
	size_t psid_raw_len;
	unsigned tpid;       /* 0-5 */
	uint32_t lpp;        /* TPID 4/5 */
	struct v2x_wsmp_element ext[MAX_EXT];
	size_t n_ext;
	enum dot2 dot2;
	uint16_t freq;       /* MHz */
	unsigned width;      /* 10 or 20 MHz */
	uint8_t rate;        /* 500 kb/s units (radiotap) */
	int8_t rssi;         /* dBm */
	bool fcs;
	bool bad_fcs;        /* radiotap flags say the FCS check failed */
	uint8_t src[6];
	long wsm_len;        /* --wsm-len: WSM length field that lies; -1 = honest */
	uint16_t udp_port;
	uint8_t udp_prefix[32]; /* --prefix: octets before the payload (--link udp, udp6) */
	size_t udp_prefix_len;
	enum c2p_record c2p;
};

/* Per-frame facts that change from frame to frame. */
struct frame_ctx {
	uint64_t ts_us;      /* capture timestamp, microseconds since 1970 */
	uint64_t tsft;       /* radiotap TSFT */
	uint16_t seq;        /* 802.11 sequence number */
};

/* payload.c */
int payload_load(const char *arg, struct v2x_buf *out, char *err, size_t errlen);
/* Rewrites BSMcoreData.msgCnt of a BSM MessageFrame; -1 when p is not a BSM. */
int bsm_set_msgcnt(uint8_t *p, size_t n, unsigned msgcnt);

/* wsm.c: payload -> 1609.2 envelope -> WSMP */
void dot2_wrap(struct v2x_buf *out, const struct frame_opts *o, const struct frame_ctx *f,
	       const uint8_t *payload, size_t n);
void wsmp_wrap(struct v2x_buf *out, const struct frame_opts *o, const uint8_t *wsm, size_t n);

/* link.c: WSMP (or, for LINK_UDP/LINK_UDP6/LINK_RSU, the raw payload) -> one link-layer
 * frame; LINK_C2P, LINK_C2P_CV2X and LINK_TZSP forward the 802.11 frame in a C2P (DSRC
 * or C-V2X) or TZSP record over IPv4/UDP, LINK_PC5/LINK_PC5_ETHER the WSMP packet after the V2X message family octet
 * or EtherType, LINK_RSU an RSU text record (rsu_record) to UDP 1516 */
uint32_t link_dlt(enum link l);
void link_wrap(struct v2x_buf *out, enum link l, const struct frame_opts *o,
	       const struct frame_ctx *f, const uint8_t *body, size_t n);
/* The USDOT RSU immediate-forward record of a payload (1609.2 or MessageFrame), in the
 * key order and values V2X-Hub's immediate-forward plugin writes */
void rsu_record(struct v2x_buf *out, const struct frame_opts *o, const uint8_t *body,
		size_t n);

#endif
