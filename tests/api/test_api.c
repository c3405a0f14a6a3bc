/* libv2x's public API as an application meets it (<v2x/v2x.h> only, linked to
 * libv2x.so): arguments it does not take, files it cannot read, a caller's struct of an
 * older size, and values of real frames.
 *   test_api CASE   (the cases: tests/api/CMakeLists.txt) */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <v2x/v2x.h>

static int failures;
#define CHECK(c)                                                              \
	do {                                                                  \
		if (!(c)) {                                                   \
			fprintf(stderr, "%s:%d: CHECK(%s)\n", __FILE__, __LINE__, #c); \
			failures++;                                           \
		}                                                             \
	} while (0)

static const char *captures = V2X_CAPTURES_DIR;

static void null_arguments_get_einval_never_a_crash(void)
{
	char errbuf[V2X_ERRBUF_SIZE] = "";
	CHECK(!v2x_capture_open(NULL, errbuf) && strstr(errbuf, "no path"));
	CHECK(!v2x_capture_open("x.pcap", NULL));
	CHECK(v2x_capture_next(NULL, NULL, NULL) == V2X_EINVAL);
	CHECK(v2x_capture_geterr(NULL)[0]);
	CHECK(v2x_capture_offset(NULL) == 0);
	v2x_capture_close(NULL);
	struct v2x_frame *f = v2x_frame_new();
	CHECK(f);
	CHECK(v2x_frame_parse(V2X_LINK_RADIOTAP, NULL, 10, f) == V2X_EINVAL);
	CHECK(v2x_frame_parse(V2X_LINK_RADIOTAP, (const uint8_t *)"", 0, NULL) == V2X_EINVAL);
	CHECK(v2x_message_parse(NULL, 3, f) == V2X_EINVAL);
	struct v2x_frame_info i = {.size = sizeof(i)};
	CHECK(v2x_frame_get_info(NULL, &i) == V2X_EINVAL);
	CHECK(v2x_frame_get_info(f, NULL) == V2X_EINVAL);
	i.size = 0; /* no size: not a struct the library can fill */
	CHECK(v2x_frame_get_info(f, &i) == V2X_EINVAL);
	size_t len = 99;
	CHECK(!v2x_frame_message(NULL, &len) && len == 0);
	v2x_frame_free(f);
	v2x_frame_free(NULL);
	CHECK(!v2x_capture_open_live(NULL, 0, errbuf) && strstr(errbuf, "no interface"));
	CHECK(!v2x_capture_open_live("lo", 0, NULL));
	CHECK(v2x_capture_fd(NULL) == -1);
	CHECK(v2x_capture_linktype(NULL) == V2X_EINVAL);
	v2x_capture_breakloop(NULL);
	struct v2x_capture_stats st = {.size = sizeof(st)};
	CHECK(v2x_capture_stats(NULL, &st) == V2X_EINVAL);
	CHECK(strcmp(v2x_strerror(V2X_EINVAL), "invalid argument") == 0);
	CHECK(strcmp(v2x_strerror(12345), "unknown status") == 0);
	struct v2x_priority p = {.size = sizeof(p)};
	CHECK(v2x_priority_of(NULL, &p) == V2X_EINVAL);
	CHECK(strcmp(v2x_priority_kind_name(V2X_PRIO_N), "?") == 0);
	CHECK(strcmp(v2x_priority_kind_name(-1), "?") == 0);
	CHECK(v2x_priority_events_text(1, NULL, 10) == V2X_EINVAL);
	CHECK(!v2x_stats_new(NULL));
	CHECK(v2x_stats_add(NULL, "x", NULL, NULL) == V2X_EINVAL);
	CHECK(v2x_stats_json(NULL, NULL, NULL) == V2X_EINVAL);
	CHECK(v2x_stats_geterr(NULL)[0]);
	v2x_stats_free(NULL);
	struct v2x_stats *s = v2x_stats_new(errbuf);
	const char *json = NULL;
	CHECK(s && v2x_stats_add(s, "x", NULL, NULL) == V2X_EINVAL && v2x_stats_geterr(s)[0]);
	CHECK(s && v2x_stats_json(s, &json, NULL) == V2X_OK && strncmp(json, "{\"frames\":0,", 12) == 0);
	v2x_stats_free(s);
}

/* A BSM with event flags (udp2-radiotap.pcap, one frame): its priority
 * through the API, its flags by name, and a size smaller than the first release's
 * refused. */
static void priority_of_a_bsm_with_event_flags(void)
{
	char errbuf[V2X_ERRBUF_SIZE], path[512];
	snprintf(path, sizeof(path), "%s/udp2-radiotap.pcap", captures);
	struct v2x_capture *c = v2x_capture_open(path, errbuf);
	CHECK(c);
	const struct v2x_frame *f;
	int n = 0, events = 0;
	while (c && v2x_capture_next(c, NULL, &f) > 0) {
		struct v2x_priority p = {.size = sizeof(p)};
		char names[200];
		CHECK(v2x_priority_of(f, &p) >= 0);
		if (p.kinds & 1u << V2X_PRIO_BSM_EVENTS) {
			events++;
			CHECK(p.is_bsm && p.events);
			CHECK(v2x_priority_events_text(p.events, names, sizeof(names)) == V2X_OK &&
			      strcmp(names, "eventLightsChanged") == 0);
		}
		p.size = 4;
		CHECK(v2x_priority_of(f, &p) == V2X_EINVAL);
		n++;
	}
	CHECK(n == 1 && events == 1);
	v2x_capture_close(c);
}

static void open_errors_name_the_file_and_the_cause(void)
{
	char errbuf[V2X_ERRBUF_SIZE] = "";
	CHECK(!v2x_capture_open("/nonexistent/x.pcap", errbuf));
	CHECK(strstr(errbuf, "/nonexistent/x.pcap: No such file or directory"));
	char path[512];
	snprintf(path, sizeof(path), "%s/bad/garbage.pcap", captures);
	CHECK(!v2x_capture_open(path, errbuf));
	CHECK(strstr(errbuf, path) && strlen(errbuf) > strlen(path) + 2);
	/* No such interface: named, whether or not this process may capture. */
	CHECK(!v2x_capture_open_live("v2xnosuch0", 0, errbuf));
	CHECK(strncmp(errbuf, "v2xnosuch0: ", 12) == 0 && strlen(errbuf) > 14);
}

/* A file's counts and the live-only calls on a file: no descriptor, breakloop nothing. */
static void file_capture_counts_and_live_calls_on_a_file(void)
{
	char errbuf[V2X_ERRBUF_SIZE], path[512];
	snprintf(path, sizeof(path), "%s/mixed.pcap", captures);
	struct v2x_capture *c = v2x_capture_open(path, errbuf);
	CHECK(c);
	if (!c)
		return;
	CHECK(v2x_capture_fd(c) == -1 && v2x_capture_linktype(c) == 0);
	v2x_capture_breakloop(c);
	int n = 0;
	while (v2x_capture_next(c, NULL, NULL) > 0)
		n++;
	CHECK(n == 7 && v2x_capture_linktype(c) == V2X_LINK_RADIOTAP);
	struct v2x_capture_stats st = {.size = sizeof(st)};
	CHECK(v2x_capture_stats(c, &st) == V2X_OK);
	CHECK(st.seen == 7 && st.handed_out == 7 && st.received == 0 && st.dropped_kernel == 0);
	st.size = 0;
	CHECK(v2x_capture_stats(c, &st) == V2X_EINVAL);
	v2x_capture_close(c);
}

/* The statistics views (mixed.pcap): NULL, a size too small or a dimension not in the
 * enum give V2X_EINVAL and a message; an index past the end gives 0 and leaves the
 * struct as it was; the totals' counts say where the end is. */
static void stats_views_refuse_bad_arguments_and_end_past_the_last(void)
{
	char errbuf[V2X_ERRBUF_SIZE], path[512];
	struct v2x_stats_totals t = {.size = sizeof(t)};
	struct v2x_stats_group g = {.size = sizeof(g)};
	struct v2x_stats_bsm_sender b = {.size = sizeof(b)};
	struct v2x_stats_priority p = {.size = sizeof(p)};
	CHECK(v2x_stats_get_totals(NULL, &t) == V2X_EINVAL);
	CHECK(v2x_stats_get_group(NULL, V2X_STATS_BY_TYPE, 0, &g) == V2X_EINVAL);
	CHECK(v2x_stats_get_bsm_sender(NULL, 0, &b) == V2X_EINVAL);
	CHECK(v2x_stats_get_priority(NULL, 0, &p) == V2X_EINVAL);
	struct v2x_stats *s = v2x_stats_new(errbuf);
	snprintf(path, sizeof(path), "%s/mixed.pcap", captures);
	struct v2x_capture *c = s ? v2x_capture_open(path, errbuf) : NULL;
	CHECK(c);
	if (!c) {
		v2x_stats_free(s);
		return;
	}
	CHECK(v2x_stats_get_totals(s, &t) == V2X_OK && t.frames == 0 && t.first_us == 0);
	CHECK(v2x_stats_get_group(s, V2X_STATS_BY_TYPE, 0, &g) == 0);
	const struct v2x_record *rec;
	const struct v2x_frame *f;
	while (v2x_capture_next(c, &rec, &f) > 0)
		CHECK(v2x_stats_add(s, path, rec, f) == V2X_OK);
	CHECK(v2x_stats_get_totals(s, NULL) == V2X_EINVAL && v2x_stats_geterr(s)[0]);
	t.size = sizeof(t) - 1;
	CHECK(v2x_stats_get_totals(s, &t) == V2X_EINVAL && strstr(v2x_stats_geterr(s), "size"));
	t.size = sizeof(t);
	CHECK(v2x_stats_get_totals(s, &t) == V2X_OK && !v2x_stats_geterr(s)[0]);
	CHECK(t.frames == 7 && t.wsmp == 7 && t.n_type > 0 && t.n_bsm_senders > 0);
	CHECK(v2x_stats_get_group(s, V2X_STATS_DIM_N, 0, &g) == V2X_EINVAL);
	CHECK(v2x_stats_get_group(s, (enum v2x_stats_dim)-1, 0, &g) == V2X_EINVAL);
	CHECK(v2x_stats_get_group(s, V2X_STATS_BY_TYPE, 0, NULL) == V2X_EINVAL);
	g.size = 0;
	CHECK(v2x_stats_get_group(s, V2X_STATS_BY_TYPE, 0, &g) == V2X_EINVAL);
	g.size = sizeof(g);
	CHECK(v2x_stats_get_group(s, V2X_STATS_BY_TYPE, t.n_type - 1, &g) == 1 && g.frames > 0);
	struct v2x_stats_group last = g;
	CHECK(v2x_stats_get_group(s, V2X_STATS_BY_TYPE, t.n_type, &g) == 0);
	CHECK(v2x_stats_get_group(s, V2X_STATS_BY_ENCAP, t.n_encap, &g) == 0);
	CHECK(v2x_stats_get_group(s, V2X_STATS_BY_SENDER, (size_t)-1, &g) == 0);
	CHECK(memcmp(&g, &last, sizeof(g)) == 0);
	b.size = sizeof(b) / 2;
	CHECK(v2x_stats_get_bsm_sender(s, 0, &b) == V2X_EINVAL);
	b.size = sizeof(b);
	CHECK(v2x_stats_get_bsm_sender(s, 0, NULL) == V2X_EINVAL);
	CHECK(v2x_stats_get_bsm_sender(s, t.n_bsm_senders - 1, &b) == 1 && b.messages > 0);
	CHECK(v2x_stats_get_bsm_sender(s, t.n_bsm_senders, &b) == 0);
	p.size = 1;
	CHECK(v2x_stats_get_priority(s, 0, &p) == V2X_EINVAL);
	p.size = sizeof(p);
	CHECK(v2x_stats_get_priority(s, 0, NULL) == V2X_EINVAL);
	CHECK(v2x_stats_get_priority(s, t.n_priority, &p) == 0);
	v2x_capture_close(c);
	v2x_stats_free(s);
}

/* A file cut short in a record (bsm-128.pcap without its last 50 octets): the 127
 * frames before it, one error naming the file and the frame, then the end (no loop). */
static void truncated_capture_gives_frames_then_one_error_then_the_end(void)
{
	char errbuf[V2X_ERRBUF_SIZE], path[512], cut[] = "/tmp/v2x-api-cut-XXXXXX";
	snprintf(path, sizeof(path), "%s/bsm-128.pcap", captures);
	FILE *in = fopen(path, "rb");
	int fd = mkstemp(cut);
	CHECK(in && fd >= 0);
	if (!in || fd < 0)
		return;
	static unsigned char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof(buf), in);
	fclose(in);
	CHECK(n > 50 && write(fd, buf, n - 50) == (ssize_t)(n - 50));
	close(fd);
	struct v2x_capture *c = v2x_capture_open(cut, errbuf);
	CHECK(c);
	int r = 0, frames = 0, errors = 0, calls = 0;
	while (c && (r = v2x_capture_next(c, NULL, NULL)) != 0 && calls++ < 1000) {
		if (r > 0) {
			frames++;
		} else {
			CHECK(r == V2X_EFORMAT);
			CHECK(strstr(v2x_capture_geterr(c), cut));
			CHECK(strstr(v2x_capture_geterr(c), "frame 128: "));
			errors++;
		}
	}
	CHECK(r == 0 && errors == 1 && frames == 127);
	v2x_capture_close(c);
	unlink(cut);
}

