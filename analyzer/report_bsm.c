/* v2xcap report: BSM conformance per sender (TemporaryID): transmit rate, msgCnt
 * continuity, message age, and the part II and core fields SAE J2945/1 asks for.
 * The SAE text was not at hand when this was written: sources name the J2945/1 topic,
 * the J2735 data element, and for thresholds that are this tool's own, say so. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define NOMINAL_HZ 10.0
#define RATE_TOLERANCE 0.1        /* a sender's mean rate within 10 % of nominal */
#define MAX_ITT_US INT64_C(600000) /* longest inter-transmit time congestion control gives */
#define OFFSET_PERCENTILE 5
/* Path history (SAE J2945/1-2020, see req_ph_*) */
#define PH_MAX_POINTS 15
#define PH_MAX_SPACING_M 210.0
#define PH_MIN_DISTANCE_M 200.0
#define PH_MAX_CHORD_ERROR_M 1.0
#define PH_DISTANCE_SLACK_M 10.0   /* this tool's */
#define HEARD_STEP_M 5.0           /* this tool's: GNSS jitter at a standstill is no driving */
#define MINUTE_MS 60000

static const struct rpt_requirement req_rate = {
	"bsm.rate", "Transmit rate 10 Hz nominal",
	"SAE J2945/1 (BSM transmission: 10 Hz nominal, lower under congestion control); "
	"public: NHTSA V2V NPRM, 82 FR 3854 (2017). Rate = (received + msgCnt-lost) / span; "
	"tolerance 10 % is this tool's"};
static const struct rpt_requirement req_itt = {
	"bsm.interval", "Interval between consecutive BSMs within the congestion-control range",
	"SAE J2945/1 congestion control (maximum inter-transmit time 600 ms); counted only "
	"between BSMs whose msgCnt follow each other, so losses on the air do not count"};
static const struct rpt_requirement req_gap = {
	"bsm.msgcnt-gap", "msgCnt continuous (increments by one, 127 wraps to 0)",
	"SAE J2735 DE_MsgCount (0..127, +1 per message of a sender, wraps); a gap is a "
	"BSM lost on the air or not sent"};
static const struct rpt_requirement req_repeat = {
	"bsm.msgcnt-repeat", "msgCnt not repeated",
	"SAE J2735 DE_MsgCount: a new message gets the next count"};
static const struct rpt_requirement req_age = {
	"bsm.age", "Message age (capture time - secMark) small",
	"SAE J2735 DE_DSecond (secMark: ms of the minute the data refer to); age after "
	"removing the receiver clock offset (5th percentile of all BSM ages); limit "
	"--max-age, 300 ms by default (this tool's)"};
static const struct rpt_requirement req_secmark = {
	"bsm.secmark", "secMark available",
	"SAE J2735 DE_DSecond: 65535 = unavailable, 60000..60999 leap second"};
static const struct rpt_requirement req_missing[RPT_MISSING_N] = {
	{"bsm.path-history", "Path history in every BSM",
	 "SAE J2945/1 (PathHistory in VehicleSafetyExtensions, part II)"},
	{"bsm.path-prediction", "Path prediction in every BSM",
	 "SAE J2945/1 (PathPrediction in VehicleSafetyExtensions, part II)"},
	{"bsm.accuracy", "Position accuracy available",
	 "SAE J2945/1 (PositionalAccuracy in BSMcoreData); J2735 DE_SemiMajorAxisAccuracy "
	 "255 = unavailable"},
	{"bsm.elevation", "Elevation available",
	 "SAE J2735 DE_Elevation: -4096 = unavailable; SAE J2945/1 core data"},
	{"bsm.heading", "Heading available",
	 "SAE J2735 DE_Heading: 28800 = unavailable; SAE J2945/1 core data"},
	{"bsm.speed", "Speed available",
	 "SAE J2735 DE_Speed: 8191 = unavailable; SAE J2945/1 core data"},
	{"bsm.size", "Vehicle size present",
	 "SAE J2945/1 (VehicleSize in BSMcoreData); width or length 0 = not set"},
	{"bsm.brakes", "Brake status available",
	 "SAE J2945/1 (BrakeSystemStatus in BSMcoreData); J2735 DE_BrakeAppliedStatus bit "
	 "\"unavailable\" set = the wheel brakes' state is not known"},
	{"bsm.accuracy-plausible", "Position accuracy plausible",
	 "SAE J2735 DF_PositionalAccuracy: semiMajor is the error ellipse's longer axis, so "
	 "not shorter than semiMinor; 0 (a GNSS position exact to the centimetre) is not "
	 "plausible: this tool's rule"},
};
/* The fields without which a BSM fails J2945/1 are warnings; values only unavailable at
 * times (a sensor, a moment without a fix) are information. */
