/* The frame pipeline over every link type, each wrapping a real WSMP frame from the
 * vectors (udp2.bin: signed BSM, PSID 0x20; gdot.bin: SPaT with extension elements,
 * PSID 0x82); expected values from udp2.json, udp2-data.json and gdot.json. */
#include <stdlib.h>

#include "frame.h"
#include "unit.h"

enum { UDP2, GDOT };

/* gdot.bin holds one 196-octet block twice; the WSM proper is its first 192 octets
 * (16-octet header + length 0xB0), the other 4 are trailing octets. */
#define GDOT_WSM_LEN 192

#define RADIOTAP_HWSIM                                                              \
	"00 00 1a 00 2f 48 00 00 10 32 54 76 98 ba dc fe 00 0c 02 17 40 01 ec 00 00 00"
#define MAC_DATA_SNAP                                                               \
	"08 00 00 00 ff ff ff ff ff ff 02 00 00 00 00 01 ff ff ff ff ff ff 30 12"  \
	"aa aa 03 00 00 00 88 dc"
#define MAC_QOS_EPD                                                                 \
	"88 00 00 00 ff ff ff ff ff ff 02 00 00 00 00 02 ff ff ff ff ff ff 50 00 07 00" \
	"88 dc"

struct link_case {
	int linktype;
	const char *before;     /* link headers (hex) */
	int wsm;                /* UDP2 or GDOT */
	const char *after;      /* e.g. an FCS */
};

static const struct link_case cases[] = {
#define RADIOTAP_SNAP_UDP2 0
	{V2X_LINK_RADIOTAP, RADIOTAP_HWSIM MAC_DATA_SNAP, UDP2, ""},
#define RADIOTAP_FCS_EPD_GDOT 1
	/* flags (FCS at end), rate 12, channel 5890 half rate */
	{V2X_LINK_RADIOTAP, "00 00 0e 00 0e 00 00 00 10 0c 02 17 40 41" MAC_QOS_EPD, GDOT,
	 "de ad be ef"},
#define RAW80211_UDP2 2
	{V2X_LINK_IEEE80211, MAC_QOS_EPD, UDP2, ""},
#define ETHERNET_GDOT 3
	{V2X_LINK_ETHERNET, "ff ff ff ff ff ff 02 00 00 00 00 03 88 dc", GDOT, ""},
#define SLL_UDP2 4
	{V2X_LINK_LINUX_SLL, "00 00 00 01 00 06 02 00 00 00 00 04 00 00 88 dc", UDP2, ""},
#define SLL2_GDOT 5
	{V2X_LINK_LINUX_SLL2, "88 dc 00 00 00 00 00 03 00 01 00 06 02 00 00 00 00 05 00 00",
	 GDOT, ""},
#define SLL_MONITOR_UDP2 6
	/* hatype 803: a monitor interface, radiotap follows */
	{V2X_LINK_LINUX_SLL, "00 00 03 23 00 00 00 00 00 00 00 00 00 00 00 00" RADIOTAP_HWSIM
	 MAC_DATA_SNAP, UDP2, ""},
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* The case's whole frame (malloc'd), or NULL when the vectors are missing (skipped). */
static uint8_t *build(size_t i, size_t *len)
{
	const struct link_case *c = &cases[i];
	size_t nb, na, nw;
	uint8_t *wsm = c->wsm == UDP2 ? unit_vector_file("ieee1609-examples/udp2.bin", &nw)
				       : unit_vector_file("ieee1609-examples/gdot.bin", &nw);
	if (!wsm)
		return NULL;
	if (c->wsm == GDOT && nw > GDOT_WSM_LEN)
		nw = GDOT_WSM_LEN;
	uint8_t *b = unit_hex(c->before, &nb), *a = unit_hex(c->after, &na);
	uint8_t *out = malloc(nb + nw + na);
	memcpy(out, b, nb);
	memcpy(out + nb, wsm, nw);
	memcpy(out + nb + nw, a, na);
	*len = nb + nw + na;
	free(b);
	free(a);
	free(wsm);
	return out;
}

/* Parses case i; false when skipped. */
static bool parse_case(size_t i, struct v2x_frame *f)
{
	size_t len;
	uint8_t *buf = build(i, &len);
	if (!buf)
		return false;
	int r = v2x_frame_parse(cases[i].linktype, buf, len, f);
	if (r != 0)
		unit_fail(__FILE__, __LINE__, "case %zu: %s", i, f->error ? f->error : "?");
	free(buf);
	return true;
}

