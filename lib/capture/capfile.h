/* Reading captures (pcap, pcapng; "-" = stdin): one iterator over one or several files,
 * which form one timeline, merged frame by frame in timestamp order (equal times: in the
 * order of the command line). Every file stays open while it is read.
 *
 *   struct v2x_capfile *cf = v2x_capfile_open(names, n);
 *   struct v2x_capframe fr;
 *   int r;
 *   while ((r = v2x_capfile_next(cf, &fr)) != V2X_CAP_END)
 *           if (r == V2X_CAP_FRAME) use(&fr); else report(v2x_capfile_error(cf));
 *   v2x_capfile_close(cf);
 *
 * Errors never end the iteration: a file that cannot be opened or read, or whose link
 * type libv2x does not parse, yields V2X_CAP_ERROR once and iteration goes on with the
 * next file; the caller decides what the error means for its exit code. */
#ifndef V2X_CAPFILE_H
#define V2X_CAPFILE_H

#include <stddef.h>
#include <stdint.h>

struct v2x_capfile;

struct v2x_capframe {
	const char *file;       /* as given to v2x_capfile_open */
	uint64_t number;        /* 1-based frame number within that file */
	int64_t ts_ns;          /* capture time, nanoseconds since the Unix epoch */
	int linktype;           /* LINKTYPE_* of the frame (pcapng: of its interface) */
	uint32_t caplen, origlen;
	const uint8_t *data;    /* caplen octets, valid until the next call */
};

enum v2x_cap_result {
	V2X_CAP_END = 0,
	V2X_CAP_FRAME = 1,
	V2X_CAP_ERROR = -1,     /* v2x_capfile_error() says which file, which frame, why */
};

/* Never NULL except out of memory; files are opened here, their errors come from next. */
struct v2x_capfile *v2x_capfile_open(char *const *files, size_t n_files);
enum v2x_cap_result v2x_capfile_next(struct v2x_capfile *cf, struct v2x_capframe *fr);
/* "FILE: frame N: why" (or "FILE: why") for the last V2X_CAP_ERROR. */
const char *v2x_capfile_error(const struct v2x_capfile *cf);
/* Progress over all files: octets read so far and their total size (0 when unknown,
 * e.g. stdin). Cheap enough to call per frame. */
void v2x_capfile_progress(const struct v2x_capfile *cf, uint64_t *done, uint64_t *total);
void v2x_capfile_close(struct v2x_capfile *cf);

#endif
