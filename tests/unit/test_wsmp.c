/* IEEE 1609.3 WSMP headers: v3 frames from device captures (gdot, udp2), hand-built
 * v3 and 1609.3-2010 v2 frames, and every way a frame can be cut short. */
#include <stdlib.h>

#include "registry.h"
#include "unit.h"
#include "wsmp.h"

/* gdot.bin holds one 196-octet WSMP frame twice (ends with a 4-octet FCS). */
#define GDOT_FRAME_LEN 196

/* Parses a hex frame into *buf (freeing the previous one): w points into it. */
static int parse_hex(const char *hex, struct v2x_wsmp *w, const char **why, uint8_t **buf)
{
	size_t len;
	free(*buf);
	*buf = unit_hex(hex, &len);
	return v2x_wsmp_parse(*buf, len, w, why);
}

TEST(wsmp_v3_gdot_extension_elements_in_units)
{
	size_t len, dlen;
	uint8_t *f = unit_vector_file("ieee1609-examples/gdot.bin", &len);
	uint8_t *data = unit_vector_file("ieee1609-examples/gdot-data.bin", &dlen);
	if (!f || !data)
		goto out;
	struct v2x_wsmp w;
	const char *why = NULL;
	CHECK_INT(v2x_wsmp_parse(f, GDOT_FRAME_LEN, &w, &why), 0);
	CHECK_INT(w.version, 3); /* gdot.json: nullNetworking version 3 */
	CHECK_INT(w.subtype, 0);
	CHECK(w.option);
	CHECK_INT(w.n_ext, 3);
	CHECK_INT(w.n_ext_total, 3);
	CHECK_INT(w.ext[0].id, V2X_WEID_CHANNEL);
	CHECK_INT(w.ext[0].number, 180); /* ChannelNumber80211 */
	CHECK_INT(w.ext[1].id, V2X_WEID_DATA_RATE);
	CHECK_INT(w.ext[1].number, 12); /* DataRate80211: 6 Mb/s */
	CHECK_INT(w.ext[2].id, V2X_WEID_TX_POWER);
	CHECK_INT(w.ext[2].number, 24); /* TXpower80211 */
	CHECK(w.ext[0].known && w.ext[1].known && w.ext[2].known);
	CHECK_INT(w.tpid, 0);
	CHECK_INT(w.psid, 130); /* addrInfo content 130 */
	CHECK_INT(w.psid_len, 2);
	CHECK_MEM(w.psid_raw, "\x80\x02", 2);
	CHECK_INT(w.length, dlen);
	CHECK_INT(w.length_len, 2);
	CHECK_INT(w.hdr_len, 16);
	CHECK_INT(w.payload_len, dlen);
	CHECK(w.payload_len == dlen && memcmp(w.payload, data, dlen) == 0);
	CHECK_INT(w.trailing, 4);
	CHECK(!w.truncated);
out:
	free(f);
	free(data);
}

TEST(wsmp_v3_udp2_signed_bsm)
{
	size_t len, dlen;
	uint8_t *f = unit_vector_file("ieee1609-examples/udp2.bin", &len);
	uint8_t *data = unit_vector_file("ieee1609-examples/udp2-data.bin", &dlen);
	if (!f || !data)
		goto out;
	struct v2x_wsmp w;
	const char *why = NULL;
	CHECK_INT(v2x_wsmp_parse(f, len, &w, &why), 0);
	CHECK_INT(w.version, 3);
	CHECK(!w.option);
	CHECK_INT(w.n_ext, 0);
	CHECK_INT(w.tpid, 0);
	CHECK_INT(w.psid, 32); /* udp2.xml: addrInfo content 32 */
	CHECK_INT(w.psid_len, 1);
	CHECK_INT(w.length, 188);
	CHECK_INT(w.hdr_len, 5);
	CHECK(w.payload_len == dlen && memcmp(w.payload, data, dlen) == 0);
	CHECK_INT(w.payload[0], 0x03); /* the 1609.2 envelope follows */
	CHECK_INT(w.trailing, 0);
	CHECK(!w.truncated);
out:
	free(f);
	free(data);
}

