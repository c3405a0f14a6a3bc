/* IEEE 1609.3 WSMP headers: v3 frames from device captures (gdot, udp2), hand-built
 * v3 and 1609.3-2010 v2 frames, and every way a frame can be cut short. */
#include <stdlib.h>

#include "registry.h"
#include "unit.h"
#include "wsmp.h"

/* gdot.bin holds one 196-octet WSMP frame twice (ends with a 4-octet FCS). */
#define GDOT_FRAME_LEN 196

/* One parsed frame: w points into buf. */
struct frame {
	struct v2x_wsmp w;
	const char *why;
	uint8_t *buf;
};

/* Parses a hex frame into f (freeing the buffer of the previous one). */
static int parse_hex(struct frame *f, const char *hex)
{
	size_t len;
	free(f->buf);
	f->buf = unit_hex(hex, &len);
	f->why = NULL;
	return v2x_wsmp_parse(f->buf, len, &f->w, &f->why);
}

/* Parses a hex frame that must be accepted; the result (and the frame it points into)
 * lasts until the case ends. */
static const struct v2x_wsmp *parse_ok(const char *hex)
{
	struct frame *f = unit_keep(calloc(1, sizeof(*f)));
	int rc = parse_hex(f, hex);
	unit_keep(f->buf);
	if (rc != 0)
		unit_fail(__FILE__, __LINE__, "%s rejected: %s", hex, f->why ? f->why : "(null)");
	return &f->w;
}

/* parse_ok of head, then n copies of unit, then tail (all hex). */
static const struct v2x_wsmp *parse_repeated_ok(const char *head, const char *unit, int n,
						const char *tail)
{
	char hex[1024];
	size_t at = (size_t)snprintf(hex, sizeof hex, "%s", head);
	for (int i = 0; i < n && at < sizeof hex; i++)
		at += (size_t)snprintf(hex + at, sizeof hex - at, "%s", unit);
	if (at < sizeof hex)
		snprintf(hex + at, sizeof hex - at, "%s", tail);
	return parse_ok(hex);
}

/* The Length field against the octets the frame holds after the header. */
static void check_lengths(const char *hex, size_t length, size_t payload_len, size_t trailing,
			  bool truncated)
{
	const struct v2x_wsmp *w = parse_ok(hex);
	CHECK_INT(w->length, length);
	CHECK_INT(w->payload_len, payload_len);
	CHECK_INT(w->trailing, trailing);
	CHECK_INT(w->truncated, truncated);
}

/* Header extension i: a known element with its decoded value. */
static void check_ext(const struct v2x_wsmp *w, int i, int id, int32_t number)
{
	if (w->ext[i].id != id || !w->ext[i].known || w->ext[i].number != number)
		unit_fail(__FILE__, __LINE__, "ext[%d] is id %d%s value %" PRId32
			  ", expected known id %d value %" PRId32, i, (int)w->ext[i].id,
			  w->ext[i].known ? "" : " (unknown)", w->ext[i].number, id, number);
}

/* A frame the parser must refuse, saying why (why_part: a word of the reason). */
static void check_rejected(const char *hex, const char *why_part)
{
	struct frame f = {0};
	CHECK_INT(parse_hex(&f, hex), -1);
	if (!f.why || !strstr(f.why, why_part))
		unit_fail(__FILE__, __LINE__, "%s: why \"%s\" lacks \"%s\"", hex,
			  f.why ? f.why : "(null)", why_part);
	free(f.buf);
}

/* A device capture, ieee1609-examples/<name>.bin, and the WSMP data it carries,
 * <name>-data.bin. */
struct capture {
	uint8_t *frame, *data;
	size_t len, dlen;
	struct v2x_wsmp w;
};

/* Parses the capture's first frame_len octets (0: all of it), which must be accepted
 * and carry the data; NULL when a file is missing (the case is skipped) or the parse
 * failed. The case calls capture_free either way. */
