/* The statistics as one JSON document (v2xcap stats --format json, v2x_stats_json): its
 * shape is documented in <v2x/stats.h> and only grows. Written from the views
 * (stats_view.c), so it holds the figures a C program reads, formatted. */
#include <inttypes.h>
#include <stdio.h>

#include "json.h"
#include "stats_handle.h"

static void json_range(struct json_writer *w, const char *name, const struct v2x_stats_range *r)
{
	json_key(w, name);
	if (r->n == 0) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	json_int_field(w, "min", r->min);
	json_double_field(w, "mean", r->mean, 3);
	json_int_field(w, "max", r->max);
	json_end_object(w);
}

/* A figure that may be missing (null). */
static void json_maybe(struct json_writer *w, const char *key, bool has, double v, int digits)
{
	json_key(w, key);
	if (has)
		json_double(w, v, digits);
	else
		json_null(w);
}

static void json_group(struct json_writer *w, const struct v2x_stats_group *g)
{
	json_begin_object(w);
	json_string_field(w, "key", g->key);
	json_key(w, "value");
	if (g->has_value)
		json_uint(w, g->value);
	else
		json_null(w);
	json_uint_field(w, "frames", g->frames);
	json_double_field(w, "share", g->share, 6);
	json_double_field(w, "rate_per_s", g->rate_per_s, 6);
	json_range(w, "bytes", &g->bytes);
	json_range(w, "rssi_dbm", &g->rssi_dbm);
	json_uint_field(w, "signed", g->signed_frames);
	json_uint_field(w, "unsigned", g->unsigned_frames);
	json_uint_field(w, "encrypted", g->encrypted_frames);
	json_uint_field(w, "errors", g->errors);
	json_uint_field(w, "trailing", g->trailing);
	if (g->note)
		json_string_field(w, "note", g->note);
	json_end_object(w);
}

static void json_encap(struct json_writer *w, const struct v2x_stats_group *g)
{
	json_begin_object(w);
	json_string_field(w, "key", g->key);
	json_uint_field(w, "frames", g->frames);
	json_uint_field(w, "bytes", g->octets);
	json_uint_field(w, "errors", g->errors);
	json_end_object(w);
}

/* The array "name" of dimension d's groups. */
static void json_groups(struct json_writer *w, struct v2x_stats *s, enum v2x_stats_dim d,
			const char *name)
{
	struct v2x_stats_group g = {.size = sizeof(g)};
	json_key(w, name);
	json_begin_array(w);
	for (size_t i = 0; v2x_stats_get_group(s, d, i, &g) == 1; i++)
		(d == V2X_STATS_BY_ENCAP ? json_encap : json_group)(w, &g);
	json_end_array(w);
}

static void json_bsm(struct json_writer *w, const struct v2x_stats_bsm_sender *b)
{
	char id[9];
	snprintf(id, sizeof(id), "%08" PRIX32, b->temporary_id);
	json_begin_object(w);
	json_string_field(w, "temporary_id", id);
	json_uint_field(w, "messages", b->messages);
	json_double_field(w, "rate_hz", b->rate_hz, 6);
	json_double_field(w, "rate_ratio_to_10hz", b->rate_ratio_to_10hz, 6);
	json_key(w, "iat_ms");
	json_begin_object(w);
	json_maybe(w, "p50", b->has_iat, b->iat_p50_ms, 3);
	json_maybe(w, "p95", b->has_iat, b->iat_p95_ms, 3);
	json_maybe(w, "max", b->has_iat, b->iat_max_ms, 3);
	json_end_object(w);
	json_uint_field(w, "msgcnt_lost", b->msgcnt_lost);
	json_double_field(w, "loss_ratio", b->loss_ratio, 6);
	json_uint_field(w, "duplicates", b->duplicates);
	json_range(w, "age_ms", &b->age_ms);
	json_bool_field(w, "unsynchronised", b->unsynchronised);
	json_end_object(w);
}

