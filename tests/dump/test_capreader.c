/* The pcap/pcapng reader (lib/capture/capreader.c) and the frame-by-frame merge of several
 * files (lib/capture/capfile.c), on files written here octet by octet: both byte orders,
 * µs/ns/Kuznetzov pcap, pcapng sections, interfaces, time resolutions and offsets, simple and
 * obsolete packet blocks, unknown blocks, and corrupt or truncated input. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "capfile.h"
#include "capreader.h"
#include "frame.h"
#include "unit.h"

/* A file being built: octets in the byte order `be` asks for. */
struct out {
	uint8_t b[4096];
	size_t n;
	bool be;
};

static void put(struct out *o, const void *p, size_t n)
{
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

static void u16(struct out *o, uint16_t v)
{
	uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
	if (o->be) {
		b[0] = (uint8_t)(v >> 8);
		b[1] = (uint8_t)v;
	}
	put(o, b, 2);
}

static void u32(struct out *o, uint32_t v)
{
	if (o->be) {
		u16(o, (uint16_t)(v >> 16));
		u16(o, (uint16_t)v);
	} else {
		u16(o, (uint16_t)v);
		u16(o, (uint16_t)(v >> 16));
	}
}

static void set32(struct out *o, size_t at, uint32_t v)
{
	size_t n = o->n;
	o->n = at;
	u32(o, v);
	o->n = n;
}

static const uint8_t frame[] = {0xde, 0xad, 0xbe, 0xef, 0x01};

static void pcap_header(struct out *o, uint32_t magic, uint32_t linktype)
{
	u32(o, magic);
	u16(o, 2);
	u16(o, 4);
	u32(o, 0);
	u32(o, 0);
	u32(o, 65535);
	u32(o, linktype);
}

static void pcap_record(struct out *o, uint32_t sec, uint32_t frac, const uint8_t *d,
			uint32_t n)
{
	u32(o, sec);
	u32(o, frac);
	u32(o, n);
	u32(o, n + 10);
	put(o, d, n);
}

/* pcapng block: type, length, body (padded), length; returns the block's offset. */
static size_t ng_begin(struct out *o, uint32_t type)
{
	size_t at = o->n;
	u32(o, type);
	u32(o, 0); /* patched by ng_end */
	return at;
}

static void ng_end(struct out *o, size_t at)
{
	while (o->n % 4)
		o->b[o->n++] = 0;
	uint32_t len = (uint32_t)(o->n + 4 - at);
	u32(o, len);
	set32(o, at + 4, len);
}

static void ng_shb(struct out *o)
{
	size_t at = ng_begin(o, 0x0A0D0D0A);
	u32(o, 0x1A2B3C4D);
	u16(o, 1);
	u16(o, 0);
	u32(o, 0xFFFFFFFF); /* section length unknown */
	u32(o, 0xFFFFFFFF);
	ng_end(o, at);
}

/* An interface; tsresol < 0: none; tsoffset != 0: if_tsoffset option. */
static void ng_idb(struct out *o, uint16_t linktype, int tsresol, int64_t tsoffset)
{
	size_t at = ng_begin(o, 1);
	u16(o, linktype);
	u16(o, 0);
	u32(o, 0);
	if (tsresol >= 0) {
		u16(o, 9);
		u16(o, 1);
		uint8_t v[4] = {(uint8_t)tsresol};
		put(o, v, 4);
	}
	if (tsoffset) {
		u16(o, 14);
		u16(o, 8);
		uint64_t v = (uint64_t)tsoffset;
		if (o->be) {
			u32(o, (uint32_t)(v >> 32));
			u32(o, (uint32_t)v);
		} else {
			u32(o, (uint32_t)v);
			u32(o, (uint32_t)(v >> 32));
		}
	}
	u16(o, 0);
	u16(o, 0);
	ng_end(o, at);
}

static void ng_epb(struct out *o, uint32_t ifn, uint64_t ts, const uint8_t *d, uint32_t n)
{
	size_t at = ng_begin(o, 6);
	u32(o, ifn);
	u32(o, (uint32_t)(ts >> 32));
	u32(o, (uint32_t)ts);
	u32(o, n);
	u32(o, n);
	put(o, d, n);
	ng_end(o, at);
}

/* Writes the file; returns its malloc'd name (the case unlinks and frees it). */
static char *write_file(const struct out *o)
{
	char *name = strdup("/tmp/v2x-capreader-XXXXXX");
	int fd = mkstemp(name);
	CHECK(fd >= 0);
	CHECK_INT(write(fd, o->b, o->n), o->n);
	close(fd);
	return name;
}

static void remove_file(char *name)
{
	unlink(name);
	free(name);
}

static struct v2x_capreader *open_out(const struct out *o, char **name)
{
	char err[256] = "";
	*name = write_file(o);
	struct v2x_capreader *r = v2x_capreader_open(*name, 4096, err, sizeof(err));
	if (!r)
		unit_fail(__FILE__, __LINE__, "open: %s", err);
	return r;
}

TEST(capreader_pcap_both_byte_orders_and_precisions)
{
	static const uint32_t magics[] = {0xA1B2C3D4, 0xA1B23C4D};
	for (int be = 0; be < 2; be++)
		for (int m = 0; m < 2; m++) {
			struct out o = {.be = be};
			pcap_header(&o, magics[m], 127);
			pcap_record(&o, 1700000000, 123456, frame, sizeof(frame));
			char *name;
			struct v2x_capreader *r = open_out(&o, &name);
			struct v2x_record rec;
			CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_RECORD);
			CHECK_INT(rec.ts_ns, 1700000000000000000LL + (m ? 123456 : 123456000));
			CHECK_INT(rec.linktype, 127);
			CHECK_INT(rec.caplen, sizeof(frame));
			CHECK_INT(rec.origlen, sizeof(frame) + 10);
			CHECK_MEM(rec.data, frame, sizeof(frame));
			CHECK_INT(rec.number, 1);
			CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_END);
			CHECK_INT(v2x_capreader_offset(r), o.n);
			v2x_capreader_close(r);
			remove_file(name);
		}
}

