/* lib/j2735dec on the vector bytes directly: libv2x's BSM writer decoded, truncated
 * MessageFrames (every prefix) reported as malformed, never read past, and first decodes
 * on several threads at once. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bsm.h"
#include "j2735dec.h"
#include "unit.h"

/* Records the integers of coreData by member name (the last key seen). */
struct core_values {
	const char *key;
	long long msg_cnt, sec_mark, lat, lon, speed, heading;
};

static void on_key(void *ctx, const char *name) { ((struct core_values *)ctx)->key = name; }
static void on_nesting(void *ctx, bool array) { (void)ctx, (void)array; }
static void on_text(void *ctx, const char *s, size_t len) { (void)ctx, (void)s, (void)len; }
static void on_octets(void *ctx, const uint8_t *p, size_t n) { (void)ctx, (void)p, (void)n; }
static void on_boolean(void *ctx, bool v) { (void)ctx, (void)v; }
static void on_null(void *ctx) { (void)ctx; }

static void on_integer(void *ctx, long long v)
{
	struct core_values *c = ctx;
	const char *k = c->key;
	if (strcmp(k, "msgCnt") == 0)
		c->msg_cnt = v;
	else if (strcmp(k, "secMark") == 0)
		c->sec_mark = v;
	else if (strcmp(k, "lat") == 0 && !c->lat)  /* accelSet.lat comes later */
		c->lat = v;
	else if (strcmp(k, "long") == 0 && !c->lon)
		c->lon = v;
	else if (strcmp(k, "speed") == 0)
		c->speed = v;
	else if (strcmp(k, "heading") == 0)
		c->heading = v;
}

static const struct v2x_visitor record = {
	sizeof(struct v2x_visitor), on_key, on_nesting, on_nesting, on_integer, on_text, on_octets, on_boolean, on_null, NULL, NULL,
};

/* libv2x's BSM writer (lib/bsm.c) against the asn1c decoder generated from the schema. */
TEST(decode_bsm_writer_output_decodes_with_the_schema)
{
	if (!j2735dec_edition()) {
		unit_skip("built without a J2735 schema");
		return;
	}
	struct v2x_bsm_core bsm;
	v2x_bsm_core_unavailable(&bsm);
	bsm.msg_cnt = 88;
	bsm.id = 0xBEA10000;
	bsm.sec_mark = 59299;
	bsm.lat = 411642143;
	bsm.lon = -1048434120;
	bsm.elev = 18822;
	bsm.speed = 714;
	bsm.heading = 15290;
	struct v2x_buf buf = {0};
	CHECK_INT(v2x_bsm_frame_write(&buf, &bsm), 0);
	CHECK_INT(buf.p[0], 0x00);
	CHECK_INT(buf.p[1], 0x14); /* messageId 20 */
	struct j2735dec_msg msg;
	CHECK_INT(j2735dec_decode(buf.p, buf.len, &msg), J2735DEC_OK);
	CHECK_INT(msg.frame_len, buf.len);
	CHECK_STR(msg.type_name, "BasicSafetyMessage");
	struct core_values c = {0};
	j2735dec_walk(&msg, &record, &c);
	CHECK_INT(c.msg_cnt, 88);
	CHECK_INT(c.sec_mark, 59299);
	CHECK_INT(c.lat, 411642143);
	CHECK_INT(c.lon, -1048434120);
	CHECK_INT(c.speed, 714);
	CHECK_INT(c.heading, 15290);
	j2735dec_free(&msg);
	v2x_buf_free(&buf);
}

TEST(decode_every_truncated_messageframe_is_malformed)
{
	size_t len;
	uint8_t *bytes = unit_vector_file("asn1_codec/j2735.MessageFrame.Bsm.uper", &len);
	if (!bytes)
		return;
	if (!j2735dec_edition()) {
		free(bytes);
		unit_skip("built without a J2735 schema");
		return;
	}
	struct j2735dec_msg msg;
	for (size_t n = 0; n < len; n++) {
		/* an exact-size copy, so that ASan sees any read past the prefix */
		uint8_t *prefix = malloc(n ? n : 1);
		memcpy(prefix, bytes, n);
		enum j2735dec_result r = j2735dec_decode(prefix, n, &msg);
		if (r == J2735DEC_OK)
			unit_fail(__FILE__, __LINE__, "a %zu-octet prefix decoded", n);
		j2735dec_free(&msg);
		free(prefix);
	}
	CHECK_INT(j2735dec_decode(bytes, len, &msg), J2735DEC_OK);
	CHECK_INT(msg.msg_id, 20);
	j2735dec_free(&msg);
	free(bytes);
}

/* asn1c 0.9.28 completes a derived type's descriptor on its first use: threads decoding
 * their first messages at once must get what one thread gets (lib/j2735dec/j2735dec_types.c).
 * Each trial is a fresh process (a fork) whose threads start together from a barrier. */
#define FIRST_USE_THREADS 6
#define FIRST_USE_TRIALS 150
#define FIRST_USE_MSGS 6

