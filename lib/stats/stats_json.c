/* The statistics as one JSON document (v2xcap stats --format json, v2x_stats_json): its
 * shape is documented in <v2x/stats.h> and only grows. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "priority.h"
#include "stats.h"

static void json_minmax(struct json_writer *w, const char *name, const struct v2x_minmax *m)
{
	json_key(w, name);
	if (m->n == 0) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	json_int_field(w, "min", m->min);
	json_double_field(w, "mean", (double)m->sum / (double)m->n, 3);
	json_int_field(w, "max", m->max);
	json_end_object(w);
}

/* Microseconds as milliseconds; null when negative (not enough messages). */
static void json_ms_field(struct json_writer *w, const char *key, int64_t us)
{
	json_key(w, key);
	if (us < 0)
		json_null(w);
	else
		json_double(w, (double)us / 1000.0, 3);
}

static int json_groups(struct json_writer *w, enum v2x_dimension d, const struct v2x_tally *s)
{
	const struct v2x_group **g = malloc(V2X_TALLY_MAX_GROUPS * sizeof(*g));
	if (!g)
		return -1;
	size_t n = v2x_tally_groups(s, d, g, V2X_TALLY_MAX_GROUPS);
	char name[32];
	snprintf(name, sizeof(name), "by_%s", v2x_dimension_name(d));
	json_key(w, name);
	json_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		const char *key = v2x_tally_key_name(d, g[i]->key, name, sizeof(name));
		json_begin_object(w);
		json_string_field(w, "key", key);
		json_key(w, "value");
		if (strcmp(key, "-") == 0)
			json_null(w);
		else
			json_uint(w, g[i]->key);
		json_uint_field(w, "frames", g[i]->frames);
		json_double_field(w, "share", v2x_tally_share(g[i]->frames, s->wsmp), 6);
		json_double_field(w, "rate_per_s", v2x_tally_rate(g[i]->frames, s), 6);
		json_minmax(w, "bytes", &g[i]->bytes);
		json_minmax(w, "rssi_dbm", &g[i]->rssi);
		json_uint_field(w, "signed", g[i]->signed_);
		json_uint_field(w, "unsigned", g[i]->unsigned_);
		json_uint_field(w, "encrypted", g[i]->encrypted);
		json_uint_field(w, "errors", g[i]->errors);
		json_uint_field(w, "trailing", g[i]->trailing);
		const char *note = v2x_tally_type_note(d, g[i]->key);
		if (note) {
			json_string_field(w, "note", note);
		}
		json_end_object(w);
	}
	json_end_array(w);
	snprintf(name, sizeof(name), "overflow_%s", v2x_dimension_name(d));
	json_uint_field(w, name, s->dims[d].overflow);
	free(g);
	return 0;
}

static void json_encap(struct json_writer *w, const struct v2x_tally *s)
{
	enum v2x_encap e[V2X_ENCAP_COUNT];
	size_t n = v2x_tally_encaps(s, e);
	json_key(w, "by_encap");
	json_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(w);
		json_string_field(w, "key", v2x_encap_name(e[i]));
		json_uint_field(w, "frames", s->encap[e[i]]);
		json_uint_field(w, "bytes", s->encap_bytes[e[i]]);
		json_uint_field(w, "errors", s->encap_errors[e[i]]);
		json_end_object(w);
	}
	json_end_array(w);
}

static int json_bsm(struct json_writer *w, const struct v2x_tally *s)
{
	const struct v2x_bsm_sender **b = malloc(V2X_TALLY_MAX_BSM_SENDERS * sizeof(*b));
	if (!b)
		return -1;
	size_t n = v2x_tally_bsm_senders(s, b, V2X_TALLY_MAX_BSM_SENDERS);
	json_key(w, "bsm_senders");
	json_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		char id[9];
		double hz = v2x_bsm_rate(b[i]);
		snprintf(id, sizeof(id), "%08" PRIX32, b[i]->id);
		json_begin_object(w);
		json_string_field(w, "temporary_id", id);
		json_uint_field(w, "messages", b[i]->messages);
		json_double_field(w, "rate_hz", hz, 6);
		json_double_field(w, "rate_ratio_to_10hz", hz / V2X_BSM_NOMINAL_HZ, 6);
		json_key(w, "iat_ms");
		json_begin_object(w);
		json_ms_field(w, "p50", v2x_bsm_iat_percentile(b[i], 50));
		json_ms_field(w, "p95", v2x_bsm_iat_percentile(b[i], 95));
		json_ms_field(w, "max", b[i]->messages > 1 ? b[i]->iat_max_us : -1);
		json_end_object(w);
		json_uint_field(w, "msgcnt_lost", b[i]->lost);
		json_double_field(w, "loss_ratio", v2x_bsm_loss_ratio(b[i]), 6);
		json_uint_field(w, "duplicates", b[i]->duplicates);
		json_minmax(w, "age_ms", &b[i]->age_ms);
		json_bool_field(w, "unsynchronised", v2x_bsm_unsynchronised(b[i]));
		json_end_object(w);
	}
	json_end_array(w);
	json_uint_field(w, "bsm_overflow", s->bsm.overflow);
	json_uint_field(w, "bsm_unreadable", s->bsm.unreadable);
	free(b);
	return 0;
}

