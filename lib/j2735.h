/* SAE J2735 MessageFrame header (UPER), readable without the SAE schema:
 * extension bit, messageId, the open type's length and octets. */
#ifndef V2X_J2735_H
#define V2X_J2735_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct v2x_msgframe {
	bool ext;               /* extension bit of MessageFrame */
	uint16_t msg_id;
	uint32_t value_len;     /* open-type length determinant */
	const uint8_t *value;   /* the inner message's UPER octets */
	size_t frame_len;       /* octets of the whole MessageFrame */
};

/* 0 on success, -1 with *why when the header is malformed or the value is truncated. */
int v2x_msgframe_parse(const uint8_t *buf, size_t len, struct v2x_msgframe *mf,
		       const char **why);

#endif
