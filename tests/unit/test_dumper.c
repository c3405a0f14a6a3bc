/* The capture writer (<v2x/dump.h>, lib/capture/dumper.c): what it writes, libpcap reads
 * back frame for frame; pcapng carries the interface name and channel; rotation splits
 * files. */
#define _GNU_SOURCE
#include <dirent.h>
#include <pcap/pcap.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"

#include <v2x/dump.h>

/* The first frame of a sample capture (an Ethernet/OCB BSM). */
struct sample {
	uint8_t data[2048];
	uint32_t len;
};

static void load_sample(struct sample *s)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(V2X_CAPTURES_DIR "/bsm-ether-unsecured.pcap", err);
	struct pcap_pkthdr *h;
	const u_char *data;
	if (!p || pcap_next_ex(p, &h, &data) != 1) {
		unit_fail(__FILE__, __LINE__, "cannot read the sample capture: %s", err);
		exit(1);
	}
	s->len = h->caplen;
	memcpy(s->data, data, h->caplen);
	pcap_close(p);
}

/* Removes the files of a temp_dir() and the directory. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[64 + sizeof e->d_name];
	while (d && (e = readdir(d)) != NULL) {
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.')
			unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* A fresh directory under /tmp in dir[64]. */
static const char *temp_dir(char *dir)
{
	snprintf(dir, 64, "/tmp/v2x-dumper-XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	return dir;
}

/* Writes n copies of the sample 1 s apart, from t0. */
static unsigned write_frames(const struct v2x_dumper_conf *conf, const struct sample *s,
			     unsigned n)
{
	char err[V2X_ERRBUF_SIZE];
	struct v2x_dumper *w = v2x_dumper_open(conf, err);
	CHECK(w != NULL);
	if (!w)
		return 0;
	for (unsigned i = 0; i < n; i++)
		CHECK_INT(v2x_dump(w, 1700000000000000000LL + i * 1000000000LL, s->data, s->len,
				   s->len + 4), V2X_OK);
	unsigned files = v2x_dumper_files(w);
	CHECK_INT(v2x_dumper_close(w, err), V2X_OK);
	return files;
}

/* Frames of a file as libpcap sees them; checks each equals the sample. */
static unsigned read_back(const char *path, const struct sample *s, int64_t *first_us)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path, err);
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned n = 0;
	if (!p) {
		unit_fail(__FILE__, __LINE__, "libpcap cannot open %s: %s", path, err);
		return 0;
	}
	CHECK_INT(pcap_datalink(p), DLT_EN10MB);
	while (pcap_next_ex(p, &h, &data) == 1) {
		if (n++ == 0 && first_us)
			*first_us = (int64_t)h->ts.tv_sec * 1000000 + h->ts.tv_usec;
		CHECK_INT(h->caplen, s->len);
		CHECK_INT(h->len, s->len + 4);
		CHECK_MEM(data, s->data, s->len);
	}
	pcap_close(p);
	return n;
}

/* A case's sample frame, a fresh directory and the path of the file to write in it;
 * case_done removes the directory. */
struct case_files {
	struct sample s;
	char dir[64];
	char path[128];
};

static void case_init(struct case_files *c, const char *file)
{
	load_sample(&c->s);
	temp_dir(c->dir);
	snprintf(c->path, sizeof c->path, "%s/%s", c->dir, file);
}

static void case_done(struct case_files *c)
{
	remove_dir(c->dir);
}

/* The first n octets of a file; how many it holds. */
static size_t file_head(const char *path, uint8_t *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	size_t got = f ? fread(buf, 1, n, f) : 0;
	if (f)
		fclose(f);
	return got;
}

TEST(dumper_pcapng_reads_back_every_frame)
{
	struct case_files c;
	case_init(&c, "a.pcapng");
	const struct v2x_dumper_conf conf = {
		.size = sizeof(conf), .path = c.path, .linktype = DLT_EN10MB,
		.if_name = "wlan1"};
	CHECK_INT(write_frames(&conf, &c.s, 3), 1);
	int64_t first = 0;
	CHECK_INT(read_back(c.path, &c.s, &first), 3);
	CHECK_INT(first, 1700000000000000LL);
	uint8_t magic[4];
	CHECK_INT(file_head(c.path, magic, 4), 4);
	CHECK_INT(magic[0], 0x0a); /* section header block */
	case_done(&c);
}

TEST(dumper_pcapng_names_interface_and_channel)
{
	struct case_files c;
	case_init(&c, "b.pcapng");
	const char *desc = "wlan1, 5890 MHz (channel 178), 10 MHz";
	const struct v2x_dumper_conf conf = {
		.size = sizeof(conf), .path = c.path, .linktype = DLT_EN10MB,
		.if_name = "wlan1", .if_desc = desc};
	write_frames(&conf, &c.s, 1);
	uint8_t buf[512];
	size_t n = file_head(c.path, buf, sizeof buf);
	/* IDB right after the 28-octet SHB: type 1, link type, options 2 (name), 3 (desc). */
	CHECK(n > 28 + 20);
	CHECK_INT(buf[28], 1);
	CHECK_INT(buf[36], DLT_EN10MB);
	CHECK_INT(buf[44], 2);
	CHECK_INT(buf[46], 5);
	CHECK_MEM(buf + 48, "wlan1", 5);
	CHECK_INT(buf[56], 3);
	CHECK_INT(buf[58], strlen(desc));
	CHECK_MEM(buf + 60, desc, strlen(desc));
	case_done(&c);
}

TEST(dumper_pcap_extension_writes_classic_pcap)
{
	struct case_files c;
	case_init(&c, "c.pcap");
	const struct v2x_dumper_conf conf = {
		.size = sizeof(conf), .path = c.path, .linktype = DLT_EN10MB,
		.if_name = "wlan1"};
	write_frames(&conf, &c.s, 2);
	uint8_t magic[4];
	CHECK_INT(file_head(c.path, magic, 4), 4);
	CHECK_INT(magic[0], 0xd4); /* a1b2c3d4 little endian: microseconds */
	CHECK_INT(read_back(c.path, &c.s, NULL), 2);
	case_done(&c);
}

TEST(dumper_rotates_by_size_into_numbered_files)
{
	struct case_files c;
	case_init(&c, "d.pcapng");
	/* room for about two frames per file */
	const struct v2x_dumper_conf conf = {
		.size = sizeof(conf), .path = c.path, .linktype = DLT_EN10MB,
		.if_name = "wlan1", .rotate_bytes = (uint64_t)(100 + 2 * (c.s.len + 40))};
	CHECK_INT(write_frames(&conf, &c.s, 5), 3);
	unsigned total = 0;
	char part[128];
	for (int i = 1; i <= 3; i++) {
		snprintf(part, sizeof part, "%s/d-%05d.pcapng", c.dir, i);
		total += read_back(part, &c.s, NULL);
	}
	CHECK_INT(total, 5);
	case_done(&c);
}

TEST(dumper_rotates_by_time)
{
	struct case_files c;
	case_init(&c, "e.pcap");
	const struct v2x_dumper_conf conf = {
		.size = sizeof(conf), .path = c.path, .linktype = DLT_EN10MB,
		.if_name = "wlan1", .rotate_ns = 2000000000};
	CHECK_INT(write_frames(&conf, &c.s, 5), 3); /* t = 0,1 | 2,3 | 4 s */
	int64_t first = 0;
	char part[128];
	snprintf(part, sizeof part, "%s/e-00002.pcap", c.dir);
	CHECK_INT(read_back(part, &c.s, &first), 2);
	CHECK_INT(first, 1700000002000000LL);
	case_done(&c);
}
