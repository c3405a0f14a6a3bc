/* `v2xcap ocb`: bring an 802.11p radio onto a 5.9 GHz channel in OCB mode (join, leave),
 * add a radiotap monitor vif, show the state; kernel errors come with a hint. The work is
 * libv2x's (<v2x/ocb.h>): this is the command line and what it prints. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <v2x/ocb.h>

#include "cli.h"
#include "ieee80211.h"

struct ocb_opts;

/* An ocb subcommand; its synopsis is in main.c's table, its help in cmd_ocb_options. */
struct ocb_sub {
	const char *name;
	int min_pos, max_pos; /* positional arguments */
	int (*run)(struct v2x_ocb *oc, const struct ocb_opts *o);
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

/* A refused request: libv2x's message (what, which interface, the system's and the
 * kernel's words) and its hint. */
static int fail(struct v2x_ocb *o)
{
	fprintf(stderr, "v2xcap ocb: %s\n", v2x_ocb_geterr(o));
	if (v2x_ocb_gethint(o)[0])
		fprintf(stderr, "  hint: %s\n", v2x_ocb_gethint(o));
	return V2XCAP_EXIT_FAILURE;
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

static int ocb_join(struct v2x_ocb *oc, const struct ocb_opts *o)
{
	uint32_t freq = parse_freq(o->pos[1]);
	int rc = v2x_ocb_join(oc, o->pos[0], freq, o->width);
	if (rc < 0)
		return fail(oc);
	printf("%s: %s OCB on %u MHz (channel %u), %u MHz wide\n", o->pos[0],
	       rc == 1 ? "already in" : "joined", freq, v2x_5ghz_channel(freq), o->width);
	return V2XCAP_EXIT_OK;
}

static int ocb_leave(struct v2x_ocb *oc, const struct ocb_opts *o)
{
	int rc = v2x_ocb_leave(oc, o->pos[0]);
	if (rc < 0)
		return fail(oc);
	printf("%s: %s\n", o->pos[0], rc == 1 ? "not in an OCB channel" : "left OCB");
	return V2XCAP_EXIT_OK;
}

static int ocb_monitor(struct v2x_ocb *oc, const struct ocb_opts *o)
{
	struct v2x_ocb_status st = {.size = sizeof(st)};
	if (v2x_ocb_monitor_add(oc, o->pos[0], o->name) < 0 ||
	    v2x_ocb_status(oc, o->name, &st) < 0)
		return fail(oc);
	printf("%s: radiotap monitor on phy%u (beside %s)\n", o->name, st.phy, o->pos[0]);
	return V2XCAP_EXIT_OK;
}

static int print_status(const struct v2x_ocb_status *s, void *ctx)
{
	(void)ctx;
	printf("%s: phy%u, type %s, mac %02x:%02x:%02x:%02x:%02x:%02x", s->ifname, s->phy,
	       s->iftype_name, s->mac[0], s->mac[1], s->mac[2], s->mac[3], s->mac[4], s->mac[5]);
	if (s->freq_mhz)
		printf(", %u MHz (channel %u), width %u MHz", s->freq_mhz,
		       v2x_5ghz_channel(s->freq_mhz), s->width_mhz);
	else
		printf(", no channel");
	putchar('\n');
	if (!s->phy_known) {
		printf("  phy%u: its capabilities could not be read\n", s->phy);
		return 0;
	}
	printf("  phy%u: OCB %s, monitor %s, 5 MHz %s, 10 MHz %s\n", s->phy,
	       s->ocb_supported ? "supported" : "NOT supported",
	       s->monitor_supported ? "supported" : "NOT supported",
	       s->width5_supported ? "supported" : "not reported",
	       s->width10_supported ? "supported" : "not reported");
	if (s->chan_found)
		printf("  %u MHz: %s%s%s%s, max %.2f dBm\n", s->freq_mhz,
		       s->chan_disabled ? "DISABLED by the regulatory domain" : "enabled",
		       s->chan_no_ir ? ", no-IR" : "", s->chan_no_10mhz ? ", no 10 MHz" : "",
		       s->chan_no_20mhz ? ", no 20 MHz" : "", s->chan_max_power_mbm / 100.0);
	return 0;
}

static int count_status(const struct v2x_ocb_status *s, void *ctx)
{
	++*(size_t *)ctx;
	return print_status(s, NULL);
}

static int ocb_status(struct v2x_ocb *oc, const struct ocb_opts *o)
{
	if (o->n_pos == 0) {
		size_t n = 0;
		if (v2x_ocb_list(oc, count_status, &n) < 0)
			return fail(oc);
		if (n == 0)
			printf("no wireless interfaces\n");
		return V2XCAP_EXIT_OK;
	}
	struct v2x_ocb_status st = {.size = sizeof(st)};
	if (v2x_ocb_status(oc, o->pos[0], &st) < 0)
		return fail(oc);
	print_status(&st, NULL);
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
		char errbuf[V2X_ERRBUF_SIZE];
		struct v2x_ocb *oc = v2x_ocb_open(errbuf);
		if (!oc) {
			fprintf(stderr, "v2xcap ocb: %s\n", errbuf);
			return V2XCAP_EXIT_FAILURE;
		}
		rc = ocb_subs[i].run(oc, &o);
		v2x_ocb_close(oc);
		return rc;
	}
	return v2xcap_cli_usage_error(cmd, "unknown subcommand '%s'", argv[1]);
}
