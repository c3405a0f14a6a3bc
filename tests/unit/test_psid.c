/* PSID p-encoding (IEEE 1609.3 VarLengthNumber): every form, its bounds, bad first
 * octets, truncation, and encode/read round trips. */
#include <stdlib.h>

#include "psid.h"
#include "registry.h"
#include "unit.h"

static uint32_t read_hex(const char *hex, unsigned *nbytes, bool *err)
{
	size_t len;
	uint8_t *b = unit_hex(hex, &len);
	struct v2x_cursor c;
	v2x_cur_init(&c, b, len);
	uint32_t v = v2x_psid_read(&c, nbytes);
	*err = c.err;
	free(b);
	return v;
}

static void check_read(const char *hex, uint32_t want, unsigned want_len)
{
	unsigned n;
	bool err;
	uint32_t v = read_hex(hex, &n, &err);
	CHECK(!err);
	CHECK_INT(v, want);
	CHECK_INT(n, want_len);
}

TEST(psid_one_octet_form)
{
	check_read("00", 0, 1);
	check_read("20", 0x20, 1);
	check_read("7f", 127, 1);
}

TEST(psid_two_octet_form_80_02_is_0x82)
{
	check_read("8002", 0x82, 2); /* gdot.json: addrInfo content 130 */
	check_read("8003", 0x83, 2);
	check_read("8000", 128, 2);
	check_read("bfff", 16511, 2);
}

TEST(psid_three_octet_form)
{
	check_read("c00000", 16512, 3);
	check_read("dfffff", 2113663, 3);
	check_read("c03f90", 0x8010, 3);
}

TEST(psid_four_octet_form)
{
	check_read("e0000000", 0x204080, 4);
	check_read("e0000010", 0x204090, 4);
	check_read("efffffff", V2X_PSID_MAX, 4);
}

TEST(psid_reads_only_its_own_octets)
{
	size_t len;
	uint8_t *b = unit_hex("8002 b0", &len);
	struct v2x_cursor c;
	unsigned n;
	v2x_cur_init(&c, b, len);
	CHECK_INT(v2x_psid_read(&c, &n), 0x82);
	CHECK_INT(v2x_cur_left(&c), 1);
	free(b);
}

TEST(psid_first_octet_1111_rejected)
{
	static const char *bad[] = {"f0000000", "f7ffffff00", "ff00000000"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unsigned n = 9;
		bool err;
		CHECK_INT(read_hex(bad[i], &n, &err), 0);
		CHECK(err);
		CHECK_INT(n, 0);
	}
}

TEST(psid_truncated_form_sets_err)
{
	static const char *cut[] = {"", "80", "c000", "e00000"};
	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		unsigned n = 9;
		bool err;
		CHECK_INT(read_hex(cut[i], &n, &err), 0);
		CHECK(err);
		CHECK_INT(n, 0);
	}
}

static void check_round_trip(uint32_t psid)
{
	uint8_t out[4];
	unsigned len = v2x_psid_encode(psid, out);
	unsigned want = psid < 128 ? 1 : psid < 16512 ? 2 : psid < 2113664 ? 3 : 4;
	if (len != want) {
		unit_fail(__FILE__, __LINE__, "PSID %" PRIu32 " encoded in %u octets", psid, len);
		return;
	}
	struct v2x_cursor c;
	unsigned n;
	v2x_cur_init(&c, out, len);
	uint32_t back = v2x_psid_read(&c, &n);
	if (c.err || back != psid || n != len)
		unit_fail(__FILE__, __LINE__, "PSID %" PRIu32 " read back as %" PRIu32, psid,
			  back);
}

TEST(psid_encode_round_trips_at_every_form_boundary)
{
	static const uint32_t edges[] = {0, 1, 127, 128, 129, 16511, 16512, 16513,
					 2113663, 2113664, 2113665, V2X_PSID_MAX};
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		check_round_trip(edges[i]);
	for (const struct v2x_psid *p = v2x_psids; p->name; p++)
		check_round_trip(p->psid);
	/* a spread over the whole range (about 270 thousand values) */
	for (uint32_t v = 0; v < V2X_PSID_MAX - 1000; v += 997)
		check_round_trip(v);
}

TEST(psid_encode_known_octets)
{
	uint8_t out[4];
	CHECK_INT(v2x_psid_encode(0x82, out), 2);
	CHECK_MEM(out, "\x80\x02", 2);
	CHECK_INT(v2x_psid_encode(0x20, out), 1);
	CHECK_INT(out[0], 0x20);
	CHECK_INT(v2x_psid_encode(0x204090, out), 4);
	CHECK_MEM(out, "\xe0\x00\x00\x10", 4);
}

TEST(psid_encode_too_large_rejected)
{
	uint8_t out[4];
	CHECK_INT(v2x_psid_encode(V2X_PSID_MAX + 1, out), 0);
	CHECK_INT(v2x_psid_encode(UINT32_MAX, out), 0);
}
