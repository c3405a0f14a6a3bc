/* libFuzzer harness over the WSMP parser alone (lib/wsmp.c): N-header and T-header WAVE
 * elements, PSID and length of v3 and legacy v2. WSAs are parsed only in the Wireshark
 * plugin (plugins/epan/wsmp), not in libv2x: their WSMP header is what this reaches.
 * Every pointer and count handed out must stay inside the input. */
#include <stddef.h>
#include <stdint.h>

#include "wsmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_ext(const struct v2x_wave_ext *e, const uint8_t *data, size_t size)
{
	if (e->len && (e->value < data || e->value + e->len > data + size))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct v2x_wsmp w;
	const char *why = NULL;
	if (v2x_wsmp_parse(data, size, &w, &why) < 0) {
		if (!why)
			__builtin_trap(); /* a failure must say why */
		return 0;
	}
	if (w.hdr_len > size || w.n_ext > V2X_WSMP_MAX_EXT || w.n_text > V2X_WSMP_MAX_EXT ||
	    w.payload_len > w.length || w.payload < data ||
	    w.payload + w.payload_len > data + size ||
	    w.payload + w.payload_len + w.trailing != data + size)
		__builtin_trap();
	for (unsigned i = 0; i < w.n_ext; i++)
		check_ext(&w.ext[i], data, size);
	for (unsigned i = 0; i < w.n_text; i++)
		check_ext(&w.text[i], data, size);
	return 0;
}
