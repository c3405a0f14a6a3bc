/* The views of <v2x/stats.h>: the tally and the priority list copied out into the
 * caller's structs, every derived figure (share, rate, percentiles, loss) worked out here
 * once; the JSON document (stats_json.c) and v2xcap's tables are written from them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "j2735dec.h"
#include "stats_handle.h"

_Static_assert(V2X_STATS_BY_TYPE == (int)V2X_BY_TYPE && V2X_STATS_BY_PSID == (int)V2X_BY_PSID &&
		       V2X_STATS_BY_CHANNEL == (int)V2X_BY_CHANNEL &&
		       V2X_STATS_BY_SENDER == (int)V2X_BY_SENDER,
	       "the public dimensions are the tally's, in its order");

int v2x_stats_order_take(struct v2x_stats *s)
{
	struct v2x_stats_order *o = &s->order;
	if (o->taken && o->counted == s->counted)
		return 0;
	for (int d = 0; d < V2X_N_DIMS; d++)
		if (!o->groups[d] && !(o->groups[d] = malloc(V2X_TALLY_MAX_GROUPS *
							     sizeof(*o->groups[d]))))
			goto oom;
	if (!o->bsm && !(o->bsm = malloc(V2X_TALLY_MAX_BSM_SENDERS * sizeof(*o->bsm))))
		goto oom;
	free(o->prio);
	o->taken = false;
	if (!(o->prio = v2x_prio_sorted(&s->prio)))
		goto oom;
	for (int d = 0; d < V2X_N_DIMS; d++)
		o->n_groups[d] = v2x_tally_groups(&s->t, (enum v2x_dimension)d, o->groups[d],
						  V2X_TALLY_MAX_GROUPS);
	o->n_encaps = v2x_tally_encaps(&s->t, o->encaps);
	o->n_bsm = v2x_tally_bsm_senders(&s->t, o->bsm, V2X_TALLY_MAX_BSM_SENDERS);
	o->counted = s->counted;
	o->taken = true;
	return 0;
oom:
	snprintf(s->err, sizeof s->err, "v2x_stats: out of memory");
	return -1;
}

void v2x_stats_order_free(struct v2x_stats_order *o)
{
	for (int d = 0; d < V2X_N_DIMS; d++)
		free(o->groups[d]);
	free(o->bsm);
	free(o->prio);
}

/* The arguments every getter checks, and the order taken: V2X_OK or the error. */
static int view_begin(struct v2x_stats *s, const void *out, size_t size, size_t need)
{
	if (!s)
		return V2X_EINVAL;
	s->err[0] = '\0';
	if (!out || size < need) {
		snprintf(s->err, sizeof s->err, "v2x_stats: %s", out ? "struct size too small"
								    : "no struct given");
		return V2X_EINVAL;
	}
	return v2x_stats_order_take(s) < 0 ? V2X_ENOMEM : V2X_OK;
}

static struct v2x_stats_range range_of(const struct v2x_minmax *m)
{
	if (m->n == 0)
		return (struct v2x_stats_range){0};
	return (struct v2x_stats_range){
		.n = m->n, .min = m->min, .mean = (double)m->sum / (double)m->n, .max = m->max,
	};
}

int v2x_stats_get_totals(struct v2x_stats *s, struct v2x_stats_totals *t)
{
	int r = view_begin(s, t, t ? t->size : 0, sizeof(*t));
	if (r < 0)
		return r;
	const struct v2x_tally *y = &s->t;
	const struct v2x_stats_order *o = &s->order;
	*t = (struct v2x_stats_totals){
		.size = t->size, .frames = y->frames, .bytes = y->bytes, .sliced = y->sliced,
		.malformed = y->malformed, .wsmp = y->wsmp, .filtered_out = y->filtered_out,
		.filter = y->filter.by_type ? "type" : y->filter.by_psid ? "psid" : NULL,
		.filter_value = y->filter.by_type ? y->filter.msg_id : y->filter.psid,
		.first_us = y->frames ? y->first_us : 0, .last_us = y->frames ? y->last_us : 0,
		.span_s = v2x_tally_span_s(y),
		.not_wsmp_link_error = y->nonwsmp[V2X_NONWSMP_LINK_ERROR],
		.not_wsmp_not_data = y->nonwsmp[V2X_NONWSMP_NOT_DATA],
		.not_wsmp_protected = y->nonwsmp[V2X_NONWSMP_PROTECTED],
		.not_wsmp_other_ethertype = y->nonwsmp[V2X_NONWSMP_OTHER_ETHERTYPE],
		.not_wsmp_bad_wsmp = y->nonwsmp[V2X_NONWSMP_BAD_WSMP],
		.not_wsmp_bad_fcs = y->nonwsmp[V2X_NONWSMP_BAD_FCS],
		.n_type = o->n_groups[V2X_BY_TYPE], .n_psid = o->n_groups[V2X_BY_PSID],
		.n_channel = o->n_groups[V2X_BY_CHANNEL], .n_sender = o->n_groups[V2X_BY_SENDER],
		.n_encap = o->n_encaps,
		.overflow_type = y->dims[V2X_BY_TYPE].overflow,
		.overflow_psid = y->dims[V2X_BY_PSID].overflow,
		.overflow_channel = y->dims[V2X_BY_CHANNEL].overflow,
		.overflow_sender = y->dims[V2X_BY_SENDER].overflow,
		.n_bsm_senders = o->n_bsm, .bsm_overflow = y->bsm.overflow,
		.bsm_unreadable = y->bsm.unreadable,
		.n_priority = s->prio.n, .priority_overflow = s->prio.overflow,
		.priority_files = s->prio.files, .j2735_edition = j2735dec_edition(),
	};
	for (int i = 0; i < V2X_NONWSMP_N; i++)
		t->not_wsmp += y->nonwsmp[i];
	return V2X_OK;
}

