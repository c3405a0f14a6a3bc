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

/* Per-antenna fields repeat (ath9k: the combined value, then one per chain in further
 * namespaces): the first one read is kept. */
static uint8_t first_u8(struct v2x_cursor *c, bool *seen, uint8_t kept)
{
	uint8_t v = v2x_u8(c);
	if (*seen)
		return kept;
	*seen = true;
	return v;
}

/* Reads one standard field; the cursor is aligned already. */
static void read_field(struct v2x_cursor *c, unsigned bit, struct v2x_radiotap *rt)
{
	switch (bit) {
	case 0:
		rt->tsft = v2x_le64(c);
		rt->has_tsft = true;
		return;
	case 1:
		rt->flags = v2x_u8(c);
		rt->has_flags = true;
		rt->fcs_at_end = (rt->flags & V2X_RT_FLAG_FCS) != 0;
		return;
	case 2:
		rt->rate = v2x_u8(c);
		rt->has_rate = true;
		return;
	case 3:
		rt->freq = v2x_le16(c);
		rt->chan_flags = v2x_le16(c);
		rt->has_channel = true;
		return;
	case 5:
		rt->signal_dbm = (int8_t)first_u8(c, &rt->has_signal, (uint8_t)rt->signal_dbm);
		return;
	case 6:
		rt->noise_dbm = (int8_t)first_u8(c, &rt->has_noise, (uint8_t)rt->noise_dbm);
		return;
	case 11:
		rt->antenna = first_u8(c, &rt->has_antenna, rt->antenna);
		return;
	case 19:
		rt->has_mcs = true;
		break;
	case 21:
		rt->has_vht = true;
		break;
	case 23:
		rt->has_he = true;
		break;
	default:
		break;
	}
	v2x_skip(c, fields[bit].size);
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

int v2x_radiotap_parse(const uint8_t *buf, size_t len, struct v2x_radiotap *rt,
		       const char **why)
{
	struct v2x_cursor c;
	memset(rt, 0, sizeof(*rt));
	v2x_cur_init(&c, buf, len);
	uint8_t version = v2x_u8(&c);
	v2x_skip(&c, 1); /* pad */
	uint16_t it_len = v2x_le16(&c);
	if (c.err || it_len > len) {
		*why = "radiotap header truncated";
		return -1;
	}
	if (version != 0) {
		*why = "radiotap version is not 0";
		return -1;
	}
	if (it_len < 8) {
		*why = "radiotap length shorter than its fixed header";
		return -1;
	}
	rt->hdr_len = it_len;

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
				v2x_align(&data, fields[idx].align);
				read_field(&data, idx, rt);
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
	if (data.err) {
		*why = "radiotap fields run past the header length";
		return -1;
	}
	return 0;
}
