/* `v2xcap send`: transmit WSMP on an OCB netdev through libv2x's transmitter (<v2x/tx.h>:
 * EtherType 0x88DC, broadcast): the WSMP frames of a capture, J2735 messages encoded from
 * JSON Lines (<v2x/encode.h>), or BSMs it builds. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <v2x/encode.h>
#include <v2x/frame.h>
#include <v2x/tx.h>

#include "capfile.h"
#include "cli.h"
#include "ieee80211.h"
#include "frame.h"
#include "psid.h"
#include "registry.h"

const char cmd_send_options[] =
	"  FILE        replay the WSMP of every WSMP frame in a capture (any link type)\n"
	"  --json FILE encode each line of JSON Lines ('-': stdin; `v2xcap decode` lines or\n"
	"              their \"j2735\" objects, as `v2xcap encode` takes them) and send it in\n"
	"              a WSM of its message type's PSID (BSM 0x20, MAP/SPaT/SRM/SSM 0x82,\n"
	"              TIM/RSA 0x83, PSM 0x27 ...) or --psid's; a line that does not encode\n"
	"              is named and skipped (exit status 1)\n"
	"  --bsm       send BasicSafetyMessages (J2735, WSMP v3 PSID 0x20): msgCnt\n"
	"              increments (mod 128), secMark is the clock's millisecond within the\n"
	"              minute, the fields not given are sent unavailable\n"
	"  --id HEX    TemporaryID, 8 hex digits (default: the last 4 octets of the MAC)\n"
	"  --dot2      wrap the BSM (--json: each message) in IEEE 1609.2 unsecuredData\n"
	"  --rate HZ   frames per second (default 10);  --loop: replay FILE (--json FILE)\n"
	"              until stopped\n"
	"  --count N   stop after N frames\n"
	"  --psid HEX  FILE: the PSID of messages that came without WSMP and name none (bare\n"
	"              J2735 in UDP, log records); an RSU record's or 1609.2's own comes first;\n"
	"              --json: the PSID of every message\n"
	"  --force     send on an interface that is not an OCB interface on a channel (a\n"
	"              loopback, Ethernet, a monitor vif): refused otherwise\n"
	"IFACE is an OCB netdev ('v2xcap ocb join'); needs CAP_NET_RAW. SIGINT/SIGTERM stop.\n";

struct send_opts {
	const char *iface, *file, *json;
	bool bsm, loop, dot2, has_id, force;
	double rate;
	uint64_t count;
	uint8_t id[4];
	double lat, lon, speed, heading;
	bool has_lat, has_lon, has_speed, has_heading;
	bool has_psid;
	uint32_t psid;
};

/* libv2x's transmitter (<v2x/tx.h>), paced. */
struct sender {
	struct v2x_tx *tx;
	struct v2x_tx_info info;
	struct timespec next; /* CLOCK_MONOTONIC time of the next frame */
	long period_ns;
};

static int parse_hex_id(const char *s, uint8_t id[4])
{
	char *end;
	unsigned long v = strtoul(s, &end, 16);
	if (*end || end == s || strlen(s) > 8)
		return -1;
	for (int i = 0; i < 4; i++)
		id[i] = (uint8_t)(v >> (24 - 8 * i));
	return 0;
}

static int parse_double(const char *s, double *v, bool *has)
{
	char *end;
	*v = strtod(s, &end);
	*has = true;
	return *end || end == s ? -1 : 0;
}

