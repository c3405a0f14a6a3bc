/* `v2xcap stats`: reads captures as one timeline, feeds every frame through the libv2x
 * pipeline into the statistics aggregator, prints a table, CSV or JSON. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "capfile.h"
#include "cli.h"
#include "decode_parallel.h"
#include "j2735dec.h"
#include "output.h"
#include "progress.h"
#include "registry.h"
#include "read_errors.h"
#include "series.h"
#include "stats_handle.h"

const char cmd_stats_options[] =
	"Statistics of V2X captures (pcap/pcapng, radiotap, 802.11, Ethernet, SLL; several\n"
	"files form one timeline, '-' is stdin): per message type, PSID, channel, sender MAC,\n"
	"encapsulation, and BSM senders by TemporaryID (rate, inter-arrival, msgCnt gaps,\n"
	"message age); priority messages first (EVA, BSM of an emergency vehicle responding,\n"
	"RSA, SRM, BSM with event flags: kind, sender, frame numbers).\n"
	"  --format   table (default, aligned for a terminal), csv, or json (every view)\n"
	"  --by       the view of the table/CSV: type (default), psid, channel, sender, encap\n"
	"             (frames, octets, errors per encapsulation: udp_dot2, c2p ...), bsm (BSM\n"
	"             senders), priority (the priority messages alone)\n"
	"  --filter   keep only WSMP frames of one J2735 message type (name or id, e.g. BSM,\n"
	"             spat, 20) or one PSID (psid=20 is hex, i.e. 0x20)\n"
	"  --interval print a time series of per-type counts instead (e.g. 1s, 500ms)\n"
	"  --decode   decode every J2735 message in full (the build's schema decoder) and\n"
	"             count the ones that do not decode as errors; default: headers only\n"
	"  -j, --jobs --decode on N threads (default: the online CPUs); the same results\n"
	"  --strict   exit 1 when a frame is malformed (default: counted, reported, exit 0)\n"
	"Exit status: 0 read (malformed frames counted: \"malformed\", \"errors\"), 1 a file\n"
	"not readable as a capture or the output not written, 2 usage error.\n";

struct stats_opts {
	enum v2xcap_format fmt;
	enum v2xcap_view view;
	struct v2x_tally_filter filter;
	int64_t interval_us;
	bool decode, strict;
	unsigned threads;
};

static int parse_format(const char *a, enum v2xcap_format *fmt)
{
	static const char *const names[] = {"table", "csv", "json"};
	for (int i = 0; i < 3; i++)
		if (strcmp(a, names[i]) == 0) {
			*fmt = (enum v2xcap_format)i;
			return 0;
		}
	return -1;
}

static int parse_view(const char *a, enum v2xcap_view *view)
{
	if (strcmp(a, "bsm") == 0) {
		*view = V2XCAP_VIEW_BSM;
		return 0;
	}
	if (strcmp(a, "priority") == 0) {
		*view = V2XCAP_VIEW_PRIORITY;
		return 0;
	}
	if (strcmp(a, "encap") == 0) {
		*view = V2XCAP_VIEW_ENCAP;
		return 0;
	}
	for (int d = 0; d < V2X_N_DIMS; d++)
		if (strcmp(a, v2x_dimension_name((enum v2x_dimension)d)) == 0) {
			*view = (enum v2xcap_view)d;
			return 0;
		}
	return -1;
}

static int parse_number(const char *a, int base, uint32_t max, uint32_t *out)
{
	char *end;
	if (!*a || *a == '-' || *a == '+')
		return -1;
	unsigned long v = strtoul(a, &end, base);
	if (*end || v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_filter(const char *a, struct v2x_tally_filter *f)
{
	if (strncasecmp(a, "psid=", 5) == 0) {
		const char *hex = a + 5;
		if (strncasecmp(hex, "0x", 2) == 0)
			hex += 2;
		f->by_psid = true;
		return parse_number(hex, 16, UINT32_MAX, &f->psid);
	}
	f->by_type = true;
	if (parse_number(a, 10, 32767, &f->msg_id) == 0)
		return 0;
	for (const struct v2x_msgid *m = v2x_msgids; m->abbrev; m++)
		if (strcasecmp(a, m->abbrev) == 0 || strcasecmp(a, m->name) == 0) {
			f->msg_id = m->id;
			return 0;
		}
	return -1;
}

/* "1s", "500ms", "2m", "0.5s"; a bare number is seconds. */
static int parse_interval(const char *a, int64_t *us)
{
	char *end;
	double v = strtod(a, &end);
	double unit = 1e6;
	if (end == a)
		return -1;
	if (strcmp(end, "ms") == 0)
		unit = 1e3;
	else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
		unit = 60e6;
	else if (*end && strcmp(end, "s") != 0)
		return -1;
	v *= unit;
	if (!(v >= 1000 && v <= 86400e6)) /* 1 ms .. 1 day */
		return -1;
	*us = (int64_t)v;
	return 0;
}

