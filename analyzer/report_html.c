/* v2xcap report: the self-contained HTML page: priority findings first, plots as inline
 * SVG (message mix, per-sender rate and age, tracks and MAP lanes), the findings table,
 * the per-sender, security and requirement tables. No script, no style or font from the network. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "report.h"

#define PLOT_W 760
#define PLOT_H 220
#define MAP_H 420
#define MARGIN 48
#define MAX_PLOT_SENDERS 8
#define AGE_RANGE 4
#define MAX_AGE_POINTS 2000       /* per sender: the age plot keeps every n-th BSM */
#define N_COLOURS 9
#define HTML_FRAMES 6             /* frames listed per finding (JSON has RPT_MAX_FRAMES) */

static const char *const colours[N_COLOURS] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#17becf", "#7f7f7f",
};

static void esc(FILE *o, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", o); break;
		case '>': fputs("&gt;", o); break;
		case '&': fputs("&amp;", o); break;
		case '"': fputs("&quot;", o); break;
		default: fputc(*s, o);
		}
	}
}

/* A plot's data space mapped onto the SVG's inner rectangle */
struct axes {
	double x0, x1, y0, y1;
	int w, h;
};

static double px(const struct axes *a, double x)
{
	return MARGIN + (a->x1 > a->x0 ? (x - a->x0) / (a->x1 - a->x0) : 0.5) * (a->w - 2 * MARGIN);
}

static double py(const struct axes *a, double y)
{
	return a->h - MARGIN + (a->y1 > a->y0 ? -(y - a->y0) / (a->y1 - a->y0) : -0.5) *
		(a->h - 2 * MARGIN);
}

static void svg_begin(FILE *o, const char *id, const struct axes *a, const char *xlabel,
		      const char *ylabel, int decimals)
{
	fprintf(o, "<svg class=\"plot\" id=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		   "xmlns=\"http://www.w3.org/2000/svg\">\n", id, a->w, a->h, a->w, a->h);
	fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
		   "stroke=\"#999\"/>\n", MARGIN, MARGIN, a->w - 2 * MARGIN, a->h - 2 * MARGIN);
	fprintf(o, "<g font-size=\"11\" fill=\"#333\">"
		   "<text x=\"%d\" y=\"%d\">%.*f</text>"
		   "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.*f</text>"
		   "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.*f</text>"
		   "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.*f</text>"
		   "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>"
		   "<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" "
		   "text-anchor=\"middle\">%s</text></g>\n",
		MARGIN, a->h - MARGIN + 14, decimals, a->x0,
		a->w - MARGIN, a->h - MARGIN + 14, decimals, a->x1,
		MARGIN - 4, a->h - MARGIN, decimals, a->y0,
		MARGIN - 4, MARGIN + 10, decimals, a->y1,
		a->w / 2, a->h - 8, xlabel, a->h / 2, a->h / 2, ylabel);
}

static void legend(FILE *o, int i, const char *name)
{
	fprintf(o, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"%s\">%s</text>\n",
		MARGIN + 4 + (i % 6) * 115, 14 + (i / 6) * 13, colours[i % N_COLOURS], name);
}

static const char *type_name(unsigned type, char *buf, size_t len)
{
	return v2x_tally_key_name(V2X_BY_TYPE, type, buf, len);
}

