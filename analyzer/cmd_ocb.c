/* `v2xcap ocb`: bring an 802.11p radio onto a 5.9 GHz channel in OCB mode (join, leave),
 * add a radiotap monitor vif, show the state; kernel errors come with a hint. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <linux/nl80211.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "ieee80211.h"
#include "nl80211.h"

struct ocb_opts;

/* An ocb subcommand; its synopsis is in main.c's table, its help in cmd_ocb_options. */
struct ocb_sub {
	const char *name;
	int min_pos, max_pos; /* positional arguments */
	int (*run)(struct v2xcap_nl *nl, const struct ocb_opts *o);
};

const char cmd_ocb_options[] =
	"  join     put IFACE in OCB mode on a channel (--width: MHz, default 10)\n"
	"  leave    leave the OCB channel\n"
	"  monitor  add a radiotap monitor vif on IFACE's phy (--name: default mon0)\n"
	"  status   phy, mode, channel, width, capabilities, regulatory state\n"
	"FREQ in MHz (e.g. 5890) or an ITS channel number 172-184 (freq = 5000 + 5 * ch).\n"
	"Needs CAP_NET_ADMIN (root, or: setcap cap_net_admin+ep $(command -v v2xcap)).\n";

/* "5890" (MHz) or "178" (channel 172-184). 0 when not understood. */
static uint32_t parse_freq(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (*end || end == s)
		return 0;
	if (v >= 172 && v <= 184)
		return v2x_5ghz_mhz((unsigned)v);
	return v >= 2400 && v <= 7200 ? (uint32_t)v : 0;
}

/* Why a join narrower than 20 MHz failed, from what the phy and the channel report;
 * written to buf, which is returned. */
static const char *narrow_width_hint(const struct v2xcap_nl_wiphy *w, unsigned width,
				     char *buf, size_t len)
{
	if (width == 10 && w->chan.no_10mhz)
		return "the regulatory domain does not allow 10 MHz on this channel: retry with "
		       "--width 20, or use a domain that allows it";
	struct utsname u;
	const char *release = uname(&u) == 0 ? u.release : "?";
	if (!(width == 5 ? w->supports_5mhz : w->supports_10mhz))
		/* A 20 MHz radio does not hear 10 MHz ITS-G5/DSRC stations: say so. */
		snprintf(buf, len,
			 "phy%u offers no %u MHz channels (kernel %s): its driver lacks them, or "
			 "the kernel is one from 2026 on (Linux removed 5 and 10 MHz channels). "
			 "Retry with --width 20 (such a radio does not hear stations on 10 MHz "
			 "channels), or use an older kernel with an 802.11p-capable driver",
			 w->index, width, release);
	else
		snprintf(buf, len, "phy%u reports %u MHz support, but this kernel (%s) refused "
			 "the channel at %u MHz: retry with --width 20", w->index, width, release,
			 width);
	return buf;
}

/* Why a request failed, in the user's words, from the errno and what the phy reports
 * (NULL when there is nothing to add); buf holds a hint that needs formatting. */
static const char *hint_for(struct v2xcap_nl *nl, const struct v2xcap_nl_error *e,
			    const struct v2xcap_nl_iface *iface, uint32_t freq, unsigned width,
			    char *buf, size_t len)
{
	switch (e->err) {
	case EPERM:
	case EACCES:
		return "needs CAP_NET_ADMIN: run as root (sudo), or give the binary the "
		       "capability: setcap cap_net_admin+ep $(command -v v2xcap)";
	case EOPNOTSUPP:
		return "the driver has no OCB mode: 802.11p needs an OCB-capable driver "
		       "(e.g. ath9k/ath10k with 802.11p support)";
	case EBUSY:
		return "the interface or phy is busy: another interface on this phy may use a "
		       "different channel, or a manager (NetworkManager, wpa_supplicant) "
		       "holds it";
	case ENETDOWN:
		return "the interface is down: 'v2xcap ocb join' brings it up; check rfkill";
	case ENODEV:
		return "no such wireless interface: see 'v2xcap ocb status'";
	case EINVAL:
		break;
	default:
		return NULL;
	}
	if (!freq || !iface)
		return NULL;
	struct v2xcap_nl_wiphy w;
	struct v2xcap_nl_error e2;
	if (v2xcap_nl_get_wiphy(nl, iface->wiphy, freq, &w, &e2) < 0)
		return NULL;
	if (!w.chan.found)
		return "the phy has no channel at this frequency";
	if (w.chan.disabled)
		return "the channel is disabled by the regulatory domain: 5.9 GHz ITS needs a "
		       "domain/regulatory.db that enables it (iw reg set, an 802.11p regdb); "
		       "for mac80211_hwsim load the module with regtest=5";
	if (width < 20)
		return narrow_width_hint(&w, width, buf, len);
	if (!w.supports_ocb)
		return "the driver has no OCB mode";
	return NULL;
}

