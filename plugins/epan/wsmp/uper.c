/* UPER reads on a tvb at bit offsets (see uper.h). */
#include "uper.h"

#include "cursor.h"
#include "psid.h"

bool uper_have(tvbuff_t *tvb, unsigned bitoff, unsigned nbits)
{
	uint64_t captured_bits = (uint64_t)tvb_captured_length(tvb) * 8;
	return (uint64_t)bitoff + nbits <= captured_bits;
}

bool uper_length(tvbuff_t *tvb, unsigned bitoff, struct uper_field *f)
{
	if (!uper_have(tvb, bitoff, 8))
		return false;
	uint8_t first = tvb_get_bits8(tvb, bitoff, 8);
	if (!(first & 0x80)) {
		*f = (struct uper_field){first, 8};
		return true;
	}
	if ((first & 0xC0) == 0xC0 || !uper_have(tvb, bitoff, 16))
		return false;
	*f = (struct uper_field){tvb_get_bits16(tvb, bitoff, 16, ENC_BIG_ENDIAN) & 0x3FFF, 16};
	return true;
}

bool uper_varlen(tvbuff_t *tvb, unsigned bitoff, struct uper_field *f)
{
	/* Gather up to four octets from the (possibly unaligned) bit position, then let
	 * libv2x decide how many of them the p-encoding uses. */
	uint8_t octets[4];
	size_t n = 0;
	while (n < sizeof octets && uper_have(tvb, bitoff + 8 * (unsigned)n, 8)) {
		octets[n] = tvb_get_bits8(tvb, bitoff + 8 * (unsigned)n, 8);
		n++;
	}
	struct v2x_cursor c;
	v2x_cur_init(&c, octets, n);
	unsigned nbytes;
	uint32_t value = v2x_psid_read(&c, &nbytes);
	if (c.err)
		return false;
	*f = (struct uper_field){value, 8 * nbytes};
	return true;
}

proto_item *uper_add_uint(proto_tree *tree, int hf, tvbuff_t *tvb, unsigned bitoff,
			  const struct uper_field *f)
{
	int first = (int)(bitoff / 8);
	int last = (int)((bitoff + f->nbits + 7) / 8);
	return proto_tree_add_uint(tree, hf, tvb, first, last - first, f->value);
}
