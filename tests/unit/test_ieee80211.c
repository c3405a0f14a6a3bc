/* 802.11 MAC header and LLC: OCB data frames as mac80211 sends them (SNAP), EPD,
 * QoS, 4-address, protected and non-data frames. */
#include <stdlib.h>

#include "ieee80211.h"
#include "unit.h"

/* What hwsim's OCB netdev sends (the e2e guest, scripts/e2e): data, FC 0x0800,
 * broadcast, SNAP. */
static const char snap_hex[] =
	"08 00 00 00"          /* FC data, duration */
	"ff ff ff ff ff ff"    /* addr1 */
	"02 00 00 00 00 01"    /* addr2: the sender */
	"ff ff ff ff ff ff"    /* addr3: OCB wildcard BSSID */
	"30 12"                /* sequence 0x123, fragment 0 */
	"aa aa 03 00 00 00 88 dc"
	"03 00 20 01 00";      /* a WSM: v3, PSID 0x20, length 1 */

/* QoS data with EPD: the EtherType right after the QoS control field. */
static const char qos_epd_hex[] =
	"88 00 00 00  ff ff ff ff ff ff  02 00 00 00 00 02  ff ff ff ff ff ff  50 00"
	"07 00"                /* QoS control: TID 7 */
	"88 dc 03 00 20 00";

static void parse_ok(const char *hex, struct v2x_mac *mac, enum v2x_llc *llc,
		     uint16_t *ethertype, size_t *off)
{
	size_t len;
	uint8_t *b = unit_hex(hex, &len);
	const char *why = NULL;
	CHECK_INT(v2x_ieee80211_parse(b, len, mac, llc, ethertype, off, &why), 0);
	free(b);
}

TEST(ieee80211_data_frame_with_snap)
{
	struct v2x_mac m;
	enum v2x_llc llc;
	uint16_t et;
	size_t off;
	static const uint8_t sender[6] = {2, 0, 0, 0, 0, 1};
	static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	parse_ok(snap_hex, &m, &llc, &et, &off);
	CHECK(m.is_data && !m.is_qos && !m.is_protected && !m.has_addr4);
	CHECK_INT(m.fc, 0x0008);
	CHECK_INT(m.hdr_len, 24);
	CHECK_INT(m.seq, 0x123);
	CHECK_MEM(m.addr1, bcast, 6);
	CHECK_MEM(m.addr2, sender, 6);
	CHECK_MEM(m.addr3, bcast, 6);
	CHECK_INT(llc, V2X_LLC_SNAP);
	CHECK_INT(et, 0x88DC);
	CHECK_INT(off, 32);
}

TEST(ieee80211_qos_data_with_epd)
{
	struct v2x_mac m;
	enum v2x_llc llc;
	uint16_t et;
	size_t off;
	parse_ok(qos_epd_hex, &m, &llc, &et, &off);
	CHECK(m.is_data && m.is_qos);
	CHECK_INT(m.qos, 7);
	CHECK_INT(m.seq, 5);
	CHECK_INT(m.hdr_len, 26);
	CHECK_INT(llc, V2X_LLC_EPD);
	CHECK_INT(et, 0x88DC);
	CHECK_INT(off, 28);
}

TEST(ieee80211_four_address_frame)
{
	struct v2x_mac m;
	enum v2x_llc llc;
	uint16_t et;
	size_t off;
	static const uint8_t a4[6] = {2, 0, 0, 0, 0, 4};
	parse_ok("08 03 00 00  02 00 00 00 00 01  02 00 00 00 00 02  02 00 00 00 00 03"
		 "00 00  02 00 00 00 00 04  88 dc 03", &m, &llc, &et, &off);
	CHECK(m.to_ds && m.from_ds && m.has_addr4);
	CHECK_MEM(m.addr4, a4, 6);
	CHECK_INT(m.hdr_len, 30);
	CHECK_INT(et, 0x88DC);
	CHECK_INT(off, 32);
}

