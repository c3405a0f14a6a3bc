/* Radiotap parser: hand-built headers with their offsets worked out by hand from the
 * radiotap.org field list (sizes, alignment from the header start, namespaces). */
#include <stdlib.h>

#include "radiotap.h"
#include "unit.h"

/* mac80211_hwsim on a monitor vif (as in the e2e guest, scripts/e2e): TSFT, flags,
 * rate 6 Mb/s, channel 5890 MHz flags 0x0140, signal -20 dBm, antenna 0, RX flags. */
static const char hwsim_hex[] =
	"00 00 1a 00  2f 48 00 00" /* version, pad, it_len 26, present */
	"10 32 54 76 98 ba dc fe"  /* 8: TSFT */
	"00 0c"                    /* 16: flags, 17: rate 12 x 500 kb/s */
	"02 17 40 01"              /* 18: channel 0x1702 = 5890, flags 0x0140 */
	"ec 00"                    /* 22: signal -20, 23: antenna 0 */
	"00 00";                   /* 24: RX flags */

/* Every aligned field kind in one header: two presence words (bit 29 back to the radiotap
 * namespace), data from offset 12; padding is EE, opaque fields 55. */
static const char aligned_hex[] =
	"00 00 61 00  2a 00 f8 af  00 08 00 00" /* it_len 97; flags, channel, signal, MCS,
						 * A-MPDU, VHT, timestamp, HE, HE-MU,
						 * HE-MU-other, 0-PSDU, L-SIG; word 1: antenna */
	"10 ee"                                 /* 12: flags FCS, pad */
	"02 17 40 41"                           /* 14: 5890 MHz, half rate + OFDM + 5 GHz */
	"c4"                                    /* 18: signal -60 */
	"55 55 55 ee ee"                        /* 19: MCS, pad to 24 */
	"55 55 55 55 55 55 55 55"               /* 24: A-MPDU */
	"55 55 55 55 55 55 55 55 55 55 55 55"   /* 32: VHT */
	"ee ee ee ee"                           /* pad to 48 */
	"55 55 55 55 55 55 55 55 55 55 55 55"   /* 48: timestamp */
	"55 55 55 55 55 55 55 55 55 55 55 55"   /* 60: HE */
	"55 55 55 55 55 55 55 55 55 55 55 55"   /* 72: HE-MU */
	"55 55 55 55 55 55"                     /* 84: HE-MU-other-user */
	"55 ee"                                 /* 90: 0-length-PSDU, pad */
	"55 55 55 55"                           /* 92: L-SIG */
	"03";                                   /* 96: antenna 3 */

/* ath9k with two chains: combined signal in word 0, then per-chain signal + antenna in
 * two more radiotap namespaces. */
static const char ath9k_hex[] =
	"00 00 26 00  2f 40 00 a0  20 08 00 a0  20 08 00 00" /* it_len 38, 3 words */
	"00 e1 f5 05 00 00 00 00"                             /* 16: TSFT 100000000 */
	"00 0c 02 17 40 01"                                   /* 24: flags, rate, channel */
	"c9 ee 00 00"                                         /* 30: signal -55, pad, RX flags */
	"c7 00"                                               /* 34: chain 0: -57, antenna 0 */
	"c4 01";                                              /* 36: chain 1: -60, antenna 1 */

/* A vendor namespace between two radiotap ones: skipped by its skip_length. */
static const char vendor_hex[] =
	"00 00 23 00  02 00 00 c0  05 00 00 a0  28 00 00 00" /* it_len 35: flags, vendor NS;
							       * vendor word; channel, signal */
	"00 ee"                                               /* 16: flags, pad */
	"00 11 22 00 05 00"                                   /* 18: OUI, sub-ns 0, skip 5 */
	"55 55 55 55 55"                                      /* 24: vendor data */
	"ee"                                                  /* 29: pad */
	"02 17 40 01"                                         /* 30: channel 5890 */
	"d8";                                                 /* 34: signal -40 */

