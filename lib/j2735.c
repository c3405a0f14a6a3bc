/* SAE J2735 MessageFrame header in UPER: extension bit, 15-bit messageId (DSRCmsgID),
 * then the open type holding the message: a length determinant and that many octets.
 * No schema is needed for this; the message itself is decoded elsewhere. */
#include "j2735.h"

#include <string.h>

#include "cursor.h"

#define MSGID_BITS 15

int v2x_msgframe_parse(const uint8_t *buf, size_t len, struct v2x_msgframe *mf,
		       const char **why)
{
	struct v2x_bits b;
	memset(mf, 0, sizeof(*mf));
	v2x_bits_init(&b, buf, len);
	mf->ext = v2x_bits_bit(&b);
	mf->msg_id = (uint16_t)v2x_bits_get(&b, MSGID_BITS);
	mf->value_len = v2x_bits_length(&b);
	if (b.err) {
		*why = "J2735 MessageFrame header truncated or its length fragmented";
		return -1;
	}
	/* 16 header bits plus an 8- or 16-bit length: the value starts on an octet */
	size_t value_off = b.pos / 8;
	if (mf->value_len > len - value_off) {
		*why = "J2735 MessageFrame value longer than the data holding it";
		return -1;
	}
	mf->value = buf + value_off;
	mf->frame_len = value_off + mf->value_len;
	return 0;
}
