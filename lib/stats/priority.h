/* Priority messages, classified once for `stats` (a section of its own) and `report`
 * (findings before every other): emergency vehicle alerts, road-side alerts, BSMs of an
 * emergency vehicle responding or with event flags, signal requests. Reads only what
 * libv2x reads without a schema (the message id, BSM core and part II in lib/bsm.c). */
#ifndef V2X_STATS_PRIORITY_H
#define V2X_STATS_PRIORITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <v2x/priority.h>
#include <v2x/stats.h>

#include "bsm.h"
#include "frame.h"
#include "registry.h"

/* The kind a message is by its id alone (EVA, RSA, SRM), V2X_PRIO_N for a BSM (its
 * part II decides), -1 for none. */
static inline int v2x_prio_msg_kind(uint32_t msg_id)
{
	switch (msg_id) {
	case V2X_MSG_EVA:
		return V2X_PRIO_EVA;
	case V2X_MSG_RSA:
		return V2X_PRIO_RSA;
	case V2X_MSG_SRM:
		return V2X_PRIO_SRM;
	case V2X_MSG_BSM:
		return V2X_PRIO_N;
	default:
		return -1;
	}
}

/* False for a frame that cannot be a priority message, told cheaply (every frame asks):
 * not J2735, another message, or a BSM whose part II says nothing (v2x_bsm_part2_quiet). */
static inline bool v2x_prio_maybe(const struct v2x_frame *f)
{
	if (f->layer != V2X_LAYER_J2735 || !f->mf.has_msg_id)
		return false;
	int k = v2x_prio_msg_kind(f->mf.msg_id);
	return k >= 0 && (k != V2X_PRIO_N ||
			  (f->mf.value && !v2x_bsm_part2_quiet(f->mf.value, f->mf.value_len)));
}

/* What priority the frame's message has: false (kinds 0) for none (v2x_priority_of
 * without its argument checks; p->size is not read). */
bool v2x_prio_of(const struct v2x_frame *f, struct v2x_priority *p);
/* The priority messages of a capture, per kind and sender, in the order first heard. */
#define V2X_PRIO_MAX_ENTRIES V2X_STATS_MAX_PRIORITY
#define V2X_PRIO_FRAMES V2X_STATS_PRIORITY_FRAMES /* frame numbers kept per entry: the first ones */

struct v2x_prio_entry {
	enum v2x_prio_kind kind;
	bool is_bsm, has_mac;
	uint32_t temp_id;
	uint8_t mac[6];
	uint32_t events;            /* union of the flags seen */
	uint64_t messages;
	unsigned n_frames;
	struct {
		const char *file;
		uint64_t frame;
	} frames[V2X_PRIO_FRAMES];
};

struct v2x_prio_list {
	size_t n, cap;
	struct v2x_prio_entry *e;
	uint64_t overflow;          /* messages of entries beyond V2X_PRIO_MAX_ENTRIES */
	const char *last_file;
	bool files;                 /* more than one file: frame numbers name their file */
};

/* Classifies f and, when it has priority, counts it (file as given, frame 1-based);
 * -1 out of memory. */
int v2x_prio_list_add(struct v2x_prio_list *l, const struct v2x_frame *f,
			 const char *file, uint64_t frame);
void v2x_prio_list_free(struct v2x_prio_list *l);
/* The entries, emergency first, then in the order first heard: a malloc'd array of l->n
 * pointers into l (free() it), NULL when out of memory. */
const struct v2x_prio_entry **v2x_prio_sorted(const struct v2x_prio_list *l);
/* The sender as stats names it everywhere: a BSM's TemporaryID (8 hex digits), else the
 * MAC; NULL when the frame had neither. Written to buf. */
const char *v2x_prio_sender(const struct v2x_prio_entry *e, char *buf, size_t len);

#endif
