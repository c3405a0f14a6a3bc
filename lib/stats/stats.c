/* Capture statistics aggregator (see stats.h): fixed-size hash tables per dimension and
 * per BSM TemporaryID, streaming counters only, so memory does not grow with the input. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "bsm.h"
#include "j2735dec.h"
#include "registry.h"
#include "stats.h"

#define KEY_UNKNOWN (UINT64_C(1) << 48) /* PSID/channel/sender not in the frame */
/* Beyond this many empty intervals in a row (a clock jump), the empty ones are not
 * reported one by one. */
#define MAX_EMPTY_INTERVALS 1000

static int index_init(struct v2x_keyindex *ix, size_t cap)
{
	ix->nslots = 2 * cap;
	ix->last = -1;
	ix->slots = calloc(ix->nslots, sizeof(*ix->slots));
	return ix->slots ? 0 : -1;
}

static void index_free(struct v2x_keyindex *ix)
{
	free(ix->slots);
	ix->slots = NULL;
}

/* The entry index of key, adding it as entry *n when new and *n < cap; -1 when full. */
static long index_probe(struct v2x_keyindex *ix, uint64_t key, size_t *n, size_t cap)
{
	/* Fibonacci hashing; nslots is a power of two */
	size_t mask = ix->nslots - 1;
	for (size_t i = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 40) & mask;;
	     i = (i + 1) & mask) {
		struct v2x_keyslot *sl = &ix->slots[i];
		if (sl->pos == 0) {
			if (*n >= cap)
				return -1;
			sl->key = key;
			sl->pos = (uint32_t)++*n;
		} else if (sl->key != key) {
			continue;
		}
		ix->last_key = key;
		ix->last = (long)sl->pos - 1;
		return ix->last;
	}
}

/* index_probe, after the check that consecutive frames so often pass: inline. */
static inline long index_get(struct v2x_keyindex *ix, uint64_t key, size_t *n, size_t cap)
{
	if (ix->last >= 0 && ix->last_key == key)
		return ix->last;
	return index_probe(ix, key, n, cap);
}

int v2x_tally_init(struct v2x_tally *s, const struct v2x_tally_filter *filter)
{
	memset(s, 0, sizeof(*s));
	if (filter)
		s->filter = *filter;
	s->dims_counted = (1u << V2X_N_DIMS) - 1;
	for (int d = 0; d < V2X_N_DIMS; d++) {
		struct v2x_group_table *t = &s->dims[d];
		t->groups = calloc(V2X_TALLY_MAX_GROUPS, sizeof(*t->groups));
		if (!t->groups || index_init(&t->index, V2X_TALLY_MAX_GROUPS) < 0)
			goto oom;
	}
	s->bsm.senders = calloc(V2X_TALLY_MAX_BSM_SENDERS, sizeof(*s->bsm.senders));
	if (!s->bsm.senders || index_init(&s->bsm.index, V2X_TALLY_MAX_BSM_SENDERS) < 0)
		goto oom;
	return 0;
oom:
	v2x_tally_free(s);
	return -1;
}

void v2x_tally_free(struct v2x_tally *s)
{
	for (int d = 0; d < V2X_N_DIMS; d++) {
		free(s->dims[d].groups);
		s->dims[d].groups = NULL;
		index_free(&s->dims[d].index);
	}
	free(s->bsm.senders);
	s->bsm.senders = NULL;
	index_free(&s->bsm.index);
}

void v2x_tally_set_interval(struct v2x_tally *s, int64_t interval_us, v2x_interval_fn fn,
			    void *ctx)
{
	s->interval_us = interval_us;
	s->on_interval = fn;
	s->interval_ctx = ctx;
}

/* Empty: min and max start at the far ends, so adding a value needs no first-value test
 * (readers look at n first). */
static void minmax_init(struct v2x_minmax *m)
{
	m->min = INT64_MAX;
	m->max = INT64_MIN;
}

static void minmax_add(struct v2x_minmax *m, int64_t v)
{
	m->min = v < m->min ? v : m->min;
	m->max = v > m->max ? v : m->max;
	m->sum += v;
	m->n++;
}