TEST(ieee80211_qos_htc_field_skipped)
{
	struct v2x_mac m;
	enum v2x_llc llc;
	uint16_t et;
	size_t off;
	/* Order bit on a QoS frame: 4-octet HT Control after QoS control */
	parse_ok("88 80 00 00  ff ff ff ff ff ff  02 00 00 00 00 02  ff ff ff ff ff ff  00 00"
		 "00 00  11 22 33 44  88 dc", &m, &llc, &et, &off);
	CHECK_INT(m.hdr_len, 30);
	CHECK_INT(et, 0x88DC);
}

TEST(ieee80211_protected_frame_has_no_llc)
{
	struct v2x_mac m;
	enum v2x_llc llc;
	uint16_t et;
	size_t off;
	parse_ok("08 40 00 00  ff ff ff ff ff ff  02 00 00 00 00 02  ff ff ff ff ff ff  00 00"
		 "aa aa 03 00 00 00 88 dc", &m, &llc, &et, &off);
	CHECK(m.is_protected);
	CHECK_INT(llc, V2X_LLC_NONE);
	CHECK_INT(et, 0);
	CHECK_INT(off, 24);
}

TEST(ieee80211_non_data_frames_skipped)
{
	struct v2x_mac m;
	enum v2x_llc llc;
	uint16_t et;
	size_t off;
	/* a beacon (management) and an ACK (control, 10 octets) */
	parse_ok("80 00 00 00  ff ff ff ff ff ff  02 00 00 00 00 02  02 00 00 00 00 02  00 00",
		 &m, &llc, &et, &off);
	CHECK(!m.is_data);
	CHECK_INT(m.type, 0);
	CHECK_INT(m.subtype, 8);
	CHECK_INT(et, 0);
	parse_ok("d4 00 00 00  02 00 00 00 00 02", &m, &llc, &et, &off);
	CHECK_INT(m.type, 1);
	CHECK_INT(et, 0);
}

TEST(ieee80211_null_data_has_no_body)
{
	struct v2x_mac m;
	enum v2x_llc llc;
	uint16_t et;
	size_t off;
	parse_ok("48 00 00 00  ff ff ff ff ff ff  02 00 00 00 00 02  ff ff ff ff ff ff  00 00",
		 &m, &llc, &et, &off);
	CHECK(m.is_data);
	CHECK_INT(et, 0);
	CHECK_INT(llc, V2X_LLC_NONE);
}

TEST(ieee80211_other_snap_oui_not_an_ethertype)
{
	struct v2x_mac m;
	enum v2x_llc llc;
	uint16_t et;
	size_t off;
	/* 802.1H bridge tunnel OUI 00 00 F8: not RFC 1042 */
	parse_ok("08 00 00 00  ff ff ff ff ff ff  02 00 00 00 00 02  ff ff ff ff ff ff  00 00"
		 "aa aa 03 00 00 f8 88 dc", &m, &llc, &et, &off);
	CHECK_INT(llc, V2X_LLC_NONE);
	CHECK_INT(et, 0);
}

/* Every prefix of the SNAP and EPD frames: an error while the header or the LLC is cut;
 * exactly the bare MAC header (an empty body) is a data frame carrying nothing. */
TEST(ieee80211_truncated_at_every_offset)
{
	static const struct {
		const char *hex;
		size_t hdr, llc_end;
	} frames[] = {{snap_hex, 24, 32}, {qos_epd_hex, 26, 28}};
	for (size_t i = 0; i < 2; i++) {
		size_t len;
		uint8_t *b = unit_hex(frames[i].hex, &len);
		for (size_t n = 0; n < frames[i].llc_end; n++) {
			uint8_t *cut = malloc(n ? n : 1);
			memcpy(cut, b, n);
			struct v2x_mac m;
			enum v2x_llc llc;
			uint16_t et;
			size_t off;
			const char *why = NULL;
			int r = v2x_ieee80211_parse(cut, n, &m, &llc, &et, &off, &why);
			if (n == frames[i].hdr) {
				CHECK_INT(r, 0);
				CHECK_INT(et, 0);
			} else if (r != -1 || !why) {
				unit_fail(__FILE__, __LINE__, "frame %zu cut at %zu accepted", i, n);
			}
			free(cut);
		}
		free(b);
	}
}
