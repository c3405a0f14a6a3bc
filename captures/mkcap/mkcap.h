/* mkcap: builds bit-exact sample captures (link layer, 802.11, WSMP, 1609.2) around
 * real J2735 payloads. Shared types of the builder's files. */
#ifndef MKCAP_H
#define MKCAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Growable octet buffer; an allocation failure sets oom and later puts do nothing. */
struct buf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

void buf_put(struct buf *b, const void *data, size_t n);
void buf_u8(struct buf *b, uint8_t v);
void buf_be16(struct buf *b, uint16_t v);
void buf_le16(struct buf *b, uint16_t v);
void buf_be32(struct buf *b, uint32_t v);
void buf_le32(struct buf *b, uint32_t v);
void buf_be64(struct buf *b, uint64_t v);
void buf_le64(struct buf *b, uint64_t v);
void buf_free(struct buf *b);

enum link { LINK_RADIOTAP, LINK_80211, LINK_ETHER, LINK_SLL, LINK_SLL2, LINK_UDP, LINK_C2P };
enum llc { LLC_SNAP, LLC_EPD };
enum dot2 { DOT2_NONE, DOT2_UNSECURED, DOT2_SIGNED };
enum c2p_record { C2P_RX, C2P_TX }; /* Commsignia C2P: a received or a transmitted frame */

/* 2004-01-01 00:00:00 UTC in Unix seconds: the epoch of 1609.2 Time64 and of C2P */
#define UNIX_2004_S 1072915200ull

#define MAX_EXT 8
#define MAX_EXT_LEN 16

struct wave_ext {
	uint8_t id;
	uint8_t len;
	uint8_t val[MAX_EXT_LEN];
	bool dbm; /* val[0] is a signed dBm value: WSMP v3 codes it + 128, v2 as is */
};

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
	struct wave_ext ext[MAX_EXT];
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
	enum c2p_record c2p;
};

/* Per-frame facts that change from frame to frame. */
struct frame_ctx {
	uint64_t ts_us;      /* capture timestamp, microseconds since 1970 */
	uint64_t tsft;       /* radiotap TSFT */
	uint16_t seq;        /* 802.11 sequence number */
};

/* payload.c */
int payload_load(const char *arg, struct buf *out, char *err, size_t errlen);
/* Length of the MessageFrame at the start of p (2 + length determinant + contents),
 * 0 when it is not one. */
size_t messageframe_len(const uint8_t *p, size_t n);
/* Rewrites BSMcoreData.msgCnt of a BSM MessageFrame; -1 when p is not a BSM. */
int bsm_set_msgcnt(uint8_t *p, size_t n, unsigned msgcnt);

/* wsm.c: payload -> 1609.2 envelope -> WSMP */
void dot2_wrap(struct buf *out, const struct frame_opts *o, const struct frame_ctx *f,
	       const uint8_t *payload, size_t n);
void wsmp_wrap(struct buf *out, const struct frame_opts *o, const uint8_t *wsm, size_t n);

/* link.c: WSMP (or, for LINK_UDP, the raw payload) -> one link-layer frame; LINK_C2P
 * forwards the 802.11 frame in a C2P record over IPv4/UDP */
uint32_t link_dlt(enum link l);
void link_wrap(struct buf *out, enum link l, const struct frame_opts *o,
	       const struct frame_ctx *f, const uint8_t *body, size_t n);

/* pcapw.c */
enum format { FMT_PCAP, FMT_PCAPNG };
void capfile_header(struct buf *out, enum format fmt, uint32_t dlt);
void capfile_record(struct buf *out, enum format fmt, uint64_t ts_us,
		    const uint8_t *frame, size_t n);

#endif
