/* The files of `v2xcap capture`: pcap or pcapng as libv2x encodes them (pcap_write.h),
 * with rotation into numbered files. */
#define _GNU_SOURCE
#include "capwrite.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcap_write.h"

struct v2xcap_capwriter {
	struct v2xcap_capwriter_conf conf;
	bool pcapng;
	FILE *f;
	char path[4096];
	unsigned n_files;
	uint64_t bytes;         /* octets in the current file */
	struct v2x_buf out;     /* the encoded header or record being written */
	int64_t file_start_us;  /* capture time of its first frame, 0 before one */
};

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Writes what the encoder put in w->out, and empties it. */
static bool flush_out(struct v2xcap_capwriter *w)
{
	bool ok = !w->out.err && fwrite(w->out.p, 1, w->out.len, w->f) == w->out.len;
	w->bytes += w->out.len;
	v2x_buf_reset(&w->out);
	return ok;
}

static bool write_header(struct v2xcap_capwriter *w)
{
	const struct v2xcap_capwriter_conf *c = &w->conf;
	v2x_pcap_write_header(&w->out, &(struct v2x_pcap_conf){
		.pcapng = w->pcapng, .linktype = (uint32_t)c->linktype, .snaplen = c->snaplen,
		.if_name = c->if_name, .if_desc = c->if_desc});
	return flush_out(w);
}

static void set_err(char *err, size_t errlen, const char *what, const char *path)
{
	snprintf(err, errlen, "%s %s: %s", what, path, strerror(errno));
}

static int open_next(struct v2xcap_capwriter *w, char *err, size_t errlen)
{
	const char *path = w->conf.path;
	w->n_files++;
	if (w->conf.rotate_bytes || w->conf.rotate_us) {
		const char *dot = strrchr(path, '.');
		const char *slash = strrchr(path, '/');
		if (!dot || (slash && dot < slash))
			dot = path + strlen(path);
		snprintf(w->path, sizeof w->path, "%.*s-%05u%s", (int)(dot - path), path,
			 w->n_files, dot);
	} else {
		snprintf(w->path, sizeof w->path, "%s", path);
	}
	w->f = fopen(w->path, "wb");
	if (!w->f) {
		set_err(err, errlen, "cannot create", w->path);
		return -1;
	}
	w->bytes = 0;
	w->file_start_us = 0;
	if (!write_header(w) || fflush(w->f) != 0) {
		set_err(err, errlen, "cannot write", w->path);
		return -1;
	}
	return 0;
}

struct v2xcap_capwriter *v2xcap_capwriter_open(const struct v2xcap_capwriter_conf *conf, char *err,
					 size_t errlen)
{
	struct v2xcap_capwriter *w = calloc(1, sizeof *w);
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->conf = *conf;
	w->pcapng = !has_suffix(conf->path, ".pcap");
	if (open_next(w, err, errlen) < 0) {
		if (w->f)
			fclose(w->f);
		v2x_buf_free(&w->out);
		free(w);
		return NULL;
	}
	return w;
}

static bool rotation_due(const struct v2xcap_capwriter *w, int64_t ts_us, uint32_t caplen)
{
	if (w->file_start_us == 0)
		return false; /* never rotate an empty file */
	if (w->conf.rotate_bytes && w->bytes + caplen + 32 > w->conf.rotate_bytes)
		return true;
	return w->conf.rotate_us && ts_us - w->file_start_us >= w->conf.rotate_us;
}

int v2xcap_capwriter_write(struct v2xcap_capwriter *w, int64_t ts_us, const uint8_t *data,
			uint32_t caplen, uint32_t origlen, char *err, size_t errlen)
{
	if (rotation_due(w, ts_us, caplen)) {
		if (fclose(w->f) != 0) {
			w->f = NULL;
			set_err(err, errlen, "cannot write", w->path);
			return -1;
		}
		w->f = NULL;
		if (open_next(w, err, errlen) < 0)
			return -1;
	}
	if (w->file_start_us == 0)
		w->file_start_us = ts_us;
	v2x_pcap_write_record(&w->out, w->pcapng, ts_us, data, caplen, origlen);
	bool ok = flush_out(w);
	if (!ok) {
		set_err(err, errlen, "cannot write", w->path);
		return -1;
	}
	return 0;
}

int v2xcap_capwriter_flush(struct v2xcap_capwriter *w)
{
	return w->f && fflush(w->f) == 0 ? 0 : -1;
}

const char *v2xcap_capwriter_path(const struct v2xcap_capwriter *w)
{
	return w->path;
}

unsigned v2xcap_capwriter_files(const struct v2xcap_capwriter *w)
{
	return w->n_files;
}

int v2xcap_capwriter_close(struct v2xcap_capwriter *w, char *err, size_t errlen)
{
	int rc = 0;
	if (w->f && fclose(w->f) != 0) {
		set_err(err, errlen, "cannot write", w->path);
		rc = -1;
	}
	v2x_buf_free(&w->out);
	free(w);
	return rc;
}