/* The values of the first BSM of bsm-radiotap-signed.pcap (its expect.json: its
 * generator's, the payload a vector of asn1_codec's), and an older caller's shorter
 * struct filled as far as it reaches. */
static void signed_bsm_values_and_a_shorter_info_struct(void)
{
	char errbuf[V2X_ERRBUF_SIZE], path[512];
	snprintf(path, sizeof(path), "%s/bsm-radiotap-signed.pcap", captures);
	struct v2x_capture *c = v2x_capture_open(path, errbuf);
	CHECK(c);
	if (!c)
		return;
	const struct v2x_record *rec;
	const struct v2x_frame *f;
	CHECK(v2x_capture_next(c, &rec, &f) == 1);
	CHECK(rec->number == 1 && rec->linktype == V2X_LINK_RADIOTAP);
	CHECK(rec->ts_ns == 1700000000000000000LL);
	struct v2x_frame_info i = {.size = sizeof(i)};
	CHECK(v2x_frame_get_info(f, &i) == V2X_OK);
	CHECK(i.layer == V2X_LAYER_J2735 && !i.error);
	CHECK(i.has_src && memcmp(i.src, "\x02\0\0\0\0\x01", 6) == 0);
	CHECK(i.freq_mhz == 5860 && i.has_signal && i.signal_dbm == -60);
	CHECK(strcmp(i.llc, "snap") == 0 && strcmp(i.encap, "none") == 0);
	CHECK(i.has_wsmp && i.wsmp_version == 3 && i.has_wsmp_psid && i.wsmp_psid == 32);
	CHECK(i.has_dot2 && strcmp(i.dot2_content, "signedData") == 0);
	CHECK(i.has_dot2_psid && i.dot2_psid == 32);
	CHECK(i.has_generation_time && i.generation_time_us == 627084805000000ULL);
	CHECK(i.has_message_id && i.message_id == 20 && strcmp(i.message_name, "BSM") == 0);
	size_t len;
	const uint8_t *mf = v2x_frame_message(f, &len);
	CHECK(mf && len == 177 && i.message_len == 177 && mf[0] == 0x00 && mf[1] == 0x14);
	CHECK(i.trailing_octets == 0 && !i.message_truncated);
	/* an application built against the first members only */
	struct v2x_frame_info old;
	memset(&old, 0xA5, sizeof(old));
	old.size = offsetof(struct v2x_frame_info, has_src);
	CHECK(v2x_frame_get_info(f, &old) == V2X_OK);
	CHECK(old.layer == V2X_LAYER_J2735 && !old.error);
	CHECK(*(unsigned char *)&old.has_src == 0xA5); /* past its size: untouched */
	v2x_capture_close(c);
}

