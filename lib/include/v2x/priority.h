/* Priority messages: what a V2X engineer looks at first in a capture. A frame's J2735
 * message is classified from what libv2x reads without a schema (the message id, a BSM's
 * core data and part II): emergency vehicle alerts, BSMs of an emergency vehicle
 * responding, road-side alerts, signal requests (preemption, priority) and BSMs with
 * event flags set. `v2xcap stats` lists them first and `report` makes them findings;
 * <v2x/stats.h> keeps the list per kind and sender.
 *
 *   struct v2x_priority p = {.size = sizeof(p)};
 *   if (v2x_priority_of(frame, &p) == 1 && p.kinds & 1u << V2X_PRIO_EVA)
 *           alert();
 */
#ifndef V2X_V2X_PRIORITY_H
#define V2X_V2X_PRIORITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <v2x/base.h>
#include <v2x/frame.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kinds, in the order they are listed: emergency first. */
enum v2x_prio_kind {
	V2X_PRIO_EVA,            /* EmergencyVehicleAlert */
	V2X_PRIO_BSM_EMERGENCY,  /* BSM: SpecialVehicleExtensions, an emergency response */
	V2X_PRIO_RSA,            /* RoadSideAlert */
	V2X_PRIO_SRM,            /* SignalRequestMessage (preemption, priority) */
	V2X_PRIO_BSM_EVENTS,     /* BSM: VehicleSafetyExtensions event flags set */
	V2X_PRIO_N
};

/* What priority a frame's message has. The caller sets size = sizeof(struct
 * v2x_priority) (members are only ever added at the end). */
struct v2x_priority {
	size_t size;
	unsigned kinds;             /* 1u << V2X_PRIO_*; 0: none */
	bool is_bsm;                /* the rest only for a BSM: */
	uint32_t temp_id;           /* TemporaryID, its 4 octets big endian */
	uint32_t events;            /* VehicleEventFlags (bit n at 1u << n) */
	int32_t lat, lon;           /* 1/10 micro degree, J2735 "unavailable" values kept */
};

/* Classifies f's message: 1 with *p filled when it has priority, 0 (p->kinds 0) when it
 * has none (no J2735, another message, a BSM whose part II says nothing), V2X_EINVAL for
 * NULL or a size too small. */
V2X_API int v2x_priority_of(const struct v2x_frame *f, struct v2x_priority *p);

/* A kind's name in every output ("eva", "bsm_emergency", "rsa", "srm", "bsm_events"),
 * what it means (the report's requirement text) and where that comes from (the J2735
 * element); "?" for a value not in enum v2x_prio_kind. Static strings. */
V2X_API const char *v2x_priority_kind_name(int kind);
V2X_API const char *v2x_priority_kind_title(int kind);
V2X_API const char *v2x_priority_kind_source(int kind);

/* The set event flags by name, space-separated ("eventHazardLights eventHardBraking"),
 * into buf (len octets, cut to fit): V2X_OK, or V2X_EINVAL for a NULL buf or len 0. */
V2X_API int v2x_priority_events_text(uint32_t events, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
