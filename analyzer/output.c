/* Statistics output (see output.h): table and CSV share one "sheet" of text cells (the
 * table aligns it, CSV joins it); JSON is written directly in its documented shape. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "j2735dec.h"
#include "json.h"
#include "output.h"

#define CELL 32

struct sheet {
	size_t ncols, nrows;
	const char *const *head;
	char (*cells)[CELL];    /* nrows * ncols */
};

static int sheet_init(struct sheet *sh, const char *const *head, size_t ncols, size_t rows)
{
	sh->ncols = ncols;
	sh->nrows = 0;
	sh->head = head;
	sh->cells = calloc(rows ? rows * ncols : 1, CELL);
	return sh->cells ? 0 : -1;
}

static char (*sheet_row(struct sheet *sh))[CELL]
{
	return &sh->cells[sh->nrows++ * sh->ncols];
}

__attribute__((format(printf, 2, 3))) static void cell(char *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c, CELL, fmt, ap);
	va_end(ap);
}

/* Table: first column left-aligned, numbers right-aligned, two spaces between columns. */
static void sheet_print_table(FILE *out, const struct sheet *sh)
{
	size_t w[32] = {0};
	for (size_t c = 0; c < sh->ncols; c++)
		w[c] = strlen(sh->head[c]);
	for (size_t r = 0; r < sh->nrows; r++)
		for (size_t c = 0; c < sh->ncols; c++) {
			size_t l = strlen(sh->cells[r * sh->ncols + c]);
			if (l > w[c])
				w[c] = l;
		}
	for (size_t r = 0; r <= sh->nrows; r++) {
		for (size_t c = 0; c < sh->ncols; c++) {
			const char *t = r == 0 ? sh->head[c] : sh->cells[(r - 1) * sh->ncols + c];
			if (c == 0)
				fprintf(out, "%-*s", (int)w[c], t);
			else
				fprintf(out, "  %*s", (int)w[c], t);
		}
		fputc('\n', out);
	}
}

/* CSV (RFC 4180): no cell of ours holds a comma or a quote, so none needs quoting. */
static void sheet_print_csv(FILE *out, const struct sheet *sh)
{
	for (size_t r = 0; r <= sh->nrows; r++)
		for (size_t c = 0; c < sh->ncols; c++)
			fprintf(out, "%s%s", r == 0 ? sh->head[c] : sh->cells[(r - 1) * sh->ncols + c],
				c + 1 == sh->ncols ? "\n" : ",");
}

/* A min/mean/max triple into three cells; empty (CSV) or "-" (table) without samples. */
static void cells_minmax(char (*c)[CELL], const struct v2x_minmax *m, enum v2xcap_format fmt)
{
	if (m->n == 0) {
		const char *none = fmt == V2XCAP_FMT_CSV ? "" : "-";
		cell(c[0], "%s", none);
		cell(c[1], "%s", none);
		cell(c[2], "%s", none);
		return;
	}
	cell(c[0], "%" PRId64, m->min);
	cell(c[1], "%.1f", (double)m->sum / (double)m->n);
	cell(c[2], "%" PRId64, m->max);
}

/* A ratio (share, loss): as a number in CSV (the same as in JSON), as a percentage in the
 * table, under the same column name. */
static void cell_ratio(char *c, double ratio, enum v2xcap_format fmt)
{
	if (fmt == V2XCAP_FMT_CSV)
		cell(c, "%.4f", ratio);
	else
		cell(c, "%.1f%%", 100.0 * ratio);
}

/* Column names shared by the table and CSV; the first is the dimension's. */
static const char *const dim_column[V2X_N_DIMS] = {"type", "psid", "channel_mhz", "sender"};

