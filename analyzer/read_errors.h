/* What went wrong while reading captures, on stderr, told the same way by every command
 * that reads files (dump, stats, decode, send's replay):
 * - a file-level failure (cannot open, not a capture, truncated, unsupported link type)
 *   is always printed, and makes the exit code 1;
 * - a malformed frame is printed for the first V2XCAP_READERR_SHOWN of its file only; at the
 *   end one line per file gives the total per kind of error. Malformed frames exit 0
 *   (every real capture has some), unless the user asked for --strict.
 * Messages go to stderr after the caller's flush hook, so stdout and stderr interleave in
 * the order things happened. */
#ifndef V2XCAP_REPORT_ERRORS_H
#define V2XCAP_REPORT_ERRORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capfile.h"
#include "frame.h"

#define V2XCAP_READERR_SHOWN 10      /* malformed frames printed per file */
#define V2XCAP_READERR_KINDS 8       /* kinds of error told apart per file; the rest "other" */

struct v2xcap_readerr_kind {
	const char *layer, *why; /* static strings (frame.h's error and layer names) */
	uint64_t count;
};

struct v2xcap_readerr_file {
	const char *name;        /* as given on the command line (v2x_capframe.file) */
	uint64_t malformed;
	size_t n_kinds;
	struct v2xcap_readerr_kind kinds[V2XCAP_READERR_KINDS + 1]; /* the last: every other kind */
};

struct v2xcap_readerr {
	const char *cmd;         /* "dump" -> "v2xcap dump: ..." */
	void (*flush)(void *ctx); /* called before anything is written to stderr */
	void *ctx;
	uint64_t file_errors, malformed;
	struct v2xcap_readerr_file *files;
	size_t n_files, cap_files;
};

void v2xcap_readerr_init(struct v2xcap_readerr *r, const char *cmd, void (*flush)(void *ctx),
		     void *ctx);
/* A file-level failure: msg is v2x_capfile_error()'s "FILE: why". */
void v2xcap_readerr_file_error(struct v2xcap_readerr *r, const char *msg);
/* A malformed frame: "FILE: frame N: malformed LAYER: why" (with how much was captured
 * when the snap length cut it), for the first frames of a file, counted for all. */
void v2xcap_readerr_frame(struct v2xcap_readerr *r, const struct v2x_capframe *fr, const char *layer,
		      const char *why);
/* v2xcap_readerr_frame for a frame whose parse failed (f->error set). */
void v2xcap_readerr_malformed(struct v2xcap_readerr *r, const struct v2x_capframe *fr,
			  const struct v2x_frame *f);
/* The per-file totals of the files that had more malformed frames than were shown; frees
 * what the report holds. */
void v2xcap_readerr_finish(struct v2xcap_readerr *r);
/* The exit code of the run so far: 1 after a file-level failure, or after a malformed
 * frame when strict; else 0. */
int v2xcap_readerr_exit_code(const struct v2xcap_readerr *r, bool strict);

#endif
