/* libv2x: writing frames to a capture file, as libpcap's pcap_dump does: pcapng (one
 * interface, its name and description in the interface block) or classic pcap, to a
 * path (a fifo too: an extcap's) or stdout, optionally rotated into numbered files by
 * size or by time.
 *
 *   struct v2x_dumper_conf conf = {.size = sizeof(conf), .path = "out.pcapng",
 *                                  .linktype = V2X_LINK_RADIOTAP, .if_name = "mon0"};
 *   struct v2x_dumper *d = v2x_dumper_open(&conf, errbuf);
 *   while (v2x_capture_next(c, &rec, &f) > 0)
 *           if (v2x_dump(d, rec->ts_ns, rec->data, rec->caplen, rec->origlen) < 0)
 *                   break;                          // v2x_dumper_geterr(d) says why
 *   v2x_dumper_close(d, errbuf); */
#ifndef V2X_V2X_DUMP_H
#define V2X_V2X_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include <v2x/base.h>

#ifdef __cplusplus
extern "C" {
#endif

struct v2x_dumper;

/* What to write. The caller sets size = sizeof(struct v2x_dumper_conf); members are only
 * ever added at the end. */
struct v2x_dumper_conf {
	size_t size;
	const char *path;       /* "-": stdout; a name ending in ".pcap" is written as
				 * classic pcap (microseconds), any other as pcapng */
	int linktype;           /* LINKTYPE_* of every frame (V2X_LINK_*) */
	uint32_t snaplen;       /* 0: 65535 */
	const char *if_name;    /* pcapng: the interface's name (if_name), NULL for none */
	const char *if_desc;    /* pcapng: its description (if_description), NULL for none */
	uint64_t rotate_bytes;  /* > 0: a new file before one would grow past this size */
	int64_t rotate_ns;      /* > 0: a new file when a frame is this much later than the
				 * file's first (capture time) */
};

/* Creates the (first) file and writes its header; with rotation the files are named
 * STEM-00001.EXT, STEM-00002.EXT, ... (never stdout). NULL with the cause in errbuf
 * ("cannot create PATH: why"), for a NULL or too small conf, or a NULL errbuf. */
V2X_API struct v2x_dumper *v2x_dumper_open(const struct v2x_dumper_conf *conf, char *errbuf);

/* Appends one frame (ts_ns: nanoseconds since the Unix epoch; caplen octets at data of a
 * frame origlen long). V2X_OK, or V2X_EIO (disk full, the next file of a rotation cannot
 * be created, the fifo's reader went away) with v2x_dumper_geterr; V2X_EINVAL for NULL.
 * Frames reach the file in large writes: see v2x_dumper_flush. */
V2X_API int v2x_dump(struct v2x_dumper *d, int64_t ts_ns, const uint8_t *data, uint32_t caplen,
		     uint32_t origlen);

/* Pushes what is buffered to the file, so that it is complete at this moment (an extcap
 * flushes after every frame, a live capture at every second). V2X_OK, V2X_EIO, or
 * V2X_EINVAL for NULL. */
V2X_API int v2x_dumper_flush(struct v2x_dumper *d);

/* The file being written now (with rotation, the latest), and how many were made. */
V2X_API const char *v2x_dumper_path(const struct v2x_dumper *d);
V2X_API unsigned v2x_dumper_files(const struct v2x_dumper *d);

/* The cause of the last error on d; "" when there was none. Never NULL. */
V2X_API const char *v2x_dumper_geterr(const struct v2x_dumper *d);

/* Flushes, closes the file (not stdout) and frees d (NULL is fine). V2X_OK, or V2X_EIO
 * when the last write-back failed, with the cause in errbuf (may be NULL). */
V2X_API int v2x_dumper_close(struct v2x_dumper *d, char *errbuf);

#ifdef __cplusplus
}
#endif

#endif
