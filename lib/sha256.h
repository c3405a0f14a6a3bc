/* SHA-256 (FIPS 180-4), for IEEE 1609.2's HashedId8 of a certificate: libv2x has no
 * crypto library, and a digest of a few hundred octets per signed frame is all it needs. */
#ifndef V2X_SHA256_H
#define V2X_SHA256_H

#include <stddef.h>
#include <stdint.h>

void v2x_sha256(const uint8_t *data, size_t len, uint8_t out[32]);

#endif
