/* The encoders (writer.c, frame_write.c, pcap_write.c) against the parsers and against
 * the bytes of the shared vectors. */
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "frame_write.h"
#include "pcap_write.h"
#include "registry.h"
#include "unit.h"

TEST(length_determinants_in_both_encodings)
{
	static const struct { size_t n; const char *uper, *coer; } cases[] = {
		{0, "00", "00"}, {127, "7f", "7f"}, {128, "8080", "8180"},
		{255, "80ff", "81ff"}, {256, "8100", "820100"}, {16383, "bfff", "823fff"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct v2x_buf u = {0}, c = {0};
		size_t ulen, clen;
		uint8_t *uw = unit_hex(cases[i].uper, &ulen), *cw = unit_hex(cases[i].coer, &clen);
		v2x_put_uper_length(&u, cases[i].n);
		v2x_put_coer_length(&c, cases[i].n);
		CHECK_INT(u.len, ulen);
		CHECK_INT(c.len, clen);
		if (u.len == ulen && c.len == clen) {
			CHECK_MEM(u.p, uw, ulen);
			CHECK_MEM(c.p, cw, clen);
		}
		free(uw);
		free(cw);
		v2x_buf_free(&u);
		v2x_buf_free(&c);
	}
}

TEST(bit_writer_writes_msb_first_and_stops_at_the_end)
{
	uint8_t b[3] = {0xFF, 0xFF, 0xFF};
	struct v2x_bitw w;
	v2x_bitw_init(&w, b, sizeof b);
	v2x_bitw_put(&w, 3, 0);
	v2x_bitw_put(&w, 7, 0x55);
	v2x_bitw_put(&w, 14, 0);
	CHECK(!w.err);
	CHECK_INT(b[0], 0x15);
	CHECK_INT(b[1], 0x40);
	CHECK_INT(b[2], 0x00);
	v2x_bitw_put(&w, 1, 1);
	CHECK(w.err);
	CHECK_INT(b[2], 0x00);
}

/* asn1_codec's unsecuredData BSM is what the 1609.2 writer makes of the payload the parser
 * finds in it; its signed BSM too, up to the signature (the writer's is a dummy). */
TEST(dot2_unsecured_writes_the_vector_bytes)
{
	size_t len;
	uint8_t *u = unit_vector_hex("asn1_codec/Ieee1609Dot2Data.unsecuredData.Bsm.coer.hex", &len);
	if (!u)
		return;
	struct v2x_dot2 parsed;
	const char *why;
	CHECK_INT(v2x_dot2_parse(u, len, &parsed, &why), 0);
	struct v2x_buf b = {0};
	v2x_dot2_write(&b, &(struct v2x_dot2_spec){.content = V2X_DOT2_UNSECURED},
		       parsed.payload, parsed.payload_len);
	CHECK_INT(b.len, len);
	if (b.len == len)
		CHECK_MEM(b.p, u, len);
	free(u);
	uint8_t *s = unit_vector_file("asn1_codec/Ieee1609Dot2Data.unsecuredData.Bsm.coer", &len);
	if (!s)
		return;
	CHECK_INT(v2x_dot2_parse(s, len, &parsed, &why), 0);
	struct v2x_dot2_spec spec = {.content = V2X_DOT2_SIGNED, .psid = parsed.psid,
				     .generation_time = parsed.generation_time};
	memcpy(spec.digest, parsed.digest, 8);
	v2x_buf_reset(&b);
	v2x_dot2_write(&b, &spec, parsed.payload, parsed.payload_len);
	CHECK_INT(b.len, len);
	if (b.len == len)
		CHECK_MEM(b.p, s, len - 66); /* signature: its type and value */
	v2x_buf_free(&b);
	free(s);
}

/* A WSMP v3 header rebuilt from what the parser read of a third-party frame (gdot.bin:
 * N-header extension elements, TPID 0) is the same octets. */
TEST(wsmp_v3_rebuilds_the_vector_header)
{
	size_t len;
	uint8_t *f = unit_vector_file("ieee1609-examples/gdot.bin", &len);
	if (!f)
		return;
	struct v2x_wsmp w;
	const char *why;
	CHECK_INT(v2x_wsmp_parse(f, len, &w, &why), 0);
	struct v2x_wsmp_element ext[V2X_WSMP_MAX_EXT];
	for (unsigned i = 0; i < w.n_ext; i++) {
		ext[i] = (struct v2x_wsmp_element){.id = w.ext[i].id, .len = (uint8_t)w.ext[i].len};
		memcpy(ext[i].value, w.ext[i].value, w.ext[i].len);
	}
	struct v2x_wsmp_spec s = {.version = 3, .tpid = w.tpid, .psid = w.psid, .ext = ext,
				  .n_ext = w.n_ext, .length = -1};
	struct v2x_buf b = {0};
	v2x_wsmp_write(&b, &s, w.payload, w.length);
	CHECK_INT(b.len, w.hdr_len + w.length);
	if (b.len == w.hdr_len + w.length)
		CHECK_MEM(b.p, f, b.len);
	v2x_buf_free(&b);
	free(f);
}

/* Every link type, WSMP v3 with elements and v2, signed and unsecured: the frame parser
 * finds what was written. */
TEST(frames_written_parse_back_on_every_link_type)
{
	static const int links[] = {V2X_LINK_RADIOTAP, V2X_LINK_IEEE80211, V2X_LINK_ETHERNET,
				    V2X_LINK_LINUX_SLL, V2X_LINK_LINUX_SLL2};
	static const uint8_t mf[] = {0x00, 0x14, 0x02, 0xAA, 0xBB};
	struct v2x_wsmp_element power = {.id = V2X_WEID_TX_POWER, .len = 1, .value = {(uint8_t)-7},
					 .dbm = true};
	for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
		for (unsigned version = 2; version <= 3; version++) {
			struct v2x_link_spec l = {.linktype = links[i], .src = {2, 0, 0, 0, 0, 9},
						  .llc = V2X_LLC_SNAP, .freq = 5860, .width = 10,
						  .rate = 12, .rssi = -61, .fcs = true};
			struct v2x_wsmp_spec ws = {.version = version, .psid = 0x4040,
						   .ext = &power, .n_ext = 1, .length = -1};
			struct v2x_dot2_spec ds = {.content = version == 3 ? V2X_DOT2_SIGNED
									    : V2X_DOT2_UNSECURED,
						   .psid = 0x4040, .generation_time = 42};
			struct v2x_buf d = {0}, w = {0}, f = {0};
			v2x_dot2_write(&d, &ds, mf, sizeof mf);
			v2x_wsmp_write(&w, &ws, d.p, d.len);
			v2x_link_write(&f, &l, V2X_ETHERTYPE_WSMP, w.p, w.len);
			struct v2x_frame fr;
			CHECK_INT(v2x_frame_parse(links[i], f.p, f.len, &fr), 0);
			CHECK_INT(fr.layer, V2X_LAYER_J2735);
			CHECK_INT(fr.src[5], 9);
			CHECK_INT(fr.wsmp.version, version);
			CHECK_INT(fr.wsmp.psid, 0x4040);
			CHECK_INT(fr.wsmp.n_ext, 1);
			CHECK_INT(fr.wsmp.ext[0].number, -7);
			CHECK_INT(fr.dot2.content, ds.content);
			CHECK_INT(fr.mf.msg_id, 20);
			CHECK_INT(fr.mf.value_len, 2);
			if (links[i] == V2X_LINK_RADIOTAP) {
				CHECK_INT(fr.rt.freq, 5860);
				CHECK_INT(fr.rt.signal_dbm, -61);
			}
			if (version == 3)
				CHECK_INT(fr.dot2.generation_time, 42);
			v2x_buf_free(&d);
			v2x_buf_free(&w);
			v2x_buf_free(&f);
		}
	}
}

