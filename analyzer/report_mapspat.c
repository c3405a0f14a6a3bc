/* v2xcap report: MAP, SPaT and TIM checks: each SPaT intersection and signal group is in
 * a MAP heard in the capture, its end times ahead of its time, its phases in their
 * sequence; MAP lane ids unique,
 * connections lead to lanes that exist, revisions; a TIM in force when heard. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

#define NODE_SAME_M 0.01 /* NodeOffsetPointXY's resolution, 1 cm */
static const struct rpt_requirement req_node = {
	"map.node-offset", "Lane nodes each at a place of their own",
	"SAE J2735 DF_NodeListXY: each node an offset from the one before (the first from the "
	"reference point) that traces the lane; a node where the one before it is (an offset "
	"of 0, a segment of 0 m) traces nothing: redundant, or a node lost when the MAP was "
	"drawn"};

static const struct rpt_requirement req_spat_timing = {
	"spat.timing", "SPaT end times ahead of the message time, maxEndTime not before minEndTime",
	"SAE J2735 DF_TimeChangeDetails (minEndTime, maxEndTime) and DE_TimeMark: tenths of a "
	"second in the current or next hour, 36000 a leap second, 36001 unknown"};
static const struct rpt_requirement req_map_revision = {
	"map.revision", "MAP revision changes during the capture",
	"SAE J2735 IntersectionGeometry.revision (DE_MsgCount): changes whenever the "
	"intersection's geometry changes"};
static const struct rpt_requirement req_map_same_revision = {
	"map.revision-content", "MAP content changed without a new revision",
	"SAE J2735 IntersectionGeometry.revision (DE_MsgCount): changes whenever the "
	"intersection's geometry changes"};
static const struct rpt_requirement req_tim_window = {
	"tim.window", "TIM in force when heard (startYear/startTime + durationTime)",
	"SAE J2735 TravelerDataFrame startYear (DE_DYear), startTime (DE_MinuteOfTheYear), "
	"durationTime (DE_MinutesDuration, 32000 = indefinite)"};

static const struct rpt_requirement req_spat_phase = {
	"spat.phase-sequence", "Signal phases move through their clearance (yellow)",
	"SAE J2735 DE_MovementPhaseState (reds: stop-Then-Proceed, stop-And-Remain; greens: "
	"pre-Movement, permissive- and protected-Movement-Allowed; yellows: permissive- and "
	"protected-clearance) and MUTCD 11th edition Section 4F.01 (FHWA): a steady yellow "
	"follows a green, is not shown between red and green, and is followed by red. "
	"Checked between a group's states heard less than 3 s apart, the shortest yellow "
	"change interval (e.g. Maryland COMAR 11.04.14.03)"};

/* MovementPhaseState as the check sees it */
enum phase_kind { PHASE_OTHER, PHASE_RED, PHASE_GREEN, PHASE_CLEARANCE };
/* A group's previous state older than this may have hidden a whole yellow */
#define PHASE_GAP_US INT64_C(3000000)

static enum phase_kind phase_kind(const char *event)
{
	if (strcmp(event, "stop-And-Remain") == 0)
		return PHASE_RED;
	if (strcmp(event, "permissive-Movement-Allowed") == 0 ||
	    strcmp(event, "protected-Movement-Allowed") == 0)
		return PHASE_GREEN;
	if (strcmp(event, "permissive-clearance") == 0 || strcmp(event, "protected-clearance") == 0)
		return PHASE_CLEARANCE;
	return PHASE_OTHER; /* unavailable, dark, flashing, pre-Movement: no sequence */
}

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

enum {
	HOUR_TENTHS = 36000, /* TimeMark's hour: 36000 and up are a leap second, unknown */
	DSECOND_MAX = V2X_DE_DSECOND_LEAP_SECOND - 1,
	LATE_TENTHS = 1, /* the message time is read to the ms, TimeMark to 1/10 s */
};

/* a - b for two TimeMarks, across the hour: in [-18000, 18000) tenths */
static long tenths_diff(long a, long b)
{
	long d = ((a - b) % HOUR_TENTHS + HOUR_TENTHS) % HOUR_TENTHS;
	return d >= HOUR_TENTHS / 2 ? d - HOUR_TENTHS : d;
}

/* The SPaT's time as a TimeMark: its own moy and timeStamp; the timeStamp alone in the
 * capture time's minute nearest to it; else the capture time. */