/* -1 to go on, else the exit code (help, usage error). */
static int parse_send_opts(const struct v2xcap_command *cmd, int argc, char **argv,
			   struct send_opts *o)
{
	static const struct option longopts[] = {
		{"interface", required_argument, NULL, 'i'},
		{"bsm", no_argument, NULL, 'b'},
		{"id", required_argument, NULL, 'I'},
		{"rate", required_argument, NULL, 'r'},
		{"loop", no_argument, NULL, 'l'},
		{"count", required_argument, NULL, 'c'},
		{"dot2", no_argument, NULL, '2'},
		{"lat", required_argument, NULL, 'a'},
		{"lon", required_argument, NULL, 'o'},
		{"speed", required_argument, NULL, 's'},
		{"heading", required_argument, NULL, 'H'},
		{"force", no_argument, NULL, 'f'},
		{"psid", required_argument, NULL, 'p'},
		{"json", required_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c, bad = 0, which = 0;
	char *end;
	bool dummy;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:c:h", longopts, &which)) != -1) {
		switch (c) {
		case 'i': o->iface = optarg; break;
		case 'b': o->bsm = true; break;
		case 'l': o->loop = true; break;
		case '2': o->dot2 = true; break;
		case 'f': o->force = true; break;
		case 'j': o->json = optarg; break;
		case 'I': bad = parse_hex_id(optarg, o->id); o->has_id = true; break;
		case 'r': bad = parse_double(optarg, &o->rate, &dummy) || o->rate <= 0; break;
		case 'c':
			o->count = strtoull(optarg, &end, 10);
			bad = *end || o->count == 0;
			break;
		case 'a': bad = parse_double(optarg, &o->lat, &o->has_lat); break;
		case 'o': bad = parse_double(optarg, &o->lon, &o->has_lon); break;
		case 's': bad = parse_double(optarg, &o->speed, &o->has_speed); break;
		case 'H': bad = parse_double(optarg, &o->heading, &o->has_heading); break;
		case 'p': {
			unsigned long v = strtoul(optarg, &end, 16);
			bad = *end || end == optarg || v > UINT32_MAX;
			o->psid = (uint32_t)v;
			o->has_psid = true;
			break;
		}
		default: return v2xcap_cli_other_option(cmd, c, argv);
		}
		if (bad)
			return v2xcap_cli_usage_error(cmd, "invalid value '%s'", optarg);
	}
	if (optind < argc)
		o->file = argv[optind++];
	if (!o->iface)
		return v2xcap_cli_usage_error(cmd, "no interface given (-i IFACE)");
	if (optind != argc)
		return v2xcap_cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	if (o->bsm + (o->file != NULL) + (o->json != NULL) != 1)
		return v2xcap_cli_usage_error(cmd, "give a capture FILE, --json FILE or --bsm "
					      "(one of them)");
	return -1;
}

/* Opens IFACE for sending, saying before anything is sent what it is: the channel and
 * rates of an OCB interface, or why another one is refused (sent on with --force, with a
 * warning: a frame sent anywhere else does not go on the air as 802.11p, or not at all).
 * 0 to send, -1 refused. */
static int open_sender(struct sender *s, const struct send_opts *o)
{
	char errbuf[V2X_ERRBUF_SIZE];
	s->info.size = sizeof(s->info);
	if (!(s->tx = v2x_tx_open(o->iface, V2X_TX_ANY_INTERFACE, errbuf)) ||
	    v2x_tx_get_info(s->tx, &s->info) < 0) {
		fprintf(stderr, "v2xcap send: %s\n", errbuf);
		return -1;
	}
	const char *why = s->info.warning;
	if (why && !o->force) {
		fprintf(stderr, "v2xcap send: %s is %s. Refused (--force sends anyway).\n",
			o->iface, why);
		return -1;
	}
	if (why) {
		fprintf(stderr, "v2xcap send: %s is %s; sending anyway (--force), %g frames/s\n",
			o->iface, why, o->rate);
		return 0;
	}
	/* mac80211 sends OCB broadcasts at the lowest basic rate: 6 Mb/s on 20 MHz, scaled
	 * with the width (3 Mb/s on the 10 MHz ITS channels). */
	fprintf(stderr, "v2xcap send: %s: OCB on %u MHz (channel %u), %u MHz wide, broadcast "
		"at the lowest basic rate (%g Mb/s); %g frames/s\n", o->iface, s->info.freq_mhz,
		v2x_5ghz_channel(s->info.freq_mhz), s->info.width_mhz,
		6.0 * s->info.width_mhz / 20, o->rate);
	return 0;
}

/* Waits for the frame's slot (fixed rate); false when SIGINT/SIGTERM arrived. */
static bool wait_turn(struct sender *s)
{
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &s->next, NULL);
	s->next.tv_nsec += s->period_ns;
	while (s->next.tv_nsec >= 1000000000L) {
		s->next.tv_nsec -= 1000000000L;
		s->next.tv_sec++;
	}
	sigset_t pending;
	sigpending(&pending);
	return !sigismember(&pending, SIGINT) && !sigismember(&pending, SIGTERM);
}

/* A frame's result: 0 sent (or too long, said and skipped), -1 the link failed. */
static int sent(struct sender *s, int r)
{
	if (r < 0)
		fprintf(stderr, "v2xcap send: %s%s\n", v2x_tx_geterr(s->tx),
			r == V2X_EINVAL ? ", skipped" : "");
	return r < 0 && r != V2X_EINVAL ? -1 : 0;
}

