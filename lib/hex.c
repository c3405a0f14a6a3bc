/* Hex text to octets (see hex.h). */
#include "hex.h"

long v2x_hex_decode(const char *s, size_t n, uint8_t *out, size_t cap, size_t *at)
{
	size_t len = 0;
	int hi = -1;
	for (size_t i = 0; i < n; i++) {
		int v = v2x_hex_digit((unsigned char)s[i]);
		if (v < 0) {
			if (s[i] == ' ' || s[i] == ':' || (s[i] >= '\t' && s[i] <= '\r'))
				continue;
			*at = i;
			return -1;
		}
		if (hi < 0) {
			hi = v;
		} else if (len == cap) {
			*at = n;
			return -1;
		} else {
			out[len++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	if (hi >= 0) {
		*at = n;
		return -1;
	}
	return (long)len;
}
