/* v2xcap decode: one JSON object per J2735 message (JSON Lines) with its capture time,
 * link-layer info, WSMP header, IEEE 1609.2 summary and the decoded message (j2735dec). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capfile.h"
#include "cli.h"
#include "decode.h"
#include "frame.h"
#include "j2735dec.h"
#include "json.h"
#include "progress.h"
#include "registry.h"
#include "sink.h"
#include "stats.h"

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

static void write_link(struct json_writer *w, const struct v2x_frame *f)
{
	json_key(w, "link");
	json_begin_object(w);
	if (f->has_radiotap && f->rt.has_channel) {
		json_key(w, "freq");
		json_uint(w, f->rt.freq);
	}
	if (f->has_radiotap && f->rt.has_signal) {
		json_key(w, "rssi");
		json_int(w, f->rt.signal_dbm);
	}
	if (f->has_src) {
		json_key(w, "src");
		json_mac(w, f->src);
		json_key(w, "dst");
		json_mac(w, f->dst);
	}
	json_end_object(w);
}

static void write_wave_ext(struct json_writer *w, const struct v2x_wave_ext *e)
{
	const char *name = v2x_wave_element_name(e->id);
	json_begin_object(w);
	json_key(w, "id");
	json_uint(w, e->id);
	if (name) {
		json_key(w, "name");
		json_string(w, name);
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
	json_key(w, "version");
	json_uint(w, ws->version);
	json_key(w, "psid");
	json_uint(w, ws->psid);
	const char *name = v2x_psid_name(ws->psid);
	if (name) {
		json_key(w, "psidName");
		json_string(w, name);
	}
	if (ws->n_ext) {
		json_key(w, "extensions");
		json_begin_array(w);
		for (unsigned i = 0; i < ws->n_ext; i++)
			write_wave_ext(w, &ws->ext[i]);
		json_end_array(w);
	}
	json_key(w, "length");
	json_uint(w, ws->length);
	json_end_object(w);
}

static void write_dot2(struct json_writer *w, const struct v2x_dot2 *d)
{
	json_key(w, "ieee1609dot2");
	json_begin_object(w);
	json_key(w, "content");
	json_string(w, v2x_dot2_content_name(d->content));
	if (d->has_psid) {
		json_key(w, "psid");
		json_uint(w, d->psid);
	}
	if (d->has_generation_time) {
		json_key(w, "generationTime");
		json_uint(w, d->generation_time);
	}
	json_end_object(w);
}

/* The "j2735" member; false when the message is malformed (*why says how). */
static bool write_j2735(struct json_writer *w, const struct v2x_frame *f, const char **why)
{
	const uint8_t *p = f->has_dot2 ? f->dot2.payload : f->wsmp.payload;
	size_t len = f->has_dot2 ? f->dot2.payload_len : f->wsmp.payload_len;
	const struct v2x_msgid *id = v2x_msgid_lookup(f->mf.msg_id);
	struct j2735dec_msg msg;
	enum j2735dec_result r = j2735dec_decode(p, len, &msg);
	json_key(w, "j2735");
	json_begin_object(w);
	json_key(w, "messageId");
	json_uint(w, f->mf.msg_id);
	if (id) {
		json_key(w, "name");
		json_string(w, id->abbrev);
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
static void flush_output(struct json_writer *w)
{
	json_flush(w);
	fflush(stdout);
}

void v2x_decode_frame(struct json_writer *w, const struct v2x_capframe *fr,
		      struct v2x_decoded *d)
{
	struct v2x_frame f;
	int r = v2x_frame_parse(fr->linktype, fr->data, fr->caplen, &f);
	*d = (struct v2x_decoded){.ok = r == 0, .why = r < 0 ? f.error : NULL};
	if (f.layer == V2X_LAYER_J2735 && f.has_j2735) {
		json_begin_object(w);
		json_key(w, "file");
		json_string(w, fr->file);
		json_key(w, "frame");
		json_uint(w, fr->number);
		json_key(w, "time");
		json_double(w, (double)fr->ts_ns / 1e9, 6);
		write_link(w, &f);
		write_wsmp(w, &f.wsmp);
		if (f.has_dot2)
			write_dot2(w, &f.dot2);
		const char *j2735_why;
		if (!write_j2735(w, &f, &j2735_why) && d->ok) {
			d->ok = false;
			d->why = j2735_why;
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
	d->has_src = f.has_src;
	memcpy(d->src, f.src, sizeof(d->src));
}

/* One JSON line for a frame holding a J2735 message; false when something was malformed. */
static bool decode_frame(struct json_writer *w, const struct v2x_capframe *fr)
{
	struct v2x_decoded d;
	v2x_decode_frame(w, fr, &d);
	if (!d.ok) {
		flush_output(w);
		fprintf(stderr, "v2xcap decode: %s: frame %" PRIu64 ": %s\n", fr->file, fr->number,
			d.why);
	}
	return d.ok;
}

static const char usage[] =
	"usage: v2xcap decode [-j N] [--kafka BROKERS [--topic T] [--compression C]\n"
	"                     [-X KEY=VALUE]... | --partition hour -o DIR] [--] FILE...\n"
	"  Print one JSON object per J2735 message (JSON Lines): capture time, link\n"
	"  (freq, rssi, MACs), WSMP header, IEEE 1609.2 summary and \"j2735\":\n"
	"  {\"messageId\", \"name\", \"value\"} with every field of the message.\n"
	"  FILE is pcap or pcapng, '-' is stdin. Exit status: 0 all read, 1 a file\n"
	"  unreadable, a frame malformed (named on stderr) or the output not written,\n"
	"  2 usage error.\n"
	V2X_SCALE_USAGE;

/* The options; -1 to go on with argv + *first, else the exit code. */
static int parse_args(int argc, char **argv, struct v2x_scale_opts *so, int *first)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'}, V2X_SCALE_LONGOPTS, {NULL, 0, NULL, 0},
	};
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h" V2X_SCALE_SHORTOPTS, longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return V2X_EXIT_OK;
		}
		int r = c == '?' || c == ':' ? 1 : v2x_scale_opt(so, c, optarg);
		if (r > 0)
			fprintf(stderr, "v2xcap decode: bad option '%s'\n", argv[optind - 1]);
		if (r != 0)
			return fputs(usage, stderr), V2X_EXIT_USAGE;
	}
	if (v2x_scale_check(so) < 0)
		return fputs(usage, stderr), V2X_EXIT_USAGE;
	if (optind == argc) {
		fprintf(stderr, "v2xcap decode: no capture file given\n%s", usage);
		return V2X_EXIT_USAGE;
	}
	*first = optind;
	return -1;
}

