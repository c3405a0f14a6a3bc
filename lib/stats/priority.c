/* Priority messages (see priority.h): the one classification of emergencies. */
#include "priority.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsm.h"
#include "registry.h"

static const struct {
	const char *name, *title, *source;
} kinds[V2X_PRIO_N] = {
	[V2X_PRIO_EVA] = {"eva", "Emergency vehicle alert heard",
			     "SAE J2735 EmergencyVehicleAlert (messageId 22)"},
	[V2X_PRIO_BSM_EMERGENCY] = {"bsm_emergency",
				       "BSM of an emergency vehicle responding (lights or siren in "
				       "use, responseType emergency, peEmergencyResponse)",
				       "SAE J2735 DF_EmergencyDetails (SpecialVehicleExtensions, BSM "
				       "part II id 1)"},
	[V2X_PRIO_RSA] = {"rsa", "Road side alert heard",
			     "SAE J2735 RoadSideAlert (messageId 27)"},
	[V2X_PRIO_SRM] = {"srm", "Signal request heard (preemption or priority)",
			     "SAE J2735 SignalRequestMessage (messageId 29)"},
	[V2X_PRIO_BSM_EVENTS] = {"bsm_events", "BSM with event flags set",
				    "SAE J2735 DE_VehicleEventFlags in VehicleSafetyExtensions "
				    "(BSM part II id 0)"},
};

/* A BSM's priority: its part II (event flags, emergency details); the rest of p only
 * when it has one, as most BSMs do not. */
static bool bsm_prio(const struct v2x_frame *f, struct v2x_priority *p)
{
	struct v2x_bsm_part2 p2;
	if (!f->mf.value || v2x_bsm_part2_read(f->mf.value, f->mf.value_len, &p2) < 0)
		return false;
	unsigned got = (p2.has_events && p2.events ? 1u << V2X_PRIO_BSM_EVENTS : 0) |
		       (v2x_bsm_emergency(&p2) ? 1u << V2X_PRIO_BSM_EMERGENCY : 0);
	struct v2x_bsm_core c;
	if (!got || v2x_bsm_core_read(f->mf.value, f->mf.value_len, &c) < 0)
		return false;
	*p = (struct v2x_priority){.size = p->size, .kinds = got, .is_bsm = true, .temp_id = c.id,
				  .events = p2.events, .lat = c.lat, .lon = c.lon};
	return true;
}

bool v2x_prio_of(const struct v2x_frame *f, struct v2x_priority *p)
{
	p->kinds = 0;
	if (f->layer != V2X_LAYER_J2735 || !f->mf.has_msg_id)
		return false;
	int k = v2x_prio_msg_kind(f->mf.msg_id);
	if (k == V2X_PRIO_N)
		return bsm_prio(f, p);
	if (k < 0)
		return false;
	*p = (struct v2x_priority){.size = p->size, .kinds = 1u << k};
	return true;
}

int v2x_priority_of(const struct v2x_frame *f, struct v2x_priority *p)
{
	if (!f || !p || p->size < offsetof(struct v2x_priority, lon) + sizeof(p->lon))
		return V2X_EINVAL;
	struct v2x_priority q = {.size = sizeof(q)};
	int r = v2x_prio_of(f, &q) ? 1 : 0;
	q.size = p->size;
	memcpy(p, &q, sizeof(q) < p->size ? sizeof(q) : p->size);
	return r;
}

const char *v2x_priority_kind_name(int kind)
{
	return (unsigned)kind < V2X_PRIO_N ? kinds[kind].name : "?";
}

const char *v2x_priority_kind_title(int kind)
{
	return (unsigned)kind < V2X_PRIO_N ? kinds[kind].title : "?";
}

const char *v2x_priority_kind_source(int kind)
{
	return (unsigned)kind < V2X_PRIO_N ? kinds[kind].source : "?";
}

int v2x_priority_events_text(uint32_t events, char *buf, size_t len)
{
	if (!buf || !len)
		return V2X_EINVAL;
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < 32 && used < len; i++) {
		if (!(events & (1u << i)))
			continue;
		const char *name = v2x_bsm_event_name(i);
		char num[16];
		if (!name) {
			snprintf(num, sizeof(num), "event%u", i);
			name = num;
		}
		int n = snprintf(buf + used, len - used, "%s%s", used ? " " : "", name);
		used += n > 0 ? (size_t)n : 0;
	}
	return V2X_OK;
}

