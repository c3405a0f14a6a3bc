/* Bounds-checked readers: every byte libv2x parses is read through these.
 * A read past the end returns 0, sets err and never touches memory beyond end;
 * parsers check err once at the end (tcpdump's GET_* idea, as plain functions). */
#ifndef V2X_CURSOR_H
#define V2X_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct v2x_cursor {
	const uint8_t *start; /* for offsets and alignment */
	const uint8_t *p;
	const uint8_t *end;
	bool err;
};

void v2x_cur_init(struct v2x_cursor *c, const uint8_t *buf, size_t len);
size_t v2x_cur_left(const struct v2x_cursor *c);
size_t v2x_cur_offset(const struct v2x_cursor *c);

uint8_t v2x_u8(struct v2x_cursor *c);
uint16_t v2x_be16(struct v2x_cursor *c);
uint16_t v2x_le16(struct v2x_cursor *c);
uint32_t v2x_be24(struct v2x_cursor *c);
uint32_t v2x_be32(struct v2x_cursor *c);
uint32_t v2x_le32(struct v2x_cursor *c);
uint64_t v2x_be64(struct v2x_cursor *c);
uint64_t v2x_le64(struct v2x_cursor *c);
/* Unsigned big-endian integer of n (0..8) octets. */
uint64_t v2x_beN(struct v2x_cursor *c, size_t n);
/* Returns a pointer to n octets and advances, or NULL (and err) when short. */
const uint8_t *v2x_bytes(struct v2x_cursor *c, size_t n);
void v2x_skip(struct v2x_cursor *c, size_t n);
/* Advance to the next multiple of align (a power of two) counted from start. */
void v2x_align(struct v2x_cursor *c, size_t align);
/* Split off the next n octets as their own cursor (err on both if short). */
struct v2x_cursor v2x_sub(struct v2x_cursor *c, size_t n);

/* Bit cursor for UPER/COER bit fields, MSB first. */
struct v2x_bits {
	const uint8_t *buf;
	size_t nbits;
	size_t pos;
	bool err;
};

void v2x_bits_init(struct v2x_bits *b, const uint8_t *buf, size_t len);
size_t v2x_bits_left(const struct v2x_bits *b);
/* n in 0..32 */
uint32_t v2x_bits_get(struct v2x_bits *b, unsigned n);
bool v2x_bits_bit(struct v2x_bits *b);
void v2x_bits_skip(struct v2x_bits *b, size_t n);
/* UPER unconstrained/semi-constrained length determinant (X.691 11.9);
 * fragmented forms (11xxxxxx) set err: no V2X message needs them. */
uint32_t v2x_bits_length(struct v2x_bits *b);

#endif