static void json_priority(struct json_writer *w, const struct v2x_stats_priority *p)
{
	json_begin_object(w);
	json_string_field(w, "kind", v2x_priority_kind_name(p->kind));
	json_key(w, "sender");
	if (p->sender[0])
		json_string(w, p->sender);
	else
		json_null(w);
	json_uint_field(w, "messages", p->messages);
	if (p->is_bsm) {
		char events[200];
		v2x_priority_events_text(p->events, events, sizeof(events));
		json_string_field(w, "events", events);
	}
	json_key(w, "frames");
	json_begin_array(w);
	for (unsigned k = 0; k < p->n_frames; k++) {
		json_begin_object(w);
		json_string_field(w, "file", p->frames[k].file);
		json_uint_field(w, "frame", p->frames[k].frame);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

static void json_time(struct json_writer *w, const char *key, const struct v2x_stats_totals *t,
		      int64_t us)
{
	json_maybe(w, key, t->frames > 0, (double)us / 1e6, 6);
}

/* The head of the document: every count of the totals before the priority list. */
static void json_head(struct json_writer *w, const struct v2x_stats_totals *t)
{
	json_uint_field(w, "frames", t->frames);
	json_uint_field(w, "bytes", t->bytes);
	json_uint_field(w, "sliced", t->sliced);
	json_uint_field(w, "malformed", t->malformed);
	json_uint_field(w, "wsmp", t->wsmp);
	json_uint_field(w, "filtered_out", t->filtered_out);
	json_key(w, "filter");
	if (t->filter) {
		json_begin_object(w);
		json_uint_field(w, t->filter, t->filter_value);
		json_end_object(w);
	} else {
		json_null(w);
	}
	json_time(w, "first_time", t, t->first_us);
	json_time(w, "last_time", t, t->last_us);
	json_double_field(w, "span_s", t->span_s, 6);
}

static void json_not_wsmp(struct json_writer *w, const struct v2x_stats_totals *t)
{
	const uint64_t n[V2X_NONWSMP_N] = {
		[V2X_NONWSMP_LINK_ERROR] = t->not_wsmp_link_error,
		[V2X_NONWSMP_NOT_DATA] = t->not_wsmp_not_data,
		[V2X_NONWSMP_PROTECTED] = t->not_wsmp_protected,
		[V2X_NONWSMP_OTHER_ETHERTYPE] = t->not_wsmp_other_ethertype,
		[V2X_NONWSMP_BAD_WSMP] = t->not_wsmp_bad_wsmp,
		[V2X_NONWSMP_BAD_FCS] = t->not_wsmp_bad_fcs,
	};
	json_key(w, "not_wsmp");
	json_begin_object(w);
	for (int r = 0; r < V2X_NONWSMP_N; r++)
		json_uint_field(w, v2x_nonwsmp_name((enum v2x_nonwsmp)r), n[r]);
	json_end_object(w);
}

/* "encapsulation": every encapsulation in enum order, the ones not seen with 0. */
static void json_encap_all(struct json_writer *w, struct v2x_stats *s)
{
	uint64_t frames[V2X_ENCAP_COUNT] = {0};
	struct v2x_stats_group g = {.size = sizeof(g)};
	for (size_t i = 0; v2x_stats_get_group(s, V2X_STATS_BY_ENCAP, i, &g) == 1; i++)
		frames[g.value] = g.frames;
	json_key(w, "encapsulation");
	json_begin_object(w);
	for (int e = 0; e < V2X_ENCAP_COUNT; e++)
		json_uint_field(w, v2x_encap_name((enum v2x_encap)e), frames[e]);
	json_end_object(w);
}

int v2x_stats_write_json(struct json_writer *w, struct v2x_stats *s)
{
	struct v2x_stats_totals t = {.size = sizeof(t)};
	struct v2x_stats_priority p = {.size = sizeof(p)};
	struct v2x_stats_bsm_sender b = {.size = sizeof(b)};
	/* the totals take the order: the getters after them cannot fail */
	if (v2x_stats_get_totals(s, &t) < 0)
		return -1;
	const struct {
		enum v2x_stats_dim d;
		const char *name, *overflow_name;
		uint64_t overflow;
	} dims[] = {
		{V2X_STATS_BY_TYPE, "by_type", "overflow_type", t.overflow_type},
		{V2X_STATS_BY_PSID, "by_psid", "overflow_psid", t.overflow_psid},
		{V2X_STATS_BY_CHANNEL, "by_channel", "overflow_channel", t.overflow_channel},
		{V2X_STATS_BY_SENDER, "by_sender", "overflow_sender", t.overflow_sender},
	};
	json_begin_object(w);
	json_head(w, &t);
	json_key(w, "priority");
	json_begin_array(w);
	for (size_t i = 0; v2x_stats_get_priority(s, i, &p) == 1; i++)
		json_priority(w, &p);
	json_end_array(w);
	json_uint_field(w, "priority_overflow", t.priority_overflow);
	json_not_wsmp(w, &t);
	json_encap_all(w, s);
	for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); i++) {
		json_groups(w, s, dims[i].d, dims[i].name);
		json_uint_field(w, dims[i].overflow_name, dims[i].overflow);
	}
	json_groups(w, s, V2X_STATS_BY_ENCAP, "by_encap");
	json_key(w, "bsm_senders");
	json_begin_array(w);
	for (size_t i = 0; v2x_stats_get_bsm_sender(s, i, &b) == 1; i++)
		json_bsm(w, &b);
	json_end_array(w);
	json_uint_field(w, "bsm_overflow", t.bsm_overflow);
	json_uint_field(w, "bsm_unreadable", t.bsm_unreadable);
	json_end_object(w);
	return 0;
}