/* udp2.json / udp2-data.json: WSMP v3, PSID 32, signed by digest, BSM. */
static void check_udp2(const struct v2x_frame *f)
{
	static const uint8_t digest[8] = {0xB2, 0xEF, 0xB1, 0xBB, 0x38, 0x32, 0x8C, 0x83};
	CHECK_INT(f->layer, V2X_LAYER_J2735);
	CHECK_INT(f->ethertype, V2X_ETHERTYPE_WSMP);
	CHECK_INT(f->wsmp.version, 3);
	CHECK_INT(f->wsmp.psid, 0x20);
	CHECK(f->has_dot2);
	CHECK_INT(f->dot2.content, V2X_DOT2_SIGNED);
	CHECK(f->dot2.has_psid);
	CHECK_INT(f->dot2.psid, 32);
	CHECK(f->dot2.generation_time == 637434485860000ull);
	CHECK_INT(f->dot2.signer, V2X_DOT2_SIGNER_DIGEST);
	CHECK_MEM(f->dot2.digest, digest, 8);
	CHECK(f->has_j2735);
	CHECK_INT(f->mf.msg_id, 20);
	CHECK(f->error == NULL);
}

/* gdot.json: WSMP v3 with channel 180, data rate 12, tx power 24; PSID 0x82; SPaT. */
static void check_gdot(const struct v2x_frame *f)
{
	CHECK_INT(f->layer, V2X_LAYER_J2735);
	CHECK_INT(f->wsmp.version, 3);
	CHECK_INT(f->wsmp.psid, 0x82);
	CHECK_INT(f->wsmp.n_ext, 3);
	CHECK_INT(f->wsmp.ext[0].id, 15);
	CHECK_INT(f->wsmp.ext[0].number, 180);
	CHECK_INT(f->wsmp.ext[1].id, 16);
	CHECK_INT(f->wsmp.ext[1].number, 12);
	CHECK_INT(f->wsmp.ext[2].id, 4);
	CHECK_INT(f->wsmp.ext[2].number, 24);
	CHECK_INT(f->wsmp.trailing, 0);
	CHECK(!f->has_dot2);
	CHECK_INT(f->mf.msg_id, 19);
	CHECK(f->error == NULL);
}

TEST(frame_radiotap_snap_signed_bsm)
{
	struct v2x_frame f;
	static const uint8_t sender[6] = {2, 0, 0, 0, 0, 1};
	if (!parse_case(RADIOTAP_SNAP_UDP2, &f))
		return;
	CHECK(f.has_radiotap && f.has_mac);
	CHECK_INT(f.rt.freq, 5890);
	CHECK_INT(f.rt.signal_dbm, -20);
	CHECK_INT(f.llc, V2X_LLC_SNAP);
	CHECK(f.has_src);
	CHECK_MEM(f.src, sender, 6);
	check_udp2(&f);
}

TEST(frame_radiotap_fcs_stripped_epd_spat)
{
	struct v2x_frame f;
	if (!parse_case(RADIOTAP_FCS_EPD_GDOT, &f))
		return;
	CHECK(f.rt.fcs_at_end);
	CHECK(f.rt.chan_flags & V2X_RT_CHAN_HALF);
	CHECK_INT(f.llc, V2X_LLC_EPD);
	CHECK(f.mac.is_qos);
	check_gdot(&f); /* trailing 0: the FCS did not reach WSMP */
}

TEST(frame_raw_80211_signed_bsm)
{
	struct v2x_frame f;
	if (!parse_case(RAW80211_UDP2, &f))
		return;
	CHECK(!f.has_radiotap && f.has_mac);
	check_udp2(&f);
}

TEST(frame_ethernet_spat)
{
	struct v2x_frame f;
	static const uint8_t sender[6] = {2, 0, 0, 0, 0, 3};
	if (!parse_case(ETHERNET_GDOT, &f))
		return;
	CHECK(!f.has_mac);
	CHECK_INT(f.llc, V2X_LLC_ETHERNET);
	CHECK_MEM(f.src, sender, 6);
	check_gdot(&f);
}

