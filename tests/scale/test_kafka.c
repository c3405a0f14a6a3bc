/* decode --kafka against librdkafka's mock cluster (3 brokers in this process, on
 * localhost ports): the records consumed back are decode's lines (same count, same
 * octets), keyed by sender, in capture order per key; injected produce errors are retried
 * to full delivery; brokers that go away make v2xcap name them and the records lost, exit 1.
 * usage: test_kafka V2XCAP roundtrip|retried|down CAPTURE... */
#define _GNU_SOURCE
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_LINES 100000

static char *lines[MAX_LINES];
static size_t n_lines;
static int failures;

#define CHECK(c, ...)                                                              \
	do {                                                                        \
		if (!(c)) {                                                         \
			failures++;                                                 \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #c);          \
			printf(__VA_ARGS__);                                        \
			putchar('\n');                                              \
		}                                                                   \
	} while (0)

/* Runs a shell command, its stdout in *out (may be NULL), stderr in *err; exit status. */
static int run(const char *cmd, char **out, char **err)
{
	char errfile[] = "/tmp/v2x-kafka-err-XXXXXX";
	int fd = mkstemp(errfile);
	char *full;
	if (fd < 0 || asprintf(&full, "%s 2>%s", cmd, errfile) < 0)
		exit(2);
	close(fd);
	FILE *p = popen(full, "r");
	size_t cap = 0;
	char *buf = NULL;
	FILE *o = open_memstream(&buf, &cap);
	int c;
	while ((c = fgetc(p)) != EOF)
		fputc(c, o);
	fclose(o);
	int st = pclose(p);
	if (out)
		*out = buf;
	else
		free(buf);
	FILE *e = fopen(errfile, "r");
	char *eb = NULL;
	size_t ecap = 0;
	o = open_memstream(&eb, &ecap);
	while (e && (c = fgetc(e)) != EOF)
		fputc(c, o);
	fclose(o);
	if (e)
		fclose(e);
	unlink(errfile);
	*err = eb;
	free(full);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* "v2x.<name>" of a line ("name":"BSM" in "j2735"). */
static void topic_of(const char *line, char *topic, size_t size)
{
	const char *p = strstr(line, "\"j2735\":{\"messageId\":");
	const char *n = p ? strstr(p, "\"name\":\"") : NULL;
	const char *end = n ? strchr(n + 8, '"') : NULL;
	snprintf(topic, size, "v2x.%.*s", end ? (int)(end - n - 8) : 1, end ? n + 8 : "?");
}

static size_t line_index(const char *v, size_t len)
{
	for (size_t i = 0; i < n_lines; i++)
		if (strlen(lines[i]) == len && memcmp(lines[i], v, len) == 0)
			return i;
	return SIZE_MAX;
}

struct got {
	char key[64];
	char topic[64];
	size_t index;
};

/* Consumes every partition of the topics from the start; the records in *g. */
static size_t consume(const char *brokers, char topics[][64], size_t n_topics, int parts,
		      struct got *g, size_t max)
{
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rd_kafka_conf_set(conf, "bootstrap.servers", brokers, err, sizeof(err));
	rd_kafka_conf_set(conf, "group.id", "v2x-test", err, sizeof(err));
	rd_kafka_conf_set(conf, "enable.auto.commit", "false", err, sizeof(err));
	rd_kafka_t *c = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof(err));
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(16);
	for (size_t t = 0; t < n_topics; t++)
		for (int p = 0; p < parts; p++)
			rd_kafka_topic_partition_list_add(l, topics[t], p)->offset =
				RD_KAFKA_OFFSET_BEGINNING;
	rd_kafka_assign(c, l);
	rd_kafka_topic_partition_list_destroy(l);
	size_t n = 0;
	int idle = 0;
	while (idle < 30) { /* 3 s without a record */
		rd_kafka_message_t *m = rd_kafka_consumer_poll(c, 100);
		if (!m) {
			idle++;
			continue;
		}
		if (!m->err && n < max) {
			idle = 0;
			snprintf(g[n].topic, sizeof(g[n].topic), "%s", rd_kafka_topic_name(m->rkt));
			snprintf(g[n].key, sizeof(g[n].key), "%.*s", (int)m->key_len,
				 (const char *)m->key);
			g[n].index = line_index(m->payload, m->len);
			n++;
		}
		rd_kafka_message_destroy(m);
	}
	rd_kafka_consumer_close(c);
	rd_kafka_destroy(c);
	return n;
}

