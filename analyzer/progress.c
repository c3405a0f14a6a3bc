/* Progress of a long read on stderr (see progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_AFTER_NS 1000000000 /* shorter reads finish before progress helps */
#define PROGRESS_EVERY_NS 250000000
#define PROGRESS_CHECK_MASK 4095     /* clock_gettime every 4096 frames */

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void v2xcap_progress_init(struct v2xcap_progress *p)
{
	p->tty = isatty(STDERR_FILENO);
	p->shown = false;
	p->calls = 0;
	p->start_ns = p->last_ns = now_ns();
}

static void show(struct v2xcap_progress *p, const struct v2x_capfile *cf, int64_t t)
{
	uint64_t done, total;
	v2x_capfile_progress(cf, &done, &total);
	double secs = (double)(t - p->start_ns) / 1e9;
	double rate = secs > 0 ? (double)done / 1e6 / secs : 0.0;
	if (total)
		fprintf(stderr, "\r%.0f / %.0f MB (%.0f%%), %.0f MB/s   ", (double)done / 1e6,
			(double)total / 1e6, 100.0 * (double)done / (double)total, rate);
	else
		fprintf(stderr, "\r%.0f MB, %.0f MB/s   ", (double)done / 1e6, rate);
	p->shown = true;
	p->last_ns = t;
}

void v2xcap_progress_tick(struct v2xcap_progress *p, const struct v2x_capfile *cf)
{
	if (!p->tty || (++p->calls & PROGRESS_CHECK_MASK) != 0)
		return;
	int64_t t = now_ns();
	if (t - p->start_ns >= PROGRESS_AFTER_NS && t - p->last_ns >= PROGRESS_EVERY_NS)
		show(p, cf, t);
}

void v2xcap_progress_done(struct v2xcap_progress *p, const struct v2x_capfile *cf)
{
	if (!p->shown)
		return;
	show(p, cf, now_ns());
	fputc('\n', stderr);
}
