/* IEEE 1609.3 WAVE Short Message Protocol: v3 (1609.3-2016/2020) and legacy v2 (2010). */
#ifndef V2X_WSMP_H
#define V2X_WSMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define V2X_WSMP_MAX_EXT 16

struct v2x_wave_ext {
	uint8_t id;
	uint8_t len_len;        /* octets of its length field */
	uint16_t len;
	uint32_t off;           /* offset of its id octet in the WSMP frame */
	const uint8_t *value;   /* points into the frame */
	bool known;             /* a v2x_wsmp_element_kinds id with a 1-octet value */
	int32_t number;         /* decoded value for the known ids (v2x_wsmp_element_kinds) */
};

/* What the T-header Address Info holds, by TPID (IEEE 1609.3-2016/2020 Table 21).
 * TPID 4/5 carry an LPP (a locally assigned port, p-encoded like a PSID, ISO 29281-1),
 * not a PSID: the WSM is addressed to a port, and has no PSID. */
enum v2x_wsmp_addr {
	V2X_WSMP_ADDR_PSID,
	V2X_WSMP_ADDR_PORTS,    /* source and destination port, 2 octets each */
	V2X_WSMP_ADDR_LPP,
};

struct v2x_wsmp_tpid {
	enum v2x_wsmp_addr addr;
	bool extensions;        /* WAVE extension elements follow the Address Info */
	const char *name;
};

/* The TPIDs 1609.3 defines, indexed by TPID: V2X_WSMP_N_TPID rows. */
#define V2X_WSMP_N_TPID 6
extern const struct v2x_wsmp_tpid v2x_wsmp_tpids[V2X_WSMP_N_TPID];

/* How the value of a header element libv2x decodes reads (number in struct v2x_wave_ext). */
enum v2x_wsmp_unit {
	V2X_UNIT_DBM,           /* tx power: v3 UPER INTEGER(-128..127), v2 a signed octet */
	V2X_UNIT_CHANNEL,       /* IEEE 802.11 channel number */
	V2X_UNIT_RATE_500K,     /* data rate in 500 kb/s units */
	V2X_UNIT_NONE,          /* channel load, compact time confidence: as coded */
};

struct v2x_wsmp_element_kind {
	uint8_t id;             /* V2X_WEID_* */
	enum v2x_wsmp_unit unit;
};

/* The WSMP header elements libv2x decodes, each a 1-octet value; ends with unit 0, id 0. */
extern const struct v2x_wsmp_element_kind v2x_wsmp_element_kinds[];
/* The row of id, NULL when libv2x does not decode it in a WSMP header. */
const struct v2x_wsmp_element_kind *v2x_wsmp_element_kind(uint8_t id);

/* Why a header could not be read (v2x_wsmp_parse returned -1). */
enum v2x_wsmp_error {
	V2X_WSMP_OK = 0,
	V2X_WSMP_ERR_VERSION,   /* neither 3 nor (1609.3-2010) 2 */
	V2X_WSMP_ERR_TRUNCATED, /* a header field cut short, or a length in the 11xxxxxx form */
	V2X_WSMP_ERR_PSID,      /* PSID or LPP p-encoding longer than 4 octets or cut short */
	V2X_WSMP_ERR_TPID,      /* a TPID 1609.3 does not define */
};

/* The fields before the arrays are ordered to leave no holes: every parse clears them.
 * Offsets count octets from the first of the WSMP frame; one that is 0 was not reached
 * (the version octet alone is at 0), so a dissector draws what the parse found. */
struct v2x_wsmp {
	uint8_t version;        /* 2 or 3 (other values: error) */
	/* v3 N-header */
	uint8_t subtype;
	bool option;
	unsigned n_ext;         /* N-header extensions (v3) or v2 header elements */
	unsigned n_ext_total;   /* as announced; n_ext may be capped at V2X_WSMP_MAX_EXT */
	uint32_t n_count_off;   /* the N-header extensions' Count field ... */
	unsigned n_count_len;   /* ... and its octets */
	/* T-header */
	uint8_t tpid;
	bool has_psid, has_ports, has_lpp;
	uint32_t tpid_off;
	uint32_t addr_off;      /* Address Info: PSID, ports or LPP */
	unsigned addr_len;
	uint16_t src_port, dst_port; /* TPID 2/3 */
	uint32_t psid;          /* TPID 0/1, v2 */
	unsigned psid_len;      /* octets of its p-encoding */
	uint8_t psid_raw[4];
	uint32_t lpp;           /* TPID 4/5 */
	unsigned n_text;        /* T-header extensions (TPID 1/3/5) */
	unsigned n_text_total;
	uint32_t t_count_off;
	unsigned t_count_len;
	/* v2 */
	uint8_t wave_element_id; /* 128 WSMP, 129 WSMP-S, 130 WSMP-I */
	uint32_t wave_element_id_off;
	/* both */
	enum v2x_wsmp_error error;
	uint32_t error_off;     /* where the field that failed starts */
	bool truncated;         /* length field is larger than what the frame holds */
	uint32_t length;        /* WSM length field */
	uint32_t length_off;
	unsigned length_len;    /* octets of the length field */
	size_t hdr_len;         /* octets before the payload */
	const uint8_t *payload; /* exactly `length` octets (or fewer if truncated) */
	size_t payload_len;
	size_t trailing;        /* octets after the WSM in the frame */
	/* The elements are valid up to n_ext / n_text only: a parse clears the
	 * V2X_WSMP_HEAD_SIZE octets before them, not these arrays (most of the struct). */
	struct v2x_wave_ext ext[V2X_WSMP_MAX_EXT];  /* N-header or v2 header elements */
	struct v2x_wave_ext text[V2X_WSMP_MAX_EXT]; /* T-header extensions */
};

#define V2X_WSMP_HEAD_SIZE offsetof(struct v2x_wsmp, ext)

/* 0 on success (payload may still be truncated: see wsmp->truncated);
 * -1 with *why and w->error / w->error_off when no WSMP header could be read. The fields
 * read before the error are set. */
int v2x_wsmp_parse(const uint8_t *buf, size_t len, struct v2x_wsmp *w, const char **why);
/* Writes n (< 16384) in the 1609.3 Length/Count form into out[2]; returns 1 or 2. */
unsigned v2x_wsmp_count_encode(size_t n, uint8_t out[2]);

#endif