/* -1 to go on, or the exit code (help, usage error); options may come anywhere among
 * the files (getopt_long permutes), as "--opt value" or "--opt=value". */
static int parse_args(const struct v2xcap_command *cmd, int argc, char **argv,
		      struct stats_opts *o)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"by", required_argument, NULL, 'b'},
		{"filter", required_argument, NULL, 'F'},
		{"interval", required_argument, NULL, 'i'},
		{"decode", no_argument, NULL, 'd'},
		{"strict", no_argument, NULL, 'S'},
		{"jobs", required_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c, which = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hj:", longopts, &which)) != -1) {
		int bad;
		switch (c) {
		case 'f': bad = parse_format(optarg, &o->fmt); break;
		case 'b': bad = parse_view(optarg, &o->view); break;
		case 'F': bad = parse_filter(optarg, &o->filter); break;
		case 'i': bad = parse_interval(optarg, &o->interval_us); break;
		case 'j': bad = v2xcap_par_parse_threads(optarg, &o->threads); break;
		case 'd': o->decode = true; continue;
		case 'S': o->strict = true; continue;
		default: return v2xcap_cli_other_option(cmd, c, argv);
		}
		if (bad)
			return v2xcap_cli_usage_error(cmd, "invalid value '%s' for --%s", optarg,
						   c == 'j' ? "jobs" : longopts[which].name);
	}
	if (optind == argc)
		return v2xcap_cli_usage_error(cmd, "no capture file given");
	return -1;
}

/* --decode: a MessageFrame the schema decoder rejects becomes the frame's error. */
static void full_decode(struct v2x_frame *f)
{
	if (f->layer != V2X_LAYER_J2735)
		return;
	const uint8_t *start = f->mf.value + f->mf.value_len - f->mf.frame_len;
	struct j2735dec_msg msg;
	if (j2735dec_decode(start, f->mf.frame_len, &msg) == J2735DEC_MALFORMED && !f->error) {
		f->error = "J2735 message does not decode";
		f->error_layer = V2X_LAYER_J2735;
	}
	j2735dec_free(&msg);
}

/* What the frames are counted into. */
struct tally {
	struct v2x_stats *s;
	bool oom;
};

/* One frame into t, in capture order. */
static void add_frame(struct tally *t, const struct v2x_capframe *fr,
		      const struct v2x_frame *f, struct v2xcap_readerr *rep)
{
	if (f->error)
		v2xcap_readerr_malformed(rep, fr, f);
	struct v2x_sample sm = {
		.ts_us = fr->ts_ns / 1000, .caplen = fr->caplen, .wirelen = fr->origlen,
	};
	if (v2x_stats_count(t->s, f, &sm, fr->file, fr->number) < 0)
		t->oom = true;
}

/* --decode -j N: parsing and decoding on the threads, the statistics in capture order. */
struct par_stats {
	struct tally *t;
	struct v2xcap_readerr *rep;
};

static void par_work(void *ctx, struct v2xcap_par_item *it, struct json_writer *w)
{
	(void)ctx, (void)w;
	struct v2x_frame *f = it->result;
	v2x_frame_parse(it->fr.linktype, it->fr.data, it->fr.caplen, f);
	full_decode(f);
}

static bool par_emit(void *ctx, const struct v2xcap_batch *b)
{
	struct par_stats *ps = ctx;
	for (size_t i = 0; i < b->n; i++) {
		const struct v2xcap_par_item *it = &b->items[i];
		if (it->error)
			v2xcap_readerr_file_error(ps->rep, it->error);
		else
			add_frame(ps->t, &it->fr, it->result, ps->rep);
	}
	return true;
}

/* Reads every frame into s, reporting file-level failures and malformed frames; -1 when
 * the threads could not run (said on stderr). */
