/* Radiotap header parser: walks the presence bitmaps and namespaces, reads every standard
 * field at its alignment (counted from the start of the header) and keeps what V2X needs. */
#include "radiotap.h"

#include <string.h>

#include "cursor.h"

/* Presence bits with a meaning of their own in every bitmap word */
enum {
	BIT_TLV = 28,           /* TLV list follows until it_len: no more fixed fields */
	BIT_RADIOTAP_NS = 29,   /* next word starts over in the radiotap namespace */
	BIT_VENDOR_NS = 30,     /* next word is in a vendor namespace */
	BIT_EXT = 31,           /* another presence word follows */
};

/* Standard radiotap fields (radiotap.org "defined fields"), indexed by presence bit. */
static const struct {
	uint8_t align, size;
} fields[BIT_TLV] = {
	[0] = {8, 8},   /* TSFT */
	[1] = {1, 1},   /* flags */
	[2] = {1, 1},   /* rate */
	[3] = {2, 4},   /* channel: frequency, flags */
	[4] = {1, 2},   /* FHSS */
	[5] = {1, 1},   /* dBm antenna signal */
	[6] = {1, 1},   /* dBm antenna noise */
	[7] = {2, 2},   /* lock quality */
	[8] = {2, 2},   /* TX attenuation */
	[9] = {2, 2},   /* dB TX attenuation */
	[10] = {1, 1},  /* dBm TX power */
	[11] = {1, 1},  /* antenna */
	[12] = {1, 1},  /* dB antenna signal */
	[13] = {1, 1},  /* dB antenna noise */
	[14] = {2, 2},  /* RX flags */
	[15] = {2, 2},  /* TX flags */
	[16] = {1, 1},  /* RTS retries */
	[17] = {1, 1},  /* data retries */
	[18] = {4, 8},  /* XChannel */
	[19] = {1, 3},  /* MCS */
	[20] = {4, 8},  /* A-MPDU status */
	[21] = {2, 12}, /* VHT */
	[22] = {8, 12}, /* timestamp */
	[23] = {2, 12}, /* HE */
	[24] = {2, 12}, /* HE-MU */
	[25] = {2, 6},  /* HE-MU-other-user */
	[26] = {1, 1},  /* 0-length-PSDU */
	[27] = {2, 4},  /* L-SIG */
};

/* What a field cut by the end of the header reads as (the checked readers' zeros). */
static const uint8_t zeros[12];

/* Per-antenna fields repeat (ath9k: the combined value, then one per chain in further
 * namespaces): true for the first one, which is kept. */
static bool first_seen(bool *seen)
{
	bool was = *seen;
	*seen = true;
	return !was;
}

/* Reads one standard field from its fields[bit].size octets at q. */
static inline void read_field(const uint8_t *q, unsigned bit, struct v2x_radiotap *rt)
{
	switch (bit) {
	case 0:
		rt->tsft = v2x_get_le64(q);
		rt->has_tsft = true;
		break;
	case 1:
		rt->flags = q[0];
		rt->has_flags = true;
		rt->fcs_at_end = (rt->flags & V2X_RT_FLAG_FCS) != 0;
		rt->bad_fcs = (rt->flags & V2X_RT_FLAG_BADFCS) != 0;
		break;
	case 2:
		rt->rate = q[0];
		rt->has_rate = true;
		break;
	case 3:
		rt->freq = v2x_get_le16(q);
		rt->chan_flags = v2x_get_le16(q + 2);
		rt->has_channel = true;
		break;
	case 5:
		if (first_seen(&rt->has_signal))
			rt->signal_dbm = (int8_t)q[0];
		break;
	case 6:
		if (first_seen(&rt->has_noise))
			rt->noise_dbm = (int8_t)q[0];
		break;
	case 11:
		if (first_seen(&rt->has_antenna))
			rt->antenna = q[0];
		break;
	case 19:
		rt->has_mcs = true;
		break;
	case 21:
		rt->has_vht = true;
		break;
	case 23:
		rt->has_he = true;
		break;
	}
}

/* Aligns to the standard field `bit` and reads it: one bounds check for all its octets.
 * A field running past the header reads as zeros, and so does every one after it. */
static void take_field(struct v2x_cursor *c, unsigned bit, struct v2x_radiotap *rt)
{
	v2x_align(c, fields[bit].align);
	const uint8_t *q = v2x_bytes(c, fields[bit].size);
	read_field(q ? q : zeros, bit, rt);
}

/* Reads the standard field `bit` at the next offset its alignment allows; false when it
 * runs past it_len. */
static inline bool read_at(const uint8_t *buf, size_t it_len, size_t *off, unsigned bit,
			   struct v2x_radiotap *rt)
{
	size_t at = (*off + fields[bit].align - 1) & ~(size_t)(fields[bit].align - 1);
	if (at + fields[bit].size > it_len)
		return false;
	read_field(buf + at, bit, rt);
	*off = at + fields[bit].size;
	return true;
}

/* The usual header: one presence word of standard fields, whose offsets follow from the
 * word alone. Reads them there; false (rt partly filled) when one runs past it_len,
 * leaving the general walk to say so. */
