/* decode --kafka, capture --kafka: one Kafka record per J2735 message through librdkafka,
 * keyed by the sender so that one sender's messages keep their order within a partition.
 * Delivery reports are counted: close() succeeds only when every record was
 * acknowledged. */
#define _GNU_SOURCE /* memmem */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "sink.h"

#ifdef V2X_HAVE_RDKAFKA
#include <librdkafka/rdkafka.h>

#include "dynlib.h"

/* librdkafka, loaded by the commands that publish (dynlib.h); each function with the type
 * its header gives it (rd_kafka_new last: set, all are). */
#define RDKAFKA_FUNCS(X) \
	X(rd_kafka_conf_new) \
	X(rd_kafka_conf_set) \
	X(rd_kafka_conf_get) \
	X(rd_kafka_conf_destroy) \
	X(rd_kafka_conf_set_dr_msg_cb) \
	X(rd_kafka_conf_set_error_cb) \
	X(rd_kafka_conf_set_opaque) \
	X(rd_kafka_producev) \
	X(rd_kafka_poll) \
	X(rd_kafka_flush) \
	X(rd_kafka_destroy) \
	X(rd_kafka_err2str) \
	X(rd_kafka_new)
#define RDKAFKA_FIELD(f) __typeof__(&f) f;
static struct {
	RDKAFKA_FUNCS(RDKAFKA_FIELD)
} kafka_lib;

/* librdkafka 1.x and 2.x (Debian's librdkafka1): 0, or -1 said on stderr */
static int load_rdkafka(const char *command)
{
	static const char lib[] = "librdkafka.so.1";
#define RDKAFKA_SYM(f) {#f, (void **)&kafka_lib.f},
	const struct v2xcap_dynsym syms[] = {RDKAFKA_FUNCS(RDKAFKA_SYM)};
	char err[256];
	if (kafka_lib.rd_kafka_new ||
	    v2xcap_dynlib_load(lib, syms, sizeof(syms) / sizeof(syms[0]), err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "v2xcap %s: --kafka needs %s (Debian: librdkafka1): %s\n", command, lib,
		err);
	return -1;
}

#define MAP_MSG_ID 18
#define SPAT_MSG_ID 19

/* The intersection id from the JSON line: the first "intersections" entry's
 * IntersectionReferenceID {region?, id}. Keys are written by us, strings are escaped, so
 * a quoted key cannot appear inside a string value. */
static bool intersection_key(const char *json, size_t len, char *key, size_t size)
{
	const char *end = json + len;
	const char *p = memmem(json, len, "\"intersections\":[{", 18);
	if (!p || !(p = memmem(p, (size_t)(end - p), "\"id\":{", 6)))
		return false;
	const char *close = memchr(p + 6, '}', (size_t)(end - p - 6));
	const char *region = memmem(p, (size_t)(end - p), "\"region\":", 9);
	const char *id = memmem(p + 6, (size_t)(end - p - 6), "\"id\":", 5);
	if (!close || !id || id > close)
		return false;
	long long r = region && region < close ? strtoll(region + 9, NULL, 10) : -1;
	long long i = strtoll(id + 5, NULL, 10);
	if (r >= 0)
		snprintf(key, size, "%lld-%lld", r, i);
	else
		snprintf(key, size, "%lld", i);
	return true;
}

/* The record's key (the sender); "" when the frame names none. */
static void record_key(const struct v2xcap_record *r, char *key, size_t size)
{
	const struct v2x_decoded *d = r->d;
	if (d->has_bsm_id) {
		snprintf(key, size, "%08" PRIx32, d->bsm_id); /* as decode writes coreData.id */
		return;
	}
	if ((d->msg_id == MAP_MSG_ID || d->msg_id == SPAT_MSG_ID) &&
	    intersection_key(r->json, r->len, key, size))
		return;
	if (d->has_src)
		snprintf(key, size, "%02x:%02x:%02x:%02x:%02x:%02x", d->src[0], d->src[1],
			 d->src[2], d->src[3], d->src[4], d->src[5]);
	else
		key[0] = '\0';
}

struct kafka {
	rd_kafka_t *rk;
	const char *command, *brokers, *topic;
	uint64_t produced, acked, failed;
	char first_error[256];
	char broker_error[512];    /* the client's last, naming the broker ("host:port/id: ...") */
	int flush_ms;
};

/* Connection failures come here (on the polling thread), not with the records: kept to
 * say which broker was away when records are lost. */
static void on_error(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
	(void)rk, (void)err;
	struct kafka *k = opaque;
	snprintf(k->broker_error, sizeof(k->broker_error), "%s", reason);
}

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
	(void)rk;
	struct kafka *k = opaque;
	if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
		k->acked++;
		return;
	}
	if (k->failed++ == 0)
		snprintf(k->first_error, sizeof(k->first_error), "%s", kafka_lib.rd_kafka_err2str(m->err));
}

