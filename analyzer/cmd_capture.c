/* `v2xcap capture`: live capture with libpcap (monitor vif = radiotap, OCB netdev =
 * Ethernet), keeping WSMP (0x88DC) frames, written to pcapng/pcap, with live per-message
 * statistics, and published to Kafka as decode does (sink.h); SIGINT/SIGTERM end it
 * cleanly: the file stays complete, the records in flight are delivered. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include <v2x/capture.h>
#include <v2x/dump.h>
#include <v2x/ocb.h>

#include "cli.h"
#include "decode_line.h"
#include "ieee80211.h"
#include "frame.h"
#include "output.h"
#include "privdrop.h"
#include "sink.h"
#include "stats_handle.h"

const char cmd_capture_options[] =
	"  -i IFACE          a monitor vif (radiotap) or an OCB netdev (Ethernet)\n"
	"  -w FILE           write the frames: FILE.pcap as pcap, any other name as pcapng\n"
	"                    (with the interface name and channel in its description)\n"
	"  --all             keep every frame (default: only WSMP, EtherType 0x88DC, behind\n"
	"                    LLC/SNAP or EPD)\n"
	"  --stats           live per-message-type counts and rates on stderr, priority\n"
	"                    messages first (emergency vehicles, road-side alerts, event\n"
	"                    flags, signal requests: as `stats` lists them)\n"
	"  --duration S      stop after S seconds;  --count N: after N frames kept\n"
	"  --rotate SIZE|TIME  start a new file (FILE-00001.EXT, ...) every SIZE octets\n"
	"                    (k, M, G suffixes) or every TIME (s, m, h suffixes)\n"
	"  --user USER       user to become once the capture is open (default: the sudo\n"
	"                    user, else nobody); no capabilities are kept\n"
	V2XCAP_KAFKA_HELP
	"The Kafka records are decode's lines; their \"file\" is the interface, \"frame\"\n"
	"counts the frames kept.\n"
	"SIGINT/SIGTERM stop the capture; the file holds every frame received, the records\n"
	"published are delivered (exit 1 when one was not).\n"
	"Without root: setcap cap_net_raw,cap_net_admin+ep $(command -v v2xcap)\n";

struct capture_opts {
	const char *iface, *file, *user;
	struct v2xcap_scale_opts kafka;
	bool all, live_stats;
	double duration_s;
	uint64_t count;
	uint64_t rotate_bytes;
	int64_t rotate_us;
};

/* "100M" -> bytes, "10m" -> time: k/M/G are sizes, s/m/h are times; -1 on error. */
static int parse_rotate(const char *s, struct capture_opts *o)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || v <= 0)
		return -1;
	switch (*end) {
	case '\0': o->rotate_bytes = (uint64_t)v; break;
	case 'k': o->rotate_bytes = (uint64_t)(v * 1e3); break;
	case 'M': o->rotate_bytes = (uint64_t)(v * 1e6); break;
	case 'G': o->rotate_bytes = (uint64_t)(v * 1e9); break;
	case 's': o->rotate_us = (int64_t)(v * 1e6); break;
	case 'm': o->rotate_us = (int64_t)(v * 60e6); break;
	case 'h': o->rotate_us = (int64_t)(v * 3600e6); break;
	default: return -1;
	}
	return end[0] && end[1] ? -1 : 0;
}

