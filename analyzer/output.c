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
#define NOMINAL_BSM_HZ 10.0

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
static void cells_minmax(char (*c)[CELL], const struct v2xcap_minmax *m, enum v2xcap_format fmt)
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

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

static double rate(uint64_t n, const struct v2xcap_stats *s)
{
	double span = v2xcap_stats_span_s(s);
	return span > 0 ? (double)n / span : 0.0;
}

/* A message type the build's schema does not decode in full: "not in this edition" ... */
static const char *type_note(enum v2xcap_dimension d, uint64_t key)
{
	return d == V2XCAP_BY_TYPE && key <= 32767 ? j2735dec_id_note((long)key) : NULL;
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
static const char *const dim_column[V2XCAP_N_DIMS] = {"type", "psid", "channel_mhz", "sender"};

static int print_groups(FILE *out, enum v2xcap_format fmt, enum v2xcap_dimension d,
			const struct v2xcap_stats *s)
{
	const char *const head[15] = {
		dim_column[d], "frames", "share", "rate_per_s", "bytes_min", "bytes_mean",
		"bytes_max", "rssi_min_dbm", "rssi_mean_dbm", "rssi_max_dbm", "signed",
		"unsigned", "encrypted", "errors", "trailing",
	};
	const struct v2xcap_group **g = malloc(V2XCAP_STATS_MAX_GROUPS * sizeof(*g));
	struct sheet sh;
	if (!g || sheet_init(&sh, head, 15, V2XCAP_STATS_MAX_GROUPS) < 0) {
		free(g);
		return -1;
	}
	size_t n = v2xcap_stats_groups(s, d, g, V2XCAP_STATS_MAX_GROUPS);
	for (size_t i = 0; i < n; i++) {
		char (*c)[CELL] = sheet_row(&sh);
		char name[CELL];
		cell(c[0], "%s", v2xcap_stats_key_name(d, g[i]->key, name, sizeof(name)));
		cell(c[1], "%" PRIu64, g[i]->frames);
		cell_ratio(c[2], share(g[i]->frames, s->wsmp), fmt);
		cell(c[3], "%.2f", rate(g[i]->frames, s));
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
			const char *note = type_note(d, g[i]->key);
			char name[CELL];
			if (note)
				fprintf(out, "%s: %s (J2735 schema %s)\n",
					v2xcap_stats_key_name(d, g[i]->key, name, sizeof(name)), note,
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

static double loss_ratio(const struct v2xcap_bsm_sender *b)
{
	return share(b->lost, b->lost + b->messages);
}

static int print_bsm(FILE *out, enum v2xcap_format fmt, const struct v2xcap_stats *s)
{
	const struct v2xcap_bsm_sender **b = malloc(V2XCAP_STATS_MAX_BSM_SENDERS * sizeof(*b));
	struct sheet sh;
	if (!b || sheet_init(&sh, bsm_head, 14, V2XCAP_STATS_MAX_BSM_SENDERS) < 0) {
		free(b);
		return -1;
	}
	size_t n = v2xcap_stats_bsm_senders(s, b, V2XCAP_STATS_MAX_BSM_SENDERS);
	for (size_t i = 0; i < n; i++) {
		char (*c)[CELL] = sheet_row(&sh);
		double hz = v2xcap_bsm_rate(b[i]);
		cell(c[0], "%08" PRIX32, b[i]->id);
		cell(c[1], "%" PRIu64, b[i]->messages);
		cell(c[2], "%.2f", hz);
		cell_ratio(c[3], hz / NOMINAL_BSM_HZ, fmt);
		cell_ms(c[4], v2xcap_bsm_iat_percentile(b[i], 50), fmt);
		cell_ms(c[5], v2xcap_bsm_iat_percentile(b[i], 95), fmt);
		cell_ms(c[6], b[i]->messages > 1 ? b[i]->iat_max_us : -1, fmt);
		cell(c[7], "%" PRIu64, b[i]->lost);
		cell_ratio(c[8], loss_ratio(b[i]), fmt);
		cell(c[9], "%" PRIu64, b[i]->duplicates);
		cells_minmax(c + 10, &b[i]->age_ms, fmt);
		cell(c[13], "%s", b[i]->age_ms.n == 0 ? "-" :
			 v2xcap_bsm_unsynchronised(b[i]) ? "unsync" : "ok");
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

static int print_encap(FILE *out, enum v2xcap_format fmt, const struct v2xcap_stats *s)
{
	enum v2x_encap e[V2X_ENCAP_COUNT];
	struct sheet sh;
	if (sheet_init(&sh, encap_head, 4, V2X_ENCAP_COUNT) < 0)
		return -1;
	size_t n = v2xcap_stats_encaps(s, e);
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

static void print_summary(FILE *out, const struct v2xcap_stats *s)
{
	uint64_t nonwsmp = 0;
	for (int r = 0; r < V2XCAP_NONWSMP_N; r++)
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
		fprintf(out, "; span %.3f s (%s .. %s)", v2xcap_stats_span_s(s), a, b);
	}
	fputc('\n', out);
	if (nonwsmp) {
		fprintf(out, "not WSMP:");
		for (int r = 0; r < V2XCAP_NONWSMP_N; r++)
			if (s->nonwsmp[r])
				fprintf(out, " %s %" PRIu64, v2xcap_nonwsmp_name((enum v2xcap_nonwsmp)r),
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

static void print_overflow(FILE *out, const struct v2xcap_stats *s)
{
	for (int d = 0; d < V2XCAP_N_DIMS; d++)
		if (s->dims[d].overflow)
			fprintf(out, "note: %" PRIu64 " frames beyond the %d-%s table cap\n",
				s->dims[d].overflow, V2XCAP_STATS_MAX_GROUPS,
				v2xcap_dimension_name((enum v2xcap_dimension)d));
	if (s->bsm.overflow)
		fprintf(out, "note: %" PRIu64 " BSMs beyond the %d-sender cap\n", s->bsm.overflow,
			V2XCAP_STATS_MAX_BSM_SENDERS);
	if (s->bsm.unreadable)
		fprintf(out, "note: %" PRIu64 " BSMs too short for their core data\n",
			s->bsm.unreadable);
}

static int print_priority(FILE *out, enum v2xcap_format fmt, const struct v2xcap_prio_list *l);

static int print_table(FILE *out, enum v2xcap_view view, const struct v2xcap_stats *s,
		       const struct v2xcap_prio_list *prio)
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
			     : print_groups(out, V2XCAP_FMT_TABLE, (enum v2xcap_dimension)view, s)) < 0)
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

/* JSON, through the project's JSON writer */

static void json_minmax(struct json_writer *w, const char *name, const struct v2xcap_minmax *m)
{
	json_key(w, name);
	if (m->n == 0) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	json_int_field(w, "min", m->min);
	json_double_field(w, "mean", (double)m->sum / (double)m->n, 3);
	json_int_field(w, "max", m->max);
	json_end_object(w);
}

/* Microseconds as milliseconds; null when negative (not enough messages). */
static void json_ms_field(struct json_writer *w, const char *key, int64_t us)
{
	json_key(w, key);
	if (us < 0)
		json_null(w);
	else
		json_double(w, (double)us / 1000.0, 3);
}

static int json_groups(struct json_writer *w, enum v2xcap_dimension d, const struct v2xcap_stats *s)
{
	const struct v2xcap_group **g = malloc(V2XCAP_STATS_MAX_GROUPS * sizeof(*g));
	if (!g)
		return -1;
	size_t n = v2xcap_stats_groups(s, d, g, V2XCAP_STATS_MAX_GROUPS);
	char name[CELL];
	snprintf(name, sizeof(name), "by_%s", v2xcap_dimension_name(d));
	json_key(w, name);
	json_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		const char *key = v2xcap_stats_key_name(d, g[i]->key, name, sizeof(name));
		json_begin_object(w);
		json_string_field(w, "key", key);
		json_key(w, "value");
		if (strcmp(key, "-") == 0)
			json_null(w);
		else
			json_uint(w, g[i]->key);
		json_uint_field(w, "frames", g[i]->frames);
		json_double_field(w, "share", share(g[i]->frames, s->wsmp), 6);
		json_double_field(w, "rate_per_s", rate(g[i]->frames, s), 6);
		json_minmax(w, "bytes", &g[i]->bytes);
		json_minmax(w, "rssi_dbm", &g[i]->rssi);
		json_uint_field(w, "signed", g[i]->signed_);
		json_uint_field(w, "unsigned", g[i]->unsigned_);
		json_uint_field(w, "encrypted", g[i]->encrypted);
		json_uint_field(w, "errors", g[i]->errors);
		json_uint_field(w, "trailing", g[i]->trailing);
		const char *note = type_note(d, g[i]->key);
		if (note) {
			json_string_field(w, "note", note);
		}
		json_end_object(w);
	}
	json_end_array(w);
	snprintf(name, sizeof(name), "overflow_%s", v2xcap_dimension_name(d));
	json_uint_field(w, name, s->dims[d].overflow);
	free(g);
	return 0;
}

static void json_encap(struct json_writer *w, const struct v2xcap_stats *s)
{
	enum v2x_encap e[V2X_ENCAP_COUNT];
	size_t n = v2xcap_stats_encaps(s, e);
	json_key(w, "by_encap");
	json_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(w);
		json_string_field(w, "key", v2x_encap_name(e[i]));
		json_uint_field(w, "frames", s->encap[e[i]]);
		json_uint_field(w, "bytes", s->encap_bytes[e[i]]);
		json_uint_field(w, "errors", s->encap_errors[e[i]]);
		json_end_object(w);
	}
	json_end_array(w);
}

static int json_bsm(struct json_writer *w, const struct v2xcap_stats *s)
{
	const struct v2xcap_bsm_sender **b = malloc(V2XCAP_STATS_MAX_BSM_SENDERS * sizeof(*b));
	if (!b)
		return -1;
	size_t n = v2xcap_stats_bsm_senders(s, b, V2XCAP_STATS_MAX_BSM_SENDERS);
	json_key(w, "bsm_senders");
	json_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		char id[9];
		double hz = v2xcap_bsm_rate(b[i]);
		snprintf(id, sizeof(id), "%08" PRIX32, b[i]->id);
		json_begin_object(w);
		json_string_field(w, "temporary_id", id);
		json_uint_field(w, "messages", b[i]->messages);
		json_double_field(w, "rate_hz", hz, 6);
		json_double_field(w, "rate_ratio_to_10hz", hz / NOMINAL_BSM_HZ, 6);
		json_key(w, "iat_ms");
		json_begin_object(w);
		json_ms_field(w, "p50", v2xcap_bsm_iat_percentile(b[i], 50));
		json_ms_field(w, "p95", v2xcap_bsm_iat_percentile(b[i], 95));
		json_ms_field(w, "max", b[i]->messages > 1 ? b[i]->iat_max_us : -1);
		json_end_object(w);
		json_uint_field(w, "msgcnt_lost", b[i]->lost);
		json_double_field(w, "loss_ratio", loss_ratio(b[i]), 6);
		json_uint_field(w, "duplicates", b[i]->duplicates);
		json_minmax(w, "age_ms", &b[i]->age_ms);
		json_bool_field(w, "unsynchronised", v2xcap_bsm_unsynchronised(b[i]));
		json_end_object(w);
	}
	json_end_array(w);
	json_uint_field(w, "bsm_overflow", s->bsm.overflow);
	json_uint_field(w, "bsm_unreadable", s->bsm.unreadable);
	free(b);
	return 0;
}

/* Priority messages: emergency first, then in the order first heard. */

static int prio_cmp(const void *a, const void *b)
{
	const struct v2xcap_prio_entry *x = *(const struct v2xcap_prio_entry *const *)a;
	const struct v2xcap_prio_entry *y = *(const struct v2xcap_prio_entry *const *)b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x < y ? -1 : x > y; /* the list is in the order first heard */
}

static const struct v2xcap_prio_entry **prio_sorted(const struct v2xcap_prio_list *l)
{
	const struct v2xcap_prio_entry **e = malloc((l->n ? l->n : 1) * sizeof(*e));
	if (!e)
		return NULL;
	for (size_t i = 0; i < l->n; i++)
		e[i] = &l->e[i];
	qsort(e, l->n, sizeof(*e), prio_cmp);
	return e;
}

/* The sender as stats names it everywhere: TemporaryID as temporary_id, else the MAC. */
static const char *prio_sender(const struct v2xcap_prio_entry *e, char *buf, size_t len)
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

static void prio_frames(const struct v2xcap_prio_list *l, const struct v2xcap_prio_entry *e,
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
static int print_priority(FILE *out, enum v2xcap_format fmt, const struct v2xcap_prio_list *l)
{
	const struct v2xcap_prio_entry **e = prio_sorted(l);
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
		char who[24], frames[V2XCAP_PRIO_FRAMES * 48], events[200] = "";
		const char *sender = prio_sender(e[i], who, sizeof(who));
		prio_frames(l, e[i], frames, sizeof(frames));
		if (e[i]->kind == V2XCAP_PRIO_BSM_EVENTS)
			v2xcap_prio_events_text(e[i]->events, events, sizeof(events));
		const char *kind = v2xcap_prio_kind_name(e[i]->kind);
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
			l->overflow, V2XCAP_PRIO_MAX_ENTRIES);
	free(e);
	return 0;
}

static int json_priority(struct json_writer *w, const struct v2xcap_prio_list *l)
{
	const struct v2xcap_prio_entry **e = prio_sorted(l);
	if (!e)
		return -1;
	json_key(w, "priority");
	json_begin_array(w);
	for (size_t i = 0; i < l->n; i++) {
		char who[24], events[200];
		const char *sender = prio_sender(e[i], who, sizeof(who));
		json_begin_object(w);
		json_string_field(w, "kind", v2xcap_prio_kind_name(e[i]->kind));
		json_key(w, "sender");
		if (sender)
			json_string(w, sender);
		else
			json_null(w);
		json_uint_field(w, "messages", e[i]->messages);
		if (e[i]->is_bsm) {
			v2xcap_prio_events_text(e[i]->events, events, sizeof(events));
			json_string_field(w, "events", events);
		}
		json_key(w, "frames");
		json_begin_array(w);
		for (unsigned k = 0; k < e[i]->n_frames; k++) {
			json_begin_object(w);
			json_string_field(w, "file", e[i]->frames[k].file);
			json_uint_field(w, "frame", e[i]->frames[k].frame);
			json_end_object(w);
		}
		json_end_array(w);
		json_end_object(w);
	}
	json_end_array(w);
	json_uint_field(w, "priority_overflow", l->overflow);
	free(e);
	return 0;
}

static int print_json(FILE *out, const struct v2xcap_stats *s,
		      const struct v2xcap_prio_list *prio)
{
	struct json_writer w;
	json_init(&w, out);
	json_begin_object(&w);
	json_uint_field(&w, "frames", s->frames);
	json_uint_field(&w, "bytes", s->bytes);
	json_uint_field(&w, "sliced", s->sliced);
	json_uint_field(&w, "malformed", s->malformed);
	json_uint_field(&w, "wsmp", s->wsmp);
	json_uint_field(&w, "filtered_out", s->filtered_out);
	json_key(&w, "filter");
	if (s->filter.by_type || s->filter.by_psid) {
		json_begin_object(&w);
		if (s->filter.by_type)
			json_uint_field(&w, "type", s->filter.msg_id);
		else
			json_uint_field(&w, "psid", s->filter.psid);
		json_end_object(&w);
	} else {
		json_null(&w);
	}
	json_key(&w, "first_time");
	if (s->frames)
		json_double(&w, (double)s->first_us / 1e6, 6);
	else
		json_null(&w);
	json_key(&w, "last_time");
	if (s->frames)
		json_double(&w, (double)s->last_us / 1e6, 6);
	else
		json_null(&w);
	json_double_field(&w, "span_s", v2xcap_stats_span_s(s), 6);
	if (prio && json_priority(&w, prio) < 0)
		return -1;
	json_key(&w, "not_wsmp");
	json_begin_object(&w);
	for (int r = 0; r < V2XCAP_NONWSMP_N; r++)
		json_uint_field(&w, v2xcap_nonwsmp_name((enum v2xcap_nonwsmp)r), s->nonwsmp[r]);
	json_end_object(&w);
	json_key(&w, "encapsulation");
	json_begin_object(&w);
	for (int e = 0; e < V2X_ENCAP_COUNT; e++)
		json_uint_field(&w, v2x_encap_name((enum v2x_encap)e), s->encap[e]);
	json_end_object(&w);
	for (int d = 0; d < V2XCAP_N_DIMS; d++)
		if (json_groups(&w, (enum v2xcap_dimension)d, s) < 0)
			return -1;
	json_encap(&w, s);
	if (json_bsm(&w, s) < 0)
		return -1;
	json_end_object(&w);
	fputc('\n', out);
	return 0;
}

int v2xcap_output_stats(FILE *out, enum v2xcap_format fmt, enum v2xcap_view view,
		     const struct v2xcap_stats *s)
{
	return v2xcap_output_stats_prio(out, fmt, view, s, NULL);
}

int v2xcap_output_stats_prio(FILE *out, enum v2xcap_format fmt, enum v2xcap_view view,
			     const struct v2xcap_stats *s, const struct v2xcap_prio_list *prio)
{
	static const struct v2xcap_prio_list no_prio;
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
		r = print_groups(out, fmt, (enum v2xcap_dimension)view, s);
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

void v2xcap_series_interval(void *series_out, const struct v2xcap_interval *iv)
{
	struct v2xcap_series_out *o = series_out;
	char name[CELL];
	double start = (double)iv->start_us / 1e6;
	if (o->fmt == V2XCAP_FMT_CSV) {
		fprintf(o->out, "%.6f,all,%" PRIu64 "\n", start, iv->total);
		for (size_t i = 0; i < iv->n_types; i++)
			fprintf(o->out, "%.6f,%s,%" PRIu64 "\n", start,
				v2xcap_stats_key_name(V2XCAP_BY_TYPE, iv->type_keys[i], name,
						   sizeof(name)), iv->counts[i]);
	} else if (o->fmt == V2XCAP_FMT_JSON) {
		struct json_writer *w = &o->json;
		json_begin_object(w);
		json_double_field(w, "start", start, 6);
		json_uint_field(w, "frames", iv->total);
		json_key(w, "by_type");
		json_begin_object(w);
		for (size_t i = 0; i < iv->n_types; i++)
			json_uint_field(w, v2xcap_stats_key_name(V2XCAP_BY_TYPE, iv->type_keys[i], name,
							      sizeof(name)), iv->counts[i]);
		json_end_object(w);
		json_end_object(w);
	} else {
		char t[40];
		format_utc(t, sizeof(t), iv->start_us);
		fprintf(o->out, "%-24s  %8" PRIu64 " ", t, iv->total);
		for (size_t i = 0; i < iv->n_types; i++)
			fprintf(o->out, " %s:%" PRIu64,
				v2xcap_stats_key_name(V2XCAP_BY_TYPE, iv->type_keys[i], name,
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
