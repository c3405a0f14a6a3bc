/* BSM core data (lib/bsm.c) against the asn1_codec vectors and their XER decodes, and the
 * writer against the reader and the bytes asn1c encodes. */
#include <stdlib.h>
#include <string.h>

#include "bsm.h"
#include "ieee1609dot2.h"
#include "j2735.h"
#include "unit.h"

TEST(bsm_head_reads_the_vector_bsm)
{
	size_t len;
	uint8_t *mf = unit_vector_file("asn1_codec/j2735.MessageFrame.Bsm.uper", &len);
	if (!mf)
		return;
	/* MessageFrame: 00 14 = BSM, 80 AD = 2-octet length 173, then the BSM */
	struct v2x_bsm_head h;
	CHECK_INT(v2x_bsm_head_read(mf + 4, len - 4, &h), 0);
	/* j2735.MessageFrame.Bsm.xml: msgCnt 88, id BE A1 00 00, secMark 59299 */
	CHECK_INT(h.msg_cnt, 88);
	CHECK_INT(h.id, 0xBEA10000);
	CHECK_INT(h.sec_mark, 59299);
	free(mf);
}

static long xer_next(const char **p, const char *tag)
{
	const char *t = strstr(*p, tag);
	if (!t)
		return -1;
	*p = t + strlen(tag);
	return strtol(*p, NULL, 10);
}

static uint32_t xer_next_id(const char **p)
{
	const char *t = strstr(*p, "<id>");
	uint32_t id = 0;
	if (!t)
		return 0;
	*p = t + 4;
	for (int i = 0; i < 4; i++)
		id = id << 8 | (uint32_t)strtoul(*p + 3 * i, NULL, 16);
	return id;
}

/* Every core field of the 128 BSMs as asn1_codec's XER decode shows it; the head reader
 * agrees with the full reader. Returns how many BSMs were compared. */
static int check_128(const uint8_t *u, size_t len, const char *xer)
{
	const char *p = xer;
	size_t off = 0;
	int n = 0;
	while (off < len) {
		struct v2x_msgframe mf;
		const char *why;
		if (v2x_msgframe_parse(u + off, len - off, &mf, &why) < 0)
			break;
		struct v2x_bsm_head h;
		struct v2x_bsm_core c;
		CHECK_INT(v2x_bsm_head_read(mf.value, mf.value_len, &h), 0);
		CHECK_INT(v2x_bsm_core_read(mf.value, mf.value_len, &c), 0);
		CHECK_INT(h.msg_cnt, xer_next(&p, "<msgCnt>"));
		CHECK_INT(h.id, xer_next_id(&p));
		CHECK_INT(h.sec_mark, xer_next(&p, "<secMark>"));
		CHECK_INT(c.msg_cnt, h.msg_cnt);
		CHECK_INT(c.id, h.id);
		CHECK_INT(c.sec_mark, h.sec_mark);
		CHECK_INT(c.lat, xer_next(&p, "<lat>"));
		CHECK_INT(c.lon, xer_next(&p, "<long>"));
		CHECK_INT(c.elev, xer_next(&p, "<elev>"));
		CHECK_INT(c.semi_major, xer_next(&p, "<semiMajor>"));
		CHECK_INT(c.semi_minor, xer_next(&p, "<semiMinor>"));
		CHECK_INT(c.orientation, xer_next(&p, "<orientation>"));
		CHECK_INT(c.speed, xer_next(&p, "<speed>"));
		CHECK_INT(c.heading, xer_next(&p, "<heading>"));
		CHECK_INT(c.angle, xer_next(&p, "<angle>"));
		CHECK_INT(c.accel_long, xer_next(&p, "<long>"));
		CHECK_INT(c.accel_lat, xer_next(&p, "<lat>"));
		CHECK_INT(c.accel_vert, xer_next(&p, "<vert>"));
		CHECK_INT(c.yaw_rate, xer_next(&p, "<yaw>"));
		CHECK_INT(c.width, xer_next(&p, "<width>"));
		CHECK_INT(c.length, xer_next(&p, "<length>"));
		off += mf.frame_len;
		n++;
	}
	return n;
}

TEST(bsm_core_matches_128_xer_decodes)
{
	size_t len, xlen;
	uint8_t *u = unit_vector_file("asn1_codec/j2735.MessageFrame.128.bsms.uper", &len);
	uint8_t *x = unit_vector_file("asn1_codec/j2735.MessageFrame.128.bsms.xer", &xlen);
	if (u && x) {
		char *xer = malloc(xlen + 1);
		memcpy(xer, x, xlen);
		xer[xlen] = 0;
		CHECK_INT(check_128(u, len, xer), 128);
		free(xer);
	}
	free(u);
	free(x);
}