static struct v2x_group *group_get(struct v2x_group_table *t, uint64_t key)
{
	size_t before = t->n;
	long i = index_get(&t->index, key, &t->n, V2X_TALLY_MAX_GROUPS);
	if (i < 0)
		return NULL;
	struct v2x_group *g = &t->groups[i];
	if (t->n != before) {
		g->key = key;
		minmax_init(&g->bytes);
		minmax_init(&g->rssi);
	}
	return g;
}

static struct v2x_bsm_sender *bsm_get(struct v2x_bsm_table *t, uint32_t id)
{
	size_t before = t->n;
	long i = index_get(&t->index, id, &t->n, V2X_TALLY_MAX_BSM_SENDERS);
	if (i < 0)
		return NULL;
	struct v2x_bsm_sender *b = &t->senders[i];
	if (t->n != before) {
		b->id = id;
		minmax_init(&b->age_ms);
	}
	return b;
}

static enum v2x_nonwsmp nonwsmp_reason(const struct v2x_frame *f)
{
	if (f->rt.bad_fcs)
		return V2X_NONWSMP_BAD_FCS;
	if (f->layer == V2X_LAYER_NONE)
		return V2X_NONWSMP_LINK_ERROR;
	if (f->has_mac && !f->mac.is_data)
		return V2X_NONWSMP_NOT_DATA;
	if (f->has_mac && f->mac.is_protected)
		return V2X_NONWSMP_PROTECTED;
	if (f->ethertype == V2X_ETHERTYPE_WSMP)
		return V2X_NONWSMP_BAD_WSMP;
	if (f->error)
		return V2X_NONWSMP_LINK_ERROR;
	return V2X_NONWSMP_OTHER_ETHERTYPE;
}

static uint64_t mac_key(const uint8_t m[6])
{
	return (uint64_t)m[0] << 40 | (uint64_t)m[1] << 32 | (uint64_t)m[2] << 24 |
	       (uint64_t)m[3] << 16 | (uint64_t)m[4] << 8 | m[5];
}

static uint64_t frame_key(enum v2x_dimension d, const struct v2x_frame *f)
{
	switch (d) {
	case V2X_BY_TYPE:
		/* a message cut short whose id is readable counts under its type (with an error) */
		return f->has_j2735 && f->mf.has_msg_id ? f->mf.msg_id : V2X_TYPE_NO_J2735;
	case V2X_BY_PSID:
		return f->wsmp.has_psid ? f->wsmp.psid : KEY_UNKNOWN;
	case V2X_BY_CHANNEL:
		return f->rt.has_channel ? f->rt.freq : KEY_UNKNOWN;
	case V2X_BY_SENDER:
		return f->has_src ? mac_key(f->src) : KEY_UNKNOWN;
	default:
		return KEY_UNKNOWN;
	}
}

/* What one WSMP frame adds to its group in every dimension, worked out once. */
struct contribution {
	int64_t bytes;
	bool has_rssi;
	int8_t rssi;
	bool error;
	bool trailing;
	enum { C_UNSIGNED, C_SIGNED, C_ENCRYPTED, C_OTHER } security;
};

static void contribution_of(const struct v2x_frame *f, struct contribution *c)
{
	/* the message's octets, whatever carried it (a WSM, a datagram, a record) */
	c->bytes = (int64_t)f->msg_len;
	c->has_rssi = f->rt.has_signal;
	c->rssi = f->rt.signal_dbm;
	c->error = f->error || f->wsmp.truncated;
	c->trailing = f->has_j2735 && f->mf.trailing;
	c->security = C_OTHER;
	if (!f->has_dot2 || f->dot2.content == V2X_DOT2_UNSECURED)
		c->security = C_UNSIGNED;
	else if (f->dot2.content == V2X_DOT2_SIGNED ||
		 f->dot2.content == V2X_DOT2_SIGNED_CERT_REQUEST)
		c->security = C_SIGNED;
	else if (f->dot2.content == V2X_DOT2_ENCRYPTED)
		c->security = C_ENCRYPTED;
}

