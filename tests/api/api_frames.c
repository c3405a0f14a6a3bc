/* A program of the public API only (<v2x/v2x.h>, linked to libv2x.so): one JSON line per
 * frame of a capture, with the keys tests/dump/check_dump.py reads from `v2xcap dump`,
 * so that the same expected values (captures/<name>.expect.json) check both.
 *   api_frames CAPTURE
 *   api_frames -i IFACE COUNT SECONDS   live: the first COUNT WSMP frames (0: any
 *       number), or what came in SECONDS (v2x_capture_breakloop from SIGALRM); "capturing"
 *       on stderr once the interface is open, the capture's counts at the end */
#define _POSIX_C_SOURCE 200809L /* sigaction */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <v2x/v2x.h>

static void mac(const char *key, const uint8_t *m)
{
	printf(",\"%s\":\"%02x:%02x:%02x:%02x:%02x:%02x\"", key, m[0], m[1], m[2], m[3], m[4],
	       m[5]);
}

static struct v2x_capture *c;

static void on_alarm(int sig)
{
	(void)sig;
	v2x_capture_breakloop(c);
}

int main(int argc, char **argv)
{
	char errbuf[V2X_ERRBUF_SIZE];
	bool live = argc == 5 && strcmp(argv[1], "-i") == 0;
	unsigned long count = live ? strtoul(argv[3], NULL, 10) : 0, n = 0;
	if (argc != 2 && !live) {
		fprintf(stderr, "usage: api_frames CAPTURE | -i IFACE COUNT SECONDS\n");
		return 2;
	}
	c = live ? v2x_capture_open_live(argv[2], 0, errbuf) : v2x_capture_open(argv[1], errbuf);
	if (!c) {
		fprintf(stderr, "%s\n", errbuf);
		return 1;
	}
	if (live) {
		struct sigaction sa = {.sa_handler = on_alarm};
		sigaction(SIGALRM, &sa, NULL);
		alarm((unsigned)strtoul(argv[4], NULL, 10));
		fprintf(stderr, "capturing on %s, link type %d\n", argv[2], v2x_capture_linktype(c));
	}
	const struct v2x_record *rec;
	const struct v2x_frame *f;
	int r, errors = 0;
	while ((!count || n < count) && (r = v2x_capture_next(c, &rec, &f)) != 0) {
		if (r == V2X_EAGAIN) /* a signal came; breakloop makes the next call end */
			continue;
		if (r < 0) {
			fprintf(stderr, "%s (%s)\n", v2x_capture_geterr(c), v2x_strerror(r));
			errors++;
			continue;
		}
		struct v2x_frame_info i = {.size = sizeof(i)};
		if (v2x_frame_get_info(f, &i) != V2X_OK)
			return 1;
		printf("{\"frame\":%" PRIu64 ",\"time_us\":%" PRId64 ",\"linktype\":%d",
		       rec->number, rec->ts_ns / 1000, rec->linktype);
		if (i.has_src)
			mac("src", i.src);
		if (strcmp(i.llc, "epd") == 0 || strcmp(i.llc, "snap") == 0)
			printf(",\"llc\":\"%s\"", i.llc);
		if (i.freq_mhz)
			printf(",\"freq_mhz\":%u", i.freq_mhz);
		if (i.has_signal)
			printf(",\"rssi_dbm\":%d", i.signal_dbm);
		if (strcmp(i.encap, "none") != 0)
			printf(",\"encap\":\"%s\"", i.encap);
		if (i.udp_prefix)
			printf(",\"udp_prefix\":%" PRIu32, i.udp_prefix);
		if (i.has_wsmp) {
			printf(",\"wsmp_version\":%u", i.wsmp_version);
			if (i.has_wsmp_psid)
				printf(",\"psid\":%" PRIu32, i.wsmp_psid);
		}
		if (i.has_dot2)
			printf(",\"dot2\":\"%s\"", i.dot2_content);
		if (i.has_dot2_psid)
			printf(",\"dot2_psid\":%" PRIu32, i.dot2_psid);
		if (i.has_generation_time)
			printf(",\"dot2_generation_time\":%" PRIu64, i.generation_time_us);
		size_t len;
		const uint8_t *mf = v2x_frame_message(f, &len);
		if (i.has_message_id && mf)
			printf(",\"msgid\":%u,\"message_len\":%zu", i.message_id, len);
		if (i.trailing_octets)
			printf(",\"trailing_octets\":%zu", i.trailing_octets);
		if (i.error)
			printf(",\"error\":\"%s: %s\"", v2x_layer_name(i.error_layer), i.error);
		printf("}\n");
		n++;
	}
	struct v2x_capture_stats st = {.size = sizeof(st)};
	if (live && v2x_capture_stats(c, &st) == V2X_OK)
		fprintf(stderr, "%" PRIu64 " seen, %" PRIu64 " handed out, %" PRIu64
			" received, %" PRIu64 " dropped by the kernel\n",
			st.seen, st.handed_out, st.received, st.dropped_kernel);
	v2x_capture_close(c);
	return errors ? 1 : 0;
}