static uint64_t n_sent(struct sender *s)
{
	v2x_tx_get_info(s->tx, &s->info);
	return s->info.sent;
}

/* The PSID of a message that came without WSMP: its RSU record's, its 1609.2
 * headerInfo's, or the user's; false when none names one. */
static bool message_psid(const struct v2x_frame *f, const struct send_opts *o, uint32_t *psid)
{
	if (f->has_rsu)
		*psid = f->rsu.psid;
	else if (f->has_dot2 && f->dot2.has_psid)
		*psid = f->dot2.psid;
	else if (o->has_psid)
		*psid = o->psid;
	else
		return false;
	return true;
}

static int replay_file(struct sender *s, const struct send_opts *o)
{
	for (;;) {
		char *files[1] = {(char *)o->file};
		struct v2x_capfile *cf = v2x_capfile_open(files, 1);
		struct v2x_capframe fr;
		struct v2x_frame f;
		enum v2x_cap_result r;
		uint64_t found = 0, no_psid = 0;
		struct v2x_wsmp_params wsmp = {.size = sizeof(wsmp)};
		if (!cf) {
			fprintf(stderr, "v2xcap send: out of memory\n");
			return -1;
		}
		while ((r = v2x_capfile_next(cf, &fr)) != V2X_CAP_END) {
			if (r == V2X_CAP_ERROR) {
				fprintf(stderr, "v2xcap send: %s\n", v2x_capfile_error(cf));
				continue;
			}
			/* Layers above WSMP may be malformed: the WSMP is sent as it is. */
			v2x_frame_parse(fr.linktype, fr.data, fr.caplen, &f);
			bool whole = f.has_wsmp && f.layer >= V2X_LAYER_WSMP && !f.wsmp.truncated;
			/* a message without WSMP goes in a WSM of its PSID, as an RSU sends it */
			if (!whole && !(!f.has_wsmp && f.msg_len && message_psid(&f, o, &wsmp.psid))) {
				no_psid += !f.has_wsmp && f.msg_len;
				continue;
			}
			found++;
			if (!wait_turn(s) ||
			    sent(s, whole ? v2x_tx_send_packet(s->tx, f.wsmp.payload - f.wsmp.hdr_len,
							       f.wsmp.hdr_len + f.wsmp.length)
					  : v2x_tx_send_wsmp(s->tx, &wsmp, f.msg, f.msg_len)) < 0 ||
			    (o->count && n_sent(s) >= o->count)) {
				v2x_capfile_close(cf);
				return 0;
			}
		}
		v2x_capfile_close(cf);
		if (no_psid)
			fprintf(stderr,
				"v2xcap send: %s: %" PRIu64 " messages without WSMP name no PSID: "
				"not sent (give --psid)\n",
				o->file, no_psid);
		if (!found) {
			fprintf(stderr, "v2xcap send: %s: no complete WSMP frame to send\n",
				o->file);
			return -1;
		}
		if (!o->loop)
			return 0;
	}
}

/* One pass over the JSON Lines: 1 when a line did not encode or had no PSID (named,
 * skipped), 0, -1 when the file cannot be read or nothing was sent, 2 at the end of the
 * run (--count, a signal, the link). *found counts the messages sent. */
static int send_json_pass(struct sender *s, const struct send_opts *o, struct v2x_encoder *e,
			  uint64_t *found)
{
	bool is_stdin = strcmp(o->json, "-") == 0;
	FILE *in = is_stdin ? stdin : fopen(o->json, "r");
	if (!in) {
		fprintf(stderr, "v2xcap send: %s: %m\n", o->json);
		return -1;
	}
	struct v2x_wsmp_params wsmp = {.size = sizeof(wsmp), .dot2_unsecured = o->dot2};
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	int rc = 0;
	while (rc != 2 && (n = getline(&line, &cap, in)) >= 0) {
		lineno++;
		if (strspn(line, " \t\r\n") == (size_t)n)
			continue;
		struct v2x_encoded m = {.size = sizeof(m)};
		int r = v2x_encode_json(e, line, (size_t)n, &m);
		const char *why = r < 0 ? v2x_encoder_geterr(e) : NULL;
		wsmp.psid = o->psid;
		if (!why && !o->has_psid && !v2x_message_psid(m.message_id, &wsmp.psid))
			why = "its message type has no PSID of its own: give --psid";
		if (why) {
			fprintf(stderr, "v2xcap send: %s: line %lu: %s\n", o->json, lineno, why);
			rc = r == V2X_ENOTSUP ? -1 : 1;
			if (rc < 0)
				break;
			continue;
		}
		++*found;
		if (!wait_turn(s) || sent(s, v2x_tx_send_wsmp(s->tx, &wsmp, m.octets, m.len)) < 0 ||
		    (o->count && n_sent(s) >= o->count))
			rc = 2;
	}
	free(line);
	if (!is_stdin)
		fclose(in);
	return rc;
}

