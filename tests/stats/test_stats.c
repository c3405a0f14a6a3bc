/* The statistics aggregator fed frames directly: BSM header fast path against the
 * vectors' decodes, msgCnt gaps, inter-arrival percentiles, message age, grouping, filter,
 * time series, table caps. */
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "unit.h"

#define SEC INT64_C(1000000)
#define T0 (INT64_C(1767225600) * SEC) /* 2026-01-01T00:00:00Z, a minute boundary */

/* A BSM value (after the MessageFrame header) with the given core-data header fields. */
struct bsm_buf {
	uint8_t v[16];
};

static void put_bits(uint8_t *buf, size_t pos, unsigned n, uint32_t v)
{
	for (unsigned i = 0; i < n; i++, pos++)
		if (v >> (n - 1 - i) & 1)
			buf[pos / 8] |= (uint8_t)(0x80 >> (pos % 8));
}

static struct bsm_buf bsm_value(uint8_t cnt, uint32_t id, uint16_t sec_mark)
{
	struct bsm_buf b;
	memset(&b, 0, sizeof(b));
	put_bits(b.v, 3, 7, cnt);
	put_bits(b.v, 10, 32, id);
	put_bits(b.v, 42, 16, sec_mark);
	return b;
}

/* A WSMP frame as the pipeline leaves it, from a sender MAC ending in `mac`. */
static struct v2x_frame wsmp_frame(uint32_t psid, int msg_id, uint8_t mac, int8_t dbm,
				   uint16_t freq, size_t payload_len)
{
	struct v2x_frame f;
	memset(&f, 0, sizeof(f));
	f.layer = V2X_LAYER_WSMP;
	f.has_radiotap = true;
	f.rt.has_signal = true;
	f.rt.signal_dbm = dbm;
	f.rt.has_channel = true;
	f.rt.freq = freq;
	f.has_mac = true;
	f.mac.is_data = true;
	f.ethertype = V2X_ETHERTYPE_WSMP;
	f.has_src = true;
	uint8_t src[6] = {0x02, 0, 0, 0, 0, mac};
	memcpy(f.src, src, 6);
	f.has_wsmp = true;
	f.wsmp.version = 3;
	f.wsmp.has_psid = true;
	f.wsmp.psid = psid;
	f.wsmp.payload_len = payload_len;
	f.msg_len = payload_len; /* what parse_message records: the WSM data */
	if (msg_id >= 0) {
		f.layer = V2X_LAYER_J2735;
		f.has_j2735 = true;
		f.mf.has_msg_id = true;
		f.mf.msg_id = (uint16_t)msg_id;
	}
	return f;
}

static void add_at(struct v2x_tally *s, const struct v2x_frame *f, int64_t ts_us)
{
	struct v2x_sample sm = {.ts_us = ts_us, .caplen = 100, .wirelen = 100};
	v2x_tally_add(s, f, &sm);
}

static void add_bsm(struct v2x_tally *s, int64_t ts_us, uint8_t cnt, uint32_t id,
		    uint16_t sec_mark)
{
	struct bsm_buf b = bsm_value(cnt, id, sec_mark);
	struct v2x_frame f = wsmp_frame(0x20, 20, 1, -60, 5860, 40);
	f.mf.value = b.v;
	f.mf.value_len = sizeof(b.v);
	add_at(s, &f, ts_us);
}

static const struct v2x_bsm_sender *only_sender(const struct v2x_tally *s)
{
	const struct v2x_bsm_sender *b[2];
	CHECK_INT(v2x_tally_bsm_senders(s, b, 2), 1);
	return b[0];
}

