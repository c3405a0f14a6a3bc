/* `v2xcap send`: transmit WSMP on an OCB netdev through an AF_PACKET raw socket
 * (EtherType 0x88DC, broadcast): the WSMP frames of a capture, or BSMs we encode. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <linux/if_packet.h>
#include <linux/nl80211.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bsm.h"
#include "capfile.h"
#include "cli.h"
#include "ieee80211.h"
#include "frame.h"
#include "frame_write.h"
#include <v2x/ocb.h>
#include "psid.h"
#include "registry.h"

const char cmd_send_options[] =
	"  FILE        replay the WSMP of every WSMP frame in a capture (any link type)\n"
	"  --bsm       send BasicSafetyMessages (J2735, WSMP v3 PSID 0x20): msgCnt\n"
	"              increments (mod 128), secMark is the clock's millisecond within the\n"
	"              minute, the fields not given are sent unavailable\n"
	"  --id HEX    TemporaryID, 8 hex digits (default: the last 4 octets of the MAC)\n"
	"  --dot2      wrap the BSM in IEEE 1609.2 unsecuredData\n"
	"  --rate HZ   frames per second (default 10);  --loop: replay FILE until stopped\n"
	"  --count N   stop after N frames\n"
	"  --psid HEX  FILE: the PSID of messages that came without WSMP and name none (bare\n"
	"              J2735 in UDP, log records); an RSU record's or 1609.2's own comes first\n"
	"  --force     send on an interface that is not an OCB interface on a channel (a\n"
	"              loopback, Ethernet, a monitor vif): refused otherwise\n"
	"IFACE is an OCB netdev ('v2xcap ocb join'); needs CAP_NET_RAW. SIGINT/SIGTERM stop.\n";

struct send_opts {
	const char *iface, *file;
	bool bsm, loop, dot2, has_id, force;
	double rate;
	uint64_t count;
	uint8_t id[4];
	double lat, lon, speed, heading;
	bool has_lat, has_lon, has_speed, has_heading;
	bool has_psid;
	uint32_t psid;
};

/* The link: an AF_PACKET raw socket, and the Ethernet header every frame starts with. */
struct sender {
	int fd;
	struct sockaddr_ll to;
	uint8_t mac[6];
	struct timespec next; /* CLOCK_MONOTONIC time of the next frame */
	long period_ns;
	uint64_t sent;
	struct v2x_buf frame, wsm, dot2, mf; /* reused from frame to frame */
};

enum { MAX_FRAME = 2304 };

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
	if (o->bsm == (o->file != NULL))
		return v2xcap_cli_usage_error(cmd, "give a capture FILE or --bsm (one of them)");
	return -1;
}

static int open_sender(struct sender *s, const char *iface)
{
	struct ifreq ifr;
	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", iface);
	s->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0); /* 0: send only */
	if (s->fd < 0) {
		fprintf(stderr, "v2xcap send: AF_PACKET socket: %s%s\n", strerror(errno),
			errno == EPERM ? " (needs root or CAP_NET_RAW)" : "");
		return -1;
	}
	if (ioctl(s->fd, SIOCGIFINDEX, &ifr) < 0) {
		fprintf(stderr, "v2xcap send: %s: %s\n", iface, strerror(errno));
		return -1;
	}
	s->to.sll_family = AF_PACKET;
	s->to.sll_ifindex = ifr.ifr_ifindex;
	s->to.sll_protocol = htons(V2X_ETHERTYPE_WSMP);
	s->to.sll_halen = 6;
	memset(s->to.sll_addr, 0xff, 6);
	if (ioctl(s->fd, SIOCGIFHWADDR, &ifr) < 0) {
		fprintf(stderr, "v2xcap send: %s: %s\n", iface, strerror(errno));
		return -1;
	}
	memcpy(s->mac, ifr.ifr_hwaddr.sa_data, 6);
	return 0;
}

/* Asked without privileges (any socket answers SIOCGIFFLAGS). */
static bool is_loopback(const char *iface)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", iface);
	bool lo = fd >= 0 && ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_LOOPBACK);
	if (fd >= 0)
		close(fd);
	return lo;
}

