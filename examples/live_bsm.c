/* Prints the BSMs an 802.11p radio hears, live, until Ctrl-C: a radiotap monitor vif
 * beside the OCB interface (libv2x's OCB control), libv2x's live capture on it, and
 * each BSM's core data from the decoder's walk.
 *   live_bsm OCB_IFACE [MONITOR]    (MONITOR: default mon0; CAP_NET_ADMIN, CAP_NET_RAW)
 * Build against the installed library: cc live_bsm.c $(pkg-config --cflags --libs v2x) */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <v2x/v2x.h>

static struct v2x_capture *cap;
static void stop(int sig) { (void)sig; v2x_capture_breakloop(cap); }

/* coreData's id, lat, long and speed: the walk's first members of those names */
struct core { int field, got; char id[9]; long long v[4]; };
static void on_key(void *ctx, const char *name)
{
	struct core *c = ctx;
	c->field = !strcmp(name, "lat") ? 1 : !strcmp(name, "long") ? 2
		 : !strcmp(name, "speed") ? 3 : !strcmp(name, "id") ? 4 : 0;
}
static void on_int(void *ctx, long long v)
{
	struct core *c = ctx;
	if (c->field && c->field < 4 && !(c->got & 1 << c->field))
		c->v[c->field] = v, c->got |= 1 << c->field;
}
static void on_octets(void *ctx, const uint8_t *p, size_t n)
{
	struct core *c = ctx;
	if (c->field == 4 && n == 4 && !c->id[0])
		snprintf(c->id, sizeof c->id, "%02x%02x%02x%02x", p[0], p[1], p[2], p[3]);
}

int main(int argc, char **argv)
{
	char errbuf[V2X_ERRBUF_SIZE];
	struct v2x_ocb_status st = {.size = sizeof(st)};
	const char *mon = argc == 3 ? argv[2] : "mon0";
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: live_bsm OCB_IFACE [MONITOR]\n");
		return 2;
	}
	struct v2x_ocb *o = v2x_ocb_open(errbuf);
	if (!o || v2x_ocb_status(o, argv[1], &st) < 0 || v2x_ocb_monitor_add(o, argv[1], mon) < 0) {
		fprintf(stderr, "live_bsm: %s\n  hint: %s\n", o ? v2x_ocb_geterr(o) : errbuf,
			o ? v2x_ocb_gethint(o) : "");
		return 1;
	}
	v2x_ocb_close(o);
	struct v2x_decoder *d = v2x_decoder_open(errbuf);
	if (!d || !(cap = v2x_capture_open_live(mon, 0, errbuf))) {
		fprintf(stderr, "live_bsm: %s\n", errbuf);
		return 1;
	}
	struct sigaction sa = {.sa_handler = stop}; /* no SA_RESTART: the wait ends */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	printf("%s: BSMs heard by %s (%u MHz)\n", mon, argv[1], st.freq_mhz);
	fflush(stdout);
	const struct v2x_frame *f;
	struct v2x_visitor vis = {.size = sizeof(vis), .key = on_key, .integer = on_int,
				  .octets = on_octets};
	int r;
	while ((r = v2x_capture_next(cap, NULL, &f)) != 0) {
		struct v2x_frame_info i = {.size = sizeof(i)};
		if (r < 0 || v2x_frame_get_info(f, &i) < 0 || !i.has_message_id || i.message_id != 20)
			continue; /* V2X_EAGAIN: a signal that was no breakloop */
		size_t len;
		const uint8_t *m = v2x_frame_message(f, &len);
		struct core c = {0};
		printf("%02x:%02x:%02x:%02x:%02x:%02x %4d dBm", i.src[0], i.src[1], i.src[2],
		       i.src[3], i.src[4], i.src[5], i.has_signal ? i.signal_dbm : 0);
		if (v2x_decode_walk(d, m, len, &vis, &c) == V2X_OK && c.got == 14 && c.id[0])
			printf(" id %s lat %.7f lon %.7f speed %.2f m/s\n", c.id, c.v[1] / 1e7,
			       c.v[2] / 1e7, c.v[3] * 0.02);
		else
			printf(" BSM not decoded: %s\n", v2x_decoder_geterr(d));
		fflush(stdout);
	}
	v2x_capture_close(cap);
	v2x_decoder_close(d);
	return 0;
}
