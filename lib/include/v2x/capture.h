/* Reading a capture frame by frame, every frame parsed through every layer
 * (<v2x/frame.h>): pcap (any byte order, µs or ns), pcapng (sections, interfaces of
 * their own link type and time resolution), WYDOT/JPO ODE deployment logs plain or
 * gzip-compressed, USDOT RSU text records, and "-" for stdin. The format is found by the
 * content, not the name. Files are read with large read()s and frames handed out in
 * place: no copy and no system call per frame.
 *
 *   char errbuf[V2X_ERRBUF_SIZE];
 *   struct v2x_capture *c = v2x_capture_open("bsm.pcap", errbuf);
 *   if (!c) { fprintf(stderr, "%s\n", errbuf); return 1; }
 *   const struct v2x_record *rec;
 *   const struct v2x_frame *f;
 *   int r;
 *   while ((r = v2x_capture_next(c, &rec, &f)) != 0)
 *           if (r < 0) fprintf(stderr, "%s\n", v2x_capture_geterr(c));
 *           else use(rec, f);
 *   v2x_capture_close(c);
 */
#ifndef V2X_V2X_CAPTURE_H
#define V2X_V2X_CAPTURE_H

#include <stdint.h>

#include <v2x/base.h>
#include <v2x/frame.h>

#ifdef __cplusplus
extern "C" {
#endif

struct v2x_capture;

/* One record of a capture, owned by the library (members are only ever added at the
 * end): valid, with the octets it points to, until the next call on its capture. */
struct v2x_record {
	uint64_t number;        /* 1-based frame number within the file */
	int64_t ts_ns;          /* capture time, nanoseconds since the Unix epoch */
	int linktype;           /* LINKTYPE_* of the frame's interface (V2X_LINK_*) */
	uint32_t caplen, origlen;
	const uint8_t *data;    /* caplen octets */
};

/* Opens path ("-": stdin) for reading. NULL with the cause in errbuf (the path named)
 * when it cannot be opened (V2X_EIO's kind), is none of the formats above, or path or
 * errbuf is NULL (then errbuf, when given, says so). */
V2X_API struct v2x_capture *v2x_capture_open(const char *path, char *errbuf);

/* The next frame: 1 with *rec (the record) and *frame (it parsed; when the parse met an
 * error, v2x_frame_get_info's error names it), 0 at the end of the capture, or a
 * negative status with v2x_capture_geterr's message: V2X_EFORMAT for a record or block
 * that cannot be read, V2X_EIO when a live interface fails (it went down, was removed),
 * V2X_EAGAIN when a live capture has nothing now (V2X_LIVE_NONBLOCK, or a signal
 * interrupted the wait), V2X_EINVAL for a NULL c. An error does not end the capture: the
 * next call goes on after the bad record, and returns 0 when nothing more can be read
 * (a file cut short). rec or frame may be NULL (frame NULL: the record is not parsed,
 * the cheapest read). What they point to is valid until the next call on c. */
V2X_API int v2x_capture_next(struct v2x_capture *c, const struct v2x_record **rec,
			     const struct v2x_frame **frame);

/* The message of the last error: "PATH: frame N: why" or "PATH: why"; "" before any.
 * Valid until the next call on c. */
V2X_API const char *v2x_capture_geterr(const struct v2x_capture *c);

/* Octets of the file consumed so far (for progress). */
V2X_API uint64_t v2x_capture_offset(const struct v2x_capture *c);

/* Live capture (libpcap) on a network interface: an OCB interface (Ethernet frames) or
 * its monitor vif (radiotap). Without V2X_LIVE_ALL only the frames carrying WSMP
 * (EtherType 0x88DC, LLC SNAP or EPD) are handed out, filtered in the kernel as far as
 * BPF can (Ethernet exactly, 802.11 data frames) and the rest here. V2X_LIVE_NONBLOCK:
 * v2x_capture_next returns V2X_EAGAIN when no frame waits (poll v2x_capture_fd), instead
 * of waiting. Needs CAP_NET_RAW (root, or setcap cap_net_raw+ep on the program). NULL
 * with the cause in errbuf: no such interface, no permission (the message says what
 * grants it), or a link type libv2x does not parse without V2X_LIVE_ALL. */
enum {
	V2X_LIVE_ALL = 1,
	V2X_LIVE_NONBLOCK = 2,
};
V2X_API struct v2x_capture *v2x_capture_open_live(const char *ifname, unsigned flags,
						  char *errbuf);

/* A live capture's descriptor, for poll()/select() (readable: call v2x_capture_next);
 * -1 for a file, or a NULL c. */
V2X_API int v2x_capture_fd(const struct v2x_capture *c);

/* The link type of a live capture's interface; for a file, that of the last record read
 * (0 before any); V2X_EINVAL for a NULL c. */
V2X_API int v2x_capture_linktype(const struct v2x_capture *c);

/* Makes a live capture's v2x_capture_next return 0 (the end): from a signal handler or
 * another thread; a call blocked waiting for a frame returns at once, whenever the
 * breakloop comes. Async-signal-safe. Nothing for a file. */
V2X_API void v2x_capture_breakloop(struct v2x_capture *c);

/* A capture's counts. The caller sets size = sizeof(struct v2x_capture_stats). */
struct v2x_capture_stats {
	size_t size;
	uint64_t seen;                  /* frames read (live: before the WSMP filter) */
	uint64_t handed_out;            /* frames v2x_capture_next returned */
	/* live: libpcap's counts (pcap_stats), 0 for a file */
	uint64_t received, dropped_kernel, dropped_interface;
};
/* 0, or V2X_EINVAL (NULL argument, size too small); V2X_EIO with v2x_capture_geterr
 * when libpcap cannot say. */
V2X_API int v2x_capture_stats(struct v2x_capture *c, struct v2x_capture_stats *st);

/* Closes c and the file (not stdin's descriptor); NULL is fine. */
V2X_API void v2x_capture_close(struct v2x_capture *c);

#ifdef __cplusplus
}
#endif

#endif
