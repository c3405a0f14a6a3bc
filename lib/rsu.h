/* USDOT RSU specification 4.1 text records (immediate forward, UDP 1516; store and repeat
 * files): "Key=Value" lines from "Version=" to "Payload=<hex>", the payload a 1609.2
 * message or a J2735 MessageFrame the RSU is to transmit with the record's PSID. */
#ifndef V2X_RSU_H
#define V2X_RSU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An RSU sends the payload in one WSM, whose data 1609.3 caps at WsmMaxLength (1400
 * octets by default): twice that is room for any payload a record can mean. */
#define V2X_RSU_PAYLOAD_MAX 2048
#define V2X_RSU_UDP_PORT 1516

/* The keys of a record, in the order V2X-Hub's immediate-forward plugin writes them */
enum v2x_rsu_key {
	V2X_RSU_VERSION, V2X_RSU_TYPE, V2X_RSU_PSID, V2X_RSU_PRIORITY, V2X_RSU_TXMODE,
	V2X_RSU_TXCHANNEL, V2X_RSU_TXINTERVAL, V2X_RSU_DELIVERY_START, V2X_RSU_DELIVERY_STOP,
	V2X_RSU_SIGNATURE, V2X_RSU_ENCRYPTION, V2X_RSU_PAYLOAD, V2X_RSU_KEY_COUNT
};

/* Where a key's line and its value are in the record text */
struct v2x_rsu_span {
	bool present;
	uint32_t line_off;      /* the key's first octet */
	uint32_t off, len;      /* the value, without the line end */
};

struct v2x_rsu_rec {
	const uint8_t *text;    /* the record as parsed (the spans' base) */
	uint32_t len;           /* octets of the record, through the Payload line's end */
	struct v2x_rsu_span field[V2X_RSU_KEY_COUNT];
	uint32_t psid;          /* the value; the record writes its p-encoding in hex */
	bool has_channel, has_priority, has_interval;
	uint8_t channel;        /* TxChannel: the 5 GHz channel number */
	uint8_t priority;
	uint32_t interval;      /* TxInterval */
	uint16_t payload_len;
	uint8_t payload[V2X_RSU_PAYLOAD_MAX];
};

/* The text starts a record ("Version="): what the content check of a datagram and the
 * file reader look for first. */
bool v2x_rsu_starts(const uint8_t *buf, size_t len);
/* Reads the record at buf (Version first; PSID, hex, and Payload, whole octets of hex,
 * required; TxChannel, Priority, TxInterval numbers when present; unknown keys skipped).
 * The PSID line holds the PSID's p-encoding (0x8002: PSID 0x82). 0 on success, -1 with a
 * static message in *why. */
int v2x_rsu_parse(const uint8_t *buf, size_t len, struct v2x_rsu_rec *r, const char **why);
/* "Version", "Type", ..., "Payload" */
const char *v2x_rsu_key_name(enum v2x_rsu_key k);

#endif
