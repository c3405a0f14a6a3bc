/* v2xcap report: the one place that reads decoded J2735 fields (BSM, MAP, SPaT) out of
 * j2735dec's walk, by their ASN.1 member paths, into the structures the checks use. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "j2735dec.h"
#include "report.h"

#define EARTH_RADIUS_M 6371000.0
#define RAD (3.14159265358979323846 / 180.0)
#define PATH_MAX_LEN 512
#define PATH_MAX_DEPTH 64

/* The walk as paths from the message's members: "coreData/msgCnt"; an array's elements
 * are "[]" ("intersections/[]/laneSet/[]/laneID"). */
struct walker {
	char path[PATH_MAX_LEN];
	size_t len;               /* of path */
	size_t len_at[PATH_MAX_DEPTH];
	bool is_array[PATH_MAX_DEPTH];
	int depth;
	const char *pending;      /* the key announced for the next value */
	/* the reader's handlers: a container opened, a scalar (one of the values set) */
	void (*open)(void *ctx, const char *path, size_t plen, bool array);
	void (*value)(void *ctx, const char *path, size_t plen, long long i, const char *text,
		      size_t tlen, const uint8_t *oct, size_t olen, int boolean);
	void *ctx;
	size_t full_len;          /* path length before the scalar's key was appended */
};

static void path_push(struct walker *w)
{
	const char *name = w->pending ? w->pending : "[]";
	size_t len = w->len, add = strlen(name);
	if (len + add + 2 < sizeof(w->path)) {
		if (len)
			w->path[len++] = '/';
		memcpy(w->path + len, name, add + 1);
		w->len = len + add;
	}
	w->pending = NULL;
}

static void w_key(void *c, const char *name) { ((struct walker *)c)->pending = name; }

static void w_open(void *c, bool array)
{
	struct walker *w = c;
	if (w->depth >= PATH_MAX_DEPTH) {
		w->depth++;
		return;
	}
	w->len_at[w->depth] = w->len;
	w->is_array[w->depth] = array;
	w->depth++;
	if (w->depth > 1) /* the root object has no name */
		path_push(w);
	w->open(w->ctx, w->path, w->len, array);
}

static void w_close(void *c, bool array)
{
	struct walker *w = c;
	(void)array;
	if (--w->depth < PATH_MAX_DEPTH) {
		w->len = w->len_at[w->depth];
		w->path[w->len] = '\0';
	}
	w->pending = NULL;
}

static void w_scalar(struct walker *w, long long i, const char *text, size_t tlen,
		     const uint8_t *oct, size_t olen, int boolean)
{
	size_t len = w->len;
	path_push(w);
	w->value(w->ctx, w->path, w->len, i, text, tlen, oct, olen, boolean);
	w->len = len;
	w->path[len] = '\0';
}

static void w_integer(void *c, long long v) { w_scalar(c, v, NULL, 0, NULL, 0, -1); }
static void w_text(void *c, const char *s, size_t n) { w_scalar(c, 0, s, n, NULL, 0, -1); }
static void w_octets(void *c, const uint8_t *p, size_t n) { w_scalar(c, 0, NULL, 0, p, n, -1); }
static void w_boolean(void *c, bool v) { w_scalar(c, 0, NULL, 0, NULL, 0, v); }
static void w_null(void *c) { w_scalar(c, 0, NULL, 0, NULL, 0, -1); }

static const struct v2x_visitor walk_visitor = {
	sizeof(struct v2x_visitor), w_key, w_open, w_close, w_integer, w_text, w_octets, w_boolean, w_null, NULL, NULL,
};

/* path (plen octets) ends with the member path suffix (m octets) */
static inline bool ends_with_n(const char *s, size_t n, const char *suffix, size_t m)
{
	return n >= m && memcmp(s + n - m, suffix, m) == 0 && (n == m || s[n - m - 1] == '/');
}
#define ends_with(path, suffix) ends_with_n(path, plen, suffix, sizeof(suffix) - 1)

/* Decodes and walks; 0 when the message decoded as expect_id. */
static int walk(const uint8_t *p, size_t len, unsigned expect_id, struct walker *w)
{
	struct j2735dec_msg msg;
	int rc = -1;
	if (j2735dec_decode(p, len, &msg) == J2735DEC_OK && msg.msg_id == expect_id) {
		j2735dec_walk(&msg, &walk_visitor, w);
		rc = 0;
	}
	j2735dec_free(&msg);
	return rc;
}

double rpt_distance_m(double lat1, double lon1, double lat2, double lon2)
{
	double rad = RAD;
	double x = (lon2 - lon1) * rad * cos((lat1 + lat2) / 2 * rad);
	double y = (lat2 - lat1) * rad;
	return sqrt(x * x + y * y) * EARTH_RADIUS_M;
}

/* ---- BSM ---- */