/* The entry of (k, sender), new when first heard; NULL when the list is full or (*oom)
 * memory is out. */
static struct v2x_prio_entry *entry_get(struct v2x_prio_list *l, enum v2x_prio_kind k,
					   const struct v2x_priority *p, const struct v2x_frame *f,
					   bool *oom)
{
	bool has_mac = !p->is_bsm && f->has_src;
	/* from the newest: a sender's messages come in runs */
	for (size_t i = l->n; i-- > 0;) {
		struct v2x_prio_entry *e = &l->e[i];
		if (e->kind == k && e->is_bsm == p->is_bsm &&
		    (p->is_bsm ? e->temp_id == p->temp_id
			       : e->has_mac == has_mac && (!has_mac || !memcmp(e->mac, f->src, 6))))
			return e;
	}
	if (l->n == V2X_PRIO_MAX_ENTRIES)
		return NULL;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		void *q = realloc(l->e, cap * sizeof(*l->e));
		if (!q) {
			*oom = true;
			return NULL;
		}
		l->e = q;
		l->cap = cap;
	}
	struct v2x_prio_entry *e = &l->e[l->n++];
	memset(e, 0, sizeof(*e));
	e->kind = k;
	e->is_bsm = p->is_bsm;
	e->temp_id = p->temp_id;
	e->has_mac = has_mac;
	if (has_mac)
		memcpy(e->mac, f->src, 6);
	return e;
}

/* A frame that may be a priority message into the list: out of line, so that the other
 * frames (nearly all) do not pay for its register saves (callgrind, bench/gencap: the
 * list's cost 104 -> 40 instructions a frame with v2x_prio_maybe). */
__attribute__((noinline)) static int list_add(struct v2x_prio_list *l,
					      const struct v2x_frame *f, const char *file,
					      uint64_t frame)
{
	struct v2x_priority p = {.size = sizeof(p)};
	if (!v2x_prio_of(f, &p))
		return 0;
	if (l->last_file && file != l->last_file && strcmp(file, l->last_file) != 0)
		l->files = true;
	l->last_file = file;
	for (unsigned k = 0; k < V2X_PRIO_N; k++) {
		if (!(p.kinds & (1u << k)))
			continue;
		bool oom = false;
		struct v2x_prio_entry *e = entry_get(l, (enum v2x_prio_kind)k, &p, f, &oom);
		if (oom)
			return -1;
		if (!e) {
			l->overflow++;
			continue;
		}
		e->messages++;
		e->events |= p.events;
		if (e->n_frames < V2X_PRIO_FRAMES) {
			e->frames[e->n_frames].file = file;
			e->frames[e->n_frames++].frame = frame;
		}
	}
	return 0;
}

int v2x_prio_list_add(struct v2x_prio_list *l, const struct v2x_frame *f,
			 const char *file, uint64_t frame)
{
	return v2x_prio_maybe(f) ? list_add(l, f, file, frame) : 0;
}

void v2x_prio_list_free(struct v2x_prio_list *l)
{
	free(l->e);
	memset(l, 0, sizeof(*l));
}

static int prio_cmp(const void *a, const void *b)
{
	const struct v2x_prio_entry *x = *(const struct v2x_prio_entry *const *)a;
	const struct v2x_prio_entry *y = *(const struct v2x_prio_entry *const *)b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x < y ? -1 : x > y; /* the list is in the order first heard */
}

const struct v2x_prio_entry **v2x_prio_sorted(const struct v2x_prio_list *l)
{
	const struct v2x_prio_entry **e = malloc((l->n ? l->n : 1) * sizeof(*e));
	if (!e)
		return NULL;
	for (size_t i = 0; i < l->n; i++)
		e[i] = &l->e[i];
	qsort(e, l->n, sizeof(*e), prio_cmp);
	return e;
}

const char *v2x_prio_sender(const struct v2x_prio_entry *e, char *buf, size_t len)
{
	if (e->is_bsm)
		snprintf(buf, len, "%08" PRIX32, e->temp_id);
	else if (e->has_mac)
		snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", e->mac[0], e->mac[1],
			 e->mac[2], e->mac[3], e->mac[4], e->mac[5]);
	else
		return NULL;
	return buf;
}
