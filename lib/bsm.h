/* SAE J2735 BasicSafetyMessage core data (BSMcoreData, UPER), read and written without
 * the SAE schema: its 25 fields have fixed widths. Values are in J2735's own units; the
 * "unavailable" value of each field is named here, once. */
#ifndef V2X_BSM_H
#define V2X_BSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"
#include "j2735_de.h"
#include "registry.h"
#include "writer.h"

#define V2X_BSM_MSG_ID V2X_MSG_BSM /* MessageFrame messageId (DSRCmsgID) of a BSM */

/* BSM fields' own "unavailable" values; those of J2735 data elements: j2735_de.h */
enum {
	V2X_BSM_YAW_RATE_UNAVAILABLE = 0,       /* YawRate has none: 0 is what is sent */
	V2X_BSM_WHEEL_BRAKES_UNAVAILABLE = 0x10, /* BrakeAppliedStatus bit 0 (first of 5) */
	V2X_BSM_BRAKE_STATUS_UNAVAILABLE = 0,   /* traction, abs, scs, brakeBoost, auxBrakes */
	V2X_BSM_SIZE_UNAVAILABLE = 0,           /* VehicleWidth, VehicleLength */
};

/* The first three fields, which `v2xcap stats` reads from every BSM. */
struct v2x_bsm_head {
	uint8_t msg_cnt;        /* 0..127 */
	uint32_t id;            /* TemporaryID, its 4 octets big-endian */
	uint16_t sec_mark;      /* ms within the minute */
};

struct v2x_bsm_core {
	bool ext, has_part2, has_regional; /* BasicSafetyMessage preamble bits (read only) */
	uint8_t msg_cnt;
	uint32_t id;
	uint16_t sec_mark;
	int32_t lat, lon;       /* 1/10 micro degree */
	int32_t elev;           /* 0.1 m */
	uint8_t semi_major, semi_minor; /* 0.05 m */
	uint16_t orientation;   /* 360/65535 degree */
	uint8_t transmission;   /* TransmissionState */
	uint16_t speed;         /* 0.02 m/s */
	uint16_t heading;       /* 0.0125 degree */
	int16_t angle;          /* 1.5 degree */
	int16_t accel_long, accel_lat; /* 0.01 m/s^2 */
	int16_t accel_vert;     /* 0.02 G */
	int16_t yaw_rate;       /* 0.01 degree/s */
	uint8_t wheel_brakes;   /* BrakeAppliedStatus, 5 bits, bit 0 (unavailable) first */
	uint8_t traction, abs, scs, brake_boost, aux_brakes;
	uint16_t width, length; /* cm */
};

/* A core whose every field is "unavailable" (msgCnt, id 0). */
void v2x_bsm_core_unavailable(struct v2x_bsm_core *c);

/* From the BasicSafetyMessage value (a MessageFrame's value): 0, or -1 when too short. */
int v2x_bsm_head_read(const uint8_t *value, size_t len, struct v2x_bsm_head *h);
/* A BSM's age when heard: the capture time (microseconds since the epoch) minus secMark,
 * both modulo one minute, as the nearest signed value in ms. false when secMark holds no
 * millisecond (60000..60999 a leap second, 65535 unavailable). */
/* inline: stats asks for every BSM */
static inline bool v2x_bsm_age_ms(int64_t ts_us, uint16_t sec_mark, int32_t *age_ms)
{
	enum { MINUTE_MS = 60000 };
	if (sec_mark >= MINUTE_MS)
		return false;
	int64_t cap_ms = (ts_us / 1000) % MINUTE_MS;
	if (cap_ms < 0)
		cap_ms += MINUTE_MS;
	int64_t age = (cap_ms - sec_mark + MINUTE_MS) % MINUTE_MS;
	*age_ms = (int32_t)(age > MINUTE_MS / 2 ? age - MINUTE_MS : age);
	return true;
}
int v2x_bsm_core_read(const uint8_t *value, size_t len, struct v2x_bsm_core *c);

/* BSM part II as far as priority needs it, read without the schema (the members before
 * these have fixed layouts): VehicleSafetyExtensions' event flags (partII-Id 0) and
 * SpecialVehicleExtensions' vehicleAlerts (partII-Id 1, an emergency vehicle's state). */
