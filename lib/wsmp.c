/* IEEE 1609.3 WSMP header parser: v3 (N-header, extension elements, TPID, T-header)
 * and the legacy 1609.3-2010 v2 layout; the WSM data is located, never interpreted. */
#include "wsmp.h"

#include <string.h>

#include "cursor.h"
#include "psid.h"
#include "registry.h"

/* A parse clears V2X_WSMP_HEAD_SIZE octets: all but the two arrays that end the struct. */
_Static_assert(offsetof(struct v2x_wsmp, text) ==
		       V2X_WSMP_HEAD_SIZE + V2X_WSMP_MAX_EXT * sizeof(struct v2x_wave_ext) &&
	       sizeof(struct v2x_wsmp) ==
		       offsetof(struct v2x_wsmp, text) +
			       V2X_WSMP_MAX_EXT * sizeof(struct v2x_wave_ext),
	       "the extension arrays end struct v2x_wsmp");

/* What the T-header Address Info holds for each TPID (IEEE 1609.3-2016 TPID table);
 * the odd TPIDs add WAVE extension elements after it. TPID 4/5 (LPP mode) are
 * addressed by PSID like 0/1. */
static const struct tpid_layout {
	bool psid;
	bool ports;
	bool extensions;
} tpid_layouts[] = {
	{true, false, false},
	{true, false, true},
	{false, true, false},
	{false, true, true},
	{true, false, false},
	{true, false, true},
};

/* 1609.3 "Length and Count" encoding (8.1.3): 0xxxxxxx, or 10xxxxxx xxxxxxxx. */
unsigned v2x_wsmp_count_encode(size_t n, uint8_t out[2])
{
	if (n < 0x80) {
		out[0] = (uint8_t)n;
		return 1;
	}
	out[0] = (uint8_t)(0x80 | (n >> 8 & 0x3F));
	out[1] = (uint8_t)n;
	return 2;
}

static inline uint32_t read_count(struct v2x_cursor *c, unsigned *nbytes)
{
	uint8_t first = v2x_u8(c);
	*nbytes = 1;
	if (!(first & 0x80))
		return first;
	if ((first & 0xC0) != 0x80) {
		c->err = true; /* 11xxxxxx: no value this large is defined */
		return 0;
	}
	*nbytes = 2;
	return (uint32_t)(first & 0x3F) << 8 | v2x_u8(c);
}

/* The header elements libv2x decodes: each is one octet. */
static const uint8_t decoded_elements[] = {
	V2X_WEID_TX_POWER, V2X_WEID_CHANNEL, V2X_WEID_DATA_RATE, V2X_WEID_CHANNEL_LOAD,
	V2X_WEID_TIME_CONFIDENCE,
};

static void decode_element(struct v2x_wave_ext *e, uint8_t version)
{
	e->known = false;
	for (size_t i = 0; i < sizeof(decoded_elements); i++)
		e->known |= e->id == decoded_elements[i];
	e->known &= e->len == 1;
	e->number = 0; /* the slots are not cleared beforehand */
	if (!e->known)
		return;
	e->number = e->value[0];
	if (e->id == V2X_WEID_TX_POWER)
		/* v3: TXpower80211 INTEGER (-128..127), which UPER codes offset by 128;
		 * v2 (2010, no ASN.1): a two's-complement dBm octet */
		e->number = version == 3 ? e->number - 128 : (int8_t)e->value[0];
}

/* Reads one element's length and value (its id already read) into slot; a NULL slot
 * (more elements than V2X_WSMP_MAX_EXT) is read over and dropped. v3 lengths use the
 * Length encoding, v2 lengths are one octet. */
static inline void read_element(struct v2x_cursor *c, uint8_t id, uint8_t version,
				struct v2x_wave_ext *slot)
{
	unsigned nb;
	uint32_t len = version == 3 ? read_count(c, &nb) : v2x_u8(c);
	const uint8_t *value = v2x_bytes(c, len);
	if (!slot || c->err)
		return;
	slot->id = id;
	slot->len = (uint16_t)len;
	slot->value = value;
	decode_element(slot, version);
}

/* A v3 WAVE Information Element Extension field: Count, then the elements. */
static inline void read_extensions(struct v2x_cursor *c, struct v2x_wave_ext *ext,
				   unsigned *n, unsigned *announced)
{
	unsigned nb;
	uint32_t count = read_count(c, &nb);
	*announced = count;
	for (uint32_t i = 0; i < count && !c->err; i++) {
		uint8_t id = v2x_u8(c);
		read_element(c, id, 3, i < V2X_WSMP_MAX_EXT ? &ext[i] : NULL);
		if (!c->err && i < V2X_WSMP_MAX_EXT)
			*n = i + 1;
	}
}

