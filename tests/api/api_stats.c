/* A program of the public API only (<v2x/v2x.h>, linked to libv2x.so): statistics and the
 * priority classification as an application uses them, checked against `v2xcap stats`
 * by tests/api/check_stats.py.
 *   api_stats CAPTURE   v2x_stats_json's document, then a line {"priority_of": {KIND: n}}:
 *                       the frames v2x_priority_of gives each kind, then a line {"views":
 *                       ...}: every field of every view, as read (doubles in full)
 * Errors on stderr; exit 1 when the capture cannot be opened or a call fails. */
#include <inttypes.h>
#include <stdio.h>

#include <v2x/v2x.h>

/* Members of the object being printed: the first without a comma before it. */
static bool first;

static void open_object(void)
{
	putchar('{');
	first = true;
}

static void close_object(void)
{
	putchar('}');
	first = false;
}

static void put_key(const char *key)
{
	printf("%s\"%s\": ", first ? "" : ", ", key);
	first = false;
}

/* A JSON string (file names may hold a quote or a backslash). */
static void put_str(const char *key, const char *v)
{
	put_key(key);
	if (!v) {
		printf("null");
		return;
	}
	putchar('"');
	for (; *v; v++)
		if (*v == '"' || *v == '\\')
			printf("\\%c", *v);
		else
			printf((unsigned char)*v < 0x20 ? "\\u%04x" : "%c", *v);
	putchar('"');
}

static void put_u(const char *key, uint64_t v)
{
	put_key(key);
	printf("%" PRIu64, v);
}

static void put_i(const char *key, int64_t v)
{
	put_key(key);
	printf("%" PRId64, v);
}

static void put_d(const char *key, double v)
{
	put_key(key);
	printf("%.17g", v);
}

static void put_b(const char *key, bool v)
{
	put_key(key);
	printf("%s", v ? "true" : "false");
}

static void put_range(const char *key, const struct v2x_stats_range *r)
{
	put_key(key);
	open_object();
	put_u("n", r->n);
	put_i("min", r->min);
	put_d("mean", r->mean);
	put_i("max", r->max);
	close_object();
}

static void put_totals(const struct v2x_stats_totals *t)
{
	put_key("totals");
	open_object();
	put_u("frames", t->frames), put_u("bytes", t->bytes), put_u("sliced", t->sliced);
	put_u("malformed", t->malformed), put_u("wsmp", t->wsmp);
	put_u("filtered_out", t->filtered_out), put_str("filter", t->filter);
	put_u("filter_value", t->filter_value);
	put_i("first_us", t->first_us), put_i("last_us", t->last_us), put_d("span_s", t->span_s);
	put_u("not_wsmp_link_error", t->not_wsmp_link_error);
	put_u("not_wsmp_not_data", t->not_wsmp_not_data);
	put_u("not_wsmp_protected", t->not_wsmp_protected);
	put_u("not_wsmp_other_ethertype", t->not_wsmp_other_ethertype);
	put_u("not_wsmp_bad_wsmp", t->not_wsmp_bad_wsmp);
	put_u("not_wsmp_bad_fcs", t->not_wsmp_bad_fcs), put_u("not_wsmp", t->not_wsmp);
	put_u("n_type", t->n_type), put_u("n_psid", t->n_psid), put_u("n_channel", t->n_channel);
	put_u("n_sender", t->n_sender), put_u("n_encap", t->n_encap);
	put_u("overflow_type", t->overflow_type), put_u("overflow_psid", t->overflow_psid);
	put_u("overflow_channel", t->overflow_channel);
	put_u("overflow_sender", t->overflow_sender);
	put_u("n_bsm_senders", t->n_bsm_senders), put_u("bsm_overflow", t->bsm_overflow);
	put_u("bsm_unreadable", t->bsm_unreadable), put_u("n_priority", t->n_priority);
	put_u("priority_overflow", t->priority_overflow);
	put_b("priority_files", t->priority_files), put_str("j2735_edition", t->j2735_edition);
	close_object();
}

static void put_group(const struct v2x_stats_group *g)
{
	open_object();
	put_str("key", g->key), put_b("has_value", g->has_value), put_u("value", g->value);
	put_u("frames", g->frames), put_d("share", g->share), put_d("rate_per_s", g->rate_per_s);
	put_range("bytes", &g->bytes), put_range("rssi_dbm", &g->rssi_dbm);
	put_u("signed_frames", g->signed_frames), put_u("unsigned_frames", g->unsigned_frames);
	put_u("encrypted_frames", g->encrypted_frames), put_u("errors", g->errors);
	put_u("trailing", g->trailing), put_str("note", g->note), put_u("octets", g->octets);
	close_object();
}