/* Messages per second of each type over time, a point per bin (report.h: mix). */
static void plot_mix(FILE *o, const struct report *r)
{
	double bin_s = r->mix_bin_us / 1e6;
	uint32_t max = 1;
	for (size_t s = 0; s < r->n_bins; s++)
		for (unsigned c = 0; c <= r->n_mix_types; c++)
			max = r->mix[s][c] > max ? r->mix[s][c] : max;
	struct axes a = {0, r->n_bins > 1 ? (double)(r->n_bins - 1) * bin_s : 1, 0,
			 max / (bin_s > 0 ? bin_s : 1), PLOT_W, PLOT_H};
	svg_begin(o, "plot-mix", &a, "seconds from the first frame", "messages / s", 0);
	bool other = false;
	for (size_t s = 0; s < r->n_bins; s++)
		other |= r->mix[s][RPT_MIX_MAX_TYPES] > 0;
	for (unsigned c = 0; c <= RPT_MIX_MAX_TYPES; c++) {
		if (c >= r->n_mix_types && !(c == RPT_MIX_MAX_TYPES && other))
			continue;
		char buf[32];
		legend(o, (int)c, c < r->n_mix_types ? type_name(r->mix_types[c], buf, sizeof(buf))
						     : "other");
		fprintf(o, "<polyline fill=\"none\" stroke-width=\"1.5\" stroke=\"%s\" points=\"",
			colours[c % N_COLOURS]);
		for (size_t s = 0; s < r->n_bins; s++)
			fprintf(o, "%.1f,%.1f ", px(&a, (double)s * bin_s),
				py(&a, r->mix[s][c] / bin_s));
		if (r->n_bins == 1) /* one bin: a level line across */
			fprintf(o, "%.1f,%.1f", px(&a, 1), py(&a, r->mix[0][c] / bin_s));
		fputs("\"/>\n", o);
	}
	fputs("</svg>\n", o);
}

/* The senders drawn: the ones with the most BSMs */
static size_t top_senders(const struct report *r, const struct rpt_sender **out)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_senders; i++) {
		const struct rpt_sender *s = &r->senders[i];
		size_t k = n < MAX_PLOT_SENDERS ? n++ : MAX_PLOT_SENDERS;
		if (k == MAX_PLOT_SENDERS) {
			if (out[k - 1]->n >= s->n)
				continue;
			k--;
		}
		while (k > 0 && out[k - 1]->n < s->n) {
			out[k] = out[k - 1];
			k--;
		}
		out[k] = s;
	}
	return n;
}

/* A sender's BSMs per second, second by second in its samples' order: fn(ctx, second,
 * count) for each second with BSMs, and a 0 after and before each silent stretch (so the
 * line drops there). Memory and points grow with the samples, not with the capture's
 * span (a log of several years has few seconds with messages). */
static void sender_seconds(const struct report *r, const struct rpt_sender *s,
			   void (*fn)(void *ctx, double sec, uint32_t count), void *ctx)
{
	int64_t cur = 0;
	uint32_t n = 0;
	for (size_t k = 0; k < s->n; k++) {
		int64_t sec = (s->s[k].at.ts_us - r->first_us) / 1000000;
		if (n && sec == cur) {
			n++;
			continue;
		}
		if (n) {
			fn(ctx, (double)cur, n);
			if (sec > cur + 1)
				fn(ctx, (double)cur + 1, 0);
			if (sec > cur + 2)
				fn(ctx, (double)sec - 1, 0);
		}
		cur = sec;
		n = 1;
	}
	if (n)
		fn(ctx, (double)cur, n);
}

static void rate_max(void *ctx, double sec, uint32_t count)
{
	(void)sec;
	double *max = ctx;
	if (count > *max)
		*max = count;
}

struct rate_line {
	FILE *o;
	const struct axes *a;
	size_t points;
	double last_sec;
	uint32_t last_count;
};

static void rate_point(void *ctx, double sec, uint32_t count)
{
	struct rate_line *l = ctx;
	fprintf(l->o, "%.1f,%.1f ", px(l->a, sec), py(l->a, count));
	l->points++;
	l->last_sec = sec;
	l->last_count = count;
}

