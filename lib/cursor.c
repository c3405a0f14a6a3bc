/* Bounds-checked byte and bit readers (see cursor.h). */
#include "cursor.h"

void v2x_cur_init(struct v2x_cursor *c, const uint8_t *buf, size_t len)
{
	c->start = buf;
	c->p = buf;
	c->end = buf ? buf + len : buf;
	c->err = false;
}

size_t v2x_cur_left(const struct v2x_cursor *c)
{
	return (size_t)(c->end - c->p);
}

size_t v2x_cur_offset(const struct v2x_cursor *c)
{
	return (size_t)(c->p - c->start);
}

const uint8_t *v2x_bytes(struct v2x_cursor *c, size_t n)
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

void v2x_skip(struct v2x_cursor *c, size_t n)
{
	(void)v2x_bytes(c, n);
}

uint64_t v2x_beN(struct v2x_cursor *c, size_t n)
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

static uint64_t leN(struct v2x_cursor *c, size_t n)
{
	const uint8_t *q = v2x_bytes(c, n);
	uint64_t v = 0;
	if (!q)
		return 0;
	for (size_t i = n; i-- > 0;)
		v = v << 8 | q[i];
	return v;
}

uint8_t v2x_u8(struct v2x_cursor *c) { return (uint8_t)v2x_beN(c, 1); }
uint16_t v2x_be16(struct v2x_cursor *c) { return (uint16_t)v2x_beN(c, 2); }
uint32_t v2x_be24(struct v2x_cursor *c) { return (uint32_t)v2x_beN(c, 3); }
uint32_t v2x_be32(struct v2x_cursor *c) { return (uint32_t)v2x_beN(c, 4); }
uint64_t v2x_be64(struct v2x_cursor *c) { return v2x_beN(c, 8); }
uint16_t v2x_le16(struct v2x_cursor *c) { return (uint16_t)leN(c, 2); }
uint32_t v2x_le32(struct v2x_cursor *c) { return (uint32_t)leN(c, 4); }
uint64_t v2x_le64(struct v2x_cursor *c) { return leN(c, 8); }

void v2x_align(struct v2x_cursor *c, size_t align)
{
	size_t off = v2x_cur_offset(c);
	size_t pad = (align - off % align) % align;
	v2x_skip(c, pad);
}

struct v2x_cursor v2x_sub(struct v2x_cursor *c, size_t n)
{
	struct v2x_cursor s;
	const uint8_t *q = v2x_bytes(c, n);
	v2x_cur_init(&s, q, q ? n : 0);
	s.err = q == NULL;
	return s;
}

void v2x_bits_init(struct v2x_bits *b, const uint8_t *buf, size_t len)
{
	b->buf = buf;
	b->nbits = buf ? len * 8 : 0;
	b->pos = 0;
	b->err = false;
}

size_t v2x_bits_left(const struct v2x_bits *b)
{
	return b->nbits - b->pos;
}

uint32_t v2x_bits_get(struct v2x_bits *b, unsigned n)
{
	uint32_t v = 0;
	if (b->err || n > 32 || n > v2x_bits_left(b)) {
		b->err = true;
		b->pos = b->nbits;
		return 0;
	}
	for (unsigned i = 0; i < n; i++, b->pos++)
		v = v << 1 | ((b->buf[b->pos / 8] >> (7 - b->pos % 8)) & 1u);
	return v;
}

bool v2x_bits_bit(struct v2x_bits *b)
{
	return v2x_bits_get(b, 1) != 0;
}

void v2x_bits_skip(struct v2x_bits *b, size_t n)
{
	if (b->err || n > v2x_bits_left(b)) {
		b->err = true;
		b->pos = b->nbits;
		return;
	}
	b->pos += n;
}

uint32_t v2x_bits_length(struct v2x_bits *b)
{
	if (!v2x_bits_bit(b))
		return v2x_bits_get(b, 7);
	if (!v2x_bits_bit(b))
		return v2x_bits_get(b, 14);
	b->err = true; /* fragmented: 16K blocks, never in a V2X frame */
	b->pos = b->nbits;
	return 0;
}
