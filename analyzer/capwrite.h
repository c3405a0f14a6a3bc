/* Writing a live capture: pcapng (with an interface description block naming the
 * interface and its channel) or classic pcap, optionally rotated by size or time. */
#ifndef V2XCAP_CAPWRITE_H
#define V2XCAP_CAPWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct v2xcap_capwriter;

struct v2xcap_capwriter_conf {
	const char *path;       /* "x.pcap" writes pcap, any other name pcapng */
	int linktype;
	uint32_t snaplen;
	const char *if_name;    /* pcapng if_name */
	const char *if_desc;    /* pcapng if_description, NULL for none */
	uint64_t rotate_bytes;  /* 0: no size rotation */
	int64_t rotate_us;      /* 0: no time rotation */
};

/* With rotation the files are named STEM-00001.EXT, STEM-00002.EXT, ... Returns NULL with
 * a message in err when the first file cannot be created. */
struct v2xcap_capwriter *v2xcap_capwriter_open(const struct v2xcap_capwriter_conf *conf, char *err,
					 size_t errlen);
/* 0, or -1 with a message in err (disk full, cannot open the next file). */
int v2xcap_capwriter_write(struct v2xcap_capwriter *w, int64_t ts_us, const uint8_t *data,
			uint32_t caplen, uint32_t origlen, char *err, size_t errlen);
/* Pushes buffered frames to the file so that it is complete at any moment. */
int v2xcap_capwriter_flush(struct v2xcap_capwriter *w);
/* The file being written now. */
const char *v2xcap_capwriter_path(const struct v2xcap_capwriter *w);
unsigned v2xcap_capwriter_files(const struct v2xcap_capwriter *w);
/* Flushes and closes; 0, or -1 with a message when the last write-back failed. */
int v2xcap_capwriter_close(struct v2xcap_capwriter *w, char *err, size_t errlen);

#endif
