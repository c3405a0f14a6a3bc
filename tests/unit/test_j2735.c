/* J2735 MessageFrame header (UPER) against the asn1_codec, jpo-ode and carma-messenger
 * vectors: message ids from their decodes, the 128-frame stream, and clean errors. */
#include <stdlib.h>

#include "ieee1609dot2.h"
#include "j2735.h"
#include "registry.h"
#include "unit.h"

/* The header of a parsed frame: extension bit, message id and value length. */
static void check_header(const struct v2x_msgframe *mf, bool ext, uint32_t id,
			 uint32_t value_len)
{
	CHECK_INT(mf->ext, ext);
	CHECK_INT(mf->msg_id, id);
	CHECK_INT(mf->value_len, value_len);
}

static void check_frame(const uint8_t *buf, size_t len, uint16_t id, uint32_t value_len)
{
	struct v2x_msgframe mf;
	const char *why = NULL;
	if (v2x_msgframe_parse(buf, len, &mf, &why) != 0) {
		unit_fail(__FILE__, __LINE__, "message %u rejected: %s", id, why);
		return;
	}
	check_header(&mf, false, id, value_len);
	CHECK(mf.frame_len <= len);
	CHECK(mf.value == buf + mf.frame_len - mf.value_len);
}

TEST(j2735_bsm_frame_asn1_codec)
{
	size_t len;
	uint8_t *b = unit_vector_file("asn1_codec/j2735.MessageFrame.Bsm.uper", &len);
	if (!b)
		return;
	check_frame(b, len, 20, 173); /* j2735.MessageFrame.Bsm.xml: messageId 20 */
	struct v2x_msgframe mf;
	const char *why;
	CHECK_INT(v2x_msgframe_parse(b, len, &mf, &why), 0);
	CHECK_INT(mf.frame_len, len);
	free(b);
}

TEST(j2735_tim_frame_asn1_codec)
{
	size_t len;
	uint8_t *b = unit_vector_file("asn1_codec/MessageFrame.TravelerInformation.uper", &len);
	if (!b)
		return;
	check_frame(b, len, 31, 106);
	free(b);
}

/* The 128 concatenated BSM frames of the Cheyenne data set, walked with frame_len. */
TEST(j2735_128_bsm_frames_iterated)
{
	size_t len, xlen;
	uint8_t *b = unit_vector_file("asn1_codec/j2735.MessageFrame.128.bsms.uper", &len);
	char *xer = (char *)unit_vector_file("asn1_codec/j2735.MessageFrame.128.bsms.xer", &xlen);
	if (!b || !xer)
		goto out;
	unsigned expected = 0;
	for (const char *x = xer; (x = strstr(x, "<messageId>20</messageId>")); x++)
		expected++;
	CHECK_INT(expected, 128);
	size_t off = 0;
	unsigned count = 0;
	while (off < len) {
		struct v2x_msgframe mf;
		const char *why = NULL;
		if (v2x_msgframe_parse(b + off, len - off, &mf, &why) != 0) {
			unit_fail(__FILE__, __LINE__, "frame %u at %zu: %s", count, off, why);
			break;
		}
		if (mf.msg_id != 20)
			unit_fail(__FILE__, __LINE__, "frame %u: messageId %u", count, mf.msg_id);
		off += mf.frame_len;
		count++;
	}
	CHECK_INT(count, expected);
	CHECK_INT(off, len);
out:
	free(b);
	free(xer);
}

/* The <messageId> of a jpo-ode decoder output, the independent decode. */
static unsigned xml_message_id(const char *relpath)
{
	size_t len;
	char *t = (char *)unit_vector_file(relpath, &len);
	const char *m = t ? strstr(t, "<messageId>") : NULL;
	unsigned id = m ? (unsigned)strtoul(m + strlen("<messageId>"), NULL, 10) : 0;
	free(t);
	return id;
}

TEST(j2735_jpo_ode_frames)
{
	static const struct {
		const char *file;
		uint32_t value_len;
	} files[] = {
		{"jpo-ode/decoder-output-bsm.xml", 184}, {"jpo-ode/decoder-output-map.xml", 961},
		{"jpo-ode/decoder-output-psm.xml", 26},  {"jpo-ode/decoder-output-spat.xml", 56},
		{"jpo-ode/decoder-output-srm.xml", 33},  {"jpo-ode/decoder-output-ssm.xml", 18},
		{"jpo-ode/decoder-output-sdsm.xml", 37},
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t len;
		uint8_t *b = unit_vector_xml_hex(files[i].file, "asn1", &len);
		unsigned id = xml_message_id(files[i].file);
		if (!b)
			continue;
		check_frame(b, len, (uint16_t)id, files[i].value_len);
		free(b);
	}
}

