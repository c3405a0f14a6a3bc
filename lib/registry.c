/* The V2X name tables (see registry.h): one row per assigned number, so adding a PSID,
 * a WAVE element or a message id is a one-line change here and nowhere else. */
#include "registry.h"

#include <stdatomic.h>
#include <stddef.h>

/* IEEE 1609.12 PSID assignments, in ascending order. j2735 = 1 where SAE J2735 messages
 * travel. */
const struct v2x_psid v2x_psids[] = {
	{0x00, "System", 0},
	{0x01, "Electronic fee collection", 0},
	{0x02, "Freight fleet management", 0},
	{0x03, "Public transport", 0},
	{0x04, "Traffic traveller information", 0},
	{0x05, "Traffic control", 0},
	{0x06, "Parking management", 0},
	{0x07, "Geographic road database", 0},
	{0x08, "Medium range preinformation", 0},
	{0x09, "Man-machine interface", 0},
	{0x0a, "Intersystem interface", 0},
	{0x0b, "Automatic vehicle identification", 0},
	{0x0c, "Emergency warning", 0},
	{0x0d, "Private", 0},
	{0x0e, "Multi-purpose payment", 0},
	{0x0f, "DSRC resource manager", 0},
	{0x10, "After theft systems", 0},
	{0x11, "Cruise assist highway system", 0},
	{0x12, "Multi-purpose information system", 0},
	{0x13, "Multi-mobile information system", 0},
	{0x14, "EFC compliance check communication applications", 0},
	{0x15, "EFC localisation augmentation communication applications", 0},
	{0x20, "Vehicle-to-vehicle safety and awareness", 1},
	{0x21, "Limited sensor vehicle-to-vehicle safety and awareness", 0},
	{0x22, "Tracked vehicle safety and awareness", 0},
	{0x23, "WAVE security management", 0},
	{0x24, "CA basic services", 0},
	{0x25, "DEN basic services", 0},
	{0x26, "Misbehavior reporting for common applications", 0},
	{0x27, "Vulnerable road users safety applications", 1},
	{0x7f, "Testing", 0},
	{0x80, "Differential GPS corrections, uncompressed", 1},
	{0x81, "Differential GPS corrections, compressed", 1},
	{0x82, "Intersection safety and awareness", 1},
	{0x83, "Traveller information and roadside signage", 1},
	{0x84, "Mobile probe exchanges", 1},
	{0x85, "Emergency and erratic vehicles present in roadway", 1},
	{0x86, "Remote management protocol execution", 0},
	{0x87, "WAVE service advertisement", 0},
	{0x88, "Peer-to-peer distribution of security management information", 0},
	{0x89, "Traffic light manoeuvre service", 0},
	{0x8a, "Road and lane topology service", 0},
	{0x8b, "Infrastructure to vehicle information service", 0},
	{0x8c, "Traffic light control requests service", 0},
	{0x8d, "GeoNetworking management communications", 0},
	{0x100, "Certificate revocation list application", 0},
	{0x27d, "Traffic light control status service", 0},
	{0x207f, "Collective perception service", 0},
	{0x4082, "Vehicle initiated distress notification", 0},
	{0x8010, "Sensor data sharing", 1},
	{0x204080, "Fast service advertisement protocol", 0},
	{0x204081, "ITS station-internal management communications protocol", 0},
	{0x204082, "Delay tolerant networking", 0},
	{0x204083, "Software update", 0},
	{0x204084, "Private applications 0x204084", 0},
	{0x204085, "Private applications 0x204085", 0},
	{0x204086, "Private applications 0x204086", 0},
	{0x204087, "Private applications 0x204087", 0},
	{0x204090, "CV pilot application 0x204090", 1},
	{0x204091, "CV pilot application 0x204091", 1},
	{0x204092, "CV pilot application 0x204092", 1},
	{0x204093, "CV pilot application 0x204093", 1},
	{0x204094, "CV pilot application 0x204094", 1},
	{0x204095, "CV pilot application 0x204095", 1},
	{0x204096, "CV pilot application 0x204096", 1},
	{0x204097, "CV pilot application 0x204097", 1},
	{0x1020407e, "IPv6 routing", 0},
	{0, NULL, 0},
};

