/* One captured frame through every layer: link type -> (radiotap) -> 802.11/Ethernet ->
 * WSMP -> IEEE 1609.2 -> J2735 MessageFrame header. The one pipeline v2xcap uses. */
#ifndef V2X_FRAME_H
#define V2X_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ieee1609dot2.h"
#include "ieee80211.h"
#include "j2735.h"
#include "radiotap.h"
#include "wsmp.h"
#include "wydot.h"

/* DLT/LINKTYPE values accepted */
enum {
	V2X_LINK_ETHERNET = 1,
	V2X_LINK_IEEE80211 = 105,
	V2X_LINK_LINUX_SLL = 113,
	V2X_LINK_RADIOTAP = 127,
	V2X_LINK_LINUX_SLL2 = 276,
	V2X_LINK_UPPER_PDU = 252, /* Wireshark's exported PDUs ("j2735", "ieee1609dot3") */
	/* Pseudo link type of v2xcap's reader for WYDOT/JPO ODE log records (wydot.h):
	 * LINKTYPE_USER15, private: parsed, but neither read from a capture file
	 * (v2x_linktype_supported says no) nor written to one. */
	V2X_LINK_WYDOT = 162,
};

#define V2X_ETHERTYPE_WSMP 0x88DC

/* How far parsing got; each level implies the ones before it. */
enum v2x_layer {
	V2X_LAYER_NONE = 0,     /* link layer unreadable or unsupported link type */
	V2X_LAYER_LINK,         /* link header(s) read; not a WSMP frame */
	V2X_LAYER_WSMP,
	V2X_LAYER_DOT2,         /* 1609.2 envelope present and read */
	V2X_LAYER_J2735,        /* MessageFrame header read */
};

struct v2x_frame {
	enum v2x_layer layer;
	bool has_radiotap, has_mac;
	enum v2x_llc llc;
	uint16_t ethertype;
	uint8_t src[6], dst[6];  /* sender / receiver MAC whatever the link type */
	bool has_src;
	bool has_wsmp;          /* a WSMP header was read (wsmp) */
	bool has_wydot;         /* a log record: wydot holds its metadata */
	struct v2x_wydot_rec wydot;
	bool has_dot2;
	bool has_j2735;         /* the payload is taken as J2735 (j2735_basis) */
	enum v2x_j2735_basis j2735_basis;
	/* The first error met (static string), with the layer it happened in;
	 * NULL when every layer present parsed. */
	const char *error;
	enum v2x_layer error_layer;
	/* The layers, each initialised by its own parser and all zeros when not reached.
	 * WSMP is last: its extension arrays, valid up to wsmp.n_ext / n_text, are the one
	 * part of the frame a parse leaves as it was. */
	struct v2x_radiotap rt;
	struct v2x_mac mac;
	struct v2x_dot2 dot2;
	struct v2x_msgframe mf;
	struct v2x_wsmp wsmp;
};

/* Always fills *f as far as it can; returns 0 when nothing was malformed, -1 otherwise
 * (f->error says why). An unsupported link type is an error at V2X_LAYER_NONE. */
int v2x_frame_parse(int linktype, const uint8_t *buf, size_t len, struct v2x_frame *f);
/* The link types read from capture files. */
bool v2x_linktype_supported(int linktype);
const char *v2x_layer_name(enum v2x_layer l);

#endif