static void plot_rate(FILE *o, const struct report *r, const struct rpt_sender **top,
		      size_t n)
{
	double span = (double)(r->last_us - r->first_us) / 1e6;
	struct axes a = {0, span > 1 ? floor(span) : 1, 0, 15, PLOT_W, PLOT_H};
	for (size_t i = 0; i < n; i++)
		sender_seconds(r, top[i], rate_max, &a.y1);
	svg_begin(o, "plot-rate", &a, "seconds from the first frame", "BSMs / s per sender", 0);
	fprintf(o, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" "
		   "stroke-dasharray=\"4 3\"/><text x=\"%d\" y=\"%.1f\" font-size=\"10\" "
		   "fill=\"#666\">10 Hz</text>\n", MARGIN, PLOT_W - MARGIN, py(&a, 10),
		py(&a, 10), PLOT_W - MARGIN - 34, py(&a, 10) - 3);
	for (size_t i = 0; i < n; i++) {
		char id[12];
		snprintf(id, sizeof(id), "%08x", top[i]->id);
		legend(o, (int)i, id);
		fprintf(o, "<polyline fill=\"none\" stroke-width=\"1.5\" stroke=\"%s\" points=\"",
			colours[i % N_COLOURS]);
		struct rate_line l = {o, &a, 0, 0, 0};
		sender_seconds(r, top[i], rate_point, &l);
		if (l.points == 1) /* one second: a level line across it */
			rate_point(&l, l.last_sec + 1, l.last_count);
		fputs("\"/>\n", o);
	}
	fputs("</svg>\n", o);
}

static void plot_age(FILE *o, const struct report *r, const struct rpt_sender **top,
		     size_t n)
{
	double span = (double)(r->last_us - r->first_us) / 1e6;
	/* ages beyond +-AGE_RANGE x the limit are drawn on the edge (the findings list them) */
	double lim = (double)r->max_age_ms * AGE_RANGE;
	struct axes a = {0, span > 0 ? span : 1, 0, (double)r->max_age_ms * 2, PLOT_W, PLOT_H};
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < top[i]->n; k++) {
			int32_t age = rpt_bsm_age_ms(r, &top[i]->s[k]);
			if (age != INT32_MIN && age > a.y1)
				a.y1 = fmin(age, lim);
			if (age != INT32_MIN && age < a.y0)
				a.y0 = fmax(age, -lim);
		}
	svg_begin(o, "plot-age", &a, "seconds from the first frame",
		  "BSM age, ms (clock offset removed)", 0);
	fprintf(o, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
		   "stroke-dasharray=\"4 3\"/>\n", MARGIN, PLOT_W - MARGIN,
		py(&a, (double)r->max_age_ms), py(&a, (double)r->max_age_ms));
	for (size_t i = 0; i < n; i++) {
		const struct rpt_sender *s = top[i];
		size_t step = s->n / MAX_AGE_POINTS + 1;
		char id[12];
		snprintf(id, sizeof(id), "%08x", s->id);
		legend(o, (int)i, id);
		fprintf(o, "<g fill=\"%s\">", colours[i % N_COLOURS]);
		for (size_t k = 0; k < s->n; k += step) {
			int32_t age = rpt_bsm_age_ms(r, &s->s[k]);
			if (age == INT32_MIN)
				continue;
			fprintf(o, "<circle r=\"2\" cx=\"%.1f\" cy=\"%.1f\"/>",
				px(&a, (double)(s->s[k].at.ts_us - r->first_us) / 1e6),
				py(&a, fmax(fmin(age, a.y1), a.y0)));
		}
		fputs("</g>\n", o);
	}
	fputs("</svg>\n", o);
}

/* One coverage series: a bin's value at its centre (PDR, or mean RSSI when rssi) */
static bool cov_value(const struct rpt_cov_bin *b, bool rssi, double *v)
{
	if (rssi ? !b->rssi_n : !b->expected)
		return false;
	*v = rssi ? (double)b->rssi_sum / (double)b->rssi_n : rpt_cov_pdr(b);
	return true;
}

static void cov_series(FILE *o, const struct report *r, const struct axes *a,
		       const struct rpt_cov_bin *b, bool rssi, const char *colour, bool line)
{
	double v;
	if (line) {
		fprintf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour);
		for (size_t i = 0; i < r->cov_n; i++)
			if (cov_value(&b[i], rssi, &v))
				fprintf(o, "%.1f,%.1f ", px(a, ((double)i + 0.5) * r->cov_bin_m), py(a, v));
		fputs("\"/>\n", o);
	}
	fprintf(o, "<g fill=\"%s\">", colour);
	for (size_t i = 0; i < r->cov_n; i++)
		if (cov_value(&b[i], rssi, &v))
			fprintf(o, "<circle r=\"%d\" cx=\"%.1f\" cy=\"%.1f\"/>", line ? 4 : 2,
				px(a, ((double)i + 0.5) * r->cov_bin_m), py(a, v));
	fputs("</g>\n", o);
}

