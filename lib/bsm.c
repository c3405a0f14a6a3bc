/* BSMcoreData in UPER (see bsm.h): the field layout, written once, drives the reader and
 * the writer. */
#include "bsm.h"

#include <string.h>

#include "cursor.h"

/* BasicSafetyMessage starts with its extension bit and the presence bits of partII and
 * regional; BSMcoreData follows with neither extension marker nor optional fields. */
enum { PREAMBLE_BITS = 3, MSGCNT_BITS = 7, ID_BITS = 32, SECMARK_BITS = 16 };

/* Every field in order: name, width in bits, bounds (UPER codes a constrained whole
 * number as its offset from the lower bound in the bits its range needs, X.691 11.5.6). */
#define BSM_CORE_FIELDS(F)                                                            \
	F(msg_cnt, MSGCNT_BITS, 0, 127) F(id, ID_BITS, 0, 0xFFFFFFFF)                     \
	F(sec_mark, SECMARK_BITS, 0, 65535) F(lat, 31, -900000000, 900000001)             \
	F(lon, 32, -1799999999, 1800000001) F(elev, 16, -4096, 61439)                     \
	F(semi_major, 8, 0, 255) F(semi_minor, 8, 0, 255) F(orientation, 16, 0, 65535)    \
	F(transmission, 3, 0, 7) F(speed, 13, 0, 8191) F(heading, 15, 0, 28800)          \
	F(angle, 8, -126, 127) F(accel_long, 12, -2000, 2001) F(accel_lat, 12, -2000, 2001) \
	F(accel_vert, 8, -127, 127) F(yaw_rate, 16, -32767, 32767)                         \
	F(wheel_brakes, 5, 0, 31) F(traction, 2, 0, 3) F(abs, 2, 0, 3) F(scs, 2, 0, 3)      \
	F(brake_boost, 2, 0, 3) F(aux_brakes, 2, 0, 3)                                      \
	F(width, 10, 0, 1023) F(length, 12, 0, 4095)

#define BITS_OF(name, bits, lb, ub) + (bits)
enum { CORE_BITS = 0 BSM_CORE_FIELDS(BITS_OF) };
#undef BITS_OF
_Static_assert(V2X_BSM_PART2_AT == PREAMBLE_BITS + CORE_BITS, "bsm.h: where part II starts");

void v2x_bsm_core_unavailable(struct v2x_bsm_core *c)
{
	*c = (struct v2x_bsm_core){
		.sec_mark = V2X_DE_DSECOND_UNAVAILABLE,
		.lat = V2X_DE_LATITUDE_UNAVAILABLE,
		.lon = V2X_DE_LONGITUDE_UNAVAILABLE,
		.elev = V2X_DE_ELEVATION_UNAVAILABLE,
		.semi_major = V2X_DE_ACCURACY_UNAVAILABLE,
		.semi_minor = V2X_DE_ACCURACY_UNAVAILABLE,
		.orientation = V2X_DE_ORIENTATION_UNAVAILABLE,
		.transmission = V2X_DE_TRANSMISSION_UNAVAILABLE,
		.speed = V2X_DE_SPEED_UNAVAILABLE,
		.heading = V2X_DE_HEADING_UNAVAILABLE,
		.angle = V2X_DE_ANGLE_UNAVAILABLE,
		.accel_long = V2X_DE_ACCELERATION_UNAVAILABLE,
		.accel_lat = V2X_DE_ACCELERATION_UNAVAILABLE,
		.accel_vert = V2X_DE_VERT_ACCEL_UNAVAILABLE,
		.yaw_rate = V2X_BSM_YAW_RATE_UNAVAILABLE,
		.wheel_brakes = V2X_BSM_WHEEL_BRAKES_UNAVAILABLE,
	};
}

int v2x_bsm_head_read(const uint8_t *value, size_t len, struct v2x_bsm_head *h)
{
	/* The preamble and the three head fields (58 bits) lie in the first 8 octets: one
	 * 64-bit load and shifts (stats reads every BSM's: 67 instructions through the
	 * cursor, 16 so, callgrind on bench/gencap). */
	enum {
		CNT_END = PREAMBLE_BITS + MSGCNT_BITS,
		ID_END = CNT_END + ID_BITS,
		SECMARK_END = ID_END + SECMARK_BITS,
	};
	_Static_assert(SECMARK_END <= 64, "the head fits in 64 bits");
	uint64_t bits = len >= 8 ? v2x_get_be64(value) : 0;
	h->msg_cnt = (uint8_t)(bits >> (64 - CNT_END) & ((1u << MSGCNT_BITS) - 1));
	h->id = (uint32_t)(bits >> (64 - ID_END));
	h->sec_mark = (uint16_t)(bits >> (64 - SECMARK_END));
	return len >= 8 ? 0 : -1;
}

