/* <v2x/stats.h> over the tally (stats.c), the priority list (priority.c), their views
 * (stats_view.c) and JSON (stats_json.c). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "json.h"
#include "stats_handle.h"

struct v2x_stats *v2x_stats_new(char *errbuf)
{
	if (!errbuf)
		return NULL;
	struct v2x_stats *s = calloc(1, sizeof(*s));
	if (!s || v2x_tally_init(&s->t, NULL) < 0) {
		free(s);
		snprintf(errbuf, V2X_ERRBUF_SIZE, "v2x_stats_new: out of memory");
		return NULL;
	}
	s->t.encap_view = true; /* the JSON holds every view */
	return s;
}

int v2x_stats_count(struct v2x_stats *s, const struct v2x_frame *f,
		    const struct v2x_sample *sm, const char *file, uint64_t number)
{
	uint64_t passed = s->t.wsmp;
	v2x_tally_add(&s->t, f, sm);
	int r = s->t.wsmp != passed ? v2x_prio_list_add(&s->prio, f, file, number) : 0;
	s->counted++;
	return r;
}

/* The copy of file the list can point to: the last one again, or a new copy. */
static const char *file_copy(struct v2x_stats *s, const char *file)
{
	if (s->n_files && strcmp(s->files[s->n_files - 1], file) == 0)
		return s->files[s->n_files - 1];
	for (size_t i = 0; i < s->n_files; i++) /* files merged by time come in turns */
		if (strcmp(s->files[i], file) == 0)
			return s->files[i];
	char **more = realloc(s->files, (s->n_files + 1) * sizeof(*more));
	if (!more)
		return NULL;
	s->files = more;
	return (s->files[s->n_files] = strdup(file)) ? s->files[s->n_files++] : NULL;
}

int v2x_stats_add(struct v2x_stats *s, const char *file, const struct v2x_record *rec,
		  const struct v2x_frame *f)
{
	if (!s)
		return V2X_EINVAL;
	s->err[0] = '\0';
	if (!rec || !f) {
		snprintf(s->err, sizeof s->err, "v2x_stats_add: no %s given", rec ? "frame" : "record");
		return V2X_EINVAL;
	}
	const char *name = file_copy(s, file ? file : "-");
	struct v2x_sample sm = {rec->ts_ns / 1000, rec->caplen, rec->origlen};
	if (!name || v2x_stats_count(s, f, &sm, name, rec->number) < 0) {
		snprintf(s->err, sizeof s->err, "v2x_stats_add: out of memory (frame %llu of %s)",
			 (unsigned long long)rec->number, file ? file : "-");
		return V2X_ENOMEM;
	}
	return V2X_OK;
}

int v2x_stats_json(struct v2x_stats *s, const char **json, size_t *len)
{
	if (!s || !json)
		return V2X_EINVAL;
	s->err[0] = '\0';
	struct json_writer *w = malloc(sizeof(*w)); /* 64 KiB of buffer: not on the stack */
	v2x_buf_reset(&s->json);
	s->json.err = false;
	if (w) {
		json_init_buf(w, &s->json);
		int r = v2x_stats_write_json(w, s);
		if (json_flush(w) < 0)
			r = -1;
		free(w);
		v2x_put(&s->json, "\n", 2); /* the line's end, and the NUL after it */
		if (r == 0 && !s->json.err) {
			*json = (const char *)s->json.p;
			if (len)
				*len = s->json.len - 1;
			return V2X_OK;
		}
	}
	snprintf(s->err, sizeof s->err, "v2x_stats_json: out of memory");
	return V2X_ENOMEM;
}

const char *v2x_stats_geterr(const struct v2x_stats *s)
{
	return s ? s->err : "v2x_stats_geterr: no statistics given";
}

void v2x_stats_free(struct v2x_stats *s)
{
	if (!s)
		return;
	v2x_tally_free(&s->t);
	v2x_prio_list_free(&s->prio);
	v2x_stats_order_free(&s->order);
	for (size_t i = 0; i < s->n_files; i++)
		free(s->files[i]);
	free(s->files);
	v2x_buf_free(&s->json);
	free(s);
}
