/* Bounds-checked byte and bit readers (see cursor.h). */
#include "cursor.h"

void v2x_bits_init(struct v2x_bits *b, const uint8_t *buf, size_t len)
{
	b->buf = buf;
	b->nbits = buf ? len * 8 : 0;
	b->pos = 0;
	b->err = false;
}
