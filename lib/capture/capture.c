/* <v2x/capture.h>: a capture file through the reader (capreader.c), or a live interface
 * through libpcap, each record parsed by the frame path (frame.c) into the capture's own
 * frame. */
#define _GNU_SOURCE /* pcap.h's BSD types; strdup; pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capreader.h"
#include "frame.h"

struct v2x_capture {
	struct v2x_capreader *rd;       /* a file, or */
	pcap_t *live;                   /* an interface */
	unsigned flags;
	int linktype;
	volatile sig_atomic_t stop;     /* v2x_capture_breakloop */
	int wake[2];                    /* live: a pipe breakloop writes to, which next_live
					 * polls too: a signal between its stop check and its
					 * poll() cannot be missed */
	uint64_t seen, handed_out;
	struct v2x_record rec;
	struct v2x_frame frame;
	char *path;
	char err[V2X_ERRBUF_SIZE];
};

static struct v2x_capture *new_capture(const char *path)
{
	struct v2x_capture *c = calloc(1, sizeof(*c));
	if (c && !(c->path = strdup(path))) {
		free(c);
		c = NULL;
	}
	if (c)
		c->wake[0] = c->wake[1] = -1;
	return c;
}

struct v2x_capture *v2x_capture_open(const char *path, char *errbuf)
{
	if (!path || !errbuf) {
		if (errbuf)
			snprintf(errbuf, V2X_ERRBUF_SIZE, "v2x_capture_open: no path given");
		return NULL;
	}
	char why[V2X_ERRBUF_SIZE] = "out of memory";
	struct v2x_capture *c = new_capture(path);
	if (c && (c->rd = v2x_capreader_open(path, V2X_RD_BUFSIZE, why, sizeof(why))))
		return c;
	snprintf(errbuf, V2X_ERRBUF_SIZE, "%s: %s", path, why);
	v2x_capture_close(c);
	return NULL;
}

/* Kernel-side filter for WSMP: exact on Ethernet; on 802.11 data frames only, because EPD
 * has no BPF primitive (next_live keeps exactly the 0x88DC frames, SNAP or EPD). */
static int wsmp_filter(pcap_t *p, int linktype, char *err, size_t errlen)
{
	const char *expr = linktype == V2X_LINK_ETHERNET ? "ether proto 0x88dc"
			   : (linktype == V2X_LINK_RADIOTAP || linktype == V2X_LINK_IEEE80211)
				   ? "type data"
				   : NULL;
	struct bpf_program prog;
	if (!expr)
		return 0;
	if (pcap_compile(p, &prog, expr, 1, PCAP_NETMASK_UNKNOWN) < 0 ||
	    pcap_setfilter(p, &prog) < 0) {
		snprintf(err, errlen, "filter '%s': %s", expr, pcap_geterr(p));
		return -1;
	}
	pcap_freecode(&prog);
	return 0;
}

/* The handle, activated, non-blocking (the waiting is next_live's poll); NULL with err. */
static pcap_t *open_pcap(const char *ifname, char *err, size_t errlen)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p = pcap_create(ifname, errbuf);
	if (!p) {
		snprintf(err, errlen, "%s", errbuf);
		return NULL;
	}
	/* These fail only on a handle already activated, which this one is not. */
	if (pcap_set_snaplen(p, 65535) != 0 || pcap_set_immediate_mode(p, 1) != 0) {
		snprintf(err, errlen, "%s", pcap_geterr(p));
		pcap_close(p);
		return NULL;
	}
	int rc = pcap_activate(p);
	if (rc < 0) {
		if (rc == PCAP_ERROR)
			snprintf(err, errlen, "%s", pcap_geterr(p));
		else
			snprintf(err, errlen, "%s%s", pcap_statustostr(rc),
				 rc == PCAP_ERROR_PERM_DENIED ? " (needs root or CAP_NET_RAW: "
								"setcap cap_net_raw,cap_net_admin+ep)" : "");
		pcap_close(p);
		return NULL;
	}
	if (pcap_setnonblock(p, 1, errbuf) < 0) {
		snprintf(err, errlen, "%s", errbuf);
		pcap_close(p);
		return NULL;
	}
	return p;
}

