/* Capture statistics, independent of I/O: fed one parsed frame at a time, keeps counters
 * per message type / PSID / channel / sender MAC, per encapsulation, per BSM TemporaryID,
 * and an optional time series; can be read (printed) at any moment, so live capture uses it too. */
#ifndef V2XCAP_STATS_H
#define V2XCAP_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frame.h"

/* Bounds that keep memory flat whatever the capture size. Frames whose key does not fit
 * in a full table are still counted in the totals and in the table's `overflow`. */
#define V2XCAP_STATS_MAX_GROUPS 1024   /* per dimension: types, PSIDs, channels, MACs */
#define V2XCAP_STATS_MAX_BSM_SENDERS 4096 /* TemporaryIDs (they change every few minutes) */

/* Inter-arrival histogram: 1 ms bins below 128 ms, 8 ms bins up to 1152 ms, one overflow
 * bin above; percentiles are the lower edge of their bin (the exact max when they fall in
 * the overflow bin). Fixed size: 257 counters per sender. */
#define V2XCAP_IAT_FINE_BINS 128
#define V2XCAP_IAT_COARSE_BINS 128
#define V2XCAP_IAT_COARSE_MS 8
#define V2XCAP_IAT_BINS (V2XCAP_IAT_FINE_BINS + V2XCAP_IAT_COARSE_BINS + 1)

/* A BSM's age (capture time vs secMark) is "unsynchronised" beyond this mean |age|. */
#define V2XCAP_AGE_UNSYNC_MS 1000

/* What one frame brings besides its parse. */
struct v2xcap_sample {
	int64_t ts_us;          /* capture time, microseconds since the Unix epoch */
	uint32_t caplen, wirelen; /* octets captured / on the air */
};

enum v2xcap_dimension { V2XCAP_BY_TYPE, V2XCAP_BY_PSID, V2XCAP_BY_CHANNEL, V2XCAP_BY_SENDER, V2XCAP_N_DIMS };

/* Keys of the "type" dimension beyond J2735 message ids (which are 0..32767). */
#define V2XCAP_TYPE_NO_J2735 0x10000u  /* WSMP whose payload is not J2735 or has no readable messageId */

/* Why a frame did not reach WSMP. */
enum v2xcap_nonwsmp {
	V2XCAP_NONWSMP_LINK_ERROR,     /* link/radiotap/802.11 header unreadable */
	V2XCAP_NONWSMP_NOT_DATA,       /* management/control frame */
	V2XCAP_NONWSMP_PROTECTED,      /* 802.11 protected frame */
	V2XCAP_NONWSMP_OTHER_ETHERTYPE,/* data frame of another protocol (or no LLC) */
	V2XCAP_NONWSMP_BAD_WSMP,       /* EtherType 0x88DC but no readable WSMP header */
	V2XCAP_NONWSMP_BAD_FCS,        /* the receiver flagged a failed FCS: not decoded */
	V2XCAP_NONWSMP_N
};

struct v2xcap_minmax {
	uint64_t n;
	int64_t min, max, sum;  /* min and max mean something only when n > 0 */
};

/* Open-addressing index from a key to its entry in a dense array: the probed part stays
 * small (16 octets a slot, key and position side by side: one cache line per probe) and
 * cache-friendly whatever the size of the entries. */
struct v2xcap_keyslot {
	uint64_t key;
	uint32_t pos;           /* 1-based entry index; 0 = free slot */
};

struct v2xcap_keyindex {
	struct v2xcap_keyslot *slots;
	size_t nslots;          /* a power of two, twice the cap */
	uint64_t last_key;      /* the last key found: consecutive frames often share it */
	long last;              /* its entry index, -1 before the first */
};

struct v2xcap_group {
	uint64_t key;           /* msg id (or V2XCAP_TYPE_*), PSID, MHz, or MAC as 48 bits */
	uint64_t frames;
	struct v2xcap_minmax bytes; /* WSM payload octets (1609.2 envelope included) */
	struct v2xcap_minmax rssi;  /* dBm, frames with a radiotap antenna signal only */
	/* 1609.2: signed (signedData, signedCertificateRequest); unsigned (unsecuredData
	 * or no 1609.2 envelope at all); encrypted (encryptedData) */
	uint64_t signed_, unsigned_, encrypted;
	uint64_t errors;        /* WSMP frames with a malformed or truncated layer */
	uint64_t trailing;      /* frames with octets after their MessageFrame */
};

struct v2xcap_group_table {
	struct v2xcap_keyindex index;
	struct v2xcap_group *groups; /* n used of V2XCAP_STATS_MAX_GROUPS */
	size_t n;
	uint64_t overflow;       /* frames not counted here because the table was full */
};

/* What every BSM updates comes first (two cache lines), the histogram last: with
 * hundreds of senders, a frame touches three lines of its sender instead of five. */
struct v2xcap_bsm_sender {
	uint32_t id;            /* TemporaryID, as its 4 octets big endian */
	uint8_t last_cnt;
	uint64_t messages;
	int64_t first_us, last_us;
	int64_t iat_max_us;
	uint64_t lost;          /* sum of msgCnt gaps (mod 128) */
	uint64_t duplicates;    /* same msgCnt twice in a row */
	struct v2xcap_minmax age_ms; /* capture time - secMark, mod 60000, in (-30000, 30000] */
	uint32_t iat[V2XCAP_IAT_BINS];
};

