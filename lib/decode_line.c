/* The JSON line `v2xcap decode` writes for a frame (README "JSON keys"): its capture time,
 * link-layer info, WSMP header, IEEE 1609.2 summary and the decoded message (j2735dec),
 * J2735's own names for the message, snake_case with the unit in the name for the rest. */
#include <stdio.h>
#include <string.h>

#include "bsm.h"
#include "decode_line.h"
#include "j2735dec.h"
#include "registry.h"

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

static const struct v2x_visitor to_json = {
	sizeof(struct v2x_visitor), on_key, on_open, on_close, on_integer, on_text, on_octets, on_boolean, on_null,
	NULL, NULL, /* number, uinteger: no J2735 tree has them */
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

void v2x_decode_write_dot2(struct json_writer *w, const struct v2x_dot2 *d)
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
 * the MessageFrame are counted ("trailing_octets"), with V2X_DECODE_OCTETS shown too. */
bool v2x_decode_write_j2735(struct json_writer *w, const struct v2x_frame *f, unsigned flags,
			const char **why)
{
	json_key(w, "j2735");
	return v2x_decode_write_message(w, f, flags, why);
}

bool v2x_decode_write_message(struct json_writer *w, const struct v2x_frame *f,
			      unsigned flags, const char **why)
{
	const struct v2x_msgid *id = v2x_msgid_lookup(f->mf.msg_id);
	struct j2735dec_msg msg;
	enum j2735dec_result r = j2735dec_decode(f->j2735, f->j2735_len, &msg);
	json_begin_object(w);
	json_uint_field(w, "messageId", f->mf.msg_id);
	if (id) {
		json_string_field(w, "name", id->abbrev);
	}
	if (flags & V2X_DECODE_OCTETS) {
		size_t n;
		const uint8_t *octets = v2x_frame_message(f, &n);
		json_key(w, "octets");
		json_hex(w, octets, n);
	}
	if (f->mf.trailing) {
		json_uint_field(w, "trailing_octets", f->mf.trailing);
		if (flags & V2X_DECODE_OCTETS) {
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

void v2x_decode_line(struct json_writer *w, const struct v2x_capframe *fr, unsigned flags,
		     struct v2x_decoded *d)
{
	struct v2x_frame f;
	int r = v2x_frame_parse(fr->linktype, fr->data, fr->caplen, &f);
	*d = (struct v2x_decoded){0};
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
			v2x_decode_write_dot2(w, &f.dot2);
		const char *why;
		if (!v2x_decode_write_j2735(w, &f, flags, &why)) {
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
