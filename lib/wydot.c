/* WYDOT/JPO ODE deployment log records (see wydot.h). */
#include "wydot.h"

#include <string.h>

#include "cursor.h"

/* What each kind's header holds, in file order: [source] location|intersection, time,
 * [verification] [cert flag], length. */
struct layout {
	const char *name;
	const char *file_prefix; /* how the ODE names such logs */
	bool source, location, intersection, verification, cert;
};

static const struct layout layouts[] = {
	[V2X_WYDOT_BSM] = {"bsmLogRec", "bsm", true, true, false, true, false},
	[V2X_WYDOT_RXMSG] = {"receivedMsgRec", "rxMsg", true, true, false, true, false},
	[V2X_WYDOT_DNMSG] = {"dnMsgRec", "dnMsg", false, true, false, true, false},
	[V2X_WYDOT_DRIVER_ALERT] = {"driverAlertRec", "driverAlert", false, true, false, false,
				    false},
	[V2X_WYDOT_SPAT] = {"spatRec", "spat", true, false, true, true, true},
};
#define N_KINDS (sizeof(layouts) / sizeof(layouts[0]))

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

enum rec_status { REC_BAD, REC_SHORT, REC_OK };

/* Reads the record: REC_BAD when implausible (a millisecond field of 1000 or more, a
 * position off the globe, an empty payload), REC_SHORT when what is there is plausible
 * but the record goes on past len. */
static enum rec_status read_record(enum v2x_wydot_kind kind, const uint8_t *buf, size_t len,
				   struct v2x_wydot_rec *r)
{
	if (kind < V2X_WYDOT_BSM || kind >= N_KINDS)
		return REC_BAD;
	const struct layout *l = &layouts[kind];
	struct v2x_cursor c = {buf, buf, buf + len, false};
	const uint8_t *p;
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->has_source = l->source;
	r->has_location = l->location;
	r->has_intersection = l->intersection;
	r->has_verification = l->verification;
	if (l->source && (p = v2x_bytes(&c, 1)))
		r->source = p[0];
	if (l->location && (p = v2x_bytes(&c, 16))) {
		r->latitude = (int32_t)le32(p);
		r->longitude = (int32_t)le32(p + 4);
		r->elevation = (int32_t)le32(p + 8);
		r->speed = le16(p + 12);
		r->heading = le16(p + 14);
	}
	if (l->intersection && (p = v2x_bytes(&c, 3))) {
		r->intersection_id = (int16_t)le16(p);
		r->intersection_status = (int8_t)p[2];
	}
	if ((p = v2x_bytes(&c, 6))) {
		r->utc_s = le32(p);
		r->msec = le16(p + 4);
	}
	if (l->verification && (p = v2x_bytes(&c, 1)))
		r->verification = (int8_t)p[0];
	if (l->cert && (p = v2x_bytes(&c, 1)))
		r->cert_present = p[0] != 0;
	if ((p = v2x_bytes(&c, 2)))
		r->payload_len = le16(p);
	r->payload = v2x_bytes(&c, r->payload_len);
	/* J2735 ranges, their "unavailable" values included; fields not reached are 0 */
	if (r->msec >= 1000 ||
	    (l->location && (r->latitude < -900000000 || r->latitude > 900000001 ||
			     r->longitude < -1799999999 || r->longitude > 1800000001)))
		return REC_BAD;
	if (c.err)
		return REC_SHORT;
	return r->payload_len ? REC_OK : REC_BAD;
}

size_t v2x_wydot_record_len(enum v2x_wydot_kind kind, const uint8_t *buf, size_t len)
{
	struct v2x_wydot_rec r;
	if (read_record(kind, buf, len, &r) != REC_OK)
		return 0;
	return (size_t)(r.payload + r.payload_len - buf);
}

