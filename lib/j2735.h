/* SAE J2735 MessageFrame header (UPER), readable without the SAE schema:
 * extension bit, messageId, the open type's length and octets; and which payloads are
 * taken as a MessageFrame (one rule for v2xcap and the Wireshark plugins). */
#ifndef V2X_J2735_H
#define V2X_J2735_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct v2x_msgframe {
	bool ext;               /* extension bit of MessageFrame */
	bool has_msg_id;        /* msg_id read (set even when the rest is malformed) */
	bool truncated;         /* the open type is longer than the data holding it */
	uint16_t msg_id;
	uint32_t value_len;     /* open-type length determinant */
	const uint8_t *value;   /* the inner message's UPER octets */
	size_t frame_len;       /* octets of the whole MessageFrame */
	size_t trailing;        /* octets after it in the data holding it: a sender's or
				 * forwarder's leftovers, never part of the message */
};

/* 0 on success, -1 with *why when the header is malformed or the value is truncated;
 * a messageId read before the error stays in mf (has_msg_id). */
int v2x_msgframe_parse(const uint8_t *buf, size_t len, struct v2x_msgframe *mf,
		       const char **why);

/* The strict content check: a messageId the registry defines and an open type whose
 * end is exactly the end of the len octets. */
bool v2x_msgframe_strict(const uint8_t *buf, size_t len);

/* Why a WSM (or 1609.2) payload is taken as a J2735 MessageFrame. */
enum v2x_j2735_basis {
	V2X_J2735_NOT = 0,
	V2X_J2735_BY_PSID,      /* the registry says its PSID carries J2735 */
	V2X_J2735_BY_USER,      /* the user says so (v2xcap --j2735-psid, the plugin's
				 * extra_psids preference or Decode As) */
	V2X_J2735_BY_CONTENT,   /* v2x_msgframe_strict holds */
	V2X_J2735_BY_PORT,      /* a jpo-ode receiver port's start octets (frame.h) */
};

/* The rule, in this order: the registry for the PSID, the user's PSIDs
 * (v2x_j2735_psids_set), the strict content check. The plugin's own preference and Decode
 * As are its own, so it asks with has_psid false. */
enum v2x_j2735_basis v2x_j2735_basis(bool has_psid, uint32_t psid, const uint8_t *buf,
				     size_t len);

/* v2xcap's --j2735-psid: "0x7f,32,0x8010-0x8020" (C integer syntax, ranges with '-').
 * Process-wide, set before parsing; 0, or -1 for a malformed list (nothing changed). */
int v2x_j2735_psids_set(const char *list);
bool v2x_j2735_user_psid(uint32_t psid);

#endif
