/* pcap and pcapng records straight from a read buffer (see capreader.h). Formats: the
 * pcap file format (draft-ietf-opsawg-pcap) and pcapng (draft-ietf-opsawg-pcapng). */
#define _DEFAULT_SOURCE /* pcap.h uses the BSD u_int/u_char types, hidden by -std=c11 */
#include "capreader.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pcap/pcap.h> /* pcap_datalink_val_to_name, in errors */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frame.h"
#include "wydotlog.h"

#define PCAP_MAGIC_US 0xA1B2C3D4u
#define PCAP_MAGIC_NS 0xA1B23C4Du
#define PCAP_MAGIC_KUZNETZOV 0xA1B2CD34u /* old Linux patch: 8 more octets per record */
#define PCAP_FILE_HDR 24
#define PCAP_REC_HDR 16
#define PCAP_LINKTYPE_MASK 0x03FFFFFFu /* the upper bits carry FCS information */

#define NG_SHB 0x0A0D0D0Au
#define NG_IDB 1u
#define NG_OPB 2u              /* obsolete Packet Block */
#define NG_SPB 3u
#define NG_EPB 6u
#define NG_BYTE_ORDER 0x1A2B3C4Du
#define NG_OPT_TSRESOL 9
#define NG_OPT_TSOFFSET 14
#define NG_MAX_BLOCK (16u << 20)
#define NG_MAX_IFACES 65536

#define MAX_BUFFER (NG_MAX_BLOCK + 64)

struct iface {
	int linktype;
	bool supported;
	uint32_t snaplen;
	uint64_t units;         /* timestamp units per second */
	int64_t offset_s;       /* if_tsoffset */
};

struct v2x_capreader {
	int fd;
	uint8_t *buf;
	size_t cap, pos, end;   /* unread octets: buf[pos..end) */
	bool eof;
	uint64_t offset;        /* file offset of buf[pos] */
	bool ng, swap, nsec, failed;
	/* pcap */
	size_t rec_hdr;         /* record header octets */
	int linktype;
	uint32_t max_caplen;
	/* pcapng: the interfaces of the current section */
	struct iface *ifs;
	size_t n_ifs, cap_ifs;
	uint64_t number;        /* frames handed out */
	struct v2x_wydotlog *log; /* the file is a WYDOT log (wydotlog.h) */
	char err[256];
};

static uint32_t swap32(uint32_t v)
{
	return __builtin_bswap32(v);
}

static uint32_t rd32(const struct v2x_capreader *r, const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return r->swap ? swap32(v) : v;
}

static uint16_t rd16(const struct v2x_capreader *r, const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return r->swap ? __builtin_bswap16(v) : v;
}

__attribute__((format(printf, 3, 4)))
static enum v2x_rd_result fail(struct v2x_capreader *r, bool fatal, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	if (fatal)
		r->failed = true;
	return V2X_RD_ERROR;
}

