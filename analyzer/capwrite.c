/* pcap / pcapng writer for `v2xcap capture` (little-endian host files, microsecond
 * timestamps), with rotation into numbered files. */
#define _GNU_SOURCE
#include "capwrite.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct v2x_capwriter {
	struct v2x_capwriter_conf conf;
	bool pcapng;
	FILE *f;
	char path[4096];
	unsigned n_files;
	uint64_t bytes;         /* octets in the current file */
	int64_t file_start_us;  /* capture time of its first frame, 0 before one */
};

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool put(struct v2x_capwriter *w, const void *p, size_t n)
{
	w->bytes += n;
	return fwrite(p, 1, n, w->f) == n;
}

static bool put_u16(struct v2x_capwriter *w, uint16_t v)
{
	return put(w, &v, sizeof v);
}

static bool put_u32(struct v2x_capwriter *w, uint32_t v)
{
	return put(w, &v, sizeof v);
}

static size_t pad4(size_t n)
{
	return (4 - n % 4) % 4;
}

/* A pcapng option: code, length, value padded to 32 bits. */
static bool put_option(struct v2x_capwriter *w, uint16_t code, const char *text)
{
	static const uint8_t zeros[4] = {0};
	size_t len = strlen(text);
	if (len > 0xffff)
		len = 0xffff;
	return put_u16(w, code) && put_u16(w, (uint16_t)len) && put(w, text, len) &&
	       put(w, zeros, pad4(len));
}

static size_t option_size(const char *text)
{
	size_t len = text ? strlen(text) : 0;
	if (len > 0xffff)
		len = 0xffff;
	return text ? 4 + len + pad4(len) : 0;
}

static bool write_header(struct v2x_capwriter *w)
{
	const struct v2x_capwriter_conf *c = &w->conf;
	if (!w->pcapng)
		return put_u32(w, 0xa1b2c3d4) && put_u16(w, 2) && put_u16(w, 4) &&
		       put_u32(w, 0) && put_u32(w, 0) && put_u32(w, c->snaplen) &&
		       put_u32(w, (uint32_t)c->linktype);
	/* Section header block: byte-order magic, version 1.0, section length unknown. */
	bool ok = put_u32(w, 0x0a0d0d0a) && put_u32(w, 28) && put_u32(w, 0x1a2b3c4d) &&
		  put_u16(w, 1) && put_u16(w, 0) && put_u32(w, 0xffffffff) &&
		  put_u32(w, 0xffffffff) && put_u32(w, 28);
	/* Interface description block with if_name (2), if_description (3), end (0). */
	uint32_t len = (uint32_t)(20 + option_size(c->if_name) + option_size(c->if_desc) + 4);
	ok = ok && put_u32(w, 1) && put_u32(w, len) && put_u16(w, (uint16_t)c->linktype) &&
	     put_u16(w, 0) && put_u32(w, c->snaplen);
	if (c->if_name)
		ok = ok && put_option(w, 2, c->if_name);
	if (c->if_desc)
		ok = ok && put_option(w, 3, c->if_desc);
	return ok && put_u32(w, 0) && put_u32(w, len);
}

static void set_err(char *err, size_t errlen, const char *what, const char *path)
{
	snprintf(err, errlen, "%s %s: %s", what, path, strerror(errno));
}

static int open_next(struct v2x_capwriter *w, char *err, size_t errlen)
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

struct v2x_capwriter *v2x_capwriter_open(const struct v2x_capwriter_conf *conf, char *err,
					 size_t errlen)
{
	struct v2x_capwriter *w = calloc(1, sizeof *w);
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->conf = *conf;
	w->pcapng = !has_suffix(conf->path, ".pcap");
	if (open_next(w, err, errlen) < 0) {
		if (w->f)
			fclose(w->f);
		free(w);
		return NULL;
	}
	return w;
}

static bool rotation_due(const struct v2x_capwriter *w, int64_t ts_us, uint32_t caplen)
{
	if (w->file_start_us == 0)
		return false; /* never rotate an empty file */
	if (w->conf.rotate_bytes && w->bytes + caplen + 32 > w->conf.rotate_bytes)
		return true;
	return w->conf.rotate_us && ts_us - w->file_start_us >= w->conf.rotate_us;
}

int v2x_capwriter_write(struct v2x_capwriter *w, int64_t ts_us, const uint8_t *data,
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
	static const uint8_t zeros[4] = {0};
	bool ok;
	if (w->pcapng) {
		uint32_t len = (uint32_t)(32 + caplen + pad4(caplen));
		uint64_t ts = (uint64_t)ts_us;
		ok = put_u32(w, 6) && put_u32(w, len) && put_u32(w, 0) &&
		     put_u32(w, (uint32_t)(ts >> 32)) && put_u32(w, (uint32_t)ts) &&
		     put_u32(w, caplen) && put_u32(w, origlen) && put(w, data, caplen) &&
		     put(w, zeros, pad4(caplen)) && put_u32(w, len);
	} else {
		ok = put_u32(w, (uint32_t)(ts_us / 1000000)) &&
		     put_u32(w, (uint32_t)(ts_us % 1000000)) && put_u32(w, caplen) &&
		     put_u32(w, origlen) && put(w, data, caplen);
	}
	if (!ok) {
		set_err(err, errlen, "cannot write", w->path);
		return -1;
	}
	return 0;
}

int v2x_capwriter_flush(struct v2x_capwriter *w)
{
	return w->f && fflush(w->f) == 0 ? 0 : -1;
}

const char *v2x_capwriter_path(const struct v2x_capwriter *w)
{
	return w->path;
}

unsigned v2x_capwriter_files(const struct v2x_capwriter *w)
{
	return w->n_files;
}

int v2x_capwriter_close(struct v2x_capwriter *w, char *err, size_t errlen)
{
	int rc = 0;
	if (w->f && fclose(w->f) != 0) {
		set_err(err, errlen, "cannot write", w->path);
		rc = -1;
	}
	free(w);
	return rc;
}
