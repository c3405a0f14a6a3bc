/* The shared name registry: PSIDs (IEEE 1609.12), WAVE element ids (IEEE 1609.3),
 * J2735 message ids with their ASN.1 types and first edition. */
#include "registry.h"
#include "unit.h"

TEST(registry_psids_in_use_have_names)
{
	CHECK_STR(v2x_psid_name(0x20), "Vehicle-to-vehicle safety and awareness");
	CHECK_STR(v2x_psid_name(0x27), "Vulnerable road users safety applications");
	CHECK_STR(v2x_psid_name(0x82), "Intersection safety and awareness");
	CHECK_STR(v2x_psid_name(0x83), "Traveller information and roadside signage");
	CHECK_STR(v2x_psid_name(0x85), "Emergency and erratic vehicles present in roadway");
	CHECK_STR(v2x_psid_name(V2X_PSID_WSA), "WAVE service advertisement");
	CHECK_STR(v2x_psid_name(0x8010), "Sensor data sharing");
	CHECK(v2x_psid_name(0x80) != NULL);
	CHECK(v2x_psid_name(0x81) != NULL);
	for (uint32_t p = 0x204090; p <= 0x204097; p++)
		CHECK(v2x_psid_name(p) != NULL);
}

static bool j2735_flag(uint32_t psid)
{
	for (const struct v2x_psid *p = v2x_psids; p->name; p++)
		if (p->psid == psid)
			return p->j2735;
	return false;
}

TEST(registry_j2735_flag_marks_psids_carrying_j2735)
{
	static const uint32_t carry[] = {0x20, 0x27, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85,
					 0x8010, 0x204090, 0x204097};
	for (size_t i = 0; i < sizeof(carry) / sizeof(carry[0]); i++)
		if (!j2735_flag(carry[i]))
			unit_fail(__FILE__, __LINE__, "PSID 0x%" PRIx32 " not flagged", carry[i]);
	CHECK(!j2735_flag(V2X_PSID_WSA));
	CHECK(!j2735_flag(0x23));
	CHECK(!j2735_flag(0x204080));
}

TEST(registry_psid_table_ascending)
{
	for (const struct v2x_psid *p = v2x_psids; p->name && p[1].name; p++)
		CHECK(p->psid < p[1].psid);
	CHECK(v2x_psid_carries_j2735(0x20) && v2x_psid_carries_j2735(0x204097));
	CHECK(!v2x_psid_carries_j2735(0x87) && !v2x_psid_carries_j2735(0x1020407f));
	CHECK(v2x_psid_name(0x1020407e) && !v2x_psid_name(0x1020407f) && v2x_psid_name(0));
}

TEST(registry_psid_table_has_no_duplicates)
{
	for (const struct v2x_psid *a = v2x_psids; a->name; a++) {
		CHECK(a->name[0] != '\0');
		for (const struct v2x_psid *b = a + 1; b->name; b++)
			if (a->psid == b->psid)
				unit_fail(__FILE__, __LINE__, "PSID 0x%" PRIx32 " twice", a->psid);
	}
}

TEST(registry_unknown_psid_is_null)
{
	CHECK(v2x_psid_name(0x28) == NULL);
	CHECK(v2x_psid_name(0x204098) == NULL);
}

TEST(registry_wave_element_names)
{
	CHECK_STR(v2x_wave_element_name(V2X_WEID_TX_POWER), "Transmit Power Used");
	CHECK_STR(v2x_wave_element_name(V2X_WEID_CHANNEL), "Channel Number");
	CHECK_STR(v2x_wave_element_name(V2X_WEID_DATA_RATE), "Data Rate");
	CHECK_STR(v2x_wave_element_name(V2X_WEID_CHANNEL_LOAD), "Channel Load");
	CHECK_STR(v2x_wave_element_name(V2X_WEID_WSMP), "WSMP");
	CHECK_STR(v2x_wave_element_name(V2X_WEID_WSMP_S), "WSMP-S");
	CHECK_STR(v2x_wave_element_name(V2X_WEID_WSMP_I), "WSMP-I");
	CHECK_STR(v2x_wave_element_name(17), "Repeat Rate");
	CHECK(v2x_wave_element_name(0) == NULL);
	CHECK(v2x_wave_element_name(200) == NULL);
}

/* Message ids checked by name and first edition, by range. */
static const struct {
	uint32_t id;
	const char *abbrev, *name;
	int edition;
} msgids[] = {
	{18, "MAP", "MapData", 2016},
	{19, "SPAT", "SPAT", 2016},
	{20, "BSM", "BasicSafetyMessage", 2016},
	{27, "RSA", "RoadSideAlert", 2016},
	{29, "SRM", "SignalRequestMessage", 2016},
	{30, "SSM", "SignalStatusMessage", 2016},
	{31, "TIM", "TravelerInformation", 2016},
	{32, "PSM", "PersonalSafetyMessage", 2016},
	{33, "RSM", "RoadSafetyMessage", 2024},
	{39, "TUMack", "TollUsageAckMessage", 2024},
	{41, "SDSM", "SensorDataSharingMessage", 2024},
	{42, "MSCM", "ManeuverSharingAndCoordinatingMessage", 2024},
	{50, "TLSM", "TrafficLightStatusMessage", 2024},
	{240, "TEST00", "TestMessage00", 2016},
	{255, "TEST15", "TestMessage15", 2016},
};

/* Every id from first to last is known (and of first edition `edition`, when not 0),
 * and those of the table above carry its names. */
static void check_msgids(uint32_t first, uint32_t last, int edition)
{
	for (size_t i = 0; i < sizeof(msgids) / sizeof(msgids[0]); i++) {
		if (msgids[i].id < first || msgids[i].id > last)
			continue;
		const struct v2x_msgid *m = v2x_msgid_lookup(msgids[i].id);
		if (!m) {
			unit_fail(__FILE__, __LINE__, "message id %" PRIu32 " unknown", msgids[i].id);
			continue;
		}
		CHECK_INT(m->id, msgids[i].id);
		CHECK_STR(m->abbrev, msgids[i].abbrev);
		CHECK_STR(m->name, msgids[i].name);
		CHECK_INT(m->first_edition, msgids[i].edition);
	}
	for (uint32_t id = first; id <= last; id++) {
		const struct v2x_msgid *m = v2x_msgid_lookup(id);
		if (!m)
			unit_fail(__FILE__, __LINE__, "message id %" PRIu32 " unknown", id);
		else if (edition)
			CHECK_INT(m->first_edition, edition);
	}
}

TEST(registry_msgids_2016)
{
	check_msgids(18, 32, 0);
}

TEST(registry_msgids_2024)
{
	check_msgids(33, 50, 2024);
}

TEST(registry_msgids_test_messages)
{
	check_msgids(240, 255, 0);
}

TEST(registry_unknown_msgid_is_null)
{
	static const uint32_t unknown[] = {0, 2, 17, 51, 239, 256, 32767};
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		CHECK(v2x_msgid_lookup(unknown[i]) == NULL);
}