static int print_groups(FILE *out, enum v2xcap_format fmt, enum v2x_dimension d,
			const struct v2x_tally *s)
{
	const char *const head[15] = {
		dim_column[d], "frames", "share", "rate_per_s", "bytes_min", "bytes_mean",
		"bytes_max", "rssi_min_dbm", "rssi_mean_dbm", "rssi_max_dbm", "signed",
		"unsigned", "encrypted", "errors", "trailing",
	};
	const struct v2x_group **g = malloc(V2X_TALLY_MAX_GROUPS * sizeof(*g));
	struct sheet sh;
	if (!g || sheet_init(&sh, head, 15, V2X_TALLY_MAX_GROUPS) < 0) {
		free(g);
		return -1;
	}
	size_t n = v2x_tally_groups(s, d, g, V2X_TALLY_MAX_GROUPS);
	for (size_t i = 0; i < n; i++) {
		char (*c)[CELL] = sheet_row(&sh);
		char name[CELL];
		cell(c[0], "%s", v2x_tally_key_name(d, g[i]->key, name, sizeof(name)));
		cell(c[1], "%" PRIu64, g[i]->frames);
		cell_ratio(c[2], v2x_tally_share(g[i]->frames, s->wsmp), fmt);
		cell(c[3], "%.2f", v2x_tally_rate(g[i]->frames, s));
		cells_minmax(c + 4, &g[i]->bytes, fmt);
		cells_minmax(c + 7, &g[i]->rssi, fmt);
		cell(c[10], "%" PRIu64, g[i]->signed_);
		cell(c[11], "%" PRIu64, g[i]->unsigned_);
		cell(c[12], "%" PRIu64, g[i]->encrypted);
		cell(c[13], "%" PRIu64, g[i]->errors);
		cell(c[14], "%" PRIu64, g[i]->trailing);
	}
	if (fmt == V2XCAP_FMT_CSV) {
		sheet_print_csv(out, &sh);
	} else {
		sheet_print_table(out, &sh);
		for (size_t i = 0; i < n; i++) {
			const char *note = v2x_tally_type_note(d, g[i]->key);
			char name[CELL];
			if (note)
				fprintf(out, "%s: %s (J2735 schema %s)\n",
					v2x_tally_key_name(d, g[i]->key, name, sizeof(name)), note,
					j2735dec_edition());
		}
	}
	free(sh.cells);
	free(g);
	return 0;
}

static const char *const bsm_head[14] = {
	"temporary_id", "messages", "rate_hz", "rate_ratio_to_10hz", "iat_p50_ms",
	"iat_p95_ms", "iat_max_ms", "msgcnt_lost", "loss_ratio", "duplicates", "age_min_ms",
	"age_mean_ms", "age_max_ms", "clock",
};

static void cell_ms(char *c, int64_t us, enum v2xcap_format fmt)
{
	if (us < 0)
		cell(c, "%s", fmt == V2XCAP_FMT_CSV ? "" : "-");
	else
		cell(c, "%.1f", (double)us / 1000.0);
}

static int print_bsm(FILE *out, enum v2xcap_format fmt, const struct v2x_tally *s)
{
	const struct v2x_bsm_sender **b = malloc(V2X_TALLY_MAX_BSM_SENDERS * sizeof(*b));
	struct sheet sh;
	if (!b || sheet_init(&sh, bsm_head, 14, V2X_TALLY_MAX_BSM_SENDERS) < 0) {
		free(b);
		return -1;
	}
	size_t n = v2x_tally_bsm_senders(s, b, V2X_TALLY_MAX_BSM_SENDERS);
	for (size_t i = 0; i < n; i++) {
		char (*c)[CELL] = sheet_row(&sh);
		double hz = v2x_bsm_rate(b[i]);
		cell(c[0], "%08" PRIX32, b[i]->id);
		cell(c[1], "%" PRIu64, b[i]->messages);
		cell(c[2], "%.2f", hz);
		cell_ratio(c[3], hz / V2X_BSM_NOMINAL_HZ, fmt);
		cell_ms(c[4], v2x_bsm_iat_percentile(b[i], 50), fmt);
		cell_ms(c[5], v2x_bsm_iat_percentile(b[i], 95), fmt);
		cell_ms(c[6], b[i]->messages > 1 ? b[i]->iat_max_us : -1, fmt);
		cell(c[7], "%" PRIu64, b[i]->lost);
		cell_ratio(c[8], v2x_bsm_loss_ratio(b[i]), fmt);
		cell(c[9], "%" PRIu64, b[i]->duplicates);
		cells_minmax(c + 10, &b[i]->age_ms, fmt);
		cell(c[13], "%s", b[i]->age_ms.n == 0 ? "-" :
			 v2x_bsm_unsynchronised(b[i]) ? "unsync" : "ok");
	}
	if (fmt == V2XCAP_FMT_CSV)
		sheet_print_csv(out, &sh);
	else
		sheet_print_table(out, &sh);
	free(sh.cells);
	free(b);
	return 0;
}

