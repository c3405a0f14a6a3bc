/* Radiotap header (DLT 127): the fields a V2X capture needs, every standard field skipped
 * with the right size and alignment, extended bitmaps and vendor namespaces honoured. */
#ifndef V2X_RADIOTAP_H
#define V2X_RADIOTAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Radiotap "flags" field bits */
#define V2X_RT_FLAG_FCS 0x10    /* frame carries a 4-octet FCS at its end */
#define V2X_RT_FLAG_BADFCS 0x40
/* Channel flags */
#define V2X_RT_CHAN_OFDM 0x0040
#define V2X_RT_CHAN_5GHZ 0x0100
#define V2X_RT_CHAN_HALF 0x4000
#define V2X_RT_CHAN_QUARTER 0x8000

struct v2x_radiotap {
	uint16_t hdr_len;       /* it_len: where the 802.11 frame starts */
	unsigned n_present;     /* number of it_present words */
	bool has_tsft, has_flags, has_rate, has_channel, has_signal, has_noise,
		has_antenna, has_mcs, has_vht, has_he;
	uint64_t tsft;          /* microseconds */
	uint8_t flags;
	uint8_t rate;           /* 500 kb/s units */
	uint16_t freq;          /* MHz */
	uint16_t chan_flags;
	int8_t signal_dbm;      /* first antenna-signal field (the combined one) */
	int8_t noise_dbm;
	uint8_t antenna;
	bool fcs_at_end;        /* flags & V2X_RT_FLAG_FCS */
	bool bad_fcs;           /* flags & V2X_RT_FLAG_BADFCS: the frame failed its FCS check */
};

/* 0 on success; -1 with a static message in *why on a malformed or truncated header. */
int v2x_radiotap_parse(const uint8_t *buf, size_t len, struct v2x_radiotap *rt,
		       const char **why);

#endif
