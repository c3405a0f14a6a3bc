/* v2xcap report: takes the capture in frame by frame (counts through stats.c, decoded
 * fields through report_fields.c) and keeps what the checks and the plots need. */
#include <stdlib.h>
#include <string.h>

#include "bsm.h"
#include "report.h"

#define BSM_ID 20
#define MAP_ID 18
#define SPAT_ID 19

/* Grows *p (n used, *cap allocated, elements of size) by one zeroed element. */
void *rpt_grow(void *pp, size_t *n, size_t *cap, size_t size)
{
	void **p = pp;
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		void *q = realloc(*p, c * size);
		if (!q)
			return NULL;
		*p = q;
		*cap = c;
	}
	void *e = (char *)*p + (*n)++ * size;
	memset(e, 0, size);
	return e;
}

int rpt_init(struct report *r, char *const *files, size_t n_files)
{
	memset(r, 0, sizeof(*r));
	r->files = files;
	r->n_files = n_files;
	r->max_age_ms = 300;
	r->max_gen_delta_ms = 1000;
	rpt_priority_init(r);
	return v2x_tally_init(&r->stats, NULL);
}

void rpt_free(struct report *r)
{
	v2x_tally_free(&r->stats);
	free(r->mix);
	for (size_t i = 0; i < r->n_senders; i++) {
		free(r->senders[i].s);
		free(r->senders[i].cov);
	}
	free(r->cov);
	free(r->senders);
	free(r->sec);
	free(r->by_id);
	free(r->by_signer);
	for (size_t i = 0; i < r->n_maps; i++)
		free(r->maps[i].x.lanes);
	free(r->maps);
	free(r->spats);
	free(r->phases);
	rpt_verify_free(r);
	rpt_findings_free(&r->findings);
}

/* Twice as wide bins: each pair of bins summed into one. */
static void mix_widen(struct report *r)
{
	size_t n = (r->n_bins + 1) / 2;
	for (size_t i = 0; i < n; i++)
		for (unsigned c = 0; c <= RPT_MIX_MAX_TYPES; c++)
			r->mix[i][c] = r->mix[2 * i][c] +
				       (2 * i + 1 < r->n_bins ? r->mix[2 * i + 1][c] : 0);
	r->n_bins = n;
	r->mix_bin_us *= 2;
}

/* Counts by type in time bins: the first RPT_MIX_MAX_TYPES types met get a column each. */
static int mix_add(struct report *r, int64_t ts_us, unsigned type)
{
	if (r->mix_bin_us == 0) {
		r->mix_origin_us = ts_us;
		r->mix_bin_us = 1000000;
	}
	/* out of order before the first frame: counted in the first bin */
	int64_t at = ts_us > r->mix_origin_us ? ts_us - r->mix_origin_us : 0;
	while (at / r->mix_bin_us >= RPT_MIX_MAX_BINS)
		mix_widen(r);
	size_t bin = (size_t)(at / r->mix_bin_us);
	while (bin >= r->n_bins)
		if (!rpt_grow(&r->mix, &r->n_bins, &r->cap_bins, sizeof(*r->mix)))
			return -1;
	unsigned col = 0;
	while (col < r->n_mix_types && r->mix_types[col] != type)
		col++;
	if (col == r->n_mix_types && col < RPT_MIX_MAX_TYPES)
		r->mix_types[r->n_mix_types++] = (uint16_t)type;
	r->mix[bin][col]++;
	return 0;
}

static struct rpt_sender *sender_get(struct report *r, uint32_t id)
{
	/* the sender of the previous BSM first: senders interleave, but slowly */
	for (size_t i = r->n_senders; i-- > 0;)
		if (r->senders[i].id == id)
			return &r->senders[i];
	struct rpt_sender *s = rpt_grow(&r->senders, &r->n_senders, &r->cap_senders, sizeof(*s));
	if (s)
		s->id = id;
	return s;
}

/* An error ellipse whose semi-major axis is shorter than its semi-minor one (the axes'
 * definition, J2735 DF_PositionalAccuracy), or of 0 (a GNSS position exact to the
 * centimetre; this tool's rule) */
static bool implausible_accuracy(const struct rpt_bsm *b)
{
	if (b->semi_major == V2X_DE_ACCURACY_UNAVAILABLE)
		return false;
	return b->semi_major == 0 ||
	       (b->semi_minor != V2X_DE_ACCURACY_UNAVAILABLE && b->semi_major < b->semi_minor);
}