/* A MessageFrame whose open type is longer than the WSM holding it
 * (bad/bsm-messageframe-cut.pcap: a 32-octet WSM): the error names the layer, and the
 * octets there are, the WSM's, are handed out as the message. */
static void messageframe_cut_short_gives_the_octets_there_are(void)
{
	char errbuf[V2X_ERRBUF_SIZE], path[512];
	snprintf(path, sizeof(path), "%s/bad/bsm-messageframe-cut.pcap", captures);
	struct v2x_capture *c = v2x_capture_open(path, errbuf);
	CHECK(c);
	if (!c)
		return;
	const struct v2x_record *rec;
	const struct v2x_frame *f;
	CHECK(v2x_capture_next(c, &rec, &f) == 1);
	struct v2x_frame_info i = {.size = sizeof(i)};
	CHECK(v2x_frame_get_info(f, &i) == V2X_OK);
	CHECK(i.error && i.error_layer == V2X_LAYER_J2735 && i.message_truncated);
	CHECK(i.has_message_id && i.message_id == 20 && i.message_len == 32);
	size_t len;
	const uint8_t *mf = v2x_frame_message(f, &len);
	CHECK(mf && len == 32 && mf + len == rec->data + rec->caplen); /* the WSM's end */
	CHECK(v2x_capture_next(c, &rec, &f) == 0);
	v2x_capture_close(c);
}

