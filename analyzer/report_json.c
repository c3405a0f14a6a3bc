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
	const struct v2xcap_group *g[V2XCAP_STATS_MAX_GROUPS];
	size_t n = v2xcap_stats_groups(&r->stats, V2XCAP_BY_TYPE, g, V2XCAP_STATS_MAX_GROUPS);
	char buf[32];
	json_key(w, "types");
	json_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(w);
		json_key(w, "type");
		json_string(w, v2xcap_stats_key_name(V2XCAP_BY_TYPE, g[i]->key, buf, sizeof(buf)));
		json_key(w, "messages");
		json_uint(w, g[i]->frames);
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
		json_key(w, "id");
		json_string(w, id);
		json_key(w, "bsms");
		json_uint(w, s->n);
		json_key(w, "rate_hz");
		json_double(w, s->rate_hz, 2);
		json_key(w, "msg_cnt_gaps");
		json_uint(w, s->gaps);
		json_key(w, "lost");
		json_uint(w, s->lost);
		json_key(w, "repeats");
		json_uint(w, s->repeats);
		json_key(w, "wraps");
		json_uint(w, s->wraps);
		json_key(w, "stale");
		json_uint(w, s->stale);
		json_key(w, "path_history_points_max");
		json_uint(w, s->ph_points_max);
		json_key(w, "path_history_distance_max_m");
		json_double(w, s->ph_distance_max, 1);
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
		json_key(w, "psid");
		json_uint(w, g->psid);
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
			json_key(w, "type");
			json_string(w, v2x_dot2_ssp_kind_name(g->ssp_kind));
			json_key(w, "octets");
			json_uint(w, g->ssp_len);
			json_key(w, "hex");
			json_string(w, rpt_ssp_hex(g->ssp, g->ssp_len, buf, sizeof(buf)));
			if (g->ssp_kind == V2X_DOT2_SSP_BITMAP) {
				json_key(w, "bits");
				json_string(w, rpt_ssp_bits(g->ssp, g->ssp_len, buf, sizeof(buf)));
			}
			json_key(w, "frames_other_ssp");
			json_uint(w, g->ssp_other);
			json_end_object(w);
		}
		if (g->gen_n) {
			json_key(w, "generation_delta_min_ms");
			json_int(w, g->gen_delta_min_ms);
			json_key(w, "generation_delta_max_ms");
			json_int(w, g->gen_delta_max_ms);
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
		json_key(w, "id");
		json_int(w, x->id);
		json_key(w, "revision");
		json_int(w, x->revision);
		json_key(w, "lanes");
		json_uint(w, x->n_lanes);
		json_end_object(w);
	}
	json_end_array(w);
}

void rpt_json_finding(struct json_writer *w, const struct report *r,
		      const struct rpt_finding *f)
{
	json_key(w, "severity");
	json_string(w, rpt_severity_name(f->severity));
	json_key(w, "requirement");
	json_string(w, f->req->id);
	json_key(w, "title");
	json_string(w, f->req->title);
	json_key(w, "source");
	json_string(w, f->req->source);
	json_key(w, "sender");
	json_string(w, f->sender);
	json_key(w, "text");
	json_string(w, f->text);
	json_key(w, "count");
	json_uint(w, f->count);
	json_key(w, "frames");
	json_begin_array(w);
	for (unsigned k = 0; k < f->n_where; k++) {
		json_begin_object(w);
		json_key(w, "file");
		json_string(w, r->files[f->where[k].file]);
		json_key(w, "frame");
		json_uint(w, f->where[k].frame);
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
		json_key(w, "from_m");
		json_double(w, (double)i * r->cov_bin_m, 1);
		json_key(w, "to_m");
		json_double(w, (double)(i + 1) * r->cov_bin_m, 1);
		json_key(w, "received");
		json_uint(w, b[i].received);
		json_key(w, "expected");
		json_uint(w, b[i].expected);
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
	json_key(w, "rx_lat");
	json_double(w, r->rx_lat, 7);
	json_key(w, "rx_lon");
	json_double(w, r->rx_lon, 7);
	json_key(w, "rx_from_map_intersection"); /* null: --rx-pos */
	if (r->rx_map)
		json_int(w, r->rx_map_id);
	else
		json_null(w);
	json_key(w, "bin_m");
	json_double(w, r->cov_bin_m, 1);
	write_bins(w, r, r->cov, false);
	json_key(w, "senders");
	json_begin_array(w);
	for (size_t i = 0; i < r->n_senders; i++) {
		char id[12];
		snprintf(id, sizeof(id), "%08x", r->senders[i].id);
		json_begin_object(w);
		json_key(w, "id");
		json_string(w, id);
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
	json_key(w, "frames");
	json_uint(w, r->frames);
	json_key(w, "j2735");
	json_uint(w, r->j2735);
	json_key(w, "undecodable");
	json_uint(w, r->undecodable);
	if (r->frames) {
		json_key(w, "start");
		json_double(w, (double)r->first_us / 1e6, 6);
		json_key(w, "end");
		json_double(w, (double)r->last_us / 1e6, 6);
	}
	if (r->has_clock_offset) {
		json_key(w, "receiver_clock_offset_ms");
		json_int(w, r->clock_offset_ms);
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