static long spat_time_tenths(const struct rpt_spat_state *x, int64_t ts_us)
{
	enum { MIN_MS = 60000, HOUR_MS = 3600000 };
	int64_t cap = ((ts_us / 1000) % HOUR_MS + HOUR_MS) % HOUR_MS; /* ms in the hour */
	if (x->timestamp_ms < 0 || x->timestamp_ms > DSECOND_MAX)
		return (long)(cap / 100);
	if (x->moy >= 0 && x->moy < V2X_DE_MINUTE_OF_YEAR_INVALID)
		return (x->moy % 60) * 600 + x->timestamp_ms / 100;
	int64_t t = cap / MIN_MS * MIN_MS + x->timestamp_ms;
	if (t - cap > MIN_MS / 2)
		t -= MIN_MS;
	else if (cap - t > MIN_MS / 2)
		t += MIN_MS;
	return (long)((t + HOUR_MS) % HOUR_MS / 100);
}

static struct rpt_phase_seen *phase_of(struct report *r, long id, long group)
{
	for (size_t i = 0; i < r->n_phases; i++)
		if (r->phases[i].id == id && r->phases[i].group == group)
			return &r->phases[i];
	struct rpt_phase_seen *p = rpt_grow(&r->phases, &r->n_phases, &r->cap_phases,
					    sizeof(*p));
	if (p) {
		p->id = id;
		p->group = group;
	}
	return p;
}

int rpt_spat_phases(struct report *r, const struct rpt_where *at,
		    const struct rpt_spat_state *x)
{
	for (unsigned g = 0; g < x->n_groups; g++) {
		if (!x->event[g][0])
			continue;
		struct rpt_phase_seen *p = phase_of(r, x->id, x->group[g]);
		if (!p)
			return -1;
		enum phase_kind from = p->event[0] ? phase_kind(p->event) : PHASE_OTHER;
		enum phase_kind to = phase_kind(x->event[g]);
		bool recent = at->ts_us - p->at.ts_us < PHASE_GAP_US && at->ts_us >= p->at.ts_us;
		if (recent && ((from == PHASE_GREEN && to == PHASE_RED) ||
			       (from == PHASE_RED && to == PHASE_CLEARANCE))) {
			char text[96];
			snprintf(text, sizeof(text), "group %ld %s -> %s", x->group[g], p->event,
				 x->event[g]);
			if (add(r, RPT_ERROR, &req_spat_phase, x->id, at, text, NULL) < 0)
				return -1;
		}
		memcpy(p->event, x->event[g], sizeof(p->event));
		p->at = *at;
	}
	return 0;
}

int rpt_spat_timing(struct report *r, const struct rpt_where *at,
		    const struct rpt_spat_state *x)
{
	long now = spat_time_tenths(x, at->ts_us);
	char text[160] = "";
	size_t used = 0;
	for (unsigned g = 0; g < x->n_groups && used < sizeof(text); g++) {
		long lo = x->min_end[g], hi = x->max_end[g];
		bool has_lo = lo >= 0 && lo < V2X_DE_TIMEMARK_LEAP_SECOND,
		     has_hi = hi >= 0 && hi < V2X_DE_TIMEMARK_LEAP_SECOND;
		const char *what = NULL;
		long late = 0;
		if (has_lo && (late = -tenths_diff(lo, now)) > LATE_TENTHS)
			what = "minEndTime";
		else if (has_hi && (late = -tenths_diff(hi, now)) > LATE_TENTHS)
			what = "maxEndTime";
		else if (has_lo && has_hi && tenths_diff(hi, lo) < 0)
			what = "maxEndTime before minEndTime";
		if (!what)
			continue;
		int n = late > LATE_TENTHS
				? snprintf(text + used, sizeof(text) - used, "%sgroup %ld %s %.1f s behind",
					   used ? ", " : "", x->group[g], what, late / 10.0)
				: snprintf(text + used, sizeof(text) - used, "%sgroup %ld %s",
					   used ? ", " : "", x->group[g], what);
		used += n > 0 ? (size_t)n : 0;
	}
	if (!text[0])
		return 0;
	/* one occurrence per message, the first message's groups as the text */
	char who[24];
	snprintf(who, sizeof(who), "intersection %ld", x->id);
	return rpt_note(&r->findings, RPT_ERROR, &req_spat_timing, who, at, text);
}