/* IEEE 1609.3 WAVE element ids (WSMP headers, WSA and legacy WSMP v2). */
const struct v2x_name v2x_wave_elements[] = {
	{V2X_WEID_SERVICE_INFO, "Service Info"},
	{V2X_WEID_CHANNEL_INFO, "Channel Info"},
	{V2X_WEID_ROUTING_ADVERT, "WAVE Routing Advertisement"},
	{V2X_WEID_TX_POWER, "Transmit Power Used"},
	{V2X_WEID_2D_LOCATION, "2D Location"},
	{V2X_WEID_3D_LOCATION, "3D Location"},
	{V2X_WEID_ADVERTISER_ID, "Advertiser Identifier"},
	{V2X_WEID_PROVIDER_CONTEXT, "Provider Service Context"},
	{V2X_WEID_IPV6_ADDRESS, "IPv6 Address"},
	{V2X_WEID_SERVICE_PORT, "Service Port"},
	{V2X_WEID_PROVIDER_MAC, "Provider MAC Address"},
	{V2X_WEID_EDCA_PARAMETERS, "EDCA Parameter Set"},
	{V2X_WEID_SECONDARY_DNS, "Secondary DNS"},
	{V2X_WEID_GATEWAY_MAC, "Gateway MAC Address"},
	{V2X_WEID_CHANNEL, "Channel Number"},
	{V2X_WEID_DATA_RATE, "Data Rate"},
	{V2X_WEID_REPEAT_RATE, "Repeat Rate"},
	{V2X_WEID_COUNTRY_STRING, "Country String"},
	{V2X_WEID_RCPI_THRESHOLD, "RCPI Threshold"},
	{V2X_WEID_COUNT_THRESHOLD, "WSA Count Threshold"},
	{V2X_WEID_CHANNEL_ACCESS, "Channel Access"},
	{V2X_WEID_COUNT_THRESHOLD_INTERVAL, "WSA Count Threshold Interval"},
	{V2X_WEID_CHANNEL_LOAD, "Channel Load"},
	{V2X_WEID_PROTOCOL_TYPE, "Protocol Type"},
	{V2X_WEID_TIME_CONFIDENCE, "Compact Time Confidence"},
	{V2X_WEID_ASSERTED_BY_SIGNER, "Asserted By SA Signer"},
	{V2X_WEID_EXT_CHANNEL_INFOS, "Extended Channel Infos"},
	{V2X_WEID_APPLICATION_DATA, "Application Data"},
	{V2X_WEID_WSMP, "WSMP"},
	{V2X_WEID_WSMP_S, "WSMP-S"},
	{V2X_WEID_WSMP_I, "WSMP-I"},
	{0, NULL},
};

/* SAE J2735 MessageFrame messageId (DSRCmsgID) values, their ASN.1 types, the first
 * edition defining each, and the PSID each is sent under by default (0: none). */
