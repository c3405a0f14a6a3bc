/* The JSON line `v2xcap decode` writes for one frame: one writer shared by its sequential
 * loop, its threads, the sinks (Kafka, partitioned files), `decode --hex` and the public
 * API (<v2x/j2735.h>, decoder.c). */
#ifndef V2X_DECODE_LINE_H
#define V2X_DECODE_LINE_H

#include <stdbool.h>
#include <stdint.h>

#include "capfile.h"
#include "frame.h"
#include "json.h"

struct v2x_decoded {
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
 * ("j2735"."octets", and "trailing" for what follows it); the public V2X_JSON_OCTETS. */
enum { V2X_DECODE_OCTETS = 1 };

/* Writes the frame's JSON line (when it holds a J2735 message) to w and describes it in
 * *d; flags: V2X_DECODE_*; nothing on stderr (the caller reports d->why in its output
 * order). Thread-safe. */
void v2x_decode_line(struct json_writer *w, const struct v2x_capframe *fr, unsigned flags,
		     struct v2x_decoded *d);

/* The parts of a line, for a message without a capture around it (`decode --hex`): the
 * 1609.2 summary, and the "j2735" member, false when the message is malformed (*why
 * says how). */
void v2x_decode_write_dot2(struct json_writer *w, const struct v2x_dot2 *d);
bool v2x_decode_write_j2735(struct json_writer *w, const struct v2x_frame *f, unsigned flags,
			    const char **why);
/* The "j2735" member's value alone: {"messageId", "name", "value", ...}. */
bool v2x_decode_write_message(struct json_writer *w, const struct v2x_frame *f,
			      unsigned flags, const char **why);

#endif
