/* v2xcap dump: one line per frame with the layers libv2x found, e.g.
 *   12 1.234567 radiotap 5890MHz 6.0Mb/s -60dBm | 802.11 data SNAP 02:00:00:00:00:01 |
 *   WSMP v3 PSID 0x20 len 38 | 1609.2 signed psid 0x20 | J2735 BSM (20) 37 B
 * Malformed frames are marked on their line and reported on stderr (read_errors.h). */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "capfile.h"
#include "cli.h"
#include "frame.h"
#include "registry.h"
#include "read_errors.h"

static const char *link_name(int linktype)
{
	switch (linktype) {
	case V2X_LINK_RADIOTAP:
		return "radiotap";
	case V2X_LINK_IEEE80211:
		return "raw";
	case V2X_LINK_ETHERNET:
		return "Ethernet";
	case V2X_LINK_LINUX_SLL:
		return "SLL";
	case V2X_LINK_LINUX_SLL2:
		return "SLL2";
	case V2X_LINK_WYDOT:
		return "WYDOT-log";
	case V2X_LINK_RSU_TEXT:
		return "RSU-records";
	case V2X_LINK_UPPER_PDU:
		return "exported-PDU";
	default:
		return "?";
	}
}

static void print_mac(const uint8_t a[6])
{
	printf(" %02x:%02x:%02x:%02x:%02x:%02x", a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void print_radiotap(const struct v2x_radiotap *rt)
{
	if (rt->has_channel) {
		printf(" %uMHz", rt->freq);
		if (rt->chan_flags & V2X_RT_CHAN_HALF)
			printf(" half-rate");
		if (rt->chan_flags & V2X_RT_CHAN_QUARTER)
			printf(" quarter-rate");
	}
	if (rt->has_rate)
		printf(" %u.%uMb/s", rt->rate / 2, rt->rate % 2 * 5);
	if (rt->has_signal)
		printf(" %ddBm", rt->signal_dbm);
}

/* " | IPv4 UDP 46800>46800 | udp_j2735 after 4 octets", " | c2p 5860MHz -60dBm": what
 * carried the frame, and a forwarder record's radio values */
static void print_encap(const struct v2x_frame *f)
{
	if (f->ip_version)
		printf(" | IPv%u UDP %u>%u", f->ip_version, f->udp_src_port, f->udp_dst_port);
	if (f->encap <= V2X_ENCAP_UDP)
		return;
	printf(" | %s", v2x_encap_name(f->encap));
	if (f->encap_skipped)
		printf(" after %" PRIu32 " octets", f->encap_skipped);
	if (!f->has_radiotap)
		print_radiotap(&f->rt);
}

static void print_mac_layer(const struct v2x_frame *f)
{
	static const char *const llc[] = {
		[V2X_LLC_NONE] = "", [V2X_LLC_EPD] = " EPD", [V2X_LLC_SNAP] = " SNAP",
		[V2X_LLC_ETHERNET] = "",
	};
	if (f->has_mac) {
		const struct v2x_mac *m = &f->mac;
		if (!m->is_data) {
			printf(" | 802.11 type %u subtype %u", m->type, m->subtype);
			return;
		}
		printf(" | 802.11 %sdata%s%s", m->is_qos ? "QoS " : "",
		       m->is_protected ? " protected" : "", llc[f->llc]);
	}
	if (f->has_src)
		print_mac(f->src);
	if (f->ethertype && f->ethertype != V2X_ETHERTYPE_WSMP && !f->ip_version)
		printf(" | ethertype 0x%04x", f->ethertype);
}

static void print_elements(const struct v2x_wave_ext *e, unsigned n, const char **sep)
{
	for (unsigned i = 0; i < n; i++, *sep = ",") {
		printf("%s%u", *sep, e[i].id);
		if (e[i].known) {
			printf("=%" PRId32, e[i].number);
			continue;
		}
		printf(":");
		for (unsigned k = 0; k < e[i].len; k++)
			printf("%02x", e[i].value[k]);
	}
}

/* "WSMP v3 [TPID n] PSID 0x20|LPP 0x82|ports 4660>1001 [ext 15=172,99:0102] len 40":
 * the TPID when it is not 0, the header elements (N- and T-header) decoded or in hex. */
static void print_wsmp(const struct v2x_wsmp *w)
{
	printf(" | WSMP v%u", w->version);
	if (w->tpid)
		printf(" TPID %u", w->tpid);
	if (w->has_psid)
		printf(" PSID 0x%" PRIx32, w->psid);
	if (w->has_lpp)
		printf(" LPP 0x%" PRIx32, w->lpp);
	if (w->has_ports)
		printf(" ports %u>%u", w->src_port, w->dst_port);
	const char *sep = " ext ";
	print_elements(w->ext, w->n_ext, &sep);
	print_elements(w->text, w->n_text, &sep);
	printf(" len %" PRIu32, w->length);
}

/* A log record's header: kind, source, the unit's position, speed, heading. */
static void print_wydot(const struct v2x_wydot_rec *r)
{
	printf(" %s", v2x_wydot_kind_name(r->kind));
	if (r->has_source)
		printf(" src %u", r->source);
	if (r->has_location)
		printf(" %.7f,%.7f %.2fm/s %.4fdeg", r->latitude / 1e7, r->longitude / 1e7,
		       r->speed * 0.02, r->heading * 0.0125);
	if (r->has_intersection)
		printf(" intersection %d", r->intersection_id);
	if (r->has_verification)
		printf(" security %d", r->verification);
	printf(" len %u", r->payload_len);
}

/* An RSU text record: its Type, PSID and TxChannel */
static void print_rsu(const struct v2x_rsu_rec *r)
{
	const struct v2x_rsu_span *type = &r->field[V2X_RSU_TYPE];
	printf(" | RSU record %.*s psid 0x%" PRIx32, type->present ? (int)type->len : 0,
	       (const char *)r->text + type->off, r->psid);
	if (r->has_channel)
		printf(" channel %u", r->channel);
	printf(" len %u", r->payload_len);
}

static void print_upper(const struct v2x_frame *f)
{
	if (f->has_wydot)
		print_wydot(&f->wydot);
	if (f->has_rsu)
		print_rsu(&f->rsu);
	if (f->has_wsmp && f->layer >= V2X_LAYER_WSMP)
		print_wsmp(&f->wsmp);
	if (f->has_dot2 && f->layer >= V2X_LAYER_DOT2) {
		printf(" | 1609.2 %s", v2x_dot2_content_name(f->dot2.content));
		if (f->dot2.has_psid)
			printf(" psid 0x%" PRIx32, f->dot2.psid);
	}
	/* a MessageFrame cut short still names its type (the error follows on the line) */
	if (f->has_j2735 && f->mf.has_msg_id) {
		const struct v2x_msgid *m = v2x_msgid_lookup(f->mf.msg_id);
		printf(" | J2735 %s (%u) %" PRIu32 " B", m ? m->abbrev : "unknown",
		       f->mf.msg_id, f->mf.value_len);
		if (f->mf.trailing)
			printf(" +%zu octets after the MessageFrame", f->mf.trailing);
	}
}

/* Prints one frame's line; a malformed frame is marked there and reported. */
static void dump_frame(const struct v2x_capframe *fr, int64_t t0, bool with_file,
		       struct v2xcap_readerr *rep)
{
	struct v2x_frame f;
	int r = v2x_frame_parse(fr->linktype, fr->data, fr->caplen, &f);
	int64_t rel = fr->ts_ns - t0;
	uint64_t mag = rel < 0 ? (uint64_t)0 - (uint64_t)rel : (uint64_t)rel;
	if (with_file)
		printf("%s:", fr->file);
	printf("%" PRIu64 " %s%" PRIu64 ".%06" PRIu64 " %s", fr->number, rel < 0 ? "-" : "",
	       mag / 1000000000, mag % 1000000000 / 1000, link_name(fr->linktype));
	if (f.has_radiotap)
		print_radiotap(&f.rt);
	print_encap(&f);
	print_mac_layer(&f);
	print_upper(&f);
	if (r < 0)
		printf(" | malformed %s: %s", v2x_layer_name(f.error_layer), f.error);
	printf("\n");
	if (r < 0)
		v2xcap_readerr_malformed(rep, fr, &f);
}

const char cmd_dump_options[] =
	"Prints the layers found in each frame: link, 802.11, WSMP, IEEE 1609.2, J2735\n"
	"message id. FILE is pcap or pcapng, '-' is stdin; several files are read as one\n"
	"timeline, merged frame by frame by time.\n"
	"  --strict  exit 1 when a frame is malformed (default: marked, reported, exit 0)\n"
	"Exit status: 0 read (malformed frames marked), 1 a file not readable as a capture,\n"
	"2 usage error.\n";

int cmd_dump(const struct v2xcap_command *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"strict", no_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool strict = false;
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (c == 'S')
			strict = true;
		else
			return v2xcap_cli_other_option(cmd, c, argv);
	}
	if (optind == argc)
		return v2xcap_cli_usage_error(cmd, "no capture file given");
	size_t n_files = (size_t)(argc - optind);
	struct v2x_capfile *cf = v2x_capfile_open(argv + optind, n_files);
	if (!cf) {
		fprintf(stderr, "v2xcap dump: out of memory\n");
		return V2XCAP_EXIT_FAILURE;
	}
	struct v2xcap_readerr rep;
	v2xcap_readerr_init(&rep, "dump", NULL, NULL);
	bool have_t0 = false;
	int64_t t0 = 0;
	struct v2x_capframe fr;
	enum v2x_cap_result r;
	while ((r = v2x_capfile_next(cf, &fr)) != V2X_CAP_END) {
		if (r == V2X_CAP_ERROR) {
			v2xcap_readerr_file_error(&rep, v2x_capfile_error(cf));
			continue;
		}
		if (!have_t0) {
			t0 = fr.ts_ns;
			have_t0 = true;
		}
		dump_frame(&fr, t0, n_files > 1, &rep);
	}
	v2x_capfile_close(cf);
	v2xcap_readerr_finish(&rep);
	int rc = v2xcap_readerr_exit_code(&rep, strict);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "v2xcap dump: error writing the output\n");
		rc = V2XCAP_EXIT_FAILURE;
	}
	return rc;
}
