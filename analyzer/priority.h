/* Priority messages, classified once for `stats` (a section of its own) and `report`
 * (findings before every other): emergency vehicle alerts, road-side alerts, BSMs of an
 * emergency vehicle responding or with event flags, signal requests. Reads only what
 * libv2x reads without a schema (the message id, BSM core and part II in lib/bsm.c). */
#ifndef V2XCAP_PRIORITY_H
#define V2XCAP_PRIORITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bsm.h"
#include "frame.h"
#include "registry.h"

/* In the order they are listed: emergency first. */
enum v2xcap_prio_kind {
	V2XCAP_PRIO_EVA,            /* EmergencyVehicleAlert */
	V2XCAP_PRIO_BSM_EMERGENCY,  /* BSM: SpecialVehicleExtensions, an emergency response */
	V2XCAP_PRIO_RSA,            /* RoadSideAlert */
	V2XCAP_PRIO_SRM,            /* SignalRequestMessage (preemption, priority) */
	V2XCAP_PRIO_BSM_EVENTS,     /* BSM: VehicleSafetyExtensions event flags set */
	V2XCAP_PRIO_N
};

struct v2xcap_prio {
	unsigned kinds;             /* 1u << V2XCAP_PRIO_* */
	bool is_bsm;
	uint32_t temp_id;           /* BSM: TemporaryID */
	uint32_t events;            /* BSM: VehicleEventFlags (bit n at 1u << n) */
	int32_t lat, lon;           /* BSM: 1/10 micro degree, J2735 "unavailable" values kept */
};

/* The kind a message is by its id alone (EVA, RSA, SRM), V2XCAP_PRIO_N for a BSM (its
 * part II decides), -1 for none. */
static inline int v2xcap_prio_msg_kind(uint32_t msg_id)
{
	switch (msg_id) {
	case V2X_MSG_EVA:
		return V2XCAP_PRIO_EVA;
	case V2X_MSG_RSA:
		return V2XCAP_PRIO_RSA;
	case V2X_MSG_SRM:
		return V2XCAP_PRIO_SRM;
	case V2X_MSG_BSM:
		return V2XCAP_PRIO_N;
	default:
		return -1;
	}
}

/* False for a frame that cannot be a priority message, told cheaply (every frame asks):
 * not J2735, another message, or a BSM whose part II says nothing (v2x_bsm_part2_quiet). */
static inline bool v2xcap_prio_maybe(const struct v2x_frame *f)
{
	if (f->layer != V2X_LAYER_J2735 || !f->mf.has_msg_id)
		return false;
	int k = v2xcap_prio_msg_kind(f->mf.msg_id);
	return k >= 0 && (k != V2XCAP_PRIO_N ||
			  (f->mf.value && !v2x_bsm_part2_quiet(f->mf.value, f->mf.value_len)));
}

/* What priority the frame's message has: false (kinds 0) for none. */
bool v2xcap_prio_of(const struct v2x_frame *f, struct v2xcap_prio *p);
/* snake_case, for every output: "eva", "bsm_emergency", "rsa", "srm", "bsm_events" */
const char *v2xcap_prio_kind_name(enum v2xcap_prio_kind k);
/* What a kind means, and where that comes from (the report's requirement text). */
const char *v2xcap_prio_kind_title(enum v2xcap_prio_kind k);
const char *v2xcap_prio_kind_source(enum v2xcap_prio_kind k);
/* The set flags by name, space-separated ("eventHazardLights eventHardBraking"). */
void v2xcap_prio_events_text(uint32_t events, char *buf, size_t len);

/* The priority messages of a capture, per kind and sender, in the order first heard. */
#define V2XCAP_PRIO_MAX_ENTRIES 1024
#define V2XCAP_PRIO_FRAMES 10  /* frame numbers kept per entry: the first ones */

struct v2xcap_prio_entry {
	enum v2xcap_prio_kind kind;
	bool is_bsm, has_mac;
	uint32_t temp_id;
	uint8_t mac[6];
	uint32_t events;            /* union of the flags seen */
	uint64_t messages;
	unsigned n_frames;
	struct {
		const char *file;
		uint64_t frame;
	} frames[V2XCAP_PRIO_FRAMES];
};

struct v2xcap_prio_list {
	size_t n, cap;
	struct v2xcap_prio_entry *e;
	uint64_t overflow;          /* messages of entries beyond V2XCAP_PRIO_MAX_ENTRIES */
	const char *last_file;
	bool files;                 /* more than one file: frame numbers name their file */
};

/* Classifies f and, when it has priority, counts it (file as given, frame 1-based);
 * -1 out of memory. */
int v2xcap_prio_list_add(struct v2xcap_prio_list *l, const struct v2x_frame *f,
			 const char *file, uint64_t frame);
void v2xcap_prio_list_free(struct v2xcap_prio_list *l);

#endif
