/* v2xcap decode: one JSON object per J2735 message (JSON Lines) with its capture time,
 * link-layer info, WSMP header, IEEE 1609.2 summary and the decoded message (j2735dec).
 * Keys (README "JSON keys"): the decoded message keeps J2735's own names ("messageId",
 * "value" and everything below it, as the MessageFrame defines them); v2xcap's own keys
 * are snake_case, with the unit in the name, and the same as in `stats` for the same
 * quantity (channel_mhz, rssi_dbm). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bsm.h"
#include "capfile.h"
#include "cli.h"
#include "decode_line.h"
#include "decode_parallel.h"
#include "decode_hex.h"
#include "frame.h"
#include "j2735dec.h"
#include "json.h"
#include "progress.h"
#include "registry.h"
#include "read_errors.h"
#include "sink.h"

/* Before a message on stderr, what precedes it on stdout. */
static void flush_output(void *w)
{
	json_flush(w);
	fflush(stdout);
}

const char cmd_decode_options[] =
	"Prints one JSON object per J2735 message (JSON Lines): \"file\", \"frame\", \"time\",\n"
	"\"link\" (channel_mhz, rssi_dbm, src, dst), \"wsmp\" header, \"ieee1609dot2\" summary\n"
	"and \"j2735\": {\"messageId\", \"name\", \"value\"} with every field of the message\n"
	"under J2735's own names; \"trailing_octets\" counts octets after the MessageFrame.\n"
	"A malformed frame's line has \"error\"; a message that does not decode has\n"
	"\"j2735\".\"error\". FILE is pcap or pcapng, '-' is stdin.\n"
	"  --strict          exit 1 when a frame is malformed (default: marked, reported,\n"
	"                    exit 0)\n"
	"  -j, --jobs N      decode on N threads (default: the online CPUs); the output is\n"
	"                    the same as with -j 1, in capture order\n"
	V2XCAP_KAFKA_HELP
	"  --hex [FILE|-]    FILE (default stdin) holds one UPER MessageFrame or 1609.2\n"
	"                    message per line in hex; \"frame\" is the line number, no \"link\"\n"
	"  --raw FILE        FILE is one binary MessageFrame or 1609.2 message\n"
	"  --octets          each line also carries the MessageFrame as received, in hex\n"
	"                    (\"j2735\".\"octets\"; octets after it: \"trailing\")\n"
	"  --partition hour -o DIR\n"
	"                    write DIR/type=T/date=YYYY-MM-DD/hour=HH/part-FILE.ndjson.gz\n"
	"                    (Hive-style, one set per input file) and a manifest in\n"
	"                    DIR/_manifests/\n"
	"Exit status: 0 read (malformed frames marked), 1 a file not readable as a capture,\n"
	"the output not written or a record not delivered, 2 usage error.\n";