TEST(stats_msgcnt_gaps_wrap_at_128)
{
	struct v2x_tally s;
	CHECK_INT(v2x_tally_init(&s, NULL), 0);
	static const uint8_t cnt[] = {125, 126, 127, 0, 1, 4, 4, 5, 120};
	int64_t t = T0;
	for (size_t i = 0; i < sizeof(cnt); i++, t += SEC / 10)
		add_bsm(&s, t, cnt[i], 0x12345678, 0);
	const struct v2x_bsm_sender *b = only_sender(&s);
	CHECK_INT(b->messages, 9);
	/* 1 -> 4 loses 2 and 3; 4 -> 4 is a duplicate; 5 -> 120 loses 6..119 (114) */
	CHECK_INT(b->lost, 2 + 114);
	CHECK_INT(b->duplicates, 1);
	v2x_tally_free(&s);
}

TEST(stats_iat_percentiles_from_the_fixed_histogram)
{
	struct v2x_tally s;
	CHECK_INT(v2x_tally_init(&s, NULL), 0);
	int64_t t = T0;
	add_bsm(&s, t, 0, 7, 0);
	for (int i = 1; i <= 18; i++)
		add_bsm(&s, t += 100 * 1000 + 400, (uint8_t)i, 7, 0); /* 100.4 ms */
	add_bsm(&s, t += 150 * 1000, 19, 7, 0);
	add_bsm(&s, t += 2000 * 1000, 20, 7, 0);
	const struct v2x_bsm_sender *b = only_sender(&s);
	CHECK_INT(v2x_bsm_iat_percentile(b, 50), 100 * 1000);  /* 1 ms bin, lower edge */
	CHECK_INT(v2x_bsm_iat_percentile(b, 95), 144 * 1000);  /* 150 ms: 8 ms bin 144..152 */
	CHECK_INT(v2x_bsm_iat_percentile(b, 100), 2000 * 1000); /* overflow bin: the max */
	CHECK_INT(b->iat_max_us, 2000 * 1000);
	v2x_tally_free(&s);
}

TEST(stats_bsm_rate_over_the_senders_span)
{
	struct v2x_tally s;
	CHECK_INT(v2x_tally_init(&s, NULL), 0);
	for (int i = 0; i <= 20; i++)
		add_bsm(&s, T0 + i * SEC / 10, (uint8_t)i, 9, 0);
	const struct v2x_bsm_sender *b = only_sender(&s);
	CHECK_INT((int)(v2x_bsm_rate(b) * 1000 + 0.5), 10000);
	CHECK_INT(v2x_bsm_iat_percentile(b, 50), 100 * 1000);
	v2x_tally_free(&s);
}

TEST(stats_bsm_age_wraps_at_the_minute)
{
	struct v2x_tally s;
	CHECK_INT(v2x_tally_init(&s, NULL), 0);
	/* captured 10 ms into a minute, generated at 59.990 s of the previous one: 20 ms */
	add_bsm(&s, T0 + 10 * 1000, 1, 5, 59990);
	/* captured at 59.995 s, generated 5 ms later by a clock running ahead: -5 ms */
	add_bsm(&s, T0 + 59995 * 1000, 2, 5, 0);
	/* 65535 = unavailable: no age */
	add_bsm(&s, T0 + 60100 * 1000, 3, 5, 65535);
	const struct v2x_bsm_sender *b = only_sender(&s);
	CHECK_INT(b->age_ms.n, 2);
	CHECK_INT(b->age_ms.max, 20);
	CHECK_INT(b->age_ms.min, -5);
	CHECK(!v2x_bsm_unsynchronised(b));
	v2x_tally_free(&s);
}

TEST(stats_bsm_age_flags_unsynchronised_clocks)
{
	struct v2x_tally s;
	CHECK_INT(v2x_tally_init(&s, NULL), 0);
	for (int i = 0; i < 10; i++) /* secMark 25 s behind the capture clock */
		add_bsm(&s, T0 + 30 * SEC + i * SEC / 10, (uint8_t)i, 6,
			(uint16_t)(5000 + i * 100));
	const struct v2x_bsm_sender *b = only_sender(&s);
	CHECK_INT(b->age_ms.min, 25000);
	CHECK(v2x_bsm_unsynchronised(b));
	v2x_tally_free(&s);
}