int v2x_bsm_core_read(const uint8_t *value, size_t len, struct v2x_bsm_core *c)
{
	struct v2x_bits b;
	v2x_bits_init(&b, value, len);
	c->ext = v2x_bits_bit(&b);
	c->has_part2 = v2x_bits_bit(&b);
	c->has_regional = v2x_bits_bit(&b);
#define READ(name, bits, lb, ub) c->name = (int64_t)v2x_bits_get(&b, bits) + (lb);
	BSM_CORE_FIELDS(READ)
#undef READ
	return b.err ? -1 : 0;
}

/* UPER general length determinant (X.691 11.9.3.6/7: 0 + 7 bits, 10 + 14 bits); the
 * fragmented form (11) never fits in a BSM. */
static size_t uper_length(struct v2x_bits *b)
{
	if (!v2x_bits_bit(b))
		return v2x_bits_get(b, 7);
	if (v2x_bits_bit(b))
		b->err = true;
	return v2x_bits_get(b, 14);
}

enum { PART2_VEHICLE_SAFETY = 0, PART2_SPECIAL_VEHICLE = 1 };
enum { EVENT_BITS_ROOT = 13 }; /* VehicleEventFlags SIZE (13, ...) */

/* VehicleSafetyExtensions { ..., events?, pathHistory?, pathPrediction?, lights? } */
static void read_vehicle_safety(struct v2x_bits *b, struct v2x_bsm_part2 *p)
{
	/* extension bit (additions come after the root members), then the four presence
	 * bits, events first */
	if (!(v2x_bits_get(b, 5) & 0x8))
		return;
	size_t n = v2x_bits_bit(b) ? uper_length(b) : EVENT_BITS_ROOT;
	/* the first 32 flags at once (every BSM with part II asks), first flag in bit 0 */
	unsigned head = n < 32 ? (unsigned)n : 32;
	uint32_t got = v2x_bits_get(b, head), bits = 0;
	for (unsigned i = 0; i < head; i++)
		bits |= (got >> (head - 1 - i) & 1u) << i;
	if (n > head && !b->err) { /* flags beyond the 32 kept: read over */
		if (n - head > v2x_bits_left(b)) {
			b->err = true;
			b->pos = b->nbits;
		} else {
			b->pos += n - head;
		}
	}
	p->events = bits;
	p->has_events = !b->err;
}

/* SpecialVehicleExtensions { ..., vehicleAlerts EmergencyDetails?, description?,
 * trailers? }; EmergencyDetails { ..., SSPindex (5 bits), SirenInUse (2), LightbarInUse
 * (3), MultiVehicleResponse (2), events PrivilegedEvents?, responseType? } with
 * PrivilegedEvents { ..., SSPindex, PrivilegedEventFlags (SIZE (16)) } and ResponseType
 * an extensible ENUMERATED of 7 root values. */
static void read_special_vehicle(struct v2x_bits *b, struct v2x_bsm_part2 *p)
{
	v2x_bits_bit(b);
	if (!(v2x_bits_get(b, 3) & 0x4))
		return;
	v2x_bits_bit(b); /* extension bit */
	bool has_privileged = v2x_bits_bit(b), has_response = v2x_bits_bit(b);
	v2x_bits_get(b, 5); /* SSPindex */
	p->siren_use = (uint8_t)v2x_bits_get(b, 2);
	p->lights_use = (uint8_t)v2x_bits_get(b, 3);
	v2x_bits_get(b, 2); /* MultiVehicleResponse */
	p->has_alerts = !b->err;
	if (has_privileged) {
		bool additions = v2x_bits_bit(b);
		v2x_bits_get(b, 5);
		for (unsigned i = 0; i < 16; i++)
			if (v2x_bits_bit(b))
				p->privileged |= (uint16_t)(1u << i);
		p->has_privileged = !b->err;
		if (additions)
			return; /* PrivilegedEvents' additions come next: responseType unread */
	}
	if (has_response && !v2x_bits_bit(b)) { /* a root value */
		p->response = (uint8_t)v2x_bits_get(b, 3);
		p->has_response = !b->err;
	}
}

