/* Sends a BSM beacon at 10 Hz, as a vehicle does, until Ctrl-C or COUNT messages: msgCnt
 * counting 0..127, secMark from the clock, a fixed TemporaryID and position; out of an OCB
 * interface through libv2x's transmitter (it refuses any other interface).
 *   bsm_beacon OCB_IFACE TEMP_ID_HEX LAT LON [COUNT]    (needs CAP_NET_RAW)
 * Build against the installed library: cc bsm_beacon.c $(pkg-config --cflags --libs v2x) */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <v2x/v2x.h>

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

int main(int argc, char **argv)
{
	char errbuf[V2X_ERRBUF_SIZE];
	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: bsm_beacon OCB_IFACE TEMP_ID_HEX LAT LON [COUNT]\n");
		return 2;
	}
	struct v2x_bsm_fields b = {.size = sizeof(b)};
	v2x_bsm_fields_init(&b);
	b.temp_id = (uint32_t)strtoul(argv[2], NULL, 16);
	b.lat = (int32_t)(atof(argv[3]) * 1e7);
	b.lon = (int32_t)(atof(argv[4]) * 1e7);
	long count = argc == 6 ? atol(argv[5]) : 0;
	struct v2x_tx *tx = v2x_tx_open(argv[1], 0, errbuf);
	if (!tx) {
		fprintf(stderr, "bsm_beacon: %s\n", errbuf);
		return 1;
	}
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	const struct v2x_wsmp_params w = {.size = sizeof(w), .psid = 0x20};
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	long sent = 0;
	while (!stop && (!count || sent < count)) {
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		b.sec_mark = (uint16_t)(now.tv_sec % 60 * 1000 + now.tv_nsec / 1000000);
		uint8_t bsm[64];
		size_t n;
		if (v2x_bsm_build(&b, bsm, sizeof(bsm), &n) < 0) {
			fprintf(stderr, "bsm_beacon: LAT or LON out of range\n");
			break;
		}
		if (v2x_tx_send_wsmp(tx, &w, bsm, n) < 0) {
			fprintf(stderr, "bsm_beacon: %s\n", v2x_tx_geterr(tx));
			break;
		}
		sent++;
		b.msg_cnt = (uint8_t)((b.msg_cnt + 1) % 128);
		next.tv_nsec += 100000000; /* 10 Hz, on a fixed grid: no drift */
		if (next.tv_nsec >= 1000000000L)
			next.tv_sec++, next.tv_nsec -= 1000000000L;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	printf("bsm_beacon: %ld BSMs sent on %s\n", sent, argv[1]);
	v2x_tx_close(tx);
	return stop || sent == count ? 0 : 1;
}
