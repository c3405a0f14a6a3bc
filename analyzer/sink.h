/* Where `v2xcap decode` sends its records beyond stdout, and its scale-out options:
 * -j N (decode_parallel.h), --kafka (sink_kafka.c), --partition (sink_partition.c).
 * cmd_decode.c parses them and, past one thread or with a sink, hands the capture to
 * v2xcap_decode_scaled(). `v2xcap capture --kafka` publishes through the same Kafka sink
 * (cmd_capture.c). */
#ifndef V2XCAP_SINK_H
#define V2XCAP_SINK_H

#include <stdbool.h>
#include <stddef.h>

#include "capfile.h"
#include "cli.h"
#include "decode_line.h"
#include "read_errors.h"

struct v2xcap_scale_opts {
	const char *command;   /* "decode", "capture": the sinks' messages name it */
	unsigned threads;
	const char *kafka, *topic, *compression;
	const char **conf;     /* -X KEY=VALUE */
	size_t n_conf;
	const char *partition, *out_dir;
	unsigned decode_flags; /* V2X_DECODE_* (decode_line.h) */
};

/* The Kafka options of decode and capture: their getopt_long entries (-X is the short
 * option "X:"), their help lines, and v2xcap_kafka_option() for c 'K', 'T', 'C', 'X'. */
#define V2XCAP_KAFKA_LONGOPTS                                 \
	{"kafka", required_argument, NULL, 'K'},              \
	{"topic", required_argument, NULL, 'T'},              \
	{"compression", required_argument, NULL, 'C'}
#define V2XCAP_KAFKA_HELP                                                                   \
	"  --kafka BROKERS   publish each message to Kafka (host:port,...), as decode writes\n" \
	"                    it; key: BSM TemporaryID, MAP/SPaT intersection id, or the\n"    \
	"                    sender MAC; exit 1 unless every record was acknowledged\n"       \
	"  --topic T         the topic (default v2x.{type}); {type} becomes BSM, SPAT, ...\n" \
	"  --compression C   none, gzip, snappy, lz4 or zstd (default: the client's)\n"       \
	"  -X KEY=VALUE      a librdkafka setting (TLS, SASL, timeouts), as kcat's -X\n"
/* -1 when c was a Kafka option (taken into o), 0 when it is not one, else the exit code
 * (usage error, or no memory for -X); argc bounds the number of -X settings. */
int v2xcap_kafka_option(const struct v2xcap_command *cmd, int c, char *arg, int argc,
		     struct v2xcap_scale_opts *o);
/* After the options: V2XCAP_EXIT_USAGE (said) when --topic, --compression or -X came
 * without --kafka, else -1. */
int v2xcap_kafka_options_check(const struct v2xcap_command *cmd,
			    const struct v2xcap_scale_opts *o);

/* One decoded message, in capture order. */
struct v2xcap_record {
	const struct v2x_capframe *fr;  /* fr->data is not valid any more */
	const struct v2x_decoded *d;
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
int v2xcap_decode_scaled(struct v2x_capfile *cf, const struct v2xcap_scale_opts *o,
		      struct v2xcap_readerr *rep, char *const *inputs, size_t n_inputs);

/* The sinks; 0, or -1 with a message on stderr. */
int v2xcap_sink_kafka_open(struct v2xcap_sink *s, const struct v2xcap_scale_opts *o);
int v2xcap_sink_partition_open(struct v2xcap_sink *s, const struct v2xcap_scale_opts *o,
			    char *const *inputs, size_t n_inputs);

#endif
