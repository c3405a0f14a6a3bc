/* Statistics output (see output.h) on the views of <v2x/stats.h>: table and CSV share one
 * "sheet" of text cells (the table aligns it, CSV joins it); JSON is libv2x's document. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <v2x/priority.h>
#include <v2x/stats.h>

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
static void cells_range(char (*c)[CELL], const struct v2x_stats_range *r, enum v2xcap_format fmt)
{
	if (r->n == 0) {
		const char *none = fmt == V2XCAP_FMT_CSV ? "" : "-";
		cell(c[0], "%s", none);
		cell(c[1], "%s", none);
		cell(c[2], "%s", none);
		return;
	}
	cell(c[0], "%" PRId64, r->min);
	cell(c[1], "%.1f", r->mean);
	cell(c[2], "%" PRId64, r->max);
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

/* The sheet printed as fmt says. */
static void sheet_print(FILE *out, const struct sheet *sh, enum v2xcap_format fmt)
{
	if (fmt == V2XCAP_FMT_CSV)
		sheet_print_csv(out, sh);
	else
		sheet_print_table(out, sh);
}

/* Column names shared by the table and CSV; the first is the dimension's. */
static const char *const dim_column[V2X_STATS_BY_ENCAP] = {"type", "psid", "channel_mhz",
							    "sender"};

static int print_groups(FILE *out, enum v2xcap_format fmt, enum v2x_stats_dim d,
			struct v2x_stats *s, const struct v2x_stats_totals *t)
{
	const char *const head[15] = {
		dim_column[d], "frames", "share", "rate_per_s", "bytes_min", "bytes_mean",
		"bytes_max", "rssi_min_dbm", "rssi_mean_dbm", "rssi_max_dbm", "signed",
		"unsigned", "encrypted", "errors", "trailing",
	};
	struct v2x_stats_group g = {.size = sizeof(g)};
	struct sheet sh;
	if (sheet_init(&sh, head, 15, V2X_STATS_MAX_GROUPS) < 0)
		return -1;
	for (size_t i = 0; v2x_stats_get_group(s, d, i, &g) == 1; i++) {
		char (*c)[CELL] = sheet_row(&sh);
		cell(c[0], "%s", g.key);
		cell(c[1], "%" PRIu64, g.frames);
		cell_ratio(c[2], g.share, fmt);
		cell(c[3], "%.2f", g.rate_per_s);
		cells_range(c + 4, &g.bytes, fmt);
		cells_range(c + 7, &g.rssi_dbm, fmt);
		cell(c[10], "%" PRIu64, g.signed_frames);
		cell(c[11], "%" PRIu64, g.unsigned_frames);
		cell(c[12], "%" PRIu64, g.encrypted_frames);
		cell(c[13], "%" PRIu64, g.errors);
		cell(c[14], "%" PRIu64, g.trailing);
	}
	sheet_print(out, &sh, fmt);
	if (fmt == V2XCAP_FMT_TABLE)
		for (size_t i = 0; v2x_stats_get_group(s, d, i, &g) == 1; i++)
			if (g.note)
				fprintf(out, "%s: %s (J2735 schema %s)\n", g.key, g.note,
					t->j2735_edition);
	free(sh.cells);
	return 0;
}

static const char *const bsm_head[14] = {
	"temporary_id", "messages", "rate_hz", "rate_ratio_to_10hz", "iat_p50_ms",
	"iat_p95_ms", "iat_max_ms", "msgcnt_lost", "loss_ratio", "duplicates", "age_min_ms",
	"age_mean_ms", "age_max_ms", "clock",
};

static void cell_ms(char *c, bool has, double ms, enum v2xcap_format fmt)
{
	if (!has)
		cell(c, "%s", fmt == V2XCAP_FMT_CSV ? "" : "-");
	else
		cell(c, "%.1f", ms);
}

static int print_bsm(FILE *out, enum v2xcap_format fmt, struct v2x_stats *s)
{
	struct v2x_stats_bsm_sender b = {.size = sizeof(b)};
	struct sheet sh;
	if (sheet_init(&sh, bsm_head, 14, V2X_STATS_MAX_BSM_SENDERS) < 0)
		return -1;
	for (size_t i = 0; v2x_stats_get_bsm_sender(s, i, &b) == 1; i++) {
		char (*c)[CELL] = sheet_row(&sh);
		cell(c[0], "%08" PRIX32, b.temporary_id);
		cell(c[1], "%" PRIu64, b.messages);
		cell(c[2], "%.2f", b.rate_hz);
		cell_ratio(c[3], b.rate_ratio_to_10hz, fmt);
		cell_ms(c[4], b.has_iat, b.iat_p50_ms, fmt);
		cell_ms(c[5], b.has_iat, b.iat_p95_ms, fmt);
		cell_ms(c[6], b.has_iat, b.iat_max_ms, fmt);
		cell(c[7], "%" PRIu64, b.msgcnt_lost);
		cell_ratio(c[8], b.loss_ratio, fmt);
		cell(c[9], "%" PRIu64, b.duplicates);
		cells_range(c + 10, &b.age_ms, fmt);
		cell(c[13], "%s", b.age_ms.n == 0 ? "-" : b.unsynchronised ? "unsync" : "ok");
	}
	sheet_print(out, &sh, fmt);
	free(sh.cells);
	return 0;
}