TEST(frame_linux_sll_signed_bsm)
{
	struct v2x_frame f;
	static const uint8_t sender[6] = {2, 0, 0, 0, 0, 4};
	if (!parse_case(SLL_UDP2, &f))
		return;
	CHECK(f.has_src);
	CHECK_MEM(f.src, sender, 6);
	check_udp2(&f);
}

TEST(frame_linux_sll2_spat)
{
	struct v2x_frame f;
	static const uint8_t sender[6] = {2, 0, 0, 0, 0, 5};
	if (!parse_case(SLL2_GDOT, &f))
		return;
	CHECK_MEM(f.src, sender, 6);
	check_gdot(&f);
}

TEST(frame_linux_sll_monitor_radiotap)
{
	struct v2x_frame f;
	if (!parse_case(SLL_MONITOR_UDP2, &f))
		return;
	CHECK(f.has_radiotap);
	CHECK_INT(f.rt.freq, 5890);
	check_udp2(&f);
}

TEST(frame_other_ethertype_stops_at_link)
{
	size_t len;
	uint8_t *b = unit_hex("33 33 00 00 00 16 02 00 00 00 00 03 88 b5 60 00", &len);
	struct v2x_frame f;
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), 0);
	CHECK_INT(f.layer, V2X_LAYER_LINK);
	CHECK_INT(f.ethertype, 0x88B5);
	free(b);
}

TEST(frame_unsupported_link_type)
{
	static const uint8_t b[4] = {0};
	struct v2x_frame f;
	CHECK(!v2x_linktype_supported(228));
	CHECK(v2x_linktype_supported(V2X_LINK_LINUX_SLL2));
	CHECK_INT(v2x_frame_parse(228, b, sizeof(b), &f), -1);
	CHECK_INT(f.layer, V2X_LAYER_NONE);
	CHECK(f.error != NULL);
}

/* Every prefix of every case: an error naming a layer, never an over-read (exact heap
 * copies; the suite also runs under ASan/UBSan). The one clean cut is right after the
 * 802.11 header: an empty data frame, which carries nothing. */
TEST(frame_truncated_at_every_offset)
{
	for (size_t i = 0; i < N_CASES; i++) {
		size_t len;
		uint8_t *buf = build(i, &len);
		if (!buf)
			return;
		for (size_t n = 0; n < len; n++) {
			uint8_t *cut = malloc(n ? n : 1);
			memcpy(cut, buf, n);
			struct v2x_frame f;
			int r = v2x_frame_parse(cases[i].linktype, cut, n, &f);
			bool empty_data = r == 0 && f.has_mac && f.ethertype == 0 &&
					  f.layer == V2X_LAYER_LINK;
			if (!empty_data && (r != -1 || !f.error))
				unit_fail(__FILE__, __LINE__, "case %zu cut at %zu accepted", i, n);
			free(cut);
		}
		free(buf);
	}
}

/* WSMP on Ethernet (to broadcast from 02:00:00:00:00:01): N-header 03, then hex. */
static int parse_wsmp_ether(const char *wsmp_hex, struct v2x_frame *f)
{
	char hex[512];
	snprintf(hex, sizeof hex, "ffffffffffff 020000000001 88dc 03 %s", wsmp_hex);
	size_t len;
	uint8_t *b = unit_keep(unit_hex(hex, &len));
	return v2x_frame_parse(V2X_LINK_ETHERNET, b, len, f);
}

/* The one J2735 rule: PSID 0 (System) carrying 00 01 02 03 04 is no MessageFrame
 * (messageId 1 is not defined), unless the user names the PSID; a defined messageId
 * whose open type fills the payload is one whatever the PSID. */
