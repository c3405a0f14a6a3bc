/* Capture statistics, independent of I/O: fed one parsed frame at a time, keeps counters
 * per message type / PSID / channel / sender MAC, per encapsulation, per BSM TemporaryID,
 * and an optional time series; can be read (printed) at any moment, so live capture uses it too. */
#ifndef V2X_STATS_TALLY_H
#define V2X_STATS_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <v2x/stats.h>

#include "frame.h"

/* Bounds that keep memory flat whatever the capture size. Frames whose key does not fit
 * in a full table are still counted in the totals and in the table's `overflow`. */
#define V2X_TALLY_MAX_GROUPS V2X_STATS_MAX_GROUPS /* per dimension: types, PSIDs, channels, MACs */
#define V2X_TALLY_MAX_BSM_SENDERS V2X_STATS_MAX_BSM_SENDERS /* TemporaryIDs (change often) */

/* Inter-arrival histogram: 1 ms bins below 128 ms, 8 ms bins up to 1152 ms, one overflow
 * bin above; percentiles are the lower edge of their bin (the exact max when they fall in
 * the overflow bin). Fixed size: 257 counters per sender. */
#define V2X_IAT_FINE_BINS 128
#define V2X_IAT_COARSE_BINS 128
#define V2X_IAT_COARSE_MS 8
#define V2X_IAT_BINS (V2X_IAT_FINE_BINS + V2X_IAT_COARSE_BINS + 1)

/* A BSM's age (capture time vs secMark) is "unsynchronised" beyond this mean |age|. */
#define V2X_AGE_UNSYNC_MS 1000

/* What one frame brings besides its parse. */
struct v2x_sample {
	int64_t ts_us;          /* capture time, microseconds since the Unix epoch */
	uint32_t caplen, wirelen; /* octets captured / on the air */
};

enum v2x_dimension { V2X_BY_TYPE, V2X_BY_PSID, V2X_BY_CHANNEL, V2X_BY_SENDER, V2X_N_DIMS };

/* Keys of the "type" dimension beyond J2735 message ids (which are 0..32767). */
#define V2X_TYPE_NO_J2735 0x10000u  /* WSMP whose payload is not J2735 or has no readable messageId */

/* Why a frame did not reach WSMP. */
enum v2x_nonwsmp {
	V2X_NONWSMP_LINK_ERROR,     /* link/radiotap/802.11 header unreadable */
	V2X_NONWSMP_NOT_DATA,       /* management/control frame */
	V2X_NONWSMP_PROTECTED,      /* 802.11 protected frame */
	V2X_NONWSMP_OTHER_ETHERTYPE,/* data frame of another protocol (or no LLC) */
	V2X_NONWSMP_BAD_WSMP,       /* EtherType 0x88DC but no readable WSMP header */
	V2X_NONWSMP_BAD_FCS,        /* the receiver flagged a failed FCS: not decoded */
	V2X_NONWSMP_N
};

struct v2x_minmax {
	uint64_t n;
	int64_t min, max, sum;  /* min and max mean something only when n > 0 */
};

/* Open-addressing index from a key to its entry in a dense array: the probed part stays
 * small (16 octets a slot, key and position side by side: one cache line per probe) and
 * cache-friendly whatever the size of the entries. */
struct v2x_keyslot {
	uint64_t key;
	uint32_t pos;           /* 1-based entry index; 0 = free slot */
};

struct v2x_keyindex {
	struct v2x_keyslot *slots;
	size_t nslots;          /* a power of two, twice the cap */
	uint64_t last_key;      /* the last key found: consecutive frames often share it */
	long last;              /* its entry index, -1 before the first */
};

struct v2x_group {
	uint64_t key;           /* msg id (or V2X_TYPE_*), PSID, MHz, or MAC as 48 bits */
	uint64_t frames;
	struct v2x_minmax bytes; /* WSM payload octets (1609.2 envelope included) */
	struct v2x_minmax rssi;  /* dBm, frames with a radiotap antenna signal only */
	/* 1609.2: signed (signedData, signedCertificateRequest); unsigned (unsecuredData
	 * or no 1609.2 envelope at all); encrypted (encryptedData) */
	uint64_t signed_, unsigned_, encrypted;
	uint64_t errors;        /* WSMP frames with a malformed or truncated layer */
	uint64_t trailing;      /* frames with octets after their MessageFrame */
};

struct v2x_group_table {
	struct v2x_keyindex index;
	struct v2x_group *groups; /* n used of V2X_TALLY_MAX_GROUPS */
	size_t n;
	uint64_t overflow;       /* frames not counted here because the table was full */
};

/* What every BSM updates comes first (two cache lines), the histogram last: with
 * hundreds of senders, a frame touches three lines of its sender instead of five. */
struct v2x_bsm_sender {
	uint32_t id;            /* TemporaryID, as its 4 octets big endian */
	uint8_t last_cnt;
	uint64_t messages;
	int64_t first_us, last_us;
	int64_t iat_max_us;
	uint64_t lost;          /* sum of msgCnt gaps (mod 128) */
	uint64_t duplicates;    /* same msgCnt twice in a row */
	struct v2x_minmax age_ms; /* capture time - secMark, mod 60000, in (-30000, 30000] */
	uint32_t iat[V2X_IAT_BINS];
};