static void group_add(struct v2x_group *g, const struct contribution *c)
{
	g->frames++;
	minmax_add(&g->bytes, c->bytes);
	if (c->has_rssi)
		minmax_add(&g->rssi, c->rssi);
	g->unsigned_ += c->security == C_UNSIGNED;
	g->signed_ += c->security == C_SIGNED;
	g->encrypted += c->security == C_ENCRYPTED;
	g->errors += c->error;
	g->trailing += c->trailing;
}

static inline void dimension_add(struct v2x_tally *s, enum v2x_dimension d,
				 const struct v2x_frame *f, const struct contribution *c)
{
	if (!(s->dims_counted & 1u << d))
		return;
	struct v2x_group *g = group_get(&s->dims[d], frame_key(d, f));
	if (g)
		group_add(g, c);
	else
		s->dims[d].overflow++;
}

static void iat_add(struct v2x_bsm_sender *b, int64_t us)
{
	int64_t ms = us / 1000;
	size_t bin;
	if (ms < V2X_IAT_FINE_BINS)
		bin = (size_t)ms;
	else if (ms < V2X_IAT_FINE_BINS + V2X_IAT_COARSE_BINS * V2X_IAT_COARSE_MS)
		bin = V2X_IAT_FINE_BINS + (size_t)(ms - V2X_IAT_FINE_BINS) / V2X_IAT_COARSE_MS;
	else
		bin = V2X_IAT_BINS - 1;
	b->iat[bin]++;
	if (us > b->iat_max_us)
		b->iat_max_us = us;
}

static void bsm_add(struct v2x_bsm_table *t, const struct v2x_frame *f, int64_t ts_us)
{
	struct v2x_bsm_head h;
	if (v2x_bsm_head_read(f->mf.value, f->mf.value_len, &h) < 0) {
		t->unreadable++;
		return;
	}
	struct v2x_bsm_sender *b = bsm_get(t, h.id);
	if (!b) {
		t->overflow++;
		return;
	}
	if (b->messages == 0) {
		b->first_us = ts_us;
	} else {
		iat_add(b, ts_us >= b->last_us ? ts_us - b->last_us : 0);
		unsigned gap = (unsigned)(h.msg_cnt - b->last_cnt - 1 + 256) % 128;
		if (h.msg_cnt == b->last_cnt)
			b->duplicates++;
		else
			b->lost += gap;
	}
	b->messages++;
	b->last_us = ts_us;
	b->last_cnt = h.msg_cnt;
	int32_t age;
	if (v2x_bsm_age_ms(ts_us, h.sec_mark, &age))
		minmax_add(&b->age_ms, age);
}

static void interval_emit(struct v2x_tally *s)
{
	struct v2x_interval iv = {
		.start_us = s->iv_start_us, .len_us = s->interval_us, .total = s->iv_total,
		.n_types = s->iv_n, .type_keys = s->iv_keys, .counts = s->iv_counts,
	};
	s->on_interval(s->interval_ctx, &iv);
	s->iv_n = 0;
	s->iv_total = 0;
}

static int64_t interval_floor(int64_t ts, int64_t len)
{
	int64_t q = ts / len;
	if (ts % len < 0)
		q--;
	return q * len;
}

/* Moves the time series to the interval holding ts, reporting the ones it leaves. A frame
 * older than the open interval (out of order) is counted in the open one. */
static void interval_advance(struct v2x_tally *s, int64_t ts)
{
	int64_t start = interval_floor(ts, s->interval_us);
	if (!s->iv_open) {
		s->iv_open = true;
		s->iv_start_us = start;
		return;
	}
	if (start <= s->iv_start_us)
		return;
	interval_emit(s);
	int64_t empty = (start - s->iv_start_us) / s->interval_us - 1;
	if (empty > MAX_EMPTY_INTERVALS)
		empty = 0;
	for (int64_t i = 1; i <= empty; i++) {
		s->iv_start_us += s->interval_us;
		interval_emit(s);
	}
	s->iv_start_us = start;
}

static void interval_count(struct v2x_tally *s, uint64_t type)
{
	s->iv_total++;
	for (size_t i = 0; i < s->iv_n; i++)
		if (s->iv_keys[i] == type) {
			s->iv_counts[i]++;
			return;
		}
	if (s->iv_n < V2X_TALLY_MAX_GROUPS) {
		s->iv_keys[s->iv_n] = type;
		s->iv_counts[s->iv_n++] = 1;
	}
}

