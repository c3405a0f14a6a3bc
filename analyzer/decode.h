/* The JSON line `v2xcap decode` writes for one frame, shared by its sequential loop, the
 * threads of decode_parallel.c and the sinks (Kafka, partitioned files). */
#ifndef V2XCAP_DECODE_H
#define V2XCAP_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "capfile.h"
#include "json.h"

struct v2xcap_decoded {
	/* A malformed frame or message, for v2xcap_readerr_frame(); why is NULL when the
	 * frame is sound. Static strings. */
	const char *layer, *why;
	bool has_json;          /* a J2735 message: one JSON line was written */
	uint32_t msg_id;
	bool has_bsm_id, has_src;
	uint32_t bsm_id;        /* the BSM's TemporaryID */
	uint8_t src[6];         /* the sender's MAC */
};

/* What a line carries besides the decode: the MessageFrame as received, in hex
 * ("j2735"."octets", and "trailing" for what follows it) */
enum { V2XCAP_DECODE_OCTETS = 1 };

/* Writes the frame's JSON line (when it holds a J2735 message) to w and describes it in
 * *d; flags: V2XCAP_DECODE_*; nothing on stderr (the caller reports d->why in its output
 * order). Thread-safe. */
void v2xcap_decode_frame(struct json_writer *w, const struct v2x_capframe *fr,
		      unsigned flags, struct v2xcap_decoded *d);

#endif