static bool same_lane(const struct rpt_lane *a, const struct rpt_lane *b)
{
	if (a->id != b->id || a->n_nodes != b->n_nodes || a->n_connects != b->n_connects)
		return false;
	for (unsigned i = 0; i < a->n_nodes; i++)
		if (a->lat[i] != b->lat[i] || a->lon[i] != b->lon[i])
			return false;
	for (unsigned i = 0; i < a->n_connects; i++)
		if (a->connecting_lane[i] != b->connecting_lane[i] ||
		    a->signal_group[i] != b->signal_group[i] || a->remote[i] != b->remote[i])
			return false;
	return true;
}

int rpt_map_repeat(struct report *r, const struct rpt_where *at,
		   const struct rpt_intersection *kept, const struct rpt_intersection *x)
{
	bool same = kept->n_lanes == x->n_lanes && kept->has_ref == x->has_ref &&
		    kept->ref_lat == x->ref_lat && kept->ref_lon == x->ref_lon;
	for (unsigned i = 0; same && i < x->n_lanes; i++)
		same = same_lane(&kept->lanes[i], &x->lanes[i]);
	if (same)
		return 0;
	char text[64];
	snprintf(text, sizeof(text), "revision %ld: lanes differ from the first heard",
		 x->revision);
	return add(r, RPT_ERROR, &req_map_same_revision, x->id, at, text, x);
}

int rpt_map_revision(struct report *r, const struct rpt_where *at,
		     const struct rpt_intersection *kept, const struct rpt_intersection *x)
{
	char text[64];
	snprintf(text, sizeof(text), "revision %ld -> %ld", kept->revision, x->revision);
	return add(r, RPT_INFO, &req_map_revision, x->id, at, text, x);
}

/* Days from 1970-01-01 to January 1st of year y (proleptic Gregorian). */
static int64_t days_to_year(int64_t y)
{
	int64_t p = y - 1;
	return 365 * (y - 1970) + (p / 4 - p / 100 + p / 400) - (1969 / 4 - 1969 / 100 + 1969 / 400);
}

int rpt_tim_window(struct report *r, const struct rpt_where *at, const char *sender,
		   const struct rpt_tim *t)
{
	int64_t now_s = at->ts_us / 1000000;
	time_t tt = (time_t)now_s;
	struct tm tm;
	if (!gmtime_r(&tt, &tm))
		return 0;
	for (unsigned i = 0; i < t->n; i++) {
		long year = t->f[i].start_year > 0 ? t->f[i].start_year : tm.tm_year + 1900;
		long moy = t->f[i].start_time, dur = t->f[i].duration_min;
		if (moy < 0 || moy >= V2X_DE_MINUTE_OF_YEAR_INVALID || dur < 0)
			continue;
		int64_t start = days_to_year(year) * 86400 + (int64_t)moy * 60;
		int64_t end = start + (int64_t)dur * 60;
		char text[120];
		if (now_s < start)
			snprintf(text, sizeof(text), "frame %u starts %.1f h after it was heard",
				 i + 1, (double)(start - now_s) / 3600.0);
		else if (dur != V2X_DE_MINUTES_DURATION_INDEFINITE && now_s >= end)
			snprintf(text, sizeof(text), "frame %u expired %.1f h before it was heard",
				 i + 1, (double)(now_s - end) / 3600.0);
		else
			continue;
		/* one occurrence per message */
		return rpt_note(&r->findings, RPT_WARNING, &req_tim_window, sender, at, text);
	}
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
	char text[64], nodes[sizeof(((struct rpt_finding *)0)->text)] = "";
	for (unsigned i = 0; i < x->n_lanes; i++) {
		const struct rpt_lane *l = &x->lanes[i];
		if (lane_of(x, l->id) != l) {
			snprintf(text, sizeof(text), "lane %ld defined twice", l->id);
			if (add(r, RPT_ERROR, &req_lane_unique, x->id, &m->at, text, x) < 0)
				return -1;
		}
		for (unsigned j = 1; j < l->n_nodes; j++)
			if (rpt_distance_m(l->lat[j - 1], l->lon[j - 1], l->lat[j], l->lon[j]) <
			    NODE_SAME_M) {
				size_t used = strlen(nodes);
				snprintf(nodes + used, sizeof(nodes) - used, "%slane %ld node %u "
					 "where node %u is", used ? "; " : "", l->id, j + 1, j);
				break; /* a lane named once */
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
	/* one occurrence a MAP message, naming its lanes */
	if (nodes[0] && add(r, RPT_INFO, &req_node, x->id, &m->at, nodes, x) < 0)
		return -1;
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
