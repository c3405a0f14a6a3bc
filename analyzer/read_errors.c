/* Reporting of capture-reading problems, capped per file (see read_errors.h). */
#include "read_errors.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void v2xcap_readerr_init(struct v2xcap_readerr *r, const char *cmd, void (*flush)(void *ctx),
		     void *ctx)
{
	memset(r, 0, sizeof(*r));
	r->cmd = cmd;
	r->flush = flush;
	r->ctx = ctx;
}

static void before_output(const struct v2xcap_readerr *r)
{
	if (r->flush)
		r->flush(r->ctx);
	fflush(stdout);
}

void v2xcap_readerr_file_error(struct v2xcap_readerr *r, const char *msg)
{
	before_output(r);
	fprintf(stderr, "v2xcap %s: %s\n", r->cmd, msg);
	r->file_errors++;
}

/* The entry of a file; NULL only when out of memory (the frame is then printed but not
 * counted per file). Frames of one file usually come in runs: the last one is tried
 * first. */
static struct v2xcap_readerr_file *file_of(struct v2xcap_readerr *r, const char *name)
{
	for (size_t i = r->n_files; i-- > 0;)
		if (r->files[i].name == name || strcmp(r->files[i].name, name) == 0)
			return &r->files[i];
	if (r->n_files == r->cap_files) {
		size_t cap = r->cap_files ? 2 * r->cap_files : 4;
		struct v2xcap_readerr_file *f = realloc(r->files, cap * sizeof(*f));
		if (!f)
			return NULL;
		r->files = f;
		r->cap_files = cap;
	}
	struct v2xcap_readerr_file *f = &r->files[r->n_files++];
	memset(f, 0, sizeof(*f));
	f->name = name;
	return f;
}

static void count_kind(struct v2xcap_readerr_file *f, const char *layer, const char *why)
{
	size_t i = 0;
	for (; i < f->n_kinds; i++)
		if (strcmp(f->kinds[i].layer, layer) == 0 && strcmp(f->kinds[i].why, why) == 0)
			break;
	if (i == f->n_kinds) {
		if (f->n_kinds == V2XCAP_READERR_KINDS) {
			i = V2XCAP_READERR_KINDS;
			f->kinds[i].layer = "";
			f->kinds[i].why = "other errors";
		} else {
			f->kinds[i].layer = layer;
			f->kinds[i].why = why;
			f->n_kinds++;
		}
	}
	f->kinds[i].count++;
}

void v2xcap_readerr_frame(struct v2xcap_readerr *r, const struct v2x_capframe *fr, const char *layer,
		      const char *why)
{
	struct v2xcap_readerr_file *f = file_of(r, fr->file);
	r->malformed++;
	if (f) {
		f->malformed++;
		count_kind(f, layer, why);
		if (f->malformed > V2XCAP_READERR_SHOWN)
			return;
	}
	before_output(r);
	fprintf(stderr, "v2xcap %s: %s: frame %" PRIu64 ": malformed %s: %s", r->cmd, fr->file,
		fr->number, layer, why);
	if (fr->caplen < fr->origlen) /* cut by the capture's snap length */
		fprintf(stderr, " (captured %" PRIu32 " of %" PRIu32 " octets)", fr->caplen,
			fr->origlen);
	fputc('\n', stderr);
}

void v2xcap_readerr_malformed(struct v2xcap_readerr *r, const struct v2x_capframe *fr,
			  const struct v2x_frame *f)
{
	v2xcap_readerr_frame(r, fr, v2x_layer_name(f->error_layer), f->error);
}

void v2xcap_readerr_finish(struct v2xcap_readerr *r)
{
	for (size_t i = 0; i < r->n_files; i++) {
		const struct v2xcap_readerr_file *f = &r->files[i];
		if (f->malformed <= V2XCAP_READERR_SHOWN)
			continue;
		before_output(r);
		fprintf(stderr, "v2xcap %s: %s: %" PRIu64 " malformed frames (the first %d shown):",
			r->cmd, f->name, f->malformed, V2XCAP_READERR_SHOWN);
		for (size_t k = 0; k <= V2XCAP_READERR_KINDS; k++)
			if (f->kinds[k].count)
				fprintf(stderr, "%s %" PRIu64 " %s%s%s", k ? "," : "",
					f->kinds[k].count, f->kinds[k].layer,
					f->kinds[k].layer[0] ? ": " : "", f->kinds[k].why);
		fputc('\n', stderr);
	}
	free(r->files);
	r->files = NULL;
	r->n_files = r->cap_files = 0;
}

int v2xcap_readerr_exit_code(const struct v2xcap_readerr *r, bool strict)
{
	return r->file_errors || (strict && r->malformed) ? V2XCAP_EXIT_FAILURE : V2XCAP_EXIT_OK;
}
