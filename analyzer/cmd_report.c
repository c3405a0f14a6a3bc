/* v2xcap report / export: reads the captures once into a report (report_collect.c), runs
 * the checks, writes the HTML page, its JSON, or GeoJSON. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capfile.h"
#include "cli.h"
#include "j2735dec.h"
#include "progress.h"
#include "report.h"

enum format { FMT_HTML, FMT_JSON, FMT_GEOJSON };

const char cmd_report_options[] =
	"Judges the captures: BSM conformance per TemporaryID (rate, msgCnt, age, part II),\n"
	"MAP/SPaT consistency, IEEE 1609.2 per PSID and sender (signatures verified with\n"
	"OpenSSL where the capture carries the key), emergency messages first.\n"
	"  -o, --output FILE  write there (default: standard output)\n"
	"  --format F         html (one self-contained page, the default) or json (the findings)\n"
	"  --max-age MS       BSM age beyond which a message is stale (300)\n"
	"  --no-verify        leave 1609.2 signatures unverified (ECDSA: ~50 us a frame)\n"
	"  --rx-pos LAT,LON   the receiver's position (degrees): packet delivery ratio and\n"
	"                     RSSI of the BSMs against their distance (coverage); without\n"
	"                     it, the first MAP intersection's reference point\n"
	"Exit status: 0 report written, 1 a file unreadable or the output failed, 2 usage.\n";

const char cmd_export_options[] =
	"GeoJSON FeatureCollection: sender tracks, MAP lanes, findings with a position.\n"
	"  -o, --output FILE  write there (default: standard output)\n";

/* One pass over the files; false when a file could not be read. */
static bool collect(struct report *r, char **files, size_t n, const char *cmd)
{
	struct v2x_capfile *cf = v2x_capfile_open(files, n);
	if (!cf) {
		fprintf(stderr, "v2xcap %s: out of memory\n", cmd);
		return false;
	}
	bool ok = true;
	struct v2x_capframe fr;
	enum v2x_cap_result res;
	struct v2xcap_progress prog;
	v2xcap_progress_init(&prog);
	while ((res = v2x_capfile_next(cf, &fr)) != V2X_CAP_END) {
		if (res != V2X_CAP_FRAME) {
			fprintf(stderr, "v2xcap %s: %s\n", cmd, v2x_capfile_error(cf));
			ok = false;
			continue;
		}
		struct v2x_frame f;
		v2x_frame_parse(fr.linktype, fr.data, fr.caplen, &f);
		struct rpt_where at = {.frame = fr.number, .ts_us = fr.ts_ns / 1000};
		for (size_t i = 0; i < n; i++)
			if (files[i] == fr.file || strcmp(files[i], fr.file) == 0) {
				at.file = (uint32_t)i;
				break;
			}
		if (rpt_add(r, &at, &f, fr.caplen, fr.origlen) < 0) {
			fprintf(stderr, "v2xcap %s: out of memory\n", cmd);
			ok = false;
			break;
		}
		v2xcap_progress_tick(&prog, cf);
	}
	v2xcap_progress_done(&prog, cf);
	v2x_capfile_close(cf);
	return ok;
}

struct run_opts {
	long max_age;
	bool no_verify;
	bool has_rx;
	double rx_lat, rx_lon;
};

static int run(char **files, size_t n, const char *out_name, enum format fmt,
	       const struct run_opts *o, const char *cmd)
{
	if (!j2735dec_edition())
		fprintf(stderr, "v2xcap %s: built without a J2735 schema: the BSM, MAP and SPaT "
				"checks need it (rebuild with -DJ2735_ASN1_DIR=<dir>)\n", cmd);
	struct report r;
	if (rpt_init(&r, files, n) < 0) {
		fprintf(stderr, "v2xcap %s: out of memory\n", cmd);
		return V2XCAP_EXIT_FAILURE;
	}
	r.max_age_ms = o->max_age;
	r.no_verify = o->no_verify;
	r.has_rx = o->has_rx;
	r.rx_lat = o->rx_lat;
	r.rx_lon = o->rx_lon;
	bool ok = collect(&r, files, n, cmd);
	if (rpt_check_bsm(&r) < 0 || rpt_check_mapspat(&r) < 0 || rpt_check_security(&r) < 0 ||
	    rpt_coverage(&r) < 0) {
		fprintf(stderr, "v2xcap %s: out of memory\n", cmd);
		ok = false;
	}
	rpt_findings_sort(&r.findings);
	FILE *out = out_name ? fopen(out_name, "w") : stdout;
	if (!out) {
		fprintf(stderr, "v2xcap %s: %s: cannot write\n", cmd, out_name);
		rpt_free(&r);
		return V2XCAP_EXIT_FAILURE;
	}
	int rc = fmt == FMT_HTML   ? rpt_write_html(&r, out)
		 : fmt == FMT_JSON ? rpt_write_json(&r, out)
				   : rpt_write_geojson(&r, out);
	if (fflush(out) != 0 || ferror(out) || rc < 0) {
		fprintf(stderr, "v2xcap %s: error writing %s\n", cmd, out_name ? out_name : "output");
		ok = false;
	}
	if (out != stdout)
		fclose(out);
	rpt_free(&r);
	return ok ? V2XCAP_EXIT_OK : V2XCAP_EXIT_FAILURE;
}

int cmd_report(const struct v2xcap_command *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"format", required_argument, NULL, 'f'},
		{"max-age", required_argument, NULL, 'a'},
		{"no-verify", no_argument, NULL, 'n'},
		{"rx-pos", required_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = NULL;
	enum format fmt = FMT_HTML;
	struct run_opts o = {.max_age = 300};
	int c;
	char *end;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "html") == 0)
				fmt = FMT_HTML;
			else if (strcmp(optarg, "json") == 0)
				fmt = FMT_JSON;
			else
				return v2xcap_cli_usage_error(cmd, "unknown format '%s'", optarg);
			break;
		case 'n':
			o.no_verify = true;
			break;
		case 'a':
			o.max_age = strtol(optarg, &end, 10);
			if (*end || end == optarg || o.max_age <= 0)
				return v2xcap_cli_usage_error(cmd, "--max-age wants milliseconds > 0");
			break;
		case 'r':
			o.rx_lat = strtod(optarg, &end);
			if (end != optarg && *end == ',') {
				const char *lon = end + 1;
				o.rx_lon = strtod(lon, &end);
				o.has_rx = end != lon && !*end;
			}
			if (!o.has_rx || !(o.rx_lat >= -90 && o.rx_lat <= 90) ||
			    !(o.rx_lon >= -180 && o.rx_lon <= 180))
				return v2xcap_cli_usage_error(cmd, "--rx-pos wants LAT,LON in degrees");
			break;
		default:
			return v2xcap_cli_other_option(cmd, c, argv);
		}
	}
	if (optind >= argc)
		return v2xcap_cli_usage_error(cmd, "no capture file given");
	return run(argv + optind, (size_t)(argc - optind), out, fmt, &o, "report");
}

int cmd_export(const struct v2xcap_command *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"geojson", no_argument, NULL, 'g'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *out = NULL;
	bool geojson = false;
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 'g')
			geojson = true;
		else
			return v2xcap_cli_other_option(cmd, c, argv);
	}
	if (!geojson)
		return v2xcap_cli_usage_error(cmd, "say which format (--geojson)");
	if (optind >= argc)
		return v2xcap_cli_usage_error(cmd, "no capture file given");
	const struct run_opts o = {.max_age = 300};
	return run(argv + optind, (size_t)(argc - optind), out, FMT_GEOJSON, &o, "export");
}