/* -1 to go on, else the exit code (help, usage error). */
static int parse_capture_opts(const struct v2xcap_command *cmd, int argc, char **argv,
			      struct capture_opts *o)
{
	static const struct option longopts[] = {
		{"interface", required_argument, NULL, 'i'},
		{"write", required_argument, NULL, 'w'},
		{"all", no_argument, NULL, 'a'},
		{"stats", no_argument, NULL, 's'},
		{"duration", required_argument, NULL, 'd'},
		{"count", required_argument, NULL, 'c'},
		{"rotate", required_argument, NULL, 'r'},
		{"user", required_argument, NULL, 'u'},
		V2XCAP_KAFKA_LONGOPTS,
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	char *end;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:w:c:hX:", longopts, NULL)) != -1) {
		int k = v2xcap_kafka_option(cmd, c, optarg, argc, &o->kafka);
		if (k > 0)
			return k;
		if (k < 0)
			continue;
		switch (c) {
		case 'i': o->iface = optarg; break;
		case 'w': o->file = optarg; break;
		case 'a': o->all = true; break;
		case 's': o->live_stats = true; break;
		case 'u': o->user = optarg; break;
		case 'd':
			o->duration_s = strtod(optarg, &end);
			if (*end || o->duration_s <= 0)
				return v2xcap_cli_usage_error(cmd, "invalid --duration '%s'", optarg);
			break;
		case 'c':
			o->count = strtoull(optarg, &end, 10);
			if (*end || o->count == 0)
				return v2xcap_cli_usage_error(cmd, "invalid --count '%s'", optarg);
			break;
		case 'r':
			if (parse_rotate(optarg, o) < 0)
				return v2xcap_cli_usage_error(cmd, "invalid --rotate '%s'", optarg);
			break;
		default:
			return v2xcap_cli_other_option(cmd, c, argv);
		}
	}
	if (!o->iface)
		return v2xcap_cli_usage_error(cmd, "no interface given (-i IFACE)");
	if (optind != argc)
		return v2xcap_cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	if ((o->rotate_bytes || o->rotate_us) && !o->file)
		return v2xcap_cli_usage_error(cmd, "--rotate needs -w FILE");
	return v2xcap_kafka_options_check(cmd, &o->kafka);
}

struct capture {
	struct v2x_capture *cap;
	const char *iface;
	int linktype;
	bool all;
	uint64_t count, kept, published;
	struct v2x_dumper *writer;
	struct v2xcap_sink *sink;  /* --kafka */
	struct json_writer *w;     /* the line of the frame being published, */
	struct v2x_buf line;       /* gathered here */
	struct v2x_stats *st;               /* the statistics and the priority list */
	uint64_t prio_said[V2X_PRIO_N];     /* per kind, up to the last interval line */
	char err[512];
	bool failed;
};


/* The frame's decode line to the sink, when it holds a J2735 message. */
static void publish(struct capture *c, const struct v2x_record *rec)
{
	struct v2x_capframe fr = {c->iface, c->kept, rec->ts_ns, c->linktype, rec->caplen,
				  rec->origlen, rec->data};
	struct v2x_decoded d;
	v2x_buf_reset(&c->line);
	json_init_buf(c->w, &c->line);
	v2x_decode_line(c->w, &fr, 0, &d);
	if (json_flush(c->w) < 0) {
		snprintf(c->err, sizeof c->err, "out of memory");
		c->failed = true;
		return;
	}
	struct v2xcap_record r = {&fr, &d, (const char *)c->line.p, c->line.len};
	if (!d.has_json)
		return;
	if (c->sink->put(c->sink->ctx, &r) < 0) {
		snprintf(c->err, sizeof c->err, "publishing stopped");
		c->failed = true;
		return;
	}
	c->published++;
}

/* A frame libv2x handed out (WSMP ones only, unless --all). */
static void on_frame(struct capture *c, const struct v2x_record *rec, const struct v2x_frame *f)
{
	c->kept++;
	struct v2x_sample sm = {rec->ts_ns / 1000, rec->caplen, rec->origlen};
	if (v2x_stats_count(c->st, f, &sm, c->iface, c->kept) < 0) {
		snprintf(c->err, sizeof c->err, "out of memory");
		c->failed = true;
	}
	if (c->writer &&
	    v2x_dump(c->writer, rec->ts_ns, rec->data, rec->caplen, rec->origlen) < 0) {
		snprintf(c->err, sizeof c->err, "%s", v2x_dumper_geterr(c->writer));
		c->failed = true;
	}
	if (c->sink && !c->failed)
		publish(c, rec);
}

/* The frames waiting (at most max: a flood must not keep the loop from its signal,
 * duration and table), or every one (max 0); -1 when the interface failed (c->err). */
