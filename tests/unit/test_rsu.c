/* USDOT RSU text records (lib/rsu.c): the lines V2X-Hub's immediate-forward plugin
 * writes, and what is refused. */
#include <string.h>

#include "rsu.h"
#include "unit.h"

static int parse(const char *text, struct v2x_rsu_rec *r, const char **why)
{
	return v2x_rsu_parse((const uint8_t *)text, strlen(text), r, why);
}

TEST(rsu_record_lines_and_payload)
{
	static struct v2x_rsu_rec r;
	const char *why = NULL;
	const char *text = "Version=0.7\r\nType=SPAT\r\nPSID=0x8002\r\nPriority=7\r\n"
			   "TxMode=ALT\r\nTxChannel=183\r\nTxInterval=0\r\nDeliveryStart=\r\n"
			   "DeliveryStop=\r\nSignature=True\r\nEncryption=False\r\nPayload=0013ab\r\n"
			   "Version=0.7\n";
	CHECK_INT(parse(text, &r, &why), 0);
	CHECK_INT(r.psid, 0x82); /* p-encoded 80 02 */
	CHECK(r.has_channel && r.channel == 183);
	CHECK(r.has_priority && r.priority == 7);
	CHECK(r.has_interval && r.interval == 0);
	CHECK_INT(r.payload_len, 3);
	CHECK_INT(r.payload[2], 0xab);
	CHECK_INT(r.len, strlen(text) - strlen("Version=0.7\n")); /* the next record follows */
	const struct v2x_rsu_span *mode = &r.field[V2X_RSU_TXMODE];
	CHECK(mode->present && mode->len == 3 && memcmp(text + mode->off, "ALT", 3) == 0);
	CHECK(r.field[V2X_RSU_DELIVERY_START].present && !r.field[V2X_RSU_DELIVERY_START].len);
	CHECK_STR(v2x_rsu_key_name(V2X_RSU_TXCHANNEL), "TxChannel");
}

TEST(rsu_record_refused)
{
	static struct v2x_rsu_rec r;
	static const struct { const char *text, *why; } bad[] = {
		{"Type=SPAT\nVersion=0.7\nPSID=0x20\nPayload=00\n", "no Version line first"},
		{"Version=0.7\nPSID=0x20\n", "without a Payload line"},
		{"Version=0.7\nPayload=0014\n", "without a PSID line"},
		{"Version=0.7\nPSID=0x82\nPayload=0014\n", "not a p-encoded PSID"},
		{"Version=0.7\nPSID=zz\nPayload=0014\n", "not a hex number"},
		{"Version=0.7\nPSID=0x20\nPayload=001\n", "not whole octets"},
		{"Version=0.7\nPSID=0x20\nPayload=00g4\n", "not hex"},
		{"Version=0.7\nPSID=0x20\nPayload=\n", "payload empty"},
		{"Version=0.7\nPSID=0x20\nTxChannel=999\nPayload=00\n", "TxChannel"},
		{"Version=0.7\nPSID=0x20\nPSID=0x20\nPayload=00\n", "given twice"},
		{"Version=0.7\nPSID 0x20\nPayload=00\n", "without '='"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *why = NULL;
		if (parse(bad[i].text, &r, &why) != -1 || !why || !strstr(why, bad[i].why))
			unit_fail(__FILE__, __LINE__, "case %zu: %s", i, why ? why : "accepted");
	}
}
