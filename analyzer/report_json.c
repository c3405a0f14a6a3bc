/* v2xcap report --format json: the report's numbers and findings for pipelines (the same
 * findings the HTML page shows, in the same order). */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"

const char *rpt_where_str(const struct report *r, const struct rpt_where *w, char *buf,
			  size_t len)
{
	if (r->n_files > 1)
		snprintf(buf, len, "%s:%llu", r->files[w->file], (unsigned long long)w->frame);
	else
		snprintf(buf, len, "%llu", (unsigned long long)w->frame);
	return buf;
}

static void write_types(struct json_writer *w, const struct report *r)
{
	const struct v2x_group *g[V2X_TALLY_MAX_GROUPS];
	size_t n = v2x_tally_groups(&r->stats, V2X_BY_TYPE, g, V2X_TALLY_MAX_GROUPS);
	char buf[32];
	json_key(w, "types");
	json_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(w);
		json_string_field(w, "type", v2x_tally_key_name(V2X_BY_TYPE, g[i]->key, buf, sizeof(buf)));
		json_uint_field(w, "messages", g[i]->frames);
		json_end_object(w);
	}
	json_end_array(w);
}

static void write_senders(struct json_writer *w, const struct report *r)
{
	json_key(w, "bsm_senders");
	json_begin_array(w);
	for (size_t i = 0; i < r->n_senders; i++) {
		const struct rpt_sender *s = &r->senders[i];
		char id[12];
		snprintf(id, sizeof(id), "%08x", s->id);
		json_begin_object(w);
		json_string_field(w, "id", id);
		json_uint_field(w, "bsms", s->n);
		json_double_field(w, "rate_hz", s->rate_hz, 2);
		json_uint_field(w, "msg_cnt_gaps", s->gaps);
		json_uint_field(w, "lost", s->lost);
		json_uint_field(w, "repeats", s->repeats);
		json_uint_field(w, "wraps", s->wraps);
		json_uint_field(w, "stale", s->stale);
		json_uint_field(w, "path_history_points_max", s->ph_points_max);
		json_double_field(w, "path_history_distance_max_m", s->ph_distance_max, 1);
		json_end_object(w);
	}
	json_end_array(w);
}

static void write_security(struct json_writer *w, const struct report *r)
{
	json_key(w, "security");
	json_begin_array(w);
	for (size_t i = 0; i < r->n_sec_groups; i++) {
		const struct rpt_sec *g = &r->sec[i];
		json_begin_object(w);
		json_uint_field(w, "psid", g->psid);
		if (g->has_mac) {
			json_key(w, "sender");
			json_mac(w, g->mac);
		}
		const char *keys[] = {"no_1609dot2", "unsecured", "signed_digest", "signed_certificate",
				      "signed_other", "encrypted", "signatures_verified",
				      "signatures_failed", "signatures_unverified"};
		uint64_t vals[] = {g->none, g->unsecured, g->signed_digest, g->signed_cert,
				   g->signed_other, g->encrypted, g->sig_verified, g->sig_failed,
				   g->sig_unverified};
		for (size_t k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
			json_key(w, keys[k]);
			json_uint(w, vals[k]);
		}
		if (g->has_ssp) { /* the first certificate's; bits for a bitmapSsp */
			char buf[9 * RPT_SSP_MAX + 4];
			json_key(w, "certificate_ssp");
			json_begin_object(w);
			json_string_field(w, "type", v2x_dot2_ssp_kind_name(g->ssp_kind));
			json_uint_field(w, "octets", g->ssp_len);
			json_string_field(w, "hex", rpt_ssp_hex(g->ssp, g->ssp_len, buf, sizeof(buf)));
			if (g->ssp_kind == V2X_DOT2_SSP_BITMAP) {
				json_string_field(w, "bits", rpt_ssp_bits(g->ssp, g->ssp_len, buf, sizeof(buf)));
			}
			json_uint_field(w, "frames_other_ssp", g->ssp_other);
			json_end_object(w);
		}
		if (g->gen_n) {
			json_int_field(w, "generation_delta_min_ms", g->gen_delta_min_ms);
			json_int_field(w, "generation_delta_max_ms", g->gen_delta_max_ms);
		}
		json_end_object(w);
	}
	json_end_array(w);
}

