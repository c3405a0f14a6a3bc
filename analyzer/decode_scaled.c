/* `v2xcap decode` past one thread and past stdout: the decode_parallel.h job that writes
 * decode's JSON lines, emitted in capture order to stdout (the same octets as the
 * sequential loop, stderr messages in the same places) or to a sink; the scale options. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode_parallel.h"
#include "sink.h"

struct rec {
	struct v2x_decoded d;
	size_t off, len;           /* the JSON line in the batch output */
};

struct run {
	struct v2x_sink *sink;     /* NULL: stdout */
	bool ok, failed;
};

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void work(void *ctx, struct v2x_par_item *it, struct json_writer *w)
{
	(void)ctx;
	struct rec *r = it->result;
	r->off = (size_t)ftello(w->out) + w->len;
	v2x_decode_frame(w, &it->fr, &r->d);
	r->len = (size_t)ftello(w->out) + w->len - r->off;
}

/* In capture order: records to the sink, or the batch's output to stdout in as few writes
 * as the stderr messages between its lines allow. */
static bool emit(void *ctx, const struct v2x_batch *b)
{
	struct run *run = ctx;
	size_t done = 0, pos = 0; /* written to stdout; end of the lines so far */
	for (size_t i = 0; i < b->n; i++) {
		const struct v2x_par_item *it = &b->items[i];
		const struct rec *r = it->result;
		if (!it->error) {
			pos = r->off + r->len;
			if (run->sink && r->d.has_json) {
				struct v2x_record rec = {&it->fr, &r->d, b->out + r->off, r->len};
				if (run->sink->put(run->sink->ctx, &rec) < 0) {
					run->failed = true;
					return false;
				}
			}
			if (r->d.ok)
				continue;
		}
		if (!run->sink && pos > done)
			fwrite(b->out + done, 1, pos - done, stdout);
		done = pos;
		if (it->error)
			fprintf(stderr, "v2xcap decode: %s\n", it->error);
		else
			fprintf(stderr, "v2xcap decode: %s: frame %" PRIu64 ": %s\n", it->fr.file,
				it->fr.number, r->d.why);
		run->ok = false;
	}
	if (!run->sink && b->out_len > done)
		fwrite(b->out + done, 1, b->out_len - done, stdout);
	if (!run->sink && ferror(stdout))
		return false; /* the output failed: the rest would be lost */
	return !interrupted;
}

int v2x_decode_scaled(struct v2x_capfile *cf, const struct v2x_scale_opts *o,
		      char *const *inputs, size_t n_inputs)
{
	struct v2x_sink sink;
	struct run run = {.ok = true};
	if (o->kafka || o->partition) {
		int r = o->kafka ? v2x_sink_kafka_open(&sink, o)
				 : v2x_sink_partition_open(&sink, o, inputs, n_inputs);
		if (r < 0)
			return V2X_EXIT_RUNTIME;
		run.sink = &sink;
	} else {
		setvbuf(stdout, NULL, _IONBF, 0); /* whole batches: a stdio buffer only copies */
	}
	/* SIGINT ends the reading; what was read is still delivered (Kafka: flushed). */
	struct sigaction sa = {.sa_handler = on_sigint}, old;
	sigemptyset(&sa.sa_mask);
	if (run.sink)
		sigaction(SIGINT, &sa, &old);
	struct v2x_par_job job = {
		.threads = o->threads, .result_size = sizeof(struct rec), .ctx = &run,
		.work = work, .emit = emit,
	};
	int r = v2x_par_run(cf, &job);
	if (r < 0) {
		fprintf(stderr, "v2xcap decode: out of memory or no threads\n");
		run.ok = false;
	}
	if (run.sink) {
		if (sink.close(sink.ctx, interrupted) < 0)
			run.ok = false;
		sigaction(SIGINT, &old, NULL);
		if (interrupted) {
			fprintf(stderr, "v2xcap decode: interrupted\n");
			run.ok = false;
		}
	} else if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "v2xcap decode: error writing the output\n");
		run.ok = false;
	}
	return run.ok && !run.failed ? V2X_EXIT_OK : V2X_EXIT_RUNTIME;
}

void v2x_scale_init(struct v2x_scale_opts *o)
{
	*o = (struct v2x_scale_opts){.threads = v2x_par_default_threads()};
}

int v2x_scale_opt(struct v2x_scale_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'j':
		if (v2x_par_parse_threads(arg, &o->threads) < 0) {
			fprintf(stderr, "v2xcap decode: -j wants 1..256 threads, not '%s'\n", arg);
			return -1;
		}
		o->threads_given = true;
		return 0;
	case V2X_OPT_KAFKA:
		o->kafka = arg;
		return 0;
	case V2X_OPT_TOPIC:
		o->topic = arg;
		return 0;
	case V2X_OPT_COMPRESSION:
		o->compression = arg;
		return 0;
	case 'X': {
		const char **c2 = realloc(o->conf, (o->n_conf + 1) * sizeof(*c2));
		if (!strchr(arg, '=') || !c2) {
			if (c2)
				o->conf = c2;
			fprintf(stderr, "v2xcap decode: -X wants KEY=VALUE, not '%s'\n", arg);
			return -1;
		}
		o->conf = c2;
		o->conf[o->n_conf++] = arg;
		return 0;
	}
	case V2X_OPT_PARTITION:
		if (strcmp(arg, "hour") != 0) {
			fprintf(stderr, "v2xcap decode: --partition knows 'hour' only, not '%s'\n",
				arg);
			return -1;
		}
		o->partition = arg;
		return 0;
	case 'o':
		o->out_dir = arg;
		return 0;
	default:
		return 1;
	}
}

int v2x_scale_check(const struct v2x_scale_opts *o)
{
	const char *why = NULL;
	if (o->kafka && o->partition)
		why = "--kafka and --partition do not go together";
	else if (!o->kafka && (o->topic || o->compression || o->n_conf))
		why = "--topic, --compression and -X go with --kafka";
	else if (!o->partition != !o->out_dir)
		why = "--partition hour and -o DIR go together";
	if (why)
		fprintf(stderr, "v2xcap decode: %s\n", why);
	return why ? -1 : 0;
}

bool v2x_scale_wanted(const struct v2x_scale_opts *o)
{
	return o->threads > 1 || o->kafka || o->partition;
}

void v2x_scale_free(struct v2x_scale_opts *o)
{
	free(o->conf);
	o->conf = NULL;
}
