/* PSID p-encoding (IEEE 1609.12 / 1609.3 VarLengthNumber): 1-4 octets <-> value. */
#ifndef V2X_PSID_H
#define V2X_PSID_H

#include <stddef.h>
#include <stdint.h>
#include "cursor.h"

#define V2X_PSID_MAX 270549119u /* largest value a 4-octet p-encoding carries */

/* Reads a p-encoded PSID. Sets *nbytes to its length (1-4). A first octet of
 * 1111xxxx (more than 4 octets) sets c->err and returns 0 with *nbytes = 0. */
uint32_t v2x_psid_read(struct v2x_cursor *c, unsigned *nbytes);
/* Writes the p-encoding of psid into out[4]; returns its length, 0 if too large. */
unsigned v2x_psid_encode(uint32_t psid, uint8_t out[4]);

#endif