/* Every line consumed once, per key in capture order, the key the sender's. */
static void check_records(struct got *g, size_t n)
{
	CHECK(n == n_lines, "%zu records consumed, %zu lines decoded", n, n_lines);
	char *seen = calloc(n_lines, 1);
	for (size_t i = 0; i < n; i++) {
		CHECK(g[i].index != SIZE_MAX, "record %zu is not a line of decode", i);
		if (g[i].index == SIZE_MAX)
			continue;
		CHECK(!seen[g[i].index], "line %zu twice", g[i].index);
		seen[g[i].index] = 1;
		const char *line = lines[g[i].index];
		char want[80];
		/* the key is taken from the decoded message; a build without the schema keys
		 * every message by the sender's MAC */
		bool decoded = strstr(line, "\"value\":") != NULL;
		if (decoded && strstr(line, "\"name\":\"BSM\"")) {
			snprintf(want, sizeof(want), "\"id\":\"%s\"", g[i].key);
			CHECK(strstr(line, want), "BSM key %s not its coreData.id", g[i].key);
		} else if (decoded && (strstr(line, "\"name\":\"SPAT\"") ||
				       strstr(line, "\"name\":\"MAP\""))) {
			const char *k = strrchr(g[i].key, '-');
			snprintf(want, sizeof(want), "\"id\":%s}", k ? k + 1 : g[i].key);
			CHECK(strstr(line, want), "MAP/SPaT key %s not its intersection id", g[i].key);
		}
		/* the consumer reads a partition in order, so one key's records of a topic too */
		for (size_t j = 0; j < i; j++)
			if (strcmp(g[j].key, g[i].key) == 0 && strcmp(g[j].topic, g[i].topic) == 0 &&
			    g[j].index != SIZE_MAX)
				CHECK(g[j].index < g[i].index, "key %s: line %zu after %zu",
				      g[i].key, g[i].index, g[j].index);
	}
	free(seen);
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	const char *v2xcap = argv[1], *mode = argv[2];
	char files[8192] = "", cmd[16384], *out, *err;
	for (int i = 3; i < argc; i++)
		snprintf(files + strlen(files), sizeof(files) - strlen(files), " '%s'", argv[i]);
	snprintf(cmd, sizeof(cmd), "'%s' decode -j 1%s", v2xcap, files);
	run(cmd, &out, &err);
	for (char *s = strtok(out, "\n"); s && n_lines < MAX_LINES; s = strtok(NULL, "\n"))
		lines[n_lines++] = s;
	if (n_lines == 0) {
		printf("SKIP: decode printed nothing (built without a schema?)\n");
		return 77;
	}
	char errstr[256];
	rd_kafka_t *host = rd_kafka_new(RD_KAFKA_PRODUCER, rd_kafka_conf_new(), errstr,
					sizeof(errstr));
	rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(host, 3);
	const char *brokers = rd_kafka_mock_cluster_bootstraps(mc);
	char topics[64][64];
	size_t n_topics = 0;
	for (size_t i = 0; i < n_lines; i++) {
		char t[64];
		topic_of(lines[i], t, sizeof(t));
		size_t k = 0;
		while (k < n_topics && strcmp(topics[k], t) != 0)
			k++;
		if (k == n_topics && n_topics < 64) {
			strcpy(topics[n_topics++], t);
			rd_kafka_mock_topic_create(mc, t, 3, 3);
		}
	}
	struct got *g = calloc(MAX_LINES, sizeof(*g));
	int rc;
	if (strcmp(mode, "roundtrip") == 0 || strcmp(mode, "retried") == 0) {
		if (strcmp(mode, "retried") == 0) /* the first produce requests fail, retriably */
			rd_kafka_mock_push_request_errors(
				mc, 0 /* Produce */, 4, RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS,
				RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT,
				RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS,
				RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE);
		snprintf(cmd, sizeof(cmd), "'%s' decode -j 2 --kafka '%s' --topic 'v2x.{type}' "
			 "--compression lz4%s", v2xcap, brokers, files);
		rc = run(cmd, NULL, &err);
		CHECK(rc == 0, "exit %d: %s", rc, err);
		size_t n = consume(brokers, topics, n_topics, 3, g, MAX_LINES);
		check_records(g, n);
		printf("%s: %zu lines decoded, %zu records consumed from %zu topics\n", mode,
		       n_lines, n, n_topics);
	} else if (strcmp(mode, "down") == 0) {
		for (int b = 1; b <= 3; b++)
			rd_kafka_mock_broker_set_down(mc, b);
		snprintf(cmd, sizeof(cmd), "'%s' decode --kafka '%s' -X message.timeout.ms=2000%s",
			 v2xcap, brokers, files);
		rc = run(cmd, NULL, &err);
		char want[128];
		snprintf(want, sizeof(want), "%zu of %zu records not delivered", n_lines, n_lines);
		CHECK(rc == 1, "exit %d", rc);
		CHECK(strstr(err, brokers) && strstr(err, want), "stderr: %s", err);
		printf("brokers down: exit %d, %s", rc, err);
	} else {
		return 2;
	}
	rd_kafka_mock_cluster_destroy(mc);
	rd_kafka_destroy(host);
	return failures ? 1 : 0;
}
