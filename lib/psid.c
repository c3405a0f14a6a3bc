/* PSID p-encoding (IEEE 1609.3 VarLengthNumber): the count of leading 1 bits in the
 * first octet is the number of octets that follow; each longer form starts where the
 * shorter one ends (128, 16512, 2113664), so every value has exactly one encoding. */
#include "psid.h"

/* Smallest value of the 1-, 2-, 3- and 4-octet forms, and their value bits. */
static const uint32_t form_base[4] = {0, 128, 16512, 2113664};
static const unsigned form_bits[4] = {7, 14, 21, 28};
static const uint8_t form_prefix[4] = {0x00, 0x80, 0xC0, 0xE0};

static unsigned form_of_first_octet(uint8_t o)
{
	unsigned ones = 0;
	while (ones < 5 && (o & (0x80u >> ones)))
		ones++;
	return ones + 1; /* above 4: a longer form than any PSID this standard knows */
}

uint32_t v2x_psid_read(struct v2x_cursor *c, unsigned *nbytes)
{
	*nbytes = 0;
	uint8_t first = v2x_u8(c);
	if (c->err)
		return 0;
	unsigned n = form_of_first_octet(first);
	if (n > 4) {
		c->err = true;
		return 0;
	}
	uint32_t raw = (uint32_t)first << 8 * (n - 1) | (uint32_t)v2x_beN(c, n - 1);
	if (c->err)
		return 0;
	*nbytes = n;
	return (raw & ((1u << form_bits[n - 1]) - 1)) + form_base[n - 1];
}

unsigned v2x_psid_encode(uint32_t psid, uint8_t out[4])
{
	if (psid > V2X_PSID_MAX)
		return 0;
	unsigned n = 4;
	while (n > 1 && psid < form_base[n - 1])
		n--;
	uint32_t v = psid - form_base[n - 1];
	for (unsigned i = 0; i < n; i++)
		out[i] = (uint8_t)(v >> 8 * (n - 1 - i));
	out[0] |= form_prefix[n - 1];
	return n;
}