/* The WSM Length field and the data it announces, shared by both versions. */
static void locate_payload(struct v2x_cursor *c, struct v2x_wsmp *w)
{
	w->hdr_len = v2x_cur_offset(c);
	w->payload = c->p;
	size_t left = v2x_cur_left(c);
	if (w->length > left) {
		w->truncated = true;
		w->payload_len = left;
	} else {
		w->payload_len = w->length;
		w->trailing = left - w->length;
	}
}

/* The octets read are the p-encoding of the value (it is one-to-one). */
static inline void read_psid(struct v2x_cursor *c, struct v2x_wsmp *w)
{
	const uint8_t *raw = c->p;
	w->psid = v2x_psid_read(c, &w->psid_len);
	/* octet by octet: a memcpy of a variable 1..4 octets is a library call */
	for (unsigned i = 0; i < sizeof(w->psid_raw) && !c->err; i++)
		w->psid_raw[i] = i < w->psid_len ? raw[i] : 0;
}

static int parse_v3(struct v2x_cursor *c, uint8_t first, struct v2x_wsmp *w,
		    const char **why)
{
	w->subtype = first >> 4;
	w->option = (first >> 3) & 1;
	if (w->option) {
		read_extensions(c, w->ext, &w->n_ext, &w->n_ext_total);
		if (c->err) {
			*why = "WSMP N-header extension elements truncated or malformed";
			return -1;
		}
	}
	w->tpid = v2x_u8(c);
	if (c->err) {
		*why = "WSMP N-header truncated before the TPID";
		return -1;
	}
	if (w->tpid >= sizeof(tpid_layouts) / sizeof(tpid_layouts[0])) {
		*why = "WSMP TPID not defined by IEEE 1609.3 (only 0-5)";
		return -1;
	}
	const struct tpid_layout *t = &tpid_layouts[w->tpid];
	if (t->psid)
		read_psid(c, w);
	if (t->ports) {
		w->src_port = v2x_be16(c);
		w->dst_port = v2x_be16(c);
		w->has_ports = !c->err;
	}
	if (t->extensions) {
		unsigned announced;
		read_extensions(c, w->text, &w->n_text, &announced);
	}
	w->length = read_count(c, &w->length_len);
	if (c->err) {
		*why = "WSMP T-header truncated or malformed";
		return -1;
	}
	locate_payload(c, w);
	return 0;
}

/* 1609.3-2010: version octet, PSID, optional channel/data rate/tx power elements
 * (1-octet lengths), WAVE element id 128-130, 2-octet length, data. */
static int parse_v2(struct v2x_cursor *c, struct v2x_wsmp *w, const char **why)
{
	read_psid(c, w);
	for (;;) {
		uint8_t id = v2x_u8(c);
		if (c->err || (id >= V2X_WEID_WSMP && id <= V2X_WEID_WSMP_I)) {
			w->wave_element_id = id;
			break;
		}
		read_element(c, id, 2, w->n_ext < V2X_WSMP_MAX_EXT ? &w->ext[w->n_ext] : NULL);
		if (c->err)
			break;
		w->n_ext_total++;
		if (w->n_ext < V2X_WSMP_MAX_EXT)
			w->n_ext++;
	}
	w->length = v2x_be16(c);
	w->length_len = 2;
	if (c->err) {
		*why = "WSMP v2 header truncated or its PSID malformed";
		return -1;
	}
	locate_payload(c, w);
	return 0;
}

int v2x_wsmp_parse(const uint8_t *buf, size_t len, struct v2x_wsmp *w, const char **why)
{
	struct v2x_cursor c;
	memset(w, 0, V2X_WSMP_HEAD_SIZE);
	v2x_cur_init(&c, buf, len);
	uint8_t first = v2x_u8(&c);
	if (c.err) {
		*why = "empty WSMP frame";
		return -1;
	}
	if ((first & 0x07) == 3) {
		w->version = 3;
		return parse_v3(&c, first, w, why);
	}
	if (first == 2) {
		w->version = 2;
		return parse_v2(&c, w, why);
	}
	w->version = first & 0x07;
	*why = "unsupported WSMP version (IEEE 1609.3 defines 3, and 2 in its 2010 edition)";
	return -1;
}
