/* libFuzzer harness over the whole libv2x frame pipeline: the first input octet picks the
 * link type, the rest is the frame. Any over-read, overflow or UB is a finding. */
#include <stddef.h>
#include <stdint.h>

#include "frame.h"

/* The order is the seed format: make_seeds() in run_fuzz.py writes the same index
 * before each frame. */
static const int linktypes[] = {V2X_LINK_RADIOTAP, V2X_LINK_IEEE80211, V2X_LINK_ETHERNET,
				V2X_LINK_LINUX_SLL, V2X_LINK_LINUX_SLL2, V2X_LINK_UPPER_PDU,
				V2X_LINK_WYDOT, V2X_LINK_RSU_TEXT};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int lt = linktypes[data[0] % (sizeof(linktypes) / sizeof(linktypes[0]))];
	struct v2x_frame f;
	if (v2x_frame_parse(lt, data + 1, size - 1, &f) < 0 && !f.error)
		__builtin_trap(); /* a failure must say why */
	(void)v2x_layer_name(f.error_layer);
	return 0;
}