TEST(frame_j2735_taken_by_psid_user_or_strict_content)
{
	struct v2x_frame f;
	CHECK_INT(parse_wsmp_ether("00 00 05 0001020304", &f), 0);
	CHECK(!f.has_j2735);
	CHECK_INT(f.layer, V2X_LAYER_WSMP);
	CHECK_INT(v2x_j2735_psids_set("0x0,0x8010-0x8020"), 0);
	CHECK_INT(parse_wsmp_ether("00 00 05 0001020304", &f), 0);
	CHECK_INT(f.j2735_basis, V2X_J2735_BY_USER);
	CHECK_INT(f.mf.msg_id, 1);
	CHECK_INT(v2x_j2735_psids_set("0x7f,zz"), -1); /* refused: the list stays */
	CHECK(v2x_j2735_user_psid(0x8015));
	CHECK_INT(v2x_j2735_psids_set(""), 0);
	CHECK(!v2x_j2735_user_psid(0));
	/* PSID 0x7f (testing), messageId 20 with a 2-octet value: exactly the payload */
	CHECK_INT(parse_wsmp_ether("00 7f 05 0014 02 abcd", &f), 0);
	CHECK_INT(f.j2735_basis, V2X_J2735_BY_CONTENT);
	CHECK_INT(parse_wsmp_ether("00 7f 06 0014 02 abcd ee", &f), 0); /* one octet more */
	CHECK(!f.has_j2735);
	CHECK_INT(parse_wsmp_ether("00 20 05 0014 02 abcd", &f), 0);
	CHECK_INT(f.j2735_basis, V2X_J2735_BY_PSID);
	/* TPID 4: an LPP, no PSID; the BSM is J2735 by its content */
	CHECK_INT(parse_wsmp_ether("04 8002 05 0014 02 abcd", &f), 0);
	CHECK(!f.wsmp.has_psid);
	CHECK_INT(f.wsmp.lpp, 0x82);
	CHECK_INT(f.j2735_basis, V2X_J2735_BY_CONTENT);
}

/* A BSM whose MessageFrame announces 61 octets and holds 28: an error, its type kept. */
TEST(frame_messageframe_cut_short_keeps_its_id)
{
	struct v2x_frame f;
	char hex[256] = "00 20 1f 0014 3d";
	for (int i = 0; i < 28; i++)
		strcat(hex, "5a");
	CHECK_INT(parse_wsmp_ether(hex, &f), -1);
	CHECK(f.has_j2735);
	CHECK(f.mf.has_msg_id);
	CHECK(f.mf.truncated);
	CHECK_INT(f.mf.msg_id, 20);
	CHECK_INT(f.error_layer, V2X_LAYER_J2735);
	/* the WSM itself cut short (its length says 64): still a BSM, the first error kept */
	strcpy(hex, "00 20 40 0014 3d");
	for (int i = 0; i < 28; i++)
		strcat(hex, "5a");
	CHECK_INT(parse_wsmp_ether(hex, &f), -1);
	CHECK_INT(f.mf.msg_id, 20);
	CHECK_INT(f.error_layer, V2X_LAYER_WSMP);
}

/* Radiotap flags 0x40: the frame failed its FCS check, and is not read further. */
TEST(frame_bad_fcs_not_decoded)
{
	size_t len;
	/* radiotap v0, length 9, present: flags; flags = FCS at end | bad FCS; then a
	 * 24-octet 802.11 header stand-in and the 4-octet FCS */
	uint8_t *b = unit_keep(unit_hex("00 00 0900 02000000 50"
					"0800000000000000000000000000000000000000000000 00 00000000",
					&len));
	struct v2x_frame f;
	CHECK_INT(v2x_frame_parse(V2X_LINK_RADIOTAP, b, len, &f), -1);
	CHECK(f.rt.bad_fcs);
	CHECK(!f.has_mac);
	CHECK_INT(f.layer, V2X_LAYER_NONE);
}

/* Ethernet, IPv4 (or IPv6) and UDP from and to port around a payload (kept for the
 * test's life). */
static uint8_t *udp_frame(bool v6, uint16_t port, const uint8_t *payload, size_t n,
			  size_t *len)
{
	size_t ip = v6 ? 40 : 20, total = 14 + ip + 8 + n;
	uint8_t *b = unit_keep(calloc(1, total));
	memset(b, 0xff, 6);
	b[6] = 0x02;
	b[11] = 0x01;
	b[12] = v6 ? 0x86 : 0x08;
	b[13] = v6 ? 0xdd : 0x00;
	uint8_t *h = b + 14;
	if (v6) {
		h[0] = 0x60;
		h[4] = (uint8_t)((8 + n) >> 8);
		h[5] = (uint8_t)(8 + n);
		h[6] = 17;
		h[7] = 255;
	} else {
		h[0] = 0x45;
		h[2] = (uint8_t)((ip + 8 + n) >> 8);
		h[3] = (uint8_t)(ip + 8 + n);
		h[8] = 64;
		h[9] = 17;
	}
	uint8_t *u = h + ip;
	u[0] = u[2] = (uint8_t)(port >> 8);
	u[1] = u[3] = (uint8_t)port;
	u[4] = (uint8_t)((8 + n) >> 8);
	u[5] = (uint8_t)(8 + n);
	memcpy(u + 8, payload, n);
	*len = total;
	return b;
}