TEST(pcapng_interface_block_carries_its_options)
{
	struct v2x_buf b = {0};
	v2x_pcap_write_header(&b, &(struct v2x_pcap_conf){.pcapng = true, .linktype = 127,
							  .snaplen = 65535, .if_name = "wlan1",
							  .if_desc = "5860 MHz"});
	/* SHB 28, IDB 20 + if_name 4+8 + if_description 4+8 + end 4 */
	CHECK_INT(b.len, 28 + 48);
	if (b.len == 28 + 48) {
		CHECK_INT(b.p[32], 48);            /* IDB total length */
		CHECK_MEM(b.p + 28 + 16, "\x02\x00\x05\x00wlan1\0\0\0", 12);
		CHECK_MEM(b.p + 28 + 28, "\x03\x00\x08\x00" "5860 MHz", 12);
		CHECK_INT(b.p[28 + 48 - 4], 48);   /* repeated at the end */
	}
	v2x_buf_reset(&b);
	v2x_pcap_write_record(&b, true, 0x100000002LL, (const uint8_t *)"abcde", 5, 9);
	CHECK_INT(b.len, 32 + 8);
	CHECK_INT(b.p[12], 1); /* timestamp high word */
	CHECK_INT(b.p[16], 2);
	CHECK_INT(b.p[24], 9); /* original length */
	v2x_buf_free(&b);
}