struct v2x_capture *v2x_capture_open_live(const char *ifname, unsigned flags, char *errbuf)
{
	if (!ifname || !errbuf) {
		if (errbuf)
			snprintf(errbuf, V2X_ERRBUF_SIZE, "v2x_capture_open_live: no interface given");
		return NULL;
	}
	char why[V2X_ERRBUF_SIZE] = "out of memory";
	struct v2x_capture *c = new_capture(ifname);
	if (!c || !(c->live = open_pcap(ifname, why, sizeof(why))))
		goto fail;
	if (pipe2(c->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(why, sizeof(why), "pipe: %s", strerror(errno));
		goto fail;
	}
	c->flags = flags;
	c->linktype = pcap_datalink(c->live);
	if (!(flags & V2X_LIVE_ALL)) {
		if (!v2x_linktype_supported(c->linktype)) {
			snprintf(why, sizeof(why), "link type %s is not one libv2x parses",
				 pcap_datalink_val_to_name(c->linktype));
			goto fail;
		}
		if (wsmp_filter(c->live, c->linktype, why, sizeof(why)) < 0)
			goto fail;
	}
	return c;
fail:
	snprintf(errbuf, V2X_ERRBUF_SIZE, "%s: %s", ifname, why);
	v2x_capture_close(c);
	return NULL;
}

/* The next frame of the interface into c->rec, and parsed into c->frame unless the
 * caller wants no frame and takes every frame (V2X_LIVE_ALL). */
static int next_live(struct v2x_capture *c, bool parse)
{
	for (;;) {
		if (c->stop)
			return 0;
		struct pcap_pkthdr *h;
		const u_char *data;
		int r = pcap_next_ex(c->live, &h, &data);
		if (r == 1) {
			c->seen++;
			c->rec = (struct v2x_record){c->seen, (int64_t)h->ts.tv_sec * 1000000000 +
						     (int64_t)h->ts.tv_usec * 1000, c->linktype,
						     h->caplen, h->len, data};
			if (!parse && (c->flags & V2X_LIVE_ALL))
				return 1;
			v2x_frame_parse(c->linktype, data, h->caplen, &c->frame);
			if (!(c->flags & V2X_LIVE_ALL) && c->frame.ethertype != V2X_ETHERTYPE_WSMP)
				continue;
			return 1;
		}
		if (r == PCAP_ERROR_BREAK)
			return 0;
		if (r < 0) {
			snprintf(c->err, sizeof(c->err), "%s: %s", c->path, pcap_geterr(c->live));
			return V2X_EIO;
		}
		if (c->flags & V2X_LIVE_NONBLOCK)
			return V2X_EAGAIN;
		struct pollfd pfd[2] = {{pcap_get_selectable_fd(c->live), POLLIN, 0},
					{c->wake[0], POLLIN, 0}};
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				return c->stop ? 0 : V2X_EAGAIN;
			snprintf(c->err, sizeof(c->err), "%s: poll: %s", c->path, strerror(errno));
			return V2X_EIO;
		}
	}
}

int v2x_capture_next(struct v2x_capture *c, const struct v2x_record **rec,
		     const struct v2x_frame **frame)
{
	if (!c)
		return V2X_EINVAL;
	if (c->live) {
		int r = next_live(c, frame != NULL);
		if (r != 1)
			return r;
	} else {
		switch (v2x_capreader_next(c->rd, &c->rec)) {
		case V2X_RD_END:
			return 0;
		case V2X_RD_ERROR:
			snprintf(c->err, sizeof(c->err), "%s: %s", c->path,
				 v2x_capreader_error(c->rd));
			return V2X_EFORMAT;
		case V2X_RD_RECORD:
			break;
		}
		c->seen++;
		c->linktype = c->rec.linktype;
		if (frame)
			v2x_frame_parse(c->rec.linktype, c->rec.data, c->rec.caplen, &c->frame);
	}
	c->handed_out++;
	if (rec)
		*rec = &c->rec;
	if (frame)
		*frame = &c->frame;
	return 1;
}

const char *v2x_capture_geterr(const struct v2x_capture *c)
{
	return c ? c->err : "v2x_capture_geterr: no capture given";
}

uint64_t v2x_capture_offset(const struct v2x_capture *c)
{
	return c && c->rd ? v2x_capreader_offset(c->rd) : 0;
}

int v2x_capture_fd(const struct v2x_capture *c)
{
	return c && c->live ? pcap_get_selectable_fd(c->live) : -1;
}

int v2x_capture_linktype(const struct v2x_capture *c)
{
	return c ? c->linktype : V2X_EINVAL;
}

void v2x_capture_breakloop(struct v2x_capture *c)
{
	if (c && c->live) {
		c->stop = 1;
		pcap_breakloop(c->live);
		/* async-signal-safe; a full pipe already wakes the poll */
		ssize_t n = write(c->wake[1], "", 1);
		(void)n;
	}
}

int v2x_capture_stats(struct v2x_capture *c, struct v2x_capture_stats *st)
{
	if (!c || !st || st->size < offsetof(struct v2x_capture_stats, received))
		return V2X_EINVAL;
	struct v2x_capture_stats s = {.size = st->size, .seen = c->seen,
				      .handed_out = c->handed_out};
	struct pcap_stat ps;
	int rc = V2X_OK;
	if (c->live) {
		if (pcap_stats(c->live, &ps) == 0) {
			s.received = ps.ps_recv;
			s.dropped_kernel = ps.ps_drop;
			s.dropped_interface = ps.ps_ifdrop;
		} else {
			snprintf(c->err, sizeof(c->err), "%s: %s", c->path,
				 pcap_geterr(c->live));
			rc = V2X_EIO;
		}
	}
	memcpy(st, &s, st->size < sizeof(s) ? st->size : sizeof(s));
	return rc;
}

void v2x_capture_close(struct v2x_capture *c)
{
	if (!c)
		return;
	if (c->rd)
		v2x_capreader_close(c->rd);
	if (c->live)
		pcap_close(c->live);
	for (int i = 0; i < 2; i++)
		if (c->wake[i] >= 0)
			close(c->wake[i]);
	free(c->path);
	free(c);
}