/* A whole WSMP packet in UDP is found by its content: udp2.bin's signed BSM */
TEST(frame_udp_carries_whole_wsmp)
{
	size_t nw, len;
	uint8_t *wsm = unit_keep(unit_vector_file("ieee1609-examples/udp2.bin", &nw));
	if (!wsm)
		return;
	uint8_t *b = udp_frame(false, 47347, wsm, nw, &len);
	struct v2x_frame f;
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), 0);
	CHECK_INT(f.encap, V2X_ENCAP_UDP_WSMP);
	CHECK_INT(f.ip_version, 4);
	CHECK_INT(f.udp_dst_port, 47347);
	CHECK(f.has_wsmp);
	CHECK_INT(f.wsmp.psid, 0x20);
	CHECK_INT(f.dot2.content, V2X_DOT2_SIGNED);
	CHECK_INT(f.mf.msg_id, 20);
	CHECK_INT(f.layer, V2X_LAYER_J2735);
}

/* MessageFrame messageId 20 (BSM), open type of 3 octets: the strict rule holds */
#define SHORT_MF 0x00, 0x14, 0x03, 0x01, 0x02, 0x03

/* On a jpo-ode receiver port a MessageFrame may follow a prefix and be followed by
 * octets (jpo-ode's PSM receiver test payload has both); elsewhere neither */
TEST(frame_jpo_ode_port_allows_a_prefix)
{
	static const uint8_t p[] = {0xde, 0xad, 0xbe, 0xef, SHORT_MF, 0x77, 0x88};
	size_t len;
	struct v2x_frame f;
	uint8_t *b = udp_frame(false, 46800, p, sizeof p, &len);
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), 0);
	CHECK_INT(f.encap, V2X_ENCAP_UDP_J2735);
	CHECK_INT(f.encap_skipped, 4);
	CHECK_INT(f.j2735_basis, V2X_J2735_BY_PORT);
	CHECK_INT(f.mf.msg_id, 20);
	CHECK_INT(f.mf.frame_len, 6);
	CHECK_INT(f.mf.trailing, 2);
	CHECK(!f.has_wsmp);
	b = udp_frame(false, 47347, p, sizeof p, &len);
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), 0);
	CHECK_INT(f.encap, V2X_ENCAP_UDP);
	CHECK_INT(f.layer, V2X_LAYER_LINK);
	CHECK(!f.has_j2735);
}

/* jpo-ode's start-flag rule (lib/frame.c, at v2x_jpo_ode_message_at), case by case */
TEST(frame_jpo_ode_start_flag_rule)
{
	/* the BSM receiver looks for 00 14 only; the generic one for the earliest flag */
	static const uint8_t map_then_bsm[] = {0xaa, 0xbb, 0x00, 0x12, 0x00, 0x14, 0x01, 0x00};
	CHECK_INT(v2x_jpo_ode_message_at(map_then_bsm, sizeof map_then_bsm, 46800), 4);
	CHECK_INT(v2x_jpo_ode_message_at(map_then_bsm, sizeof map_then_bsm, 44920), 2);
	CHECK_INT(v2x_jpo_ode_message_at(map_then_bsm, sizeof map_then_bsm, 44990), 2);
	/* a flag at octet 1 is a header's own octets: not taken */
	static const uint8_t at_one[] = {0x99, 0x00, 0x14, 0x01, 0x00};
	CHECK_INT(v2x_jpo_ode_message_at(at_one, sizeof at_one, 46800), -1);
	/* no flag: dropped, as jpo-ode drops it; a port that is no receiver's: -1 */
	static const uint8_t none[] = {0x01, 0x02, 0x03, 0x04};
	CHECK_INT(v2x_jpo_ode_message_at(none, sizeof none, 44990), -1);
	CHECK_INT(v2x_jpo_ode_message_at(at_one + 1, sizeof at_one - 1, 47347), -1);
	/* 03 81 00 (a signed 1609.2 header) in the prefix: the message starts there */
	static const uint8_t signed_hdr[] = {0xee, 0x03, 0x81, 0x00, 0x40, 0x00, 0x14, 0x01, 0x00};
	CHECK_INT(v2x_jpo_ode_message_at(signed_hdr, sizeof signed_hdr, 46800), 1);
	/* an unsecuredData envelope ending with the datagram, around the message */
	static const uint8_t unsecured[] = {0xee, 0xff, 0x03, 0x80, 0x04, 0x00, 0x14, 0x01, 0x00};
	CHECK_INT(v2x_jpo_ode_message_at(unsecured, sizeof unsecured, 46800), 2);
	/* ... but not one whose length ends elsewhere: the flag's place */
	static const uint8_t short_env[] = {0xee, 0xff, 0x03, 0x80, 0x02, 0x00, 0x14, 0x01, 0x00};
	CHECK_INT(v2x_jpo_ode_message_at(short_env, sizeof short_env, 46800), 5);
	/* SDSM's receiver (44950) */
	static const uint8_t sdsm[] = {0x00, 0x29, 0x01, 0x00};
	CHECK_INT(v2x_jpo_ode_message_at(sdsm, sizeof sdsm, 44950), 0);
	CHECK(v2x_jpo_ode_receiver(44950) && v2x_jpo_ode_receiver(44950)->msg_id == 41);
	CHECK(!v2x_jpo_ode_receiver(47347));
}

