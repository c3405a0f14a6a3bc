/* SAE J2735 MessageFrame header in UPER: extension bit, 15-bit messageId (DSRCmsgID),
 * then the open type holding the message: a length determinant and that many octets.
 * No schema is needed for this; the message itself is decoded elsewhere. Also the one
 * rule for which payloads are MessageFrames. */
#include "j2735.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "registry.h"

/* The header's bit fields end on octet boundaries (extension bit and 15-bit messageId:
 * two octets, then the length determinant), so it is read as octets. */
int v2x_msgframe_parse(const uint8_t *buf, size_t len, struct v2x_msgframe *mf,
		       const char **why)
{
	memset(mf, 0, sizeof(*mf));
	struct v2x_cursor c;
	v2x_cur_init(&c, buf, buf ? len : 0);
	uint16_t head = v2x_be16(&c);
	if (c.err) {
		*why = "J2735 MessageFrame header truncated";
		return -1;
	}
	mf->ext = head & 0x8000;
	mf->msg_id = head & 0x7FFF;
	mf->has_msg_id = true;
	unsigned nb;
	mf->value_len = v2x_length_read(&c, &nb);
	if (c.err) {
		*why = "J2735 MessageFrame header truncated or its length fragmented";
		return -1;
	}
	mf->value = c.p;
	if (mf->value_len > v2x_cur_left(&c)) {
		mf->truncated = true;
		*why = "J2735 MessageFrame value longer than the data holding it";
		return -1;
	}
	mf->frame_len = v2x_cur_offset(&c) + mf->value_len;
	mf->trailing = len - mf->frame_len;
	return 0;
}

bool v2x_msgframe_strict(const uint8_t *buf, size_t len)
{
	struct v2x_msgframe mf;
	const char *why;
	return v2x_msgframe_parse(buf, len, &mf, &why) == 0 && mf.frame_len == len &&
	       v2x_msgid_lookup(mf.msg_id);
}

enum v2x_j2735_basis v2x_j2735_basis(bool has_psid, uint32_t psid, const uint8_t *buf,
				     size_t len)
{
	if (has_psid && v2x_psid_carries_j2735(psid))
		return V2X_J2735_BY_PSID;
	if (has_psid && v2x_j2735_user_psid(psid))
		return V2X_J2735_BY_USER;
	if (v2x_msgframe_strict(buf, len))
		return V2X_J2735_BY_CONTENT;
	return V2X_J2735_NOT;
}

/* The user's PSIDs (v2xcap --j2735-psid): a few ranges, set once before any parse. */
#define MAX_USER_RANGES 32
struct psid_range {
	uint32_t first, last;
};
static struct psid_range user_ranges[MAX_USER_RANGES];
static unsigned n_user_ranges;

static bool read_psid_value(const char *s, char **end, uint32_t *v)
{
	errno = 0;
	unsigned long x = strtoul(s, end, 0);
	if (*end == s || errno || x > UINT32_MAX || *s == '-')
		return false;
	*v = (uint32_t)x;
	return true;
}

int v2x_j2735_psids_set(const char *list)
{
	struct psid_range got[MAX_USER_RANGES];
	unsigned n = 0;
	const char *p = list;
	while (*p) {
		char *end;
		uint32_t first, last;
		if (n == MAX_USER_RANGES || !read_psid_value(p, &end, &first))
			return -1;
		last = first;
		if (*end == '-' && !read_psid_value(end + 1, &end, &last))
			return -1;
		if (last < first || (*end && *end != ','))
			return -1;
		got[n].first = first;
		got[n].last = last;
		n++;
		p = *end ? end + 1 : end;
	}
	memcpy(user_ranges, got, n * sizeof(got[0]));
	n_user_ranges = n;
	return 0;
}

bool v2x_j2735_user_psid(uint32_t psid)
{
	for (unsigned i = 0; i < n_user_ranges; i++)
		if (psid >= user_ranges[i].first && psid <= user_ranges[i].last)
			return true;
	return false;
}