static int send_json(struct sender *s, const struct send_opts *o)
{
	char errbuf[V2X_ERRBUF_SIZE];
	struct v2x_encoder *e = v2x_encoder_open(errbuf);
	if (!e) {
		fprintf(stderr, "v2xcap send: %s\n", errbuf);
		return -1;
	}
	int rc, bad = 0;
	uint64_t found = 0;
	do {
		rc = send_json_pass(s, o, e, &found);
		bad |= rc == 1;
	} while (o->loop && found && rc >= 0 && rc != 2 && strcmp(o->json, "-") != 0);
	v2x_encoder_close(e);
	if (rc >= 0 && !found) {
		fprintf(stderr, "v2xcap send: %s: no message to send\n", o->json);
		return -1;
	}
	return rc < 0 || bad ? -1 : 0;
}

static uint16_t sec_mark_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint16_t)((ts.tv_sec % 60) * 1000 + ts.tv_nsec / 1000000);
}

/* WSMP v3, no N-header extensions, TPID 0, PSID 0x20, around one BSM MessageFrame
 * (optionally inside 1609.2 unsecuredData). */
static int send_bsms(struct sender *s, const struct send_opts *o)
{
	struct v2x_bsm_fields bsm = {.size = sizeof(bsm)};
	v2x_bsm_fields_init(&bsm);
	const uint8_t *id = o->has_id ? o->id : s->info.mac + 2;
	bsm.temp_id = (uint32_t)id[0] << 24 | (uint32_t)id[1] << 16 | (uint32_t)id[2] << 8 | id[3];
	if (o->has_lat)
		bsm.lat = (int32_t)(o->lat * 1e7);
	if (o->has_lon)
		bsm.lon = (int32_t)(o->lon * 1e7);
	if (o->has_speed)
		bsm.speed = (uint16_t)(o->speed / 0.02 + 0.5);
	if (o->has_heading)
		bsm.heading = (uint16_t)(o->heading / 0.0125 + 0.5);
	const struct v2x_wsmp_params wsmp = {.size = sizeof(wsmp), .psid = V2X_PSID_BSM,
					     .dot2_unsecured = o->dot2};
	for (uint8_t cnt = 0;; cnt = (uint8_t)((cnt + 1) % 128)) {
		if (!wait_turn(s))
			return 0;
		bsm.msg_cnt = cnt;
		bsm.sec_mark = sec_mark_now();
		uint8_t mf[64];
		size_t n;
		if (v2x_bsm_build(&bsm, mf, sizeof mf, &n) < 0) {
			fprintf(stderr, "v2xcap send: cannot encode a BSM: a value is out of "
					"range (--lat, --lon, --speed, --heading)\n");
			return -1;
		}
		if (sent(s, v2x_tx_send_wsmp(s->tx, &wsmp, mf, n)) < 0)
			return -1;
		if (o->count && n_sent(s) >= o->count)
			return 0;
	}
}

int cmd_send(const struct v2xcap_command *cmd, int argc, char **argv)
{
	struct send_opts o = {.rate = 10};
	int rc = parse_send_opts(cmd, argc, argv, &o);
	if (rc >= 0)
		return rc;
	struct sender s = {.period_ns = (long)(1e9 / o.rate)};
	if (open_sender(&s, &o) < 0) {
		v2x_tx_close(s.tx);
		return V2XCAP_EXIT_FAILURE;
	}
	/* Signals stay pending and are polled between frames, so a frame is never cut. */
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	clock_gettime(CLOCK_MONOTONIC, &s.next);
	rc = o.bsm ? send_bsms(&s, &o) : o.json ? send_json(&s, &o) : replay_file(&s, &o);
	fprintf(stderr, "v2xcap send: %s: %llu frames sent\n", o.iface,
		(unsigned long long)n_sent(&s));
	v2x_tx_close(s.tx);
	return rc < 0 ? V2XCAP_EXIT_FAILURE : V2XCAP_EXIT_OK;
}