static const struct v2x_group *group(const struct v2x_tally *s, enum v2x_dimension d,
				     uint64_t key)
{
	static const struct v2x_group none;
	const struct v2x_group *g[64];
	size_t n = v2x_tally_groups(s, d, g, 64);
	for (size_t i = 0; i < n; i++)
		if (g[i]->key == key)
			return g[i];
	unit_fail(__FILE__, __LINE__, "no group %llu in %s", (unsigned long long)key,
		  v2x_dimension_name(d));
	return &none;
}

TEST(stats_groups_per_type_psid_channel_sender)
{
	struct v2x_tally s;
	CHECK_INT(v2x_tally_init(&s, NULL), 0);
	struct v2x_frame spat = wsmp_frame(0x82, 19, 9, -70, 5890, 60);
	struct v2x_frame tim = wsmp_frame(0x83, 31, 9, -75, 5890, 315);
	tim.has_dot2 = true;
	tim.dot2.content = V2X_DOT2_SIGNED;
	struct v2x_frame enc = wsmp_frame(0x20, -1, 2, -90, 5860, 50);
	enc.has_dot2 = true;
	enc.dot2.content = V2X_DOT2_ENCRYPTED;
	struct v2x_frame bad = wsmp_frame(0x20, -1, 2, -41, 5860, 7);
	bad.has_dot2 = true;
	bad.error = "1609.2 truncated";
	bad.error_layer = V2X_LAYER_DOT2;
	add_at(&s, &spat, T0);
	add_at(&s, &spat, T0 + SEC);
	add_at(&s, &tim, T0 + 2 * SEC);
	add_at(&s, &enc, T0 + 3 * SEC);
	struct v2x_sample cut = {.ts_us = T0 + 4 * SEC, .caplen = 60, .wirelen = 120};
	v2x_tally_add(&s, &bad, &cut);
	CHECK_INT(s.frames, 5);
	CHECK_INT(s.sliced, 1);
	CHECK_INT(s.bytes, 4 * 100 + 60);
	CHECK_INT(s.wsmp, 5);
	const struct v2x_group *g = group(&s, V2X_BY_TYPE, 19);
	CHECK_INT(g->frames, 2);
	CHECK_INT(g->unsigned_, 2);
	CHECK_INT(g->bytes.min, 60);
	CHECK_INT(g->rssi.max, -70);
	g = group(&s, V2X_BY_TYPE, 31);
	CHECK_INT(g->signed_, 1);
	g = group(&s, V2X_BY_TYPE, V2X_TYPE_NO_J2735);
	CHECK_INT(g->frames, 2);
	CHECK_INT(g->encrypted, 1);
	CHECK_INT(g->errors, 1);
	g = group(&s, V2X_BY_PSID, 0x20);
	CHECK_INT(g->frames, 2);
	CHECK_INT(g->rssi.min, -90);
	CHECK_INT(g->rssi.max, -41);
	CHECK_INT(g->bytes.sum, 57);
	g = group(&s, V2X_BY_CHANNEL, 5890);
	CHECK_INT(g->frames, 3);
	CHECK_INT(g->rssi.min, -75);
	CHECK_INT(g->rssi.sum, -215);
	g = group(&s, V2X_BY_SENDER, UINT64_C(0x020000000009));
	CHECK_INT(g->frames, 3);
	char buf[32];
	CHECK_STR(v2x_tally_key_name(V2X_BY_SENDER, g->key, buf, sizeof(buf)),
		  "02:00:00:00:00:09");
	CHECK_STR(v2x_tally_key_name(V2X_BY_TYPE, 19, buf, sizeof(buf)), "SPAT");
	CHECK_STR(v2x_tally_key_name(V2X_BY_PSID, 0x82, buf, sizeof(buf)), "0x82");
	CHECK_INT((int)(v2x_tally_span_s(&s) * 1000), 4000);
	v2x_tally_free(&s);
}