TEST(bsm_head_too_short_is_an_error)
{
	uint8_t v[8] = {0};
	struct v2x_bsm_head h;
	struct v2x_bsm_core c;
	CHECK_INT(v2x_bsm_head_read(v, 7, &h), -1);
	CHECK_INT(v2x_bsm_head_read(v, 8, &h), 0); /* 58 bits fit in 8 octets */
	CHECK_INT(v2x_bsm_core_read(v, 8, &c), -1);
	CHECK_INT(v2x_bsm_head_write(v, 7, &h), -1);
}

/* The bytes asn1c's encoder (generated from the J2735 2024 schema) wrote for this core
 * data with every other field unavailable. */
#define ASN1C_BSM "001425162fa8400039e8e717090f9665fe1bacc37ffffffff1653bbafdfa1fa1007fff8000000000"

static void example_core(struct v2x_bsm_core *c)
{
	v2x_bsm_core_unavailable(c);
	c->msg_cnt = 88;
	c->id = 0xBEA10000;
	c->sec_mark = 59299;
	c->lat = 411642143;
	c->lon = -1048434120;
	c->elev = 18822;
	c->speed = 714;
	c->heading = 15290;
}

TEST(bsm_writer_writes_what_asn1c_encodes)
{
	struct v2x_bsm_core c;
	struct v2x_buf b = {0};
	size_t len;
	uint8_t *want = unit_hex(ASN1C_BSM, &len);
	example_core(&c);
	CHECK_INT(v2x_bsm_frame_write(&b, &c), 0);
	CHECK_INT(b.len, len);
	if (b.len == len)
		CHECK_MEM(b.p, want, len);
	free(want);
	v2x_buf_free(&b);
}

TEST(bsm_writer_round_trips_through_the_reader)
{
	struct v2x_bsm_core c = {
		.msg_cnt = 127, .id = 0x01020304, .sec_mark = 60001, .lat = -900000000,
		.lon = 1800000001, .elev = 61439, .semi_major = 1, .semi_minor = 2,
		.orientation = 3, .transmission = 2, .speed = 8190, .heading = 28800,
		.angle = -126, .accel_long = -2000, .accel_lat = 2001, .accel_vert = 127,
		.yaw_rate = -32767, .wheel_brakes = 0x0F, .traction = 1, .abs = 2, .scs = 3,
		.brake_boost = 1, .aux_brakes = 2, .width = 1023, .length = 4095};
	struct v2x_bsm_core r;
	struct v2x_buf b = {0};
	CHECK_INT(v2x_bsm_frame_write(&b, &c), 0);
	struct v2x_msgframe mf;
	const char *why;
	CHECK_INT(v2x_msgframe_parse(b.p, b.len, &mf, &why), 0);
	CHECK_INT(mf.msg_id, V2X_BSM_MSG_ID);
	CHECK_INT(v2x_bsm_core_read(mf.value, mf.value_len, &r), 0);
	/* field by field through a second encoding: the structs' padding is unspecified */
	struct v2x_buf again = {0};
	CHECK_INT(v2x_bsm_frame_write(&again, &r), 0);
	CHECK_INT(again.len, b.len);
	CHECK_MEM(again.p, b.p, b.len);
	CHECK_INT(r.lat, c.lat);
	CHECK_INT(r.yaw_rate, c.yaw_rate);
	CHECK_INT(r.length, c.length);
	v2x_buf_free(&again);
	c.heading = 28801; /* above the range, though it fits the 15 bits */
	CHECK_INT(v2x_bsm_frame_write(&b, &c), -1);
	v2x_buf_free(&b);
}

TEST(bsm_head_write_changes_only_the_head)
{
	size_t len;
	uint8_t *mf = unit_vector_file("asn1_codec/j2735.MessageFrame.Bsm.uper", &len);
	if (!mf)
		return;
	uint8_t *copy = malloc(len);
	memcpy(copy, mf, len);
	struct v2x_bsm_head h = {.msg_cnt = 5, .id = 0xCAFEF00D, .sec_mark = 1234}, r;
	CHECK_INT(v2x_bsm_head_write(copy + 4, len - 4, &h), 0);
	CHECK_INT(v2x_bsm_head_read(copy + 4, len - 4, &r), 0);
	CHECK_INT(r.msg_cnt, 5);
	CHECK_INT(r.id, 0xCAFEF00D);
	CHECK_INT(r.sec_mark, 1234);
	/* the preamble bits before, and everything from bit 58 of the value on, as before */
	CHECK_INT(copy[4] & 0xE0, mf[4] & 0xE0);
	CHECK_INT(copy[11] & 0x3F, mf[11] & 0x3F);
	CHECK_MEM(copy + 12, mf + 12, len - 12);
	free(copy);
	free(mf);
}