/* PDR or RSSI against the distance from the receiver: all senders (the grey line), the
 * plotted senders (dots in their colours) */
static void plot_coverage(FILE *o, const struct report *r, const struct rpt_sender **top,
			  size_t n, bool rssi)
{
	struct axes a = {0, (double)r->cov_n * r->cov_bin_m, rssi ? -100 : 0, rssi ? -30 : 1,
			 PLOT_W, PLOT_H};
	double v;
	if (rssi) { /* the range the bins hold, in 10 dB steps */
		a.y0 = 0, a.y1 = -200;
		for (size_t i = 0; i < r->cov_n; i++)
			if (cov_value(&r->cov[i], true, &v)) {
				a.y0 = fmin(a.y0, floor(v / 10) * 10);
				a.y1 = fmax(a.y1, ceil(v / 10) * 10);
			}
		if (a.y1 < a.y0)
			a.y0 = -100, a.y1 = -30;
		else if (a.y1 == a.y0)
			a.y0 -= 10;
	}
	svg_begin(o, rssi ? "plot-rssi" : "plot-pdr", &a, "distance from the receiver, m",
		  rssi ? "mean RSSI, dBm" : "packet delivery ratio", rssi ? 0 : 1);
	legend(o, N_COLOURS - 1, "all senders");
	cov_series(o, r, &a, r->cov, rssi, colours[N_COLOURS - 1], true);
	for (size_t i = 0; i < n; i++) {
		char id[12];
		snprintf(id, sizeof(id), "%08x", top[i]->id);
		legend(o, (int)i, id);
		cov_series(o, r, &a, top[i]->cov, rssi, colours[i % N_COLOURS], false);
	}
	fputs("</svg>\n", o);
}

static bool has_pos(const struct rpt_bsm_sample *s)
{
	return s->lat != V2X_DE_LATITUDE_UNAVAILABLE && s->lon != V2X_DE_LONGITUDE_UNAVAILABLE;
}

static void bounds_add(struct axes *a, double lat, double lon, bool *any)
{
	if (!*any) {
		a->x0 = a->x1 = lon;
		a->y0 = a->y1 = lat;
		*any = true;
		return;
	}
	a->x0 = lon < a->x0 ? lon : a->x0;
	a->x1 = lon > a->x1 ? lon : a->x1;
	a->y0 = lat < a->y0 ? lat : a->y0;
	a->y1 = lat > a->y1 ? lat : a->y1;
}