/* The topic of a record: T with "{type}" replaced by the message's abbreviation. */
static void topic_name(const char *t, uint32_t msg_id, char *out, size_t size)
{
	const struct v2x_msgid *id = v2x_msgid_lookup(msg_id);
	char other[16];
	snprintf(other, sizeof(other), "msg%" PRIu32, msg_id);
	const char *type = id ? id->abbrev : other;
	const char *at = strstr(t, "{type}");
	if (at)
		snprintf(out, size, "%.*s%s%s", (int)(at - t), t, type, at + 6);
	else
		snprintf(out, size, "%s", t);
}

static int put(void *ctx, const struct v2xcap_record *r)
{
	struct kafka *k = ctx;
	char topic[256], key[64];
	topic_name(k->topic, r->d->msg_id, topic, sizeof(topic));
	record_key(r, key, sizeof(key));
	for (;;) {
		rd_kafka_resp_err_t e = kafka_lib.rd_kafka_producev(
			k->rk, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
			RD_KAFKA_V_KEY(key, strlen(key)),
			RD_KAFKA_V_VALUE((void *)r->json, r->len - 1), /* without the '\n' */
			RD_KAFKA_V_END);
		if (e == RD_KAFKA_RESP_ERR_NO_ERROR)
			break;
		if (e != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
			fprintf(stderr, "v2xcap %s: Kafka %s, topic %s: %s\n", k->command,
				k->brokers, topic, kafka_lib.rd_kafka_err2str(e));
			return -1;
		}
		kafka_lib.rd_kafka_poll(k->rk, 100); /* the queue is full: wait for deliveries */
	}
	k->produced++;
	kafka_lib.rd_kafka_poll(k->rk, 0);
	return 0;
}

static int close_kafka(void *ctx, bool interrupted)
{
	struct kafka *k = ctx;
	(void)interrupted; /* what was produced is flushed either way */
	kafka_lib.rd_kafka_flush(k->rk, k->flush_ms);
	uint64_t lost = k->produced - k->acked;
	int rc = 0;
	if (lost) {
		fprintf(stderr, "v2xcap %s: Kafka %s: %" PRIu64 " of %" PRIu64
				" records not delivered (%s)%s%s\n", k->command, k->brokers, lost,
			k->produced,
			k->failed ? k->first_error : "not acknowledged in time",
			*k->broker_error ? "; last broker error: " : "", k->broker_error);
		rc = -1;
	}
	kafka_lib.rd_kafka_destroy(k->rk);
	free(k);
	return rc;
}

static int set(const struct kafka *k, rd_kafka_conf_t *conf, const char *name,
	       const char *value)
{
	char err[256];
	if (kafka_lib.rd_kafka_conf_set(conf, name, value, err, sizeof(err)) == RD_KAFKA_CONF_OK)
		return 0;
	fprintf(stderr, "v2xcap %s: Kafka setting %s=%s: %s\n", k->command, name, value, err);
	return -1;
}