/* An encapsulation as a group: its frames, captured octets and malformed frames. */
static void encap_group(const struct v2x_tally *y, enum v2x_encap e, struct v2x_stats_group *g)
{
	snprintf(g->key, sizeof g->key, "%s", v2x_encap_name(e));
	g->has_value = true;
	g->value = (uint64_t)e;
	g->frames = y->encap[e];
	g->share = v2x_tally_share(g->frames, y->frames);
	g->rate_per_s = v2x_tally_rate(g->frames, y);
	g->errors = y->encap_errors[e];
	g->octets = y->encap_bytes[e];
}

int v2x_stats_get_group(struct v2x_stats *s, enum v2x_stats_dim d, size_t i,
			struct v2x_stats_group *g)
{
	int r = view_begin(s, g, g ? g->size : 0, sizeof(*g));
	if (r < 0)
		return r;
	if ((unsigned)d >= V2X_STATS_DIM_N) {
		snprintf(s->err, sizeof s->err, "v2x_stats_get_group: no dimension %d", (int)d);
		return V2X_EINVAL;
	}
	const struct v2x_stats_order *o = &s->order;
	if (i >= (d == V2X_STATS_BY_ENCAP ? o->n_encaps : o->n_groups[d]))
		return 0;
	*g = (struct v2x_stats_group){.size = g->size};
	if (d == V2X_STATS_BY_ENCAP) {
		encap_group(&s->t, o->encaps[i], g);
		return 1;
	}
	/* the dimensions of both enums are in the same order */
	enum v2x_dimension dim = (enum v2x_dimension)d;
	const struct v2x_group *x = o->groups[d][i];
	const char *key = v2x_tally_key_name(dim, x->key, g->key, sizeof g->key);
	if (key != g->key)
		snprintf(g->key, sizeof g->key, "%s", key);
	g->has_value = strcmp(key, "-") != 0;
	g->value = g->has_value ? x->key : 0;
	g->frames = x->frames;
	g->share = v2x_tally_share(x->frames, s->t.wsmp);
	g->rate_per_s = v2x_tally_rate(x->frames, &s->t);
	g->bytes = range_of(&x->bytes);
	g->rssi_dbm = range_of(&x->rssi);
	g->signed_frames = x->signed_;
	g->unsigned_frames = x->unsigned_;
	g->encrypted_frames = x->encrypted;
	g->errors = x->errors;
	g->trailing = x->trailing;
	g->note = v2x_tally_type_note(dim, x->key);
	return 1;
}

/* Microseconds as milliseconds. */
static double ms(int64_t us)
{
	return (double)us / 1000.0;
}

int v2x_stats_get_bsm_sender(struct v2x_stats *s, size_t i, struct v2x_stats_bsm_sender *b)
{
	int r = view_begin(s, b, b ? b->size : 0, sizeof(*b));
	if (r < 0)
		return r;
	if (i >= s->order.n_bsm)
		return 0;
	const struct v2x_bsm_sender *x = s->order.bsm[i];
	double hz = v2x_bsm_rate(x);
	*b = (struct v2x_stats_bsm_sender){
		.size = b->size, .temporary_id = x->id, .messages = x->messages,
		.rate_hz = hz, .rate_ratio_to_10hz = hz / V2X_BSM_NOMINAL_HZ,
		.has_iat = x->messages > 1, .msgcnt_lost = x->lost,
		.loss_ratio = v2x_bsm_loss_ratio(x), .duplicates = x->duplicates,
		.age_ms = range_of(&x->age_ms), .unsynchronised = v2x_bsm_unsynchronised(x),
	};
	if (b->has_iat) {
		b->iat_p50_ms = ms(v2x_bsm_iat_percentile(x, 50));
		b->iat_p95_ms = ms(v2x_bsm_iat_percentile(x, 95));
		b->iat_max_ms = ms(x->iat_max_us);
	}
	return 1;
}

int v2x_stats_get_priority(struct v2x_stats *s, size_t i, struct v2x_stats_priority *p)
{
	int r = view_begin(s, p, p ? p->size : 0, sizeof(*p));
	if (r < 0)
		return r;
	if (i >= s->prio.n)
		return 0;
	const struct v2x_prio_entry *e = s->order.prio[i];
	*p = (struct v2x_stats_priority){
		.size = p->size, .kind = e->kind, .messages = e->messages, .is_bsm = e->is_bsm,
		.events = e->events, .n_frames = e->n_frames,
	};
	if (!v2x_prio_sender(e, p->sender, sizeof p->sender))
		p->sender[0] = '\0';
	for (unsigned k = 0; k < e->n_frames; k++)
		p->frames[k] = (struct v2x_stats_frame_ref){e->frames[k].file, e->frames[k].frame};
	return 1;
}
