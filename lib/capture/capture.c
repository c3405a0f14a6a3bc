/* <v2x/capture.h>: one capture file through the reader (capreader.c), each record parsed
 * by the frame path (frame.c) into the capture's own frame. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capreader.h"
#include "frame.h"

struct v2x_capture {
	struct v2x_capreader *rd;
	struct v2x_record rec;
	struct v2x_frame frame;
	char *path;
	char err[V2X_ERRBUF_SIZE];
};

struct v2x_capture *v2x_capture_open(const char *path, char *errbuf)
{
	if (!path || !errbuf) {
		if (errbuf)
			snprintf(errbuf, V2X_ERRBUF_SIZE, "v2x_capture_open: no path given");
		return NULL;
	}
	char why[V2X_ERRBUF_SIZE] = "out of memory";
	struct v2x_capture *c = calloc(1, sizeof(*c));
	if (c && (c->path = strdup(path)) &&
	    (c->rd = v2x_capreader_open(path, V2X_RD_BUFSIZE, why, sizeof(why))))
		return c;
	snprintf(errbuf, V2X_ERRBUF_SIZE, "%s: %s", path, why);
	v2x_capture_close(c);
	return NULL;
}

int v2x_capture_next(struct v2x_capture *c, const struct v2x_record **rec,
		     const struct v2x_frame **frame)
{
	if (!c)
		return V2X_EINVAL;
	switch (v2x_capreader_next(c->rd, &c->rec)) {
	case V2X_RD_END:
		return 0;
	case V2X_RD_ERROR:
		snprintf(c->err, sizeof(c->err), "%s: %s", c->path, v2x_capreader_error(c->rd));
		return V2X_EFORMAT;
	case V2X_RD_RECORD:
		break;
	}
	if (rec)
		*rec = &c->rec;
	if (frame) {
		v2x_frame_parse(c->rec.linktype, c->rec.data, c->rec.caplen, &c->frame);
		*frame = &c->frame;
	}
	return 1;
}

const char *v2x_capture_geterr(const struct v2x_capture *c)
{
	return c ? c->err : "v2x_capture_geterr: no capture given";
}

uint64_t v2x_capture_offset(const struct v2x_capture *c)
{
	return c ? v2x_capreader_offset(c->rd) : 0;
}

void v2x_capture_close(struct v2x_capture *c)
{
	if (!c)
		return;
	if (c->rd)
		v2x_capreader_close(c->rd);
	free(c->path);
	free(c);
}
