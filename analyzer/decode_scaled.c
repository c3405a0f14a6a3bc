/* `v2xcap decode` past one thread and past stdout: the decode_parallel.h job that writes
 * decode's JSON lines, emitted in capture order to stdout (the same octets as the
 * sequential loop, stderr messages in the same places) or to a sink. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "decode_parallel.h"
#include "sink.h"

struct rec {
	struct v2x_decoded d;
	size_t off, len;           /* the JSON line in the batch output */
};

struct run {
	struct v2xcap_sink *sink;     /* NULL: stdout */
	struct v2xcap_readerr *rep;
	const char *out;           /* the batch being emitted: its output, */
	size_t done, pos;          /* how much of it is on stdout, the end of the lines so far */
	bool failed;
	unsigned decode_flags;     /* V2XCAP_DECODE_* */
};

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void work(void *ctx, struct v2xcap_par_item *it, struct json_writer *w)
{
	const struct run *run = ctx;
	struct rec *r = it->result;
	r->off = json_buf_offset(w);
	v2x_decode_line(w, &it->fr, run->decode_flags, &r->d);
	r->len = json_buf_offset(w) - r->off;
}

/* rep's flush hook: before a message on stderr, the lines that precede it on stdout. */
static void flush_lines(void *ctx)
{
	struct run *run = ctx;
	if (!run->sink && run->pos > run->done)
		fwrite(run->out + run->done, 1, run->pos - run->done, stdout);
	run->done = run->pos;
}

/* In capture order: records to the sink, or the batch's output to stdout in as few writes
 * as the stderr messages between its lines allow. */
static bool emit(void *ctx, const struct v2xcap_batch *b)
{
	struct run *run = ctx;
	run->out = b->out;
	run->done = run->pos = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct v2xcap_par_item *it = &b->items[i];
		const struct rec *r = it->result;
		if (it->error) {
			v2xcap_readerr_file_error(run->rep, it->error);
			continue;
		}
		run->pos = r->off + r->len;
		if (run->sink && r->d.has_json) {
			struct v2xcap_record rec = {&it->fr, &r->d, b->out + r->off, r->len};
			if (run->sink->put(run->sink->ctx, &rec) < 0) {
				run->failed = true;
				return false;
			}
		}
		if (r->d.why)
			v2xcap_readerr_frame(run->rep, &it->fr, r->d.layer, r->d.why);
	}
	run->pos = b->out_len;
	flush_lines(run);
	if (!run->sink && ferror(stdout))
		return false; /* the output failed: the rest would be lost */
	return !interrupted;
}

int v2xcap_decode_scaled(struct v2x_capfile *cf, const struct v2xcap_scale_opts *o,
		      struct v2xcap_readerr *rep, char *const *inputs, size_t n_inputs)
{
	struct v2xcap_sink sink;
	struct run run = {.rep = rep, .decode_flags = o->decode_flags};
	if (o->kafka || o->partition) {
		int r = o->kafka ? v2xcap_sink_kafka_open(&sink, o)
				 : v2xcap_sink_partition_open(&sink, o, inputs, n_inputs);
		if (r < 0)
			return -1;
		run.sink = &sink;
	} else {
		setvbuf(stdout, NULL, _IONBF, 0); /* whole batches: a stdio buffer only copies */
	}
	rep->flush = flush_lines;
	rep->ctx = &run;
	/* SIGINT ends the reading; what was read is still delivered (Kafka: flushed). */
	struct sigaction sa = {.sa_handler = on_sigint}, old;
	sigemptyset(&sa.sa_mask);
	if (run.sink)
		sigaction(SIGINT, &sa, &old);
	struct v2xcap_par_job job = {
		.threads = o->threads, .result_size = sizeof(struct rec), .ctx = &run,
		.work = work, .emit = emit,
	};
	if (v2xcap_par_run(cf, &job) < 0) {
		fprintf(stderr, "v2xcap decode: out of memory or no threads\n");
		run.failed = true;
	}
	rep->flush = NULL; /* the batches are gone */
	rep->ctx = NULL;
	if (run.sink) {
		if (sink.close(sink.ctx, interrupted) < 0)
			run.failed = true;
		sigaction(SIGINT, &old, NULL);
		if (interrupted) {
			fprintf(stderr, "v2xcap decode: interrupted\n");
			run.failed = true;
		}
	}
	return run.failed ? -1 : 0;
}