static const enum rpt_severity missing_severity[RPT_MISSING_N] = {
	RPT_WARNING, RPT_WARNING, RPT_INFO, RPT_INFO, RPT_INFO, RPT_INFO, RPT_WARNING,
	RPT_INFO, RPT_WARNING,
};
/* The J2945/1 path history constants as an open J2945/1 implementation (the j29451
 * library's path-info header) cites them from SAE J2945/1-2020 p. 75; the SAE text itself
 * was not at hand. */
#define PH_SOURCE "SAE J2945/1-2020 path history (p. 75 as cited by an open J2945/1 " \
	"implementation, j29451 library: vMaxPHistPoints 15, vMaxChordLength 210 m, " \
	"vMinPHistDistance 200 m, vPathPerpendicularDist)"
static const struct rpt_requirement req_ph_points = {
	"bsm.path-history-points", "Path history of at most 15 points",
	PH_SOURCE "; J2735 PathHistoryPointList allows 23"};
static const struct rpt_requirement req_ph_spacing = {
	"bsm.path-history-spacing",
	"Path history points at most 210 m apart (and the first from the current position)",
	PH_SOURCE "; J2735 OffsetLL-B18 +-131071 (\"this far or farther\") counts as that far, "
	"a lower bound"};
static const struct rpt_requirement req_ph_distance = {
	"bsm.path-history-distance",
	"Path history covers 200 m, or 15 points, or the distance heard driven",
	PH_SOURCE "; the distance the sender's own heard positions cover since its first BSM "
	"of that TemporaryID (steps under 5 m not counted), less 10 m, is asked for when under "
	"200 m (this tool's)"};
static const struct rpt_requirement req_ph_chord = {
	"bsm.path-history-chord",
	"Heard positions within 1 m of the path history chord between two points",
	PH_SOURCE ": the concise path history keeps the path within vPathPerpendicularDist of "
	"the chords. 1 m is this tool's limit (the implementation generates with 0.875 m to "
	"pass a test system); positions are the sender's own heard BSMs timed by secMark "
	"against the points' timeOffset, each chord checked once"};
static const char *const missing_text[RPT_MISSING_N] = {
	"no path history", "no path prediction", "position accuracy unavailable",
	"elevation unavailable", "heading unavailable", "speed unavailable",
	"vehicle width or length 0", "brake status unavailable",
	"semiMajor shorter than semiMinor, or 0",
};

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The receiver's clock minus the senders': the freshest BSMs are the ones whose age is
 * mostly the clock offset (a low percentile, so a few early outliers do not set it). */
static int estimate_clock_offset(struct report *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_senders; i++)
		n += r->senders[i].n;
	int32_t *ages = malloc((n ? n : 1) * sizeof(*ages));
	if (!ages)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < r->n_senders; i++)
		for (size_t j = 0; j < r->senders[i].n; j++)
			if (r->senders[i].s[j].age_raw_ms != INT32_MIN)
				ages[k++] = r->senders[i].s[j].age_raw_ms;
	if (k) {
		qsort(ages, k, sizeof(*ages), cmp_i32);
		r->clock_offset_ms = ages[(k - 1) * OFFSET_PERCENTILE / 100];
		r->has_clock_offset = true;
	}
	free(ages);
	return 0;
}

int32_t rpt_bsm_age_ms(const struct report *r, const struct rpt_bsm_sample *s)
{
	if (s->age_raw_ms == INT32_MIN)
		return INT32_MIN;
	return s->age_raw_ms - (r->has_clock_offset ? r->clock_offset_ms : 0);
}

static struct rpt_finding *finding(struct report *r, enum rpt_severity sev,
				   const struct rpt_requirement *req, const struct rpt_sender *s)
{
	char who[12];
	snprintf(who, sizeof(who), "%08x", s->id);
	struct rpt_finding *f = rpt_finding(&r->findings, sev, req, who);
	if (f && !f->has_pos)
		for (size_t i = 0; i < s->n; i++)
			if (s->s[i].lat != V2X_DE_LATITUDE_UNAVAILABLE && s->s[i].lon != V2X_DE_LONGITUDE_UNAVAILABLE) {
				f->has_pos = true;
				f->lat = s->s[i].lat / 1e7;
				f->lon = s->s[i].lon / 1e7;
				break;
			}
	return f;
}

/* ---- path history, as each BSM comes ---- */

