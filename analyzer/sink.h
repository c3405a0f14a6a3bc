/* Where `v2xcap decode` sends its records beyond stdout, and its scale-out options:
 * -j N (decode_parallel.h), --kafka (sink_kafka.c), --partition (sink_partition.c).
 * cmd_decode.c parses them and, past one thread or with a sink, hands the capture to
 * v2xcap_decode_scaled(). */
#ifndef V2XCAP_SINK_H
#define V2XCAP_SINK_H

#include <stdbool.h>
#include <stddef.h>

#include "capfile.h"
#include "decode.h"
#include "read_errors.h"

struct v2xcap_scale_opts {
	unsigned threads;
	const char *kafka, *topic, *compression;
	const char **conf;     /* -X KEY=VALUE */
	size_t n_conf;
	const char *partition, *out_dir;
};

/* One decoded message, in capture order. */
struct v2xcap_record {
	const struct v2xcap_capframe *fr;  /* fr->data is not valid any more */
	const struct v2xcap_decoded *d;
	const char *json;                /* the JSON line, with its '\n' */
	size_t len;
};

struct v2xcap_sink {
	void *ctx;
	/* 0, or -1 to stop (the error was reported). */
	int (*put)(void *ctx, const struct v2xcap_record *r);
	/* Flushes, reports and frees; 0 when every record reached its destination. */
	int (*close)(void *ctx, bool interrupted);
};

/* decode's loop through the threads into stdout or the sink, malformed frames and read
 * errors reported through rep in capture order (between the lines as the sequential loop
 * puts them); 0, or -1 when a sink or the threads failed (said on stderr). A failed
 * stdout stops the reading and is left in ferror(stdout) for the caller. */
int v2xcap_decode_scaled(struct v2xcap_capfile *cf, const struct v2xcap_scale_opts *o,
		      struct v2xcap_readerr *rep, char *const *inputs, size_t n_inputs);

/* The sinks; 0, or -1 with a message on stderr. */
int v2xcap_sink_kafka_open(struct v2xcap_sink *s, const struct v2xcap_scale_opts *o);
int v2xcap_sink_partition_open(struct v2xcap_sink *s, const struct v2xcap_scale_opts *o,
			    char *const *inputs, size_t n_inputs);

#endif