static int json_priority(struct json_writer *w, const struct v2x_prio_list *l)
{
	const struct v2x_prio_entry **e = v2x_prio_sorted(l);
	if (!e)
		return -1;
	json_key(w, "priority");
	json_begin_array(w);
	for (size_t i = 0; i < l->n; i++) {
		char who[24], events[200];
		const char *sender = v2x_prio_sender(e[i], who, sizeof(who));
		json_begin_object(w);
		json_string_field(w, "kind", v2x_priority_kind_name(e[i]->kind));
		json_key(w, "sender");
		if (sender)
			json_string(w, sender);
		else
			json_null(w);
		json_uint_field(w, "messages", e[i]->messages);
		if (e[i]->is_bsm) {
			v2x_priority_events_text(e[i]->events, events, sizeof(events));
			json_string_field(w, "events", events);
		}
		json_key(w, "frames");
		json_begin_array(w);
		for (unsigned k = 0; k < e[i]->n_frames; k++) {
			json_begin_object(w);
			json_string_field(w, "file", e[i]->frames[k].file);
			json_uint_field(w, "frame", e[i]->frames[k].frame);
			json_end_object(w);
		}
		json_end_array(w);
		json_end_object(w);
	}
	json_end_array(w);
	json_uint_field(w, "priority_overflow", l->overflow);
	free(e);
	return 0;
}

int v2x_tally_write_json(struct json_writer *w, const struct v2x_tally *s,
			 const struct v2x_prio_list *prio)
{
	json_begin_object(w);
	json_uint_field(w, "frames", s->frames);
	json_uint_field(w, "bytes", s->bytes);
	json_uint_field(w, "sliced", s->sliced);
	json_uint_field(w, "malformed", s->malformed);
	json_uint_field(w, "wsmp", s->wsmp);
	json_uint_field(w, "filtered_out", s->filtered_out);
	json_key(w, "filter");
	if (s->filter.by_type || s->filter.by_psid) {
		json_begin_object(w);
		if (s->filter.by_type)
			json_uint_field(w, "type", s->filter.msg_id);
		else
			json_uint_field(w, "psid", s->filter.psid);
		json_end_object(w);
	} else {
		json_null(w);
	}
	json_key(w, "first_time");
	if (s->frames)
		json_double(w, (double)s->first_us / 1e6, 6);
	else
		json_null(w);
	json_key(w, "last_time");
	if (s->frames)
		json_double(w, (double)s->last_us / 1e6, 6);
	else
		json_null(w);
	json_double_field(w, "span_s", v2x_tally_span_s(s), 6);
	if (prio && json_priority(w, prio) < 0)
		return -1;
	json_key(w, "not_wsmp");
	json_begin_object(w);
	for (int r = 0; r < V2X_NONWSMP_N; r++)
		json_uint_field(w, v2x_nonwsmp_name((enum v2x_nonwsmp)r), s->nonwsmp[r]);
	json_end_object(w);
	json_key(w, "encapsulation");
	json_begin_object(w);
	for (int e = 0; e < V2X_ENCAP_COUNT; e++)
		json_uint_field(w, v2x_encap_name((enum v2x_encap)e), s->encap[e]);
	json_end_object(w);
	for (int d = 0; d < V2X_N_DIMS; d++)
		if (json_groups(w, (enum v2x_dimension)d, s) < 0)
			return -1;
	json_encap(w, s);
	if (json_bsm(w, s) < 0)
		return -1;
	json_end_object(w);
	return 0;
}