static void write_intersections(struct json_writer *w, const struct report *r)
{
	json_key(w, "intersections");
	json_begin_array(w);
	for (size_t i = 0; i < r->n_maps; i++) {
		const struct rpt_intersection *x = &r->maps[i].x;
		json_begin_object(w);
		json_int_field(w, "id", x->id);
		json_int_field(w, "revision", x->revision);
		json_uint_field(w, "lanes", x->n_lanes);
		json_end_object(w);
	}
	json_end_array(w);
}

void rpt_json_finding(struct json_writer *w, const struct report *r,
		      const struct rpt_finding *f)
{
	json_string_field(w, "severity", rpt_severity_name(f->severity));
	json_string_field(w, "requirement", f->req->id);
	json_string_field(w, "title", f->req->title);
	json_string_field(w, "source", f->req->source);
	json_string_field(w, "sender", f->sender);
	json_string_field(w, "text", f->text);
	json_uint_field(w, "count", f->count);
	json_key(w, "frames");
	json_begin_array(w);
	for (unsigned k = 0; k < f->n_where; k++) {
		json_begin_object(w);
		json_string_field(w, "file", r->files[f->where[k].file]);
		json_uint_field(w, "frame", f->where[k].frame);
		json_end_object(w);
	}
	json_end_array(w);
}

/* Coverage bins: every bin overall; a sender's bins where it was heard */
static void write_bins(struct json_writer *w, const struct report *r,
		       const struct rpt_cov_bin *b, bool skip_empty)
{
	json_key(w, "bins");
	json_begin_array(w);
	for (size_t i = 0; i < r->cov_n; i++) {
		if (skip_empty && !b[i].received)
			continue;
		json_begin_object(w);
		json_double_field(w, "from_m", (double)i * r->cov_bin_m, 1);
		json_double_field(w, "to_m", (double)(i + 1) * r->cov_bin_m, 1);
		json_uint_field(w, "received", b[i].received);
		json_uint_field(w, "expected", b[i].expected);
		json_key(w, "pdr");
		if (b[i].expected)
			json_double(w, rpt_cov_pdr(&b[i]), 4);
		else
			json_null(w);
		json_key(w, "rssi_mean_dbm");
		if (b[i].rssi_n)
			json_double(w, (double)b[i].rssi_sum / (double)b[i].rssi_n, 1);
		else
			json_null(w);
		json_end_object(w);
	}
	json_end_array(w);
}

static void write_coverage(struct json_writer *w, const struct report *r)
{
	json_key(w, "coverage");
	if (!r->has_rx || !r->cov) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	json_double_field(w, "rx_lat", r->rx_lat, 7);
	json_double_field(w, "rx_lon", r->rx_lon, 7);
	json_key(w, "rx_from_map_intersection"); /* null: --rx-pos */
	if (r->rx_map)
		json_int(w, r->rx_map_id);
	else
		json_null(w);
	json_double_field(w, "bin_m", r->cov_bin_m, 1);
	write_bins(w, r, r->cov, false);
	json_key(w, "senders");
	json_begin_array(w);
	for (size_t i = 0; i < r->n_senders; i++) {
		char id[12];
		snprintf(id, sizeof(id), "%08x", r->senders[i].id);
		json_begin_object(w);
		json_string_field(w, "id", id);
		write_bins(w, r, r->senders[i].cov, true);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

int rpt_write_json(const struct report *r, FILE *out)
{
	struct json_writer *w = malloc(sizeof(*w));
	if (!w)
		return -1;
	json_init_held(w, out);
	json_begin_object(w);
	json_key(w, "files");
	json_begin_array(w);
	for (size_t i = 0; i < r->n_files; i++)
		json_string(w, r->files[i]);
	json_end_array(w);
	json_uint_field(w, "frames", r->frames);
	json_uint_field(w, "j2735", r->j2735);
	json_uint_field(w, "undecodable", r->undecodable);
	if (r->frames) {
		json_double_field(w, "start", (double)r->first_us / 1e6, 6);
		json_double_field(w, "end", (double)r->last_us / 1e6, 6);
	}
	if (r->has_clock_offset) {
		json_int_field(w, "receiver_clock_offset_ms", r->clock_offset_ms);
	}
	write_types(w, r);
	write_senders(w, r);
	write_security(w, r);
	write_intersections(w, r);
	write_coverage(w, r);
	json_key(w, "findings");
	json_begin_array(w);
	for (size_t i = 0; i < r->findings.n; i++) {
		json_begin_object(w);
		rpt_json_finding(w, r, &r->findings.f[i]);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
	json_end_line(w);
	int rc = json_flush(w);
	free(w);
	return rc;
}