static const struct v2x_wsmp *capture_parse(struct capture *c, const char *name,
					    size_t frame_len)
{
	char path[96];
	snprintf(path, sizeof path, "ieee1609-examples/%s.bin", name);
	c->frame = unit_vector_file(path, &c->len);
	snprintf(path, sizeof path, "ieee1609-examples/%s-data.bin", name);
	c->data = unit_vector_file(path, &c->dlen);
	if (!c->frame || !c->data)
		return NULL;
	const char *why = NULL;
	int rc = v2x_wsmp_parse(c->frame, frame_len ? frame_len : c->len, &c->w, &why);
	CHECK_INT(rc, 0);
	if (rc != 0)
		return NULL;
	CHECK(c->w.payload_len == c->dlen && memcmp(c->w.payload, c->data, c->dlen) == 0);
	return &c->w;
}

static void capture_free(struct capture *c)
{
	free(c->frame);
	free(c->data);
}

TEST(wsmp_v3_gdot_extension_elements_in_units)
{
	struct capture c;
	const struct v2x_wsmp *w = capture_parse(&c, "gdot", GDOT_FRAME_LEN);
	if (!w)
		goto out;
	CHECK_INT(w->version, 3); /* gdot.json: nullNetworking version 3 */
	CHECK_INT(w->subtype, 0);
	CHECK(w->option);
	CHECK_INT(w->n_ext, 3);
	CHECK_INT(w->n_ext_total, 3);
	check_ext(w, 0, V2X_WEID_CHANNEL, 180);  /* ChannelNumber80211 */
	check_ext(w, 1, V2X_WEID_DATA_RATE, 12); /* DataRate80211: 6 Mb/s */
	check_ext(w, 2, V2X_WEID_TX_POWER, 24);  /* TXpower80211 */
	CHECK_INT(w->tpid, 0);
	CHECK_INT(w->psid, 130); /* addrInfo content 130 */
	CHECK_INT(w->psid_len, 2);
	CHECK_MEM(w->psid_raw, "\x80\x02", 2);
	CHECK_INT(w->length, c.dlen);
	CHECK_INT(w->length_len, 2);
	CHECK_INT(w->hdr_len, 16);
	CHECK_INT(w->payload_len, c.dlen);
	CHECK_INT(w->trailing, 4);
	CHECK(!w->truncated);
out:
	capture_free(&c);
}

TEST(wsmp_v3_udp2_signed_bsm)
{
	struct capture c;
	const struct v2x_wsmp *w = capture_parse(&c, "udp2", 0);
	if (!w)
		goto out;
	CHECK_INT(w->version, 3);
	CHECK(!w->option);
	CHECK_INT(w->n_ext, 0);
	CHECK_INT(w->tpid, 0);
	CHECK_INT(w->psid, 32); /* udp2.xml: addrInfo content 32 */
	CHECK_INT(w->psid_len, 1);
	CHECK_INT(w->length, 188);
	CHECK_INT(w->hdr_len, 5);
	CHECK_INT(w->payload[0], 0x03); /* the 1609.2 envelope follows */
	CHECK_INT(w->trailing, 0);
	CHECK(!w->truncated);
out:
	capture_free(&c);
}

TEST(wsmp_v3_unknown_extension_kept)
{
	const struct v2x_wsmp *w = parse_ok("0b 02 0f01ac 6303aabbcc 00 20 02 dead");
	CHECK_INT(w->n_ext, 2);
	CHECK_INT(w->ext[0].number, 172);
	CHECK_INT(w->ext[1].id, 0x63);
	CHECK(!w->ext[1].known);
	CHECK_INT(w->ext[1].len, 3);
	CHECK_INT(w->psid, 0x20);
	CHECK_INT(w->payload_len, 2);
}

