/* v2xcap report: MAP and SPaT checks: each SPaT intersection and signal group is in a MAP
 * heard in the capture; MAP lane ids unique, connections lead to lanes that exist. */
#include <string.h>

#include "report.h"

static const struct rpt_requirement req_spat_x = {
	"spat.intersection", "SPaT intersection described by a MAP heard",
	"SAE J2735 SPAT IntersectionState.id refers to MapData IntersectionGeometry.id "
	"(J2735 DF_IntersectionReferenceID)"};
static const struct rpt_requirement req_spat_group = {
	"spat.signal-group", "SPaT signal group used by a lane connection of the MAP",
	"SAE J2735 MovementState.signalGroup refers to Connection.signalGroup of the same "
	"intersection's MAP (DE_SignalGroupID)"};
static const struct rpt_requirement req_lane_unique = {
	"map.lane-id", "Lane ids unique within an intersection",
	"SAE J2735 DE_LaneID: unique within the intersection"};
static const struct rpt_requirement req_connect = {
	"map.connection", "Connecting lanes exist",
	"SAE J2735 DF_ConnectingLane.lane: a lane of the same intersection unless "
	"remoteIntersection is given"};

static const struct rpt_map_seen *map_of(const struct report *r, long id)
{
	const struct rpt_map_seen *found = NULL;
	for (size_t i = 0; i < r->n_maps; i++)
		if (r->maps[i].x.id == id)
			found = &r->maps[i]; /* the latest revision heard */
	return found;
}

static const struct rpt_lane *lane_of(const struct rpt_intersection *x, long id)
{
	for (unsigned i = 0; i < x->n_lanes; i++)
		if (x->lanes[i].id == id)
			return &x->lanes[i];
	return NULL;
}

static bool uses_group(const struct rpt_intersection *x, long group)
{
	for (unsigned i = 0; i < x->n_lanes; i++)
		for (unsigned k = 0; k < x->lanes[i].n_connects; k++)
			if (x->lanes[i].signal_group[k] == group)
				return true;
	return false;
}

static int add(struct report *r, enum rpt_severity sev, const struct rpt_requirement *req,
	       long id, const struct rpt_where *at, const char *text,
	       const struct rpt_intersection *x)
{
	char who[24];
	snprintf(who, sizeof(who), "intersection %ld", id);
	struct rpt_finding *f = rpt_finding(&r->findings, sev, req, who);
	if (!f)
		return -1;
	if (!f->count)
		snprintf(f->text, sizeof(f->text), "%s", text);
	else if (!strstr(f->text, text) && strlen(f->text) + strlen(text) + 3 < sizeof(f->text))
		strcat(strcat(f->text, "; "), text);
	if (x && x->has_ref && !f->has_pos) {
		f->has_pos = true;
		f->lat = x->ref_lat;
		f->lon = x->ref_lon;
	}
	rpt_finding_at(f, at);
	return 0;
}

static int check_spat(struct report *r, const struct rpt_spat_seen *s)
{
	const struct rpt_map_seen *m = map_of(r, s->id);
	char text[64];
	if (!m)
		return add(r, RPT_ERROR, &req_spat_x, s->id, &s->at,
			   r->n_maps ? "no MAP heard for it" : "no MAP heard in the capture", NULL);
	for (unsigned g = 0; g < s->n_groups; g++) {
		if (uses_group(&m->x, s->group[g]))
			continue;
		snprintf(text, sizeof(text), "signal group %ld not in the MAP", s->group[g]);
		if (add(r, RPT_ERROR, &req_spat_group, s->id, &s->at, text, &m->x) < 0)
			return -1;
	}
	return 0;
}

static int check_map(struct report *r, const struct rpt_map_seen *m)
{
	const struct rpt_intersection *x = &m->x;
	char text[64];
	for (unsigned i = 0; i < x->n_lanes; i++) {
		const struct rpt_lane *l = &x->lanes[i];
		if (lane_of(x, l->id) != l) {
			snprintf(text, sizeof(text), "lane %ld defined twice", l->id);
			if (add(r, RPT_ERROR, &req_lane_unique, x->id, &m->at, text, x) < 0)
				return -1;
		}
		for (unsigned k = 0; k < l->n_connects; k++) {
			if (l->remote[k] || lane_of(x, l->connecting_lane[k]))
				continue;
			snprintf(text, sizeof(text), "lane %ld connects to missing lane %ld", l->id,
				 l->connecting_lane[k]);
			if (add(r, RPT_ERROR, &req_connect, x->id, &m->at, text, x) < 0)
				return -1;
		}
	}
	return 0;
}

int rpt_check_mapspat(struct report *r)
{
	for (size_t i = 0; i < r->n_maps; i++)
		if (check_map(r, &r->maps[i]) < 0)
			return -1;
	for (size_t i = 0; i < r->n_spats; i++)
		if (check_spat(r, &r->spats[i]) < 0)
			return -1;
	return 0;
}
