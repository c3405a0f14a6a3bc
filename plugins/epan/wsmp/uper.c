/* UPER reads on a tvb at bit offsets (see uper.h). */
#include "uper.h"

#include "cursor.h"
#include "psid.h"

bool uper_have(tvbuff_t *tvb, unsigned bitoff, unsigned nbits)
{
	uint64_t captured_bits = (uint64_t)tvb_captured_length(tvb) * 8;
	return (uint64_t)bitoff + nbits <= captured_bits;
}

/* Up to n octets from the (maybe unaligned) bit position, for libv2x's octet readers. */
static size_t gather(tvbuff_t *tvb, unsigned bitoff, uint8_t *octets, size_t n)
{
	size_t got = 0;
	while (got < n && uper_have(tvb, bitoff + 8 * (unsigned)got, 8)) {
		octets[got] = tvb_get_bits8(tvb, bitoff + 8 * (unsigned)got, 8);
		got++;
	}
	return got;
}

/* A field libv2x reads from up to max octets at bitoff (which need not be aligned) */
static bool read_octets(tvbuff_t *tvb, unsigned bitoff, size_t max,
			uint32_t (*read)(struct v2x_cursor *, unsigned *), struct uper_field *f)
{
	uint8_t octets[4];
	struct v2x_cursor c;
	v2x_cur_init(&c, octets, gather(tvb, bitoff, octets, max));
	unsigned nbytes;
	uint32_t value = read(&c, &nbytes);
	if (c.err)
		return false;
	*f = (struct uper_field){value, 8 * nbytes};
	return true;
}

bool uper_length(tvbuff_t *tvb, unsigned bitoff, struct uper_field *f)
{
	return read_octets(tvb, bitoff, 2, v2x_length_read, f);
}

bool uper_varlen(tvbuff_t *tvb, unsigned bitoff, struct uper_field *f)
{
	return read_octets(tvb, bitoff, 4, v2x_psid_read, f);
}

proto_item *uper_add_uint(proto_tree *tree, int hf, tvbuff_t *tvb, unsigned bitoff,
			  const struct uper_field *f)
{
	int first = (int)(bitoff / 8);
	int last = (int)((bitoff + f->nbits + 7) / 8);
	return proto_tree_add_uint(tree, hf, tvb, first, last - first, f->value);
}