struct v2x_bsm_table {
	struct v2x_keyindex index;
	struct v2x_bsm_sender *senders; /* n used of V2X_TALLY_MAX_BSM_SENDERS */
	size_t n;
	uint64_t overflow;
	uint64_t unreadable;    /* BSMs too short for the core data header */
};

/* One closed interval of the time series: per-type frame counts. */
struct v2x_interval {
	int64_t start_us;
	int64_t len_us;
	uint64_t total;
	size_t n_types;
	const uint64_t *type_keys; /* n_types keys of the type dimension ... */
	const uint64_t *counts;    /* ... and their counts in this interval (all > 0) */
};

typedef void (*v2x_interval_fn)(void *ctx, const struct v2x_interval *iv);

struct v2x_tally_filter {
	bool by_type, by_psid;  /* both false: every frame */
	uint32_t msg_id, psid;
};

struct v2x_tally {
	struct v2x_tally_filter filter;
	uint64_t frames;        /* every frame seen */
	uint64_t filtered_out;
	uint64_t wsmp;          /* frames that reached WSMP (and passed the filter) */
	uint64_t nonwsmp[V2X_NONWSMP_N];
	uint64_t encap[V2X_ENCAP_COUNT]; /* every frame by what carried it (frame.h) */
	/* ... and its captured octets and malformed frames, counted only when encap_view is
	 * set (before the first frame): the view that shows them is asked for */
	bool encap_view;
	uint64_t encap_bytes[V2X_ENCAP_COUNT], encap_errors[V2X_ENCAP_COUNT];
	uint64_t bytes;         /* captured octets of every frame */
	uint64_t sliced;        /* frames captured shorter than they were (snap length) */
	uint64_t malformed;     /* frames with a malformed or truncated layer (f->error) */
	int64_t first_us, last_us;
	struct v2x_group_table dims[V2X_N_DIMS];
	/* the dimensions counted (1u << V2X_BY_*): all, unless narrowed before the first
	 * frame to what the output shows (a table or CSV: one) */
	unsigned dims_counted;
	struct v2x_bsm_table bsm;
	/* time series (interval_us > 0) */
	int64_t interval_us;
	v2x_interval_fn on_interval;
	void *interval_ctx;
	int64_t iv_start_us;
	bool iv_open;
	size_t iv_n;
	uint64_t iv_total;
	uint64_t iv_keys[V2X_TALLY_MAX_GROUPS], iv_counts[V2X_TALLY_MAX_GROUPS];
};

/* Allocates the fixed tables; -1 when out of memory. */
int v2x_tally_init(struct v2x_tally *s, const struct v2x_tally_filter *filter);
void v2x_tally_free(struct v2x_tally *s);
/* Turns on the time series: fn is called for every interval once it is closed (by a later
 * frame or by v2x_tally_finish); empty intervals between frames are reported too. */
void v2x_tally_set_interval(struct v2x_tally *s, int64_t interval_us, v2x_interval_fn fn,
			    void *ctx);
void v2x_tally_add(struct v2x_tally *s, const struct v2x_frame *f,
		   const struct v2x_sample *sm);
/* Closes the open interval of the time series (no-op without one). */
void v2x_tally_finish(struct v2x_tally *s);

/* Reading: a snapshot can be taken at any time. */
double v2x_tally_span_s(const struct v2x_tally *s);
/* Used groups of a dimension, sorted by frames (descending) then key; returns how many
 * were written to out (cap entries). */
size_t v2x_tally_groups(const struct v2x_tally *s, enum v2x_dimension d,
			const struct v2x_group **out, size_t cap);
/* The encapsulations seen, sorted by frames (descending) then enum order, into
 * out[V2X_ENCAP_COUNT]; returns how many. */
size_t v2x_tally_encaps(const struct v2x_tally *s, enum v2x_encap *out);
size_t v2x_tally_bsm_senders(const struct v2x_tally *s, const struct v2x_bsm_sender **out,
			     size_t cap);
/* Inter-arrival percentile (0..100) in microseconds; -1 with fewer than two messages. */
int64_t v2x_bsm_iat_percentile(const struct v2x_bsm_sender *b, unsigned pct);
/* Messages per second between the first and last message; 0 with fewer than two. */
double v2x_bsm_rate(const struct v2x_bsm_sender *b);
bool v2x_bsm_unsynchronised(const struct v2x_bsm_sender *b);

/* What every output shows alike: part / whole (0 without a whole), n per second of the
 * capture's span (0 without one), a BSM sender's loss (lost / (lost + messages)), the
 * note of a message type the build's schema does not decode in full (NULL for none),
 * and the BSM rate everyone expects. */
double v2x_tally_share(uint64_t part, uint64_t whole);
double v2x_tally_rate(uint64_t n, const struct v2x_tally *s);
double v2x_bsm_loss_ratio(const struct v2x_bsm_sender *b);
const char *v2x_tally_type_note(enum v2x_dimension d, uint64_t key);
#define V2X_BSM_NOMINAL_HZ 10.0

/* Names for keys and reasons, for every output format. buf is used for numeric names. */
const char *v2x_tally_key_name(enum v2x_dimension d, uint64_t key, char *buf, size_t len);
const char *v2x_dimension_name(enum v2x_dimension d);
const char *v2x_nonwsmp_name(enum v2x_nonwsmp r);

#endif
