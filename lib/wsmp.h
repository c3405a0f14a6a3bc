/* IEEE 1609.3 WAVE Short Message Protocol: v3 (1609.3-2016/2020) and legacy v2 (2010). */
#ifndef V2X_WSMP_H
#define V2X_WSMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define V2X_WSMP_MAX_EXT 16

struct v2x_wave_ext {
	uint8_t id;
	uint16_t len;
	const uint8_t *value;   /* points into the frame */
	bool known;             /* id in the table of decoded elements */
	int32_t number;         /* decoded value for the known ids:
				 * tx power dBm (v3: value - 128; v2: signed octet),
				 * channel number, data rate (500 kb/s units), channel load */
};

/* The fields before the arrays are ordered to leave no holes: every parse clears them. */
struct v2x_wsmp {
	uint8_t version;        /* 2 or 3 (other values: error) */
	/* v3 N-header */
	uint8_t subtype;
	bool option;
	unsigned n_ext;         /* N-header extensions (v3) or v2 header elements */
	unsigned n_ext_total;   /* as announced; n_ext may be capped at V2X_WSMP_MAX_EXT */
	/* T-header */
	uint8_t tpid;
	bool has_ports;
	uint16_t src_port, dst_port; /* TPID 2/3 */
	uint32_t psid;
	unsigned psid_len;      /* octets of its p-encoding */
	uint8_t psid_raw[4];
	unsigned n_text;        /* T-header extensions (TPID 1/3/5) */
	/* v2 */
	uint8_t wave_element_id; /* 128 WSMP, 129 WSMP-S, 130 WSMP-I */
	/* both */
	bool truncated;         /* length field is larger than what the frame holds */
	uint32_t length;        /* WSM length field */
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
 * -1 with *why when no WSMP header could be read. */
int v2x_wsmp_parse(const uint8_t *buf, size_t len, struct v2x_wsmp *w, const char **why);
/* Writes n (< 16384) in the 1609.3 Length/Count form into out[2]; returns 1 or 2. */
unsigned v2x_wsmp_count_encode(size_t n, uint8_t out[2]);

#endif