void v2x_tally_finish(struct v2x_tally *s)
{
	if (s->interval_us > 0 && s->iv_open) {
		interval_emit(s);
		s->iv_open = false;
	}
}

static bool filter_pass(const struct v2x_tally_filter *flt, const struct v2x_frame *f)
{
	if (flt->by_type && frame_key(V2X_BY_TYPE, f) != flt->msg_id)
		return false;
	if (flt->by_psid && (!f->wsmp.has_psid || f->wsmp.psid != flt->psid))
		return false;
	return true;
}

void v2x_tally_add(struct v2x_tally *s, const struct v2x_frame *f,
		   const struct v2x_sample *sm)
{
	if (s->frames == 0 || sm->ts_us < s->first_us)
		s->first_us = sm->ts_us;
	if (s->frames == 0 || sm->ts_us > s->last_us)
		s->last_us = sm->ts_us;
	s->frames++;
	s->bytes += sm->caplen;
	if (sm->caplen < sm->wirelen)
		s->sliced++;
	if (f->error)
		s->malformed++;
	s->encap[f->encap]++;
	if (s->encap_view) {
		s->encap_bytes[f->encap] += sm->caplen;
		s->encap_errors[f->encap] += f->error != NULL;
	}
	if (s->interval_us > 0)
		interval_advance(s, sm->ts_us);
	if (f->layer < V2X_LAYER_WSMP) {
		s->nonwsmp[nonwsmp_reason(f)]++;
		return;
	}
	if (!filter_pass(&s->filter, f)) {
		s->filtered_out++;
		return;
	}
	s->wsmp++;
	struct contribution c;
	contribution_of(f, &c);
	/* one call per dimension (not a loop): frame_key's switch folds away */
	dimension_add(s, V2X_BY_TYPE, f, &c);
	dimension_add(s, V2X_BY_PSID, f, &c);
	dimension_add(s, V2X_BY_CHANNEL, f, &c);
	dimension_add(s, V2X_BY_SENDER, f, &c);
	if (s->interval_us > 0)
		interval_count(s, frame_key(V2X_BY_TYPE, f));
	if (f->layer == V2X_LAYER_J2735 && f->mf.msg_id == V2X_BSM_MSG_ID && f->mf.value)
		bsm_add(&s->bsm, f, sm->ts_us);
}

double v2x_tally_span_s(const struct v2x_tally *s)
{
	return s->frames ? (double)(s->last_us - s->first_us) / 1e6 : 0.0;
}