TEST(j2735_sdsm_id_known_from_2024_only)
{
	unsigned id = xml_message_id("jpo-ode/decoder-output-sdsm.xml");
	if (!id)
		return; /* no vector: skipped */
	const struct v2x_msgid *m = v2x_msgid_lookup(id);
	CHECK(m != NULL);
	CHECK_STR(m ? m->abbrev : NULL, "SDSM");
	CHECK_INT(m ? m->first_edition : 0, 2024);
}

TEST(j2735_signed_tim_through_dot2)
{
	size_t len;
	uint8_t *b = unit_vector_xml_hex("jpo-ode/decoder-output-tim.xml", "asn1", &len);
	if (!b)
		return;
	struct v2x_dot2 d;
	const char *why = NULL;
	CHECK_INT(v2x_dot2_parse(b, len, &d, &why), 0);
	CHECK_INT(xml_message_id("jpo-ode/decoder-output-tim.xml"), 31);
	if (d.payload)
		check_frame(d.payload, d.payload_len, 31, 208);
	free(b);
}

TEST(j2735_carma_messenger_frames)
{
	static const struct {
		const char *file;
		uint16_t id;
		uint32_t value_len;
	} files[] = {
		{"carma-messenger/BSM.hex", 20, 37},
		{"carma-messenger/PSM.hex", 32, 95},
		{"carma-messenger/MapMessage.hex", 18, 339},
		{"carma-messenger/SPAT.hex", 19, 28},
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t len;
		uint8_t *b = unit_vector_hex(files[i].file, &len);
		if (!b)
			continue;
		check_frame(b, len, files[i].id, files[i].value_len);
		free(b);
	}
}

/* Parses a hex frame that must be accepted; the result (and the frame it points into)
 * lasts until the case ends. */
static const struct v2x_msgframe *parse_hex_ok(const char *hex)
{
	size_t len;
	const char *why = NULL;
	uint8_t *buf = unit_keep(unit_hex(hex, &len));
	struct v2x_msgframe *mf = unit_keep(calloc(1, sizeof(*mf)));
	if (v2x_msgframe_parse(buf, len, mf, &why) != 0)
		unit_fail(__FILE__, __LINE__, "%s rejected: %s", hex, why ? why : "(null)");
	return mf;
}

TEST(j2735_extension_bit_read)
{
	const struct v2x_msgframe *mf = parse_hex_ok("80 14 02 aabb");
	check_header(mf, true, 20, 2);
	CHECK_INT(mf->frame_len, 5);
}

TEST(j2735_unknown_message_id_still_framed)
{
	const struct v2x_msgframe *mf = parse_hex_ok("7fff 01 00");
	check_header(mf, false, 32767, 1);
	CHECK(v2x_msgid_lookup(mf->msg_id) == NULL);
}

static void check_rejected(const char *hex)
{
	size_t len;
	uint8_t *b = unit_hex(hex, &len);
	struct v2x_msgframe mf;
	const char *why = NULL;
	if (v2x_msgframe_parse(b, len, &mf, &why) != -1 || !why)
		unit_fail(__FILE__, __LINE__, "%s accepted", hex);
	free(b);
}

TEST(j2735_value_beyond_buffer_rejected)
{
	check_rejected("0014 05 aabbccdd");
	check_rejected("0014 8100 aabb");
}

TEST(j2735_fragmented_length_rejected)
{
	check_rejected("0014 c1 aabb");
}

/* Every cut short of the whole frame is an error; exact-size copies for sanitizers. */
static void check_every_cut(const uint8_t *buf, size_t frame_len)
{
	for (size_t cut = 0; cut < frame_len; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);
		memcpy(copy, buf, cut);
		struct v2x_msgframe mf;
		const char *why = NULL;
		if (v2x_msgframe_parse(copy, cut, &mf, &why) != -1 || !why)
			unit_fail(__FILE__, __LINE__, "cut at %zu accepted", cut);
		free(copy);
	}
}

TEST(j2735_truncated_at_every_offset)
{
	static const char *files[] = {"asn1_codec/j2735.MessageFrame.Bsm.uper",
				      "asn1_codec/MessageFrame.TravelerInformation.uper"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t len;
		uint8_t *b = unit_vector_file(files[i], &len);
		if (b)
			check_every_cut(b, len);
		free(b);
	}
	size_t len;
	uint8_t *b = unit_vector_xml_hex("jpo-ode/decoder-output-map.xml", "asn1", &len);
	if (b)
		check_every_cut(b, 965); /* two-octet length form */
	free(b);
}
