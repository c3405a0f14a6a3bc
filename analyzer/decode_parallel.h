/* Decoding on several threads with the output in capture order (decode -j N,
 * stats --decode -j N). One reader thread copies frames into batches, N workers process
 * whole batches, the calling thread hands the finished batches to emit() strictly in the
 * order they were read. A fixed number of batches circulates, so memory stays bounded
 * whatever the input size: the reader waits when all of them are in flight.
 *
 * The work of one frame must depend on that frame only (decode, parse); whatever needs
 * the frames in order (statistics, the output stream) belongs in emit(). */
#ifndef V2XCAP_DECODE_PARALLEL_H
#define V2XCAP_DECODE_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "capfile.h"
#include "json.h"

/* One event of the capture in reading order: a frame, or a read error. */
struct v2xcap_par_item {
	struct v2x_capframe fr;  /* fr.data points into the batch */
	const char *error;       /* not NULL: a V2X_CAP_ERROR, v2x_capfile_error()'s text */
	void *result;            /* result_size octets for work() to fill */
};

struct v2xcap_batch {
	size_t n;
	struct v2xcap_par_item *items;
	/* What work() wrote through its json_writer, in item order. */
	const char *out;
	size_t out_len;
};

struct v2xcap_par_job {
	unsigned threads;        /* worker threads, >= 1 */
	size_t result_size;      /* per item, zeroed before work() */
	void *ctx;
	/* On a worker thread, for each frame (not for errors). w writes into the batch's
	 * output (json_init_buf); json_buf_offset(w) is where the next octet goes. */
	void (*work)(void *ctx, struct v2xcap_par_item *it, struct json_writer *w);
	/* On the calling thread, batches in reading order; false stops the reading. */
	bool (*emit)(void *ctx, const struct v2xcap_batch *b);
};

/* Reads cf to its end (or until emit() returns false) through the job; 0, or -1 when
 * out of memory or a thread could not be started (nothing was emitted then). */
int v2xcap_par_run(struct v2x_capfile *cf, const struct v2xcap_par_job *job);

/* -j's default: the online CPUs. */
unsigned v2xcap_par_default_threads(void);
/* "N" (1..256) into *threads; -1 when not a number in range. */
int v2xcap_par_parse_threads(const char *arg, unsigned *threads);

#endif