/* ms on the sender's clock from BSM e to the later BSM l: the secMarks' difference, its
 * minute chosen by the capture times (the receive delay and the receiver's clock then do
 * not enter, and a span of minutes stays right); the capture times alone without secMark */
static double sender_dt_ms(const struct rpt_bsm_sample *l, const struct rpt_bsm_sample *e)
{
	double cap = (double)(l->at.ts_us - e->at.ts_us) / 1000.0;
	if (l->age_raw_ms == INT32_MIN || e->age_raw_ms == INT32_MIN)
		return cap;
	int32_t x = (e->age_raw_ms - l->age_raw_ms) % MINUTE_MS; /* secMark(l) - secMark(e) - cap */
	if (x > MINUTE_MS / 2)
		x -= MINUTE_MS;
	else if (x <= -MINUTE_MS / 2)
		x += MINUTE_MS;
	return cap + x;
}

static double point_m(int32_t lat1, int32_t lon1, int32_t lat2, int32_t lon2)
{
	return rpt_distance_m(lat1 / 1e7, lon1 / 1e7, lat2 / 1e7, lon2 / 1e7);
}

/* Metres from P to the segment AB, from the triangle's sides */
static double segment_m(int32_t plat, int32_t plon, int32_t alat, int32_t alon, int32_t blat,
			int32_t blon)
{
	double a = point_m(plat, plon, alat, alon), b = point_m(plat, plon, blat, blon);
	double c = point_m(alat, alon, blat, blon);
	if (c < 1e-3)
		return a < b ? a : b;
	double t = (a * a - b * b + c * c) / (2 * c); /* P's foot along AB from A */
	if (t <= 0)
		return a;
	if (t >= c)
		return b;
	double h = a * a - t * t;
	return h > 0 ? sqrt(h) : 0;
}

static bool ph_exact(int32_t d) { return d > -V2X_DE_OFFSET_B18_MAX && d < V2X_DE_OFFSET_B18_MAX; }

/* One occurrence of a path history finding: finding() places it at the sender */
static int ph_note(struct report *r, const struct rpt_requirement *req, struct rpt_sender *s,
		   const struct rpt_where *at, const char *text)
{
	struct rpt_finding *f = finding(r, RPT_WARNING, req, s);
	if (!f)
		return -1;
	char who[sizeof(f->sender)];
	memcpy(who, f->sender, sizeof(who));
	return rpt_note(&r->findings, RPT_WARNING, req, who, at, text);
}

/* Each point (the current position first) at most PH_MAX_SPACING_M from the one before */
static int check_ph_spacing(struct report *r, struct rpt_sender *s, const struct rpt_bsm *b,
			    unsigned n)
{
	const struct rpt_bsm_sample *now = &s->s[s->n - 1];
	int32_t plat = b->lat, plon = b->lon, lat, lon;
	bool prev = true; /* the current position */
	for (unsigned i = 0; i < n; i++) {
		bool ok = b->ph[i].dlat != V2X_DE_OFFSET_B18_UNAVAILABLE &&
			  b->ph[i].dlon != V2X_DE_OFFSET_B18_UNAVAILABLE;
		rpt_ph_point(b, i, &lat, &lon);
		double d = ok && prev ? point_m(plat, plon, lat, lon) : 0;
		if (d > PH_MAX_SPACING_M) {
			char text[120], from[24] = "the current position";
			if (i)
				snprintf(from, sizeof(from), "point %u", i);
			snprintf(text, sizeof(text), "point %u at least %.0f m from %s", i + 1, d,
				 from);
			return ph_note(r, &req_ph_spacing, s, &now->at, text);
		}
		prev = ok;
		plat = lat;
		plon = lon;
	}
	return 0;
}

/* The sender's heard positions between points A (older) and B, on its clock ta < tb (ms
 * relative to now), within PH_MAX_CHORD_ERROR_M of the chord AB */
