/* v2xcap report: the findings list: one finding per (requirement, sender), counting its
 * occurrences and keeping the first frames that show it. */
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct rpt_finding *rpt_finding(struct rpt_findings *fs, enum rpt_severity sev,
				const struct rpt_requirement *req, const char *sender)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->f[i].req == req && strcmp(fs->f[i].sender, sender) == 0)
			return &fs->f[i];
	if (fs->n == fs->cap) {
		size_t cap = fs->cap ? 2 * fs->cap : 16;
		void *p = realloc(fs->f, cap * sizeof(*fs->f));
		if (!p)
			return NULL;
		fs->f = p;
		fs->cap = cap;
	}
	struct rpt_finding *f = &fs->f[fs->n++];
	memset(f, 0, sizeof(*f));
	f->severity = sev;
	f->req = req;
	snprintf(f->sender, sizeof(f->sender), "%s", sender);
	return f;
}

void rpt_finding_at(struct rpt_finding *f, const struct rpt_where *w)
{
	f->count++;
	if (f->n_where < RPT_MAX_FRAMES)
		f->where[f->n_where++] = *w;
}

int rpt_note(struct rpt_findings *fs, enum rpt_severity sev, const struct rpt_requirement *req,
	     const char *sender, const struct rpt_where *w, const char *text)
{
	struct rpt_finding *f = rpt_finding(fs, sev, req, sender);
	if (!f)
		return -1;
	if (!f->count)
		snprintf(f->text, sizeof(f->text), "%s", text);
	rpt_finding_at(f, w);
	return 0;
}

static int finding_cmp(const void *a, const void *b)
{
	const struct rpt_finding *x = a, *y = b;
	if (x->severity != y->severity)
		return x->severity < y->severity ? -1 : 1;
	if (x->severity == RPT_PRIORITY) {
		/* as `stats` lists them: by kind (prio_reqs[] is in kind order), then first heard */
		if (x->req != y->req)
			return x->req < y->req ? -1 : 1;
		const struct rpt_where *u = &x->where[0], *v = &y->where[0];
		if (u->file != v->file)
			return u->file < v->file ? -1 : 1;
		return u->frame < v->frame ? -1 : u->frame > v->frame;
	}
	int c = strcmp(x->req->id, y->req->id);
	return c ? c : strcmp(x->sender, y->sender);
}

void rpt_findings_sort(struct rpt_findings *fs)
{
	if (fs->n)
		qsort(fs->f, fs->n, sizeof(*fs->f), finding_cmp);
}

void rpt_findings_free(struct rpt_findings *fs)
{
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
}

const char *rpt_severity_name(enum rpt_severity s)
{
	static const char *const names[] = {"priority", "error", "warning", "info"};
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}
