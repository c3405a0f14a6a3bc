/* PSID p-encoding (IEEE 1609.3 VarLengthNumber): the count of leading 1 bits in the
 * first octet is the number of octets that follow (reading it is inline, in psid.h). */
#include "psid.h"

static const uint8_t form_prefix[4] = {0x00, 0x80, 0xC0, 0xE0};

unsigned v2x_psid_encode(uint32_t psid, uint8_t out[4])
{
	if (psid > V2X_PSID_MAX)
		return 0;
	unsigned n = 4;
	while (n > 1 && psid < v2x_psid_form_base[n - 1])
		n--;
	uint32_t v = psid - v2x_psid_form_base[n - 1];
	for (unsigned i = 0; i < n; i++)
		out[i] = (uint8_t)(v >> 8 * (n - 1 - i));
	out[0] |= form_prefix[n - 1];
	return n;
}
