/* Bounds-checked readers for libv2x's parsers: a read past the end returns 0, sets err
 * and never touches memory beyond end; parsers check err once at the end (tcpdump's GET_*
 * idea, as plain functions). The v2x_get_* helpers below read at a pointer without a
 * check: for parsers that have checked the length themselves first (radiotap's aligned
 * fields, the MessageFrame header in j2735.c), which keep that check next to the read. */
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

/* The readers are inline: they run for every octet of every frame. */
static inline size_t v2x_cur_left(const struct v2x_cursor *c)
{
	return (size_t)(c->end - c->p);
}

static inline size_t v2x_cur_offset(const struct v2x_cursor *c)
{
	return (size_t)(c->p - c->start);
}

/* Returns a pointer to n octets and advances, or NULL (and err) when short. */
static inline const uint8_t *v2x_bytes(struct v2x_cursor *c, size_t n)
{
	if (c->err || n > v2x_cur_left(c)) {
		c->err = true;
		c->p = c->end;
		return NULL;
	}
	const uint8_t *q = c->p;
	c->p += n;
	return q;
}

static inline void v2x_skip(struct v2x_cursor *c, size_t n)
{
	(void)v2x_bytes(c, n);
}

static inline void v2x_cur_init(struct v2x_cursor *c, const uint8_t *buf, size_t len)
{
	c->start = buf;
	c->p = buf;
	c->end = buf ? buf + len : buf;
	c->err = false;
}

/* Advance to the next multiple of align (a power of two) counted from start. */
static inline void v2x_align(struct v2x_cursor *c, size_t align)
{
	v2x_skip(c, (0 - v2x_cur_offset(c)) & (align - 1));
}

/* Unsigned big-endian integer of n (0..8) octets. */
static inline uint64_t v2x_beN(struct v2x_cursor *c, size_t n)
{
	const uint8_t *q = n <= 8 ? v2x_bytes(c, n) : NULL;
	uint64_t v = 0;
	if (!q) {
		c->err = true;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		v = v << 8 | q[i];
	return v;
}

static inline uint64_t v2x_leN(struct v2x_cursor *c, size_t n)
{
	const uint8_t *q = n <= 8 ? v2x_bytes(c, n) : NULL;
	uint64_t v = 0;
	if (!q) {
		c->err = true;
		return 0;
	}
	for (size_t i = n; i-- > 0;)
		v = v << 8 | q[i];
	return v;
}

/* Loads from octets a checked reader has already handed out (v2x_bytes): where a parser
 * takes a whole header in one bounds check, its fields cost a load each. */
static inline uint16_t v2x_get_le16(const uint8_t *q)
{
	return (uint16_t)(q[0] | q[1] << 8);
}

static inline uint16_t v2x_get_be16(const uint8_t *q)
{
	return (uint16_t)(q[0] << 8 | q[1]);
}

/* one expression, which compilers turn into a load and a byte swap */
static inline uint32_t v2x_get_be32(const uint8_t *q)
{
	return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
}

static inline uint64_t v2x_get_be64(const uint8_t *q)
{
	return (uint64_t)v2x_get_be32(q) << 32 | v2x_get_be32(q + 4);
}

static inline uint32_t v2x_get_le32(const uint8_t *q)
{
	return (uint32_t)v2x_get_le16(q) | (uint32_t)v2x_get_le16(q + 2) << 16;
}

static inline uint64_t v2x_get_le64(const uint8_t *q)
{
	uint64_t v = 0;
	for (size_t i = 8; i-- > 0;)
		v = v << 8 | q[i];
	return v;
}

static inline uint8_t v2x_u8(struct v2x_cursor *c) { return (uint8_t)v2x_beN(c, 1); }
static inline uint16_t v2x_be16(struct v2x_cursor *c) { return (uint16_t)v2x_beN(c, 2); }
static inline uint64_t v2x_be64(struct v2x_cursor *c) { return v2x_beN(c, 8); }
static inline uint16_t v2x_le16(struct v2x_cursor *c) { return (uint16_t)v2x_leN(c, 2); }
static inline uint32_t v2x_le32(struct v2x_cursor *c) { return (uint32_t)v2x_leN(c, 4); }

/* The octet-aligned length determinant of X.691 (11.9) that IEEE 1609.3 calls "Length
 * and Count" (8.1.3) and J2735's open types use: 0xxxxxxx, or 10xxxxxx xxxxxxxx. The
 * fragmented form (11xxxxxx) is never in a V2X frame: an error. *nbytes: 1 or 2. */
static inline uint32_t v2x_length_read(struct v2x_cursor *c, unsigned *nbytes)
{
	uint8_t first = v2x_u8(c);
	*nbytes = 1;
	if (!(first & 0x80))
		return first;
	*nbytes = 2;
	if ((first & 0xC0) != 0x80) {
		c->err = true;
		return 0;
	}
	return (uint32_t)(first & 0x3F) << 8 | v2x_u8(c);
}

/* Bit cursor for UPER/COER bit fields, MSB first. */
struct v2x_bits {
	const uint8_t *buf;
	size_t nbits;
	size_t pos;
	bool err;
};

void v2x_bits_init(struct v2x_bits *b, const uint8_t *buf, size_t len);

static inline size_t v2x_bits_left(const struct v2x_bits *b)
{
	return b->nbits - b->pos;
}

/* n in 0..32; reads the (at most 5) octets the bits span at once. */
static inline uint32_t v2x_bits_get(struct v2x_bits *b, unsigned n)
{
	if (b->err || n > 32 || n > v2x_bits_left(b)) {
		b->err = true;
		b->pos = b->nbits;
		return 0;
	}
	if (n == 0)
		return 0;
	/* Most reads are short and well inside the data: one 32-bit big-endian load
	 * (BSM part II for stats' priority list: 261 -> 199 instructions per BSM). */
	size_t first = b->pos / 8;
	unsigned skip = (unsigned)(b->pos % 8);
	if (n + skip <= 32 && first + 4 <= (b->nbits + 7) / 8) {
		uint32_t v = v2x_get_be32(b->buf + first);
		b->pos += n;
		return (uint32_t)((v >> (32 - skip - n)) & ((UINT64_C(1) << n) - 1));
	}
	size_t last = (b->pos + n - 1) / 8;
	uint64_t v = 0;
	for (size_t i = first; i <= last; i++)
		v = v << 8 | b->buf[i];
	unsigned shift = (unsigned)((last - first + 1) * 8 - b->pos % 8 - n);
	b->pos += n;
	return (uint32_t)((v >> shift) & ((UINT64_C(1) << n) - 1));
}

static inline bool v2x_bits_bit(struct v2x_bits *b)
{
	return v2x_bits_get(b, 1) != 0;
}

#endif