TEST(capreader_pcap_kuznetzov_records)
{
	/* the old Linux patch's format: ifindex, protocol, pkt_type, pad after each header */
	struct out o = {.be = true};
	pcap_header(&o, 0xA1B2CD34, 105);
	for (uint32_t t = 1; t <= 2; t++) {
		u32(&o, t);
		u32(&o, 5);
		u32(&o, sizeof(frame));
		u32(&o, sizeof(frame));
		u32(&o, 3);             /* ifindex */
		u32(&o, 0x88DC0400);    /* protocol, pkt_type, pad */
		put(&o, frame, sizeof(frame));
	}
	char *name;
	struct v2x_capreader *r = open_out(&o, &name);
	struct v2x_record rec;
	for (int i = 1; i <= 2; i++) {
		CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_RECORD);
		CHECK_INT(rec.ts_ns, i * 1000000000LL + 5000);
		CHECK_INT(rec.caplen, sizeof(frame));
		CHECK_MEM(rec.data, frame, sizeof(frame));
	}
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_END);
	v2x_capreader_close(r);
	remove_file(name);
}

TEST(capreader_record_larger_than_the_buffer)
{
	static uint8_t big[3000];
	struct out o = {0};
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)i;
	pcap_header(&o, 0xA1B2C3D4, 1);
	pcap_record(&o, 1, 0, frame, sizeof(frame));
	pcap_record(&o, 2, 0, big, sizeof(big)); /* with the 4096-octet buffer: a refill */
	char *name = write_file(&o);
	char err[256];
	struct v2x_capreader *r = v2x_capreader_open(name, 1000, err, sizeof(err));
	struct v2x_record rec;
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_RECORD);
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_RECORD);
	CHECK_INT(rec.caplen, sizeof(big));
	CHECK_MEM(rec.data, big, sizeof(big));
	v2x_capreader_close(r);
	remove_file(name);
}

