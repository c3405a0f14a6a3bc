/* IEEE 1609.3 WSMP header parser: v3 (N-header, extension elements, TPID, T-header)
 * and the legacy 1609.3-2010 v2 layout; the WSM data is located, never interpreted. */
#include "wsmp.h"

#include <string.h>

#include "cursor.h"
#include "psid.h"
#include "registry.h"
#include "zero.h"

/* A parse clears V2X_WSMP_HEAD_SIZE octets: all but the two arrays that end the struct. */
_Static_assert(offsetof(struct v2x_wsmp, text) ==
		       V2X_WSMP_HEAD_SIZE + V2X_WSMP_MAX_EXT * sizeof(struct v2x_wave_ext) &&
	       sizeof(struct v2x_wsmp) ==
		       offsetof(struct v2x_wsmp, text) +
			       V2X_WSMP_MAX_EXT * sizeof(struct v2x_wave_ext),
	       "the extension arrays end struct v2x_wsmp");

const struct v2x_wsmp_tpid v2x_wsmp_tpids[V2X_WSMP_N_TPID] = {
	{V2X_WSMP_ADDR_PSID, false, "PSID"},
	{V2X_WSMP_ADDR_PSID, true, "PSID, T-header extensions"},
	{V2X_WSMP_ADDR_PORTS, false, "Source and destination port"},
	{V2X_WSMP_ADDR_PORTS, true, "Source and destination port, T-header extensions"},
	{V2X_WSMP_ADDR_LPP, false, "LPP"},
	{V2X_WSMP_ADDR_LPP, true, "LPP, T-header extensions"},
};

const struct v2x_wsmp_element_kind v2x_wsmp_element_kinds[] = {
	{V2X_WEID_TX_POWER, V2X_UNIT_DBM},
	{V2X_WEID_CHANNEL, V2X_UNIT_CHANNEL},
	{V2X_WEID_DATA_RATE, V2X_UNIT_RATE_500K},
	{V2X_WEID_CHANNEL_LOAD, V2X_UNIT_NONE},
	{V2X_WEID_TIME_CONFIDENCE, V2X_UNIT_NONE},
	{0, 0},
};

const struct v2x_wsmp_element_kind *v2x_wsmp_element_kind(uint8_t id)
{
	for (const struct v2x_wsmp_element_kind *e = v2x_wsmp_element_kinds; e->id; e++)
		if (e->id == id)
			return e;
	return NULL;
}

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

static void decode_element(struct v2x_wave_ext *e, uint8_t version)
{
	const struct v2x_wsmp_element_kind *decoded = v2x_wsmp_element_kind(e->id);
	e->known = decoded && e->len == 1;
	e->number = 0; /* the slots are not cleared beforehand */
	if (!e->known)
		return;
	e->number = e->value[0];
	if (decoded->unit == V2X_UNIT_DBM)
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
	uint32_t off = (uint32_t)v2x_cur_offset(c) - 1;
	unsigned nb = 1;
	uint32_t len = version == 3 ? v2x_length_read(c, &nb) : v2x_u8(c);
	const uint8_t *value = v2x_bytes(c, len);
	if (!slot || c->err)
		return;
	slot->id = id;
	slot->off = off;
	slot->len_len = (uint8_t)nb;
	slot->len = (uint16_t)len;
	slot->value = value;
	decode_element(slot, version);
}

