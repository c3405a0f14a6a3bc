/* The handle of <v2x/stats.h>: the statistics and the priority list, fed together (a
 * frame the tally's filter drops is not listed either). v2xcap's stats and capture use it
 * as an application does, and reach the tally for what only they show (table, CSV, the
 * time series, a filter, counting one view only). */
#ifndef V2X_STATS_HANDLE_H
#define V2X_STATS_HANDLE_H

#include <stdbool.h>
#include <stdint.h>

#include <v2x/base.h>
#include <v2x/stats.h>

#include "priority.h"
#include "stats.h"
#include "writer.h"

struct v2x_stats {
	struct v2x_tally t;
	struct v2x_prio_list prio;
	char **files;                   /* v2x_stats_add's file names, copied */
	size_t n_files;
	struct v2x_buf json;
	char err[V2X_ERRBUF_SIZE];
};

/* One frame, in capture order; file must outlive s (v2x_stats_add copies it). 0, or -1
 * when out of memory (the frame is counted, its priority entry lost). */
int v2x_stats_count(struct v2x_stats *s, const struct v2x_frame *f,
		    const struct v2x_sample *sm, const char *file, uint64_t number);

#endif
