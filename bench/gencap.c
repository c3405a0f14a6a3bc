/* Benchmark capture generator: writes a large, realistic radiotap pcap of 802.11p OCB
 * frames carrying real J2735 payloads from the test vectors (tests/vectors) (BSMs from many senders at
 * 10 Hz with ~1% loss, SPaT, MAP, a signed TIM), deterministic for a given seed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsm.h"
#include "frame.h"
#include "frame_write.h"
#include "hex.h"
#include "j2735.h"
#include "pcap_write.h"
#include "registry.h"

#define MAX_BSMS 128
#define MAX_PAYLOAD 2048
#define TS_START_US INT64_C(1767225600000000) /* 2026-01-01T00:00:00Z */

struct blob {
	uint8_t *p;
	size_t len;
};

struct payloads {
	struct blob file_bsm, spat, map, tim;
	struct blob bsm[MAX_BSMS];  /* point into file_bsm */
	size_t bsm_value_off[MAX_BSMS]; /* where each BSM's value (after the header) starts */
	size_t n_bsm;
};

struct gen {
	FILE *out;
	uint64_t rng;
	uint16_t seq;
	struct v2x_buf wsm, body, frame, rec; /* reused from frame to frame */
};

static uint32_t rnd(struct gen *g)
{
	/* xorshift64*: good enough for picking RSSI values and losses */
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return (uint32_t)((g->rng * UINT64_C(2685821657736338717)) >> 32);
}

static int read_file(const char *dir, const char *rel, struct blob *b)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	b->p = NULL;
	b->len = 0;
	size_t cap = 0;
	for (;;) {
		if (b->len == cap) {
			cap = cap ? cap * 2 : 65536;
			uint8_t *np = realloc(b->p, cap + 1);
			if (!np) {
				fclose(f);
				return -1;
			}
			b->p = np;
		}
		size_t n = fread(b->p + b->len, 1, cap - b->len, f);
		if (n == 0)
			break;
		b->len += n;
	}
	b->p[b->len] = 0;
	fclose(f);
	return 0;
}

/* The hex inside <asn1>...</asn1> of an ODE decoder-output file, as bytes. */
static int read_ode_hex(const char *dir, const char *rel, struct blob *b)
{
	struct blob txt;
	if (read_file(dir, rel, &txt) < 0)
		return -1;
	const char *a = strstr((char *)txt.p, "<asn1>");
	const char *e = a ? strstr(a, "</asn1>") : NULL;
	b->p = malloc(txt.len / 2 + 1);
	b->len = 0;
	if (!a || !e || !b->p) {
		fprintf(stderr, "gencap: no <asn1> hex in %s/%s\n", dir, rel);
		free(txt.p);
		return -1;
	}
	size_t at;
	long n = v2x_hex_decode(a + 6, (size_t)(e - a - 6), b->p, txt.len / 2 + 1, &at);
	if (n < 0) {
		fprintf(stderr, "gencap: bad <asn1> hex in %s/%s\n", dir, rel);
		free(txt.p);
		return -1;
	}
	b->len = (size_t)n;
	free(txt.p);
	return 0;
}

static int load_payloads(const char *dir, struct payloads *pl)
{
	memset(pl, 0, sizeof(*pl));
	if (read_file(dir, "asn1_codec/j2735.MessageFrame.128.bsms.uper", &pl->file_bsm) < 0 ||
	    read_ode_hex(dir, "jpo-ode/decoder-output-spat.xml", &pl->spat) < 0 ||
	    read_ode_hex(dir, "jpo-ode/decoder-output-map.xml", &pl->map) < 0 ||
	    read_ode_hex(dir, "jpo-ode/decoder-output-tim.xml", &pl->tim) < 0)
		return -1;
	/* The BSM file holds MessageFrames back to back: split them by their length. */
	size_t off = 0;
	while (off < pl->file_bsm.len && pl->n_bsm < MAX_BSMS) {
		struct v2x_msgframe mf;
		const char *why;
		if (v2x_msgframe_parse(pl->file_bsm.p + off, pl->file_bsm.len - off, &mf, &why) < 0)
			break;
		pl->bsm[pl->n_bsm].p = pl->file_bsm.p + off;
		pl->bsm_value_off[pl->n_bsm] = mf.frame_len - mf.value_len;
		pl->bsm[pl->n_bsm++].len = mf.frame_len;
		off += mf.frame_len;
	}
	if (pl->n_bsm == 0) {
		fprintf(stderr, "gencap: no BSM MessageFrame in the vectors\n");
		return -1;
	}
	return 0;
}

