/* Progress of a long read on stderr: only on a terminal, and only once the read has
 * taken long enough for progress to help. */
#ifndef V2XCAP_PROGRESS_H
#define V2XCAP_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "capfile.h"

struct v2xcap_progress {
	bool tty;
	bool shown;
	uint64_t calls;
	int64_t start_ns, last_ns;
};

void v2xcap_progress_init(struct v2xcap_progress *p);
/* Call once per frame; looks at the clock every few thousand calls. */
void v2xcap_progress_tick(struct v2xcap_progress *p, const struct v2x_capfile *cf);
/* Ends the progress line, if one was shown. */
void v2xcap_progress_done(struct v2xcap_progress *p, const struct v2x_capfile *cf);

#endif
