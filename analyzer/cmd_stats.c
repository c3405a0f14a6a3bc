/* `v2xcap stats`: reads captures as one timeline, feeds every frame through the libv2x
 * pipeline into the statistics aggregator, prints a table, CSV or JSON. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
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
#include "stats.h"

#define MAX_FRAME_ERRORS_SHOWN 20

static const char usage_text[] =
	"usage: v2xcap stats [--format table|csv|json] [--by type|psid|channel|sender|bsm]\n"
	"                    [--filter TYPE|psid=HEX] [--interval N[ms|s|m]] [--decode]\n"
	"                    [-j N] FILE...\n"
	"Statistics of V2X captures (pcap/pcapng, radiotap, 802.11, Ethernet, SLL; several\n"
	"files form one timeline, '-' is stdin): per message type, PSID, channel, sender MAC,\n"
	"and BSM senders by TemporaryID (rate, inter-arrival, msgCnt gaps, message age).\n"
	"  --format   table (default, aligned for a terminal), csv, or json (every view)\n"
	"  --by       the view of the table/CSV (default type); bsm = BSM senders\n"
	"  --filter   keep only WSMP frames of one J2735 message type (name or id, e.g. BSM,\n"
	"             spat, 20) or one PSID (psid=20 is hex, i.e. 0x20)\n"
	"  --interval print a time series of per-type counts instead (e.g. 1s, 500ms)\n"
	"  --decode   decode every J2735 message in full (the build's schema decoder) and\n"
	"             count the ones that do not decode as errors; default: headers only\n"
	"  -j, --jobs --decode on N threads (default: the online CPUs); same results\n"
	"exit: 0 ok; 1 when a file or frame could not be read (the rest is analysed); 2 usage\n";

struct stats_opts {
	enum v2x_format fmt;
	enum v2x_view view;
	struct v2x_stats_filter filter;
	int64_t interval_us;
	bool decode;
	unsigned threads;
	char **files;
	size_t n_files;
};

/* "v2xcap stats: WHAT 'ARG'" and the usage on stderr; the usage exit code. */
static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "v2xcap stats: %s%s%s%s\n%s", what, arg ? " '" : "", arg ? arg : "",
		arg ? "'" : "", usage_text);
	return V2X_EXIT_USAGE;
}

static int parse_format(const char *a, enum v2x_format *fmt)
{
	static const char *const names[] = {"table", "csv", "json"};
	for (int i = 0; i < 3; i++)
		if (strcmp(a, names[i]) == 0) {
			*fmt = (enum v2x_format)i;
			return 0;
		}
	return -1;
}

static int parse_view(const char *a, enum v2x_view *view)
{
	if (strcmp(a, "bsm") == 0) {
		*view = V2X_VIEW_BSM;
		return 0;
	}
	for (int d = 0; d < V2X_N_DIMS; d++)
		if (strcmp(a, v2x_dimension_name((enum v2x_dimension)d)) == 0) {
			*view = (enum v2x_view)d;
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

static int parse_filter(const char *a, struct v2x_stats_filter *f)
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

/* Options may come as "--opt value" or "--opt=value", anywhere among the files. */
static int parse_args(int argc, char **argv, struct stats_opts *o)
{
	static const char *const with_value[] = {"--format", "--by", "--filter", "--interval",
						 "--jobs", "-j"};
	o->files = calloc((size_t)argc, sizeof(char *));
	if (!o->files)
		return -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || a[1] == '\0') {
			o->files[o->n_files++] = argv[i];
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage_text, stdout);
			return 1;
		}
		if (strcmp(a, "--decode") == 0) {
			o->decode = true;
			continue;
		}
		int opt = -1;
		const char *val = NULL;
		for (int k = 0; k < 6; k++) {
			size_t l = strlen(with_value[k]);
			if (strncmp(a, with_value[k], l) == 0 && (a[l] == '\0' || a[l] == '=')) {
				opt = k;
				val = a[l] == '=' ? a + l + 1 : (i + 1 < argc ? argv[++i] : NULL);
			}
		}
		if (opt < 0)
			return usage_error("unknown option", a);
		if (!val)
			return usage_error("a value is needed after", a);
		int bad = opt >= 4 ? v2x_par_parse_threads(val, &o->threads)
			: opt == 0 ? parse_format(val, &o->fmt)
			: opt == 1 ? parse_view(val, &o->view)
			: opt == 2 ? parse_filter(val, &o->filter)
			: parse_interval(val, &o->interval_us);
		if (bad)
			return usage_error("invalid value", val);
	}
	if (o->n_files == 0)
		return usage_error("no capture file given", NULL);
	return 0;
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

/* One frame into s, in capture order; errors counts the unreadable ones. */
static void add_frame(struct v2x_stats *s, const struct v2x_capframe *fr,
		      const struct v2x_frame *f, int parsed, uint64_t *errors)
{
	/* A link header that lies about its lengths makes the frame unreadable;
	 * malformed upper layers are decode errors, counted in the statistics. */
	if (parsed < 0 && f->error_layer == V2X_LAYER_NONE && (*errors)++ < MAX_FRAME_ERRORS_SHOWN)
		fprintf(stderr, "v2xcap stats: %s: frame %" PRIu64 ": %s\n", fr->file, fr->number,
			f->error);
	struct v2x_sample sm = {
		.ts_us = fr->ts_ns / 1000, .caplen = fr->caplen, .wirelen = fr->origlen,
	};
	v2x_stats_add(s, f, &sm);
}