static const char *const encap_head[4] = {"encap", "frames", "bytes", "errors"};

static int print_encap(FILE *out, enum v2xcap_format fmt, const struct v2x_tally *s)
{
	enum v2x_encap e[V2X_ENCAP_COUNT];
	struct sheet sh;
	if (sheet_init(&sh, encap_head, 4, V2X_ENCAP_COUNT) < 0)
		return -1;
	size_t n = v2x_tally_encaps(s, e);
	for (size_t i = 0; i < n; i++) {
		char (*c)[CELL] = sheet_row(&sh);
		cell(c[0], "%s", v2x_encap_name(e[i]));
		cell(c[1], "%" PRIu64, s->encap[e[i]]);
		cell(c[2], "%" PRIu64, s->encap_bytes[e[i]]);
		cell(c[3], "%" PRIu64, s->encap_errors[e[i]]);
	}
	if (fmt == V2XCAP_FMT_CSV)
		sheet_print_csv(out, &sh);
	else
		sheet_print_table(out, &sh);
	free(sh.cells);
	return 0;
}

static void format_utc(char *buf, size_t len, int64_t us)
{
	time_t t = (time_t)(us >= 0 ? us / 1000000 : (us - 999999) / 1000000);
	struct tm tm;
	if (!gmtime_r(&t, &tm)) {
		snprintf(buf, len, "?");
		return;
	}
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03dZ", (int)((us - (int64_t)t * 1000000) / 1000));
}

static void print_summary(FILE *out, const struct v2x_tally *s)
{
	uint64_t nonwsmp = 0;
	for (int r = 0; r < V2X_NONWSMP_N; r++)
		nonwsmp += s->nonwsmp[r];
	fprintf(out, "frames %" PRIu64 ": WSMP %" PRIu64 ", not WSMP %" PRIu64, s->frames,
		s->wsmp, nonwsmp);
	if (s->filter.by_type || s->filter.by_psid)
		fprintf(out, ", filtered out %" PRIu64, s->filtered_out);
	if (s->sliced)
		fprintf(out, ", cut by the snap length %" PRIu64, s->sliced);
	if (s->malformed)
		fprintf(out, ", malformed %" PRIu64, s->malformed);
	if (s->frames) {
		char a[40], b[40];
		format_utc(a, sizeof(a), s->first_us);
		format_utc(b, sizeof(b), s->last_us);
		fprintf(out, "; span %.3f s (%s .. %s)", v2x_tally_span_s(s), a, b);
	}
	fputc('\n', out);
	if (nonwsmp) {
		fprintf(out, "not WSMP:");
		for (int r = 0; r < V2X_NONWSMP_N; r++)
			if (s->nonwsmp[r])
				fprintf(out, " %s %" PRIu64, v2x_nonwsmp_name((enum v2x_nonwsmp)r),
					s->nonwsmp[r]);
		fputc('\n', out);
	}
	if (s->encap[V2X_ENCAP_NONE] < s->frames) {
		fprintf(out, "encapsulation:");
		for (int e = 0; e < V2X_ENCAP_COUNT; e++)
			if (s->encap[e])
				fprintf(out, " %s %" PRIu64, v2x_encap_name((enum v2x_encap)e),
					s->encap[e]);
		fputc('\n', out);
	}
}

static void print_overflow(FILE *out, const struct v2x_tally *s)
{
	for (int d = 0; d < V2X_N_DIMS; d++)
		if (s->dims[d].overflow)
			fprintf(out, "note: %" PRIu64 " frames beyond the %d-%s table cap\n",
				s->dims[d].overflow, V2X_TALLY_MAX_GROUPS,
				v2x_dimension_name((enum v2x_dimension)d));
	if (s->bsm.overflow)
		fprintf(out, "note: %" PRIu64 " BSMs beyond the %d-sender cap\n", s->bsm.overflow,
			V2X_TALLY_MAX_BSM_SENDERS);
	if (s->bsm.unreadable)
		fprintf(out, "note: %" PRIu64 " BSMs too short for their core data\n",
			s->bsm.unreadable);
}

