/* decode --kafka against librdkafka's mock cluster (3 brokers in this process, on
 * localhost ports): the records consumed back are decode's lines (same count, same
 * octets), keyed by sender, in capture order per key; injected produce errors are retried
 * to full delivery; brokers that go away make v2xcap name them and the records lost, exit 1.
 * The mid-run modes feed one capture through decode's stdin in two parts, so that the
 * first records are delivered before a broker fails: it comes back (everything delivered,
 * exit 0), it stays away (exit 1 naming it and the count lost, which is what the consumer
 * misses), or SIGINT arrives while records wait for a slow broker (they are flushed).
 * capture: `v2xcap capture -i lo --kafka` while `v2xcap send -i lo` replays a capture
 * (root or CAP_NET_RAW, else SKIP); the records are the lines of decode on the file the
 * capture wrote, with the interface as "file"; SIGINT ends the capture.
 * usage: test_kafka V2XCAP roundtrip|retried|down|midrun-back|midrun-lost|sigint|capture
 *        CAPTURE... */
#define _GNU_SOURCE
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINES 100000

static char *lines[MAX_LINES];
static size_t n_lines;
static int failures;

#define CHECK(c, ...)                                                              \
	do {                                                                        \
		if (!(c)) {                                                         \
			if (++failures > 20) /* the first ones tell */          \
				break;                                              \
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
	int32_t partition;
	int64_t offset;
	size_t len;
	char *bytes; /* a copy of the value when it is not a line of decode (for the message) */
	bool replayed; /* a second copy, in a batch the mock cluster stored twice */
};

/* Prints n octets of p, non-printable ones as \xNN. */
static void print_octets(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			putchar(c);
		else
			printf("\\x%02x", c);
	}
}

/* What a record that is not a line of decode holds: where it was, its length, its
 * octets (the start and the end of a long one), and how it relates to decode's lines. */
static void describe(const struct got *g)
{
	printf("  %s [%d] offset %lld, key \"%s\", %zu octets: ", g->topic, (int)g->partition,
	       (long long)g->offset, g->key, g->len);
	if (!g->bytes) {
		printf("(null value)\n");
		return;
	}
	if (g->len <= 400) {
		print_octets(g->bytes, g->len);
	} else {
		print_octets(g->bytes, 300);
		printf(" ... ");
		print_octets(g->bytes + g->len - 100, 100);
	}
	putchar('\n');
	for (size_t i = 0; i < n_lines; i++) {
		size_t l = strlen(lines[i]);
		if (l > g->len && memcmp(lines[i], g->bytes, g->len) == 0)
			printf("  a prefix of line %zu (%zu octets)\n", i, l);
		else if (l < g->len && memcmp(lines[i], g->bytes, l) == 0)
			printf("  line %zu (%zu octets) and %zu more octets\n", i, l, g->len - l);
		else if (l > g->len && memcmp(lines[i] + l - g->len, g->bytes, g->len) == 0)
			printf("  a suffix of line %zu (%zu octets)\n", i, l);
	}
}

/* A consumer of the topics' partitions 0..parts-1 from their beginning (no commits). */
static rd_kafka_t *consumer(const char *brokers, const char *group, char topics[][64],
			    size_t n_topics, int parts)
{
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rd_kafka_conf_set(conf, "bootstrap.servers", brokers, err, sizeof(err));
	rd_kafka_conf_set(conf, "group.id", group, err, sizeof(err));
	rd_kafka_conf_set(conf, "enable.auto.commit", "false", err, sizeof(err));
	rd_kafka_t *c = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof(err));
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(16);
	for (size_t t = 0; t < n_topics; t++)
		for (int p = 0; p < parts; p++)
			rd_kafka_topic_partition_list_add(l, topics[t], p)->offset =
				RD_KAFKA_OFFSET_BEGINNING;
	rd_kafka_assign(c, l);
	rd_kafka_topic_partition_list_destroy(l);
	return c;
}

/* Consumes every partition of the topics from the start; the records in *g. */
static size_t consume(const char *brokers, char topics[][64], size_t n_topics, int parts,
		      struct got *g, size_t max)
{
	rd_kafka_t *c = consumer(brokers, "v2x-test", topics, n_topics, parts);
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
			g[n].partition = m->partition;
			g[n].offset = m->offset;
			g[n].len = m->len;
			g[n].bytes = NULL;
			if (g[n].index == SIZE_MAX && m->payload && (g[n].bytes = malloc(m->len + 1)))
				memcpy(g[n].bytes, m->payload, m->len);
			n++;
		}
		rd_kafka_message_destroy(m);
	}
	rd_kafka_consumer_close(c);
	rd_kafka_destroy(c);
	return n;
}