int cmd_decode(int argc, char **argv)
{
	int first;
	struct v2x_scale_opts so;
	v2x_scale_init(&so);
	int rc = parse_args(argc, argv, &so, &first);
	if (rc >= 0) {
		v2x_scale_free(&so);
		return rc;
	}
	if (!j2735dec_edition())
		fprintf(stderr, "v2xcap decode: built without a J2735 schema: messageId and name "
				"only. For full decoding download the SAE J2735 ASN.1 and rebuild "
				"with -DJ2735_ASN1_DIR=<dir>.\n");
	struct v2x_capfile *cf = v2x_capfile_open(argv + first, (size_t)(argc - first));
	if (!cf) {
		fprintf(stderr, "v2xcap decode: out of memory\n");
		v2x_scale_free(&so);
		return V2X_EXIT_RUNTIME;
	}
	if (v2x_scale_wanted(&so)) {
		rc = v2x_decode_scaled(cf, &so, argv + first, (size_t)(argc - first));
		v2x_capfile_close(cf);
		v2x_scale_free(&so);
		return rc;
	}
	v2x_scale_free(&so);
	/* Lines are gathered in w and written JSON_BUF_SIZE at a time; stdout is left
	 * unbuffered, as a stdio buffer would only copy them once more. A terminal still gets
	 * each line as it is decoded. */
	struct json_writer w;
	json_init_held(&w, stdout);
	setvbuf(stdout, NULL, _IONBF, 0);
	bool by_line = isatty(STDOUT_FILENO);
	bool ok = true;
	struct v2x_capframe fr;
	enum v2x_cap_result r;
	struct v2x_progress prog;
	v2x_progress_init(&prog);
	while ((r = v2x_capfile_next(cf, &fr)) != V2X_CAP_END) {
		if (r == V2X_CAP_FRAME) {
			ok &= decode_frame(&w, &fr);
			if (by_line)
				json_flush(&w);
			v2x_progress_tick(&prog, cf);
			if (ferror(stdout))
				break; /* the output failed: the rest would be lost */
			continue;
		}
		flush_output(&w);
		fprintf(stderr, "v2xcap decode: %s\n", v2x_capfile_error(cf));
		ok = false;
	}
	flush_output(&w);
	v2x_progress_done(&prog, cf);
	v2x_capfile_close(cf);
	if (ferror(stdout)) {
		fprintf(stderr, "v2xcap decode: error writing the output\n");
		ok = false;
	}
	return ok ? V2X_EXIT_OK : V2X_EXIT_RUNTIME;
}