static int print_priority(FILE *out, enum v2xcap_format fmt, const struct v2x_prio_list *l);

static int print_table(FILE *out, enum v2xcap_view view, const struct v2x_tally *s,
		       const struct v2x_prio_list *prio)
{
	print_summary(out, s);
	fputc('\n', out);
	if (prio && (prio->n || view == V2XCAP_VIEW_PRIORITY)) {
		fprintf(out, "Priority messages (emergency first)\n");
		if (print_priority(out, V2XCAP_FMT_TABLE, prio) < 0)
			return -1;
		if (view == V2XCAP_VIEW_PRIORITY)
			return 0;
		fputc('\n', out);
	}
	if (view == V2XCAP_VIEW_BSM) {
		if (print_bsm(out, V2XCAP_FMT_TABLE, s) < 0)
			return -1;
	} else {
		if ((view == V2XCAP_VIEW_ENCAP
			     ? print_encap(out, V2XCAP_FMT_TABLE, s)
			     : print_groups(out, V2XCAP_FMT_TABLE, (enum v2x_dimension)view, s)) < 0)
			return -1;
		if (s->bsm.n) {
			fprintf(out, "\nBSM senders (TemporaryID)\n");
			if (print_bsm(out, V2XCAP_FMT_TABLE, s) < 0)
				return -1;
		}
	}
	print_overflow(out, s);
	return 0;
}

static void prio_frames(const struct v2x_prio_list *l, const struct v2x_prio_entry *e,
			char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < e->n_frames && used < len; i++) {
		int n = l->files ? snprintf(buf + used, len - used, "%s%s:%" PRIu64, i ? " " : "",
					    e->frames[i].file, e->frames[i].frame)
				 : snprintf(buf + used, len - used, "%s%" PRIu64, i ? " " : "",
					    e->frames[i].frame);
		used += n > 0 ? (size_t)n : 0;
	}
}

/* Table (aligned, "-" for none) or CSV (empty for none); names and numbers hold no comma. */
static int print_priority(FILE *out, enum v2xcap_format fmt, const struct v2x_prio_list *l)
{
	const struct v2x_prio_entry **e = v2x_prio_sorted(l);
	if (!e)
		return -1;
	bool csv = fmt == V2XCAP_FMT_CSV;
	const char *none = csv ? "" : "-";
	if (csv)
		fprintf(out, "kind,sender,messages,frames,events\n");
	else
		fprintf(out, "%-13s  %-17s  %8s  %-24s  %s\n", "kind", "sender", "messages",
			"frames", "events");
	for (size_t i = 0; i < l->n; i++) {
		char who[24], frames[V2X_PRIO_FRAMES * 48], events[200] = "";
		const char *sender = v2x_prio_sender(e[i], who, sizeof(who));
		prio_frames(l, e[i], frames, sizeof(frames));
		if (e[i]->kind == V2X_PRIO_BSM_EVENTS)
			v2x_priority_events_text(e[i]->events, events, sizeof(events));
		const char *kind = v2x_priority_kind_name(e[i]->kind);
		if (csv)
			fprintf(out, "%s,%s,%" PRIu64 ",%s,%s\n", kind, sender ? sender : none,
				e[i]->messages, frames, events);
		else
			fprintf(out, "%-13s  %-17s  %8" PRIu64 "  %-24s  %s\n", kind,
				sender ? sender : none, e[i]->messages, frames,
				events[0] ? events : none);
	}
	if (!csv && l->overflow)
		fprintf(out, "note: %" PRIu64 " priority messages beyond the %d-entry cap\n",
			l->overflow, V2X_PRIO_MAX_ENTRIES);
	free(e);
	return 0;
}

/* JSON: the document libv2x writes (lib/stats/stats_json.c), one line. */
static int print_json(FILE *out, const struct v2x_tally *s, const struct v2x_prio_list *prio)
{
	struct json_writer w;
	json_init(&w, out);
	if (v2x_tally_write_json(&w, s, prio) < 0)
		return -1;
	fputc('\n', out);
	return 0;
}