TEST(wsmp_v3_channel_load_and_time_confidence_decoded)
{
	const struct v2x_wsmp *w = parse_ok("0b 02 170132 190107 00 20 00");
	CHECK_INT(w->ext[0].id, V2X_WEID_CHANNEL_LOAD);
	CHECK(w->ext[0].known);
	CHECK_INT(w->ext[0].number, 0x32);
	CHECK_INT(w->ext[1].id, V2X_WEID_TIME_CONFIDENCE);
	CHECK(w->ext[1].known);
	CHECK_INT(w->ext[1].number, 7);
}

TEST(wsmp_v3_known_id_with_other_length_kept_raw)
{
	const struct v2x_wsmp *w = parse_ok("0b 01 0f02acad 00 20 00");
	CHECK_INT(w->n_ext, 1);
	CHECK(!w->ext[0].known);
	CHECK_INT(w->ext[0].len, 2);
	CHECK_INT(w->ext[0].value[1], 0xad);
}

TEST(wsmp_v3_two_octet_extension_length)
{
	/* an element of 200 octets: length 80 c8 */
	const struct v2x_wsmp *w = parse_repeated_ok("0b 01 63 80c8 ", "5a", 200, " 00 20 01 77");
	CHECK_INT(w->ext[0].len, 200);
	CHECK_INT(w->hdr_len, 1 + 1 + 1 + 2 + 200 + 1 + 1 + 1);
	CHECK_INT(w->payload_len, 1);
}

TEST(wsmp_v3_extension_count_beyond_table_counted)
{
	const struct v2x_wsmp *w = parse_repeated_ok("0b 14 ", "0f01ac", 20, " 00 20 00");
	CHECK_INT(w->n_ext, V2X_WSMP_MAX_EXT);
	CHECK_INT(w->n_ext_total, 20);
	CHECK_INT(w->psid, 0x20);
}

TEST(wsmp_v3_tpid_ports)
{
	const struct v2x_wsmp *w = parse_ok("03 02 1234 5678 02 aabb");
	CHECK_INT(w->tpid, 2);
	CHECK(w->has_ports);
	CHECK_INT(w->src_port, 0x1234);
	CHECK_INT(w->dst_port, 0x5678);
	CHECK_INT(w->psid_len, 0);
	CHECK_INT(w->payload_len, 2);
}

TEST(wsmp_v3_tpid_t_header_extensions)
{
	const struct v2x_wsmp *w = parse_ok("03 01 8003 01 6301ff 01 aa");
	CHECK_INT(w->tpid, 1);
	CHECK_INT(w->psid, 0x83);
	CHECK_INT(w->n_text, 1);
	CHECK_INT(w->text[0].id, 0x63);
	CHECK_INT(w->text[0].value[0], 0xff);
	CHECK_INT(w->payload_len, 1);
	w = parse_ok("03 05 20 00 00"); /* LPP, empty extensions */
	CHECK(w->has_lpp);
	CHECK_INT(w->lpp, 0x20);
	CHECK(!w->has_psid); /* an LPP is a port, not a PSID (1609.3 TPID 4/5) */
	w = parse_ok("03 03 0001 0002 01 1001 0c 00");
	CHECK(w->has_ports);
	CHECK_INT(w->n_text, 1);
}

/* Every field at the offset a dissector draws it: N-header Count and elements, TPID,
 * Address Info, T-header Count and elements, WSM length. */
TEST(wsmp_v3_offsets)
{
	const struct v2x_wsmp *w = parse_ok("0b 02 0f01ac 048001ff 05 8002 01 6301ff 02 abcd");
	CHECK_INT(w->n_count_off, 1);
	CHECK_INT(w->n_count_len, 1);
	CHECK_INT(w->ext[0].off, 2);
	CHECK_INT(w->ext[0].number, 172);
	CHECK_INT(w->ext[1].off, 5);
	CHECK_INT(w->ext[1].len_len, 2);   /* a 2-octet length of 1: still 1609.3's form */
	CHECK_INT(w->ext[1].number, 127);  /* tx power 0xff - 128 */
	CHECK_INT(w->tpid_off, 9);
	CHECK_INT(w->addr_off, 10);
	CHECK_INT(w->addr_len, 2);
	CHECK_INT(w->lpp, 0x82);
	CHECK_INT(w->t_count_off, 12);
	CHECK_INT(w->text[0].off, 13);
	CHECK_INT(w->length_off, 16);
	CHECK_INT(w->hdr_len, 17);
	CHECK_INT(w->payload_len, 2);
}