size_t v2x_wydot_next(const struct v2x_wydot_format *fmt, const uint8_t *buf, size_t len,
		      size_t *rec_len)
{
	size_t n = v2x_wydot_record_len(fmt->kind, buf, len);
	if (n == 0 || !fmt->newline || n == len)
		return *rec_len = n;
	if (buf[n] != '\n')
		return *rec_len = 0;
	*rec_len = n;
	return n + 1;
}

size_t v2x_wydot_whole(const struct v2x_wydot_format *fmt, const uint8_t *buf, size_t len)
{
	size_t off = 0, n, rec;
	while (off < len && (n = v2x_wydot_next(fmt, buf + off, len - off, &rec)) > 0)
		off += n;
	return off;
}

/* The records cover the file, but for a last record cut short after at least one whole. */
static bool tiles(const struct v2x_wydot_format *fmt, const uint8_t *buf, size_t len)
{
	size_t off = v2x_wydot_whole(fmt, buf, len);
	struct v2x_wydot_rec r;
	return len > 0 && (off == len || (off > 0 && read_record(fmt->kind, buf + off, len - off,
								  &r) == REC_SHORT));
}

/* A BSM log's records are BSMs sent or received (direction 0 or 1): the MessageFrame
 * header of a BSM (00 14) early in the payload, after a WSMP and a 1609.2 header at most;
 * a received-message log's records may be anything. */
static bool bsm_only(const struct v2x_wydot_format *fmt, const uint8_t *buf, size_t len)
{
	struct v2x_wydot_rec r;
	size_t n, rec;
	for (size_t off = 0; off < len && (n = v2x_wydot_next(fmt, buf + off, len - off, &rec));
	     off += n) {
		read_record(fmt->kind, buf + off, rec, &r);
		bool bsm = false;
		for (size_t i = 0; i + 1 < r.payload_len && i < 16 && !bsm; i++)
			bsm = r.payload[i] == 0x00 && r.payload[i + 1] == 0x14;
		if (r.source > 1 || !bsm)
			return false;
	}
	return true;
}

/* Each kind as the first firmware wrote it, then with a newline after each record (the
 * later firmware; the ODE skips one newline after a record). */
static bool tiles_either(enum v2x_wydot_kind kind, const uint8_t *buf, size_t len,
			 struct v2x_wydot_format *fmt)
{
	for (int nl = 0; nl < 2; nl++) {
		*fmt = (struct v2x_wydot_format){kind, nl == 1};
		if (tiles(fmt, buf, len))
			return true;
	}
	return false;
}

bool v2x_wydot_detect(const uint8_t *buf, size_t len, const char *name,
		      struct v2x_wydot_format *fmt)
{
	if (name) {
		const char *base = strrchr(name, '/');
		base = base ? base + 1 : name;
		for (size_t k = 1; k < N_KINDS; k++)
			if (strncmp(base, layouts[k].file_prefix, strlen(layouts[k].file_prefix)) == 0 &&
			    tiles_either((enum v2x_wydot_kind)k, buf, len, fmt))
				return true;
	}
	/* BSM and received-message records share one layout; the content decides. */
	if (tiles_either(V2X_WYDOT_BSM, buf, len, fmt)) {
		if (!bsm_only(fmt, buf, len))
			fmt->kind = V2X_WYDOT_RXMSG;
		return true;
	}
	for (size_t k = V2X_WYDOT_DNMSG; k < N_KINDS; k++)
		if (tiles_either((enum v2x_wydot_kind)k, buf, len, fmt))
			return true;
	return false;
}

int v2x_wydot_parse(const uint8_t *buf, size_t len, struct v2x_wydot_rec *r, const char **why)
{
	if (len < 1 || read_record((enum v2x_wydot_kind)buf[0], buf + 1, len - 1, r) != REC_OK) {
		*why = "bad WYDOT log record";
		return -1;
	}
	return 0;
}

const char *v2x_wydot_kind_name(enum v2x_wydot_kind kind)
{
	return kind >= V2X_WYDOT_BSM && kind < N_KINDS ? layouts[kind].name : "?";
}