/* A v3 WAVE Information Element Extension field: Count, then the elements. */
static inline void read_extensions(struct v2x_cursor *c, struct v2x_wave_ext *ext,
				   unsigned *n, unsigned *announced, uint32_t *count_off,
				   unsigned *count_len)
{
	*count_off = (uint32_t)v2x_cur_offset(c);
	uint32_t count = v2x_length_read(c, count_len);
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

/* Where the next field starts: the error, if reading it fails, is there. */
static inline uint32_t field_at(const struct v2x_cursor *c, struct v2x_wsmp *w)
{
	w->error_off = (uint32_t)v2x_cur_offset(c);
	return w->error_off;
}

static int fail(struct v2x_wsmp *w, enum v2x_wsmp_error e, const char *msg, const char **why)
{
	w->error = e;
	*why = msg;
	return -1;
}

/* The Address Info of a PSID (psid_raw: the octets read, the p-encoding being one-to-one)
 * or an LPP; false when the p-encoding is malformed or cut short. */
static inline bool read_address(struct v2x_cursor *c, struct v2x_wsmp *w, bool lpp)
{
	const uint8_t *raw = c->p;
	w->addr_off = field_at(c, w);
	unsigned n;
	uint32_t v = v2x_psid_read(c, &n);
	if (c->err)
		return false;
	w->addr_len = n;
	if (lpp) {
		w->lpp = v;
		w->has_lpp = true;
		return true;
	}
	w->psid = v;
	w->psid_len = n;
	w->has_psid = true;
	/* octet by octet, unrolled: a memcpy of a variable 1..4 octets is a library call */
#pragma GCC unroll 4
	for (unsigned i = 0; i < sizeof(w->psid_raw); i++)
		w->psid_raw[i] = i < n ? raw[i] : 0;
	return true;
}

static int parse_v3(struct v2x_cursor *c, uint8_t first, struct v2x_wsmp *w,
		    const char **why)
{
	static const char truncated[] = "WSMP T-header truncated or malformed";
	w->subtype = first >> 4;
	w->option = (first >> 3) & 1;
	if (w->option) {
		field_at(c, w);
		read_extensions(c, w->ext, &w->n_ext, &w->n_ext_total, &w->n_count_off,
				&w->n_count_len);
		if (c->err)
			return fail(w, V2X_WSMP_ERR_TRUNCATED,
				    "WSMP N-header extension elements truncated or malformed",
				    why);
	}
	w->tpid_off = field_at(c, w);
	w->tpid = v2x_u8(c);
	if (c->err)
		return fail(w, V2X_WSMP_ERR_TRUNCATED, "WSMP N-header truncated before the TPID",
			    why);
	if (w->tpid >= V2X_WSMP_N_TPID)
		return fail(w, V2X_WSMP_ERR_TPID, "WSMP TPID not defined by IEEE 1609.3 (only 0-5)",
			    why);
	const struct v2x_wsmp_tpid *t = &v2x_wsmp_tpids[w->tpid];
	if (t->addr == V2X_WSMP_ADDR_PORTS) {
		w->addr_off = field_at(c, w);
		w->addr_len = 4;
		w->src_port = v2x_be16(c);
		w->dst_port = v2x_be16(c);
		w->has_ports = !c->err;
		if (c->err)
			return fail(w, V2X_WSMP_ERR_TRUNCATED, truncated, why);
	} else if (!read_address(c, w, t->addr == V2X_WSMP_ADDR_LPP)) {
		return fail(w, V2X_WSMP_ERR_PSID,
			    t->addr == V2X_WSMP_ADDR_LPP ? "WSMP LPP p-encoding malformed or truncated"
							 : "WSMP PSID p-encoding malformed or truncated",
			    why);
	}
	if (t->extensions) {
		field_at(c, w);
		read_extensions(c, w->text, &w->n_text, &w->n_text_total, &w->t_count_off,
				&w->t_count_len);
		if (c->err)
			return fail(w, V2X_WSMP_ERR_TRUNCATED, truncated, why);
	}
	w->length_off = field_at(c, w);
	w->length = v2x_length_read(c, &w->length_len);
	if (c->err)
		return fail(w, V2X_WSMP_ERR_TRUNCATED, truncated, why);
	locate_payload(c, w);
	return 0;
}

/* 1609.3-2010: version octet, PSID, optional channel/data rate/tx power elements
 * (1-octet lengths), WAVE element id 128-130, 2-octet length, data. */
static int parse_v2(struct v2x_cursor *c, struct v2x_wsmp *w, const char **why)
{
	static const char truncated[] = "WSMP v2 header truncated";
	if (!read_address(c, w, false))
		return fail(w, V2X_WSMP_ERR_PSID, "WSMP PSID p-encoding malformed or truncated",
			    why);
	for (;;) {
		uint32_t at = field_at(c, w);
		uint8_t id = v2x_u8(c);
		if (c->err)
			return fail(w, V2X_WSMP_ERR_TRUNCATED, truncated, why);
		if (id >= V2X_WEID_WSMP && id <= V2X_WEID_WSMP_I) {
			w->wave_element_id = id;
			w->wave_element_id_off = at;
			break;
		}
		read_element(c, id, 2, w->n_ext < V2X_WSMP_MAX_EXT ? &w->ext[w->n_ext] : NULL);
		if (c->err)
			return fail(w, V2X_WSMP_ERR_TRUNCATED, truncated, why);
		w->n_ext_total++;
		if (w->n_ext < V2X_WSMP_MAX_EXT)
			w->n_ext++;
	}
	w->length_off = field_at(c, w);
	w->length = v2x_be16(c);
	w->length_len = 2;
	if (c->err)
		return fail(w, V2X_WSMP_ERR_TRUNCATED, truncated, why);
	locate_payload(c, w);
	return 0;
}

int v2x_wsmp_parse(const uint8_t *buf, size_t len, struct v2x_wsmp *w, const char **why)
{
	struct v2x_cursor c;
	v2x_zero(w, V2X_WSMP_HEAD_SIZE);
	v2x_cur_init(&c, buf, len);
	uint8_t first = v2x_u8(&c);
	if (c.err)
		return fail(w, V2X_WSMP_ERR_TRUNCATED, "empty WSMP frame", why);
	if ((first & 0x07) == 3) {
		w->version = 3;
		return parse_v3(&c, first, w, why);
	}
	if (first == 2) {
		w->version = 2;
		return parse_v2(&c, w, why);
	}
	w->version = first & 0x07;
	return fail(w, V2X_WSMP_ERR_VERSION,
		    "unsupported WSMP version (IEEE 1609.3 defines 3, and 2 in its 2010 edition)",
		    why);
}