static int fail(struct v2xcap_nl *nl, const char *what, const char *ifname,
		const struct v2xcap_nl_error *e, const struct v2xcap_nl_iface *iface, uint32_t freq,
		unsigned width)
{
	fprintf(stderr, "v2xcap ocb: %s %s: %s", what, ifname, strerror(e->err));
	if (e->msg[0])
		fprintf(stderr, " (%s)", e->msg);
	fputc('\n', stderr);
	char buf[512];
	const char *hint = hint_for(nl, e, iface, freq, width, buf, sizeof buf);
	if (hint)
		fprintf(stderr, "  hint: %s\n", hint);
	return V2XCAP_EXIT_FAILURE;
}

static int lookup(struct v2xcap_nl *nl, const char *name, struct v2xcap_nl_iface *iface)
{
	uint32_t ifindex;
	struct v2xcap_nl_error e;
	if (v2xcap_nl_ifindex(name, &ifindex, &e) < 0 ||
	    v2xcap_nl_get_interface(nl, ifindex, iface, &e) < 0)
		return fail(nl, "looking up", name, &e, NULL, 0, 0);
	return 0;
}

/* The options of one ocb subcommand. */
struct ocb_opts {
	unsigned width;
	const char *name;
	int n_pos;
	char *pos[2];
};

/* Parsed before any netlink socket is opened, so usage errors are always exit 2; -1 to go
 * on, else the exit code. argv[0] is the subcommand. */
static int parse_opts(const struct v2xcap_command *cmd, int argc, char **argv,
		      struct ocb_opts *o, const struct ocb_sub *sub)
{
	static const struct option longopts[] = {
		{"width", required_argument, NULL, 'w'},
		{"name", required_argument, NULL, 'n'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hw:n:", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			o->width = (unsigned)atoi(optarg);
			if (o->width != 5 && o->width != 10 && o->width != 20)
				return v2xcap_cli_usage_error(cmd, "--width must be 5, 10 or 20");
			break;
		case 'n':
			o->name = optarg;
			break;
		default:
			return v2xcap_cli_other_option(cmd, c, argv);
		}
	}
	o->n_pos = argc - optind;
	if (o->n_pos < sub->min_pos || o->n_pos > sub->max_pos)
		return v2xcap_cli_usage_error(cmd, "%s: wrong number of arguments", sub->name);
	if (strcmp(sub->name, "join") == 0 && !parse_freq(argv[optind + 1]))
		return v2xcap_cli_usage_error(cmd, "join: '%s' is neither a frequency nor an ITS "
					   "channel", argv[optind + 1]);
	for (int i = 0; i < o->n_pos; i++)
		o->pos[i] = argv[optind + i];
	return -1;
}

