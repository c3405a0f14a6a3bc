/* v2xcap report: BSM conformance per sender (TemporaryID): transmit rate, msgCnt
 * continuity, message age, and the part II and core fields SAE J2945/1 asks for.
 * The SAE text was not at hand when this was written: sources name the J2945/1 topic,
 * the J2735 data element, and for thresholds that are this tool's own, say so. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define NOMINAL_HZ 10.0
#define RATE_TOLERANCE 0.1        /* a sender's mean rate within 10 % of nominal */
#define MAX_ITT_US INT64_C(600000) /* longest inter-transmit time congestion control gives */
#define OFFSET_PERCENTILE 5

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
};
static const char *const missing_text[RPT_MISSING_N] = {
	"no path history", "no path prediction", "position accuracy unavailable",
	"elevation unavailable", "heading unavailable", "speed unavailable",
	"vehicle width or length 0",
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
			if (s->s[i].lat != RPT_LAT_UNAVAILABLE && s->s[i].lon != RPT_LON_UNAVAILABLE) {
				f->has_pos = true;
				f->lat = s->s[i].lat / 1e7;
				f->lon = s->s[i].lon / 1e7;
				break;
			}
	return f;
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
			if (!(f = finding(r, k == 0 || k == 1 || k == 6 ? RPT_WARNING : RPT_INFO,
					  &req_missing[k], s)))
				return -1;
			rpt_finding_at(f, &b->at);
		}
	}
	for (int k = 0; k < RPT_MISSING_N; k++) {
		struct rpt_finding *f;
		if (count[k] && (f = finding(r, RPT_INFO, &req_missing[k], s)))
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