struct bsm_reader {
	struct rpt_bsm *b;
	long crumb_lat, crumb_lon;   /* offsets of the crumb being read */
	double prev_lat, prev_lon;   /* the previous point of the path (degrees) */
	bool crumb_ok;
};

static void bsm_open(void *c, const char *path, size_t plen, bool array)
{
	struct bsm_reader *r = c;
	(void)array;
	if (ends_with(path, "pathHistory"))
		r->b->has_path_history = true;
	else if (ends_with(path, "pathPrediction"))
		r->b->has_path_prediction = true;
}

static void bsm_crumb(struct bsm_reader *r)
{
	struct rpt_bsm *b = r->b;
	if (b->ph_points == 0) {
		r->prev_lat = b->lat / 1e7;
		r->prev_lon = b->lon / 1e7;
	}
	unsigned i = b->ph_points++;
	if (i >= V2X_DE_PATH_HISTORY_MAX_POINTS) /* beyond PathHistoryPointList's SIZE: not decoded */
		return;
	b->ph[i].dlat = (int32_t)r->crumb_lat;
	b->ph[i].dlon = (int32_t)r->crumb_lon;
	if (!r->crumb_ok || b->lat == V2X_DE_LATITUDE_UNAVAILABLE || b->lon == V2X_DE_LONGITUDE_UNAVAILABLE)
		return;
	int32_t plat, plon;
	rpt_ph_point(b, i, &plat, &plon);
	double lat = plat / 1e7, lon = plon / 1e7;
	b->ph_distance_m += rpt_distance_m(r->prev_lat, r->prev_lon, lat, lon);
	r->prev_lat = lat;
	r->prev_lon = lon;
}

static void bsm_value(void *c, const char *path, size_t plen, long long i, const char *text,
		      size_t tlen, const uint8_t *oct, size_t olen, int boolean)
{
	struct bsm_reader *r = c;
	struct rpt_bsm *b = r->b;
	(void)text, (void)tlen;
	if (strncmp(path, "coreData/", 9) == 0) {
		if (ends_with(path, "coreData/msgCnt"))
			b->msg_cnt = (uint8_t)i;
		else if (ends_with(path, "coreData/id") && oct && olen == 4)
			b->id = (uint32_t)oct[0] << 24 | (uint32_t)oct[1] << 16 |
				(uint32_t)oct[2] << 8 | oct[3];
		else if (ends_with(path, "coreData/secMark"))
			b->sec_mark = (uint16_t)i;
		else if (ends_with(path, "coreData/lat"))
			b->lat = (int32_t)i;
		else if (ends_with(path, "coreData/long"))
			b->lon = (int32_t)i;
		else if (ends_with(path, "coreData/elev"))
			b->elev = (int32_t)i;
		else if (ends_with(path, "accuracy/semiMajor"))
			b->semi_major = (uint16_t)i;
		else if (ends_with(path, "accuracy/semiMinor"))
			b->semi_minor = (uint16_t)i;
		else if (ends_with(path, "brakes/wheelBrakes/unavailable"))
			b->brakes_unavailable = boolean == 1;
		else if (ends_with(path, "coreData/speed"))
			b->speed = (uint16_t)i;
		else if (ends_with(path, "coreData/heading"))
			b->heading = (uint16_t)i;
		else if (ends_with(path, "size/width"))
			b->width = (uint16_t)i;
		else if (ends_with(path, "size/length"))
			b->length = (uint16_t)i;
		return;
	}
	if (ends_with(path, "crumbData/[]/latOffset")) {
		r->crumb_lat = (long)i;
		r->crumb_ok = i > -V2X_DE_OFFSET_B18_MAX && i < V2X_DE_OFFSET_B18_MAX;
	} else if (ends_with(path, "crumbData/[]/lonOffset")) {
		r->crumb_lon = (long)i;
		r->crumb_ok &= i > -V2X_DE_OFFSET_B18_MAX && i < V2X_DE_OFFSET_B18_MAX;
		bsm_crumb(r);
	} else if (ends_with(path, "crumbData/[]/timeOffset") && b->ph_points &&
		   b->ph_points <= V2X_DE_PATH_HISTORY_MAX_POINTS) {
		b->ph[b->ph_points - 1].time_offset = (uint16_t)i;
	}
}

int rpt_read_bsm(const uint8_t *p, size_t len, struct rpt_bsm *b)
{
	memset(b, 0, sizeof(*b));
	struct bsm_reader r = {.b = b};
	struct walker w = {.open = bsm_open, .value = bsm_value, .ctx = &r};
	return walk(p, len, 20, &w);
}

/* ---- MAP ---- */

struct map_reader {
	struct rpt_map *m;
	bool oom;
	long node_x;                 /* the node's x offset until its y arrives */
	long node_lon;
};