static int ocb_join(struct v2xcap_nl *nl, const struct ocb_opts *o)
{
	const char *name = o->pos[0];
	uint32_t freq = parse_freq(o->pos[1]);
	struct v2xcap_nl_iface iface;
	int rc;
	if ((rc = lookup(nl, name, &iface)))
		return rc;
	struct v2xcap_nl_error e;
	bool is_ocb = iface.iftype == NL80211_IFTYPE_OCB;
	if (is_ocb && iface.freq == freq && v2xcap_nl_width_mhz(iface.width) == o->width) {
		printf("%s: already in OCB on %u MHz (channel %u), %u MHz wide\n", name, freq,
		       v2x_5ghz_channel(freq), o->width);
		return V2XCAP_EXIT_OK;
	}
	if (is_ocb && iface.freq && v2xcap_nl_leave_ocb(nl, iface.ifindex, &e) < 0)
		return fail(nl, "leaving OCB on", name, &e, &iface, 0, 0);
	if (!is_ocb && (v2xcap_nl_link_set(nl, iface.ifindex, false, &e) < 0 ||
			v2xcap_nl_set_iftype(nl, iface.ifindex, NL80211_IFTYPE_OCB, &e) < 0))
		return fail(nl, "setting OCB mode on", name, &e, &iface, 0, 0);
	if (v2xcap_nl_link_set(nl, iface.ifindex, true, &e) < 0)
		return fail(nl, "bringing up", name, &e, &iface, 0, 0);
	if (v2xcap_nl_join_ocb(nl, iface.ifindex, freq, o->width, &e) < 0)
		return fail(nl, "joining OCB on", name, &e, &iface, freq, o->width);
	printf("%s: joined OCB on %u MHz (channel %u), %u MHz wide\n", name, freq,
	       v2x_5ghz_channel(freq), o->width);
	return V2XCAP_EXIT_OK;
}

static int ocb_leave(struct v2xcap_nl *nl, const struct ocb_opts *o)
{
	struct v2xcap_nl_iface iface;
	int rc;
	if ((rc = lookup(nl, o->pos[0], &iface)))
		return rc;
	struct v2xcap_nl_error e;
	if (iface.iftype != NL80211_IFTYPE_OCB || !iface.freq) {
		printf("%s: not in an OCB channel\n", o->pos[0]);
		return V2XCAP_EXIT_OK;
	}
	if (v2xcap_nl_leave_ocb(nl, iface.ifindex, &e) < 0)
		return fail(nl, "leaving OCB on", o->pos[0], &e, &iface, 0, 0);
	printf("%s: left OCB\n", o->pos[0]);
	return V2XCAP_EXIT_OK;
}

static int ocb_monitor(struct v2xcap_nl *nl, const struct ocb_opts *o)
{
	struct v2xcap_nl_iface iface, mon;
	int rc;
	if ((rc = lookup(nl, o->pos[0], &iface)))
		return rc;
	struct v2xcap_nl_error e;
	uint32_t ifindex;
	if (v2xcap_nl_ifindex(o->name, &ifindex, &e) == 0) {
		/* Idempotent: an existing monitor on the same phy is fine. */
		if (v2xcap_nl_get_interface(nl, ifindex, &mon, &e) < 0 ||
		    mon.iftype != NL80211_IFTYPE_MONITOR || mon.wiphy != iface.wiphy) {
			fprintf(stderr, "v2xcap ocb: %s exists and is not a monitor on phy%u\n",
				o->name, iface.wiphy);
			return V2XCAP_EXIT_FAILURE;
		}
	} else if (v2xcap_nl_new_monitor(nl, iface.wiphy, o->name, &ifindex, &e) < 0) {
		return fail(nl, "creating monitor interface", o->name, &e, &iface, 0, 0);
	}
	if (v2xcap_nl_link_set(nl, ifindex, true, &e) < 0)
		return fail(nl, "bringing up", o->name, &e, &iface, 0, 0);
	printf("%s: radiotap monitor on phy%u (beside %s)\n", o->name, iface.wiphy, o->pos[0]);
	return V2XCAP_EXIT_OK;
}

