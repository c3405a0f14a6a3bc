/* The records of one capture file, pcap or pcapng (any byte order, µs/ns/Kuznetzov pcap,
 * pcapng sections, interfaces with their own link type, time resolution and offset), read
 * with large read()s and handed out in place: no copy and no system call per frame, which
 * is what lets `v2xcap stats` run faster than a libpcap read loop (see bench/README.md).
 *
 *   struct v2x_capreader *r = v2x_capreader_open(name, bufsize, err, sizeof(err));
 *   struct v2x_record rec;
 *   while ((res = v2x_capreader_next(r, &rec)) != V2X_RD_END) ...
 *
 * An error is either fatal (the file cannot be read further: the next call returns
 * V2X_RD_END) or not (an interface with an unsupported link type: its frames are
 * skipped, the rest of the file is read). */
#ifndef V2X_CAPREADER_H
#define V2X_CAPREADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct v2x_capreader;

/* struct v2x_record, the public API's: a record as read */
#include <v2x/capture.h>

enum v2x_rd_result {
	V2X_RD_END = 0,
	V2X_RD_RECORD = 1,
	V2X_RD_ERROR = -1,      /* v2x_capreader_error() says why (with the frame number) */
};

/* Frames captured longer than this are taken for corruption (libpcap's limit; a
 * pcap header announcing a larger snap length raises it, up to 16 MiB). */
#define V2X_RD_MAX_CAPLEN 262144u

/* Reads of 256 KiB: few system calls, and a chunk still in the core's cache when it is
 * parsed (3% faster than 1 MiB here; a read-ahead thread won 5% of wall time for 40% more
 * CPU, the frames then coming from the other core's cache). */
#define V2X_RD_BUFSIZE (256u << 10)

/* "-" is stdin. NULL with a message in err ("why", without the name) when the file cannot
 * be opened or does not start like a pcap or pcapng file. bufsize: the read buffer (it
 * grows for a larger record). */
struct v2x_capreader *v2x_capreader_open(const char *name, size_t bufsize, char *err,
					 size_t errlen);
enum v2x_rd_result v2x_capreader_next(struct v2x_capreader *r, struct v2x_record *rec);
/* The last error, without the file name: "frame N: why" or "why". */
const char *v2x_capreader_error(const struct v2x_capreader *r);
/* Octets consumed so far. */
uint64_t v2x_capreader_offset(const struct v2x_capreader *r);
void v2x_capreader_close(struct v2x_capreader *r);

#endif