struct sender {
	uint8_t mac[6];
	uint32_t temp_id;
	uint8_t msg_cnt;
};

/* The mixes, of every 20 frames: BSMs (senders in turn), SPaT, MAP; the rest TIM. */
struct mix {
	const char *name;
	unsigned bsm, spat, map;
};

static const struct mix mixes[] = {
	{"bsm", 16, 2, 1},          /* a road with traffic: mostly BSMs */
	{"intersection", 2, 9, 8},  /* RSUs at intersections: MAP and SPaT */
};

/* One frame of the mix. Returns 1 when written, 0 when the frame was "lost", -1 on a
 * write error. */
static int gen_frame(struct gen *g, const struct payloads *pl, const struct mix *mx,
		     struct sender *snd, size_t n_snd, uint64_t i, int64_t ts_us)
{
	uint8_t msg[MAX_PAYLOAD];
	unsigned slot = (unsigned)(i % 20);
	struct v2x_link_spec link = {.linktype = V2X_LINK_RADIOTAP,
				     .tsft = (uint64_t)ts_us, .freq = 5860, .width = 10,
				     .rate = 12};
	struct v2x_wsmp_spec wsmp = {.version = 3, .length = -1};
	const uint8_t *payload;
	size_t len;
	v2x_buf_reset(&g->wsm);
	if (slot < mx->bsm) {
		uint64_t k = i / 20 * mx->bsm + slot;
		struct sender *s = &snd[k % n_snd];
		const struct blob *b = &pl->bsm[k % pl->n_bsm];
		size_t value_off = pl->bsm_value_off[k % pl->n_bsm];
		s->msg_cnt = (uint8_t)((s->msg_cnt + 1) % 128);
		if (rnd(g) % 100 == 0)
			return 0; /* lost on the air: its msgCnt is skipped */
		memcpy(msg, b->p, b->len);
		/* secMark: generated 1..4 ms before capture, as by a GNSS-synchronised OBU */
		struct v2x_bsm_head h = {
			.msg_cnt = s->msg_cnt, .id = s->temp_id,
			.sec_mark = (uint16_t)((ts_us / 1000 - 1 - rnd(g) % 4) % 60000)};
		v2x_bsm_head_write(msg + value_off, b->len - value_off, &h);
		link.rssi = (int8_t)(-40 - (int)(rnd(g) % 55));
		link.llc = V2X_LLC_EPD;
		memcpy(link.src, s->mac, 6);
		wsmp.psid = V2X_PSID_BSM;
		v2x_dot2_write(&g->wsm, &(struct v2x_dot2_spec){.content = V2X_DOT2_UNSECURED},
			       msg, b->len);
		payload = g->wsm.p;
		len = g->wsm.len;
	} else {
		static const uint8_t rsu[6] = {0x02, 0x52, 0x53, 0x55, 0x00, 0x01};
		bool tim = slot >= mx->bsm + mx->spat + mx->map;
		const struct blob *b = slot < mx->bsm + mx->spat ? &pl->spat : tim ? &pl->tim
										  : &pl->map;
		link.freq = tim ? 5890 : 5860;
		link.rssi = (int8_t)(-60 - (int)(rnd(g) % 20));
		link.llc = V2X_LLC_SNAP;
		memcpy(link.src, rsu, 6);
		wsmp.psid = tim ? 0x83 : 0x82;
		payload = b->p;
		len = b->len;
	}
	v2x_buf_reset(&g->body);
	v2x_wsmp_write(&g->body, &wsmp, payload, len);
	v2x_buf_reset(&g->frame);
	link.seq = g->seq++;
	v2x_link_write(&g->frame, &link, V2X_ETHERTYPE_WSMP, g->body.p, g->body.len);
	v2x_buf_reset(&g->rec);
	v2x_pcap_write_record(&g->rec, false, ts_us, g->frame.p, (uint32_t)g->frame.len,
			      (uint32_t)g->frame.len);
	return !g->rec.err && fwrite(g->rec.p, 1, g->rec.len, g->out) == g->rec.len ? 1 : -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: gencap [--frames N] [--senders N] [--seed N] [--vectors DIR] "
			"[--mix bsm|intersection] OUT.pcap|-\n"
			"  writes N frames (default 1000000) of radiotap 802.11p OCB WSMP traffic;\n"
			"  of every 20: bsm 16 BSM, 2 SPaT, 1 MAP, 1 TIM (default);\n"
			"  intersection 2 BSM, 9 SPaT, 8 MAP, 1 TIM\n");
}