const struct v2x_msgid v2x_msgids[] = {
	{V2X_MSG_MAP, "MAP", "MapData", 2016, 0x82},
	{V2X_MSG_SPAT, "SPAT", "SPAT", 2016, 0x82},
	{V2X_MSG_BSM, "BSM", "BasicSafetyMessage", 2016, 0x20},
	{21, "CSR", "CommonSafetyRequest", 2016, 0},
	{22, "EVA", "EmergencyVehicleAlert", 2016, 0x85},
	{23, "ICA", "IntersectionCollision", 2016, 0},
	{24, "NMEA", "NMEAcorrections", 2016, 0x81},
	{25, "PDM", "ProbeDataManagement", 2016, 0x84},
	{26, "PVD", "ProbeVehicleData", 2016, 0x84},
	{27, "RSA", "RoadSideAlert", 2016, 0x83},
	{28, "RTCM", "RTCMcorrections", 2016, 0x80},
	{29, "SRM", "SignalRequestMessage", 2016, 0x82},
	{30, "SSM", "SignalStatusMessage", 2016, 0x82},
	{V2X_MSG_TIM, "TIM", "TravelerInformation", 2016, 0x83},
	{32, "PSM", "PersonalSafetyMessage", 2016, 0x27},
	{33, "RSM", "RoadSafetyMessage", 2024, 0},
	{34, "RWM", "RoadWeatherMessage", 2024, 0},
	{35, "PDC", "ProbeDataConfigMessage", 2024, 0},
	{36, "PDR", "ProbeDataReportMessage", 2024, 0},
	{37, "TAM", "TollAdvertisementMessage", 2024, 0},
	{38, "TUM", "TollUsageMessage", 2024, 0},
	{39, "TUMack", "TollUsageAckMessage", 2024, 0},
	{40, "CCM", "CooperativeControlMessage", 2024, 0},
	{41, "SDSM", "SensorDataSharingMessage", 2024, 0},
	{42, "MSCM", "ManeuverSharingAndCoordinatingMessage", 2024, 0},
	{43, "RGA", "RoadGeometryAndAttributes", 2024, 0},
	{44, "PSM2", "PersonalSafetyMessage2", 2024, 0x27},
	{45, "TSPaT", "TrafficSignalPhaseAndTiming", 2024, 0},
	{46, "SCPR", "SignalControlAndPrioritizationRequest", 2024, 0},
	{47, "SCPS", "SignalControlAndPrioritizationStatus", 2024, 0},
	{48, "RUCCM", "RoadUserChargingConfigMessage", 2024, 0},
	{49, "RUCRM", "RoadUserChargingReportMessage", 2024, 0},
	{50, "TLSM", "TrafficLightStatusMessage", 2024, 0},
	{240, "TEST00", "TestMessage00", 2016, 0},
	{241, "TEST01", "TestMessage01", 2016, 0},
	{242, "TEST02", "TestMessage02", 2016, 0},
	{243, "TEST03", "TestMessage03", 2016, 0},
	{244, "TEST04", "TestMessage04", 2016, 0},
	{245, "TEST05", "TestMessage05", 2016, 0},
	{246, "TEST06", "TestMessage06", 2016, 0},
	{247, "TEST07", "TestMessage07", 2016, 0},
	{248, "TEST08", "TestMessage08", 2016, 0},
	{249, "TEST09", "TestMessage09", 2016, 0},
	{250, "TEST10", "TestMessage10", 2016, 0},
	{251, "TEST11", "TestMessage11", 2016, 0},
	{252, "TEST12", "TestMessage12", 2016, 0},
	{253, "TEST13", "TestMessage13", 2016, 0},
	{254, "TEST14", "TestMessage14", 2016, 0},
	{255, "TEST15", "TestMessage15", 2016, 0},
	{0, NULL, NULL, 0, 0},
};

/* The row of psid, NULL when unknown: a branch-free binary search, as every frame asks
 * (v2x_psids is in ascending order, which tests/unit/test_registry.c checks). */
static const struct v2x_psid *psid_row(uint32_t psid)
{
	const struct v2x_psid *base = v2x_psids;
	size_t n = sizeof(v2x_psids) / sizeof(v2x_psids[0]) - 1; /* less the end row */
	while (n > 1) {
		size_t half = n / 2;
		base = base[half].psid <= psid ? base + half : base;
		n -= half;
	}
	return base->psid == psid ? base : NULL;
}

const char *v2x_psid_name(uint32_t psid)
{
	const struct v2x_psid *p = psid_row(psid);
	return p ? p->name : NULL;
}

/* The last PSID asked and its answer, as psid << 2 | 2 (set) | j2735: captures come in
 * runs of a few PSIDs, and every frame asks. Relaxed atomics: threads may share it. */
static _Atomic uint64_t last_j2735;

bool v2x_psid_carries_j2735(uint32_t psid)
{
	uint64_t last = atomic_load_explicit(&last_j2735, memory_order_relaxed);
	if ((last & 2) && (uint32_t)(last >> 2) == psid)
		return last & 1;
	const struct v2x_psid *p = psid_row(psid);
	bool j2735 = p && p->j2735;
	atomic_store_explicit(&last_j2735, (uint64_t)psid << 2 | 2 | j2735, memory_order_relaxed);
	return j2735;
}

const char *v2x_wave_element_name(uint8_t id)
{
	for (const struct v2x_name *e = v2x_wave_elements; e->name; e++)
		if (e->value == id)
			return e->name;
	return NULL;
}

const struct v2x_msgid *v2x_msgid_lookup(uint32_t id)
{
	for (const struct v2x_msgid *m = v2x_msgids; m->abbrev; m++)
		if (m->id == id)
			return m;
	return NULL;
}