static void print_status(struct v2xcap_nl *nl, const struct v2xcap_nl_iface *i)
{
	printf("%s: phy%u, type %s, mac %02x:%02x:%02x:%02x:%02x:%02x", i->name, i->wiphy,
	       v2xcap_nl_iftype_name(i->iftype), i->mac[0], i->mac[1], i->mac[2], i->mac[3],
	       i->mac[4], i->mac[5]);
	if (i->freq)
		printf(", %u MHz (channel %u), width %u MHz", i->freq, v2x_5ghz_channel(i->freq),
		       v2xcap_nl_width_mhz(i->width));
	else
		printf(", no channel");
	putchar('\n');
	struct v2xcap_nl_wiphy w;
	struct v2xcap_nl_error e;
	if (v2xcap_nl_get_wiphy(nl, i->wiphy, i->freq, &w, &e) < 0) {
		printf("  phy%u: cannot read capabilities: %s\n", i->wiphy, strerror(e.err));
		return;
	}
	printf("  phy%u: OCB %s, monitor %s, 5 MHz %s, 10 MHz %s\n", i->wiphy,
	       w.supports_ocb ? "supported" : "NOT supported",
	       w.supports_monitor ? "supported" : "NOT supported",
	       w.supports_5mhz ? "supported" : "not reported",
	       w.supports_10mhz ? "supported" : "not reported");
	if (w.chan.found)
		printf("  %u MHz: %s%s%s%s, max %.2f dBm\n", i->freq,
		       w.chan.disabled ? "DISABLED by the regulatory domain" : "enabled",
		       w.chan.no_ir ? ", no-IR" : "", w.chan.no_10mhz ? ", no 10 MHz" : "",
		       w.chan.no_20mhz ? ", no 20 MHz" : "", w.chan.max_power_mbm / 100.0);
}

static int ocb_status(struct v2xcap_nl *nl, const struct ocb_opts *o)
{
	struct v2xcap_nl_error e;
	int rc;
	if (o->n_pos == 0) {
		struct v2xcap_nl_iface all[64];
		size_t n;
		if (v2xcap_nl_list_interfaces(nl, all, sizeof all / sizeof all[0], &n, &e) < 0)
			return fail(nl, "listing", "interfaces", &e, NULL, 0, 0);
		for (size_t i = 0; i < n; i++)
			print_status(nl, &all[i]);
		if (n == 0)
			printf("no wireless interfaces\n");
		return V2XCAP_EXIT_OK;
	}
	struct v2xcap_nl_iface iface;
	if ((rc = lookup(nl, o->pos[0], &iface)))
		return rc;
	print_status(nl, &iface);
	return V2XCAP_EXIT_OK;
}

static const struct ocb_sub ocb_subs[] = {
	{"join", 2, 2, ocb_join},
	{"leave", 1, 1, ocb_leave},
	{"monitor", 1, 1, ocb_monitor},
	{"status", 0, 1, ocb_status},
};

int cmd_ocb(const struct v2xcap_command *cmd, int argc, char **argv)
{
	if (argc < 2)
		return v2xcap_cli_usage_error(cmd, "which subcommand?");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		v2xcap_cli_usage(cmd, stdout);
		return V2XCAP_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof ocb_subs / sizeof ocb_subs[0]; i++) {
		if (strcmp(argv[1], ocb_subs[i].name) != 0)
			continue;
		struct ocb_opts o = {.width = 10, .name = "mon0"};
		int rc = parse_opts(cmd, argc - 1, argv + 1, &o, &ocb_subs[i]);
		if (rc >= 0)
			return rc;
		struct v2xcap_nl nl;
		struct v2xcap_nl_error e;
		if (v2xcap_nl_open(&nl, &e) < 0) {
			fprintf(stderr, "v2xcap ocb: cannot talk to nl80211: %s%s%s\n",
				strerror(e.err), e.msg[0] ? ": " : "", e.msg);
			return V2XCAP_EXIT_FAILURE;
		}
		rc = ocb_subs[i].run(&nl, &o);
		v2xcap_nl_close(&nl);
		return rc;
	}
	return v2xcap_cli_usage_error(cmd, "unknown subcommand '%s'", argv[1]);
}
