/* Deployment log records of the Wyoming CV pilot OBUs as the USDOT JPO ODE imports them
 * (bsmTx/bsmLogDuringEvent, rxMsg, dnMsg, driverAlert, SPaT logs): a file is a run of one
 * kind of record, each a packed little-endian header (source or direction, the unit's
 * position, speed and heading in J2735 units, UTC seconds and milliseconds, the 1609.2
 * verification result, the payload length) followed by the payload (1609.2 or J2735,
 * driver alerts as text). Layout: jpo-ode's data/wydotLogRecords.h and its importer.
 *
 * A file carries no magic and no record kind: v2x_wydot_detect finds the one layout whose
 * records tile the whole file with plausible values (the file name, as the ODE names its
 * logs, decides between layouts that are alike). The later firmware ends each record
 * with a newline; its payloads may hold the WSMP header too. Each record becomes one frame of the
 * pseudo link type V2X_LINK_WYDOT (frame.h): the kind octet, then the record as in the
 * file. The pseudo link type never appears in a written file. */
#ifndef V2X_WYDOT_H
#define V2X_WYDOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum v2x_wydot_kind {
	V2X_WYDOT_BSM = 1,      /* bsmLogRecHeader: direction 0 EV (sent), 1 RV (received) */
	V2X_WYDOT_RXMSG,        /* receivedMsgRecord: rxFrom 0 RSU, 1 SAT, 2 RV, 3 SNMP */
	V2X_WYDOT_DNMSG,        /* dnmMsgRecord (distress notification) */
	V2X_WYDOT_DRIVER_ALERT, /* driverAlertRecord: the payload is the alert's text */
	V2X_WYDOT_SPAT,         /* SPaTMsgRecord: intersection instead of position */
};

struct v2x_wydot_rec {
	enum v2x_wydot_kind kind;
	bool has_source, has_location, has_intersection, has_verification;
	uint8_t source;         /* direction (BSM) or rxFrom (RXMSG, SPAT) */
	int32_t latitude, longitude; /* 1e-7 degree (J2735 Latitude/Longitude) */
	int32_t elevation;      /* 0.1 m */
	uint16_t speed;         /* 0.02 m/s */
	uint16_t heading;       /* 0.0125 degree */
	int16_t intersection_id;
	int8_t intersection_status;
	bool cert_present;      /* SPAT */
	uint32_t utc_s;
	uint16_t msec;
	int8_t verification;    /* signStatus/verificationStatus: securityResultCode */
	const uint8_t *payload;
	uint16_t payload_len;
};

/* How a file lays its records out: their kind, and whether a newline follows each (the
 * later OBU firmware writes one; the ODE skips it). */
struct v2x_wydot_format {
	enum v2x_wydot_kind kind;
	bool newline;
};

/* Length of the record (header and payload) at buf, 0 when buf does not start with a
 * whole, plausible record of that kind. */
size_t v2x_wydot_record_len(enum v2x_wydot_kind kind, const uint8_t *buf, size_t len);
/* The octets from buf to the next record (the record and its newline), 0 when no whole
 * record starts at buf; *rec_len: the record's own. */
size_t v2x_wydot_next(const struct v2x_wydot_format *fmt, const uint8_t *buf, size_t len,
		      size_t *rec_len);
/* The octets of the whole records from buf on (less than len when the last is cut short,
 * e.g. a log copied while written). */
size_t v2x_wydot_whole(const struct v2x_wydot_format *fmt, const uint8_t *buf, size_t len);
/* The format whose records tile buf[0..len) exactly, or but for a last record cut short
 * after at least one whole; false for none. name: the file name (may be NULL), its ODE
 * prefix taken first. */
bool v2x_wydot_detect(const uint8_t *buf, size_t len, const char *name,
		      struct v2x_wydot_format *fmt);
/* One pseudo-link frame (kind octet + record); 0, or -1 with *why. */
int v2x_wydot_parse(const uint8_t *buf, size_t len, struct v2x_wydot_rec *r, const char **why);
/* "bsmLogRec", "receivedMsgRec", ... (the ODE's record type names) */
const char *v2x_wydot_kind_name(enum v2x_wydot_kind kind);

#endif
