/* The records of one capture file, pcap or pcapng (any byte order, µs/ns/Kuznetzov pcap,
 * pcapng sections, interfaces with their own link type, time resolution and offset), read
 * with large read()s and handed out in place: no copy and no system call per frame, which
 * is what lets `v2xcap stats` run faster than a libpcap read loop (see bench/README.md).
 *
 *   struct v2xcap_capreader *r = v2xcap_capreader_open(name, bufsize, err, sizeof(err));
 *   struct v2xcap_caprec rec;
 *   while ((res = v2xcap_capreader_next(r, &rec)) != V2XCAP_RD_END) ...
 *
 * An error is either fatal (the file cannot be read further: the next call returns
 * V2XCAP_RD_END) or not (an interface with an unsupported link type: its frames are
 * skipped, the rest of the file is read). */
#ifndef V2XCAP_CAPREADER_H
#define V2XCAP_CAPREADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct v2xcap_capreader;

struct v2xcap_caprec {
	uint64_t number;        /* 1-based frame number within the file */
	int64_t ts_ns;          /* capture time, nanoseconds since the Unix epoch */
	int linktype;           /* LINKTYPE_* of the frame's interface */
	uint32_t caplen, origlen;
	const uint8_t *data;    /* caplen octets, valid until the next call */
};

enum v2xcap_rd_result {
	V2XCAP_RD_END = 0,
	V2XCAP_RD_RECORD = 1,
	V2XCAP_RD_ERROR = -1,      /* v2xcap_capreader_error() says why (with the frame number) */
};

/* Frames captured longer than this are taken for corruption (libpcap's limit; a
 * pcap header announcing a larger snap length raises it, up to 16 MiB). */
#define V2XCAP_RD_MAX_CAPLEN 262144u

/* "-" is stdin. NULL with a message in err ("why", without the name) when the file cannot
 * be opened or does not start like a pcap or pcapng file. bufsize: the read buffer (it
 * grows for a larger record). */
struct v2xcap_capreader *v2xcap_capreader_open(const char *name, size_t bufsize, char *err,
					 size_t errlen);
enum v2xcap_rd_result v2xcap_capreader_next(struct v2xcap_capreader *r, struct v2xcap_caprec *rec);
/* The last error, without the file name: "frame N: why" or "why". */
const char *v2xcap_capreader_error(const struct v2xcap_capreader *r);
/* Octets consumed so far. */
uint64_t v2xcap_capreader_offset(const struct v2xcap_capreader *r);
void v2xcap_capreader_close(struct v2xcap_capreader *r);

#endif