TEST(wsmp_v3_unknown_extension_kept)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex("0b 02 0f01ac 6303aabbcc 00 20 02 dead", &w, &why, &buf), 0);
	CHECK_INT(w.n_ext, 2);
	CHECK_INT(w.ext[0].number, 172);
	CHECK_INT(w.ext[1].id, 0x63);
	CHECK(!w.ext[1].known);
	CHECK_INT(w.ext[1].len, 3);
	CHECK_INT(w.psid, 0x20);
	CHECK_INT(w.payload_len, 2);
	free(buf);
}

TEST(wsmp_v3_channel_load_and_time_confidence_decoded)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex("0b 02 170132 190107 00 20 00", &w, &why, &buf), 0);
	CHECK_INT(w.ext[0].id, V2X_WEID_CHANNEL_LOAD);
	CHECK(w.ext[0].known);
	CHECK_INT(w.ext[0].number, 0x32);
	CHECK_INT(w.ext[1].id, V2X_WEID_TIME_CONFIDENCE);
	CHECK(w.ext[1].known);
	CHECK_INT(w.ext[1].number, 7);
	free(buf);
}

TEST(wsmp_v3_known_id_with_other_length_kept_raw)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex("0b 01 0f02acad 00 20 00", &w, &why, &buf), 0);
	CHECK_INT(w.n_ext, 1);
	CHECK(!w.ext[0].known);
	CHECK_INT(w.ext[0].len, 2);
	CHECK_INT(w.ext[0].value[1], 0xad);
	free(buf);
}

TEST(wsmp_v3_two_octet_extension_length)
{
	/* an element of 200 octets: length 80 c8 */
	char hex[1024] = "0b 01 63 80c8 ";
	for (int i = 0; i < 200; i++)
		strcat(hex, "5a");
	strcat(hex, " 00 20 01 77");
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex(hex, &w, &why, &buf), 0);
	CHECK_INT(w.ext[0].len, 200);
	CHECK_INT(w.hdr_len, 1 + 1 + 1 + 2 + 200 + 1 + 1 + 1);
	CHECK_INT(w.payload_len, 1);
	free(buf);
}

TEST(wsmp_v3_extension_count_beyond_table_counted)
{
	char hex[512] = "0b 14 ";
	for (int i = 0; i < 20; i++)
		strcat(hex, "0f01ac");
	strcat(hex, " 00 20 00");
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex(hex, &w, &why, &buf), 0);
	CHECK_INT(w.n_ext, V2X_WSMP_MAX_EXT);
	CHECK_INT(w.n_ext_total, 20);
	CHECK_INT(w.psid, 0x20);
	free(buf);
}

TEST(wsmp_v3_tpid_ports)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex("03 02 1234 5678 02 aabb", &w, &why, &buf), 0);
	CHECK_INT(w.tpid, 2);
	CHECK(w.has_ports);
	CHECK_INT(w.src_port, 0x1234);
	CHECK_INT(w.dst_port, 0x5678);
	CHECK_INT(w.psid_len, 0);
	CHECK_INT(w.payload_len, 2);
	free(buf);
}

TEST(wsmp_v3_tpid_t_header_extensions)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex("03 01 8003 01 6301ff 01 aa", &w, &why, &buf), 0);
	CHECK_INT(w.tpid, 1);
	CHECK_INT(w.psid, 0x83);
	CHECK_INT(w.n_text, 1);
	CHECK_INT(w.text[0].id, 0x63);
	CHECK_INT(w.text[0].value[0], 0xff);
	CHECK_INT(w.payload_len, 1);
	CHECK_INT(parse_hex("03 05 20 00 00", &w, &why, &buf), 0); /* LPP, empty extensions */
	CHECK_INT(w.psid, 0x20);
	CHECK_INT(parse_hex("03 03 0001 0002 01 1001 0c 00", &w, &why, &buf), 0);
	CHECK(w.has_ports);
	CHECK_INT(w.n_text, 1);
	free(buf);
}