TEST(stats_frames_not_wsmp_are_counted_by_reason)
{
	struct v2x_tally s;
	CHECK_INT(v2x_tally_init(&s, NULL), 0);
	struct v2x_frame f;
	memset(&f, 0, sizeof(f));
	f.error = "radiotap header truncated";
	add_at(&s, &f, T0); /* layer NONE */
	memset(&f, 0, sizeof(f));
	f.layer = V2X_LAYER_LINK;
	f.has_mac = true;
	add_at(&s, &f, T0); /* a beacon */
	f.mac.is_data = true;
	f.mac.is_protected = true;
	add_at(&s, &f, T0);
	f.mac.is_protected = false;
	f.ethertype = 0x0800;
	add_at(&s, &f, T0);
	add_at(&s, &f, T0);
	f.ethertype = V2X_ETHERTYPE_WSMP;
	f.error = "WSMP version 7";
	add_at(&s, &f, T0);
	CHECK_INT(s.frames, 6);
	CHECK_INT(s.wsmp, 0);
	CHECK_INT(s.nonwsmp[V2X_NONWSMP_LINK_ERROR], 1);
	CHECK_INT(s.nonwsmp[V2X_NONWSMP_NOT_DATA], 1);
	CHECK_INT(s.nonwsmp[V2X_NONWSMP_PROTECTED], 1);
	CHECK_INT(s.nonwsmp[V2X_NONWSMP_OTHER_ETHERTYPE], 2);
	CHECK_INT(s.nonwsmp[V2X_NONWSMP_BAD_WSMP], 1);
	v2x_tally_free(&s);
}

/* Octets and errors per encapsulation only when the view is asked for (encap_view);
 * frames always; the view sorted by frames, ties in enum order. */
TEST(stats_per_encapsulation_frames_octets_errors)
{
	struct v2x_tally s;
	for (int view = 0; view < 2; view++) {
		CHECK_INT(v2x_tally_init(&s, NULL), 0);
		s.encap_view = view;
		struct v2x_frame f = wsmp_frame(0x20, 20, 1, -60, 5860, 40);
		add_at(&s, &f, T0); /* 100 octets each */
		f.encap = V2X_ENCAP_UDP_DOT2;
		add_at(&s, &f, T0);
		f.error = "IEEE 1609.2 data truncated";
		add_at(&s, &f, T0);
		f.encap = V2X_ENCAP_C2P;
		f.error = NULL;
		add_at(&s, &f, T0);
		CHECK_INT(s.encap[V2X_ENCAP_NONE], 1);
		CHECK_INT(s.encap[V2X_ENCAP_UDP_DOT2], 2);
		CHECK_INT(s.encap[V2X_ENCAP_C2P], 1);
		CHECK_INT(s.encap_bytes[V2X_ENCAP_UDP_DOT2], view ? 200 : 0);
		CHECK_INT(s.encap_bytes[V2X_ENCAP_C2P], view ? 100 : 0);
		CHECK_INT(s.encap_errors[V2X_ENCAP_UDP_DOT2], view ? 1 : 0);
		CHECK_INT(s.encap_errors[V2X_ENCAP_NONE], 0);
		enum v2x_encap e[V2X_ENCAP_COUNT];
		CHECK_INT(v2x_tally_encaps(&s, e), 3);
		CHECK_INT(e[0], V2X_ENCAP_UDP_DOT2);
		CHECK_INT(e[1], V2X_ENCAP_NONE);
		CHECK_INT(e[2], V2X_ENCAP_C2P);
		v2x_tally_free(&s);
	}
}

TEST(stats_filter_keeps_one_type_or_psid)
{
	struct v2x_tally_filter by_type = {.by_type = true, .msg_id = 19};
	struct v2x_tally_filter by_psid = {.by_psid = true, .psid = 0x20};
	struct v2x_tally a, b;
	CHECK_INT(v2x_tally_init(&a, &by_type), 0);
	CHECK_INT(v2x_tally_init(&b, &by_psid), 0);
	struct v2x_frame spat = wsmp_frame(0x82, 19, 9, -70, 5890, 60);
	struct v2x_frame enc = wsmp_frame(0x20, -1, 2, -90, 5860, 50);
	for (struct v2x_tally *s = &a; s; s = s == &a ? &b : NULL) {
		add_at(s, &spat, T0);
		add_at(s, &enc, T0);
		add_at(s, &enc, T0);
	}
	CHECK_INT(a.wsmp, 1);
	CHECK_INT(a.filtered_out, 2);
	CHECK_INT(a.dims[V2X_BY_TYPE].n, 1);
	CHECK_INT(b.wsmp, 2);
	CHECK_INT(b.filtered_out, 1);
	CHECK_INT(group(&b, V2X_BY_PSID, 0x20)->frames, 2);
	v2x_tally_free(&a);
	v2x_tally_free(&b);
}