/* Marks the records that are a batch stored a second time, and returns how many there
 * are. Why there can be any: when a broker goes down (rd_kafka_mock_broker_set_down) the
 * mock cluster may have appended a produce request whose response it never sent; the
 * producer retries the batch, and the mock appends it again. A real broker would not:
 * the sink runs idempotent, and Kafka drops a batch whose producer id and sequence it
 * has stored. librdkafka's mock checks sequences for transactional producers only
 * (rd_kafka_mock_validate_records returns at once without a TransactionalId; so in
 * 2.0.2 and still in 2.15). A retried batch is a second copy, later in the same
 * partition, of records of that partition (a run of them, in their order); a second
 * copy in another partition is no retry, and check_records counts it an error. */
static size_t mark_replays(struct got *g, size_t n)
{
	size_t replayed = 0;
	char *done = calloc(n, 1);
	size_t *first = calloc(n, sizeof(*first)); /* one partition's first copies, in order */
	size_t *where = calloc(n_lines, sizeof(*where)); /* line -> 1 + its place in first */
	for (size_t i = 0; i < n; i++) {
		if (done[i] || g[i].index == SIZE_MAX)
			continue;
		size_t n_first = 0, next = SIZE_MAX; /* next: the place a replay is at */
		memset(where, 0, n_lines * sizeof(*where));
		for (size_t k = i; k < n; k++) {
			if (done[k] || g[k].index == SIZE_MAX || g[k].partition != g[i].partition ||
			    strcmp(g[k].topic, g[i].topic) != 0)
				continue;
			done[k] = 1;
			size_t line = g[k].index, at = where[line];
			if (next != SIZE_MAX && next < n_first && first[next] == line) {
				next++; /* the replay goes on */
			} else if (at) {
				next = at; /* a replay starts: what follows it comes next */
			} else {
				next = SIZE_MAX;
				first[n_first] = line;
				where[line] = ++n_first;
				continue;
			}
			g[k].replayed = true;
			replayed++;
		}
	}
	free(done);
	free(first);
	free(where);
	return replayed;
}

/* Every line consumed, per key in capture order, the key the sender's; a line twice only
 * as a replayed batch (mark_replays). */
static void check_records(struct got *g, size_t n)
{
	size_t replayed = mark_replays(g, n);
	CHECK(n - replayed == n_lines, "%zu records consumed (%zu of them replayed), %zu lines "
	      "decoded", n, replayed, n_lines);
	if (replayed)
		printf("%zu records a second time, in batches the mock cluster stored twice\n",
		       replayed);
	char *seen = calloc(n_lines, 1);
	for (size_t i = 0; i < n; i++) {
		CHECK(g[i].index != SIZE_MAX, "record %zu is not a line of decode", i);
		if (g[i].index == SIZE_MAX) {
			describe(&g[i]);
			continue;
		}
		if (g[i].replayed)
			continue;
		CHECK(!seen[g[i].index], "line %zu twice, not in a replayed batch", g[i].index);
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
			    g[j].index != SIZE_MAX && !g[j].replayed)
				CHECK(g[j].index < g[i].index, "key %s: line %zu after %zu",
				      g[i].key, g[i].index, g[j].index);
	}
	free(seen);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;
	FILE *o = open_memstream(&buf, &cap);
	int c;
	while (f && (c = fgetc(f)) != EOF)
		fputc(c, o);
	fclose(o);
	if (f)
		fclose(f);
	*len = cap;
	return buf;
}

/* The octets of a pcap file up to its frame number `frames` (pcap: 24-octet header, then
 * 16-octet record headers with the captured length at offset 8). */
static size_t pcap_prefix(const unsigned char *p, size_t len, size_t frames)
{
	size_t off = 24;
	for (size_t i = 0; i < frames && off + 16 <= len; i++) {
		uint32_t incl;
		memcpy(&incl, p + off + 8, 4);
		off += 16 + incl;
	}
	return off < len ? off : len;
}

/* Waits until a consumer sees at least one record of the topics (10 s at most). */
static bool first_record(const char *brokers, char topics[][64], size_t n_topics, int parts)
{
	rd_kafka_t *c = consumer(brokers, "v2x-test-first", topics, n_topics, parts);
	bool seen = false;
	for (int i = 0; i < 100 && !seen; i++) {
		rd_kafka_message_t *m = rd_kafka_consumer_poll(c, 100);
		seen = m && !m->err;
		if (m)
			rd_kafka_message_destroy(m);
	}
	rd_kafka_consumer_close(c);
	rd_kafka_destroy(c);
	return seen;
}