TEST(wsmp_errors_say_what_and_where)
{
	struct frame f = {0};
	CHECK_INT(parse_hex(&f, "0300c0"), -1);
	CHECK_INT(f.w.error, V2X_WSMP_ERR_PSID);
	CHECK_INT(f.w.error_off, 2);
	CHECK_INT(parse_hex(&f, "0b030f01"), -1);
	CHECK_INT(f.w.error, V2X_WSMP_ERR_TRUNCATED);
	CHECK_INT(parse_hex(&f, "03092002abcd"), -1);
	CHECK_INT(f.w.error, V2X_WSMP_ERR_TPID);
	CHECK_INT(f.w.tpid_off, 1);
	CHECK_INT(parse_hex(&f, "05002002abcd"), -1);
	CHECK_INT(f.w.error, V2X_WSMP_ERR_VERSION);
	CHECK_INT(parse_hex(&f, "030020"), -1);
	CHECK_INT(f.w.error, V2X_WSMP_ERR_TRUNCATED);
	CHECK_INT(f.w.error_off, 3);
	free(f.buf);
}

TEST(wsmp_v3_undefined_tpid_rejected)
{
	check_rejected("03 06 20 01 aa", "TPID");
}

TEST(wsmp_v3_psid_longer_than_four_octets_rejected)
{
	check_rejected("03 00 f000000000 01 aa", ""); /* any reason */
}

TEST(wsmp_v3_length_shorter_than_frame_counts_trailing)
{
	check_lengths("03 00 20 02 0014 aabbccdd", 2, 2, 4, false);
}

TEST(wsmp_v3_length_beyond_frame_is_truncated)
{
	check_lengths("03 00 20 80bc 0381", 188, 2, 0, true);
}

TEST(wsmp_v3_length_form_11_rejected)
{
	check_rejected("03 00 20 c0bc 0381", ""); /* any reason */
}

TEST(wsmp_v2_2010_layout_with_header_elements)
{
	/* version 2, PSID 0x20, channel 172, data rate 12, tx power 20 dBm, WSMP, len 3 */
	const struct v2x_wsmp *w = parse_ok("02 20 0f01ac 10010c 040114 80 0003 aabbcc");
	CHECK_INT(w->version, 2);
	CHECK_INT(w->psid, 0x20);
	CHECK_INT(w->n_ext, 3);
	check_ext(w, 0, V2X_WEID_CHANNEL, 172);
	check_ext(w, 1, V2X_WEID_DATA_RATE, 12);
	check_ext(w, 2, V2X_WEID_TX_POWER, 20);
	CHECK_INT(w->wave_element_id, V2X_WEID_WSMP);
	CHECK_INT(w->length, 3);
	CHECK_INT(w->length_len, 2);
	CHECK_INT(w->hdr_len, 14);
	CHECK_INT(w->payload_len, 3);
	CHECK_INT(w->payload[2], 0xcc);
}

TEST(wsmp_v2_secured_without_elements)
{
	const struct v2x_wsmp *w = parse_ok("02 8003 81 0002 0380");
	CHECK_INT(w->psid, 0x83);
	CHECK_INT(w->n_ext, 0);
	CHECK_INT(w->wave_element_id, V2X_WEID_WSMP_S);
	CHECK_INT(w->payload_len, 2);
}