/* Tracks and lanes on one equirectangular projection, north up, same scale both ways. */
static void plot_map(FILE *o, const struct report *r, const struct rpt_sender **top, size_t n)
{
	struct axes a = {0, 0, 0, 0, PLOT_W, MAP_H};
	bool any = false;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < top[i]->n; k++)
			if (has_pos(&top[i]->s[k]))
				bounds_add(&a, top[i]->s[k].lat / 1e7, top[i]->s[k].lon / 1e7, &any);
	for (size_t i = 0; i < r->n_maps; i++)
		for (unsigned l = 0; l < r->maps[i].x.n_lanes; l++)
			for (unsigned k = 0; k < r->maps[i].x.lanes[l].n_nodes; k++)
				bounds_add(&a, r->maps[i].x.lanes[l].lat[k],
					   r->maps[i].x.lanes[l].lon[k], &any);
	/* equal metres per pixel: widen the narrower extent around its centre */
	double k = cos((a.y0 + a.y1) / 2 * 3.14159265358979323846 / 180);
	double wx = (a.x1 - a.x0) * k, wy = a.y1 - a.y0;
	double inner_w = PLOT_W - 2 * MARGIN, inner_h = MAP_H - 2 * MARGIN;
	double need = fmax(fmax(wx / inner_w, wy / inner_h), 1e-7);
	double cx = (a.x0 + a.x1) / 2, cy = (a.y0 + a.y1) / 2;
	a.x0 = cx - need * inner_w / k / 2;
	a.x1 = cx + need * inner_w / k / 2;
	a.y0 = cy - need * inner_h / 2;
	a.y1 = cy + need * inner_h / 2;
	svg_begin(o, "plot-map", &a, "longitude", "latitude", 3);
	for (size_t i = 0; i < r->n_maps; i++)
		for (unsigned l = 0; l < r->maps[i].x.n_lanes; l++) {
			const struct rpt_lane *ln = &r->maps[i].x.lanes[l];
			if (ln->n_nodes < 2)
				continue;
			fprintf(o, "<polyline class=\"lane\" fill=\"none\" stroke=\"#555\" "
				   "stroke-width=\"3\" stroke-opacity=\"0.5\" points=\"");
			for (unsigned q = 0; q < ln->n_nodes; q++)
				fprintf(o, "%.1f,%.1f ", px(&a, ln->lon[q]), py(&a, ln->lat[q]));
			fprintf(o, "\"><title>intersection %ld lane %ld</title></polyline>\n",
				r->maps[i].x.id, ln->id);
		}
	for (size_t i = 0; i < n; i++) {
		char id[12];
		snprintf(id, sizeof(id), "%08x", top[i]->id);
		legend(o, (int)i, id);
		fprintf(o, "<polyline class=\"track\" fill=\"none\" stroke-width=\"2\" "
			   "stroke=\"%s\" points=\"", colours[i % N_COLOURS]);
		size_t drawn = 0;
		for (size_t q = 0; q < top[i]->n; q++)
			if (has_pos(&top[i]->s[q])) {
				fprintf(o, "%.1f,%.1f ", px(&a, top[i]->s[q].lon / 1e7),
					py(&a, top[i]->s[q].lat / 1e7));
				drawn++;
			}
		fputs("\"/>\n", o);
		/* a sender heard once (or standing still) still shows as a dot */
		for (size_t q = 0; q < top[i]->n && drawn; q++)
			if (has_pos(&top[i]->s[q])) {
				fprintf(o, "<circle r=\"3\" fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\"/>\n",
					colours[i % N_COLOURS], px(&a, top[i]->s[q].lon / 1e7),
					py(&a, top[i]->s[q].lat / 1e7));
				break;
			}
	}
	fputs("</svg>\n", o);
}

static void findings_table(FILE *o, const struct report *r, bool priority)
{
	size_t shown = 0;
	for (size_t i = 0; i < r->findings.n; i++)
		shown += (r->findings.f[i].severity == RPT_PRIORITY) == priority;
	if (!shown) {
		fputs(priority ? "<p>No emergency messages, no BSM event flags.</p>\n"
			       : "<p>No findings.</p>\n", o);
		return;
	}
	fputs("<table><tr><th>severity</th><th>requirement</th><th>sender</th><th>what</th>"
	      "<th>count</th><th>frames</th></tr>\n", o);
	for (size_t i = 0; i < r->findings.n; i++) {
		const struct rpt_finding *f = &r->findings.f[i];
		if ((f->severity == RPT_PRIORITY) != priority)
			continue;
		fprintf(o, "<tr class=\"%s\"><td>%s</td><td title=\"", rpt_severity_name(f->severity),
			rpt_severity_name(f->severity));
		esc(o, f->req->source);
		fputs("\"><b>", o);
		esc(o, f->req->id);
		fputs("</b> ", o);
		esc(o, f->req->title);
		fputs("</td><td>", o);
		esc(o, f->sender);
		fputs("</td><td>", o);
		esc(o, f->text);
		fprintf(o, "</td><td>%" PRIu64 "</td><td>", f->count);
		char buf[300];
		unsigned shown_frames = f->n_where < HTML_FRAMES ? f->n_where : HTML_FRAMES;
		for (unsigned k = 0; k < shown_frames; k++) {
			const char *where = rpt_where_str(r, &f->where[k], buf, sizeof(buf));
			const char *base = strrchr(where, '/'); /* the file's own name is enough */
			esc(o, base ? base + 1 : where);
			fputs(k + 1 < shown_frames ? ", " : "", o);
		}
		if (f->count > shown_frames)
			fputs(", ...", o);
		fputs("</td></tr>\n", o);
	}
	fputs("</table>\n", o);
}