TEST(wsmp_v3_undefined_tpid_rejected)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex("03 06 20 01 aa", &w, &why, &buf), -1);
	CHECK(why && strstr(why, "TPID"));
	free(buf);
}

TEST(wsmp_v3_psid_longer_than_four_octets_rejected)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex("03 00 f000000000 01 aa", &w, &why, &buf), -1);
	CHECK(why != NULL);
	free(buf);
}

TEST(wsmp_v3_length_shorter_than_frame_counts_trailing)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex("03 00 20 02 0014 aabbccdd", &w, &why, &buf), 0);
	CHECK_INT(w.payload_len, 2);
	CHECK_INT(w.trailing, 4);
	CHECK(!w.truncated);
	free(buf);
}

TEST(wsmp_v3_length_beyond_frame_is_truncated)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex("03 00 20 80bc 0381", &w, &why, &buf), 0);
	CHECK_INT(w.length, 188);
	CHECK(w.truncated);
	CHECK_INT(w.payload_len, 2);
	CHECK_INT(w.trailing, 0);
	free(buf);
}

TEST(wsmp_v3_length_form_11_rejected)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex("03 00 20 c0bc 0381", &w, &why, &buf), -1);
	CHECK(why != NULL);
	free(buf);
}

TEST(wsmp_v2_2010_layout_with_header_elements)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	/* version 2, PSID 0x20, channel 172, data rate 12, tx power 20 dBm, WSMP, len 3 */
	CHECK_INT(parse_hex("02 20 0f01ac 10010c 040114 80 0003 aabbcc", &w, &why, &buf), 0);
	CHECK_INT(w.version, 2);
	CHECK_INT(w.psid, 0x20);
	CHECK_INT(w.n_ext, 3);
	CHECK_INT(w.ext[0].number, 172);
	CHECK_INT(w.ext[1].number, 12);
	CHECK_INT(w.ext[2].id, V2X_WEID_TX_POWER);
	CHECK_INT(w.ext[2].number, 20);
	CHECK_INT(w.wave_element_id, V2X_WEID_WSMP);
	CHECK_INT(w.length, 3);
	CHECK_INT(w.length_len, 2);
	CHECK_INT(w.hdr_len, 14);
	CHECK_INT(w.payload_len, 3);
	CHECK_INT(w.payload[2], 0xcc);
	free(buf);
}

TEST(wsmp_v2_secured_without_elements)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex("02 8003 81 0002 0380", &w, &why, &buf), 0);
	CHECK_INT(w.psid, 0x83);
	CHECK_INT(w.n_ext, 0);
	CHECK_INT(w.wave_element_id, V2X_WEID_WSMP_S);
	CHECK_INT(w.payload_len, 2);
	free(buf);
}

TEST(wsmp_tx_power_offset_128_in_v3_signed_octet_in_v2)
{
	struct v2x_wsmp w;
	const char *why = NULL;
	uint8_t *buf = NULL;
	CHECK_INT(parse_hex("02 20 0401f6 80 0000", &w, &why, &buf), 0);
	CHECK_INT(w.ext[0].number, -10);
	CHECK_INT(parse_hex("0b 01 040176 00 20 00", &w, &why, &buf), 0);
	CHECK_INT(w.ext[0].number, -10);
	CHECK_INT(parse_hex("0b 01 0401ff 00 20 00", &w, &why, &buf), 0);
	CHECK_INT(w.ext[0].number, 127);
	free(buf);
}

TEST(wsmp_other_versions_rejected)
{
	static const char *frames[] = {"01 20 00", "04 20 00", "00 20 00", "0a 00 20 00"};
	for (size_t i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
		struct v2x_wsmp w;
		const char *why = NULL;
		uint8_t *buf = NULL;
		CHECK_INT(parse_hex(frames[i], &w, &why, &buf), -1);
		CHECK(why && strstr(why, "version"));
		free(buf);
	}
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
