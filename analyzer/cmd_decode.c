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
#include "decode.h"
#include "decode_parallel.h"
#include "decode_hex.h"
#include "frame.h"
#include "j2735dec.h"
#include "json.h"
#include "progress.h"
#include "registry.h"
#include "read_errors.h"
#include "sink.h"

/* j2735dec's tree straight into the JSON writer */
static void on_key(void *w, const char *name) { json_key(w, name); }
static void on_integer(void *w, long long v) { json_int(w, v); }
static void on_text(void *w, const char *s, size_t len) { json_string_len(w, s, len); }
static void on_octets(void *w, const uint8_t *p, size_t len) { json_hex(w, p, len); }
static void on_boolean(void *w, bool v) { json_bool(w, v); }
static void on_null(void *w) { json_null(w); }

static void on_open(void *w, bool array)
{
	if (array)
		json_begin_array(w);
	else
		json_begin_object(w);
}

static void on_close(void *w, bool array)
{
	if (array)
		json_end_array(w);
	else
		json_end_object(w);
}

static const struct j2735dec_visitor to_json = {
	on_key, on_open, on_close, on_integer, on_text, on_octets, on_boolean, on_null,
};

/* A log record's metadata in J2735 units, as in the file (lib/wydot.h). */
static void write_wydot(struct json_writer *w, const struct v2x_wydot_rec *r)
{
	json_string_field(w, "wydot_record", v2x_wydot_kind_name(r->kind));
	if (r->has_source) {
		json_uint_field(w, "wydot_source", r->source);
	}
	if (r->has_location) {
		const struct { const char *key; long long v; } loc[] = {
			{"latitude", r->latitude}, {"longitude", r->longitude},
			{"elevation", r->elevation}, {"speed", r->speed}, {"heading", r->heading},
		};
		for (size_t i = 0; i < sizeof(loc) / sizeof(loc[0]); i++) {
			json_key(w, loc[i].key);
			json_int(w, loc[i].v);
		}
	}
	if (r->has_intersection) {
		json_int_field(w, "intersection_id", r->intersection_id);
	}
	if (r->has_verification) {
		json_int_field(w, "security_result_code", r->verification);
	}
}

/* An RSU text record's lines (lib/rsu.h) but its payload: numbers as numbers (the PSID
 * as its value), the rest as the record writes them. */
static void write_rsu(struct json_writer *w, const struct v2x_rsu_rec *r)
{
	static const char *const keys[V2X_RSU_KEY_COUNT] = {
		"version", "type", "psid", "priority", "tx_mode", "tx_channel", "tx_interval",
		"delivery_start", "delivery_stop", "signature", "encryption", NULL,
	};
	json_key(w, "rsu_record");
	json_begin_object(w);
	for (int k = 0; k < V2X_RSU_KEY_COUNT; k++) {
		const struct v2x_rsu_span *s = &r->field[k];
		if (!keys[k] || !s->present)
			continue;
		json_key(w, keys[k]);
		if (k == V2X_RSU_PSID)
			json_uint(w, r->psid);
		else if (k == V2X_RSU_TXCHANNEL && r->has_channel)
			json_uint(w, r->channel);
		else if (k == V2X_RSU_PRIORITY && r->has_priority)
			json_uint(w, r->priority);
		else if (k == V2X_RSU_TXINTERVAL && r->has_interval)
			json_uint(w, r->interval);
		else
			json_string_len(w, (const char *)r->text + s->off, s->len);
	}
	json_end_object(w);
}

static void write_link(struct json_writer *w, const struct v2x_frame *f)
{
	json_key(w, "link");
	json_begin_object(w);
	if (f->rt.has_channel) {
		json_uint_field(w, "channel_mhz", f->rt.freq);
	}
	if (f->rt.has_signal) {
		json_int_field(w, "rssi_dbm", f->rt.signal_dbm);
	}
	if (f->has_src) {
		json_key(w, "src");
		json_mac(w, f->src);
		json_key(w, "dst");
		json_mac(w, f->dst);
	}
	if (f->encap != V2X_ENCAP_NONE) {
		json_string_field(w, "encapsulation", v2x_encap_name(f->encap));
		json_uint_field(w, "udp_port", f->udp_dst_port);
	}
	if (f->has_wydot)
		write_wydot(w, &f->wydot);
	if (f->has_rsu)
		write_rsu(w, &f->rsu);
	json_end_object(w);
}

static void write_wave_ext(struct json_writer *w, const struct v2x_wave_ext *e)
{
	const char *name = v2x_wave_element_name(e->id);
	json_begin_object(w);
	json_uint_field(w, "id", e->id);
	if (name) {
		json_string_field(w, "name", name);
	}
	json_key(w, e->known ? "value" : "octets");
	if (e->known)
		json_int(w, e->number);
	else
		json_hex(w, e->value, e->len);
	json_end_object(w);
}