static bool read_one_word(const uint8_t *buf, size_t it_len, uint32_t w,
			  struct v2x_radiotap *rt)
{
	/* TSFT, flags, rate, channel, FHSS, antenna signal and noise: the fields headers
	 * start with. The loop unrolled, each bit a constant that folds the table and the
	 * switch away (gcc -O2 does not unroll it unasked). */
	enum { FIRST_BITS = 7 };
	size_t off = 8;
#pragma GCC unroll 7
	for (unsigned bit = 0; bit < FIRST_BITS; bit++)
		if ((w >> bit & 1) && !read_at(buf, it_len, &off, bit, rt))
			return false;
	for (uint32_t bits = w >> FIRST_BITS << FIRST_BITS; bits; bits &= bits - 1)
		if (!read_at(buf, it_len, &off, (unsigned)__builtin_ctz(bits), rt))
			return false;
	return true;
}

/* Counts the presence words (each with BIT_EXT chains another); -1 when they run past
 * the header. */
static int count_present_words(struct v2x_cursor c)
{
	int n = 0;
	uint32_t w;
	do {
		w = v2x_le32(&c);
		n++;
	} while (!c.err && (w & (1u << BIT_EXT)));
	return c.err ? -1 : n;
}

/* The fields end within it_len, or the header is malformed. */
static int fields_end(const struct v2x_cursor *data, const char **why)
{
	if (data->err) {
		*why = "radiotap fields run past the header length";
		return -1;
	}
	return 0;
}

/* Any header: every presence word, namespace switches, vendor data skipped. */
static int walk_words(const uint8_t *buf, uint16_t it_len, struct v2x_radiotap *rt,
		      const char **why)
{
	*rt = (struct v2x_radiotap){.hdr_len = it_len}; /* undo a fast path that gave up */

	/* Presence words and field data, both limited to it_len. */
	struct v2x_cursor words, data;
	v2x_cur_init(&words, buf, it_len);
	v2x_skip(&words, 4);
	int n = count_present_words(words);
	if (n < 0) {
		*why = "radiotap presence bitmaps run past the header length";
		return -1;
	}
	rt->n_present = (unsigned)n;
	v2x_cur_init(&data, buf, it_len);
	v2x_skip(&data, 4 + 4 * (size_t)n);

	bool in_vendor = false, stopped = false;
	size_t vendor_skip = 0;
	unsigned bit_base = 0; /* radiotap bit number of this word's bit 0 */
	for (int i = 0; i < n && !stopped && !data.err; i++) {
		uint32_t w = v2x_le32(&words);
		if (in_vendor) {
			/* Vendor data is opaque: skip_length octets for all its words. */
			v2x_skip(&data, vendor_skip);
			vendor_skip = 0;
		} else {
			/* Visit only the bits that are set (fields are rare, words are 29 wide). */
			for (uint32_t bits = w & ((1u << BIT_TLV) - 1); bits; bits &= bits - 1) {
				unsigned idx = bit_base + (unsigned)__builtin_ctz(bits);
				if (idx >= BIT_TLV) {
					/* TLVs or an unknown field: its size is unknowable, so
					 * the fields after it cannot be found; it_len still
					 * says where the frame starts. */
					stopped = true;
					break;
				}
				take_field(&data, idx, rt);
			}
			if (stopped)
				break;
		}
		bool to_rt = (w & (1u << BIT_RADIOTAP_NS)) != 0;
		bool to_vendor = (w & (1u << BIT_VENDOR_NS)) != 0;
		if (to_rt && to_vendor) {
			*why = "radiotap presence word selects two namespaces";
			return -1;
		}
		if (to_rt) {
			in_vendor = false;
			bit_base = 0;
		} else if (to_vendor) {
			/* OUI (3), sub-namespace (1), skip_length (2, LE) */
			v2x_align(&data, 2);
			v2x_skip(&data, 4);
			vendor_skip = v2x_le16(&data);
			in_vendor = true;
			bit_base = 0;
		} else {
			bit_base += 32;
		}
	}
	return fields_end(&data, why);
}

int v2x_radiotap_parse(const uint8_t *buf, size_t len, struct v2x_radiotap *rt,
		       const char **why)
{
	struct v2x_cursor c;
	memset(rt, 0, sizeof(*rt));
	v2x_cur_init(&c, buf, len);
	const uint8_t *h = v2x_bytes(&c, 4); /* version, pad, it_len (LE) */
	uint16_t it_len = h ? v2x_get_le16(h + 2) : 0;
	if (!h || it_len > len) {
		*why = "radiotap header truncated";
		return -1;
	}
	if (h[0] != 0) {
		*why = "radiotap version is not 0";
		return -1;
	}
	if (it_len < 8) {
		*why = "radiotap length shorter than its fixed header";
		return -1;
	}
	rt->hdr_len = it_len;

	uint32_t w0 = v2x_get_le32(buf + 4); /* within it_len, checked above */
	if (!(w0 >> BIT_TLV) && read_one_word(buf, it_len, w0, rt)) {
		rt->n_present = 1;
		return 0;
	}
	return walk_words(buf, it_len, rt, why);
}