/* A visitor with only key and integer: the integers of the members named "secMark" and
 * "heading" (BSM coreData), and how many keys came. */
struct picks {
	const char *last;
	long long sec_mark, heading;
	int keys;
};
static void pick_key(void *p, const char *name)
{
	struct picks *k = p;
	k->last = name;
	k->keys++;
}
static void pick_integer(void *p, long long v)
{
	struct picks *k = p;
	if (k->last && strcmp(k->last, "secMark") == 0)
		k->sec_mark = v;
	if (k->last && strcmp(k->last, "heading") == 0)
		k->heading = v;
}

/* The record walk's visits of a line: its keys, its real numbers ("time"), its texts. */
struct line_counts {
	int keys, numbers, texts;
};
static void count_key(void *p, const char *name) { (void)name, ((struct line_counts *)p)->keys++; }
static void count_number(void *p, double v) { (void)v, ((struct line_counts *)p)->numbers++; }
static void count_text(void *p, const char *s, size_t n)
{
	(void)s, (void)n, ((struct line_counts *)p)->texts++;
}

/* v2x_decode_record_walk on the first record of bsm-128.pcap: a visitor of libv2x 0.1's
 * size (up to null) is taken and never sees number(), which lies past its size; the
 * whole visitor sees "time" once; a size below 0.1's is V2X_EINVAL. */