struct series {
	int n;
	int64_t start[8];
	uint64_t total[8], bsm[8];
};

static void on_interval(void *ctx, const struct v2x_interval *iv)
{
	struct series *sr = ctx;
	if (sr->n >= 8)
		return;
	sr->start[sr->n] = iv->start_us;
	sr->total[sr->n] = iv->total;
	sr->bsm[sr->n] = 0;
	for (size_t i = 0; i < iv->n_types; i++)
		if (iv->type_keys[i] == 20)
			sr->bsm[sr->n] = iv->counts[i];
	sr->n++;
}

TEST(stats_interval_series_reports_every_interval)
{
	struct v2x_tally s;
	struct series sr = {0};
	CHECK_INT(v2x_tally_init(&s, NULL), 0);
	v2x_tally_set_interval(&s, SEC, on_interval, &sr);
	struct v2x_frame spat = wsmp_frame(0x82, 19, 9, -70, 5890, 60);
	add_bsm(&s, T0 + SEC / 2, 1, 1, 0);
	add_at(&s, &spat, T0 + SEC / 2);
	add_bsm(&s, T0 + SEC - 1, 2, 1, 0);
	add_bsm(&s, T0 + 3 * SEC + 5, 3, 1, 0); /* second 1 and 2 are empty */
	CHECK_INT(sr.n, 3);
	v2x_tally_finish(&s);
	CHECK_INT(sr.n, 4);
	CHECK_INT(sr.start[0], T0);
	CHECK_INT(sr.total[0], 3);
	CHECK_INT(sr.bsm[0], 2);
	CHECK_INT(sr.start[1], T0 + SEC);
	CHECK_INT(sr.total[1], 0);
	CHECK_INT(sr.total[2], 0);
	CHECK_INT(sr.start[3], T0 + 3 * SEC);
	CHECK_INT(sr.bsm[3], 1);
	v2x_tally_free(&s);
}

TEST(stats_bsm_sender_table_is_capped)
{
	struct v2x_tally s;
	CHECK_INT(v2x_tally_init(&s, NULL), 0);
	for (uint32_t id = 0; id < V2X_TALLY_MAX_BSM_SENDERS + 100; id++)
		add_bsm(&s, T0, 0, id * 7919, 0);
	CHECK_INT(s.bsm.n, V2X_TALLY_MAX_BSM_SENDERS);
	CHECK_INT(s.bsm.overflow, 100);
	CHECK_INT(s.wsmp, V2X_TALLY_MAX_BSM_SENDERS + 100);
	v2x_tally_free(&s);
}

TEST(stats_group_table_is_capped)
{
	struct v2x_tally s;
	CHECK_INT(v2x_tally_init(&s, NULL), 0);
	for (uint32_t psid = 0; psid < V2X_TALLY_MAX_GROUPS + 10; psid++) {
		struct v2x_frame f = wsmp_frame(psid, -1, 1, -60, 5860, 10);
		add_at(&s, &f, T0);
	}
	CHECK_INT(s.dims[V2X_BY_PSID].n, V2X_TALLY_MAX_GROUPS);
	CHECK_INT(s.dims[V2X_BY_PSID].overflow, 10);
	CHECK_INT(group(&s, V2X_BY_SENDER, UINT64_C(0x020000000001))->frames,
		  V2X_TALLY_MAX_GROUPS + 10);
	v2x_tally_free(&s);
}