static struct rpt_intersection *map_cur(struct map_reader *r)
{
	return r->m->n ? &r->m->x[r->m->n - 1] : NULL;
}

static struct rpt_lane *lane_cur(struct map_reader *r)
{
	struct rpt_intersection *x = map_cur(r);
	return x && x->n_lanes ? &x->lanes[x->n_lanes - 1] : NULL;
}

static void map_open(void *c, const char *path, size_t plen, bool array)
{
	struct map_reader *r = c;
	if (array || r->oom)
		return;
	if (strcmp(path, "intersections/[]") == 0) {
		void *p = realloc(r->m->x, (r->m->n + 1) * sizeof(*r->m->x));
		if (!p) {
			r->oom = true;
			return;
		}
		r->m->x = p;
		memset(&r->m->x[r->m->n++], 0, sizeof(*r->m->x));
	} else if (ends_with(path, "laneSet/[]") && map_cur(r)) {
		struct rpt_intersection *x = map_cur(r);
		void *p = realloc(x->lanes, (x->n_lanes + 1) * sizeof(*x->lanes));
		if (!p) {
			r->oom = true;
			return;
		}
		x->lanes = p;
		memset(&x->lanes[x->n_lanes++], 0, sizeof(*x->lanes));
	} else if (ends_with(path, "connectsTo/[]") && lane_cur(r)) {
		struct rpt_lane *l = lane_cur(r);
		if (l->n_connects < RPT_MAX_CONNECTS) {
			l->signal_group[l->n_connects] = -1;
			l->connecting_lane[l->n_connects] = -1;
			l->remote[l->n_connects] = false;
			l->n_connects++;
		}
	} else if (ends_with(path, "remoteIntersection") && lane_cur(r) &&
		   lane_cur(r)->n_connects) {
		struct rpt_lane *l = lane_cur(r);
		l->remote[l->n_connects - 1] = true;
	}
}

/* A lane node at (dx, dy) cm from the previous node (from refPoint for the first). */
static void lane_node_xy(struct rpt_intersection *x, struct rpt_lane *l, long dx, long dy)
{
	if (!x->has_ref || l->n_nodes >= RPT_MAX_NODES)
		return;
	double lat0 = l->n_nodes ? l->lat[l->n_nodes - 1] : x->ref_lat;
	double lon0 = l->n_nodes ? l->lon[l->n_nodes - 1] : x->ref_lon;
	double rad = RAD;
	l->lat[l->n_nodes] = lat0 + dy / 100.0 / EARTH_RADIUS_M / rad;
	l->lon[l->n_nodes] = lon0 + dx / 100.0 / (EARTH_RADIUS_M * cos(lat0 * rad)) / rad;
	l->n_nodes++;
}

static void map_value(void *c, const char *path, size_t plen, long long i, const char *text,
		      size_t tlen, const uint8_t *oct, size_t olen, int boolean)
{
	struct map_reader *r = c;
	struct rpt_intersection *x = map_cur(r);
	struct rpt_lane *l = lane_cur(r);
	(void)text, (void)tlen, (void)oct, (void)olen, (void)boolean;
	if (!x || r->oom)
		return;
	if (ends_with(path, "intersections/[]/id/id")) {
		x->id = (long)i;
	} else if (ends_with(path, "intersections/[]/revision")) {
		x->revision = (long)i;
	} else if (ends_with(path, "intersections/[]/refPoint/lat")) {
		x->ref_lat = i / 1e7;
	} else if (ends_with(path, "intersections/[]/refPoint/long")) {
		x->ref_lon = i / 1e7;
		x->has_ref = true;
	} else if (!l) {
		return;
	} else if (ends_with(path, "laneSet/[]/laneID")) {
		l->id = (long)i;
	} else if (strstr(path, "/nodes/[]/delta/node-XY") && ends_with(path, "x")) {
		r->node_x = (long)i;
	} else if (strstr(path, "/nodes/[]/delta/node-XY") && ends_with(path, "y")) {
		lane_node_xy(x, l, r->node_x, (long)i);
	} else if (ends_with(path, "delta/node-LatLon/lon")) {
		r->node_lon = (long)i;
	} else if (ends_with(path, "delta/node-LatLon/lat") && l->n_nodes < RPT_MAX_NODES) {
		l->lat[l->n_nodes] = i / 1e7;
		l->lon[l->n_nodes++] = r->node_lon / 1e7;
	} else if (ends_with(path, "connectsTo/[]/connectingLane/lane") && l->n_connects) {
		l->connecting_lane[l->n_connects - 1] = (long)i;
	} else if (ends_with(path, "connectsTo/[]/signalGroup") && l->n_connects) {
		l->signal_group[l->n_connects - 1] = (long)i;
	}
}

void rpt_map_free(struct rpt_map *m)
{
	for (unsigned i = 0; i < m->n; i++)
		free(m->x[i].lanes);
	free(m->x);
	m->x = NULL;
	m->n = 0;
}

