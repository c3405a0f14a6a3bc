/* Capture file iterator (see capfile.h): every file has its reader (capreader.c); a
 * min-heap on the next frame's timestamp merges them into one timeline, frame by frame. */
#define _DEFAULT_SOURCE
#include "capfile.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capreader.h"

/* Reads of V2X_RD_BUFSIZE, smaller when many files are merged, so memory stays bounded. */
#define BUFFER_TOTAL (4u << 20)
#define BUFFER_MAX V2X_RD_BUFSIZE
#define BUFFER_MIN (64u << 10)

struct source {
	const char *name;
	size_t index;           /* command-line order: the tie-break between equal times */
	uint64_t size;          /* octets, 0 when unknown */
	struct v2x_capreader *rd; /* NULL before opening and once finished */
	struct v2x_record head; /* its next frame, while it is in the heap */
};

struct v2x_capfile {
	struct source *src;
	size_t n, opened;       /* sources are opened in command-line order */
	size_t bufsize;
	struct source **heap;   /* sources with a head frame, earliest at heap[0] */
	size_t n_heap;
	struct source *pending; /* to be read before the next frame is chosen */
	bool pending_in_heap;   /* it is heap[0] (it gave the last frame) */
	uint64_t done_closed;   /* sizes of the finished files */
	uint64_t total;
	char err[1024];
};

static bool before(const struct source *a, const struct source *b)
{
	if (a->head.ts_ns != b->head.ts_ns)
		return a->head.ts_ns < b->head.ts_ns;
	return a->index < b->index;
}

static void sift_down(struct v2x_capfile *cf, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < cf->n_heap && before(cf->heap[l], cf->heap[m]))
			m = l;
		if (l + 1 < cf->n_heap && before(cf->heap[l + 1], cf->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		struct source *t = cf->heap[i];
		cf->heap[i] = cf->heap[m];
		cf->heap[m] = t;
		i = m;
	}
}

static void heap_push(struct v2x_capfile *cf, struct source *s)
{
	size_t i = cf->n_heap++;
	cf->heap[i] = s;
	while (i > 0 && before(cf->heap[i], cf->heap[(i - 1) / 2])) {
		struct source *t = cf->heap[i];
		cf->heap[i] = cf->heap[(i - 1) / 2];
		cf->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void heap_pop(struct v2x_capfile *cf)
{
	cf->heap[0] = cf->heap[--cf->n_heap];
	sift_down(cf, 0);
}

struct v2x_capfile *v2x_capfile_open(char *const *files, size_t n_files)
{
	struct v2x_capfile *cf = calloc(1, sizeof(*cf));
	if (!cf)
		return NULL;
	cf->src = calloc(n_files ? n_files : 1, sizeof(*cf->src));
	cf->heap = calloc(n_files ? n_files : 1, sizeof(*cf->heap));
	if (!cf->src || !cf->heap) {
		v2x_capfile_close(cf);
		return NULL;
	}
	cf->n = n_files;
	cf->bufsize = n_files ? BUFFER_TOTAL / n_files : BUFFER_MAX;
	cf->bufsize = cf->bufsize > BUFFER_MAX ? BUFFER_MAX
		: cf->bufsize < BUFFER_MIN ? BUFFER_MIN : cf->bufsize;
	for (size_t i = 0; i < n_files; i++) {
		struct source *s = &cf->src[i];
		struct stat st;
		s->name = files[i];
		s->index = i;
		if (strcmp(s->name, "-") != 0 && stat(s->name, &st) == 0 && S_ISREG(st.st_mode))
			s->size = (uint64_t)st.st_size;
		cf->total += s->size;
	}
	return cf;
}

static void finish_source(struct v2x_capfile *cf, struct source *s)
{
	v2x_capreader_close(s->rd);
	s->rd = NULL;
	cf->done_closed += s->size;
}

/* Reads the pending source's next frame into the heap (or retires the source); false
 * with cf->err on an error that is not fatal to the file (it is read again next time). */
static bool read_pending(struct v2x_capfile *cf)
{
	struct source *s = cf->pending;
	enum v2x_rd_result r = v2x_capreader_next(s->rd, &s->head);
	if (r == V2X_RD_ERROR) {
		snprintf(cf->err, sizeof(cf->err), "%s: %s", s->name,
			 v2x_capreader_error(s->rd));
		return false;
	}
	cf->pending = NULL;
	if (r == V2X_RD_RECORD) {
		if (cf->pending_in_heap)
			sift_down(cf, 0);
		else
			heap_push(cf, s);
	} else {
		if (cf->pending_in_heap)
			heap_pop(cf);
		finish_source(cf, s);
	}
	return true;
}

enum v2x_cap_result v2x_capfile_next(struct v2x_capfile *cf, struct v2x_capframe *fr)
{
	for (;;) {
		if (cf->pending) {
			if (!read_pending(cf))
				return V2X_CAP_ERROR;
			continue;
		}
		if (cf->opened < cf->n) {
			struct source *s = &cf->src[cf->opened++];
			char why[512];
			s->rd = v2x_capreader_open(s->name, cf->bufsize, why, sizeof(why));
			if (!s->rd) {
				snprintf(cf->err, sizeof(cf->err), "%s: %s", s->name, why);
				cf->done_closed += s->size;
				return V2X_CAP_ERROR;
			}
			cf->pending = s;
			cf->pending_in_heap = false;
			continue;
		}
		if (cf->n_heap == 0)
			return V2X_CAP_END;
		struct source *s = cf->heap[0];
		fr->file = s->name;
		fr->number = s->head.number;
		fr->ts_ns = s->head.ts_ns;
		fr->linktype = s->head.linktype;
		fr->caplen = s->head.caplen;
		fr->origlen = s->head.origlen;
		fr->data = s->head.data;
		cf->pending = s;
		cf->pending_in_heap = true;
		return V2X_CAP_FRAME;
	}
}

const char *v2x_capfile_error(const struct v2x_capfile *cf)
{
	return cf->err;
}

void v2x_capfile_progress(const struct v2x_capfile *cf, uint64_t *done, uint64_t *total)
{
	uint64_t d = cf->done_closed;
	for (size_t i = 0; i < cf->opened; i++)
		if (cf->src[i].rd && cf->src[i].size)
			d += v2x_capreader_offset(cf->src[i].rd);
	*done = d;
	*total = cf->total;
}

void v2x_capfile_close(struct v2x_capfile *cf)
{
	if (!cf)
		return;
	for (size_t i = 0; cf->src && i < cf->n; i++)
		v2x_capreader_close(cf->src[i].rd);
	free(cf->src);
	free(cf->heap);
	free(cf);
}
