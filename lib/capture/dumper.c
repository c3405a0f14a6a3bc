/* <v2x/dump.h>: capture files as libv2x encodes them (pcap_write.h), to a path, a fifo or
 * stdout, with rotation into numbered files. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcap_write.h"

#include <v2x/dump.h>

struct v2x_dumper {
	struct v2x_dumper_conf conf;
	bool pcapng, is_stdout;
	FILE *f;
	char path[4096];
	unsigned n_files;
	uint64_t bytes;         /* octets in the current file */
	struct v2x_buf out;     /* the encoded header or record being written */
	int64_t file_start_ns;  /* capture time of its first frame */
	bool has_frame;         /* the current file has one */
	char err[V2X_ERRBUF_SIZE];
};

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int fail(struct v2x_dumper *d, const char *what)
{
	int e = errno;
	if (snprintf(d->err, sizeof d->err, "%s %s: %s", what, d->path, strerror(e)) >=
	    (int)sizeof d->err)
		memcpy(d->err + sizeof d->err - 4, "...", 4); /* a long path: cut, and said so */
	return V2X_EIO;
}

/* Writes what the encoder put in d->out, and empties it. */
static bool flush_out(struct v2x_dumper *d)
{
	bool ok = !d->out.err && fwrite(d->out.p, 1, d->out.len, d->f) == d->out.len;
	d->bytes += d->out.len;
	v2x_buf_reset(&d->out);
	return ok;
}

static int open_next(struct v2x_dumper *d)
{
	const char *path = d->conf.path;
	d->n_files++;
	if (d->conf.rotate_bytes || d->conf.rotate_ns) {
		const char *dot = strrchr(path, '.');
		const char *slash = strrchr(path, '/');
		if (!dot || (slash && dot < slash))
			dot = path + strlen(path);
		snprintf(d->path, sizeof d->path, "%.*s-%05u%s", (int)(dot - path), path,
			 d->n_files, dot);
	} else {
		snprintf(d->path, sizeof d->path, "%s", d->is_stdout ? "stdout" : path);
	}
	d->f = d->is_stdout ? stdout : fopen(d->path, "wb");
	if (!d->f)
		return fail(d, "cannot create");
	d->bytes = 0;
	d->has_frame = false;
	const struct v2x_dumper_conf *c = &d->conf;
	v2x_pcap_write_header(&d->out, &(struct v2x_pcap_conf){
		.pcapng = d->pcapng, .linktype = (uint32_t)c->linktype,
		.snaplen = c->snaplen ? c->snaplen : 65535, .if_name = c->if_name,
		.if_desc = c->if_desc});
	if (!flush_out(d) || fflush(d->f) != 0)
		return fail(d, "cannot write");
	return V2X_OK;
}

struct v2x_dumper *v2x_dumper_open(const struct v2x_dumper_conf *conf, char *errbuf)
{
	if (!errbuf)
		return NULL;
	if (!conf || conf->size < offsetof(struct v2x_dumper_conf, rotate_ns) + sizeof(int64_t) ||
	    !conf->path) {
		snprintf(errbuf, V2X_ERRBUF_SIZE, "v2x_dumper_open: %s",
			 conf && conf->size ? "no path" : "no conf, or its size is not set");
		return NULL;
	}
	struct v2x_dumper *d = calloc(1, sizeof *d);
	if (!d) {
		snprintf(errbuf, V2X_ERRBUF_SIZE, "v2x_dumper_open: out of memory");
		return NULL;
	}
	d->conf = *conf;
	d->conf.size = sizeof(d->conf);
	d->is_stdout = strcmp(conf->path, "-") == 0;
	if (d->is_stdout) /* stdout is one stream: it cannot be rotated */
		d->conf.rotate_bytes = 0, d->conf.rotate_ns = 0;
	d->pcapng = !has_suffix(conf->path, ".pcap");
	if (open_next(d) < 0) {
		snprintf(errbuf, V2X_ERRBUF_SIZE, "%s", d->err);
		v2x_dumper_close(d, NULL);
		return NULL;
	}
	return d;
}

static bool rotation_due(const struct v2x_dumper *d, int64_t ts_ns, uint32_t caplen)
{
	if (!d->has_frame)
		return false; /* never rotate an empty file */
	if (d->conf.rotate_bytes && d->bytes + caplen + 32 > d->conf.rotate_bytes)
		return true;
	return d->conf.rotate_ns && ts_ns - d->file_start_ns >= d->conf.rotate_ns;
}

int v2x_dump(struct v2x_dumper *d, int64_t ts_ns, const uint8_t *data, uint32_t caplen,
	     uint32_t origlen)
{
	if (!d || (!data && caplen))
		return V2X_EINVAL;
	if (!d->f)
		return V2X_EIO; /* the last rotation failed: its error stands */
	if (rotation_due(d, ts_ns, caplen)) {
		int closed = fclose(d->f);
		d->f = NULL;
		if (closed != 0)
			return fail(d, "cannot write");
		int r = open_next(d);
		if (r < 0)
			return r;
	}
	if (!d->has_frame)
		d->file_start_ns = ts_ns, d->has_frame = true;
	/* pcap_write.h keeps microseconds, what both formats hold by default */
	v2x_pcap_write_record(&d->out, d->pcapng, ts_ns / 1000, data, caplen, origlen);
	return flush_out(d) ? V2X_OK : fail(d, "cannot write");
}

int v2x_dumper_flush(struct v2x_dumper *d)
{
	if (!d)
		return V2X_EINVAL;
	return d->f && fflush(d->f) == 0 ? V2X_OK : fail(d, "cannot write");
}

const char *v2x_dumper_path(const struct v2x_dumper *d)
{
	return d ? d->path : "";
}

unsigned v2x_dumper_files(const struct v2x_dumper *d)
{
	return d ? d->n_files : 0;
}

const char *v2x_dumper_geterr(const struct v2x_dumper *d)
{
	return d ? d->err : "";
}

int v2x_dumper_close(struct v2x_dumper *d, char *errbuf)
{
	if (!d)
		return V2X_OK;
	int rc = V2X_OK;
	if (d->f && (d->is_stdout ? fflush(d->f) : fclose(d->f)) != 0) {
		rc = fail(d, "cannot write");
		if (errbuf)
			snprintf(errbuf, V2X_ERRBUF_SIZE, "%s", d->err);
	}
	v2x_buf_free(&d->out);
	free(d);
	return rc;
}