static const char *const encap_head[4] = {"encap", "frames", "bytes", "errors"};

static int print_encap(FILE *out, enum v2xcap_format fmt, struct v2x_stats *s,
		       const struct v2x_stats_totals *t)
{
	struct v2x_stats_group g = {.size = sizeof(g)};
	struct sheet sh;
	if (sheet_init(&sh, encap_head, 4, t->n_encap) < 0)
		return -1;
	for (size_t i = 0; v2x_stats_get_group(s, V2X_STATS_BY_ENCAP, i, &g) == 1; i++) {
		char (*c)[CELL] = sheet_row(&sh);
		cell(c[0], "%s", g.key);
		cell(c[1], "%" PRIu64, g.frames);
		cell(c[2], "%" PRIu64, g.octets);
		cell(c[3], "%" PRIu64, g.errors);
	}
	sheet_print(out, &sh, fmt);
	free(sh.cells);
	return 0;
}

void v2xcap_format_utc(char *buf, size_t len, int64_t us)
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

/* The summary's encapsulation line: the ones seen in the order of the "encapsulation"
 * object (their value), when some frame had one besides "none". */
static int print_encap_line(FILE *out, struct v2x_stats *s, const struct v2x_stats_totals *t)
{
	struct v2x_stats_group *g = calloc(t->n_encap ? t->n_encap : 1, sizeof(*g));
	if (!g)
		return -1;
	bool other = false;
	for (size_t i = 0; i < t->n_encap; i++) {
		size_t k = i;
		g[i].size = sizeof(g[i]);
		v2x_stats_get_group(s, V2X_STATS_BY_ENCAP, i, &g[i]);
		other |= strcmp(g[i].key, "none") != 0;
		for (struct v2x_stats_group x = g[i]; k > 0 && g[k - 1].value > x.value; k--) {
			g[k] = g[k - 1]; /* insertion by value */
			g[k - 1] = x;
		}
	}
	if (other) {
		fprintf(out, "encapsulation:");
		for (size_t i = 0; i < t->n_encap; i++)
			fprintf(out, " %s %" PRIu64, g[i].key, g[i].frames);
		fputc('\n', out);
	}
	free(g);
	return 0;
}

static int print_summary(FILE *out, struct v2x_stats *s, const struct v2x_stats_totals *t)
{
	fprintf(out, "frames %" PRIu64 ": WSMP %" PRIu64 ", not WSMP %" PRIu64, t->frames,
		t->wsmp, t->not_wsmp);
	if (t->filter)
		fprintf(out, ", filtered out %" PRIu64, t->filtered_out);
	if (t->sliced)
		fprintf(out, ", cut by the snap length %" PRIu64, t->sliced);
	if (t->malformed)
		fprintf(out, ", malformed %" PRIu64, t->malformed);
	if (t->frames) {
		char a[40], b[40];
		v2xcap_format_utc(a, sizeof(a), t->first_us);
		v2xcap_format_utc(b, sizeof(b), t->last_us);
		fprintf(out, "; span %.3f s (%s .. %s)", t->span_s, a, b);
	}
	fputc('\n', out);
	if (t->not_wsmp) {
		/* the causes in the order (and with the names) of the document's not_wsmp */
		const struct {
			const char *name;
			uint64_t n;
		} why[] = {
			{"link_error", t->not_wsmp_link_error}, {"not_data", t->not_wsmp_not_data},
			{"protected", t->not_wsmp_protected},
			{"other_ethertype", t->not_wsmp_other_ethertype},
			{"bad_wsmp", t->not_wsmp_bad_wsmp}, {"bad_fcs", t->not_wsmp_bad_fcs},
		};
		fprintf(out, "not WSMP:");
		for (size_t r = 0; r < sizeof(why) / sizeof(why[0]); r++)
			if (why[r].n)
				fprintf(out, " %s %" PRIu64, why[r].name, why[r].n);
		fputc('\n', out);
	}
	return print_encap_line(out, s, t);
}

static void print_overflow(FILE *out, const struct v2x_stats_totals *t)
{
	const struct {
		const char *name;
		uint64_t n;
	} dims[] = {
		{"type", t->overflow_type}, {"psid", t->overflow_psid},
		{"channel", t->overflow_channel}, {"sender", t->overflow_sender},
	};
	for (size_t d = 0; d < sizeof(dims) / sizeof(dims[0]); d++)
		if (dims[d].n)
			fprintf(out, "note: %" PRIu64 " frames beyond the %d-%s table cap\n",
				dims[d].n, V2X_STATS_MAX_GROUPS, dims[d].name);
	if (t->bsm_overflow)
		fprintf(out, "note: %" PRIu64 " BSMs beyond the %d-sender cap\n", t->bsm_overflow,
			V2X_STATS_MAX_BSM_SENDERS);
	if (t->bsm_unreadable)
		fprintf(out, "note: %" PRIu64 " BSMs too short for their core data\n",
			t->bsm_unreadable);
}