static int bsm_add(struct report *r, const struct rpt_where *at, const struct rpt_bsm *b,
		   const struct v2x_frame *f)
{
	struct rpt_sender *s = sender_get(r, b->id);
	if (!s)
		return -1;
	struct rpt_bsm_sample *sm = rpt_grow(&s->s, &s->n, &s->cap, sizeof(*sm));
	if (!sm)
		return -1;
	sm->at = *at;
	sm->msg_cnt = b->msg_cnt;
	if (!v2x_bsm_age_ms(at->ts_us, b->sec_mark, &sm->age_raw_ms))
		sm->age_raw_ms = INT32_MIN;
	sm->lat = b->lat;
	sm->lon = b->lon;
	sm->has_rssi = f->rt.has_signal;
	sm->rssi_dbm = f->rt.signal_dbm;
	sm->missing = (!b->has_path_history ? RPT_MISSING_PH : 0) |
		      (!b->has_path_prediction ? RPT_MISSING_PP : 0) |
		      (b->semi_major == V2X_DE_ACCURACY_UNAVAILABLE ? RPT_MISSING_ACC : 0) |
		      (b->elev == V2X_DE_ELEVATION_UNAVAILABLE ? RPT_MISSING_ELEV : 0) |
		      (b->heading == V2X_DE_HEADING_UNAVAILABLE ? RPT_MISSING_HEADING : 0) |
		      (b->speed == V2X_DE_SPEED_UNAVAILABLE ? RPT_MISSING_SPEED : 0) |
		      (b->width == 0 || b->length == 0 ? RPT_MISSING_SIZE : 0) |
		      (b->brakes_unavailable ? RPT_MISSING_BRAKES : 0) |
		      (implausible_accuracy(b) ? RPT_MISSING_ACC_PLAUSIBLE : 0);
	if (b->ph_points > s->ph_points_max)
		s->ph_points_max = b->ph_points;
	if (b->ph_distance_m > s->ph_distance_max)
		s->ph_distance_max = b->ph_distance_m;
	return rpt_bsm_path_history(r, s, b);
}

/* FNV-1a, 64 bits, with the length: equal MAP octets, equal MAP */
static uint64_t octets_hash(const uint8_t *p, size_t len)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325) ^ len;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	return h;
}

static int map_add(struct report *r, const struct rpt_where *at, const uint8_t *p, size_t len)
{
	uint64_t h = octets_hash(p, len);
	unsigned n = r->n_map_hash < RPT_MAP_HASHES ? r->n_map_hash : RPT_MAP_HASHES;
	for (unsigned i = 0; i < n; i++)
		if (r->map_hash[i] == h)
			return 0; /* a repeat of a MAP already taken in: nothing new */
	struct rpt_map m;
	if (rpt_read_map(p, len, &m) < 0)
		return 1;
	int rc = 0;
	for (unsigned i = 0; i < m.n && rc == 0; i++) {
		struct rpt_map_seen *ms = NULL, *before = NULL;
		/* one entry per intersection and revision: a MAP repeats every second or so */
		for (size_t k = 0; k < r->n_maps && !ms; k++) {
			if (r->maps[k].x.id != m.x[i].id)
				continue;
			if (r->maps[k].x.revision == m.x[i].revision)
				ms = &r->maps[k];
			else
				before = &r->maps[k];
		}
		if (ms) {
			rc = rpt_map_repeat(r, at, &ms->x, &m.x[i]);
			continue;
		}
		if (before && rpt_map_revision(r, at, &before->x, &m.x[i]) < 0) {
			rc = -1;
			break;
		}
		ms = rpt_grow(&r->maps, &r->n_maps, &r->cap_maps, sizeof(*ms));
		if (!ms) {
			rc = -1;
			break;
		}
		ms->at = *at;
		ms->x = m.x[i];
		m.x[i].lanes = NULL; /* owned by r now */
	}
	rpt_map_free(&m);
	if (rc == 0)
		r->map_hash[r->n_map_hash++ % RPT_MAP_HASHES] = h;
	return rc;
}

