/* The --interval time series of `v2xcap stats`, streamed as the tally's intervals close:
 * a table, CSV (start,type,frames), or JSON {"interval_s": S, "series": [{start, frames,
 * by_type {NAME: n}}]}. The time series is not in <v2x/stats.h> yet: it reads the tally's
 * intervals (lib/stats/stats.h). */
#ifndef V2XCAP_SERIES_H
#define V2XCAP_SERIES_H

#include <stdio.h>

#include "json.h"
#include "output.h"
#include "stats.h"

struct v2xcap_series_out {
	FILE *out;
	enum v2xcap_format fmt;
	struct json_writer json; /* --format json */
};

void v2xcap_series_begin(struct v2xcap_series_out *o, FILE *out, enum v2xcap_format fmt,
		      int64_t interval_us);
/* A v2x_interval_fn (v2x_tally_set_interval) with series_out a struct v2xcap_series_out. */
void v2xcap_series_interval(void *series_out, const struct v2x_interval *iv);
void v2xcap_series_end(struct v2xcap_series_out *o);

#endif