/* -1 to go on with argv + optind, or the exit code (help, usage error). */
static int parse_args(const struct v2xcap_command *cmd, int argc, char **argv,
		      struct v2xcap_scale_opts *o, bool *strict, bool *hex, bool *raw)
{
	static const struct option longopts[] = {
		{"strict", no_argument, NULL, 'S'},
		{"jobs", required_argument, NULL, 'j'},
		V2XCAP_KAFKA_LONGOPTS,
		{"partition", required_argument, NULL, 'P'},
		{"output", required_argument, NULL, 'o'},
		{"hex", no_argument, NULL, 'x'},
		{"raw", no_argument, NULL, 'r'},
		{"octets", no_argument, NULL, 'O'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hj:o:X:", longopts, NULL)) != -1) {
		int k = v2xcap_kafka_option(cmd, c, optarg, argc, o);
		if (k > 0)
			return k;
		if (k < 0)
			continue;
		switch (c) {
		case 'S': *strict = true; break;
		case 'j':
			if (v2xcap_par_parse_threads(optarg, &o->threads) < 0)
				return v2xcap_cli_usage_error(cmd, "-j wants 1..256 threads, not '%s'",
							   optarg);
			break;
		case 'P':
			if (strcmp(optarg, "hour") != 0)
				return v2xcap_cli_usage_error(cmd, "--partition knows 'hour' only, not '%s'",
							   optarg);
			o->partition = optarg;
			break;
		case 'o': o->out_dir = optarg; break;
		case 'x': *hex = true; break;
		case 'r': *raw = true; break;
		case 'O': o->decode_flags |= V2X_DECODE_OCTETS; break;
		default: return v2xcap_cli_other_option(cmd, c, argv);
		}
	}
	if (o->kafka && o->partition)
		return v2xcap_cli_usage_error(cmd, "--kafka and --partition do not go together");
	int k = v2xcap_kafka_options_check(cmd, o);
	if (k >= 0)
		return k;
	if (!o->partition != !o->out_dir)
		return v2xcap_cli_usage_error(cmd, "--partition hour and -o DIR go together");
	if (*hex || *raw) {
		if (*hex && *raw)
			return v2xcap_cli_usage_error(cmd, "--hex and --raw exclude each other");
		if (argc - optind > 1 || (*raw && optind == argc))
			return v2xcap_cli_usage_error(cmd, *raw ? "--raw takes one FILE"
							      : "--hex takes one FILE or -");
		return -1;
	}
	if (optind == argc)
		return v2xcap_cli_usage_error(cmd, "no capture file given");
	return -1;
}

/* One thread to stdout: the lines as they are decoded (a terminal gets each at once). */
static void decode_sequential(struct v2x_capfile *cf, unsigned flags,
			      struct v2xcap_readerr *rep)
{
	/* Lines are gathered in w and written JSON_BUF_SIZE at a time; stdout is left
	 * unbuffered, as a stdio buffer would only copy them once more. */
	struct json_writer w;
	json_init_held(&w, stdout);
	setvbuf(stdout, NULL, _IONBF, 0);
	bool by_line = isatty(STDOUT_FILENO);
	rep->flush = flush_output;
	rep->ctx = &w;
	struct v2x_capframe fr;
	enum v2x_cap_result r;
	struct v2xcap_progress prog;
	v2xcap_progress_init(&prog);
	while ((r = v2x_capfile_next(cf, &fr)) != V2X_CAP_END) {
		if (r == V2X_CAP_FRAME) {
			struct v2x_decoded d;
			v2x_decode_line(&w, &fr, flags, &d);
			if (d.why)
				v2xcap_readerr_frame(rep, &fr, d.layer, d.why);
			if (by_line)
				json_flush(&w);
			v2xcap_progress_tick(&prog, cf);
			if (ferror(stdout))
				break; /* the output failed: the rest would be lost */
			continue;
		}
		v2xcap_readerr_file_error(rep, v2x_capfile_error(cf));
	}
	flush_output(&w);
	v2xcap_progress_done(&prog, cf);
	rep->flush = NULL;
	rep->ctx = NULL;
}

int cmd_decode(const struct v2xcap_command *cmd, int argc, char **argv)
{
	struct v2xcap_scale_opts so = {.command = "decode",
				       .threads = v2xcap_par_default_threads()};
	bool strict = false, hex = false, raw = false;
	int rc = parse_args(cmd, argc, argv, &so, &strict, &hex, &raw);
	if (rc >= 0) {
		free(so.conf);
		return rc;
	}
	if (hex || raw) {
		free(so.conf);
		return decode_messages(optind < argc ? argv[optind] : "-", raw, strict,
				       so.decode_flags);
	}
	if (!j2735dec_edition())
		fprintf(stderr, "v2xcap decode: built without a J2735 schema: messageId and name "
				"only. For full decoding download the SAE J2735 ASN.1 and rebuild "
				"with -DJ2735_ASN1_DIR=<dir>.\n");
	char **inputs = argv + optind;
	size_t n_inputs = (size_t)(argc - optind);
	struct v2x_capfile *cf = v2x_capfile_open(inputs, n_inputs);
	if (!cf) {
		fprintf(stderr, "v2xcap decode: out of memory\n");
		free(so.conf);
		return V2XCAP_EXIT_FAILURE;
	}
	struct v2xcap_readerr rep;
	v2xcap_readerr_init(&rep, "decode", NULL, NULL);
	bool failed = false;
	if (so.threads > 1 || so.kafka || so.partition)
		failed = v2xcap_decode_scaled(cf, &so, &rep, inputs, n_inputs) < 0;
	else
		decode_sequential(cf, so.decode_flags, &rep);
	v2x_capfile_close(cf);
	free(so.conf);
	v2xcap_readerr_finish(&rep);
	rc = v2xcap_readerr_exit_code(&rep, strict);
	if (!failed && ferror(stdout)) {
		fprintf(stderr, "v2xcap decode: error writing the output\n");
		failed = true;
	}
	return failed ? V2XCAP_EXIT_FAILURE : rc;
}