static void prio_frames(const struct v2x_stats_totals *t, const struct v2x_stats_priority *p,
			char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < p->n_frames && used < len; i++) {
		int n = t->priority_files
				? snprintf(buf + used, len - used, "%s%s:%" PRIu64, i ? " " : "",
					   p->frames[i].file, p->frames[i].frame)
				: snprintf(buf + used, len - used, "%s%" PRIu64, i ? " " : "",
					   p->frames[i].frame);
		used += n > 0 ? (size_t)n : 0;
	}
}

/* Table (aligned, "-" for none) or CSV (empty for none); names and numbers hold no comma. */
static void print_priority(FILE *out, enum v2xcap_format fmt, struct v2x_stats *s,
			   const struct v2x_stats_totals *t)
{
	struct v2x_stats_priority p = {.size = sizeof(p)};
	bool csv = fmt == V2XCAP_FMT_CSV;
	const char *none = csv ? "" : "-";
	if (csv)
		fprintf(out, "kind,sender,messages,frames,events\n");
	else
		fprintf(out, "%-13s  %-17s  %8s  %-24s  %s\n", "kind", "sender", "messages",
			"frames", "events");
	for (size_t i = 0; v2x_stats_get_priority(s, i, &p) == 1; i++) {
		char frames[V2X_STATS_PRIORITY_FRAMES * 48], events[200] = "";
		const char *sender = p.sender[0] ? p.sender : none;
		prio_frames(t, &p, frames, sizeof(frames));
		if (p.kind == V2X_PRIO_BSM_EVENTS)
			v2x_priority_events_text(p.events, events, sizeof(events));
		const char *kind = v2x_priority_kind_name(p.kind);
		if (csv)
			fprintf(out, "%s,%s,%" PRIu64 ",%s,%s\n", kind, sender, p.messages, frames,
				events);
		else
			fprintf(out, "%-13s  %-17s  %8" PRIu64 "  %-24s  %s\n", kind, sender,
				p.messages, frames, events[0] ? events : none);
	}
	if (!csv && t->priority_overflow)
		fprintf(out, "note: %" PRIu64 " priority messages beyond the %d-entry cap\n",
			t->priority_overflow, V2X_STATS_MAX_PRIORITY);
}

static int print_table(FILE *out, enum v2xcap_view view, struct v2x_stats *s,
		       const struct v2x_stats_totals *t)
{
	if (print_summary(out, s, t) < 0)
		return -1;
	fputc('\n', out);
	if (t->n_priority || view == V2XCAP_VIEW_PRIORITY) {
		fprintf(out, "Priority messages (emergency first)\n");
		print_priority(out, V2XCAP_FMT_TABLE, s, t);
		if (view == V2XCAP_VIEW_PRIORITY)
			return 0;
		fputc('\n', out);
	}
	if (view == V2XCAP_VIEW_BSM) {
		if (print_bsm(out, V2XCAP_FMT_TABLE, s) < 0)
			return -1;
	} else {
		enum v2xcap_format table = V2XCAP_FMT_TABLE;
		if ((view == V2XCAP_VIEW_ENCAP
			     ? print_encap(out, table, s, t)
			     : print_groups(out, table, (enum v2x_stats_dim)view, s, t)) < 0)
			return -1;
		if (t->n_bsm_senders) {
			fprintf(out, "\nBSM senders (TemporaryID)\n");
			if (print_bsm(out, V2XCAP_FMT_TABLE, s) < 0)
				return -1;
		}
	}
	print_overflow(out, t);
	return 0;
}

/* JSON: the document libv2x writes (v2x_stats_json), one line. */
static int print_json(FILE *out, struct v2x_stats *s)
{
	const char *json;
	size_t len;
	if (v2x_stats_json(s, &json, &len) < 0)
		return -1;
	fwrite(json, 1, len, out);
	return 0;
}

/* The view in fmt, from the totals t. */
static int print(FILE *out, enum v2xcap_format fmt, enum v2xcap_view view, struct v2x_stats *s,
		 const struct v2x_stats_totals *t)
{
	if (fmt == V2XCAP_FMT_JSON)
		return print_json(out, s);
	if (fmt == V2XCAP_FMT_TABLE)
		return print_table(out, view, s, t);
	if (view == V2XCAP_VIEW_PRIORITY) {
		print_priority(out, fmt, s, t);
		return 0;
	}
	if (view == V2XCAP_VIEW_BSM)
		return print_bsm(out, fmt, s);
	if (view == V2XCAP_VIEW_ENCAP)
		return print_encap(out, fmt, s, t);
	return print_groups(out, fmt, (enum v2x_stats_dim)view, s, t);
}

int v2xcap_output_stats(FILE *out, enum v2xcap_format fmt, enum v2xcap_view view,
			struct v2x_stats *s)
{
	struct v2x_stats_totals t = {.size = sizeof(t)};
	int r = v2x_stats_get_totals(s, &t) < 0 ? -1 : print(out, fmt, view, s, &t);
	if (fflush(out) != 0 || ferror(out))
		return -1;
	return r;
}
