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

/* The order the views hand out (stats_view.c): taken when first asked after a frame,
 * so reading entry after entry sorts once. */
struct v2x_stats_order {
	bool taken;
	uint64_t counted;               /* v2x_stats.counted when taken */
	const struct v2x_group **groups[V2X_N_DIMS];
	size_t n_groups[V2X_N_DIMS];
	enum v2x_encap encaps[V2X_ENCAP_COUNT];
	size_t n_encaps;
	const struct v2x_bsm_sender **bsm;
	size_t n_bsm;
	const struct v2x_prio_entry **prio; /* prio.n of them */
};

struct v2x_stats {
	struct v2x_tally t;
	struct v2x_prio_list prio;
	char **files;                   /* v2x_stats_add's file names, copied */
	size_t n_files;
	/* frames counted in full: the tally's time series calls back in the middle of
	 * one (a view asked then is taken again after it) */
	uint64_t counted;
	struct v2x_stats_order order;
	struct v2x_buf json;
	char err[V2X_ERRBUF_SIZE];
};

/* One frame, in capture order; file must outlive s (v2x_stats_add copies it). 0, or -1
 * when out of memory (the frame is counted, its priority entry lost). */
int v2x_stats_count(struct v2x_stats *s, const struct v2x_frame *f,
		    const struct v2x_sample *sm, const char *file, uint64_t number);

/* The order of s's entries now: 0, or -1 when out of memory (said in s->err). */
int v2x_stats_order_take(struct v2x_stats *s);
void v2x_stats_order_free(struct v2x_stats_order *o);

struct json_writer;
/* The document <v2x/stats.h> describes, from the views (stats_json.c): 0, or -1 when out
 * of memory. */
int v2x_stats_write_json(struct json_writer *w, struct v2x_stats *s);

#endif