static void read_error(const char *why, uint64_t *errors)
{
	if ((*errors)++ < MAX_FRAME_ERRORS_SHOWN)
		fprintf(stderr, "v2xcap stats: %s\n", why);
}

/* --decode -j N: parsing and decoding on the threads, the statistics in capture order. */
struct parsed {
	struct v2x_frame f;
	int r;
};

struct par_stats {
	struct v2x_stats *s;
	uint64_t errors;
};

static void par_work(void *ctx, struct v2x_par_item *it, struct json_writer *w)
{
	(void)ctx, (void)w;
	struct parsed *p = it->result;
	p->r = v2x_frame_parse(it->fr.linktype, it->fr.data, it->fr.caplen, &p->f);
	full_decode(&p->f);
}

static bool par_emit(void *ctx, const struct v2x_batch *b)
{
	struct par_stats *ps = ctx;
	for (size_t i = 0; i < b->n; i++) {
		const struct v2x_par_item *it = &b->items[i];
		const struct parsed *p = it->result;
		if (it->error)
			read_error(it->error, &ps->errors);
		else
			add_frame(ps->s, &it->fr, &p->f, p->r, &ps->errors);
	}
	return true;
}

/* Reads every frame into s; returns the number of unreadable files/frames. */
static uint64_t analyse(struct v2x_capfile *cf, struct v2x_stats *s, bool decode,
			unsigned threads)
{
	uint64_t errors = 0;
	if (decode && threads > 1) {
		struct par_stats ps = {.s = s};
		struct v2x_par_job job = {
			.threads = threads, .result_size = sizeof(struct parsed), .ctx = &ps,
			.work = par_work, .emit = par_emit,
		};
		if (v2x_par_run(cf, &job) < 0)
			read_error("out of memory or no threads", &ps.errors);
		errors = ps.errors;
	} else {
		struct v2x_progress prog;
		struct v2x_capframe fr;
		enum v2x_cap_result r;
		v2x_progress_init(&prog);
		while ((r = v2x_capfile_next(cf, &fr)) != V2X_CAP_END) {
			if (r == V2X_CAP_ERROR) {
				read_error(v2x_capfile_error(cf), &errors);
				continue;
			}
			struct v2x_frame f;
			int parsed = v2x_frame_parse(fr.linktype, fr.data, fr.caplen, &f);
			if (decode)
				full_decode(&f);
			add_frame(s, &fr, &f, parsed, &errors);
			v2x_progress_tick(&prog, cf);
		}
		v2x_progress_done(&prog, cf);
	}
	if (errors > MAX_FRAME_ERRORS_SHOWN)
		fprintf(stderr, "v2xcap stats: %" PRIu64 " unreadable files/frames in all\n",
			errors);
	return errors;
}

int cmd_stats(int argc, char **argv)
{
	struct stats_opts o = {.fmt = V2X_FMT_TABLE, .view = V2X_VIEW_TYPE,
			       .threads = v2x_par_default_threads()};
	int rc = parse_args(argc, argv, &o);
	if (rc != 0) {
		free(o.files);
		return rc < 0 ? V2X_EXIT_RUNTIME : rc == 1 ? V2X_EXIT_OK : rc;
	}
	if (o.decode && !j2735dec_edition()) {
		fprintf(stderr, "v2xcap stats: --decode needs the J2735 decoder; rebuild with "
				"-DJ2735_ASN1_DIR=<your SAE J2735 ASN.1 dir>\n");
		free(o.files);
		return V2X_EXIT_RUNTIME;
	}
	struct v2x_stats *s = malloc(sizeof(*s));
	struct v2x_capfile *cf = v2x_capfile_open(o.files, o.n_files);
	if (!s || !cf || v2x_stats_init(s, &o.filter) < 0) {
		fprintf(stderr, "v2xcap stats: out of memory\n");
		if (cf)
			v2x_capfile_close(cf);
		free(s);
		free(o.files);
		return V2X_EXIT_RUNTIME;
	}
	struct v2x_series_out series;
	if (o.interval_us) {
		v2x_series_begin(&series, stdout, o.fmt, o.interval_us);
		v2x_stats_set_interval(s, o.interval_us, v2x_series_interval, &series);
	}
	uint64_t errors = analyse(cf, s, o.decode, o.threads);
	v2x_stats_finish(s);
	int out_err;
	if (o.interval_us) {
		v2x_series_end(&series);
		out_err = ferror(stdout);
	} else {
		out_err = v2x_output_stats(stdout, o.fmt, o.view, s);
	}
	if (out_err)
		fprintf(stderr, "v2xcap stats: error writing the output\n");
	v2x_capfile_close(cf);
	v2x_stats_free(s);
	free(s);
	free(o.files);
	return errors || out_err ? V2X_EXIT_RUNTIME : V2X_EXIT_OK;
}