static int check_ph_chord(struct report *r, struct rpt_sender *s, const struct rpt_bsm *b,
			  unsigned ia, double ta, double tb)
{
	const struct rpt_bsm_sample *now = &s->s[s->n - 1], *worst = NULL;
	int32_t alat, alon, blat, blon;
	rpt_ph_point(b, ia, &alat, &alon);
	rpt_ph_point(b, ia - 1, &blat, &blon);
	double worst_m = PH_MAX_CHORD_ERROR_M;
	for (size_t k = s->n - 1; k-- > 0;) {
		const struct rpt_bsm_sample *e = &s->s[k];
		double t = -sender_dt_ms(now, e);
		if (t < ta - 1000)
			break; /* older than the chord (a second's leeway for out of order frames) */
		if (t < ta || t > tb || e->age_raw_ms == INT32_MIN ||
		    e->lat == V2X_DE_LATITUDE_UNAVAILABLE || e->lon == V2X_DE_LONGITUDE_UNAVAILABLE)
			continue;
		double h = segment_m(e->lat, e->lon, alat, alon, blat, blon);
		if (h > worst_m) {
			worst_m = h;
			worst = e;
		}
	}
	if (!worst)
		return 0;
	char text[160];
	snprintf(text, sizeof(text), "heard position %.1f m off the chord of points %u-%u "
		 "(%.1f s long)", worst_m, ia, ia + 1, (tb - ta) / 1000);
	if (ph_note(r, &req_ph_chord, s, &now->at, text) < 0)
		return -1;
	/* the heard frame shows the same occurrence: kept, not counted */
	struct rpt_finding *f = finding(r, RPT_WARNING, &req_ph_chord, s);
	if (f && f->n_where < RPT_MAX_FRAMES)
		f->where[f->n_where++] = worst->at;
	return 0;
}

/* The chords between two points this BSM adds: the points already checked stay as they
 * were (a concise path history keeps its points), so each chord is checked once. The
 * chord from the current position to point 1 changes with every BSM: left out. */
static int check_ph_chords(struct report *r, struct rpt_sender *s, const struct rpt_bsm *b,
			   unsigned n)
{
	const struct rpt_bsm_sample *now = &s->s[s->n - 1];
	double clock = sender_dt_ms(now, &s->s[0]); /* now on the sender's clock */
	double newest = 0;
	bool any = false;
	for (unsigned i = 1; i < n; i++) {
		uint16_t oa = b->ph[i].time_offset, ob = b->ph[i - 1].time_offset;
		if (!ph_exact(b->ph[i].dlat) || !ph_exact(b->ph[i].dlon) ||
		    !ph_exact(b->ph[i - 1].dlat) || !ph_exact(b->ph[i - 1].dlon) ||
		    oa >= V2X_DE_TIME_OFFSET_MAX || ob >= V2X_DE_TIME_OFFSET_MAX || oa <= ob)
			continue;
		double tb = -10.0 * ob, ta = -10.0 * oa;
		if (s->has_ph_checked && clock + tb <= s->ph_checked_ms + 5)
			continue; /* B was checked as a chord's newer end before */
		if (!any || clock + tb > newest)
			newest = clock + tb;
		any = true;
		if (check_ph_chord(r, s, b, i, ta, tb) < 0)
			return -1;
	}
	if (any && (!s->has_ph_checked || newest > s->ph_checked_ms)) {
		s->ph_checked_ms = newest;
		s->has_ph_checked = true;
	}
	return 0;
}

int rpt_bsm_path_history(struct report *r, struct rpt_sender *s, const struct rpt_bsm *b)
{
	const struct rpt_bsm_sample *now = &s->s[s->n - 1];
	if (b->lat == V2X_DE_LATITUDE_UNAVAILABLE || b->lon == V2X_DE_LONGITUDE_UNAVAILABLE)
		return 0;
	if (!s->has_heard) {
		s->has_heard = true;
		s->heard_lat = b->lat;
		s->heard_lon = b->lon;
	} else {
		double d = point_m(s->heard_lat, s->heard_lon, b->lat, b->lon);
		if (d >= HEARD_STEP_M) {
			s->heard_m += d;
			s->heard_lat = b->lat;
			s->heard_lon = b->lon;
		}
	}
	if (!b->has_path_history)
		return 0;
	char text[120];
	if (b->ph_points > PH_MAX_POINTS) {
		snprintf(text, sizeof(text), "%u points", b->ph_points);
		if (ph_note(r, &req_ph_points, s, &now->at, text) < 0)
			return -1;
	}
	double need = s->heard_m < PH_MIN_DISTANCE_M ? s->heard_m : PH_MIN_DISTANCE_M;
	if (b->ph_points < PH_MAX_POINTS && b->ph_distance_m < need - PH_DISTANCE_SLACK_M) {
		snprintf(text, sizeof(text), "%.0f m in %u points, %.0f m heard driven",
			 b->ph_distance_m, b->ph_points, s->heard_m);
		if (ph_note(r, &req_ph_distance, s, &now->at, text) < 0)
			return -1;
	}
	unsigned n = b->ph_points < V2X_DE_PATH_HISTORY_MAX_POINTS ? b->ph_points : V2X_DE_PATH_HISTORY_MAX_POINTS;
	if (check_ph_spacing(r, s, b, n) < 0 || check_ph_chords(r, s, b, n) < 0)
		return -1;
	return 0;
}