enum {
	V2X_BSM_IN_USE = 2,             /* SirenInUse and LightbarInUse "inUse" */
	V2X_BSM_RESPONSE_EMERGENCY = 1, /* ResponseType "emergency" */
	V2X_BSM_PE_EMERGENCY_RESPONSE = 1u << 1, /* PrivilegedEventFlags peEmergencyResponse */
};

struct v2x_bsm_part2 {
	bool has_events;
	uint32_t events;        /* VehicleEventFlags: ASN.1 bit n (eventHazardLights 0) at 1u << n */
	bool has_alerts;        /* EmergencyDetails: */
	uint8_t siren_use, lights_use; /* SirenInUse, LightbarInUse (0 unavailable) */
	bool has_privileged, has_response;
	uint16_t privileged;    /* PrivilegedEventFlags, ASN.1 bit n at 1u << n */
	uint8_t response;       /* ResponseType (root values) */
};

/* Where part II starts in a BasicSafetyMessage value: after the preamble and BSMcoreData,
 * whose members all have fixed widths (bsm.c checks it against its field layout). */
enum { V2X_BSM_PART2_AT = 293 };

/* True for the part II almost every BSM has, which says nothing v2x_bsm_part2 keeps: one
 * VehicleSafetyExtensions (partII-Id 0) without event flags, its value inside the buffer
 * (or no part II at all). Told from one 64-bit window: the part II count, id, length and
 * the extensions' preamble fit in 37 bits from any bit of its first octet (inline: every
 * BSM asks; callgrind on bench/gencap, v2x_bsm_part2_read 184 -> 33 instructions a BSM
 * and callers skip even that). False: read it with v2x_bsm_part2_read. */
static inline bool v2x_bsm_part2_quiet(const uint8_t *value, size_t len)
{
	enum { AT = V2X_BSM_PART2_AT };
	if (len == 0 || !(value[0] & 0x40)) /* the partII presence bit */
		return len > 0;
	if (len < AT / 8 + 8)
		return false;
	uint64_t w = v2x_get_be64(value + AT / 8) << (AT % 8);
	if (w >> (64 - 3 - 6)) /* SEQUENCE OF count - 1 and PartII-Id: both 0 */
		return false;
	w <<= 3 + 6;
	size_t octets, at_value;
	if (!(w >> 63)) { /* the length in 7 bits, or 14 after 10 */
		octets = w >> 56;
		at_value = AT + 3 + 6 + 8;
		w <<= 8;
	} else if (!(w >> 62 & 1)) {
		octets = w >> 48 & 0x3FFF;
		at_value = AT + 3 + 6 + 16;
		w <<= 16;
	} else {
		return false;
	}
	/* VehicleSafetyExtensions' extension bit, then the presence of events */
	return octets > 0 && !(w >> 62 & 1) && at_value + octets * 8 <= len * 8;
}

/* From the BasicSafetyMessage value: 0 (all false without part II), or -1 when short or
 * malformed. Part II contents of other ids are skipped by their length. */
int v2x_bsm_part2_read(const uint8_t *value, size_t len, struct v2x_bsm_part2 *p);
/* The J2735 name of VehicleEventFlags bit n; NULL past the named ones. */
const char *v2x_bsm_event_name(unsigned bit);
/* An emergency vehicle responding (DF_EmergencyDetails): lights or siren in use, an
 * emergency responseType or the peEmergencyResponse event. */
static inline bool v2x_bsm_emergency(const struct v2x_bsm_part2 *p)
{
	return p->has_alerts &&
	       (p->siren_use == V2X_BSM_IN_USE || p->lights_use == V2X_BSM_IN_USE ||
		(p->has_response && p->response == V2X_BSM_RESPONSE_EMERGENCY) ||
		(p->has_privileged && p->privileged & V2X_BSM_PE_EMERGENCY_RESPONSE));
}

/* Rewrites msgCnt, id and secMark of a BasicSafetyMessage value in place; -1 when short. */
int v2x_bsm_head_write(uint8_t *value, size_t len, const struct v2x_bsm_head *h);
/* Appends a MessageFrame holding a BasicSafetyMessage of that core data (no part II, no
 * regional extension); -1 when a value is outside its range. */
int v2x_bsm_frame_write(struct v2x_buf *out, const struct v2x_bsm_core *c);

#endif
