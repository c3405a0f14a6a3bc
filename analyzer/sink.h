/* Where `v2xcap decode` sends its records beyond stdout, and its scale-out options:
 * -j N (decode_parallel.h), --kafka (sink_kafka.c), --partition (sink_partition.c).
 * decode.c adds V2X_SCALE_LONGOPTS and V2X_SCALE_SHORTOPTS to its getopt_long() tables,
 * passes each option to v2x_scale_opt() and, when v2x_scale_wanted(), hands the capture to
 * v2x_decode_scaled(). */
#ifndef V2XCAP_SINK_H
#define V2XCAP_SINK_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "capfile.h"
#include "decode.h"

enum {
	V2X_OPT_KAFKA = 0x1000,
	V2X_OPT_TOPIC,
	V2X_OPT_COMPRESSION,
	V2X_OPT_PARTITION,
};

#define V2X_SCALE_SHORTOPTS "j:o:X:"
#define V2X_SCALE_LONGOPTS                                                   \
	{"jobs", required_argument, NULL, 'j'},                              \
	{"kafka", required_argument, NULL, V2X_OPT_KAFKA},                   \
	{"topic", required_argument, NULL, V2X_OPT_TOPIC},                   \
	{"compression", required_argument, NULL, V2X_OPT_COMPRESSION},       \
	{"partition", required_argument, NULL, V2X_OPT_PARTITION},           \
	{"output", required_argument, NULL, 'o'}

#define V2X_SCALE_USAGE                                                                  \
	"  -j, --jobs N        decode on N threads (default: the online CPUs); the output\n"  \
	"                      is the same as with -j 1, in capture order\n"                   \
	"  --kafka BROKERS     publish each message to Kafka (host:port,...) instead of\n"    \
	"                      stdout; key: BSM TemporaryID, MAP/SPaT intersection id, or\n"   \
	"                      the sender MAC; exit 0 only when every record was acknowledged\n" \
	"  --topic T           the topic (default v2x.{type}); {type} becomes BSM, SPAT, ...\n" \
	"  --compression C     none, gzip, snappy, lz4 or zstd (default: the client's)\n"      \
	"  -X KEY=VALUE        a librdkafka setting (TLS, SASL, timeouts), as kcat's -X\n"    \
	"  --partition hour -o DIR\n"                                                        \
	"                      write DIR/type=T/date=YYYY-MM-DD/hour=HH/part-FILE.ndjson.gz\n"  \
	"                      (Hive-style, one set per input file) and a manifest in\n"     \
	"                      DIR/_manifests/\n"

struct v2x_scale_opts {
	unsigned threads;
	bool threads_given;
	const char *kafka, *topic, *compression;
	const char **conf;     /* -X KEY=VALUE */
	size_t n_conf;
	const char *partition, *out_dir;
};

/* One decoded message, in capture order. */
struct v2x_record {
	const struct v2x_capframe *fr;  /* fr->data is not valid any more */
	const struct v2x_decoded *d;
	const char *json;                /* the JSON line, with its '\n' */
	size_t len;
};

struct v2x_sink {
	void *ctx;
	/* 0, or -1 to stop (the error was reported). */
	int (*put)(void *ctx, const struct v2x_record *r);
	/* Flushes, reports and frees; 0 when every record reached its destination. */
	int (*close)(void *ctx, bool interrupted);
};

void v2x_scale_init(struct v2x_scale_opts *o);
/* 0 when c was one of the options above (stored in o), 1 when it is not, -1 with a
 * message on stderr when its value is invalid. */
int v2x_scale_opt(struct v2x_scale_opts *o, int c, const char *arg);
/* After parsing: 0, or -1 with a message on stderr (options that do not go together). */
int v2x_scale_check(const struct v2x_scale_opts *o);
/* Whether decode needs v2x_decode_scaled() (more than one thread, or a sink). */
bool v2x_scale_wanted(const struct v2x_scale_opts *o);
/* decode's loop through the threads into stdout or the sink; the exit code. */
int v2x_decode_scaled(struct v2x_capfile *cf, const struct v2x_scale_opts *o,
		      char *const *inputs, size_t n_inputs);
void v2x_scale_free(struct v2x_scale_opts *o);

/* The sinks; 0, or -1 with a message on stderr. */
int v2x_sink_kafka_open(struct v2x_sink *s, const struct v2x_scale_opts *o);
int v2x_sink_partition_open(struct v2x_sink *s, const struct v2x_scale_opts *o,
			    char *const *inputs, size_t n_inputs);
/* The record's Kafka key (the sender); "" when the frame names none. */
void v2x_record_key(const struct v2x_record *r, char *key, size_t size);

#endif