static void senders_table(FILE *o, const struct report *r)
{
	if (!r->n_senders) {
		fputs("<p>No BSM decoded.</p>\n", o);
		return;
	}
	fputs("<table><tr><th>TemporaryID</th><th>BSMs</th><th>rate Hz</th><th>msgCnt gaps"
	      "</th><th>lost</th><th>repeats</th><th>wraps</th><th>stale</th>"
	      "<th>path history points (max)</th><th>path history m (max)</th></tr>\n", o);
	for (size_t i = 0; i < r->n_senders; i++) {
		const struct rpt_sender *s = &r->senders[i];
		fprintf(o, "<tr><td>%08x</td><td>%zu</td><td>%.2f</td><td>%" PRIu64 "</td><td>%"
			   PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
			   "</td><td>%u</td><td>%.0f</td></tr>\n",
			s->id, s->n, s->rate_hz, s->gaps, s->lost, s->repeats, s->wraps, s->stale,
			s->ph_points_max, s->ph_distance_max);
	}
	fputs("</table>\n", o);
}

static void security_table(FILE *o, const struct report *r)
{
	fputs("<table><tr><th>PSID</th><th>sender</th><th>no 1609.2</th><th>unsecured</th>"
	      "<th>signed, digest</th><th>signed, certificate</th><th>signed, other</th>"
	      "<th>encrypted</th><th>signatures verified / failed / not verifiable</th>"
	      "<th>capture - generationTime, ms</th><th>SSP the certificate grants (not "
	      "checked)</th></tr>\n", o);
	for (size_t i = 0; i < r->n_sec_groups; i++) {
		const struct rpt_sec *g = &r->sec[i];
		const char *name = v2x_psid_name(g->psid);
		fprintf(o, "<tr><td>0x%" PRIX32 " ", g->psid);
		esc(o, name ? name : "");
		fputs("</td><td>", o);
		if (g->has_mac)
			fprintf(o, "%02x:%02x:%02x:%02x:%02x:%02x", g->mac[0], g->mac[1], g->mac[2],
				g->mac[3], g->mac[4], g->mac[5]);
		fprintf(o, "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%"
			   PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
			   " / %" PRIu64 " / %" PRIu64 "</td><td>",
			g->none, g->unsecured, g->signed_digest, g->signed_cert, g->signed_other,
			g->encrypted, g->sig_verified, g->sig_failed, g->sig_unverified);
		if (g->gen_n)
			fprintf(o, "%" PRId64 " .. %" PRId64, g->gen_delta_min_ms, g->gen_delta_max_ms);
		fputs("</td><td>", o);
		if (g->has_ssp) {
			char buf[9 * RPT_SSP_MAX + 4];
			fprintf(o, "%s %s", v2x_dot2_ssp_kind_name(g->ssp_kind),
				rpt_ssp_hex(g->ssp, g->ssp_len, buf, sizeof(buf)));
			if (g->ssp_kind == V2X_DOT2_SSP_BITMAP)
				fprintf(o, "<br><small>%s</small>",
					rpt_ssp_bits(g->ssp, g->ssp_len, buf, sizeof(buf)));
			if (g->ssp_other)
				fprintf(o, "<br><small>%" PRIu64 " frames: another SSP</small>",
					g->ssp_other);
		}
		fputs("</td></tr>\n", o);
	}
	fputs("</table>\n", o);
}