int main(int argc, char **argv)
{
	uint64_t frames = 1000000, n_snd = 200, seed = 1;
	const char *vectors = V2X_VECTORS_DIR, *out = NULL;
	const struct mix *mx = &mixes[0];
	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--frames") == 0)
			frames = strtoull(argv[++i], NULL, 10);
		else if (i + 1 < argc && strcmp(argv[i], "--senders") == 0)
			n_snd = strtoull(argv[++i], NULL, 10);
		else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)
			seed = strtoull(argv[++i], NULL, 10);
		else if (i + 1 < argc && strcmp(argv[i], "--vectors") == 0)
			vectors = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--mix") == 0) {
			const char *m = argv[++i];
			mx = NULL;
			for (size_t k = 0; k < sizeof(mixes) / sizeof(mixes[0]); k++)
				if (strcmp(m, mixes[k].name) == 0)
					mx = &mixes[k];
			if (!mx)
				return usage(), 2;
		}
		else if (!out && argv[i][0] != '-')
			out = argv[i];
		else if (!out && strcmp(argv[i], "-") == 0)
			out = argv[i];
		else
			return usage(), 2;
	}
	if (!out || n_snd == 0 || n_snd > 1000000)
		return usage(), 2;
	struct payloads pl;
	if (load_payloads(vectors, &pl) < 0)
		return 1;
	struct sender *snd = calloc(n_snd, sizeof(*snd));
	struct gen g = {.out = strcmp(out, "-") == 0 ? stdout : fopen(out, "wb"),
			.rng = seed * 0x9E3779B97F4A7C15u + 1};
	if (!snd || !g.out) {
		perror(out);
		return 1;
	}
	setvbuf(g.out, NULL, _IOFBF, 1 << 20);
	for (uint64_t s = 0; s < n_snd; s++) {
		uint8_t m[6] = {0x02, 0x00, (uint8_t)(s >> 24), (uint8_t)(s >> 16),
				(uint8_t)(s >> 8), (uint8_t)s};
		memcpy(snd[s].mac, m, 6);
		snd[s].temp_id = 0x10000000u + (uint32_t)s;
		snd[s].msg_cnt = (uint8_t)(rnd(&g) % 128);
	}
	/* Each sender sends 10 BSMs/s; they are mx->bsm of every 20 frames. */
	double frame_us = 1e6 / ((double)n_snd * 10.0 * 20.0 / mx->bsm);
	v2x_pcap_write_header(&g.rec, &(struct v2x_pcap_conf){.linktype = V2X_LINK_RADIOTAP,
								.snaplen = 65535});
	int rc = fwrite(g.rec.p, 1, g.rec.len, g.out) == g.rec.len ? 0 : -1;
	for (uint64_t i = 0, written = 0; written < frames && rc >= 0; i++) {
		rc = gen_frame(&g, &pl, mx, snd, n_snd, i,
			       TS_START_US + (int64_t)((double)i * frame_us));
		written += rc > 0;
	}
	if (rc < 0 || fflush(g.out) != 0 || (g.out != stdout && fclose(g.out) != 0)) {
		perror(out);
		return 1;
	}
	free(snd);
	v2x_buf_free(&g.wsm);
	v2x_buf_free(&g.body);
	v2x_buf_free(&g.frame);
	v2x_buf_free(&g.rec);
	free(pl.file_bsm.p);
	free(pl.spat.p);
	free(pl.map.p);
	free(pl.tim.p);
	return 0;
}