static int spat_add(struct report *r, const struct rpt_where *at, const uint8_t *p,
		    size_t len)
{
	struct rpt_spat s;
	if (rpt_read_spat(p, len, &s) < 0)
		return 1;
	int rc = 0;
	for (unsigned i = 0; i < s.n; i++) {
		struct rpt_spat_seen *ss = rpt_grow(&r->spats, &r->n_spats, &r->cap_spats,
						sizeof(*ss));
		if (!ss || rpt_spat_timing(r, at, &s.x[i]) < 0 ||
		    rpt_spat_phases(r, at, &s.x[i]) < 0) {
			rc = -1;
			break;
		}
		ss->at = *at;
		ss->id = s.x[i].id;
		ss->n_groups = s.x[i].n_groups;
		memcpy(ss->group, s.x[i].group, sizeof(ss->group));
	}
	rpt_spat_free(&s);
	return rc;
}

static const struct rpt_requirement req_trailing = {
	"j2735.trailing", "Nothing after the MessageFrame",
	"SAE J2735 MessageFrame: its open type's length ends the message; octets after it in "
	"the datagram, WSM or unsecuredData are a sender's or forwarder's own, reported per "
	"sender (MAC, and UDP port) and type"};

/* A sender whose MessageFrames are followed by octets: named once per sender and type */
static int trailing_note(struct report *r, const struct rpt_where *at, const struct v2x_frame *f)
{
	char mac[20] = "", port[12] = "", type[32], who[40], text[80];
	if (f->has_src)
		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x ", f->src[0], f->src[1],
			 f->src[2], f->src[3], f->src[4], f->src[5]);
	if (f->encap_len)
		snprintf(port, sizeof(port), "udp %u ", f->udp_dst_port);
	snprintf(who, sizeof(who), "%s%s%s", mac, port,
		 v2x_tally_key_name(V2X_BY_TYPE, f->mf.msg_id, type, sizeof(type)));
	snprintf(text, sizeof(text), "%zu octet%s after the MessageFrame", f->mf.trailing,
		 f->mf.trailing == 1 ? "" : "s");
	return rpt_note(&r->findings, RPT_WARNING, &req_trailing, who, at, text);
}

int rpt_add(struct report *r, const struct rpt_where *at, const struct v2x_frame *f,
	    uint32_t caplen, uint32_t wirelen)
{
	struct v2x_sample sm = {.ts_us = at->ts_us, .caplen = caplen, .wirelen = wirelen};
	if (r->frames == 0 || at->ts_us < r->first_us)
		r->first_us = at->ts_us;
	if (r->frames == 0 || at->ts_us > r->last_us)
		r->last_us = at->ts_us;
	r->frames++;
	v2x_tally_add(&r->stats, f, &sm);
	if (f->layer < V2X_LAYER_WSMP)
		return 0;
	unsigned type = f->layer == V2X_LAYER_J2735 ? f->mf.msg_id : V2X_TYPE_NO_J2735;
	if (mix_add(r, at->ts_us, type) < 0 || rpt_security_frame(r, at, f) < 0 ||
	    rpt_priority_frame(r, at, f) < 0)
		return -1;
	if (f->layer != V2X_LAYER_J2735 || !f->has_j2735)
		return 0;
	r->j2735++;
	if (f->mf.trailing && trailing_note(r, at, f) < 0)
		return -1;
	const uint8_t *p = f->j2735; /* from WSMP, 1609.2 or a UDP payload */
	size_t len = f->j2735_len;
	int rc = 0;
	struct rpt_bsm b;
	switch (f->mf.msg_id) {
	case BSM_ID:
		rc = rpt_read_bsm(p, len, &b) < 0 ? 1 : bsm_add(r, at, &b, f);
		break;
	case MAP_ID:
		rc = map_add(r, at, p, len);
		break;
	case SPAT_ID:
		rc = spat_add(r, at, p, len);
		break;
	case V2X_MSG_TIM: {
		struct rpt_tim t;
		char who[24] = "";
		if (f->has_src)
			snprintf(who, sizeof(who), "%02x:%02x:%02x:%02x:%02x:%02x", f->src[0],
				 f->src[1], f->src[2], f->src[3], f->src[4], f->src[5]);
		rc = rpt_read_tim(p, len, &t) < 0 ? 1 : rpt_tim_window(r, at, who, &t);
		break;
	}
	}
	if (rc > 0) /* did not decode: counted, the checks leave it out */
		r->undecodable++;
	return rc < 0 ? -1 : 0;
}