static long refill(struct v2x_capreader *r, size_t need)
{
	while (r->end - r->pos < need && !r->eof) {
		if (need > r->cap) {
			uint8_t *b = realloc(r->buf, need);
			if (!b)
				return -1;
			r->buf = b;
			r->cap = need;
		}
		if (r->cap - r->pos < need) {
			memmove(r->buf, r->buf + r->pos, r->end - r->pos);
			r->end -= r->pos;
			r->pos = 0;
		}
		ssize_t n = read(r->fd, r->buf + r->end, r->cap - r->end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			r->eof = true;
		r->end += (size_t)n;
	}
	size_t have = r->end - r->pos;
	return (long)(have < need ? have : need);
}

/* Makes `need` unread octets available at buf + pos, reading and growing the buffer as
 * needed; returns how many are available (fewer only at the end of the file), or -1 on a
 * read error (errno). Almost always they are there already: no call then. */
static inline long fill(struct v2x_capreader *r, size_t need)
{
	return r->end - r->pos >= need ? (long)need : refill(r, need);
}

static void consume(struct v2x_capreader *r, size_t n)
{
	r->pos += n;
	r->offset += n;
}

static enum v2x_rd_result read_failed(struct v2x_capreader *r)
{
	return fail(r, true, "read error: %s", strerror(errno));
}

static enum v2x_rd_result truncated(struct v2x_capreader *r, const char *what, long have,
				    size_t need)
{
	return fail(r, true, "frame %" PRIu64 ": truncated capture: %s of %zu octets, only %ld "
		    "in the file", r->number + 1, what, need, have);
}

/* ---- pcap ---- */

static int pcap_header(struct v2x_capreader *r, const uint8_t *h, char *err, size_t errlen)
{
	uint32_t magic;
	memcpy(&magic, h, 4);
	r->swap = magic == swap32(PCAP_MAGIC_US) || magic == swap32(PCAP_MAGIC_NS) ||
		  magic == swap32(PCAP_MAGIC_KUZNETZOV);
	magic = rd32(r, h);
	r->nsec = magic == PCAP_MAGIC_NS;
	r->rec_hdr = magic == PCAP_MAGIC_KUZNETZOV ? PCAP_REC_HDR + 8 : PCAP_REC_HDR;
	uint16_t major = rd16(r, h + 4);
	if (major != 2) {
		snprintf(err, errlen, "pcap version %u not supported", major);
		return -1;
	}
	uint32_t snaplen = rd32(r, h + 16);
	r->max_caplen = snaplen > V2X_RD_MAX_CAPLEN ? snaplen : V2X_RD_MAX_CAPLEN;
	if (r->max_caplen > NG_MAX_BLOCK)
		r->max_caplen = NG_MAX_BLOCK;
	r->linktype = (int)(rd32(r, h + 20) & PCAP_LINKTYPE_MASK);
	return 0;
}

static const char *linktype_name(int linktype)
{
	const char *n = pcap_datalink_val_to_name(linktype);
	return n ? n : "unknown";
}

static enum v2x_rd_result pcap_next_rec(struct v2x_capreader *r, struct v2x_record *rec)
{
	size_t hdr = r->rec_hdr;
	long have = fill(r, hdr);
	if (have < 0)
		return read_failed(r);
	if (have == 0)
		return V2X_RD_END;
	if ((size_t)have < hdr)
		return truncated(r, "record header", have, hdr);
	const uint8_t *h = r->buf + r->pos;
	uint32_t sec = rd32(r, h), frac = rd32(r, h + 4);
	uint32_t caplen = rd32(r, h + 8), origlen = rd32(r, h + 12);
	if (caplen > r->max_caplen)
		return fail(r, true, "frame %" PRIu64 ": captured length %" PRIu32 " larger than "
			    "the maximum %" PRIu32 " (corrupt file?)", r->number + 1, caplen,
			    r->max_caplen);
	have = fill(r, hdr + caplen);
	if (have < 0)
		return read_failed(r);
	if ((size_t)have < hdr + caplen)
		return truncated(r, "record", have, hdr + caplen);
	rec->number = ++r->number;
	rec->ts_ns = (int64_t)sec * 1000000000 + (int64_t)frac * (r->nsec ? 1 : 1000);
	rec->linktype = r->linktype;
	rec->caplen = caplen;
	rec->origlen = origlen;
	rec->data = r->buf + r->pos + hdr;
	consume(r, hdr + caplen);
	return V2X_RD_RECORD;
}

/* ---- pcapng ---- */

/* if_tsresol: 10^-v seconds, or 2^-(v & 0x7F) with the top bit set. */
static int tsresol_units(uint8_t v, uint64_t *units)
{
	unsigned e = v & 0x7F;
	if (v & 0x80) {
		if (e > 63)
			return -1;
		*units = UINT64_C(1) << e;
		return 0;
	}
	if (e > 19)
		return -1;
	*units = 1;
	while (e--)
		*units *= 10;
	return 0;
}

/* What a block brings: a frame, nothing to hand out, or an error (V2X_RD_ERROR). */
enum { BLOCK_DONE = 0, BLOCK_FRAME = 1 };

static int ng_idb(struct v2x_capreader *r, const uint8_t *body, size_t len)
{
	if (len < 8)
		return fail(r, true, "interface description block too short");
	if (r->n_ifs == NG_MAX_IFACES)
		return fail(r, true, "more than %d interfaces", NG_MAX_IFACES);
	if (r->n_ifs == r->cap_ifs) {
		size_t n = r->cap_ifs ? 2 * r->cap_ifs : 4;
		struct iface *ifs = realloc(r->ifs, n * sizeof(*ifs));
		if (!ifs)
			return fail(r, true, "out of memory");
		r->ifs = ifs;
		r->cap_ifs = n;
	}
	struct iface *i = &r->ifs[r->n_ifs++];
	i->linktype = rd16(r, body);
	i->supported = v2x_linktype_supported(i->linktype);
	i->snaplen = rd32(r, body + 4);
	i->units = 1000000;
	i->offset_s = 0;
	for (size_t o = 8; o + 4 <= len;) {
		uint16_t code = rd16(r, body + o), olen = rd16(r, body + o + 2);
		o += 4;
		if (code == 0 || olen > len - o)
			break;
		if (code == NG_OPT_TSRESOL && olen == 1 && tsresol_units(body[o], &i->units) < 0)
			return fail(r, true, "interface %zu: time resolution 0x%02x not supported",
				    r->n_ifs - 1, body[o]);
		if (code == NG_OPT_TSOFFSET && olen == 8) {
			/* a 64-bit value in the section's byte order */
			uint64_t w0 = rd32(r, body + o), w1 = rd32(r, body + o + 4);
			i->offset_s = (int64_t)(r->swap ? w0 << 32 | w1 : w1 << 32 | w0);
		}
		o += ((size_t)olen + 3) & ~(size_t)3;
	}
	if (!i->supported)
		return fail(r, false, "interface %zu: unsupported link type %d (%s); its frames "
			    "are skipped", r->n_ifs - 1, i->linktype, linktype_name(i->linktype));
	return BLOCK_DONE;
}

/* Unsigned arithmetic: a corrupt timestamp wraps instead of overflowing. */
static int64_t ng_time_ns(const struct iface *i, uint64_t ts)
{
	uint64_t sec = ts / i->units, frac = ts % i->units, ns;
	if (i->units <= 1000000000)
		ns = frac * (1000000000 / i->units) + frac * (1000000000 % i->units) / i->units;
	else
		ns = (uint64_t)((long double)frac * 1e9L / (long double)i->units);
	return (int64_t)((sec + (uint64_t)i->offset_s) * 1000000000 + ns);
}

/* An Enhanced, Simple or obsolete Packet Block (skipped on an unsupported interface). */
static int ng_packet(struct v2x_capreader *r, uint32_t type,
				    const uint8_t *body, size_t len, struct v2x_record *rec)
{
	size_t hdr = type == NG_SPB ? 4 : 20;
	if (len < hdr)
		return fail(r, true, "frame %" PRIu64 ": packet block too short", r->number + 1);
	uint32_t ifn = type == NG_EPB ? rd32(r, body) : type == NG_OPB ? rd16(r, body) : 0;
	if (ifn >= r->n_ifs)
		return fail(r, true, "frame %" PRIu64 ": interface %" PRIu32 " was not described",
			    r->number + 1, ifn);
	const struct iface *i = &r->ifs[ifn];
	uint32_t caplen, origlen;
	uint64_t ts = 0;
	if (type == NG_SPB) {
		origlen = caplen = rd32(r, body);
		if (i->snaplen && caplen > i->snaplen)
			caplen = i->snaplen;
		if (caplen > len - hdr)
			caplen = (uint32_t)(len - hdr);
	} else {
		ts = (uint64_t)rd32(r, body + 4) << 32 | rd32(r, body + 8);
		caplen = rd32(r, body + 12);
		origlen = rd32(r, body + 16);
		if (caplen > len - hdr)
			return fail(r, true, "frame %" PRIu64 ": captured length %" PRIu32
				    " larger than its block", r->number + 1, caplen);
	}
	r->number++;
	if (!i->supported)
		return BLOCK_DONE;
	rec->number = r->number;
	rec->ts_ns = type == NG_SPB ? 0 : ng_time_ns(i, ts);
	rec->linktype = i->linktype;
	rec->caplen = caplen;
	rec->origlen = origlen;
	rec->data = body + hdr;
	return BLOCK_FRAME;
}

/* Reads a Section Header Block's byte order; 0 or -1 (not a section header). */
static int ng_section(struct v2x_capreader *r, const uint8_t *blk, size_t len)
{
	if (len < 28)
		return -1;
	uint32_t bom;
	memcpy(&bom, blk + 8, 4);
	if (bom != NG_BYTE_ORDER && bom != swap32(NG_BYTE_ORDER))
		return -1;
	r->swap = bom != NG_BYTE_ORDER;
	r->n_ifs = 0;
	return rd16(r, blk + 12) == 1 ? 0 : -1;
}

static enum v2x_rd_result ng_next_rec(struct v2x_capreader *r, struct v2x_record *rec)
{
	for (;;) {
		long have = fill(r, 12);
		if (have < 0)
			return read_failed(r);
		if (have == 0)
			return V2X_RD_END;
		if (have < 12)
			return truncated(r, "block header", have, 12);
		const uint8_t *b = r->buf + r->pos;
		uint32_t type = rd32(r, b);
		if (type == NG_SHB) {
			uint32_t bom;
			memcpy(&bom, b + 8, 4);
			r->swap = bom == swap32(NG_BYTE_ORDER);
		}
		uint32_t len = rd32(r, b + 4);
		if (len < 12 || len % 4 || len > NG_MAX_BLOCK)
			return fail(r, true, "block at offset %" PRIu64 ": invalid length %" PRIu32,
				    r->offset, len);
		have = fill(r, len);
		if (have < 0)
			return read_failed(r);
		if ((size_t)have < len)
			return truncated(r, "block", have, len);
		b = r->buf + r->pos;
		if (rd32(r, b + len - 4) != len)
			return fail(r, true, "block at offset %" PRIu64 ": trailing length differs "
				    "from %" PRIu32, r->offset, len);
		const uint8_t *body = b + 8;
		size_t body_len = len - 12;
		int res = BLOCK_DONE;
		if (type == NG_SHB && ng_section(r, b, len) < 0)
			return fail(r, true, "block at offset %" PRIu64 ": unsupported section "
				    "header", r->offset);
		if (type == NG_IDB)
			res = ng_idb(r, body, body_len);
		else if (type == NG_EPB || type == NG_SPB || type == NG_OPB)
			res = ng_packet(r, type, body, body_len, rec);
		if (res == V2X_RD_ERROR && r->failed)
			return V2X_RD_ERROR;
		consume(r, len); /* the frame's octets stay in the buffer until the next fill */
		if (res != BLOCK_DONE)
			return res == BLOCK_FRAME ? V2X_RD_RECORD : V2X_RD_ERROR;
	}
}

/* ---- the reader ---- */

struct v2x_capreader *v2x_capreader_open(const char *name, size_t bufsize, char *err,
					 size_t errlen)
{
	struct v2x_capreader *r = calloc(1, sizeof(*r));
	if (!r || !(r->buf = malloc(bufsize < 4096 ? 4096 : bufsize))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	r->cap = bufsize < 4096 ? 4096 : bufsize;
	r->fd = strcmp(name, "-") == 0 ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		goto fail;
	}
	if (r->fd != STDIN_FILENO)
		posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	long have = fill(r, PCAP_FILE_HDR);
	if (have < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		goto fail;
	}
	uint32_t magic = 0;
	if (have >= 4)
		memcpy(&magic, r->buf, 4);
	if (magic == NG_SHB) {
		long shb = fill(r, 28);
		if (shb < 28 || ng_section(r, r->buf, (size_t)shb) < 0) {
			snprintf(err, errlen, shb < 28 ? "truncated pcapng section header"
				 : "pcapng section header not supported");
			goto fail;
		}
		r->ng = true;
		return r;
	}
	uint32_t smagic = swap32(magic);
	if (magic == PCAP_MAGIC_US || magic == PCAP_MAGIC_NS || magic == PCAP_MAGIC_KUZNETZOV ||
	    smagic == PCAP_MAGIC_US || smagic == PCAP_MAGIC_NS || smagic == PCAP_MAGIC_KUZNETZOV) {
		if (have < PCAP_FILE_HDR) {
			snprintf(err, errlen, "truncated pcap file header (%ld of %d octets)", have,
				 PCAP_FILE_HDR);
			goto fail;
		}
		if (pcap_header(r, r->buf, err, errlen) < 0)
			goto fail;
		consume(r, PCAP_FILE_HDR);
		if (!v2x_linktype_supported(r->linktype)) {
			snprintf(err, errlen, "unsupported link type %d (%s)", r->linktype,
				 linktype_name(r->linktype));
			goto fail;
		}
		return r;
	}
	if (have > 0 && (r->log = v2x_wydotlog_open(r->fd, r->buf + r->pos, r->end - r->pos,
						     name, err, errlen)))
		return r;
	if (have == 0)
		snprintf(err, errlen, "empty file");
fail:
	v2x_capreader_close(r);
	return NULL;
}

enum v2x_rd_result v2x_capreader_next(struct v2x_capreader *r, struct v2x_record *rec)
{
	if (r->failed)
		return V2X_RD_END;
	if (r->log)
		return v2x_wydotlog_next(r->log, rec, r->err, sizeof(r->err));
	return r->ng ? ng_next_rec(r, rec) : pcap_next_rec(r, rec);
}

const char *v2x_capreader_error(const struct v2x_capreader *r)
{
	return r->err;
}

uint64_t v2x_capreader_offset(const struct v2x_capreader *r)
{
	return r->offset;
}

void v2x_capreader_close(struct v2x_capreader *r)
{
	if (!r)
		return;
	if (r->fd > STDIN_FILENO)
		close(r->fd);
	free(r->buf);
	free(r->ifs);
	v2x_wydotlog_close(r->log);
	free(r);
}
