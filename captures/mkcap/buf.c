/* mkcap: growable octet buffer with big- and little-endian writers. */
#include <stdlib.h>
#include <string.h>
#include "mkcap.h"

void buf_put(struct buf *b, const void *data, size_t n)
{
	if (b->oom || n == 0)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n)
			cap *= 2;
		uint8_t *p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

void buf_u8(struct buf *b, uint8_t v)
{
	buf_put(b, &v, 1);
}

/* Writes the n low octets of v, most significant first or last. */
static void put_int(struct buf *b, uint64_t v, unsigned n, bool big_endian)
{
	uint8_t o[8];
	for (unsigned i = 0; i < n; i++) {
		unsigned shift = 8 * (big_endian ? n - 1 - i : i);
		o[i] = (uint8_t)(v >> shift);
	}
	buf_put(b, o, n);
}

void buf_be16(struct buf *b, uint16_t v) { put_int(b, v, 2, true); }
void buf_le16(struct buf *b, uint16_t v) { put_int(b, v, 2, false); }
void buf_be32(struct buf *b, uint32_t v) { put_int(b, v, 4, true); }
void buf_le32(struct buf *b, uint32_t v) { put_int(b, v, 4, false); }
void buf_be64(struct buf *b, uint64_t v) { put_int(b, v, 8, true); }
void buf_le64(struct buf *b, uint64_t v) { put_int(b, v, 8, false); }

void buf_free(struct buf *b)
{
	free(b->p);
	*b = (struct buf){0};
}
