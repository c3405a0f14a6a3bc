/* The one table of V2X names shared by libv2x, v2xcap and the Wireshark plugins:
 * PSIDs (IEEE 1609.12), WAVE extension elements (IEEE 1609.3), J2735 message ids. */
#ifndef V2X_REGISTRY_H
#define V2X_REGISTRY_H

#include <stdint.h>

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
};

struct v2x_psid {
	uint32_t psid;
	const char *name;
	/* J2735 messages are expected behind this PSID (plugins register on it) */
	unsigned j2735 : 1;
};

/* Tables end with a zeroed row ({0, NULL}). */
extern const struct v2x_psid v2x_psids[];
extern const struct v2x_name v2x_wave_elements[];
extern const struct v2x_msgid v2x_msgids[];

/* NULL when unknown. */
const char *v2x_psid_name(uint32_t psid);
const char *v2x_wave_element_name(uint8_t id);
const struct v2x_msgid *v2x_msgid_lookup(uint32_t id);

/* WAVE element ids decoded by libv2x and the WSMP plugin */
enum {
	V2X_WEID_TX_POWER = 4,
	V2X_WEID_CHANNEL = 15,
	V2X_WEID_DATA_RATE = 16,
	V2X_WEID_CHANNEL_LOAD = 23,
	V2X_WEID_TIME_CONFIDENCE = 25, /* compact time confidence (WSMP v3 N-header) */
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
