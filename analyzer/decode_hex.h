/* `v2xcap decode --hex` / `--raw`: messages without a capture around them. */
#ifndef V2XCAP_DECODE_HEX_H
#define V2XCAP_DECODE_HEX_H

#include <stdbool.h>

#include "frame.h"
#include "json.h"

/* PATH ("-": stdin) holds one message per line in hex (raw false) or one binary
 * message (raw true); each becomes one JSON line as `decode` writes for a frame, without
 * the link fields, "frame" being the line number; flags: V2X_DECODE_*. Returns the
 * exit code. */
int decode_messages(const char *path, bool raw, bool strict, unsigned flags);

#endif
