/* PSID p-encoding (IEEE 1609.12 / 1609.3 VarLengthNumber): 1-4 octets <-> value. */
#ifndef V2X_PSID_H
#define V2X_PSID_H

#include <stddef.h>
#include <stdint.h>
#include "cursor.h"

#define V2X_PSID_MAX 270549119u /* largest value a 4-octet p-encoding carries */

/* Smallest value of the 1-, 2-, 3- and 4-octet forms: each longer form starts where the
 * shorter one ends, so every value has exactly one encoding. */
static const uint32_t v2x_psid_form_base[4] = {0, 128, 16512, 2113664};

/* Reads a p-encoded PSID. Sets *nbytes to its length (1-4). A first octet of
 * 1111xxxx (more than 4 octets) sets c->err and returns 0 with *nbytes = 0.
 * Inline as it runs for every frame (and a call would keep the caller's cursor in
 * memory rather than in registers). */
static inline uint32_t v2x_psid_read(struct v2x_cursor *c, unsigned *nbytes)
{
	*nbytes = 0;
	const uint8_t *first = v2x_bytes(c, 1);
	if (!first)
		return 0;
	/* The leading 1 bits of the first octet count the octets that follow it (the
	 * complement always has a 1 bit: no clz(0)). */
	unsigned n = (unsigned)__builtin_clz(~((uint32_t)first[0] << 24)) + 1;
	if (n > 4) {
		c->err = true;
		return 0;
	}
	const uint8_t *rest = v2x_bytes(c, n - 1);
	if (!rest)
		return 0;
	uint32_t raw = first[0];
	for (unsigned i = 0; i + 1 < n; i++)
		raw = raw << 8 | rest[i];
	*nbytes = n;
	return (raw & ((1u << 7 * n) - 1)) + v2x_psid_form_base[n - 1];
}

/* Writes the p-encoding of psid into out[4]; returns its length, 0 if too large. */
unsigned v2x_psid_encode(uint32_t psid, uint8_t out[4]);

#endif