static void put_bsm(const struct v2x_stats_bsm_sender *b)
{
	open_object();
	put_u("temporary_id", b->temporary_id), put_u("messages", b->messages);
	put_d("rate_hz", b->rate_hz), put_d("rate_ratio_to_10hz", b->rate_ratio_to_10hz);
	put_b("has_iat", b->has_iat), put_d("iat_p50_ms", b->iat_p50_ms);
	put_d("iat_p95_ms", b->iat_p95_ms), put_d("iat_max_ms", b->iat_max_ms);
	put_u("msgcnt_lost", b->msgcnt_lost), put_d("loss_ratio", b->loss_ratio);
	put_u("duplicates", b->duplicates), put_range("age_ms", &b->age_ms);
	put_b("unsynchronised", b->unsynchronised);
	close_object();
}

static void put_priority(const struct v2x_stats_priority *p)
{
	char events[200];
	v2x_priority_events_text(p->events, events, sizeof(events));
	open_object();
	put_str("kind", v2x_priority_kind_name(p->kind)), put_str("sender", p->sender);
	put_u("messages", p->messages), put_b("is_bsm", p->is_bsm), put_u("events", p->events);
	put_str("events_text", events), put_u("n_frames", p->n_frames);
	put_key("frames");
	putchar('[');
	for (unsigned k = 0; k < p->n_frames; k++) {
		printf("%s", k ? ", " : "");
		open_object();
		put_str("file", p->frames[k].file);
		put_u("frame", p->frames[k].frame);
		close_object();
	}
	putchar(']');
	close_object();
}

/* Every view of s as one line {"views": {totals, groups {DIM: [...]}, bsm_senders,
 * priority}}: each list read entry by entry until the getter says it is past the end. */
static int put_views(struct v2x_stats *s)
{
	static const char *const dims[V2X_STATS_DIM_N] = {"type", "psid", "channel", "sender",
							  "encap"};
	struct v2x_stats_totals t = {.size = sizeof(t)};
	struct v2x_stats_group g = {.size = sizeof(g)};
	struct v2x_stats_bsm_sender b = {.size = sizeof(b)};
	struct v2x_stats_priority p = {.size = sizeof(p)};
	int r;
	if (v2x_stats_get_totals(s, &t) < 0)
		return -1;
	open_object();
	put_key("views");
	open_object();
	put_totals(&t);
	put_key("groups");
	open_object();
	for (int d = 0; d < V2X_STATS_DIM_N; d++) {
		put_key(dims[d]);
		putchar('[');
		enum v2x_stats_dim dim = (enum v2x_stats_dim)d;
		for (size_t i = 0; (r = v2x_stats_get_group(s, dim, i, &g)) == 1; i++) {
			printf("%s", i ? ", " : "");
			put_group(&g);
		}
		putchar(']');
		if (r < 0)
			return -1;
	}
	close_object();
	put_key("bsm_senders");
	putchar('[');
	for (size_t i = 0; (r = v2x_stats_get_bsm_sender(s, i, &b)) == 1; i++) {
		printf("%s", i ? ", " : "");
		put_bsm(&b);
	}
	putchar(']');
	if (r < 0)
		return -1;
	put_key("priority");
	putchar('[');
	for (size_t i = 0; (r = v2x_stats_get_priority(s, i, &p)) == 1; i++) {
		printf("%s", i ? ", " : "");
		put_priority(&p);
	}
	printf("]}}\n");
	return r;
}

int main(int argc, char **argv)
{
	char errbuf[V2X_ERRBUF_SIZE];
	if (argc != 2) {
		fprintf(stderr, "usage: api_stats CAPTURE\n");
		return 2;
	}
	struct v2x_stats *s = v2x_stats_new(errbuf);
	struct v2x_capture *c = s ? v2x_capture_open(argv[1], errbuf) : NULL;
	if (!c) {
		fprintf(stderr, "api_stats: %s\n", errbuf);
		v2x_stats_free(s);
		return 1;
	}
	unsigned long long kinds[V2X_PRIO_N] = {0};
	const struct v2x_record *rec;
	const struct v2x_frame *f;
	int r, rc = 0;
	while ((r = v2x_capture_next(c, &rec, &f)) != 0) {
		struct v2x_priority p = {.size = sizeof(p)};
		if (r < 0)
			continue; /* a bad record: v2xcap stats does not count it either */
		if (v2x_stats_add(s, argv[1], rec, f) < 0 || v2x_priority_of(f, &p) < 0) {
			fprintf(stderr, "api_stats: %s\n", v2x_stats_geterr(s));
			rc = 1;
		}
		for (int k = 0; k < V2X_PRIO_N; k++)
			kinds[k] += p.kinds >> k & 1;
	}
	const char *json;
	size_t len;
	if (v2x_stats_json(s, &json, &len) < 0) {
		fprintf(stderr, "api_stats: %s\n", v2x_stats_geterr(s));
		rc = 1;
	} else {
		fwrite(json, 1, len, stdout);
	}
	printf("{\"priority_of\": {");
	for (int k = 0; k < V2X_PRIO_N; k++)
		printf("%s\"%s\": %llu", k ? ", " : "", v2x_priority_kind_name(k), kinds[k]);
	printf("}}\n");
	if (put_views(s) < 0) {
		fprintf(stderr, "api_stats: %s\n", v2x_stats_geterr(s));
		rc = 1;
	}
	v2x_capture_close(c);
	v2x_stats_free(s);
	return rc;
}
