/* WYDOT/JPO ODE log reader (see wydotlog.h). */
#include "wydotlog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "frame.h"
#include "writer.h"
#include "wydot.h"

/* The logs are read whole; an OBU's daily logs are a few MB. */
#define MAX_LOG (256u << 20)

struct v2xcap_wydotlog {
	uint8_t *data;
	size_t len, pos;
	size_t whole;           /* octets of whole records; a record cut short follows */
	struct v2x_wydot_format fmt;
	uint8_t *frame;         /* kind octet + record */
	uint64_t number;
};

/* libv2x's growable buffer, capped at MAX_LOG */
static bool append(struct v2x_buf *b, const uint8_t *p, size_t n)
{
	if (b->len + n > MAX_LOG)
		return false;
	v2x_put(b, p, n);
	return !b->err;
}

/* gzip (RFC 1952, members one after another) or zlib (RFC 1950) data. */
static bool compressed(const uint8_t *p, size_t n)
{
	return n >= 2 && ((p[0] == 0x1f && p[1] == 0x8b) ||
			  ((p[0] & 0x0f) == 8 && ((unsigned)p[0] << 8 | p[1]) % 31 == 0));
}

static bool inflate_all(const uint8_t *in, size_t in_len, struct v2x_buf *out)
{
	uint8_t chunk[65536];
	z_stream z = {0};
	if (inflateInit2(&z, 15 + 32) != Z_OK) /* +32: gzip or zlib header */
		return false;
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)in_len;
	bool ok = true;
	for (;;) {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		int rc = inflate(&z, Z_NO_FLUSH);
		if (!append(out, chunk, sizeof(chunk) - z.avail_out)) {
			ok = false;
			break;
		}
		if (rc == Z_STREAM_END) {
			if (z.avail_in == 0 || !compressed(z.next_in, z.avail_in))
				break;
			inflateReset(&z); /* the next gzip member */
		} else if (rc != Z_OK) {
			ok = false;
			break;
		}
	}
	inflateEnd(&z);
	return ok;
}

struct v2xcap_wydotlog *v2xcap_wydotlog_open(int fd, const uint8_t *head, size_t head_len,
				       const char *name, char *err, size_t errlen)
{
	struct v2x_buf raw = {0};
	struct v2xcap_wydotlog *l = calloc(1, sizeof(*l));
	if (!l || !append(&raw, head, head_len))
		goto fail;
	uint8_t chunk[65536];
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s", strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		if (!append(&raw, chunk, (size_t)n)) {
			snprintf(err, errlen, "not a pcap or pcapng capture, nor a WYDOT log (of "
				 "at most %u MiB)", MAX_LOG >> 20);
			goto out;
		}
	}
	size_t len = raw.len;
	if (compressed(raw.p, raw.len)) {
		struct v2x_buf plain = {0};
		bool ok = inflate_all(raw.p, raw.len, &plain);
		v2x_buf_free(&raw);
		raw = plain;
		if (!ok) {
			snprintf(err, errlen, "not a pcap or pcapng capture, nor a readable "
				 "compressed WYDOT log");
			goto out;
		}
	}
	l->data = raw.p;
	l->len = raw.len;
	raw = (struct v2x_buf){0};
	if (!v2x_wydot_detect(l->data, l->len, strcmp(name, "-") ? name : NULL, &l->fmt)) {
		snprintf(err, errlen, len == 0 ? "empty file"
			 : "not a pcap or pcapng capture, nor a WYDOT log");
		goto out;
	}
	l->whole = v2x_wydot_whole(&l->fmt, l->data, l->len);
	if (!(l->frame = malloc(1 + 65535 + 64)))
		goto fail;
	return l;
fail:
	snprintf(err, errlen, "out of memory (or a log over %u MiB)", MAX_LOG >> 20);
out:
	v2x_buf_free(&raw);
	v2xcap_wydotlog_close(l);
	return NULL;
}

enum v2xcap_rd_result v2xcap_wydotlog_next(struct v2xcap_wydotlog *l, struct v2xcap_caprec *rec,
				     char *err, size_t errlen)
{
	if (l->pos >= l->len)
		return V2XCAP_RD_END;
	if (l->pos >= l->whole) {
		snprintf(err, errlen, "frame %" PRIu64 ": truncated WYDOT log: %zu octets after "
			 "the last whole record", l->number + 1, l->len - l->pos);
		l->pos = l->len;
		return V2XCAP_RD_ERROR;
	}
	const uint8_t *p = l->data + l->pos;
	size_t n;
	size_t step = v2x_wydot_next(&l->fmt, p, l->len - l->pos, &n);
	struct v2x_wydot_rec r;
	const char *why;
	l->frame[0] = (uint8_t)l->fmt.kind;
	memcpy(l->frame + 1, p, n);
	if (step == 0 || v2x_wydot_parse(l->frame, n + 1, &r, &why) < 0)
		return V2XCAP_RD_END; /* cannot happen: the whole records were walked at open */
	l->pos += step;
	rec->number = ++l->number;
	rec->ts_ns = ((int64_t)r.utc_s * 1000 + r.msec) * 1000000;
	rec->linktype = V2X_LINK_WYDOT;
	rec->caplen = rec->origlen = (uint32_t)(n + 1);
	rec->data = l->frame;
	return V2XCAP_RD_RECORD;
}

void v2xcap_wydotlog_close(struct v2xcap_wydotlog *l)
{
	if (!l)
		return;
	free(l->data);
	free(l->frame);
	free(l);
}
