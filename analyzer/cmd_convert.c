/* v2xcap convert: any input v2xcap reads (pcap, pcapng, WYDOT/JPO ODE logs, RSU records)
 * into one pcapng that a stock Wireshark with this project's plugins opens without configuration.
 * Frames of a real link type are copied as they are (one interface per link type); a log
 * record becomes an exported PDU (LINKTYPE_WIRESHARK_UPPER_PDU) naming the plugin's "j2735"
 * dissector, which takes the payload by content (1609.2 or a bare MessageFrame), or the
 * WSMP plugin's "ieee1609dot3" when the record holds a whole WSM, with the
 * record's header (source, position, speed, heading, verification) in the packet's
 * comment and its time as the packet's. An RSU text record becomes an exported PDU for
 * the WSMP plugin's "usdot_rsu" dissector, the record's text as it is. */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "capfile.h"
#include "cli.h"
#include "frame.h"
#include "pcap_write.h"
#include "read_errors.h"

#define SNAPLEN 262144u
#define MAX_IFACES 16 /* link types v2xcap reads, with room */

struct out {
	FILE *f;
	struct v2x_buf buf;
	int linktypes[MAX_IFACES]; /* interface id -> link type */
	unsigned n_ifaces;
};

/* The interface of a link type, its description block written when first needed. */
static uint32_t iface(struct out *o, int linktype)
{
	for (unsigned i = 0; i < o->n_ifaces; i++)
		if (o->linktypes[i] == linktype)
			return i;
	struct v2x_pcap_conf c = {.pcapng = true, .linktype = (uint32_t)linktype,
				  .snaplen = SNAPLEN};
	if (o->n_ifaces == 0)
		v2x_pcap_write_header(&o->buf, &c);
	else
		v2x_pcapng_write_idb(&o->buf, &c);
	o->linktypes[o->n_ifaces] = linktype;
	return o->n_ifaces++;
}

/* The record header in the units of the ODE's JSON (degrees, metres, m/s). */
static void wydot_comment(char *s, size_t n, const struct v2x_wydot_rec *r)
{
	int k = snprintf(s, n, "WYDOT %s", v2x_wydot_kind_name(r->kind));
	if (r->has_source && k >= 0 && (size_t)k < n)
		k += snprintf(s + k, n - (size_t)k, ", %s %u",
			      r->kind == V2X_WYDOT_BSM ? "direction" : "source", r->source);
	if (r->has_location && k >= 0 && (size_t)k < n)
		k += snprintf(s + k, n - (size_t)k,
			      ", latitude %.7f, longitude %.7f, elevation %.1f m, speed %.2f m/s, "
			      "heading %.4f deg", r->latitude / 1e7, r->longitude / 1e7,
			      r->elevation / 10.0, r->speed * 0.02, r->heading * 0.0125);
	if (r->has_intersection && k >= 0 && (size_t)k < n)
		k += snprintf(s + k, n - (size_t)k, ", intersection %d status %d, certificate %s",
			      r->intersection_id, r->intersection_status,
			      r->cert_present ? "present" : "absent");
	if (r->has_verification && k >= 0 && (size_t)k < n)
		snprintf(s + k, n - (size_t)k, ", security result %d", r->verification);
}

static void convert_frame(struct out *o, const struct v2x_capframe *fr,
			  struct v2xcap_readerr *rep)
{
	int64_t ts_us = fr->ts_ns / 1000;
	if (fr->linktype == V2X_LINK_RSU_TEXT) {
		struct v2x_buf pdu = {0};
		v2x_exported_pdu_header(&pdu, "usdot_rsu");
		v2x_put(&pdu, fr->data, fr->caplen);
		uint32_t id = iface(o, V2X_LINK_UPPER_PDU);
		if (!pdu.err)
			v2x_pcapng_write_epb(&o->buf, id, ts_us, pdu.p, (uint32_t)pdu.len,
					     (uint32_t)pdu.len, NULL);
		o->buf.err |= pdu.err;
		v2x_buf_free(&pdu);
		return;
	}
	if (fr->linktype != V2X_LINK_WYDOT) {
		uint32_t id = iface(o, fr->linktype);
		v2x_pcapng_write_epb(&o->buf, id, ts_us, fr->data, fr->caplen, fr->origlen, NULL);
		return;
	}
	struct v2x_frame f;
	if (v2x_frame_parse(fr->linktype, fr->data, fr->caplen, &f) < 0)
		v2xcap_readerr_malformed(rep, fr, &f); /* still written, as it is */
	if (!f.has_wydot)
		return; /* not a record: cannot be, the reader checked each */
	/* A whole WSM (later firmware) to the WSMP plugin, alert texts as text, anything else
	 * to the J2735 plugin, which takes 1609.2 or a MessageFrame by content. */
	const char *dissector = f.has_wsmp ? "ieee1609dot3"
		: f.wydot.kind == V2X_WYDOT_DRIVER_ALERT ? "data-text-lines" : "j2735";
	struct v2x_buf pdu = {0};
	v2x_exported_pdu_header(&pdu, dissector);
	v2x_put(&pdu, f.wydot.payload, f.wydot.payload_len);
	char comment[512];
	wydot_comment(comment, sizeof(comment), &f.wydot);
	uint32_t id = iface(o, V2X_LINK_UPPER_PDU);
	if (!pdu.err)
		v2x_pcapng_write_epb(&o->buf, id, ts_us, pdu.p, (uint32_t)pdu.len,
				     (uint32_t)pdu.len, comment);
	o->buf.err |= pdu.err;
	v2x_buf_free(&pdu);
}