static int take_frames(struct capture *c, unsigned max)
{
	const struct v2x_record *rec;
	const struct v2x_frame *f;
	int r = 0;
	for (unsigned n = 0; (!max || n < max) && !c->failed &&
			     !(c->count && c->kept >= c->count); n++) {
		if ((r = v2x_capture_next(c->cap, &rec, &f)) != 1)
			break;
		on_frame(c, rec, f);
	}
	if (r < 0 && r != V2X_EAGAIN) {
		snprintf(c->err, sizeof c->err, "%s", v2x_capture_geterr(c->cap));
		return -1;
	}
	return 0;
}

/* One line per closed interval (stderr not a terminal), the priority messages of the
 * interval first by kind. The interval closes before the frame after it is listed. */
static void print_interval(void *ctx, const struct v2x_interval *iv)
{
	struct capture *c = ctx;
	char buf[32], when[16];
	double secs = (double)iv->len_us / 1e6;
	time_t start = (time_t)(iv->start_us / 1000000);
	struct tm tm;
	strftime(when, sizeof when, "%H:%M:%S", localtime_r(&start, &tm));
	fprintf(stderr, "%s %llu frames", when, (unsigned long long)iv->total);
	uint64_t now[V2X_PRIO_N] = {0};
	struct v2x_stats_priority p = {.size = sizeof(p)};
	for (size_t i = 0; v2x_stats_get_priority(c->st, i, &p) == 1; i++)
		now[p.kind] += p.messages;
	const char *sep = "  priority:";
	for (int k = 0; k < V2X_PRIO_N; k++) {
		if (now[k] == c->prio_said[k])
			continue;
		fprintf(stderr, "%s %s %llu", sep, v2x_priority_kind_name(k),
			(unsigned long long)(now[k] - c->prio_said[k]));
		c->prio_said[k] = now[k];
		sep = ",";
	}
	for (size_t i = 0; i < iv->n_types; i++)
		fprintf(stderr, "  %s %llu (%.1f/s)",
			v2x_tally_key_name(V2X_BY_TYPE, iv->type_keys[i], buf, sizeof buf),
			(unsigned long long)iv->counts[i], (double)iv->counts[i] / secs);
	fputc('\n', stderr);
}

/* Refreshing table (stderr is a terminal). */
static void print_table(const struct capture *c)
{
	struct v2x_capture_stats st = {.size = sizeof(st)};
	v2x_capture_stats(c->cap, &st);
	fprintf(stderr, "\033[H\033[J%llu frames kept, %llu seen\n",
		(unsigned long long)c->kept, (unsigned long long)st.seen);
	v2xcap_output_stats(stderr, V2XCAP_FMT_TABLE, V2XCAP_VIEW_TYPE, c->st);
}

/* The interface on the phy of the one asked about that has a channel. */
struct tuned {
	uint32_t phy;
	uint32_t freq_mhz, width_mhz;
};

static int find_tuned(const struct v2x_ocb_status *s, void *ctx)
{
	struct tuned *t = ctx;
	if (s->phy != t->phy || !s->freq_mhz)
		return 0;
	t->freq_mhz = s->freq_mhz;
	t->width_mhz = s->width_mhz;
	return 1;
}

/* "wlan1, 5890 MHz (channel 178), 10 MHz" when nl80211 knows the channel: iface's, or for
 * a monitor vif without one, that of an interface on the same phy that has one (the
 * channel it receives on). */
static void describe(const char *iface, char *desc, size_t len)
{
	char errbuf[V2X_ERRBUF_SIZE];
	struct v2x_ocb_status st = {.size = sizeof(st)};
	snprintf(desc, len, "%s", iface);
	struct v2x_ocb *oc = v2x_ocb_open(errbuf);
	if (!oc || v2x_ocb_status(oc, iface, &st) < 0) {
		v2x_ocb_close(oc);
		return;
	}
	struct tuned t = {st.phy, st.freq_mhz, st.width_mhz};
	if (!t.freq_mhz)
		v2x_ocb_list(oc, find_tuned, &t);
	if (t.freq_mhz)
		snprintf(desc, len, "%s, %u MHz (channel %u), %u MHz", iface, t.freq_mhz,
			 v2x_5ghz_channel(t.freq_mhz), t.width_mhz);
	v2x_ocb_close(oc);
}