static int analyse(struct v2x_capfile *cf, struct tally *t, const struct stats_opts *o,
		   struct v2xcap_readerr *rep)
{
	int rc = 0;
	if (o->decode && o->threads > 1) {
		struct par_stats ps = {.t = t, .rep = rep};
		struct v2xcap_par_job job = {
			.threads = o->threads, .result_size = sizeof(struct v2x_frame), .ctx = &ps,
			.work = par_work, .emit = par_emit,
		};
		if ((rc = v2xcap_par_run(cf, &job)) < 0)
			fprintf(stderr, "v2xcap stats: out of memory or no threads\n");
	} else {
		struct v2xcap_progress prog;
		struct v2x_capframe fr;
		enum v2x_cap_result r;
		v2xcap_progress_init(&prog);
		while ((r = v2x_capfile_next(cf, &fr)) != V2X_CAP_END) {
			if (r == V2X_CAP_ERROR) {
				v2xcap_readerr_file_error(rep, v2x_capfile_error(cf));
				continue;
			}
			struct v2x_frame f;
			v2x_frame_parse(fr.linktype, fr.data, fr.caplen, &f);
			if (o->decode)
				full_decode(&f);
			add_frame(t, &fr, &f, rep);
			v2xcap_progress_tick(&prog, cf);
		}
		v2xcap_progress_done(&prog, cf);
	}
	v2xcap_readerr_finish(rep);
	if (t->oom) {
		fprintf(stderr, "v2xcap stats: out of memory\n");
		rc = -1;
	}
	return rc;
}

int cmd_stats(const struct v2xcap_command *cmd, int argc, char **argv)
{
	struct stats_opts o = {.fmt = V2XCAP_FMT_TABLE, .view = V2XCAP_VIEW_TYPE,
			       .threads = v2xcap_par_default_threads()};
	int rc = parse_args(cmd, argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (o.decode && !j2735dec_edition()) {
		fprintf(stderr, "v2xcap stats: --decode needs the J2735 decoder; rebuild with "
				"-DJ2735_ASN1_DIR=<your SAE J2735 ASN.1 dir>\n");
		return V2XCAP_EXIT_FAILURE;
	}
	char errbuf[V2X_ERRBUF_SIZE];
	struct v2x_stats *st = v2x_stats_new(errbuf);
	struct v2x_capfile *cf = v2x_capfile_open(argv + optind, (size_t)(argc - optind));
	if (!st || !cf) {
		fprintf(stderr, "v2xcap stats: out of memory\n");
		if (cf)
			v2x_capfile_close(cf);
		v2x_stats_free(st);
		return V2XCAP_EXIT_FAILURE;
	}
	struct v2x_tally *s = &st->t;
	s->filter = o.filter;
	/* the encapsulations' octets and errors only for a view that shows them */
	s->encap_view = o.view == V2XCAP_VIEW_ENCAP || o.fmt == V2XCAP_FMT_JSON;
	/* ... and the dimensions only that view's (JSON has them all): counting the other
	 * three was a third of the work a frame (callgrind, bench/gencap) */
	if (o.fmt != V2XCAP_FMT_JSON)
		s->dims_counted = (unsigned)o.view < V2X_N_DIMS ? 1u << o.view : 0;
	struct v2xcap_series_out series;
	if (o.interval_us) {
		v2xcap_series_begin(&series, stdout, o.fmt, o.interval_us);
		v2x_tally_set_interval(s, o.interval_us, v2xcap_series_interval, &series);
	}
	struct v2xcap_readerr rep;
	v2xcap_readerr_init(&rep, "stats", NULL, NULL);
	struct tally t = {.s = st};
	bool failed = analyse(cf, &t, &o, &rep) < 0;
	v2x_tally_finish(s);
	int out_err;
	if (o.interval_us) {
		v2xcap_series_end(&series);
		out_err = ferror(stdout);
	} else {
		out_err = v2xcap_output_stats(stdout, o.fmt, o.view, st);
	}
	if (fflush(stdout) != 0)
		out_err = 1;
	if (out_err)
		fprintf(stderr, "v2xcap stats: error writing the output\n");
	v2x_capfile_close(cf);
	v2x_stats_free(st);
	rc = v2xcap_readerr_exit_code(&rep, o.strict);
	return out_err || failed ? V2XCAP_EXIT_FAILURE : rc;
}