TEST(capreader_pcap_lying_caplen_is_an_error_with_the_frame)
{
	struct out o = {0};
	pcap_header(&o, 0xA1B2C3D4, 127);
	pcap_record(&o, 1, 0, frame, sizeof(frame));
	size_t at = o.n;
	pcap_record(&o, 2, 0, frame, sizeof(frame));
	set32(&o, at + 8, 0x7FFFFFF0);
	char *name;
	struct v2x_capreader *r = open_out(&o, &name);
	struct v2x_record rec;
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_RECORD);
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_ERROR);
	CHECK(strstr(v2x_capreader_error(r), "frame 2: captured length 2147483632 larger"));
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_END); /* fatal: the file ends */
	v2x_capreader_close(r);
	remove_file(name);
}

TEST(capreader_not_a_capture_and_short_headers)
{
	static const struct {
		const char *bytes;
		size_t n;
		const char *why;
	} cases[] = {
		{"", 0, "empty file"},
		{"GIF89a, not a capture at all", 28,
		 "not a pcap or pcapng capture, nor a WYDOT log, nor RSU records"},
		{"\xd4\xc3\xb2\xa1\x02\x00", 6, "truncated pcap file header (6 of 24 octets)"},
		{"\x0a\x0d\x0d\x0a\x1c\x00\x00\x00", 8, "truncated pcapng section header"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct out o = {0};
		put(&o, cases[i].bytes, cases[i].n);
		char *name = write_file(&o), err[256] = "";
		CHECK(v2x_capreader_open(name, 4096, err, sizeof(err)) == NULL);
		CHECK_STR(err, cases[i].why);
		remove_file(name);
	}
	char err[256];
	CHECK(v2x_capreader_open("/nonexistent/x.pcap", 4096, err, sizeof(err)) == NULL);
	CHECK_STR(err, "No such file or directory");
}

/* Two interfaces of different link types and time resolutions, an unknown block, a
 * simple packet block, in either byte order. */
static void pcapng_case(bool be)
{
	struct out o = {.be = be};
	ng_shb(&o);
	ng_idb(&o, 127, 9, 0);          /* radiotap, nanoseconds */
	ng_idb(&o, 1, -1, 1000);        /* Ethernet, default µs, 1000 s offset */
	size_t at = ng_begin(&o, 0x0BAD); /* unknown block: skipped */
	u32(&o, 42);
	ng_end(&o, at);
	ng_epb(&o, 0, 1700000000123456789ULL, frame, sizeof(frame));
	ng_epb(&o, 1, 5000001ULL, frame, 3);
	at = ng_begin(&o, 3);           /* simple packet block: interface 0 */
	u32(&o, sizeof(frame));
	put(&o, frame, sizeof(frame));
	ng_end(&o, at);
	char *name;
	struct v2x_capreader *r = open_out(&o, &name);
	struct v2x_record rec;
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_RECORD);
	CHECK_INT(rec.linktype, 127);
	CHECK_INT(rec.ts_ns, 1700000000123456789LL);
	CHECK_MEM(rec.data, frame, sizeof(frame));
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_RECORD);
	CHECK_INT(rec.linktype, 1);
	CHECK_INT(rec.ts_ns, 1005000001000LL); /* 5.000001 s + 1000 s */
	CHECK_INT(rec.caplen, 3);
	CHECK_INT(rec.number, 2);
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_RECORD);
	CHECK_INT(rec.linktype, 127);
	CHECK_INT(rec.caplen, sizeof(frame));
	CHECK_INT(rec.number, 3);
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_END);
	CHECK_INT(v2x_capreader_offset(r), o.n);
	v2x_capreader_close(r);
	remove_file(name);
}

