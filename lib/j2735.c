/* SAE J2735 MessageFrame header in UPER: extension bit, 15-bit messageId (DSRCmsgID),
 * then the open type holding the message: a length determinant and that many octets.
 * No schema is needed for this; the message itself is decoded elsewhere. */
#include "j2735.h"

#include <string.h>

/* The header's bit fields end on octet boundaries (extension bit and 15-bit messageId:
 * two octets; the length determinant, X.691 11.9: one or two more), so it is read as
 * octets. A field cut short reads as 0, and is an error. */

/* The length determinant at octet 2, and where the value starts; *err when it is cut
 * short or fragmented (11xxxxxx: never in a V2X frame). */
static uint32_t read_length(const uint8_t *buf, size_t len, size_t *value_off, bool *err)
{
	*value_off = 3;
	if (len >= 3 && !(buf[2] & 0x80))
		return buf[2];
	*value_off = 4;
	if (len >= 4 && (buf[2] & 0xC0) == 0x80)
		return (uint32_t)(buf[2] & 0x3F) << 8 | buf[3];
	*err = true;
	return 0;
}

int v2x_msgframe_parse(const uint8_t *buf, size_t len, struct v2x_msgframe *mf,
		       const char **why)
{
	memset(mf, 0, sizeof(*mf));
	if (!buf)
		len = 0; /* no octets at all */
	mf->ext = len >= 1 && (buf[0] & 0x80);
	mf->msg_id = len >= 2 ? (uint16_t)((buf[0] & 0x7F) << 8 | buf[1]) : 0;
	bool err = false;
	size_t value_off;
	mf->value_len = read_length(buf, len, &value_off, &err);
	if (err) {
		*why = "J2735 MessageFrame header truncated or its length fragmented";
		return -1;
	}
	if (mf->value_len > len - value_off) {
		*why = "J2735 MessageFrame value longer than the data holding it";
		return -1;
	}
	mf->value = buf + value_off;
	mf->frame_len = value_off + mf->value_len;
	return 0;
}
