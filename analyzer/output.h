/* Printing capture statistics: an aligned table for a terminal, CSV, or JSON (its shape,
 * below, is stable: fields may be added, never renamed or removed). Reads a v2xcap_stats
 * snapshot only, so it also serves "print so far" during a live capture.
 *
 * JSON (one object):
 *   frames, bytes (captured octets), sliced (frames cut by the snap length),
 *   wsmp (frames that reached WSMP and passed the filter), filtered_out,
 *   filter (null | {"type": ID} | {"psid": N}),
 *   first_time, last_time (Unix seconds, null without frames), span_s,
 *   not_wsmp {link_error, not_data, protected, other_ethertype, bad_wsmp},
 *   by_type, by_psid, by_channel, by_sender: arrays sorted by frames (descending) of
 *     {key (name: "BSM", "0x20", "5860", "02:00:00:00:00:01", "no-J2735", "-" when the
 *      frame has no such field), value (message id, PSID, MHz, MAC as a 48-bit number;
 *      null for "-"), frames, share (of wsmp), rate_per_s (over the capture span),
 *      bytes {min, mean, max} (WSM payload octets), rssi_dbm {min, mean, max} | null,
 *      signed, unsigned (unsecuredData or no 1609.2), encrypted, errors},
 *   overflow_type, overflow_psid, overflow_channel, overflow_sender (frames beyond the
 *     table caps of stats.h),
 *   by_encap: every frame by what carried it (v2x_encap_name: "none", "udp_dot2", "c2p"
 *     ...), the ones seen, sorted by frames (descending), of {key, frames, bytes
 *     (captured octets), errors (malformed frames)},
 *   bsm_senders: sorted by messages, of {temporary_id (8 hex digits), messages, rate_hz,
 *     rate_ratio_to_10hz, iat_ms {p50, p95, max} (null below two messages), msgcnt_lost,
 *     loss_ratio (lost / (lost + messages)), duplicates, age_ms {min, mean, max} | null,
 *     unsynchronised},
 *   bsm_overflow, bsm_unreadable,
 *   priority (with v2xcap_output_stats_prio): emergency first (eva, bsm_emergency, rsa,
 *     srm, bsm_events), then in the order first heard, of {kind, sender (TemporaryID for
 *     BSMs, source MAC or null), messages, events (BSM flag names, bsm_* kinds only),
 *     frames [{file, frame}] (the first 10)}, priority_overflow.
 * With --interval: {"interval_s": S, "series": [{start, frames, by_type {NAME: n}}]}. */
#ifndef V2XCAP_OUTPUT_H
#define V2XCAP_OUTPUT_H

#include <stdio.h>

#include "json.h"
#include "priority.h"
#include "stats.h"

enum v2xcap_format { V2XCAP_FMT_TABLE, V2XCAP_FMT_CSV, V2XCAP_FMT_JSON };

/* What the table and CSV show: one of the four dimensions, the encapsulations, or the BSM
 * senders. JSON always holds every view (the encapsulations' octets and errors only when
 * the statistics counted them: v2xcap_stats.encap_view). */
enum v2xcap_view {
	V2XCAP_VIEW_TYPE = V2XCAP_BY_TYPE,
	V2XCAP_VIEW_PSID = V2XCAP_BY_PSID,
	V2XCAP_VIEW_CHANNEL = V2XCAP_BY_CHANNEL,
	V2XCAP_VIEW_SENDER = V2XCAP_BY_SENDER,
	V2XCAP_VIEW_BSM,
	V2XCAP_VIEW_PRIORITY,   /* the priority messages (v2xcap_output_stats_prio) */
	V2XCAP_VIEW_ENCAP,
};

/* 0, or -1 when out of memory or the stream failed. */
int v2xcap_output_stats(FILE *out, enum v2xcap_format fmt, enum v2xcap_view view,
		     const struct v2xcap_stats *s);
/* The same with the priority messages: the table's first section, the "priority" view of
 * the table/CSV, the "priority" key of the JSON. */
int v2xcap_output_stats_prio(FILE *out, enum v2xcap_format fmt, enum v2xcap_view view,
			     const struct v2xcap_stats *s, const struct v2xcap_prio_list *prio);

/* The --interval time series, streamed as the intervals close. */
struct v2xcap_series_out {
	FILE *out;
	enum v2xcap_format fmt;
	struct json_writer json; /* --format json */
};

void v2xcap_series_begin(struct v2xcap_series_out *o, FILE *out, enum v2xcap_format fmt,
		      int64_t interval_us);
void v2xcap_series_interval(void *series_out, const struct v2xcap_interval *iv);
void v2xcap_series_end(struct v2xcap_series_out *o);

#endif
