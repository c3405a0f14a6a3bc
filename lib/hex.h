/* Hex text: what the tools read from command lines, vector files, jpo-ode logs, RSU
 * records and stdin lines. */
#ifndef V2X_HEX_H
#define V2X_HEX_H

#include <stddef.h>
#include <stdint.h>

/* 0..15 for a hex digit of either case, -1 for anything else. */
static inline int v2x_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The hex digits of s[0..n) into out (room for cap octets); whitespace and ':' are
 * skipped. The octet count, or -1 with *at the offset of the first other character, or
 * n for an odd number of digits or more than cap octets. */
long v2x_hex_decode(const char *s, size_t n, uint8_t *out, size_t cap, size_t *at);

#endif