static int group_cmp(const void *a, const void *b)
{
	const struct v2x_group *x = *(const struct v2x_group *const *)a;
	const struct v2x_group *y = *(const struct v2x_group *const *)b;
	if (x->frames != y->frames)
		return x->frames > y->frames ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

size_t v2x_tally_groups(const struct v2x_tally *s, enum v2x_dimension d,
			const struct v2x_group **out, size_t cap)
{
	size_t n = 0;
	for (; n < s->dims[d].n && n < cap; n++)
		out[n] = &s->dims[d].groups[n];
	qsort(out, n, sizeof(*out), group_cmp);
	return n;
}

size_t v2x_tally_encaps(const struct v2x_tally *s, enum v2x_encap *out)
{
	size_t n = 0;
	for (int e = 0; e < V2X_ENCAP_COUNT; e++) {
		if (!s->encap[e])
			continue;
		size_t i = n++;
		for (; i > 0 && s->encap[out[i - 1]] < s->encap[e]; i--) /* insertion: stable */
			out[i] = out[i - 1];
		out[i] = (enum v2x_encap)e;
	}
	return n;
}

static int bsm_cmp(const void *a, const void *b)
{
	const struct v2x_bsm_sender *x = *(const struct v2x_bsm_sender *const *)a;
	const struct v2x_bsm_sender *y = *(const struct v2x_bsm_sender *const *)b;
	if (x->messages != y->messages)
		return x->messages > y->messages ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

size_t v2x_tally_bsm_senders(const struct v2x_tally *s, const struct v2x_bsm_sender **out,
			     size_t cap)
{
	size_t n = 0;
	for (; n < s->bsm.n && n < cap; n++)
		out[n] = &s->bsm.senders[n];
	qsort(out, n, sizeof(*out), bsm_cmp);
	return n;
}

int64_t v2x_bsm_iat_percentile(const struct v2x_bsm_sender *b, unsigned pct)
{
	if (b->messages < 2)
		return -1;
	uint64_t n = b->messages - 1;
	/* nearest-rank: the smallest value with at least pct% of the samples at or below */
	uint64_t rank = (n * pct + 99) / 100;
	if (rank == 0)
		rank = 1;
	uint64_t seen = 0;
	for (size_t i = 0; i < V2X_IAT_BINS; i++) {
		seen += b->iat[i];
		if (seen < rank)
			continue;
		if (i < V2X_IAT_FINE_BINS)
			return (int64_t)i * 1000;
		if (i < V2X_IAT_BINS - 1)
			return (int64_t)(V2X_IAT_FINE_BINS +
					 (i - V2X_IAT_FINE_BINS) * V2X_IAT_COARSE_MS) * 1000;
		break;
	}
	return b->iat_max_us;
}

double v2x_bsm_rate(const struct v2x_bsm_sender *b)
{
	if (b->messages < 2 || b->last_us <= b->first_us)
		return 0.0;
	return (double)(b->messages - 1) * 1e6 / (double)(b->last_us - b->first_us);
}

bool v2x_bsm_unsynchronised(const struct v2x_bsm_sender *b)
{
	if (b->age_ms.n == 0)
		return false;
	int64_t mean = b->age_ms.sum / (int64_t)b->age_ms.n;
	return mean > V2X_AGE_UNSYNC_MS || mean < -V2X_AGE_UNSYNC_MS;
}

const char *v2x_tally_key_name(enum v2x_dimension d, uint64_t key, char *buf, size_t len)
{
	if (key == KEY_UNKNOWN)
		return "-";
	switch (d) {
	case V2X_BY_TYPE: {
		if (key == V2X_TYPE_NO_J2735)
			return "no-J2735";
		const struct v2x_msgid *m = v2x_msgid_lookup((uint32_t)key);
		if (m)
			return m->abbrev;
		snprintf(buf, len, "id%u", (unsigned)key);
		return buf;
	}
	case V2X_BY_PSID:
		snprintf(buf, len, "0x%X", (unsigned)key);
		return buf;
	case V2X_BY_CHANNEL:
		snprintf(buf, len, "%u", (unsigned)key);
		return buf;
	case V2X_BY_SENDER:
		snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", (unsigned)(key >> 40) & 0xff,
			 (unsigned)(key >> 32) & 0xff, (unsigned)(key >> 24) & 0xff,
			 (unsigned)(key >> 16) & 0xff, (unsigned)(key >> 8) & 0xff,
			 (unsigned)key & 0xff);
		return buf;
	default:
		return "?";
	}
}

const char *v2x_dimension_name(enum v2x_dimension d)
{
	static const char *const names[V2X_N_DIMS] = {"type", "psid", "channel", "sender"};
	return (unsigned)d < V2X_N_DIMS ? names[d] : "?";
}

const char *v2x_nonwsmp_name(enum v2x_nonwsmp r)
{
	static const char *const names[V2X_NONWSMP_N] = {
		"link_error", "not_data", "protected", "other_ethertype", "bad_wsmp", "bad_fcs",
	};
	return (unsigned)r < V2X_NONWSMP_N ? names[r] : "?";
}

double v2x_tally_share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

double v2x_tally_rate(uint64_t n, const struct v2x_tally *s)
{
	double span = v2x_tally_span_s(s);
	return span > 0 ? (double)n / span : 0.0;
}

double v2x_bsm_loss_ratio(const struct v2x_bsm_sender *b)
{
	return v2x_tally_share(b->lost, b->lost + b->messages);
}

/* "not in this edition" and the like, from the decoder the build has */
const char *v2x_tally_type_note(enum v2x_dimension d, uint64_t key)
{
	return d == V2X_BY_TYPE && key <= 32767 ? j2735dec_id_note((long)key) : NULL;
}