/* 1609.2 unsecuredData in UDP over IPv6 */
TEST(frame_ipv6_udp_dot2)
{
	static const uint8_t p[] = {0x03, 0x80, 0x06, SHORT_MF};
	size_t len;
	struct v2x_frame f;
	uint8_t *b = udp_frame(true, 44990, p, sizeof p, &len);
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), 0);
	CHECK_INT(f.ip_version, 6);
	CHECK_INT(f.encap, V2X_ENCAP_UDP_DOT2);
	CHECK(f.has_dot2);
	CHECK_INT(f.dot2.content, V2X_DOT2_UNSECURED);
	CHECK_INT(f.mf.msg_id, 20);
	CHECK_INT(f.layer, V2X_LAYER_J2735);
}

/* A later IPv4 fragment has no UDP header: nothing read past IP, no error */
TEST(frame_ipv4_later_fragment_not_read)
{
	static const uint8_t p[] = {SHORT_MF};
	size_t len;
	struct v2x_frame f;
	uint8_t *b = udp_frame(false, 46800, p, sizeof p, &len);
	b[14 + 6] = 0x00;
	b[14 + 7] = 0x10; /* fragment offset 16 (x 8 octets) */
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), 0);
	CHECK_INT(f.encap, V2X_ENCAP_NONE);
	CHECK_INT(f.layer, V2X_LAYER_LINK);
}

/* TZSP: tags (signal -61 dBm, padding, channel 178) then the 802.11 frame; another
 * encapsulation (1: Ethernet) stops there; tags without their end tag are an error */
TEST(frame_tzsp_tags_and_encapsulations)
{
	size_t nm, len;
	uint8_t *mac = unit_keep(unit_hex("01 00 00 12 0a 01 c3 00 12 01 b2 01" MAC_QOS_EPD
					  "03 00 20 00", &nm));
	struct v2x_frame f;
	uint8_t *b = udp_frame(false, V2X_UDP_PORT_TZSP, mac, nm, &len);
	v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f);
	CHECK_INT(f.encap, V2X_ENCAP_TZSP);
	CHECK(!f.has_radiotap);
	CHECK(f.rt.has_signal);
	CHECK_INT(f.rt.signal_dbm, -61);
	CHECK(f.rt.has_channel);
	CHECK_INT(f.rt.freq, 5890);
	CHECK(f.has_mac);
	CHECK_INT(f.src[5], 0x02);
	CHECK(f.has_wsmp);
	b[14 + 20 + 8 + 3] = 1; /* encapsulation 1: Ethernet */
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), 0);
	CHECK_INT(f.encap, V2X_ENCAP_TZSP);
	CHECK(!f.has_mac);
	b = udp_frame(false, V2X_UDP_PORT_TZSP, mac, 7, &len); /* cut inside the tags */
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), -1);
	CHECK_INT(f.encap, V2X_ENCAP_TZSP);
}