int v2xcap_sink_kafka_open(struct v2xcap_sink *s, const struct v2xcap_scale_opts *o)
{
	if (load_rdkafka(o->command) < 0)
		return -1;
	struct kafka *k = calloc(1, sizeof(*k));
	rd_kafka_conf_t *conf = kafka_lib.rd_kafka_conf_new();
	char err[512];
	if (!k || !conf) {
		fprintf(stderr, "v2xcap %s: out of memory\n", o->command);
		free(k);
		return -1;
	}
	k->command = o->command;
	k->brokers = o->kafka;
	k->topic = o->topic ? o->topic : "v2x.{type}";
	/* Delivery in order per partition even when a request is retried; a broker that
	 * stays away fails the records after message.timeout.ms (bounded retries). */
	int bad = set(k, conf, "bootstrap.servers", o->kafka) |
		  set(k, conf, "enable.idempotence", "true") |
		  set(k, conf, "message.timeout.ms", "30000") |
		  (o->compression ? set(k, conf, "compression.type", o->compression) : 0);
	for (size_t i = 0; i < o->n_conf && !bad; i++) {
		char name[256];
		const char *eq = strchr(o->conf[i], '=');
		snprintf(name, sizeof(name), "%.*s", (int)(eq - o->conf[i]), o->conf[i]);
		bad |= set(k, conf, name, eq + 1);
	}
	char timeout[32];
	size_t tl = sizeof(timeout);
	if (bad || kafka_lib.rd_kafka_conf_get(conf, "message.timeout.ms", timeout, &tl) != RD_KAFKA_CONF_OK) {
		kafka_lib.rd_kafka_conf_destroy(conf);
		free(k);
		return -1;
	}
	k->flush_ms = atoi(timeout) + 5000; /* the client fails what is late before that */
	kafka_lib.rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
	kafka_lib.rd_kafka_conf_set_error_cb(conf, on_error);
	kafka_lib.rd_kafka_conf_set_opaque(conf, k);
	k->rk = kafka_lib.rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
	if (!k->rk) {
		fprintf(stderr, "v2xcap %s: Kafka %s: %s\n", o->command, o->kafka, err);
		kafka_lib.rd_kafka_conf_destroy(conf);
		free(k);
		return -1;
	}
	*s = (struct v2xcap_sink){.ctx = k, .put = put, .close = close_kafka};
	return 0;
}

#else

int v2xcap_sink_kafka_open(struct v2xcap_sink *s, const struct v2xcap_scale_opts *o)
{
	(void)s, (void)o;
	fprintf(stderr, "v2xcap %s: --kafka: this v2xcap was built without librdkafka "
			"(install librdkafka-dev and rebuild)\n", o->command);
	return -1;
}

#endif

int v2xcap_kafka_option(const struct v2xcap_command *cmd, int c, char *arg, int argc,
		     struct v2xcap_scale_opts *o)
{
	switch (c) {
	case 'K': o->kafka = arg; return -1;
	case 'T': o->topic = arg; return -1;
	case 'C': o->compression = arg; return -1;
	case 'X':
		if (!strchr(arg, '='))
			return v2xcap_cli_usage_error(cmd, "-X wants KEY=VALUE, not '%s'", arg);
		/* at most one per argument: room for all of them */
		if (!o->conf && !(o->conf = calloc((size_t)argc, sizeof(*o->conf)))) {
			fprintf(stderr, "v2xcap %s: out of memory\n", o->command);
			return V2XCAP_EXIT_FAILURE;
		}
		o->conf[o->n_conf++] = arg;
		return -1;
	default: return 0;
	}
}

int v2xcap_kafka_options_check(const struct v2xcap_command *cmd,
			    const struct v2xcap_scale_opts *o)
{
	if (!o->kafka && (o->topic || o->compression || o->n_conf))
		return v2xcap_cli_usage_error(cmd, "--topic, --compression and -X go with --kafka");
	return -1;
}