static void record_walk_takes_a_visitor_of_the_older_size(void)
{
	char errbuf[V2X_ERRBUF_SIZE], path[512];
	snprintf(path, sizeof(path), "%s/bsm-128.pcap", captures);
	struct v2x_capture *c = v2x_capture_open(path, errbuf);
	struct v2x_decoder *d = v2x_decoder_open(errbuf);
	const struct v2x_record *rec;
	CHECK(c && d);
	if (!c || !d || v2x_capture_next(c, &rec, NULL) != 1) {
		CHECK(!"a record");
		v2x_capture_close(c);
		v2x_decoder_close(d);
		return;
	}
	const size_t old_size = offsetof(struct v2x_visitor, number);
	struct v2x_visitor v = {.size = old_size, .key = count_key, .text = count_text,
				.number = count_number};
	struct line_counts old = {0}, now = {0};
	CHECK(v2x_decode_record_walk(d, path, rec, 0, &v, &old) == 1);
	CHECK(old.keys > 10 && old.texts > 2 && old.numbers == 0);
	v.size = sizeof(v);
	CHECK(v2x_decode_record_walk(d, path, rec, 0, &v, &now) == 1);
	CHECK(now.keys == old.keys && now.texts == old.texts && now.numbers == 1);
	v.size = old_size - 1;
	CHECK(v2x_decode_record_walk(d, path, rec, 0, &v, &now) == V2X_EINVAL);
	CHECK(v2x_decode_record_walk(NULL, path, rec, 0, &v, &now) == V2X_EINVAL);
	CHECK(v2x_decode_record_walk(d, path, NULL, 0, &v, &now) == V2X_EINVAL);
	CHECK(v2x_decode_record_walk(d, path, rec, 0, NULL, &now) == V2X_EINVAL);
	v2x_capture_close(c);
	v2x_decoder_close(d);
}

/* asn1_codec's BSM (tests/vectors/asn1_codec/j2735.MessageFrame.Bsm.uper) through the
 * decoder, with the values of its own XER decode (j2735.MessageFrame.Bsm.xml); cut
 * short, it is an error that says so. */
