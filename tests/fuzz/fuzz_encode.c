/* libFuzzer harness over the J2735 encoder through the public API (<v2x/encode.h>): the
 * first octet 0 makes the rest a UPER MessageFrame, decoded to the JSON the encoder is
 * given (v2x_decode_json); any other first octet makes the rest JSON text itself (the
 * JSON reader's hostile input). Whatever encodes is decoded and encoded again, and must
 * give the same octets: the encoder's output is canonical, so it is its own fixpoint. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <v2x/v2x.h>

static struct v2x_decoder *dec;
static struct v2x_encoder *enc;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char errbuf[V2X_ERRBUF_SIZE];
	if (!dec && (!(dec = v2x_decoder_open(errbuf)) || !(enc = v2x_encoder_open(errbuf))))
		__builtin_trap();
	if (size < 1)
		return 0;
	const char *json = (const char *)data + 1;
	size_t len = size - 1;
	if (data[0] == 0 && v2x_decode_json(dec, data + 1, size - 1, 0, &json, &len) != V2X_OK)
		return 0;
	struct v2x_encoded m = {.size = sizeof(m)};
	int rc = v2x_encode_json(enc, json, len, &m);
	if (rc != V2X_OK) {
		if (!v2x_encoder_geterr(enc)[0]) /* a failure says why */
			__builtin_trap();
		return 0;
	}
	uint8_t *first = malloc(m.len);
	if (!first)
		return 0;
	memcpy(first, m.octets, m.len);
	size_t first_len = m.len;
	if (v2x_decode_json(dec, first, first_len, 0, &json, &len) != V2X_OK)
		__builtin_trap(); /* what the encoder wrote must decode */
	if (v2x_encode_json(enc, json, len, &m) != V2X_OK || m.len != first_len ||
	    memcmp(m.octets, first, first_len) != 0)
		__builtin_trap();
	free(first);
	return 0;
}