static int64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Runs until a signal, --duration, --count or an error; returns 0 or -1 (c->err). */
static int capture_loop(struct capture *c, int sig_fd, double duration_s, bool tty)
{
	int64_t end_us = duration_s > 0 ? now_us() + (int64_t)(duration_s * 1e6) : 0;
	int64_t next_table_us = now_us();
	struct pollfd fds[2] = {{v2x_capture_fd(c->cap), POLLIN, 0}, {sig_fd, POLLIN, 0}};
	bool stop = false;
	while (!stop) {
		int timeout = 1000;
		if (end_us) {
			int64_t left = (end_us - now_us()) / 1000;
			timeout = left < 0 ? 0 : left < timeout ? (int)left : timeout;
		}
		if (poll(fds, 2, timeout) < 0 && errno != EINTR) {
			snprintf(c->err, sizeof c->err, "poll: %s", strerror(errno));
			return -1;
		}
		if (fds[1].revents & POLLIN) {
			struct signalfd_siginfo si;
			ssize_t got = read(sig_fd, &si, sizeof si);
			(void)got; /* which signal does not matter: both stop */
			stop = true;
		}
		/* A bounded batch per wake-up (poll comes back while more wait); after a
		 * signal everything that has arrived, so every frame goes to the file. */
		if (take_frames(c, stop ? 0 : 4096) < 0)
			return -1;
		if (c->failed)
			return -1;
		if (c->writer && v2x_dumper_flush(c->writer) < 0) {
			snprintf(c->err, sizeof c->err, "%s", v2x_dumper_geterr(c->writer));
			return -1;
		}
		if ((c->count && c->kept >= c->count) || (end_us && now_us() >= end_us))
			stop = true;
		if (tty && now_us() >= next_table_us) {
			print_table(c);
			next_table_us = now_us() + 1000000;
		}
	}
	return 0;
}

static void print_summary(const struct capture *c, const char *iface, double secs)
{
	struct v2x_capture_stats st = {.size = sizeof(st)};
	int have = v2x_capture_stats(c->cap, &st);
	fprintf(stderr, "v2xcap capture: %s: %llu frames kept of %llu seen in %.1f s", iface,
		(unsigned long long)c->kept, (unsigned long long)st.seen, secs);
	if (c->writer)
		fprintf(stderr, ", written to %s (%u file%s)", v2x_dumper_path(c->writer),
			v2x_dumper_files(c->writer), v2x_dumper_files(c->writer) == 1 ? "" : "s");
	if (c->sink)
		fprintf(stderr, ", %llu messages published to Kafka",
			(unsigned long long)c->published);
	fputc('\n', stderr);
	if (have == V2X_OK)
		fprintf(stderr, "libpcap: %llu received, %llu dropped by the kernel, %llu dropped "
				"by the interface\n", (unsigned long long)st.received,
			(unsigned long long)st.dropped_kernel,
			(unsigned long long)st.dropped_interface);
	v2xcap_output_stats(stderr, V2XCAP_FMT_TABLE, V2XCAP_VIEW_TYPE, c->st);
}

