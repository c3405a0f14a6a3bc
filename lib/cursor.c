/* Bounds-checked byte and bit readers (see cursor.h). */
#include "cursor.h"

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

void v2x_bits_skip(struct v2x_bits *b, size_t n)
{
	if (b->err || n > v2x_bits_left(b)) {
		b->err = true;
		b->pos = b->nbits;
		return;
	}
	b->pos += n;
}
