/* The one table of V2X names shared by libv2x, v2xcap and the Wireshark plugins:
 * PSIDs (IEEE 1609.12), WAVE extension elements (IEEE 1609.3), J2735 message ids. */
#ifndef V2X_REGISTRY_H
#define V2X_REGISTRY_H

#include <stdbool.h>
#include <stdint.h>

#include <v2x/frame.h>

/* Layout-compatible with Wireshark's value_string, but plugins copy it anyway. */
struct v2x_name {
	uint32_t value;
	const char *name;
};

struct v2x_msgid {
	uint16_t id;
	const char *abbrev;     /* "BSM": column text, stats keys, filter suffix (lower case) */
	const char *name;       /* "BasicSafetyMessage": ASN.1 type name */
	uint16_t first_edition; /* 2016, 2020 or 2024: first schema that defines it */
	/* the PSID (IEEE 1609.12) its messages are sent under by default, 0: none (the
	 * sender names one) */
	uint32_t psid;
};

struct v2x_psid {
	uint32_t psid;
	const char *name;
	/* J2735 messages are expected behind this PSID (plugins register on it) */
	unsigned j2735 : 1;
};

/* The message ids the tools treat apart (summaries, per-sender statistics); every id and
 * its names are rows of v2x_msgids[]. */
enum {
	V2X_MSG_MAP = 18,
	V2X_MSG_SPAT = 19,
	V2X_MSG_BSM = 20,
	V2X_MSG_EVA = 22,
	V2X_MSG_RSA = 27,
	V2X_MSG_SRM = 29,
	V2X_MSG_TIM = 31,
};

/* Tables end with a zeroed row ({0, NULL}). */
extern const struct v2x_psid v2x_psids[];
extern const struct v2x_name v2x_wave_elements[];
extern const struct v2x_msgid v2x_msgids[];

/* v2x_psid_name (NULL when unknown) and v2x_message_name are public: <v2x/frame.h> */
/* The registry's j2735 flag of psid (false when unknown). */
bool v2x_psid_carries_j2735(uint32_t psid);
const char *v2x_wave_element_name(uint8_t id);
const struct v2x_msgid *v2x_msgid_lookup(uint32_t id);

/* IEEE 1609.3 WAVE element ids (the names of v2x_wave_elements[]). */
enum {
	V2X_WEID_SERVICE_INFO = 1,
	V2X_WEID_CHANNEL_INFO = 2,
	V2X_WEID_ROUTING_ADVERT = 3,
	V2X_WEID_TX_POWER = 4,
	V2X_WEID_2D_LOCATION = 5,
	V2X_WEID_3D_LOCATION = 6,
	V2X_WEID_ADVERTISER_ID = 7,
	V2X_WEID_PROVIDER_CONTEXT = 8,
	V2X_WEID_IPV6_ADDRESS = 9,
	V2X_WEID_SERVICE_PORT = 10,
	V2X_WEID_PROVIDER_MAC = 11,
	V2X_WEID_EDCA_PARAMETERS = 12,
	V2X_WEID_SECONDARY_DNS = 13,
	V2X_WEID_GATEWAY_MAC = 14,
	V2X_WEID_CHANNEL = 15,
	V2X_WEID_DATA_RATE = 16,
	V2X_WEID_REPEAT_RATE = 17,
	V2X_WEID_COUNTRY_STRING = 18,
	V2X_WEID_RCPI_THRESHOLD = 19,
	V2X_WEID_COUNT_THRESHOLD = 20,
	V2X_WEID_CHANNEL_ACCESS = 21,
	V2X_WEID_COUNT_THRESHOLD_INTERVAL = 22,
	V2X_WEID_CHANNEL_LOAD = 23,
	V2X_WEID_PROTOCOL_TYPE = 24,
	V2X_WEID_TIME_CONFIDENCE = 25, /* compact time confidence (WSMP v3 N-header) */
	V2X_WEID_ASSERTED_BY_SIGNER = 26,
	V2X_WEID_EXT_CHANNEL_INFOS = 84,
	V2X_WEID_APPLICATION_DATA = 85,
	V2X_WEID_WSMP = 128,     /* WSMP v2: WSM data follows */
	V2X_WEID_WSMP_S = 129,   /* WSMP v2: secured WSM data follows */
	V2X_WEID_WSMP_I = 130,
};

/* Well-known PSIDs */
enum {
	V2X_PSID_BSM = 0x20,
	V2X_PSID_WSA = 0x87,
};

#endif