TEST(capreader_pcapng_little_endian)
{
	pcapng_case(false);
}

TEST(capreader_pcapng_big_endian)
{
	pcapng_case(true);
}

TEST(capreader_pcapng_binary_time_resolution_and_new_section)
{
	struct out o = {0};
	ng_shb(&o);
	ng_idb(&o, 105, 0x80 | 20, 0);  /* 2^-20 s */
	ng_epb(&o, 0, (10ULL << 20) + (1ULL << 19), frame, 1);
	o.be = true;                    /* a second section, big endian, new interfaces */
	ng_shb(&o);
	ng_idb(&o, 276, -1, 0);
	ng_epb(&o, 0, 7, frame, 2);
	char *name;
	struct v2x_capreader *r = open_out(&o, &name);
	struct v2x_record rec;
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_RECORD);
	CHECK_INT(rec.ts_ns, 10500000000LL);
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_RECORD);
	CHECK_INT(rec.linktype, 276);
	CHECK_INT(rec.ts_ns, 7000);
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_END);
	v2x_capreader_close(r);
	remove_file(name);
}

TEST(capreader_pcapng_unsupported_interface_skipped_with_one_error)
{
	struct out o = {0};
	ng_shb(&o);
	ng_idb(&o, 228, -1, 0);         /* raw IPv4: not V2X */
	ng_idb(&o, 127, -1, 0);
	ng_epb(&o, 0, 1, frame, 1);
	ng_epb(&o, 1, 2, frame, 2);
	ng_epb(&o, 0, 3, frame, 3);
	char *name;
	struct v2x_capreader *r = open_out(&o, &name);
	struct v2x_record rec;
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_ERROR);
	CHECK(strstr(v2x_capreader_error(r), "interface 0: unsupported link type 228"));
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_RECORD);
	CHECK_INT(rec.caplen, 2);
	CHECK_INT(rec.number, 2);       /* frame numbers count the skipped ones */
	CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_END);
	v2x_capreader_close(r);
	remove_file(name);
}

TEST(capreader_pcapng_corrupt_blocks_are_fatal)
{
	static const char *const why[] = {
		"frame 2: interface 5 was not described",
		"invalid length 13",
		"trailing length differs",
		"frame 2: captured length 4096 larger than its block",
		"frame 2: truncated capture: block of",
	};
	for (int c = 0; c < 5; c++) {
		struct out o = {0};
		ng_shb(&o);
		ng_idb(&o, 127, -1, 0);
		ng_epb(&o, 0, 1, frame, 1);
		size_t at = o.n;
		ng_epb(&o, c == 0 ? 5 : 0, 2, frame, sizeof(frame));
		if (c == 1)
			set32(&o, at + 4, 13);
		if (c == 2)
			set32(&o, o.n - 4, 8);
		if (c == 3)
			set32(&o, at + 20, 4096);
		if (c == 4)
			o.n -= 2;
		char *name;
		struct v2x_capreader *r = open_out(&o, &name);
		struct v2x_record rec;
		CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_RECORD);
		CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_ERROR);
		if (!strstr(v2x_capreader_error(r), why[c]))
			unit_fail(__FILE__, __LINE__, "case %d: \"%s\"", c,
				  v2x_capreader_error(r));
		CHECK_INT(v2x_capreader_next(r, &rec), V2X_RD_END);
		v2x_capreader_close(r);
		remove_file(name);
	}
}

