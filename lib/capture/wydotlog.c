/* WYDOT/JPO ODE log reader, and of files of USDOT RSU text records (see wydotlog.h). */
#include "wydotlog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "frame.h"
#include "rsu.h"
#include "writer.h"
#include "wydot.h"

/* The logs are read whole; an OBU's daily logs are a few MB. */
#define MAX_LOG (256u << 20)

struct v2x_wydotlog {
	uint8_t *data;
	size_t len, pos;
	size_t whole;           /* octets of whole records; a record cut short follows */
	struct v2x_wydot_format fmt;
	bool rsu;               /* a file of RSU text records, not a WYDOT log */
	struct v2x_rsu_rec rsu_rec; /* the one read last (its checks) */
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

struct v2x_wydotlog *v2x_wydotlog_open(int fd, const uint8_t *head, size_t head_len,
				       const char *name, char *err, size_t errlen)
{
	struct v2x_buf raw = {0};
	struct v2x_wydotlog *l = calloc(1, sizeof(*l));
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
	if (v2x_rsu_starts(l->data, l->len)) {
		l->rsu = true;
		l->whole = l->len; /* each record is checked when read */
		return l;
	}
	if (!v2x_wydot_detect(l->data, l->len, strcmp(name, "-") ? name : NULL, &l->fmt)) {
		snprintf(err, errlen, len == 0 ? "empty file"
			 : "not a pcap or pcapng capture, nor a WYDOT log, nor RSU records");
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
	v2x_wydotlog_close(l);
	return NULL;
}

/* "MM/DD/YYYY, HH:MM" (the store-and-repeat delivery times) as Unix seconds, or 0 */
static int64_t delivery_time(const uint8_t *p, size_t n)
{
	char text[32];
	unsigned mo, d, y, h, mi;
	int used = 0;
	if (n == 0 || n >= sizeof(text))
		return 0;
	memcpy(text, p, n);
	text[n] = 0;
	if (sscanf(text, "%2u/%2u/%4u, %2u:%2u%n", &mo, &d, &y, &h, &mi, &used) != 5 ||
	    (size_t)used != n || mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1970 || h > 23 ||
	    mi > 59)
		return 0;
	/* days from the civil date (proleptic Gregorian), no time zone: UTC */
	int64_t yy = (int64_t)y - (mo <= 2), era = yy / 400, yoe = yy - era * 400;
	int64_t doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t days = era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
	return days * 86400 + h * 3600 + mi * 60;
}

/* The next RSU record: its text is the frame (V2X_LINK_RSU_TEXT), blank lines after it
 * skipped; a record that does not read ends the file with its error. */
static enum v2x_rd_result rsu_next(struct v2x_wydotlog *l, struct v2x_record *rec,
				      char *err, size_t errlen)
{
	struct v2x_rsu_rec *r = &l->rsu_rec;
	const char *why;
	const uint8_t *p = l->data + l->pos;
	if (v2x_rsu_parse(p, l->len - l->pos, r, &why) < 0) {
		snprintf(err, errlen, "frame %" PRIu64 ": %s", l->number + 1, why);
		l->pos = l->len;
		return V2X_RD_ERROR;
	}
	l->pos += r->len;
	while (l->pos < l->len && strchr(" \t\r\n", l->data[l->pos]))
		l->pos++;
	const struct v2x_rsu_span *start = &r->field[V2X_RSU_DELIVERY_START];
	rec->number = ++l->number;
	rec->ts_ns = start->present ? delivery_time(p + start->off, start->len) * 1000000000 : 0;
	rec->linktype = V2X_LINK_RSU_TEXT;
	rec->caplen = rec->origlen = r->len;
	rec->data = p;
	return V2X_RD_RECORD;
}

enum v2x_rd_result v2x_wydotlog_next(struct v2x_wydotlog *l, struct v2x_record *rec,
				     char *err, size_t errlen)
{
	if (l->pos >= l->len)
		return V2X_RD_END;
	if (l->rsu)
		return rsu_next(l, rec, err, errlen);
	if (l->pos >= l->whole) {
		snprintf(err, errlen, "frame %" PRIu64 ": truncated WYDOT log: %zu octets after "
			 "the last whole record", l->number + 1, l->len - l->pos);
		l->pos = l->len;
		return V2X_RD_ERROR;
	}
	const uint8_t *p = l->data + l->pos;
	size_t n;
	size_t step = v2x_wydot_next(&l->fmt, p, l->len - l->pos, &n);
	struct v2x_wydot_rec r;
	const char *why;
	l->frame[0] = (uint8_t)l->fmt.kind;
	memcpy(l->frame + 1, p, n);
	if (step == 0 || v2x_wydot_parse(l->frame, n + 1, &r, &why) < 0)
		return V2X_RD_END; /* cannot happen: the whole records were walked at open */
	l->pos += step;
	rec->number = ++l->number;
	rec->ts_ns = ((int64_t)r.utc_s * 1000 + r.msec) * 1000000;
	rec->linktype = V2X_LINK_WYDOT;
	rec->caplen = rec->origlen = (uint32_t)(n + 1);
	rec->data = l->frame;
	return V2X_RD_RECORD;
}

void v2x_wydotlog_close(struct v2x_wydotlog *l)
{
	if (!l)
		return;
	free(l->data);
	free(l->frame);
	free(l);
}
