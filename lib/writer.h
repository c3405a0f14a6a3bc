/* Writers, the mirror of cursor.h: a growable octet buffer with big- and little-endian
 * puts, the length determinants (UPER, COER, 1609.3 Length and Count), and a bit writer
 * for UPER fields. An allocation failure sets err; later puts do nothing. */
#ifndef V2X_WRITER_H
#define V2X_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct v2x_buf {
	uint8_t *p;
	size_t len, cap;
	bool err;
};

void v2x_put(struct v2x_buf *b, const void *data, size_t n);
/* Room for n more octets at b->p + b->len, for a writer that fills it in place and then
 * adds what it wrote to len; NULL (and err) when out of memory. */
uint8_t *v2x_buf_room(struct v2x_buf *b, size_t n);
/* Empties the buffer and keeps its memory, for one frame after another. */
static inline void v2x_buf_reset(struct v2x_buf *b)
{
	b->len = 0;
}
void v2x_buf_free(struct v2x_buf *b);

/* The n (0..8) low octets of v, most significant first (be) or last (le). */
void v2x_put_be(struct v2x_buf *b, uint64_t v, unsigned n);
void v2x_put_le(struct v2x_buf *b, uint64_t v, unsigned n);

static inline void v2x_put_u8(struct v2x_buf *b, uint8_t v) { v2x_put(b, &v, 1); }
static inline void v2x_put_be16(struct v2x_buf *b, uint16_t v) { v2x_put_be(b, v, 2); }
static inline void v2x_put_le16(struct v2x_buf *b, uint16_t v) { v2x_put_le(b, v, 2); }
static inline void v2x_put_be32(struct v2x_buf *b, uint32_t v) { v2x_put_be(b, v, 4); }
static inline void v2x_put_le32(struct v2x_buf *b, uint32_t v) { v2x_put_le(b, v, 4); }
static inline void v2x_put_be64(struct v2x_buf *b, uint64_t v) { v2x_put_be(b, v, 8); }
static inline void v2x_put_le64(struct v2x_buf *b, uint64_t v) { v2x_put_le(b, v, 8); }

/* UPER length determinant (X.691 11.9, unfragmented: n < 16384); IEEE 1609.3's
 * "Length and Count" fields are the same encoding. */
void v2x_put_uper_length(struct v2x_buf *b, size_t n);
/* COER length determinant (X.696 8.6). */
void v2x_put_coer_length(struct v2x_buf *b, size_t n);

/* Bit writer over octets that exist (MSB first): rewrites UPER fields in place. Writing
 * past the end sets err and writes nothing. */
struct v2x_bitw {
	uint8_t *buf;
	size_t nbits;
	size_t pos;
	bool err;
};

void v2x_bitw_init(struct v2x_bitw *w, uint8_t *buf, size_t len);
/* The n (0..32) low bits of v. */
void v2x_bitw_put(struct v2x_bitw *w, unsigned n, uint32_t v);

#endif