static void decoder_gives_the_values_of_asn1_codecs_bsm(void)
{
	char errbuf[V2X_ERRBUF_SIZE], path[512];
	snprintf(path, sizeof(path), "%s/asn1_codec/j2735.MessageFrame.Bsm.uper", V2X_VECTORS_DIR);
	FILE *in = fopen(path, "rb");
	CHECK(in);
	if (!in)
		return;
	uint8_t buf[512];
	size_t n = fread(buf, 1, sizeof(buf), in);
	fclose(in);
	struct v2x_decoder *d = v2x_decoder_open(errbuf);
	CHECK(d);
	if (!d)
		return;
	const char *json = NULL;
	size_t len = 0;
	CHECK(v2x_decode_json(d, buf, n, 0, &json, &len) == V2X_OK);
	const char *head = "{\"messageId\":20,\"name\":\"BSM\",";
	CHECK(json && strlen(json) == len && strncmp(json, head, strlen(head)) == 0);
	struct picks k = {0};
	const struct v2x_visitor v = {.size = sizeof(v), .key = pick_key, .integer = pick_integer};
	if (v2x_decoder_edition(d)) {
		const char *want[] = {"\"msgCnt\":88,", "\"id\":\"bea10000\"", "\"secMark\":59299,",
				      "\"lat\":411642143,", "\"long\":-1048434120,", "\"elev\":18822,",
				      "\"transmission\":\"unavailable\"", "\"heading\":15290,"};
		for (size_t i = 0; json && i < sizeof(want) / sizeof(want[0]); i++)
			CHECK(strstr(json, want[i]));
		CHECK(v2x_decode_walk(d, buf, n, &v, &k) == V2X_OK);
		CHECK(k.sec_mark == 59299 && k.heading == 15290 && k.keys > 20);
		/* a caller of libv2x 0.1's header: its visitor ends at null */
		struct v2x_visitor old = v;
		old.size = offsetof(struct v2x_visitor, number);
		struct picks k_old = {0};
		CHECK(v2x_decode_walk(d, buf, n, &old, &k_old) == V2X_OK);
		CHECK(k_old.keys == k.keys && k_old.sec_mark == 59299);
	} else { /* built without a schema: the id and name, no value, no walk */
		CHECK(json && !strstr(json, "\"value\""));
		CHECK(v2x_decode_walk(d, buf, n, &v, &k) == V2X_ENOTSUP);
	}
	CHECK(v2x_decode_json(d, buf, 3, 0, &json, NULL) == V2X_EFORMAT);
	CHECK(v2x_decoder_geterr(d)[0]);
	CHECK(v2x_decode_json(NULL, buf, n, 0, &json, NULL) == V2X_EINVAL);
	CHECK(v2x_decode_json(d, NULL, n, 0, &json, NULL) == V2X_EINVAL);
	CHECK(v2x_decode_json(d, buf, n, 0, NULL, NULL) == V2X_EINVAL);
	CHECK(v2x_decode_record_json(d, "x", NULL, 0, &json, NULL) == V2X_EINVAL);
	struct v2x_visitor small = {.size = 0};
	CHECK(v2x_decode_walk(d, buf, n, &small, NULL) == V2X_EINVAL);
	CHECK(v2x_decoder_geterr(NULL)[0]);
	CHECK(!v2x_decoder_edition(NULL));
	CHECK(!v2x_decoder_open(NULL));
	v2x_decoder_close(d);
	v2x_decoder_close(NULL);
}

static int count_interfaces(const struct v2x_ocb_status *st, void *ctx)
{
	CHECK(st->size == sizeof(*st) && st->ifname[0] && st->iftype_name);
	++*(int *)ctx;
	return 0;
}

/* OCB control's errors: NULL arguments, and where nl80211 is there (the e2e guest sets
 * V2X_TEST_OCB_IFACE to one of its hwsim radios) what the kernel is never asked and what
 * it refuses, each naming the interface. */
