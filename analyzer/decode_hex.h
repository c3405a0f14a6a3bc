/* `v2xcap decode --hex` / `--raw`: messages without a capture around them. */
#ifndef V2XCAP_DECODE_HEX_H
#define V2XCAP_DECODE_HEX_H

#include <stdbool.h>

#include "frame.h"
#include "json.h"

/* PATH ("-": stdin) holds one message per line in hex (raw false) or one binary
 * message (raw true); each becomes one JSON line as `decode` writes for a frame, without
 * the link fields, "frame" being the line number; flags: V2XCAP_DECODE_*. Returns the
 * exit code. */
int decode_messages(const char *path, bool raw, bool strict, unsigned flags);

/* cmd_decode.c's writers of a frame's 1609.2 summary and J2735 message, shared. */
void decode_write_dot2(struct json_writer *w, const struct v2x_dot2 *d);
bool decode_write_j2735(struct json_writer *w, const struct v2x_frame *f, unsigned flags,
			const char **why);

#endif