int v2xcap_output_stats(FILE *out, enum v2xcap_format fmt, enum v2xcap_view view,
		     const struct v2x_tally *s)
{
	return v2xcap_output_stats_prio(out, fmt, view, s, NULL);
}

int v2xcap_output_stats_prio(FILE *out, enum v2xcap_format fmt, enum v2xcap_view view,
			     const struct v2x_tally *s, const struct v2x_prio_list *prio)
{
	static const struct v2x_prio_list no_prio;
	if (!prio && view == V2XCAP_VIEW_PRIORITY)
		prio = &no_prio;
	int r;
	if (fmt == V2XCAP_FMT_JSON)
		r = print_json(out, s, prio);
	else if (fmt == V2XCAP_FMT_TABLE)
		r = print_table(out, view, s, prio);
	else if (view == V2XCAP_VIEW_PRIORITY)
		r = print_priority(out, fmt, prio);
	else if (view == V2XCAP_VIEW_BSM)
		r = print_bsm(out, fmt, s);
	else if (view == V2XCAP_VIEW_ENCAP)
		r = print_encap(out, fmt, s);
	else
		r = print_groups(out, fmt, (enum v2x_dimension)view, s);
	if (fflush(out) != 0 || ferror(out))
		return -1;
	return r;
}

/* Time series */

void v2xcap_series_begin(struct v2xcap_series_out *o, FILE *out, enum v2xcap_format fmt,
		      int64_t interval_us)
{
	o->out = out;
	o->fmt = fmt;
	if (fmt == V2XCAP_FMT_CSV)
		fprintf(out, "start,type,frames\n");
	else if (fmt == V2XCAP_FMT_JSON) {
		json_init(&o->json, out);
		json_begin_object(&o->json);
		json_double_field(&o->json, "interval_s", (double)interval_us / 1e6, 6);
		json_key(&o->json, "series");
		json_begin_array(&o->json);
	} else
		fprintf(out, "%-24s  %8s  %s\n", "start (UTC)", "frames", "per type");
}

void v2xcap_series_interval(void *series_out, const struct v2x_interval *iv)
{
	struct v2xcap_series_out *o = series_out;
	char name[CELL];
	double start = (double)iv->start_us / 1e6;
	if (o->fmt == V2XCAP_FMT_CSV) {
		fprintf(o->out, "%.6f,all,%" PRIu64 "\n", start, iv->total);
		for (size_t i = 0; i < iv->n_types; i++)
			fprintf(o->out, "%.6f,%s,%" PRIu64 "\n", start,
				v2x_tally_key_name(V2X_BY_TYPE, iv->type_keys[i], name,
						   sizeof(name)), iv->counts[i]);
	} else if (o->fmt == V2XCAP_FMT_JSON) {
		struct json_writer *w = &o->json;
		json_begin_object(w);
		json_double_field(w, "start", start, 6);
		json_uint_field(w, "frames", iv->total);
		json_key(w, "by_type");
		json_begin_object(w);
		for (size_t i = 0; i < iv->n_types; i++)
			json_uint_field(w, v2x_tally_key_name(V2X_BY_TYPE, iv->type_keys[i], name,
							      sizeof(name)), iv->counts[i]);
		json_end_object(w);
		json_end_object(w);
	} else {
		char t[40];
		format_utc(t, sizeof(t), iv->start_us);
		fprintf(o->out, "%-24s  %8" PRIu64 " ", t, iv->total);
		for (size_t i = 0; i < iv->n_types; i++)
			fprintf(o->out, " %s:%" PRIu64,
				v2x_tally_key_name(V2X_BY_TYPE, iv->type_keys[i], name,
						   sizeof(name)), iv->counts[i]);
		fputc('\n', o->out);
	}
}

void v2xcap_series_end(struct v2xcap_series_out *o)
{
	if (o->fmt == V2XCAP_FMT_JSON) {
		json_end_array(&o->json);
		json_end_object(&o->json);
		fputc('\n', o->out);
	}
	fflush(o->out);
}