int rpt_read_map(const uint8_t *p, size_t len, struct rpt_map *m)
{
	memset(m, 0, sizeof(*m));
	struct map_reader r = {.m = m};
	struct walker w = {.open = map_open, .value = map_value, .ctx = &r};
	if (walk(p, len, 18, &w) < 0 || r.oom) {
		rpt_map_free(m);
		return -1;
	}
	return 0;
}

/* ---- SPaT ---- */

static void spat_open(void *c, const char *path, size_t plen, bool array)
{
	struct rpt_spat *s = c;
	(void)plen;
	if (array || strcmp(path, "intersections/[]") != 0)
		return;
	void *p = realloc(s->x, (s->n + 1) * sizeof(*s->x));
	if (!p)
		return; /* the intersection is left out; rpt_read_spat sees the count */
	s->x = p;
	memset(&s->x[s->n], 0, sizeof(*s->x));
	s->x[s->n].moy = -1;
	s->x[s->n++].timestamp_ms = -1;
}

static void spat_value(void *c, const char *path, size_t plen, long long i, const char *text,
		       size_t tlen, const uint8_t *oct, size_t olen, int boolean)
{
	struct rpt_spat *s = c;
	(void)text, (void)tlen, (void)oct, (void)olen, (void)boolean;
	if (!s->n)
		return;
	struct rpt_spat_state *x = &s->x[s->n - 1];
	if (ends_with(path, "intersections/[]/id/id")) {
		x->id = (long)i;
	} else if (ends_with(path, "intersections/[]/moy")) {
		x->moy = (long)i;
	} else if (ends_with(path, "intersections/[]/timeStamp")) {
		x->timestamp_ms = (long)i;
	} else if (ends_with(path, "states/[]/signalGroup") && x->n_groups < RPT_MAX_GROUPS) {
		x->min_end[x->n_groups] = x->max_end[x->n_groups] = -1;
		x->group[x->n_groups++] = (long)i;
	} else if (x->n_groups && text && ends_with(path, "state-time-speed/[]/eventState")) {
		char *e = x->event[x->n_groups - 1]; /* the first MovementEvent's */
		if (!e[0] && tlen < RPT_EVENT_NAME) {
			memcpy(e, text, tlen);
			e[tlen] = '\0';
		}
	} else if (x->n_groups && strstr(path, "/state-time-speed/[]/timing/")) {
		/* the first MovementEvent of the state: the current phase */
		unsigned g = x->n_groups - 1;
		if (ends_with(path, "timing/minEndTime") && x->min_end[g] < 0)
			x->min_end[g] = (long)i;
		else if (ends_with(path, "timing/maxEndTime") && x->max_end[g] < 0)
			x->max_end[g] = (long)i;
	}
}

void rpt_spat_free(struct rpt_spat *s)
{
	free(s->x);
	s->x = NULL;
	s->n = 0;
}

int rpt_read_spat(const uint8_t *p, size_t len, struct rpt_spat *s)
{
	memset(s, 0, sizeof(*s));
	struct walker w = {.open = spat_open, .value = spat_value, .ctx = s};
	if (walk(p, len, 19, &w) < 0) {
		rpt_spat_free(s);
		return -1;
	}
	return 0;
}

/* ---- TIM ---- */

static void tim_open(void *c, const char *path, size_t plen, bool array)
{
	struct rpt_tim *t = c;
	(void)plen;
	if (array || strcmp(path, "dataFrames/[]") != 0 || t->n == RPT_MAX_TIM_FRAMES)
		return;
	t->f[t->n].start_year = -1;
	t->f[t->n].start_time = -1;
	t->f[t->n++].duration_min = -1;
}

static void tim_value(void *c, const char *path, size_t plen, long long i, const char *text,
		      size_t tlen, const uint8_t *oct, size_t olen, int boolean)
{
	struct rpt_tim *t = c;
	(void)plen, (void)text, (void)tlen, (void)oct, (void)olen, (void)boolean;
	if (!t->n || strncmp(path, "dataFrames/[]/", 14) != 0 || strchr(path + 14, '/'))
		return;
	const char *m = path + 14;
	if (strcmp(m, "startYear") == 0)
		t->f[t->n - 1].start_year = (long)i;
	else if (strcmp(m, "startTime") == 0)
		t->f[t->n - 1].start_time = (long)i;
	else if (strcmp(m, "durationTime") == 0 || strcmp(m, "duratonTime") == 0) /* 2016 */
		t->f[t->n - 1].duration_min = (long)i;
}

int rpt_read_tim(const uint8_t *p, size_t len, struct rpt_tim *t)
{
	memset(t, 0, sizeof(*t));
	struct walker w = {.open = tim_open, .value = tim_value, .ctx = t};
	return walk(p, len, 31, &w);
}
