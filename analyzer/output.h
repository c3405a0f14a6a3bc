/* Printing capture statistics: an aligned table for a terminal, CSV, or JSON (its shape,
 * below, is stable: fields may be added, never renamed or removed). Reads a v2x_tally
 * snapshot only, so it also serves "print so far" during a live capture.
 *
 * JSON: the document <v2x/stats.h> describes, written by libv2x (lib/stats/stats_json.c).
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
 * the statistics counted them: v2x_tally.encap_view). */
enum v2xcap_view {
	V2XCAP_VIEW_TYPE = V2X_BY_TYPE,
	V2XCAP_VIEW_PSID = V2X_BY_PSID,
	V2XCAP_VIEW_CHANNEL = V2X_BY_CHANNEL,
	V2XCAP_VIEW_SENDER = V2X_BY_SENDER,
	V2XCAP_VIEW_BSM,
	V2XCAP_VIEW_PRIORITY,   /* the priority messages (v2xcap_output_stats_prio) */
	V2XCAP_VIEW_ENCAP,
};

/* 0, or -1 when out of memory or the stream failed. */
int v2xcap_output_stats(FILE *out, enum v2xcap_format fmt, enum v2xcap_view view,
		     const struct v2x_tally *s);
/* The same with the priority messages: the table's first section, the "priority" view of
 * the table/CSV, the "priority" key of the JSON. */
int v2xcap_output_stats_prio(FILE *out, enum v2xcap_format fmt, enum v2xcap_view view,
			     const struct v2x_tally *s, const struct v2x_prio_list *prio);

/* The --interval time series, streamed as the intervals close. */
struct v2xcap_series_out {
	FILE *out;
	enum v2xcap_format fmt;
	struct json_writer json; /* --format json */
};

void v2xcap_series_begin(struct v2xcap_series_out *o, FILE *out, enum v2xcap_format fmt,
		      int64_t interval_us);
void v2xcap_series_interval(void *series_out, const struct v2x_interval *iv);
void v2xcap_series_end(struct v2xcap_series_out *o);

#endif