/* A vendor namespace of two presence words: its data is skipped once, by skip_length. */
static const char vendor2_hex[] =
	"00 00 20 00  02 00 00 c0  01 00 00 80  01 00 00 a0  20 00 00 00" /* it_len 32 */
	"00 ee"                                               /* 20: flags, pad */
	"00 11 22 07 03 00"                                   /* 22: OUI, sub-ns 7, skip 3 */
	"55 55 55"                                            /* 28: vendor data */
	"b0";                                                 /* 31: signal -80 */

/* Flags, rate, then the TLV bit: TLVs run to it_len. */
static const char tlv_hex[] =
	"00 00 14 00  06 00 00 10" /* it_len 20: flags, rate, TLV */
	"00 0c"                    /* 8: flags, rate 6 Mb/s */
	"ee ee"                    /* pad to the TLV's 4-octet alignment */
	"ff ff 02 00 55 55 ee ee"; /* a TLV (type 0xffff, 2 octets) */

/* An unknown bit (bit 35: word 1 bit 3, in the radiotap namespace) after the rate. */
static const char unknown_hex[] =
	"00 00 18 00  04 00 00 80  08 00 00 00" /* it_len 24: rate; word 1: bit 35 */
	"0c"                                    /* 12: rate */
	"55 55 55 55 55 55 55 55 55 55 55";     /* 13: the unknown field, to it_len */

/* Parses a header that must be accepted; returns its length. */
static size_t parse_ok(const char *hex, struct v2x_radiotap *rt)
{
	size_t len;
	uint8_t *b = unit_hex(hex, &len);
	const char *why = NULL;
	if (v2x_radiotap_parse(b, len, rt, &why) != 0)
		unit_fail(__FILE__, __LINE__, "rejected: %s", why);
	free(b);
	return len;
}

/* parse_ok of a header with fields after other namespaces: how many presence words
 * and the antenna signal found after them. */
static struct v2x_radiotap check_after_namespaces(const char *hex, int n_present,
						  int signal_dbm)
{
	struct v2x_radiotap rt;
	parse_ok(hex, &rt);
	CHECK_INT(rt.n_present, n_present);
	CHECK_INT(rt.signal_dbm, signal_dbm);
	return rt;
}

/* parse_ok of a header whose fields stop after the rate: the rate and it_len. */
static struct v2x_radiotap check_rate_then_stop(const char *hex, int rate, size_t hdr_len)
{
	struct v2x_radiotap rt;
	parse_ok(hex, &rt);
	CHECK_INT(rt.rate, rate);
	CHECK_INT(rt.hdr_len, hdr_len);
	return rt;
}

/* A header the parser must refuse, with a reason. */
static void check_rejected(const char *hex)
{
	size_t len;
	uint8_t *b = unit_hex(hex, &len);
	struct v2x_radiotap rt;
	const char *why = NULL;
	if (v2x_radiotap_parse(b, len, &rt, &why) != -1 || !why)
		unit_fail(__FILE__, __LINE__, "%s accepted, or refused without a reason", hex);
	free(b);
}

TEST(radiotap_hwsim_header)
{
	struct v2x_radiotap rt;
	parse_ok(hwsim_hex, &rt);
	CHECK_INT(rt.hdr_len, 26);
	CHECK_INT(rt.n_present, 1);
	CHECK(rt.has_tsft);
	CHECK(rt.tsft == 0xfedcba9876543210ull);
	CHECK_INT(rt.rate, 12);
	CHECK_INT(rt.freq, 5890);
	CHECK_INT(rt.chan_flags, V2X_RT_CHAN_OFDM | V2X_RT_CHAN_5GHZ);
	CHECK(!(rt.chan_flags & V2X_RT_CHAN_HALF)); /* hwsim does not set it at 10 MHz */
	CHECK(rt.has_signal);
	CHECK_INT(rt.signal_dbm, -20);
	CHECK(rt.has_antenna);
	CHECK_INT(rt.antenna, 0);
	CHECK(!rt.has_noise);
	CHECK(!rt.fcs_at_end);
}