struct first_use_msgs {
	uint8_t *bytes[FIRST_USE_MSGS];
	size_t len[FIRST_USE_MSGS];
	size_t n;
	pthread_barrier_t start;
	uint64_t digest[FIRST_USE_THREADS][FIRST_USE_MSGS];
};

/* FNV-1a over what the walk reports, so that any value differing shows. */
static void mix(void *ctx, const void *p, size_t n)
{
	uint64_t *h = ctx;
	for (size_t i = 0; i < n; i++)
		*h = (*h ^ ((const uint8_t *)p)[i]) * 0x100000001b3u;
}
static void d_key(void *ctx, const char *name) { mix(ctx, name, strlen(name)); }
static void d_nesting(void *ctx, bool array) { mix(ctx, &array, sizeof(array)); }
static void d_integer(void *ctx, long long v) { mix(ctx, &v, sizeof(v)); }
static void d_text(void *ctx, const char *s, size_t len) { mix(ctx, s, len); }
static void d_octets(void *ctx, const uint8_t *p, size_t n) { mix(ctx, p, n); }
static void d_boolean(void *ctx, bool v) { mix(ctx, &v, sizeof(v)); }
static void d_null(void *ctx) { mix(ctx, "null", 4); }

static const struct v2x_visitor digest_visitor = {
	sizeof(struct v2x_visitor), d_key, d_nesting, d_nesting, d_integer, d_text, d_octets, d_boolean, d_null, NULL, NULL,
};

/* The digest of one decode; 0 when it did not decode. */
static uint64_t decode_digest(const uint8_t *p, size_t len)
{
	struct j2735dec_msg msg;
	uint64_t h = 0;
	if (j2735dec_decode(p, len, &msg) == J2735DEC_OK) {
		h = 0xcbf29ce484222325u;
		j2735dec_walk(&msg, &digest_visitor, &h);
	}
	j2735dec_free(&msg);
	return h;
}

struct first_use_thread {
	struct first_use_msgs *m;
	unsigned t;
};

static void *first_use(void *arg)
{
	struct first_use_thread *ft = arg;
	struct first_use_msgs *m = ft->m;
	pthread_barrier_wait(&m->start);
	for (size_t i = 0; i < m->n; i++) /* each thread starts with another message */
		m->digest[ft->t][(i + ft->t) % m->n] = decode_digest(
			m->bytes[(i + ft->t) % m->n], m->len[(i + ft->t) % m->n]);
	return NULL;
}

/* One trial in a fresh process: 0 when every thread got the digests decoded afterwards on
 * one thread, 1 otherwise (said on stderr). */
static int first_use_trial(struct first_use_msgs *m)
{
	pthread_t th[FIRST_USE_THREADS];
	struct first_use_thread ft[FIRST_USE_THREADS];
	pthread_barrier_init(&m->start, NULL, FIRST_USE_THREADS);
	for (unsigned t = 0; t < FIRST_USE_THREADS; t++) {
		ft[t] = (struct first_use_thread){m, t};
		pthread_create(&th[t], NULL, first_use, &ft[t]);
	}
	for (unsigned t = 0; t < FIRST_USE_THREADS; t++)
		pthread_join(th[t], NULL);
	int rc = 0;
	for (size_t i = 0; i < m->n; i++) {
		uint64_t ref = decode_digest(m->bytes[i], m->len[i]);
		for (unsigned t = 0; t < FIRST_USE_THREADS; t++)
			if (m->digest[t][i] != ref || !ref) {
				fprintf(stderr, "message %zu, thread %u: digest %016" PRIx64
					" (one thread afterwards: %016" PRIx64 ")\n",
					i, t, m->digest[t][i], ref);
				rc = 1;
			}
	}
	return rc;
}

TEST(decode_first_use_from_threads_equals_one_thread)
{
	static const char *const files[FIRST_USE_MSGS] = {
		"asn1_codec/j2735.MessageFrame.Bsm.hex", "asn1_codec/MessageFrame.TravelerInformation.hex",
		"carma-messenger/MapMessage.hex", "carma-messenger/SPAT.hex",
		"carma-messenger/PSM.hex", "carma-messenger/BSM.hex",
	};
	if (!j2735dec_edition()) {
		unit_skip("built without a J2735 schema");
		return;
	}
	struct first_use_msgs m = {.n = 0};
	for (; m.n < FIRST_USE_MSGS; m.n++)
		if (!(m.bytes[m.n] = unit_vector_hex(files[m.n], &m.len[m.n])))
			break; /* the case is skipped */
	if (m.n < FIRST_USE_MSGS) {
		while (m.n--)
			free(m.bytes[m.n]);
		return;
	}
	unsigned failed = 0;
	for (unsigned k = 0; k < FIRST_USE_TRIALS; k++) {
		fflush(stderr);
		pid_t pid = fork();
		if (pid == 0)
			_exit(first_use_trial(&m));
		int status = 0;
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed++;
	}
	if (failed)
		unit_fail(__FILE__, __LINE__, "%u of %d trials: threads decoding their first "
			  "messages at once decoded otherwise than one thread", failed,
			  FIRST_USE_TRIALS);
	for (size_t i = 0; i < m.n; i++)
		free(m.bytes[i]);
}