static int check_sequence(struct report *r, struct rpt_sender *s)
{
	for (size_t i = 1; i < s->n; i++) {
		const struct rpt_bsm_sample *a = &s->s[i - 1], *b = &s->s[i];
		unsigned step = (unsigned)(b->msg_cnt - a->msg_cnt + 128) % 128;
		struct rpt_finding *f = NULL;
		if (b->msg_cnt < a->msg_cnt && step == 1)
			s->wraps++;
		if (step == 0) {
			s->repeats++;
			if (!(f = finding(r, RPT_WARNING, &req_repeat, s)))
				return -1;
		} else if (step > 1) {
			s->gaps++;
			s->lost += step - 1;
			if (!(f = finding(r, RPT_WARNING, &req_gap, s)))
				return -1;
		} else if (b->at.ts_us - a->at.ts_us > MAX_ITT_US) {
			if (!(f = finding(r, RPT_WARNING, &req_itt, s)))
				return -1;
		}
		if (f)
			rpt_finding_at(f, &b->at);
	}
	struct rpt_finding *f;
	if (s->gaps && (f = finding(r, RPT_WARNING, &req_gap, s)))
		snprintf(f->text, sizeof(f->text), "%" PRIu64 " gaps, %" PRIu64
			 " messages missing of %" PRIu64, s->gaps, s->lost, s->n + s->lost);
	if (s->repeats && (f = finding(r, RPT_WARNING, &req_repeat, s)))
		snprintf(f->text, sizeof(f->text), "%" PRIu64 " msgCnt repeated", s->repeats);
	return 0;
}

static int check_rate(struct report *r, struct rpt_sender *s)
{
	int64_t span = s->s[s->n - 1].at.ts_us - s->s[0].at.ts_us;
	if (s->n < 2 || span <= 0)
		return 0;
	s->rate_hz = (double)(s->n - 1 + s->lost) * 1e6 / (double)span;
	if (s->rate_hz >= NOMINAL_HZ * (1 - RATE_TOLERANCE) &&
	    s->rate_hz <= NOMINAL_HZ * (1 + RATE_TOLERANCE))
		return 0;
	struct rpt_finding *f = finding(r, RPT_INFO, &req_rate, s);
	if (!f)
		return -1;
	snprintf(f->text, sizeof(f->text), "%.2f Hz over %.1f s (%zu BSMs, %" PRIu64 " lost)",
		 s->rate_hz, (double)span / 1e6, s->n, s->lost);
	rpt_finding_at(f, &s->s[0].at);
	rpt_finding_at(f, &s->s[s->n - 1].at);
	return 0;
}

static int check_fields(struct report *r, struct rpt_sender *s)
{
	uint64_t count[RPT_MISSING_N] = {0};
	for (size_t i = 0; i < s->n; i++) {
		const struct rpt_bsm_sample *b = &s->s[i];
		int32_t age = rpt_bsm_age_ms(r, b);
		struct rpt_finding *f = NULL;
		if (age == INT32_MIN)
			f = finding(r, RPT_WARNING, &req_secmark, s);
		else if (age > r->max_age_ms || age < -r->max_age_ms) {
			s->stale++;
			f = finding(r, RPT_WARNING, &req_age, s);
			if (f && !f->count)
				snprintf(f->text, sizeof(f->text), "first: %d ms old (receiver "
					 "clock offset %d ms removed)", age, r->clock_offset_ms);
		}
		if (f)
			rpt_finding_at(f, &b->at);
		for (int k = 0; k < RPT_MISSING_N; k++) {
			if (!(b->missing & 1 << k))
				continue;
			count[k]++;
			if (!(f = finding(r, missing_severity[k], &req_missing[k], s)))
				return -1;
			rpt_finding_at(f, &b->at);
		}
	}
	for (int k = 0; k < RPT_MISSING_N; k++) {
		struct rpt_finding *f;
		if (count[k] && (f = finding(r, missing_severity[k], &req_missing[k], s)))
			snprintf(f->text, sizeof(f->text), "%s in %" PRIu64 " of %zu BSMs",
				 missing_text[k], count[k], s->n);
	}
	return 0;
}

int rpt_check_bsm(struct report *r)
{
	if (estimate_clock_offset(r) < 0)
		return -1;
	for (size_t i = 0; i < r->n_senders; i++) {
		struct rpt_sender *s = &r->senders[i];
		if (check_sequence(r, s) < 0 || check_rate(r, s) < 0 || check_fields(r, s) < 0)
			return -1;
	}
	return 0;
}