static void ocb_arguments_and_errors_name_the_interface(void)
{
	char errbuf[V2X_ERRBUF_SIZE] = "";
	struct v2x_ocb_status st = {.size = sizeof(st)};
	CHECK(!v2x_ocb_open(NULL));
	CHECK(v2x_ocb_join(NULL, "wlan0", 5890, 10) == V2X_EINVAL);
	CHECK(v2x_ocb_leave(NULL, "wlan0") == V2X_EINVAL);
	CHECK(v2x_ocb_monitor_add(NULL, "wlan0", "mon0") == V2X_EINVAL);
	CHECK(v2x_ocb_status(NULL, "wlan0", &st) == V2X_EINVAL);
	CHECK(v2x_ocb_list(NULL, count_interfaces, NULL) == V2X_EINVAL);
	CHECK(v2x_ocb_geterr(NULL)[0] && !v2x_ocb_gethint(NULL)[0]);
	v2x_ocb_close(NULL);
	CHECK(strcmp(v2x_strerror(V2X_ENODEV), "no such device") == 0);
	struct v2x_ocb *o = v2x_ocb_open(errbuf);
	if (!o) { /* no nl80211 here (no cfg80211): said so */
		CHECK(strncmp(errbuf, "cannot talk to nl80211: ", 24) == 0);
		return;
	}
	CHECK(v2x_ocb_join(o, NULL, 5890, 10) == V2X_EINVAL && strstr(v2x_ocb_geterr(o), "name"));
	CHECK(v2x_ocb_join(o, "v2xnosuch0", 5890, 10) == V2X_ENODEV);
	CHECK(strncmp(v2x_ocb_geterr(o), "looking up v2xnosuch0: ", 23) == 0);
	CHECK(strstr(v2x_ocb_gethint(o), "no such wireless interface"));
	CHECK(v2x_ocb_status(o, "lo", &st) == V2X_ENODEV && strstr(v2x_ocb_geterr(o), "lo: "));
	CHECK(v2x_ocb_list(o, NULL, NULL) == V2X_EINVAL);
	int n = 0;
	CHECK(v2x_ocb_list(o, count_interfaces, &n) == V2X_OK);
	const char *wlan = getenv("V2X_TEST_OCB_IFACE");
	if (wlan) {
		CHECK(n >= 1);
		CHECK(v2x_ocb_status(o, wlan, &st) == V2X_OK && strcmp(st.ifname, wlan) == 0);
		CHECK(st.phy_known && st.ocb_supported && st.iftype_name[0]);
		CHECK(v2x_ocb_join(o, wlan, 5890, 7) == V2X_EINVAL && strstr(v2x_ocb_geterr(o), "7 MHz"));
		CHECK(v2x_ocb_join(o, wlan, 100, 10) == V2X_EINVAL);
		CHECK(v2x_ocb_join(o, wlan, 5500, 20) == V2X_EINVAL); /* disabled: the kernel says */
		CHECK(strstr(v2x_ocb_geterr(o), "(kernel: ") && strstr(v2x_ocb_gethint(o), "regulatory"));
		CHECK(v2x_ocb_monitor_add(o, wlan, "lo") == V2X_EINVAL);
		CHECK(strstr(v2x_ocb_geterr(o), "lo exists and is not a monitor"));
		st.size = 8;
		CHECK(v2x_ocb_status(o, wlan, &st) == V2X_EINVAL);
		printf("OCB calls checked on %s, one of %d wireless interfaces\n", wlan, n);
	}
	v2x_ocb_close(o);
}

/* The transmitter's refusals (what is no OCB interface, arguments) and the BSM builder,
 * its message read back through the frame parser and the decoder. */