/* Each requirement a finding names, once, with its source */
static void requirements_table(FILE *o, const struct report *r)
{
	if (!r->findings.n)
		return;
	fputs("<h2>Requirements and their sources</h2>\n<table><tr><th>requirement</th>"
	      "<th>what</th><th>source</th></tr>\n", o);
	for (size_t i = 0; i < r->findings.n; i++) {
		const struct rpt_requirement *q = r->findings.f[i].req;
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = r->findings.f[k].req == q;
		if (seen)
			continue;
		fputs("<tr><td>", o);
		esc(o, q->id);
		fputs("</td><td>", o);
		esc(o, q->title);
		fputs("</td><td>", o);
		esc(o, q->source);
		fputs("</td></tr>\n", o);
	}
	fputs("</table>\n", o);
}

static const char style[] =
	"body{font:14px/1.4 sans-serif;margin:1.5em;color:#222;max-width:1100px}"
	"table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;"
	"padding:2px 6px;text-align:left;vertical-align:top}th{background:#eee}"
	"small{color:#666}tr.priority{background:#fde0e0}tr.error{background:#fff0e0}"
	"tr.warning{background:#fffbe0}svg{display:block;margin:.5em 0}";

int rpt_write_html(const struct report *r, FILE *o)
{
	const struct rpt_sender *top[MAX_PLOT_SENDERS];
	size_t n_top = top_senders(r, top);
	fprintf(o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		   "<title>v2xcap report</title><style>%s</style></head><body>\n", style);
	fputs("<h1>V2X capture report</h1>\n<p>", o);
	for (size_t i = 0; i < r->n_files; i++) {
		esc(o, r->files[i]);
		fputs(i + 1 < r->n_files ? ", " : "", o);
	}
	fprintf(o, ": %" PRIu64 " frames over %.1f s, %" PRIu64 " J2735 messages (%" PRIu64
		   " BSM/MAP/SPaT not decoded), %zu BSM senders, %zu MAP intersections, %zu "
		   "SPaT intersection states.",
		r->frames, r->frames ? (double)(r->last_us - r->first_us) / 1e6 : 0.0, r->j2735,
		r->undecodable, r->n_senders, r->n_maps, r->n_spats);
	if (r->has_clock_offset)
		fprintf(o, " Receiver clock offset (estimated from BSM secMark): %d ms.",
			r->clock_offset_ms);
	fputs("</p>\n<h2>Priority: emergency messages</h2>\n", o);
	findings_table(o, r, true);
	fputs("<h2>Message mix over time</h2>\n", o);
	plot_mix(o, r);
	fputs("<h2>BSM rate per sender</h2>\n", o);
	plot_rate(o, r, top, n_top);
	fputs("<h2>BSM age per sender</h2>\n", o);
	plot_age(o, r, top, n_top);
	fputs("<h2>Tracks and MAP lanes</h2>\n", o);
	plot_map(o, r, top, n_top);
	if (r->has_rx && r->cov) {
		fprintf(o, "<h2>Coverage: BSMs against distance from the receiver (%.6f, %.6f)</h2>\n"
			   "<p>",
			r->rx_lat, r->rx_lon);
		if (r->rx_map)
			fprintf(o, "Receiver position taken from MAP intersection %ld's reference "
				   "point (no --rx-pos given). ",
				r->rx_map_id);
		fprintf(o, "Packet delivery ratio: BSMs received / expected from each sender's "
			   "msgCnt (the ones lost before a BSM count in its bin), %.0f m bins.</p>\n",
			r->cov_bin_m);
		plot_coverage(o, r, top, n_top, false);
		plot_coverage(o, r, top, n_top, true);
	}
	fputs("<h2>Findings</h2>\n<p>Sources: hover a requirement, or see the table at the "
	      "end.</p>\n", o);
	findings_table(o, r, false);
	fputs("<h2>BSM senders</h2>\n", o);
	senders_table(o, r);
	fputs("<h2>Security (IEEE 1609.2) per PSID and sender</h2>\n", o);
	security_table(o, r);
	requirements_table(o, r);
	fputs("<p><small>v2xcap report. Requirement sources are named per finding; thresholds "
	      "marked as the tool's are not from a standard.</small></p>\n</body></html>\n", o);
	return ferror(o) ? -1 : 0;
}