/* Every part II content in turn: kept out of line, so that the quiet case
 * (v2x_bsm_part2_quiet) does not pay for the registers this one saves (49 -> 33
 * instructions a BSM). */
__attribute__((noinline)) static int read_part2(const uint8_t *value, size_t len,
						struct v2x_bsm_part2 *p)
{
	struct v2x_bits b;
	v2x_bits_init(&b, value, len);
	/* Few reads, each of several fields (every BSM in stats asks): extension, partII
	 * and regional presence bits; */
	bool has_part2 = v2x_bits_get(&b, 3) & 0x2;
	if (!has_part2)
		return b.err ? -1 : 0;
	if (v2x_bits_left(&b) < CORE_BITS)
		return -1;
	b.pos += CORE_BITS;
	unsigned n = v2x_bits_get(&b, 3) + 1; /* SEQUENCE (SIZE(1..8)) OF PartIIcontent */
	for (unsigned i = 0; i < n && !b.err; i++) {
		/* PartII-Id (0..63), then partII-Value's length: 0 and 7 bits, or 10 and 14 */
		uint32_t w = v2x_bits_get(&b, 6 + 8);
		unsigned id = w >> 8;
		size_t octets = w & 0x7F;
		if (w & 0x80) {
			if (w & 0x40)
				b.err = true; /* fragmented: not a BSM's */
			octets = (w & 0x3F) << 8 | v2x_bits_get(&b, 8);
		}
		if (b.err || octets * 8 > v2x_bits_left(&b))
			return -1;
		struct v2x_bits inner = b; /* the value alone: a bad one cannot read past it */
		inner.nbits = b.pos + octets * 8;
		b.pos = inner.nbits;
		if (id == PART2_VEHICLE_SAFETY)
			read_vehicle_safety(&inner, p);
		else if (id == PART2_SPECIAL_VEHICLE)
			read_special_vehicle(&inner, p);
		if (inner.err)
			return -1;
	}
	return b.err ? -1 : 0;
}

int v2x_bsm_part2_read(const uint8_t *value, size_t len, struct v2x_bsm_part2 *p)
{
	memset(p, 0, sizeof(*p));
	if (v2x_bsm_part2_quiet(value, len))
		return 0;
	return read_part2(value, len, p);
}

const char *v2x_bsm_event_name(unsigned bit)
{
	/* J2735 DE_VehicleEventFlags, in bit order */
	static const char *const names[] = {
		"eventHazardLights", "eventStopLineViolation", "eventABSactivated",
		"eventTractionControlLoss", "eventStabilityControlactivated",
		"eventHazardousMaterials", "eventReserved1", "eventHardBraking",
		"eventLightsChanged", "eventWipersChanged", "eventFlatTire",
		"eventDisabledVehicle", "eventAirBagDeployment", "eventJackKnife",
	};
	return bit < sizeof(names) / sizeof(names[0]) ? names[bit] : NULL;
}

int v2x_bsm_head_write(uint8_t *value, size_t len, const struct v2x_bsm_head *h)
{
	struct v2x_bitw w;
	v2x_bitw_init(&w, value, len);
	w.pos = PREAMBLE_BITS;
	v2x_bitw_put(&w, MSGCNT_BITS, h->msg_cnt);
	v2x_bitw_put(&w, ID_BITS, h->id);
	v2x_bitw_put(&w, SECMARK_BITS, h->sec_mark);
	return w.err ? -1 : 0;
}

int v2x_bsm_frame_write(struct v2x_buf *out, const struct v2x_bsm_core *c)
{
	uint8_t value[(PREAMBLE_BITS + CORE_BITS + 7) / 8];
	struct v2x_bitw w;
	memset(value, 0, sizeof value);
	v2x_bitw_init(&w, value, sizeof value);
	v2x_bitw_put(&w, PREAMBLE_BITS, 0); /* no extension, partII or regional */
	bool range = true;
#define WRITE(name, bits, lb, ub)                                                   \
	{                                                                           \
		int64_t v = (int64_t)c->name - (lb);                                \
		range &= v >= 0 && v <= (int64_t)(ub) - (lb);                        \
		v2x_bitw_put(&w, bits, (uint32_t)v);                                  \
	}
	BSM_CORE_FIELDS(WRITE)
#undef WRITE
	if (!range || w.err)
		return -1;
	v2x_put_be16(out, V2X_BSM_MSG_ID); /* extension bit 0, then the 15-bit messageId */
	v2x_put_uper_length(out, sizeof value);
	v2x_put(out, value, sizeof value);
	return 0;
}