static void tx_refuses_what_is_no_ocb_interface_and_builds_bsms(void)
{
	char errbuf[V2X_ERRBUF_SIZE] = "";
	CHECK(!v2x_tx_open(NULL, 0, errbuf) && errbuf[0]);
	CHECK(!v2x_tx_open("lo", 0, NULL));
	CHECK(!v2x_tx_open("v2xnosuch0", 0, errbuf) && strncmp(errbuf, "v2xnosuch0: ", 12) == 0);
	CHECK(!v2x_tx_open("lo", 0, errbuf) && strstr(errbuf, "lo is a loopback interface"));
	struct v2x_tx_info info = {.size = sizeof(info)};
	CHECK(v2x_tx_get_info(NULL, &info) == V2X_EINVAL);
	CHECK(v2x_tx_send_wsmp(NULL, NULL, NULL, 0) == V2X_EINVAL);
	CHECK(v2x_tx_send_packet(NULL, NULL, 0) == V2X_EINVAL);
	CHECK(v2x_tx_geterr(NULL)[0]);
	v2x_tx_close(NULL);
	struct v2x_tx *tx = v2x_tx_open("lo", V2X_TX_ANY_INTERFACE, errbuf);
	if (tx) { /* with CAP_NET_RAW */
		CHECK(v2x_tx_get_info(tx, &info) == V2X_OK && info.warning &&
		      strstr(info.warning, "loopback") && info.freq_mhz == 0 && info.sent == 0);
		struct v2x_wsmp_params w = {.size = sizeof(w), .psid = 1u << 28};
		static const uint8_t big[3000];
		CHECK(v2x_tx_send_wsmp(tx, &w, big, 1) == V2X_EINVAL &&
		      strstr(v2x_tx_geterr(tx), "PSID"));
		CHECK(v2x_tx_send_packet(tx, big, sizeof(big)) == V2X_EINVAL);
		w.size = 4;
		CHECK(v2x_tx_send_wsmp(tx, &w, big, 1) == V2X_EINVAL);
		info.size = 4;
		CHECK(v2x_tx_get_info(tx, &info) == V2X_EINVAL);
		v2x_tx_close(tx);
	} else {
		CHECK(strstr(errbuf, "CAP_NET_RAW"));
	}
	struct v2x_bsm_fields b = {.size = sizeof(b)};
	v2x_bsm_fields_init(&b);
	CHECK(b.size == sizeof(b) && b.lat == 900000001 && b.speed == 8191 && b.heading == 28800);
	b.msg_cnt = 5, b.temp_id = 0x0a0b0c0d, b.lat = 422817000, b.lon = -837433000;
	b.speed = 675;
	uint8_t mf[64];
	size_t n = 0;
	CHECK(v2x_bsm_build(&b, mf, 3, &n) == V2X_EINVAL);
	b.msg_cnt = 128;
	CHECK(v2x_bsm_build(&b, mf, sizeof(mf), &n) == V2X_EINVAL);
	b.msg_cnt = 5, b.lat = 900000002;
	CHECK(v2x_bsm_build(&b, mf, sizeof(mf), &n) == V2X_EINVAL);
	b.lat = 422817000;
	CHECK(v2x_bsm_build(NULL, mf, sizeof(mf), &n) == V2X_EINVAL);
	CHECK(v2x_bsm_build(&b, mf, sizeof(mf), &n) == V2X_OK && mf[0] == 0x00 && mf[1] == 0x14);
	struct v2x_frame *f = v2x_frame_new();
	struct v2x_frame_info i = {.size = sizeof(i)};
	CHECK(f && v2x_message_parse(mf, n, f) == V2X_OK && v2x_frame_get_info(f, &i) == V2X_OK);
	CHECK(i.has_message_id && i.message_id == 20 && i.message_len == n && !i.trailing_octets);
	v2x_frame_free(f);
	struct v2x_decoder *d = v2x_decoder_open(errbuf);
	const char *json = NULL;
	if (d && v2x_decoder_edition(d)) {
		CHECK(v2x_decode_json(d, mf, n, 0, &json, NULL) == V2X_OK);
		CHECK(json && strstr(json, "\"msgCnt\":5,\"id\":\"0a0b0c0d\"") &&
		      strstr(json, "\"lat\":422817000,\"long\":-837433000") &&
		      strstr(json, "\"speed\":675"));
	}
	v2x_decoder_close(d);
}

static void names_and_version(void)
{
	CHECK(strcmp(v2x_message_name(19), "SPAT") == 0);
	CHECK(!v2x_message_name(100) && !v2x_message_name(70000));
	CHECK(v2x_psid_name(0x20) && !v2x_psid_name(0x7fffffff));
	CHECK(strcmp(v2x_layer_name(V2X_LAYER_DOT2), "1609.2") == 0);
	CHECK(strcmp(v2x_lib_version(), "libv2x " V2X_VERSION) == 0);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} cases[] = {
#define CASE(n) {#n, n}
		CASE(null_arguments_get_einval_never_a_crash),
		CASE(open_errors_name_the_file_and_the_cause),
		CASE(file_capture_counts_and_live_calls_on_a_file),
		CASE(truncated_capture_gives_frames_then_one_error_then_the_end),
		CASE(signed_bsm_values_and_a_shorter_info_struct),
		CASE(messageframe_cut_short_gives_the_octets_there_are),
		CASE(decoder_gives_the_values_of_asn1_codecs_bsm),
		CASE(record_walk_takes_a_visitor_of_the_older_size),
		CASE(names_and_version),
		CASE(ocb_arguments_and_errors_name_the_interface),
		CASE(priority_of_a_bsm_with_event_flags),
		CASE(stats_views_refuse_bad_arguments_and_end_past_the_last),
		CASE(tx_refuses_what_is_no_ocb_interface_and_builds_bsms),
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		if (argc == 2 && strcmp(argv[1], cases[k].name) == 0) {
			cases[k].fn();
			return failures ? 1 : 0;
		}
	fprintf(stderr, "usage: test_api CASE\n");
	return 2;
}