TEST(bsm_age_is_capture_time_minus_secmark_across_the_minute)
{
	int32_t age = 0;
	/* 12:00:59.900 heard, secMark 59.850 s: 50 ms old */
	CHECK(v2x_bsm_age_ms(INT64_C(1764849659900000), 59850, &age));
	CHECK_INT(age, 50);
	/* heard at 12:01:00.030, sent at 59.980 s of the minute before: 50 ms, not -59950 */
	CHECK(v2x_bsm_age_ms(INT64_C(1764849660030000), 59980, &age));
	CHECK_INT(age, 50);
	/* a clock ahead of the receiver: negative */
	CHECK(v2x_bsm_age_ms(INT64_C(1764849660030000), 130, &age));
	CHECK_INT(age, -100);
	/* a leap second and "unavailable" carry no millisecond */
	CHECK(!v2x_bsm_age_ms(INT64_C(1764849660030000), 60500, &age));
	CHECK(!v2x_bsm_age_ms(INT64_C(1764849660030000), V2X_DE_DSECOND_UNAVAILABLE, &age));
}

/* Part II (lib/bsm.c reads it without the schema): asn1_codec's 128 BSMs all carry part
 * II (VehicleSafetyExtensions with path history and prediction) and, as their XER decode
 * shows, no <events> and no <vehicleAlerts>. */
TEST(bsm_part2_of_the_128_vectors_has_no_events_no_alerts)
{
	size_t len;
	uint8_t *u = unit_vector_file("asn1_codec/j2735.MessageFrame.128.bsms.uper", &len);
	if (!u)
		return;
	size_t off = 0;
	int n = 0;
	while (off < len) {
		struct v2x_msgframe mf;
		const char *why;
		if (v2x_msgframe_parse(u + off, len - off, &mf, &why) < 0)
			break;
		struct v2x_bsm_part2 p;
		CHECK_INT(v2x_bsm_part2_read(mf.value, mf.value_len, &p), 0);
		CHECK_INT(p.has_events, 0);
		CHECK_INT(p.has_alerts, 0);
		off += mf.frame_len;
		n++;
	}
	CHECK_INT(n, 128);
	free(u);
}

/* ieee1609-examples udp2: a real signed BSM whose VehicleSafetyExtensions set one event
 * flag, eventLightsChanged (bit 8), as the asn1c decode (`v2xcap decode` of
 * captures/udp2-radiotap.pcap) shows. */
TEST(bsm_part2_reads_the_event_flags_of_the_udp2_vector)
{
	size_t len;
	uint8_t *d = unit_vector_file("ieee1609-examples/udp2-data.bin", &len);
	if (!d)
		return;
	struct v2x_dot2 dot2;
	struct v2x_msgframe mf;
	const char *why;
	CHECK_INT(v2x_dot2_parse(d, len, &dot2, &why), 0);
	CHECK_INT(v2x_msgframe_parse(dot2.payload, dot2.payload_len, &mf, &why), 0);
	struct v2x_bsm_part2 p;
	CHECK_INT(v2x_bsm_part2_read(mf.value, mf.value_len, &p), 0);
	CHECK_INT(p.has_events, 1);
	CHECK_INT(p.events, 1u << 8);
	CHECK(strcmp(v2x_bsm_event_name(8), "eventLightsChanged") == 0);
	CHECK_INT(v2x_bsm_emergency(&p), 0);
	free(d);
}

TEST(bsm_part2_cut_short_is_an_error)
{
	size_t len;
	uint8_t *d = unit_vector_file("ieee1609-examples/udp2-data.bin", &len);
	if (!d)
		return;
	struct v2x_dot2 dot2;
	struct v2x_msgframe mf;
	const char *why;
	CHECK_INT(v2x_dot2_parse(d, len, &dot2, &why), 0);
	CHECK_INT(v2x_msgframe_parse(dot2.payload, dot2.payload_len, &mf, &why), 0);
	struct v2x_bsm_part2 p;
	/* core data (the first 52 octets) whole, part II cut */
	CHECK_INT(v2x_bsm_part2_read(mf.value, 54, &p), -1);
	free(d);
}