/* Whether IFACE is what send is for, an OCB interface on a channel (a frame sent
 * anywhere else does not go on the air as 802.11p, or not at all), said before anything
 * is sent: the channel and rates of an OCB interface, or why another one is refused
 * (sent on with --force, with a warning). 0 to send, -1 refused. */
static int check_interface(const struct send_opts *o)
{
	char why[640] = "", errbuf[V2X_ERRBUF_SIZE];
	struct v2x_ocb_status iface = {.size = sizeof(iface)};
	struct v2x_ocb *oc = NULL;
	if (if_nametoindex(o->iface) == 0) {
		fprintf(stderr, "v2xcap send: %s: %s\n", o->iface, strerror(errno));
		return -1;
	}
	if (is_loopback(o->iface))
		snprintf(why, sizeof why, "a loopback interface: the frames stay on this host");
	else if (!(oc = v2x_ocb_open(errbuf)))
		snprintf(why, sizeof why, "not known to be an OCB interface (%s)", errbuf);
	else if (v2x_ocb_status(oc, o->iface, &iface) < 0)
		snprintf(why, sizeof why, "not a wireless interface (%s): frames would go out as "
			 "Ethernet", v2x_ocb_geterr(oc));
	else if (iface.iftype == NL80211_IFTYPE_MONITOR)
		snprintf(why, sizeof why, "a monitor interface: send writes the Ethernet frames of "
			 "an OCB interface; use the OCB interface of phy%u", iface.phy);
	else if (iface.iftype != NL80211_IFTYPE_OCB)
		snprintf(why, sizeof why, "a %s interface, not OCB: 'v2xcap ocb join %s CHANNEL' "
			 "first", iface.iftype_name, o->iface);
	else if (!iface.freq_mhz)
		snprintf(why, sizeof why, "in OCB mode but on no channel: 'v2xcap ocb join %s "
			 "CHANNEL' first", o->iface);
	v2x_ocb_close(oc);
	if (why[0] && !o->force) {
		fprintf(stderr, "v2xcap send: %s is %s. Refused (--force sends anyway).\n",
			o->iface, why);
		return -1;
	}
	if (why[0]) {
		fprintf(stderr, "v2xcap send: %s is %s; sending anyway (--force), %g frames/s\n",
			o->iface, why, o->rate);
		return 0;
	}
	/* mac80211 sends OCB broadcasts at the lowest basic rate: 6 Mb/s on 20 MHz, scaled
	 * with the width (3 Mb/s on the 10 MHz ITS channels). */
	fprintf(stderr, "v2xcap send: %s: OCB on %u MHz (channel %u), %u MHz wide, broadcast "
		"at the lowest basic rate (%g Mb/s); %g frames/s\n", o->iface, iface.freq_mhz,
		v2x_5ghz_channel(iface.freq_mhz), iface.width_mhz, 6.0 * iface.width_mhz / 20,
		o->rate);
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

/* Sends one WSMP (the payload of an Ethernet frame to the broadcast address). */
static int send_wsmp(struct sender *s, const uint8_t *wsmp, size_t len)
{
	struct v2x_link_spec link = {.linktype = V2X_LINK_ETHERNET};
	memcpy(link.src, s->mac, 6);
	if (len > MAX_FRAME - 14) {
		fprintf(stderr, "v2xcap send: a WSMP of %zu octets is too long, skipped\n", len);
		return 0;
	}
	v2x_buf_reset(&s->frame);
	v2x_link_write(&s->frame, &link, V2X_ETHERTYPE_WSMP, wsmp, len);
	if (s->frame.err) {
		fprintf(stderr, "v2xcap send: out of memory\n");
		return -1;
	}
	if (sendto(s->fd, s->frame.p, s->frame.len, 0, (const struct sockaddr *)&s->to,
		   sizeof s->to) < 0) {
		fprintf(stderr, "v2xcap send: sendto: %s%s\n", strerror(errno),
			errno == ENETDOWN ? " (is the interface up and joined? v2xcap ocb join)"
					  : "");
		return -1;
	}
	s->sent++;
	return 0;
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
		struct v2x_wsmp_spec wsmp = {.version = 3, .length = -1};
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
			const uint8_t *wsm;
			size_t wsm_len;
			if (f.has_wsmp && f.layer >= V2X_LAYER_WSMP && !f.wsmp.truncated) {
				wsm = f.wsmp.payload - f.wsmp.hdr_len;
				wsm_len = f.wsmp.hdr_len + f.wsmp.length;
			} else if (!f.has_wsmp && f.msg_len && message_psid(&f, o, &wsmp.psid)) {
				/* a message without WSMP: in a WSM of its PSID, as an RSU sends it */
				v2x_buf_reset(&s->wsm);
				v2x_wsmp_write(&s->wsm, &wsmp, f.msg, f.msg_len);
				wsm = s->wsm.p;
				wsm_len = s->wsm.len;
			} else {
				no_psid += !f.has_wsmp && f.msg_len;
				continue;
			}
			found++;
			if (!wait_turn(s) || send_wsmp(s, wsm, wsm_len) < 0 ||
			    (o->count && s->sent >= o->count)) {
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
	struct v2x_bsm_core bsm;
	v2x_bsm_core_unavailable(&bsm);
	const uint8_t *id = o->has_id ? o->id : s->mac + 2;
	bsm.id = (uint32_t)id[0] << 24 | (uint32_t)id[1] << 16 | (uint32_t)id[2] << 8 | id[3];
	if (o->has_lat)
		bsm.lat = (int32_t)(o->lat * 1e7);
	if (o->has_lon)
		bsm.lon = (int32_t)(o->lon * 1e7);
	if (o->has_speed)
		bsm.speed = (uint16_t)(o->speed / 0.02 + 0.5);
	if (o->has_heading)
		bsm.heading = (uint16_t)(o->heading / 0.0125 + 0.5);
	const struct v2x_wsmp_spec wsmp = {.version = 3, .psid = V2X_PSID_BSM, .length = -1};
	const struct v2x_dot2_spec dot2 = {.content = V2X_DOT2_UNSECURED};
	for (uint8_t cnt = 0;; cnt = (uint8_t)((cnt + 1) % 128)) {
		if (!wait_turn(s))
			return 0;
		bsm.msg_cnt = cnt;
		bsm.sec_mark = sec_mark_now();
		v2x_buf_reset(&s->mf);
		if (v2x_bsm_frame_write(&s->mf, &bsm) < 0) {
			fprintf(stderr, "v2xcap send: cannot encode a BSM: a value is out of "
					"range (--lat, --lon, --speed, --heading)\n");
			return -1;
		}
		const struct v2x_buf *payload = &s->mf;
		if (o->dot2) {
			v2x_buf_reset(&s->dot2);
			v2x_dot2_write(&s->dot2, &dot2, s->mf.p, s->mf.len);
			payload = &s->dot2;
		}
		v2x_buf_reset(&s->wsm);
		v2x_wsmp_write(&s->wsm, &wsmp, payload->p, payload->len);
		if (s->wsm.err) {
			fprintf(stderr, "v2xcap send: out of memory\n");
			return -1;
		}
		if (send_wsmp(s, s->wsm.p, s->wsm.len) < 0)
			return -1;
		if (o->count && s->sent >= o->count)
			return 0;
	}
}

int cmd_send(const struct v2xcap_command *cmd, int argc, char **argv)
{
	struct send_opts o = {.rate = 10};
	int rc = parse_send_opts(cmd, argc, argv, &o);
	if (rc >= 0)
		return rc;
	struct sender s = {.fd = -1, .period_ns = (long)(1e9 / o.rate)};
	if (check_interface(&o) < 0 || open_sender(&s, o.iface) < 0) {
		if (s.fd >= 0)
			close(s.fd);
		return V2XCAP_EXIT_FAILURE;
	}
	/* Signals stay pending and are polled between frames, so a frame is never cut. */
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	clock_gettime(CLOCK_MONOTONIC, &s.next);
	rc = o.bsm ? send_bsms(&s, &o) : replay_file(&s, &o);
	fprintf(stderr, "v2xcap send: %s: %llu frames sent\n", o.iface,
		(unsigned long long)s.sent);
	close(s.fd);
	v2x_buf_free(&s.frame);
	v2x_buf_free(&s.wsm);
	v2x_buf_free(&s.dot2);
	v2x_buf_free(&s.mf);
	return rc < 0 ? V2XCAP_EXIT_FAILURE : V2XCAP_EXIT_OK;
}