static void write_wsmp(struct json_writer *w, const struct v2x_wsmp *ws)
{
	json_key(w, "wsmp");
	json_begin_object(w);
	json_uint_field(w, "version", ws->version);
	if (ws->version == 3) {
		json_uint_field(w, "tpid", ws->tpid);
	}
	if (ws->has_psid) {
		json_uint_field(w, "psid", ws->psid);
		const char *name = v2x_psid_name(ws->psid);
		if (name) {
			json_string_field(w, "psid_name", name);
		}
	}
	if (ws->has_lpp) {
		json_uint_field(w, "lpp", ws->lpp);
	}
	if (ws->has_ports) {
		json_uint_field(w, "src_port", ws->src_port);
		json_uint_field(w, "dst_port", ws->dst_port);
	}
	if (ws->n_ext) {
		json_key(w, "extensions");
		json_begin_array(w);
		for (unsigned i = 0; i < ws->n_ext; i++)
			write_wave_ext(w, &ws->ext[i]);
		json_end_array(w);
	}
	if (ws->n_text) {
		json_key(w, "t_extensions");
		json_begin_array(w);
		for (unsigned i = 0; i < ws->n_text; i++)
			write_wave_ext(w, &ws->text[i]);
		json_end_array(w);
	}
	json_uint_field(w, "length", ws->length);
	json_end_object(w);
}

void decode_write_dot2(struct json_writer *w, const struct v2x_dot2 *d)
{
	json_key(w, "ieee1609dot2");
	json_begin_object(w);
	json_string_field(w, "content", v2x_dot2_content_name(d->content));
	if (d->has_psid) {
		json_uint_field(w, "psid", d->psid);
	}
	if (d->has_generation_time) {
		json_uint_field(w, "generation_time", d->generation_time);
	}
	json_end_object(w);
}

/* The "j2735" member; false when the message is malformed (*why says how). Octets after
 * the MessageFrame are counted ("trailing_octets"), with V2XCAP_DECODE_OCTETS shown too. */
bool decode_write_j2735(struct json_writer *w, const struct v2x_frame *f, unsigned flags,
			const char **why)
{
	const struct v2x_msgid *id = v2x_msgid_lookup(f->mf.msg_id);
	struct j2735dec_msg msg;
	enum j2735dec_result r = j2735dec_decode(f->j2735, f->j2735_len, &msg);
	json_key(w, "j2735");
	json_begin_object(w);
	json_uint_field(w, "messageId", f->mf.msg_id);
	if (id) {
		json_string_field(w, "name", id->abbrev);
	}
	if (flags & V2XCAP_DECODE_OCTETS) {
		size_t n;
		const uint8_t *octets = v2x_frame_message(f, &n);
		json_key(w, "octets");
		json_hex(w, octets, n);
	}
	if (f->mf.trailing) {
		json_uint_field(w, "trailing_octets", f->mf.trailing);
		if (flags & V2XCAP_DECODE_OCTETS) {
			json_key(w, "trailing");
			json_hex(w, f->j2735 + f->mf.frame_len, f->mf.trailing);
		}
	}
	if (r == J2735DEC_OK) {
		json_key(w, "value");
		j2735dec_walk(&msg, &to_json, w);
	} else if (r != J2735DEC_NO_DECODER) {
		/* An id the edition lacks or holds as a placeholder is a note, not an error. */
		json_key(w, r == J2735DEC_MALFORMED ? "error" : "note");
		json_string(w, j2735dec_result_str(r));
	}
	json_end_object(w);
	j2735dec_free(&msg);
	*why = j2735dec_result_str(r);
	return r != J2735DEC_MALFORMED;
}

/* Before a message on stderr, what precedes it on stdout. */
static void flush_output(void *w)
{
	json_flush(w);
	fflush(stdout);
}

void v2xcap_decode_frame(struct json_writer *w, const struct v2x_capframe *fr,
		      unsigned flags, struct v2xcap_decoded *d)
{
	struct v2x_frame f;
	int r = v2x_frame_parse(fr->linktype, fr->data, fr->caplen, &f);
	*d = (struct v2xcap_decoded){0};
	if (f.layer == V2X_LAYER_J2735 && f.has_j2735) {
		json_begin_object(w);
		json_string_field(w, "file", fr->file);
		json_uint_field(w, "frame", fr->number);
		json_double_field(w, "time", (double)fr->ts_ns / 1e9, 6);
		if (r < 0) {
			char buf[160];
			snprintf(buf, sizeof buf, "%s: %s", v2x_layer_name(f.error_layer), f.error);
			json_string_field(w, "error", buf);
		}
		write_link(w, &f);
		if (f.has_wsmp)
			write_wsmp(w, &f.wsmp);
		if (f.has_dot2)
			decode_write_dot2(w, &f.dot2);
		const char *why;
		if (!decode_write_j2735(w, &f, flags, &why)) {
			d->layer = v2x_layer_name(V2X_LAYER_J2735);
			d->why = why;
		}
		json_end_object(w);
		json_end_line(w);
		struct v2x_bsm_head h;
		d->has_json = true;
		d->msg_id = f.mf.msg_id;
		d->has_bsm_id = f.mf.msg_id == V2X_BSM_MSG_ID &&
				v2x_bsm_head_read(f.mf.value, f.mf.value_len, &h) == 0;
		d->bsm_id = d->has_bsm_id ? h.id : 0;
	}
	if (r < 0) { /* the frame's error first, as the line's "error" says */
		d->layer = v2x_layer_name(f.error_layer);
		d->why = f.error;
	}
	d->has_src = f.has_src;
	memcpy(d->src, f.src, sizeof(d->src));
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
		case 'O': o->decode_flags |= V2XCAP_DECODE_OCTETS; break;
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
			struct v2xcap_decoded d;
			v2xcap_decode_frame(&w, &fr, flags, &d);
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
