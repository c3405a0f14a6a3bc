/* UPER (X.691 unaligned PER) reads on a tvb at bit offsets, for the parts of the IEEE
 * 1609.3 WSA that are not fixed-width fields (the WSMP header is libv2x's to parse). Reads never throw: a field that
 * is not wholly in the captured data, or an encoding we do not accept, returns false. */
#ifndef V2X_PLUGIN_UPER_H
#define V2X_PLUGIN_UPER_H

#include <stdbool.h>
#include <stdint.h>
#include <epan/packet.h>

/* A decoded field: its value and how many bits it took. */
struct uper_field {
	uint32_t value;
	unsigned nbits;
};

/* True when nbits bits starting at bitoff are in the captured data. */
bool uper_have(tvbuff_t *tvb, unsigned bitoff, unsigned nbits);
/* Unconstrained length determinant (X.691 11.9): 8 or 16 bits, read by libv2x's
 * v2x_length_read; the fragmented form (11xxxxxx) is refused, no WAVE message is that long. */
bool uper_length(tvbuff_t *tvb, unsigned bitoff, struct uper_field *f);
/* VarLengthNumber (PSID p-encoding, IEEE 1609.3 / 1609.12): 8 to 32 bits, decoded by
 * libv2x's v2x_psid_read; more than 4 octets is refused. */
bool uper_varlen(tvbuff_t *tvb, unsigned bitoff, struct uper_field *f);
/* Adds an unsigned field whose bits start at bitoff, highlighting the octets it spans. */
proto_item *uper_add_uint(proto_tree *tree, int hf, tvbuff_t *tvb, unsigned bitoff,
			  const struct uper_field *f);

#endif
