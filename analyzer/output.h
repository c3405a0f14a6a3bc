/* Printing capture statistics: an aligned table for a terminal, CSV, or JSON (its shape
 * is stable: fields may be added, never renamed or removed). Reads the views of
 * <v2x/stats.h> only, so it also serves "print so far" during a live capture.
 *
 * JSON: the document <v2x/stats.h> describes, written by libv2x (v2x_stats_json). */
#ifndef V2XCAP_OUTPUT_H
#define V2XCAP_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <v2x/stats.h>

enum v2xcap_format { V2XCAP_FMT_TABLE, V2XCAP_FMT_CSV, V2XCAP_FMT_JSON };

/* What the table and CSV show: one of the four dimensions, the encapsulations, or the BSM
 * senders. JSON always holds every view. */
enum v2xcap_view {
	V2XCAP_VIEW_TYPE = V2X_STATS_BY_TYPE,
	V2XCAP_VIEW_PSID = V2X_STATS_BY_PSID,
	V2XCAP_VIEW_CHANNEL = V2X_STATS_BY_CHANNEL,
	V2XCAP_VIEW_SENDER = V2X_STATS_BY_SENDER,
	V2XCAP_VIEW_BSM,
	V2XCAP_VIEW_PRIORITY,   /* the priority messages */
	V2XCAP_VIEW_ENCAP,
};

/* s in fmt: the table starts with the totals and the priority messages, the "priority"
 * view of the table/CSV lists those alone. 0, or -1 when out of memory or the stream
 * failed. */
int v2xcap_output_stats(FILE *out, enum v2xcap_format fmt, enum v2xcap_view view,
			struct v2x_stats *s);

/* us (Unix microseconds) as "2024-05-01T12:00:00.000Z" into buf. */
void v2xcap_format_utc(char *buf, size_t len, int64_t us);

#endif