const char cmd_convert_options[] =
	"Writes every frame of the inputs (pcap, pcapng, WYDOT/JPO ODE logs plain or gzip),\n"
	"merged by time, into one pcapng for Wireshark with the v2xcap plugins. Frames keep\n"
	"their link type; a log record is an exported PDU (link type 252) for the plugins'\n"
	"\"j2735\" dissector (1609.2 or J2735 by content), \"ieee1609dot3\" when it holds a\n"
	"whole WSM, \"data-text-lines\" for driver alerts, with the record's position, speed,\n"
	"heading and source in the packet comment, at the record's time; an RSU text record\n"
	"one for the \"usdot_rsu\" dissector (its lines, the payload to J2735).\n"
	"  -o, --output OUT  the pcapng to write ('-' for stdout)\n"
	"Exit status: 0 written, 1 an input not readable or the output not written,\n"
	"2 usage error.\n";

int cmd_convert(const struct v2xcap_command *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *path = NULL;
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		if (c == 'o')
			path = optarg;
		else
			return v2xcap_cli_other_option(cmd, c, argv);
	}
	if (!path)
		return v2xcap_cli_usage_error(cmd, "no output file given (-o OUT.pcapng)");
	if (optind == argc)
		return v2xcap_cli_usage_error(cmd, "no input file given");
	struct out o = {0};
	o.f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
	if (!o.f) {
		fprintf(stderr, "v2xcap convert: %s: cannot create: %m\n", path);
		return V2XCAP_EXIT_FAILURE;
	}
	struct v2x_capfile *cf = v2x_capfile_open(argv + optind, (size_t)(argc - optind));
	if (!cf) {
		fprintf(stderr, "v2xcap convert: out of memory\n");
		return V2XCAP_EXIT_FAILURE;
	}
	struct v2xcap_readerr rep;
	v2xcap_readerr_init(&rep, "convert", NULL, NULL);
	struct v2x_capframe fr;
	enum v2x_cap_result r;
	bool write_failed = false;
	while ((r = v2x_capfile_next(cf, &fr)) != V2X_CAP_END) {
		if (r == V2X_CAP_ERROR) {
			v2xcap_readerr_file_error(&rep, v2x_capfile_error(cf));
			continue;
		}
		convert_frame(&o, &fr, &rep);
		if (o.buf.err || fwrite(o.buf.p, 1, o.buf.len, o.f) != o.buf.len) {
			write_failed = true;
			break;
		}
		v2x_buf_reset(&o.buf);
	}
	v2x_capfile_close(cf);
	v2xcap_readerr_finish(&rep);
	int rc = v2xcap_readerr_exit_code(&rep, false);
	if (o.n_ifaces == 0 && !write_failed) {
		/* No frame at all: still a valid (empty) pcapng. */
		iface(&o, V2X_LINK_UPPER_PDU);
		write_failed = fwrite(o.buf.p, 1, o.buf.len, o.f) != o.buf.len;
	}
	if ((o.f == stdout ? fflush(o.f) : fclose(o.f)) != 0 || write_failed) {
		fprintf(stderr, "v2xcap convert: %s: error writing the output\n", path);
		rc = V2XCAP_EXIT_FAILURE;
	}
	v2x_buf_free(&o.buf);
	return rc;
}