TEST(capfile_merges_files_frame_by_frame)
{
	/* a: t = 1, 3, 5 s; b: t = 2, 3, 4 s; equal times: command-line order */
	struct out a = {0}, b = {0};
	pcap_header(&a, 0xA1B2C3D4, 127);
	pcap_header(&b, 0xA1B2C3D4, 127);
	static const uint32_t ta[] = {1, 3, 5}, tb[] = {2, 3, 4};
	for (int i = 0; i < 3; i++) {
		pcap_record(&a, ta[i], 0, frame, 1);
		pcap_record(&b, tb[i], 0, frame, 2);
	}
	char *files[] = {write_file(&b), write_file(&a)};
	struct v2x_capfile *cf = v2x_capfile_open(files, 2);
	struct v2x_capframe fr;
	static const int64_t want_s[] = {1, 2, 3, 3, 4, 5};
	static const int want_file[] = {1, 0, 0, 1, 0, 1}; /* index in files[] */
	for (int i = 0; i < 6; i++) {
		CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_FRAME);
		CHECK_INT(fr.ts_ns, want_s[i] * 1000000000LL);
		CHECK_STR(fr.file, files[want_file[i]]);
		CHECK_INT(fr.caplen, want_file[i] ? 1 : 2);
	}
	CHECK_INT(v2x_capfile_next(cf, &fr), V2X_CAP_END);
	uint64_t done, total;
	v2x_capfile_progress(cf, &done, &total);
	CHECK_INT(done, a.n + b.n);
	CHECK_INT(total, a.n + b.n);
	v2x_capfile_close(cf);
	remove_file(files[0]);
	remove_file(files[1]);
}

/* jpo-ode's sample WYDOT log (tests/vectors/jpo-ode/bsmTx.bin, 16 bsmLogRec records). */
static void read_vector(struct out *o, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/jpo-ode/%s", V2X_VECTORS_DIR, name);
	FILE *f = fopen(path, "rb");
	CHECK(f != NULL);
	o->n = fread(o->b, 1, sizeof(o->b), f);
	CHECK(feof(f));
	fclose(f);
}

/* Reads the records of a WYDOT log: their count, the first one's time and length. */
static unsigned wydot_records(const char *name, uint64_t *first_ns, uint32_t *first_len,
			      const char **last_err)
{
	char err[256];
	struct v2x_capreader *r = v2x_capreader_open(name, 4096, err, sizeof(err));
	CHECK(r != NULL);
	struct v2x_record rec;
	enum v2x_rd_result res;
	unsigned n = 0;
	*last_err = NULL;
	while ((res = v2x_capreader_next(r, &rec)) != V2X_RD_END) {
		if (res == V2X_RD_ERROR) {
			*last_err = strdup(v2x_capreader_error(r));
			continue;
		}
		CHECK_INT(rec.linktype, V2X_LINK_WYDOT);
		if (n++ == 0) {
			*first_ns = (uint64_t)rec.ts_ns;
			*first_len = rec.caplen;
		}
	}
	v2x_capreader_close(r);
	return n;
}

TEST(capreader_wydot_log_plain_gzip_and_cut_short)
{
	static const char *files[] = {"bsmTx.bin", "bsmTx.gz"};
	for (size_t i = 0; i < 2; i++) {
		struct out o = {0};
		read_vector(&o, files[i]);
		char *name = write_file(&o);
		uint64_t t = 0;
		uint32_t len = 0;
		const char *err;
		CHECK_INT(wydot_records(name, &t, &len, &err), 16);
		CHECK(err == NULL);
		/* 2018-05-01T15:10:25.399Z (the ODE's recordGeneratedAt); kind octet, 26-octet
		 * header, 192-octet payload */
		CHECK_INT(t, 1525187425399000000ull);
		CHECK_INT(len, 1 + 26 + 192);
		remove_file(name);
	}
	/* A log copied while written: the whole records, then the cut one as an error. */
	struct out o = {0};
	read_vector(&o, "bsmTx.bin");
	o.n -= 10;
	char *name = write_file(&o);
	uint64_t t;
	uint32_t len;
	const char *err;
	CHECK_INT(wydot_records(name, &t, &len, &err), 15);
	CHECK(err != NULL && strncmp(err, "frame 16: truncated WYDOT log", 29) == 0);
	free((void *)err);
	remove_file(name);
}