TEST(wsmp_tx_power_offset_128_in_v3_signed_octet_in_v2)
{
	const struct v2x_wsmp *w = parse_ok("02 20 0401f6 80 0000");
	CHECK_INT(w->ext[0].number, -10);
	w = parse_ok("0b 01 040176 00 20 00");
	CHECK_INT(w->ext[0].number, -10);
	w = parse_ok("0b 01 0401ff 00 20 00");
	CHECK_INT(w->ext[0].number, 127);
}

TEST(wsmp_other_versions_rejected)
{
	static const char *frames[] = {"01 20 00", "04 20 00", "00 20 00", "0a 00 20 00"};
	for (size_t i = 0; i < sizeof(frames) / sizeof(frames[0]); i++)
		check_rejected(frames[i], "version");
}

/* Cutting a frame anywhere inside its header is an error; anywhere inside its data
 * is a truncated payload. Each cut is its own exact-size copy so that a sanitizer
 * would see any read past it. */
static void check_every_cut(const uint8_t *frame, size_t len)
{
	struct v2x_wsmp full;
	const char *why = NULL;
	if (v2x_wsmp_parse(frame, len, &full, &why) != 0) {
		unit_fail(__FILE__, __LINE__, "whole frame rejected: %s", why);
		return;
	}
	for (size_t cut = 0; cut < len; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);
		memcpy(copy, frame, cut);
		struct v2x_wsmp w;
		why = NULL;
		int rc = v2x_wsmp_parse(copy, cut, &w, &why);
		if (cut < full.hdr_len && (rc != -1 || !why))
			unit_fail(__FILE__, __LINE__, "cut at %zu inside the header accepted", cut);
		if (cut >= full.hdr_len && cut < full.hdr_len + full.length &&
		    (rc != 0 || !w.truncated || w.payload_len != cut - full.hdr_len))
			unit_fail(__FILE__, __LINE__, "cut at %zu inside the data not truncated",
				  cut);
		free(copy);
	}
}

TEST(wsmp_truncated_at_every_offset)
{
	size_t len;
	uint8_t *f = unit_vector_file("ieee1609-examples/gdot.bin", &len);
	if (f)
		check_every_cut(f, GDOT_FRAME_LEN);
	free(f);
	f = unit_vector_file("ieee1609-examples/udp2.bin", &len);
	if (f)
		check_every_cut(f, len);
	free(f);
	static const char *built[] = {"02 20 0f01ac 10010c 040194 80 0003 aabbcc",
				      "03 03 0001 0002 01 1001 0c 01 ee", "0b 01 6301aa 01 8003 00 01 ee"};
	for (size_t i = 0; i < sizeof(built) / sizeof(built[0]); i++) {
		f = unit_hex(built[i], &len);
		check_every_cut(f, len);
		free(f);
	}
}

TEST(wsmp_count_encoding_one_or_two_octets_and_read_back)
{
	static const struct { size_t n; unsigned len; uint8_t b0, b1; } cases[] = {
		{0, 1, 0x00, 0}, {127, 1, 0x7f, 0}, {128, 2, 0x80, 0x80},
		{188, 2, 0x80, 0xbc}, {16383, 2, 0xbf, 0xff},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t out[2] = {0, 0};
		CHECK_INT(v2x_wsmp_count_encode(cases[i].n, out), cases[i].len);
		CHECK_INT(out[0], cases[i].b0);
		if (cases[i].len == 2)
			CHECK_INT(out[1], cases[i].b1);
	}
	/* Every length written is the length read: version 3, TPID 0, PSID 0x20, length. */
	for (size_t n = 0; n < 16384; n += 97) {
		uint8_t frame[4 + 2 + 16384] = {0x03, 0x00, 0x20};
		size_t hdr = 3 + v2x_wsmp_count_encode(n, frame + 3);
		struct v2x_wsmp w;
		const char *why = NULL;
		CHECK_INT(v2x_wsmp_parse(frame, hdr + n, &w, &why), 0);
		CHECK_INT(w.length, n);
		CHECK_INT(w.payload_len, n);
	}
}