struct v2xcap_bsm_table {
	struct v2xcap_keyindex index;
	struct v2xcap_bsm_sender *senders; /* n used of V2XCAP_STATS_MAX_BSM_SENDERS */
	size_t n;
	uint64_t overflow;
	uint64_t unreadable;    /* BSMs too short for the core data header */
};

/* One closed interval of the time series: per-type frame counts. */
struct v2xcap_interval {
	int64_t start_us;
	int64_t len_us;
	uint64_t total;
	size_t n_types;
	const uint64_t *type_keys; /* n_types keys of the type dimension ... */
	const uint64_t *counts;    /* ... and their counts in this interval (all > 0) */
};

typedef void (*v2xcap_interval_fn)(void *ctx, const struct v2xcap_interval *iv);

struct v2xcap_stats_filter {
	bool by_type, by_psid;  /* both false: every frame */
	uint32_t msg_id, psid;
};

struct v2xcap_stats {
	struct v2xcap_stats_filter filter;
	uint64_t frames;        /* every frame seen */
	uint64_t filtered_out;
	uint64_t wsmp;          /* frames that reached WSMP (and passed the filter) */
	uint64_t nonwsmp[V2XCAP_NONWSMP_N];
	uint64_t encap[V2X_ENCAP_COUNT]; /* every frame by what carried it (frame.h) */
	/* ... and its captured octets and malformed frames, counted only when encap_view is
	 * set (before the first frame): the view that shows them is asked for */
	bool encap_view;
	uint64_t encap_bytes[V2X_ENCAP_COUNT], encap_errors[V2X_ENCAP_COUNT];
	uint64_t bytes;         /* captured octets of every frame */
	uint64_t sliced;        /* frames captured shorter than they were (snap length) */
	uint64_t malformed;     /* frames with a malformed or truncated layer (f->error) */
	int64_t first_us, last_us;
	struct v2xcap_group_table dims[V2XCAP_N_DIMS];
	/* the dimensions counted (1u << V2XCAP_BY_*): all, unless narrowed before the first
	 * frame to what the output shows (a table or CSV: one) */
	unsigned dims_counted;
	struct v2xcap_bsm_table bsm;
	/* time series (interval_us > 0) */
	int64_t interval_us;
	v2xcap_interval_fn on_interval;
	void *interval_ctx;
	int64_t iv_start_us;
	bool iv_open;
	size_t iv_n;
	uint64_t iv_total;
	uint64_t iv_keys[V2XCAP_STATS_MAX_GROUPS], iv_counts[V2XCAP_STATS_MAX_GROUPS];
};

/* Allocates the fixed tables; -1 when out of memory. */
int v2xcap_stats_init(struct v2xcap_stats *s, const struct v2xcap_stats_filter *filter);
void v2xcap_stats_free(struct v2xcap_stats *s);
/* Turns on the time series: fn is called for every interval once it is closed (by a later
 * frame or by v2xcap_stats_finish); empty intervals between frames are reported too. */
void v2xcap_stats_set_interval(struct v2xcap_stats *s, int64_t interval_us, v2xcap_interval_fn fn,
			    void *ctx);
void v2xcap_stats_add(struct v2xcap_stats *s, const struct v2x_frame *f,
		   const struct v2xcap_sample *sm);
/* Closes the open interval of the time series (no-op without one). */
void v2xcap_stats_finish(struct v2xcap_stats *s);

/* Reading: a snapshot can be taken at any time. */
double v2xcap_stats_span_s(const struct v2xcap_stats *s);
/* Used groups of a dimension, sorted by frames (descending) then key; returns how many
 * were written to out (cap entries). */
size_t v2xcap_stats_groups(const struct v2xcap_stats *s, enum v2xcap_dimension d,
			const struct v2xcap_group **out, size_t cap);
/* The encapsulations seen, sorted by frames (descending) then enum order, into
 * out[V2X_ENCAP_COUNT]; returns how many. */
size_t v2xcap_stats_encaps(const struct v2xcap_stats *s, enum v2x_encap *out);
size_t v2xcap_stats_bsm_senders(const struct v2xcap_stats *s, const struct v2xcap_bsm_sender **out,
			     size_t cap);
/* Inter-arrival percentile (0..100) in microseconds; -1 with fewer than two messages. */
int64_t v2xcap_bsm_iat_percentile(const struct v2xcap_bsm_sender *b, unsigned pct);
/* Messages per second between the first and last message; 0 with fewer than two. */
double v2xcap_bsm_rate(const struct v2xcap_bsm_sender *b);
bool v2xcap_bsm_unsynchronised(const struct v2xcap_bsm_sender *b);

/* Names for keys and reasons, for every output format. buf is used for numeric names. */
const char *v2xcap_stats_key_name(enum v2xcap_dimension d, uint64_t key, char *buf, size_t len);
const char *v2xcap_dimension_name(enum v2xcap_dimension d);
const char *v2xcap_nonwsmp_name(enum v2xcap_nonwsmp r);

#endif
