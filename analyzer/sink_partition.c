/* decode --partition hour -o DIR: Hive-style partitions that Spark, Athena, Trino and
 * DuckDB read as they are:
 *   DIR/type=BSM/date=2026-01-01/hour=13/part-<input file>.ndjson.gz
 * Each input file has its own set of files, so processes decoding different files may
 * write into one DIR (or object-store prefix) without coordination. A file is written
 * under a ".tmp" name and renamed when complete, so readers never see half a file. The
 * run's manifest, DIR/_manifests/<host>-<pid>-<time>.json, lists the inputs and the
 * records per partition file (engines skip names starting with '_'). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "json.h"
#include "registry.h"
#include "sink.h"

struct part {
	char *path;             /* final name; written as path + ".tmp" */
	const char *input;
	char type[24], date[16], hour[8];
	gzFile gz;
	uint64_t records;
};

struct partitions {
	const char *dir;
	char *const *inputs;
	size_t n_inputs;
	struct part *p;
	size_t n, cap;
	size_t last;            /* the part of the previous record: usually the next one's */
	bool failed;
};

/* mkdir -p of path's directories. */
static int make_dirs(char *path)
{
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		int r = mkdir(path, 0777);
		*s = '/';
		if (r < 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return strcmp(path, "-") == 0 ? "stdin" : s ? s + 1 : path;
}

static struct part *part_open(struct partitions *ps, const char *input, const char *type,
			      const char *date, const char *hour)
{
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 16;
		struct part *np = realloc(ps->p, cap * sizeof(*np));
		if (!np)
			return NULL;
		ps->p = np;
		ps->cap = cap;
	}
	struct part *p = &ps->p[ps->n];
	*p = (struct part){.input = input};
	snprintf(p->type, sizeof(p->type), "%s", type);
	snprintf(p->date, sizeof(p->date), "%s", date);
	snprintf(p->hour, sizeof(p->hour), "%s", hour);
	size_t len = strlen(ps->dir) + strlen(input) + 128;
	char *tmp = malloc(len + 4);
	p->path = malloc(len);
	if (!tmp || !p->path) {
		free(tmp);
		free(p->path);
		return NULL;
	}
	snprintf(p->path, len, "%s/type=%s/date=%s/hour=%s/part-%s.ndjson.gz", ps->dir, type,
		 date, hour, base_name(input));
	snprintf(tmp, len + 4, "%s.tmp", p->path);
	if (make_dirs(tmp) == 0)
		p->gz = gzopen(tmp, "wb6");
	if (!p->gz) {
		fprintf(stderr, "v2xcap decode: %s: %s\n", tmp, strerror(errno ? errno : ENOMEM));
		free(tmp);
		free(p->path);
		return NULL;
	}
	free(tmp);
	ps->n++;
	return p;
}

static int put(void *ctx, const struct v2xcap_record *r)
{
	struct partitions *ps = ctx;
	const struct v2x_msgid *id = v2x_msgid_lookup(r->d->msg_id);
	char other[16], date[16], hour[8];
	snprintf(other, sizeof(other), "msg%" PRIu32, r->d->msg_id);
	const char *type = id ? id->abbrev : other;
	int64_t ns = r->fr->ts_ns;
	time_t t = (time_t)(ns >= 0 ? ns / 1000000000 : (ns - 999999999) / 1000000000);
	struct tm tm;
	if (!gmtime_r(&t, &tm))
		memset(&tm, 0, sizeof(tm));
	strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	strftime(hour, sizeof(hour), "%H", &tm);
	struct part *p = NULL;
	for (size_t k = 0; k < ps->n && !p; k++) {
		struct part *q = &ps->p[(ps->last + k) % ps->n];
		if (q->input == r->fr->file && strcmp(q->type, type) == 0 &&
		    strcmp(q->hour, hour) == 0 && strcmp(q->date, date) == 0)
			p = q;
	}
	if (!p && !(p = part_open(ps, r->fr->file, type, date, hour))) {
		ps->failed = true;
		return -1;
	}
	ps->last = (size_t)(p - ps->p);
	if (gzwrite(p->gz, r->json, (unsigned)r->len) != (int)r->len) {
		fprintf(stderr, "v2xcap decode: %s: write error\n", p->path);
		ps->failed = true;
		return -1;
	}
	p->records++;
	return 0;
}

static int write_manifest(struct partitions *ps)
{
	char host[64] = "host", name[4096], stamp[32];
	gethostname(host, sizeof(host) - 1);
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(name, sizeof(name), "%s/_manifests/%s-%ld-%s.json", ps->dir, host,
		 (long)getpid(), stamp);
	FILE *f = make_dirs(name) == 0 ? fopen(name, "w") : NULL;
	if (!f) {
		fprintf(stderr, "v2xcap decode: %s: %s\n", name, strerror(errno));
		return -1;
	}
	struct json_writer w;
	uint64_t total = 0;
	json_init(&w, f);
	json_begin_object(&w);
	json_key(&w, "inputs");
	json_begin_array(&w);
	for (size_t i = 0; i < ps->n_inputs; i++)
		json_string(&w, ps->inputs[i]);
	json_end_array(&w);
	json_key(&w, "partitions");
	json_begin_array(&w);
	for (size_t i = 0; i < ps->n; i++) {
		const struct part *p = &ps->p[i];
		json_begin_object(&w);
		json_key(&w, "path");
		json_string(&w, p->path + strlen(ps->dir) + 1);
		json_key(&w, "input");
		json_string(&w, p->input);
		json_key(&w, "type");
		json_string(&w, p->type);
		json_key(&w, "date");
		json_string(&w, p->date);
		json_key(&w, "hour");
		json_uint(&w, (unsigned)atoi(p->hour));
		json_key(&w, "records");
		json_uint(&w, p->records);
		json_end_object(&w);
		total += p->records;
	}
	json_end_array(&w);
	json_key(&w, "records");
	json_uint(&w, total);
	json_end_object(&w);
	fputc('\n', f);
	if (fclose(f) != 0) {
		fprintf(stderr, "v2xcap decode: %s: write error\n", name);
		return -1;
	}
	return 0;
}

static int close_partitions(void *ctx, bool interrupted)
{
	struct partitions *ps = ctx;
	int rc = ps->failed ? -1 : 0;
	for (size_t i = 0; i < ps->n; i++) {
		struct part *p = &ps->p[i];
		char tmp[4200];
		snprintf(tmp, sizeof(tmp), "%s.tmp", p->path);
		/* A failed or interrupted run leaves its .tmp files: never a partial part. */
		if (gzclose(p->gz) != Z_OK || (!ps->failed && !interrupted &&
					      rename(tmp, p->path) < 0)) {
			fprintf(stderr, "v2xcap decode: %s: %s\n", p->path, strerror(errno));
			rc = -1;
		}
	}
	if (rc == 0 && !interrupted && write_manifest(ps) < 0)
		rc = -1;
	for (size_t i = 0; i < ps->n; i++)
		free(ps->p[i].path);
	free(ps->p);
	free(ps);
	return rc;
}

int v2xcap_sink_partition_open(struct v2xcap_sink *s, const struct v2xcap_scale_opts *o,
			    char *const *inputs, size_t n_inputs)
{
	struct partitions *ps = calloc(1, sizeof(*ps));
	if (!ps) {
		fprintf(stderr, "v2xcap decode: out of memory\n");
		return -1;
	}
	*ps = (struct partitions){.dir = o->out_dir, .inputs = inputs, .n_inputs = n_inputs};
	*s = (struct v2xcap_sink){.ctx = ps, .put = put, .close = close_partitions};
	return 0;
}