/* The broker leading a partition of the topic (the one to take down: it has records). */
static int32_t leader_of(const char *brokers, const char *topic, int32_t partition)
{
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rd_kafka_conf_set(conf, "bootstrap.servers", brokers, err, sizeof(err));
	rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
	rd_kafka_topic_t *t = rd_kafka_topic_new(rk, topic, NULL);
	const struct rd_kafka_metadata *md;
	int32_t leader = -1;
	if (rd_kafka_metadata(rk, 0, t, &md, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
		for (int i = 0; i < md->topic_cnt; i++)
			for (int p = 0; p < md->topics[i].partition_cnt; p++)
				if (md->topics[i].partitions[p].id == partition)
					leader = md->topics[i].partitions[p].leader;
		rd_kafka_metadata_destroy(md);
	}
	rd_kafka_topic_destroy(t);
	rd_kafka_destroy(rk);
	return leader;
}

/* decode --kafka reading a pcap from its stdin, stdout to /dev/null, stderr to a file. */
struct child {
	pid_t pid;
	int in;
	char errfile[32];
};

static void start(struct child *ch, const char *v2xcap, const char *brokers, const char *extra)
{
	char cmd[4096];
	int in[2];
	snprintf(ch->errfile, sizeof(ch->errfile), "/tmp/v2x-kafka-err-XXXXXX");
	int efd = mkstemp(ch->errfile);
	if (efd < 0 || pipe(in) < 0)
		exit(2);
	snprintf(cmd, sizeof(cmd), "exec '%s' decode -j 2 --kafka '%s' %s - >/dev/null", v2xcap,
		 brokers, extra);
	signal(SIGPIPE, SIG_IGN);
	ch->pid = fork();
	if (ch->pid == 0) {
		dup2(in[0], 0);
		dup2(efd, 2);
		close(in[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(efd);
	ch->in = in[1];
}

static void feed(struct child *ch, const unsigned char *p, size_t n)
{
	if (write(ch->in, p, n) != (ssize_t)n)
		printf("decode did not take %zu octets\n", n);
}

/* Closes decode's stdin and waits; the exit status, stderr in *err. */
static int finish(struct child *ch, char **err)
{
	int st;
	size_t len;
	close(ch->in);
	waitpid(ch->pid, &st, 0);
	*err = slurp(ch->errfile, &len);
	unlink(ch->errfile);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void pause_ms(long ms)
{
	nanosleep(&(struct timespec){ms / 1000, ms % 1000 * 1000000}, NULL);
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	const char *v2xcap = argv[1], *mode = argv[2];
	char files[8192] = "", cmd[16384], *out, *err = NULL;
	for (int i = 3; i < argc; i++)
		snprintf(files + strlen(files), sizeof(files) - strlen(files), " '%s'", argv[i]);
	bool fed = strncmp(mode, "midrun-", 7) == 0 || strcmp(mode, "sigint") == 0;
	if (fed) /* decode's stdin: "file":"-" */
		snprintf(cmd, sizeof(cmd), "'%s' decode -j 1 - <%s", v2xcap, files);
	else
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
	} else if (strcmp(mode, "capture") == 0) {
		char dir[] = "/tmp/v2x-kafka-capture-XXXXXX", *probe;
		if (!mkdtemp(dir))
			return 2;
		chmod(dir, 0777); /* the capture drops its privileges before writing */
		snprintf(cmd, sizeof(cmd), "'%s' send -i lo --force --count 1 --rate 1000%s",
			 v2xcap, files);
		if (run(cmd, NULL, &probe) != 0) {
			printf("SKIP: cannot send on lo (needs root or CAP_NET_RAW): %s\n", probe);
			rmdir(dir);
			return 77;
		}
		snprintf(cmd, sizeof(cmd), "exec '%s' capture -i lo -w %s/lo.pcapng --duration 60 "
			 "--kafka '%s' --topic 'v2x.{type}'", v2xcap, dir, brokers);
		char errfile[64];
		snprintf(errfile, sizeof(errfile), "%s/capture.err", dir);
		pid_t pid = fork();
		if (pid == 0) {
			freopen(errfile, "w", stderr);
			execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
			_exit(127);
		}
		size_t elen = 0;
		for (int i = 0; i < 100; i++) { /* the capture is open: "privileges: ..." */
			free(err);
			err = slurp(errfile, &elen);
			if (strstr(err, "privileges:"))
				break;
			pause_ms(100);
		}
		snprintf(cmd, sizeof(cmd), "'%s' send -i lo --force --rate 200%s", v2xcap, files);
		char *serr;
		CHECK(run(cmd, NULL, &serr) == 0, "send: %s", serr);
		pause_ms(500);
		kill(pid, SIGINT);
		int st;
		waitpid(pid, &st, 0);
		free(err);
		err = slurp(errfile, &elen);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "capture: %s", err);
		/* what the capture kept, as decode writes it, "file" the interface */
		snprintf(cmd, sizeof(cmd), "'%s' decode -j 1 %s/lo.pcapng | sed 's|^{\"file\":\"[^\"]*\"|{\"file\":\"lo\"|'",
			 v2xcap, dir);
		char *ref;
		run(cmd, &ref, &serr);
		n_lines = 0;
		for (char *t = strtok(ref, "\n"); t && n_lines < MAX_LINES; t = strtok(NULL, "\n"))
			lines[n_lines++] = t;
		size_t n = consume(brokers, topics, n_topics, 3, g, MAX_LINES);
		CHECK(n_lines > 0, "the capture kept no message: %s", err);
		check_records(g, n);
		printf("capture: %zu lines of decode, %zu records consumed; %s", n_lines, n, err);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			printf("could not remove %s\n", dir);
	} else if (fed) {
		size_t len, first_frames = 1024;
		unsigned char *cap = (unsigned char *)slurp(argv[3], &len);
		/* four batches (256 frames each) go out while decode waits for the rest */
		size_t first = pcap_prefix(cap, len, first_frames);
		bool lost = strcmp(mode, "midrun-lost") == 0, sig = strcmp(mode, "sigint") == 0;
		/* the broker that fails or is slow: one with records, the leader of a
		 * partition of the BSMs (the most frequent message, many senders) */
		int32_t down = leader_of(brokers, "v2x.BSM", 0);
		CHECK(down > 0, "no leader for v2x.BSM [0]");
		struct child ch;
		if (sig) /* records wait for a slow broker when the signal comes */
			rd_kafka_mock_broker_set_rtt(mc, down, 1500);
		start(&ch, v2xcap, brokers, lost ? "-X message.timeout.ms=3000" : "");
		feed(&ch, cap, first);
		CHECK(first_record(brokers, topics, n_topics, 3), "nothing delivered at first");
		if (sig) {
			kill(ch.pid, SIGINT);
			rc = finish(&ch, &err);
			CHECK(rc == 1 && strstr(err, "interrupted") && !strstr(err, "not delivered"),
			      "exit %d: %s", rc, err);
			rd_kafka_mock_broker_set_rtt(mc, down, 0);
			n_lines = first_frames; /* one line per frame: these and no other */
		} else {
			rd_kafka_mock_broker_set_down(mc, down);
			feed(&ch, cap + first, len - first);
			if (!lost) { /* back while records wait for it */
				pause_ms(1000);
				rd_kafka_mock_broker_set_up(mc, down);
			}
			rc = finish(&ch, &err);
			rd_kafka_mock_broker_set_up(mc, down); /* for the consumer */
		}
		size_t n = consume(brokers, topics, n_topics, 3, g, MAX_LINES);
		if (lost) {
			/* every acknowledged record is there; a record in flight when its broker
			 * went may have been stored and still be counted lost (at least once) */
			const char *at = strstr(err, " records not delivered"), *of = at;
			unsigned long nlost = 0, nprod = 0;
			while (of && of > err && memcmp(of, ": ", 2) != 0) /* ": N of M records" */
				of--;
			CHECK(rc == 1, "exit %d", rc);
			size_t got = n - mark_replays(g, n); /* distinct lines */
			CHECK(of && sscanf(of + 2, "%lu of %lu", &nlost, &nprod) == 2 &&
			      nprod == n_lines && nlost > 0 && got >= n_lines - nlost &&
			      got < n_lines,
			      "%zu of %zu lines consumed (%zu records); stderr: %s", got, n_lines, n,
			      err);
			char name[16];
			snprintf(name, sizeof(name), "/%d: ", (int)down);
			CHECK(strstr(err, "last broker error: ") && strstr(err, name), "stderr: %s",
			      err);
			for (size_t i = 0; i < n; i++) {
				CHECK(g[i].index != SIZE_MAX, "record %zu is not a line of decode", i);
				if (g[i].index == SIZE_MAX)
					describe(&g[i]);
			}
		} else if (!sig) {
			CHECK(rc == 0, "exit %d: %s", rc, err);
		}
		if (!lost)
			check_records(g, n);
		printf("%s: %zu lines, %zu records consumed, exit %d: %s\n", mode, n_lines, n, rc,
		       err);
	} else {
		return 2;
	}
	rd_kafka_mock_cluster_destroy(mc);
	rd_kafka_destroy(host);
	return failures ? 1 : 0;
}