/* A C2P DSRC TX record: no RSSI; secondary/primary channel 0 = unavailable */
TEST(frame_c2p_tx_record)
{
	size_t nm, len;
	uint8_t *rec = unit_keep(unit_hex("12 00000001 00000002 00 00 00 0c 01"
					  "35a4e901 6b49d201 3fff 0e11 14 7f 7f" MAC_QOS_EPD
					  "03 00 20 00", &nm));
	struct v2x_frame f;
	uint8_t *b = udp_frame(false, V2X_UDP_PORT_C2P, rec, nm, &len);
	v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f);
	CHECK_INT(f.encap, V2X_ENCAP_C2P);
	CHECK(!f.rt.has_signal);
	CHECK(!f.rt.has_channel);
	CHECK(f.rt.has_rate);
	CHECK_INT(f.rt.rate, 12);
	CHECK(f.has_mac);
	CHECK(f.has_wsmp);
	CHECK_INT(f.wsmp.psid, 0x20);
}

/* C2P C-V2X records (Wireshark 4.6's packet-c2p.c), each before an 802.11 frame: RX
 * socket 2, EtherType 0x88DC, RSSI -77 dBm, data rate 12; TX (SPS flag, ports, power
 * 23 dBm as i32, V2X id, period, size, priority) has no RSSI or rate; RX data rate 0 and
 * RSSI 127 are unavailable; a record shorter than its type's header is an error */
TEST(frame_c2p_cv2x_rx_and_tx_records)
{
	size_t nr, nt, len;
	uint8_t *rx = unit_keep(unit_hex("17 00000001 00000002 02 88dc b3 0c" MAC_QOS_EPD
					 "03 00 20 00", &nr));
	uint8_t *tx = unit_keep(unit_hex("18 00000001 00000002 01 07d1 07d2 00000017 00001234"
					 "00000064 0000012c 02" MAC_QOS_EPD "03 00 20 00", &nt));
	struct v2x_frame f;
	uint8_t *b = udp_frame(false, V2X_UDP_PORT_C2P, rx, nr, &len);
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), 0);
	CHECK_INT(f.encap, V2X_ENCAP_C2P);
	CHECK(!f.has_radiotap);
	CHECK(f.rt.has_signal);
	CHECK_INT(f.rt.signal_dbm, -77);
	CHECK(f.rt.has_rate);
	CHECK_INT(f.rt.rate, 12);
	CHECK(!f.rt.has_channel);
	CHECK(!f.rt.has_noise);
	CHECK(f.has_mac);
	CHECK_INT(f.src[5], 0x02);
	CHECK_INT(f.wsmp.psid, 0x20);
	rx[12] = 0x7f; /* RSSI and data rate unavailable */
	rx[13] = 0;
	b = udp_frame(false, V2X_UDP_PORT_C2P, rx, nr, &len);
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), 0);
	CHECK(!f.rt.has_signal);
	CHECK(!f.rt.has_rate);
	CHECK(f.has_wsmp);
	b = udp_frame(false, V2X_UDP_PORT_C2P, tx, nt, &len);
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), 0);
	CHECK_INT(f.encap, V2X_ENCAP_C2P);
	CHECK(!f.rt.has_signal);
	CHECK(!f.rt.has_rate);
	CHECK(f.has_wsmp);
	CHECK_INT(f.wsmp.psid, 0x20);
	b = udp_frame(false, V2X_UDP_PORT_C2P, tx, 30, &len); /* one octet short of 31 */
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), -1);
	CHECK_INT(f.encap, V2X_ENCAP_C2P);
	CHECK(!f.has_mac);
}

/* Every prefix of a UDP, a TZSP and a C2P frame is an error, never an over-read */
TEST(frame_udp_truncated_at_every_offset)
{
	static const uint8_t p[] = {0x03, 0x80, 0x06, SHORT_MF};
	size_t nt, nc;
	uint8_t *tz = unit_keep(unit_hex("01 00 00 12 0a 01 c3 01" MAC_QOS_EPD "03 00 20 00", &nt));
	uint8_t *c2 = unit_keep(unit_hex("11 00000001 00000002 ac 00 00 0c 01 35a4e901 6b49d201"
					 "3fff 0e11 c4 7f 7f 7f 03e9 03e9" MAC_QOS_EPD "03 00 20 00",
					 &nc));
	const uint8_t *frames[3];
	size_t lens[3];
	frames[0] = udp_frame(true, 44990, p, sizeof p, &lens[0]);
	frames[1] = udp_frame(false, V2X_UDP_PORT_TZSP, tz, nt, &lens[1]);
	frames[2] = udp_frame(false, V2X_UDP_PORT_C2P, c2, nc, &lens[2]);
	for (size_t i = 0; i < 3; i++) {
		struct v2x_frame f;
		CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, frames[i], lens[i], &f), 0);
		CHECK(f.has_wsmp || f.has_dot2);
		for (size_t n = 0; n < lens[i]; n++) {
			uint8_t *cut = malloc(n ? n : 1);
			memcpy(cut, frames[i], n);
			if (v2x_frame_parse(V2X_LINK_ETHERNET, cut, n, &f) != -1 || !f.error)
				unit_fail(__FILE__, __LINE__, "frame %zu cut at %zu accepted", i, n);
			free(cut);
		}
	}
}

