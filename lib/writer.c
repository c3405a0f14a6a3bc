/* Octet, length-determinant and bit writers (see writer.h). */
#include "writer.h"

#include <stdlib.h>
#include <string.h>

#include "ieee1609dot2.h"
#include "wsmp.h"

uint8_t *v2x_buf_room(struct v2x_buf *b, size_t n)
{
	if (b->err)
		return NULL;
	if (!b->p || n > b->cap - b->len) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap - b->len < n)
			cap *= 2;
		uint8_t *p = realloc(b->p, cap);
		if (!p) {
			b->err = true;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	return b->p + b->len;
}

void v2x_put(struct v2x_buf *b, const void *data, size_t n)
{
	uint8_t *p = n ? v2x_buf_room(b, n) : NULL;
	if (!p)
		return;
	memcpy(p, data, n);
	b->len += n;
}

void v2x_buf_free(struct v2x_buf *b)
{
	free(b->p);
	*b = (struct v2x_buf){0};
}

void v2x_put_be(struct v2x_buf *b, uint64_t v, unsigned n)
{
	uint8_t o[8];
	for (unsigned i = 0; i < n && i < 8; i++)
		o[i] = (uint8_t)(v >> 8 * (n - 1 - i));
	v2x_put(b, o, n <= 8 ? n : 0);
}

void v2x_put_le(struct v2x_buf *b, uint64_t v, unsigned n)
{
	uint8_t o[8];
	for (unsigned i = 0; i < n && i < 8; i++)
		o[i] = (uint8_t)(v >> 8 * i);
	v2x_put(b, o, n <= 8 ? n : 0);
}

void v2x_put_uper_length(struct v2x_buf *b, size_t n)
{
	uint8_t o[2];
	v2x_put(b, o, v2x_wsmp_count_encode(n, o));
}

void v2x_put_coer_length(struct v2x_buf *b, size_t n)
{
	uint8_t o[5];
	v2x_put(b, o, v2x_coer_length_encode(n, o));
}

void v2x_bitw_init(struct v2x_bitw *w, uint8_t *buf, size_t len)
{
	w->buf = buf;
	w->nbits = buf ? len * 8 : 0;
	w->pos = 0;
	w->err = false;
}

void v2x_bitw_put(struct v2x_bitw *w, unsigned n, uint32_t v)
{
	if (w->err || n > 32 || n > w->nbits - w->pos) {
		w->err = true;
		return;
	}
	for (unsigned i = 0; i < n; i++, w->pos++) {
		uint8_t mask = (uint8_t)(0x80 >> w->pos % 8);
		if (v >> (n - 1 - i) & 1)
			w->buf[w->pos / 8] |= mask;
		else
			w->buf[w->pos / 8] &= (uint8_t)~mask;
	}
}