TEST(radiotap_alignment_of_every_field_kind)
{
	struct v2x_radiotap rt;
	CHECK_INT(parse_ok(aligned_hex, &rt), 97);
	CHECK_INT(rt.n_present, 2);
	CHECK_INT(rt.freq, 5890);
	CHECK_INT(rt.signal_dbm, -60);
	CHECK(rt.has_mcs && rt.has_vht && rt.has_he);
	/* the antenna sits at offset 96 only if every size and alignment before it is right */
	CHECK(rt.has_antenna);
	CHECK_INT(rt.antenna, 3);
}

TEST(radiotap_half_rate_channel_flag)
{
	struct v2x_radiotap rt;
	parse_ok(aligned_hex, &rt);
	CHECK(rt.chan_flags & V2X_RT_CHAN_HALF);
	CHECK(!(rt.chan_flags & V2X_RT_CHAN_QUARTER));
}

TEST(radiotap_fcs_at_end_flag)
{
	struct v2x_radiotap rt;
	parse_ok(aligned_hex, &rt);
	CHECK(rt.has_flags);
	CHECK_INT(rt.flags, V2X_RT_FLAG_FCS);
	CHECK(rt.fcs_at_end);
}

TEST(radiotap_extended_bitmaps_ath9k_chains)
{
	struct v2x_radiotap rt;
	parse_ok(ath9k_hex, &rt);
	CHECK_INT(rt.n_present, 3);
	CHECK_INT(rt.hdr_len, 38);
	CHECK(rt.tsft == 100000000);
	CHECK_INT(rt.freq, 5890);
	CHECK_INT(rt.signal_dbm, -55); /* the combined one, not a chain's */
	CHECK_INT(rt.antenna, 0);
}

TEST(radiotap_vendor_namespace_skipped)
{
	struct v2x_radiotap rt = check_after_namespaces(vendor_hex, 3, -40);
	CHECK_INT(rt.freq, 5890);
}

TEST(radiotap_vendor_namespace_of_two_words)
{
	check_after_namespaces(vendor2_hex, 4, -80);
}

TEST(radiotap_two_namespaces_in_one_word_rejected)
{
	check_rejected("00 00 0c 00  00 00 00 e0  00 00 00 00");
}

TEST(radiotap_tlv_bit_ends_fields)
{
	check_rate_then_stop(tlv_hex, 12, 20);
}

TEST(radiotap_unknown_field_stops_but_length_honoured)
{
	struct v2x_radiotap rt = check_rate_then_stop(unknown_hex, 12, 24);
	CHECK(!rt.has_channel);
}

TEST(radiotap_rejects_bad_version_and_length)
{
	size_t len;
	uint8_t *b = unit_hex(hwsim_hex, &len);
	struct v2x_radiotap rt;
	const char *why = NULL;
	b[0] = 1;
	CHECK_INT(v2x_radiotap_parse(b, len, &rt, &why), -1);
	CHECK(why != NULL);
	b[0] = 0;
	b[2] = 7; /* it_len below the fixed header */
	CHECK_INT(v2x_radiotap_parse(b, len, &rt, &why), -1);
	b[2] = 10; /* present words fit, fields do not */
	CHECK_INT(v2x_radiotap_parse(b, len, &rt, &why), -1);
	free(b);
}

/* A presence word chain longer than it_len must not be followed. */
TEST(radiotap_presence_words_past_length)
{
	check_rejected("00 00 0c 00  00 00 00 80  00 00 00 80");
}

/* Every prefix of every header above: a clean error, never a read past the copy
 * (exactly-sized heap copies, so ASan sees any over-read). */
TEST(radiotap_truncated_at_every_offset)
{
	static const char *const all[] = {hwsim_hex,  aligned_hex, ath9k_hex, vendor_hex,
					  vendor2_hex, tlv_hex,    unknown_hex};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		size_t len;
		uint8_t *b = unit_hex(all[i], &len);
		for (size_t n = 0; n < len; n++) {
			uint8_t *cut = malloc(n ? n : 1);
			memcpy(cut, b, n);
			struct v2x_radiotap rt;
			const char *why = NULL;
			if (v2x_radiotap_parse(cut, n, &rt, &why) != -1 || !why)
				unit_fail(__FILE__, __LINE__, "header %zu cut at %zu accepted", i, n);
			free(cut);
		}
		free(b);
	}
}