/* C-V2X PC5 non-IP frames in UDP (3GPP TS 24.587 9.3): the family octet 1 or the
 * EtherType 0x88DC, then a whole WSMP packet; a WSM that does not end with the datagram,
 * or another family, is not taken */
TEST(frame_udp_pc5_family_or_ethertype_then_whole_wsmp)
{
	size_t nw, len;
	uint8_t *wsm = unit_keep(unit_vector_file("ieee1609-examples/udp2.bin", &nw));
	if (!wsm)
		return;
	static const struct { uint8_t prefix[2]; size_t n; int extra; enum v2x_encap encap; }
	pc5[] = {
		{{0x01}, 1, 0, V2X_ENCAP_UDP_PC5},
		{{0x88, 0xdc}, 2, 0, V2X_ENCAP_UDP_ETHERTYPE},
		{{0x03}, 1, 0, V2X_ENCAP_UDP},    /* ETSI-ITS family: not WSMP */
		{{0x01}, 1, 1, V2X_ENCAP_UDP},    /* an octet after the WSM */
		{{0x88, 0xdd}, 2, 0, V2X_ENCAP_UDP},
	};
	for (size_t i = 0; i < sizeof pc5 / sizeof pc5[0]; i++) {
		size_t n = pc5[i].n + nw + (size_t)pc5[i].extra;
		uint8_t *p = unit_keep(calloc(1, n));
		memcpy(p, pc5[i].prefix, pc5[i].n);
		memcpy(p + pc5[i].n, wsm, nw);
		uint8_t *b = udp_frame(false, 47347, p, n, &len);
		struct v2x_frame f;
		v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f);
		CHECK_INT(f.encap, pc5[i].encap);
		if (pc5[i].encap == V2X_ENCAP_UDP) {
			CHECK(!f.has_wsmp);
			continue;
		}
		CHECK_INT(f.encap_skipped, pc5[i].n);
		CHECK_INT(f.wsmp.psid, 0x20);
		CHECK_INT(f.mf.msg_id, 20);
		CHECK_INT(f.layer, V2X_LAYER_J2735);
	}
	CHECK_STR(v2x_pc5_family_name(1), "IEEE 1609");
	CHECK(v2x_pc5_family_name(5) == NULL);
}

/* An RSU text record in UDP: its PSID (p-encoded in the text) with the payload, its
 * TxChannel as the channel */
TEST(frame_udp_rsu_record)
{
	static const char rec[] = "Version=0.7\nType=BSM\nPSID=0x20\nPriority=7\nTxMode=CONT\n"
				  "TxChannel=172\nTxInterval=0\nDeliveryStart=\nDeliveryStop=\n"
				  "Signature=False\nEncryption=False\nPayload=001403010203\n";
	size_t len;
	uint8_t *b = udp_frame(false, V2X_RSU_UDP_PORT, (const uint8_t *)rec, sizeof rec - 1,
			       &len);
	struct v2x_frame f;
	CHECK_INT(v2x_frame_parse(V2X_LINK_ETHERNET, b, len, &f), 0);
	CHECK_INT(f.encap, V2X_ENCAP_UDP_RSU);
	CHECK(f.has_rsu);
	CHECK_INT(f.rsu.psid, 0x20);
	CHECK_INT(f.rt.freq, 5860);
	CHECK_INT(f.j2735_basis, V2X_J2735_BY_PSID);
	CHECK_INT(f.mf.msg_id, 20);
	CHECK_INT(f.layer, V2X_LAYER_J2735);
}
