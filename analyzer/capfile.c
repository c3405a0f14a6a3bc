/* Capture file iterator over libpcap (see capfile.h): orders the files by their first
 * timestamp, then reads them one at a time, so only one file is open at once. */
#define _DEFAULT_SOURCE /* pcap.h uses the BSD u_int/u_char types, hidden by -std=c11 */
#include "capfile.h"

#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "frame.h"

struct source {
	const char *name;
	int64_t first_ts;       /* ordering key */
	size_t index;           /* tie-break: command-line order */
	uint64_t size;          /* octets, 0 when unknown */
};

struct v2x_capfile {
	struct source *src;
	size_t n, cur;
	pcap_t *p;              /* the file being read, NULL between files */
	uint64_t number;        /* frames read from it */
	int linktype;
	uint64_t done_before;   /* sizes of the files finished */
	uint64_t total;
	char err[PCAP_ERRBUF_SIZE + 512];
};

static bool is_stdin(const char *name)
{
	return strcmp(name, "-") == 0;
}

static pcap_t *open_offline(const char *name, char *errbuf)
{
	return pcap_open_offline_with_tstamp_precision(name, PCAP_TSTAMP_PRECISION_NANO,
						       errbuf);
}

static int64_t ts_ns(const struct pcap_pkthdr *h)
{
	/* nanosecond precision was asked for: tv_usec holds nanoseconds */
	return (int64_t)h->ts.tv_sec * 1000000000 + (int64_t)h->ts.tv_usec;
}

/* The ordering key of one file: its first timestamp. Unreadable files and stdin (which
 * cannot be read twice) sort first, so their errors or frames come early; empty files
 * last. */
static int64_t first_timestamp(const char *name)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	if (is_stdin(name))
		return INT64_MIN;
	pcap_t *p = open_offline(name, errbuf);
	if (!p)
		return INT64_MIN;
	struct pcap_pkthdr *h;
	const unsigned char *d;
	int r = pcap_next_ex(p, &h, &d);
	int64_t ts = r == 1 ? ts_ns(h) : r == PCAP_ERROR_BREAK ? INT64_MAX : INT64_MIN;
	pcap_close(p);
	return ts;
}

static int by_first_ts(const void *a, const void *b)
{
	const struct source *x = a, *y = b;
	if (x->first_ts != y->first_ts)
		return x->first_ts < y->first_ts ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

struct v2x_capfile *v2x_capfile_open(char *const *files, size_t n_files)
{
	struct v2x_capfile *cf = calloc(1, sizeof(*cf));
	if (!cf)
		return NULL;
	cf->src = calloc(n_files ? n_files : 1, sizeof(*cf->src));
	if (!cf->src) {
		free(cf);
		return NULL;
	}
	cf->n = n_files;
	for (size_t i = 0; i < n_files; i++) {
		struct source *s = &cf->src[i];
		struct stat st;
		s->name = files[i];
		s->index = i;
		s->first_ts = n_files > 1 ? first_timestamp(s->name) : 0;
		if (!is_stdin(s->name) && stat(s->name, &st) == 0 && S_ISREG(st.st_mode))
			s->size = (uint64_t)st.st_size;
		cf->total += s->size;
	}
	qsort(cf->src, cf->n, sizeof(*cf->src), by_first_ts);
	return cf;
}

/* Closes the current file and moves on to the next one. */
static void finish_file(struct v2x_capfile *cf)
{
	if (cf->p)
		pcap_close(cf->p);
	cf->p = NULL;
	cf->done_before += cf->src[cf->cur].size;
	cf->cur++;
}

/* Opens the next file; V2X_CAP_ERROR (and skips it) when it cannot be read at all. */
static enum v2x_cap_result start_file(struct v2x_capfile *cf)
{
	const char *name = cf->src[cf->cur].name;
	char errbuf[PCAP_ERRBUF_SIZE];
	cf->number = 0;
	cf->p = open_offline(name, errbuf);
	if (!cf->p) {
		/* libpcap names the file in some messages ("NAME: No such file ...") */
		size_t n = strlen(name);
		bool named = strncmp(errbuf, name, n) == 0 && strncmp(errbuf + n, ": ", 2) == 0;
		snprintf(cf->err, sizeof(cf->err), "%s: %s", name, named ? errbuf + n + 2 : errbuf);
		finish_file(cf);
		return V2X_CAP_ERROR;
	}
	cf->linktype = pcap_datalink(cf->p);
	if (!v2x_linktype_supported(cf->linktype)) {
		const char *lt = pcap_datalink_val_to_name(cf->linktype);
		snprintf(cf->err, sizeof(cf->err), "%s: unsupported link type %d (%s)", name,
			 cf->linktype, lt ? lt : "unknown");
		finish_file(cf);
		return V2X_CAP_ERROR;
	}
	return V2X_CAP_FRAME;
}

enum v2x_cap_result v2x_capfile_next(struct v2x_capfile *cf, struct v2x_capframe *fr)
{
	for (;;) {
		if (!cf->p) {
			if (cf->cur == cf->n)
				return V2X_CAP_END;
			if (start_file(cf) == V2X_CAP_ERROR)
				return V2X_CAP_ERROR;
		}
		struct pcap_pkthdr *h;
		const unsigned char *d;
		int r = pcap_next_ex(cf->p, &h, &d);
		const char *name = cf->src[cf->cur].name;
		if (r == 1) {
			cf->number++;
			fr->file = name;
			fr->number = cf->number;
			fr->ts_ns = ts_ns(h);
			fr->linktype = cf->linktype;
			fr->caplen = h->caplen;
			fr->origlen = h->len;
			fr->data = d;
			return V2X_CAP_FRAME;
		}
		if (r == PCAP_ERROR) {
			/* e.g. "truncated dump file; tried to read 120 captured bytes, only
			 * got 37" */
			snprintf(cf->err, sizeof(cf->err), "%s: frame %" PRIu64 ": %s", name,
				 cf->number + 1, pcap_geterr(cf->p));
			finish_file(cf);
			return V2X_CAP_ERROR;
		}
		finish_file(cf); /* PCAP_ERROR_BREAK: end of this file */
	}
}

const char *v2x_capfile_error(const struct v2x_capfile *cf)
{
	return cf->err;
}

void v2x_capfile_progress(const struct v2x_capfile *cf, uint64_t *done, uint64_t *total)
{
	uint64_t in_file = 0;
	if (cf->p && cf->src[cf->cur].size) {
		FILE *f = pcap_file(cf->p);
		long pos = f ? ftell(f) : -1;
		if (pos > 0)
			in_file = (uint64_t)pos;
	}
	*done = cf->done_before + in_file;
	*total = cf->total;
}

void v2x_capfile_close(struct v2x_capfile *cf)
{
	if (!cf)
		return;
	if (cf->p)
		pcap_close(cf->p);
	free(cf->src);
	free(cf);
}