/* Everything after the capture socket is open: signals, privileges, file, loop. */
static int run_capture(struct capture *c, const struct capture_opts *o)
{
	char desc[128], became[64];
	describe(o->iface, desc, sizeof desc);
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	int sig_fd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sig_fd < 0) {
		snprintf(c->err, sizeof c->err, "signalfd: %s", strerror(errno));
		return -1;
	}
	int rc = -1;
	if (v2xcap_drop_privileges(o->user, became, sizeof became, c->err, sizeof c->err) < 0)
		goto out;
	struct v2xcap_sink sink;
	if (o->kafka.kafka) {
		c->w = malloc(sizeof(*c->w));
		if (!c->w || v2xcap_sink_kafka_open(&sink, &o->kafka) < 0) {
			snprintf(c->err, sizeof c->err, "%s", c->w ? "Kafka not usable (said above)"
								   : "out of memory");
			goto out;
		}
		c->sink = &sink;
	}
	if (o->file) {
		const struct v2x_dumper_conf wc = {
			.size = sizeof(wc), .path = o->file, .linktype = c->linktype,
			.if_name = o->iface, .if_desc = desc, .rotate_bytes = o->rotate_bytes,
			.rotate_ns = o->rotate_us * 1000};
		char errbuf[V2X_ERRBUF_SIZE];
		if (!(c->writer = v2x_dumper_open(&wc, errbuf))) {
			snprintf(c->err, sizeof c->err,
				 "%s (privileges: %s; write where that user may, or --user)", errbuf,
				 became);
			if (c->sink)
				c->sink->close(c->sink->ctx, false);
			goto out;
		}
	}
	bool tty = o->live_stats && isatty(STDERR_FILENO);
	if (o->live_stats && !tty)
		v2x_tally_set_interval(&c->st->t, 1000000, print_interval, c);
	fprintf(stderr, "v2xcap capture: %s (%s, link type %s), %s frames, privileges: %s\n",
		o->iface, desc, pcap_datalink_val_to_name(c->linktype),
		c->all ? "all" : "WSMP", became);
	int64_t start = now_us();
	rc = capture_loop(c, sig_fd, o->duration_s, tty);
	v2x_tally_finish(&c->st->t);
	print_summary(c, o->iface, (double)(now_us() - start) / 1e6);
	if (c->writer) {
		char err[V2X_ERRBUF_SIZE];
		if (v2x_dumper_close(c->writer, err) < 0 && rc == 0) {
			snprintf(c->err, sizeof c->err, "%s", err);
			rc = -1;
		}
		c->writer = NULL;
	}
	if (c->sink && c->sink->close(c->sink->ctx, false) < 0 && rc == 0) {
		snprintf(c->err, sizeof c->err, "not every record reached Kafka (said above)");
		rc = -1;
	}
	c->sink = NULL;
out:
	free(c->w);
	c->w = NULL;
	v2x_buf_free(&c->line);
	close(sig_fd);
	return rc;
}

/* Opens the interface and runs the capture; the exit code. */
static int capture(const struct capture_opts *o)
{
	struct capture c = {.iface = o->iface, .all = o->all, .count = o->count};
	char errbuf[V2X_ERRBUF_SIZE];
	/* libv2x keeps the WSMP frames (unless --all); the loop polls its descriptor */
	c.cap = v2x_capture_open_live(o->iface, (o->all ? V2X_LIVE_ALL : 0) | V2X_LIVE_NONBLOCK,
				      errbuf);
	if (!c.cap) {
		fprintf(stderr, "v2xcap capture: %s%s\n", errbuf,
			strstr(errbuf, "not one libv2x parses") ? " (use --all to capture anyway)"
								 : "");
		return V2XCAP_EXIT_FAILURE;
	}
	c.linktype = v2x_capture_linktype(c.cap);
	if (!(c.st = v2x_stats_new(errbuf))) {
		fprintf(stderr, "v2xcap capture: %s: %s\n", o->iface, errbuf);
		v2x_capture_close(c.cap);
		return V2XCAP_EXIT_FAILURE;
	}
	int rc = run_capture(&c, o);
	if (rc < 0)
		fprintf(stderr, "v2xcap capture: %s: %s\n", o->iface, c.err);
	v2x_stats_free(c.st);
	v2x_capture_close(c.cap);
	return rc < 0 ? V2XCAP_EXIT_FAILURE : V2XCAP_EXIT_OK;
}

int cmd_capture(const struct v2xcap_command *cmd, int argc, char **argv)
{
	struct capture_opts o = {.kafka.command = "capture"};
	int rc = parse_capture_opts(cmd, argc, argv, &o);
	if (rc >= 0) {
		free(o.kafka.conf);
		return rc;
	}
	rc = capture(&o);
	free(o.kafka.conf);
	return rc;
}
