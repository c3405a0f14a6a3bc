/* libFuzzer harness over the IEEE 1609.2 Ieee1609Dot2Data envelope (lib/ieee1609dot2.c,
 * COER): the payload it hands on to J2735 must lie inside the input. */
#include <stddef.h>
#include <stdint.h>

#include "ieee1609dot2.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct v2x_dot2 d;
	const char *why = NULL;
	if (v2x_dot2_parse(data, size, &d, &why) < 0) {
		if (!why)
			__builtin_trap(); /* a failure must say why */
		return 0;
	}
	if (d.payload_len && (d.payload < data || d.payload + d.payload_len > data + size))
		__builtin_trap();
	(void)v2x_dot2_content_name(d.content);
	return 0;
}
