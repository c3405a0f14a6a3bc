/* lib/j2735dec on the vector bytes directly: libv2x's BSM writer decoded, and truncated
 * MessageFrames (every prefix) reported as malformed, never read past. */
#include <stdlib.h>

#include "bsm.h"
#include "j2735dec.h"
#include "unit.h"

/* Records the integers of coreData by member name (the last key seen). */
struct core_values {
	const char *key;
	long long msg_cnt, sec_mark, lat, lon, speed, heading;
};

static void on_key(void *ctx, const char *name) { ((struct core_values *)ctx)->key = name; }
static void on_nesting(void *ctx, bool array) { (void)ctx, (void)array; }
static void on_text(void *ctx, const char *s, size_t len) { (void)ctx, (void)s, (void)len; }
static void on_octets(void *ctx, const uint8_t *p, size_t n) { (void)ctx, (void)p, (void)n; }
static void on_boolean(void *ctx, bool v) { (void)ctx, (void)v; }
static void on_null(void *ctx) { (void)ctx; }

static void on_integer(void *ctx, long long v)
{
	struct core_values *c = ctx;
	const char *k = c->key;
	if (strcmp(k, "msgCnt") == 0)
		c->msg_cnt = v;
	else if (strcmp(k, "secMark") == 0)
		c->sec_mark = v;
	else if (strcmp(k, "lat") == 0 && !c->lat)  /* accelSet.lat comes later */
		c->lat = v;
	else if (strcmp(k, "long") == 0 && !c->lon)
		c->lon = v;
	else if (strcmp(k, "speed") == 0)
		c->speed = v;
	else if (strcmp(k, "heading") == 0)
		c->heading = v;
}

static const struct j2735dec_visitor record = {
	on_key, on_nesting, on_nesting, on_integer, on_text, on_octets, on_boolean, on_null,
};

/* libv2x's BSM writer (lib/bsm.c) against the asn1c decoder generated from the schema. */
TEST(decode_bsm_writer_output_decodes_with_the_schema)
{
	if (!j2735dec_edition()) {
		unit_skip("built without a J2735 schema");
		return;
	}
	struct v2x_bsm_core bsm;
	v2x_bsm_core_unavailable(&bsm);
	bsm.msg_cnt = 88;
	bsm.id = 0xBEA10000;
	bsm.sec_mark = 59299;
	bsm.lat = 411642143;
	bsm.lon = -1048434120;
	bsm.elev = 18822;
	bsm.speed = 714;
	bsm.heading = 15290;
	struct v2x_buf buf = {0};
	CHECK_INT(v2x_bsm_frame_write(&buf, &bsm), 0);
	CHECK_INT(buf.p[0], 0x00);
	CHECK_INT(buf.p[1], 0x14); /* messageId 20 */
	struct j2735dec_msg msg;
	CHECK_INT(j2735dec_decode(buf.p, buf.len, &msg), J2735DEC_OK);
	CHECK_INT(msg.frame_len, buf.len);
	CHECK_STR(msg.type_name, "BasicSafetyMessage");
	struct core_values c = {0};
	j2735dec_walk(&msg, &record, &c);
	CHECK_INT(c.msg_cnt, 88);
	CHECK_INT(c.sec_mark, 59299);
	CHECK_INT(c.lat, 411642143);
	CHECK_INT(c.lon, -1048434120);
	CHECK_INT(c.speed, 714);
	CHECK_INT(c.heading, 15290);
	j2735dec_free(&msg);
	v2x_buf_free(&buf);
}

TEST(decode_every_truncated_messageframe_is_malformed)
{
	size_t len;
	uint8_t *bytes = unit_vector_file("asn1_codec/j2735.MessageFrame.Bsm.uper", &len);
	if (!bytes)
		return;
	if (!j2735dec_edition()) {
		free(bytes);
		unit_skip("built without a J2735 schema");
		return;
	}
	struct j2735dec_msg msg;
	for (size_t n = 0; n < len; n++) {
		/* an exact-size copy, so that ASan sees any read past the prefix */
		uint8_t *prefix = malloc(n ? n : 1);
		memcpy(prefix, bytes, n);
		enum j2735dec_result r = j2735dec_decode(prefix, n, &msg);
		if (r == J2735DEC_OK)
			unit_fail(__FILE__, __LINE__, "a %zu-octet prefix decoded", n);
		j2735dec_free(&msg);
		free(prefix);
	}
	CHECK_INT(j2735dec_decode(bytes, len, &msg), J2735DEC_OK);
	CHECK_INT(msg.msg_id, 20);
	j2735dec_free(&msg);
	free(bytes);
}
