/* v2xcap report: coverage: with the receiver's position, how BSMs arrive with distance:
 * packet delivery ratio (received against expected from each sender's msgCnt) and RSSI
 * in distance bins, per sender and overall. */
#include <stdlib.h>

#include "report.h"

#define MAX_BINS 20
#define MSGCNT_MOD 128
/* Beyond this silence msgCnt may have wrapped unseen: the loss is unknown, not counted */
#define WRAP_US INT64_C(12800000) /* 128 BSMs at 10 Hz */

/* The narrowest of these that fits the farthest BSM in MAX_BINS bins */
static double bin_width(double max_m)
{
	static const double widths[] = {10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000};
	size_t n = sizeof(widths) / sizeof(widths[0]);
	for (size_t i = 0; i < n; i++)
		if (max_m / widths[i] < MAX_BINS)
			return widths[i];
	return max_m / (MAX_BINS - 1);
}

static bool positioned(const struct rpt_bsm_sample *s)
{
	return s->lat != V2X_DE_LATITUDE_UNAVAILABLE && s->lon != V2X_DE_LONGITUDE_UNAVAILABLE;
}

static double distance_of(const struct report *r, const struct rpt_bsm_sample *s)
{
	return rpt_distance_m(r->rx_lat, r->rx_lon, s->lat / 1e7, s->lon / 1e7);
}

double rpt_cov_pdr(const struct rpt_cov_bin *b)
{
	return b->expected ? (double)b->received / (double)b->expected : -1;
}

static void bin_add(struct rpt_cov_bin *b, const struct rpt_bsm_sample *s, uint64_t expected)
{
	b->received++;
	b->expected += expected;
	if (s->has_rssi) {
		b->rssi_sum += s->rssi_dbm;
		b->rssi_n++;
	}
}

/* Without --rx-pos: an RSU stands at its intersection, so the receiver of a capture
 * holding its MAP is near the MAP's reference point (the first intersection heard) */
static void rx_from_map(struct report *r)
{
	for (size_t i = 0; i < r->n_maps && !r->has_rx; i++)
		if (r->maps[i].x.has_ref) {
			r->has_rx = r->rx_map = true;
			r->rx_map_id = r->maps[i].x.id;
			r->rx_lat = r->maps[i].x.ref_lat;
			r->rx_lon = r->maps[i].x.ref_lon;
		}
}

int rpt_coverage(struct report *r)
{
	if (!r->has_rx)
		rx_from_map(r);
	if (!r->has_rx)
		return 0;
	double max_m = 0;
	for (size_t i = 0; i < r->n_senders; i++)
		for (size_t k = 0; k < r->senders[i].n; k++)
			if (positioned(&r->senders[i].s[k])) {
				double d = distance_of(r, &r->senders[i].s[k]);
				max_m = d > max_m ? d : max_m;
			}
	r->cov_bin_m = bin_width(max_m);
	r->cov_n = (size_t)(max_m / r->cov_bin_m) + 1;
	if (!(r->cov = calloc(r->cov_n, sizeof(*r->cov))))
		return -1;
	for (size_t i = 0; i < r->n_senders; i++) {
		struct rpt_sender *s = &r->senders[i];
		if (!(s->cov = calloc(r->cov_n, sizeof(*s->cov))))
			return -1;
		for (size_t k = 0; k < s->n; k++) {
			const struct rpt_bsm_sample *sm = &s->s[k], *prev = k ? &s->s[k - 1] : NULL;
			if (prev && sm->msg_cnt == prev->msg_cnt)
				continue; /* a repeat: neither expected nor received again */
			uint64_t expected = 1;
			if (prev && sm->at.ts_us - prev->at.ts_us < WRAP_US)
				expected += (uint64_t)((sm->msg_cnt - prev->msg_cnt - 1 + 2 * MSGCNT_MOD) %
						       MSGCNT_MOD);
			if (!positioned(sm))
				continue;
			size_t bin = (size_t)(distance_of(r, sm) / r->cov_bin_m);
			if (bin >= r->cov_n)
				bin = r->cov_n - 1;
			bin_add(&s->cov[bin], sm, expected);
			bin_add(&r->cov[bin], sm, expected);
		}
	}
	return 0;
}
