/* <v2x/encode.h> as an application meets it: asn1_codec's BSM decoded to JSON and encoded
 * back to its own octets, an edit that changes them (and the first bit that differs), the
 * errors of a bad value, and arguments the encoder does not take.
 *   api_encode VECTORS_DIR */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <v2x/v2x.h>

static int failures;
#define CHECK(c)                                                              \
	do {                                                                  \
		if (!(c)) {                                                   \
			fprintf(stderr, "%s:%d: CHECK(%s)\n", __FILE__, __LINE__, #c); \
			failures++;                                           \
		}                                                             \
	} while (0)

/* json with its first occurrence of from replaced by to (the caller frees it). */
static char *edited(const char *json, const char *from, const char *to)
{
	const char *at = strstr(json, from);
	if (!at)
		return NULL;
	size_t head = (size_t)(at - json), n = strlen(json) - strlen(from) + strlen(to);
	char *s = malloc(n + 1);
	if (s)
		snprintf(s, n + 1, "%.*s%s%s", (int)head, json, to, at + strlen(from));
	return s;
}

int main(int argc, char **argv)
{
	char errbuf[V2X_ERRBUF_SIZE], path[512];
	if (argc != 2)
		return 2;
	snprintf(path, sizeof(path), "%s/asn1_codec/j2735.MessageFrame.Bsm.uper", argv[1]);
	FILE *in = fopen(path, "rb");
	if (!in) {
		printf("SKIP: %s: not there\n", path);
		return 77;
	}
	uint8_t bsm[512];
	size_t n = fread(bsm, 1, sizeof(bsm), in);
	fclose(in);
	struct v2x_decoder *d = v2x_decoder_open(errbuf);
	struct v2x_encoder *e = v2x_encoder_open(errbuf);
	CHECK(d && e);
	if (!d || !e)
		return 1;
	const char *json;
	size_t len;
	CHECK(v2x_decode_json(d, bsm, n, V2X_JSON_OCTETS, &json, &len) == V2X_OK);
	struct v2x_encoded m = {.size = sizeof(m)};
	if (!v2x_decoder_edition(d)) { /* built without a schema */
		CHECK(v2x_encode_json(e, json, len, &m) == V2X_ENOTSUP);
		CHECK(strstr(v2x_encoder_geterr(e), "-DJ2735_ASN1_DIR"));
		printf("SKIP: no J2735 schema built: encoding refused, as it should be\n");
		return failures ? 1 : 77;
	}
	char *line = strdup(json);
	CHECK(v2x_encode_json(e, line, len, &m) == V2X_OK);
	CHECK(m.message_id == 20 && m.len == n && memcmp(m.octets, bsm, n) == 0);
	CHECK(m.has_received && m.same_as_received);

	/* speed 0 -> 1: the octets differ at the speed's last bit */
	char *faster = edited(line, "\"speed\":0,", "\"speed\":1,");
	CHECK(faster && v2x_encode_json(e, faster, strlen(faster), &m) == V2X_OK);
	CHECK(m.has_received && !m.same_as_received && m.first_different_bit > 100 &&
	      m.first_different_bit < 8 * n);
	CHECK(m.octets[m.first_different_bit / 8] != bsm[m.first_different_bit / 8]);
	free(faster);

	/* the j2735 object alone, by name, without the received octets */
	const char *bare = "{\"name\":\"BSM\",\"value\":{\"coreData\":{}}}";
	CHECK(v2x_encode_json(e, bare, strlen(bare), &m) == V2X_EFORMAT);
	CHECK(strcmp(v2x_encoder_geterr(e), ".value.coreData: missing member \"msgCnt\" "
					     "(mandatory in BSMcoreData)") == 0);
	char *slow = edited(line, "\"speed\":0,", "\"speed\":8192,");
	CHECK(slow && v2x_encode_json(e, slow, strlen(slow), &m) == V2X_EFORMAT);
	CHECK(strcmp(v2x_encoder_geterr(e), ".value.coreData.speed: 8192 is outside 0..8191") == 0);
	free(slow);
	CHECK(v2x_encode_json(e, "{\"messageId\":20,", 16, &m) == V2X_EFORMAT);
	CHECK(strncmp(v2x_encoder_geterr(e), "not JSON: at offset 16", 22) == 0);
	CHECK(v2x_encode_json(e, line, len, &m) == V2X_OK && !v2x_encoder_geterr(e)[0]);

	/* arguments */
	CHECK(v2x_encode_json(NULL, line, len, &m) == V2X_EINVAL);
	CHECK(v2x_encode_json(e, NULL, len, &m) == V2X_EINVAL);
	CHECK(v2x_encode_json(e, line, len, NULL) == V2X_EINVAL);
	struct v2x_encoded small = {.size = 8};
	CHECK(v2x_encode_json(e, line, len, &small) == V2X_EINVAL);
	CHECK(!v2x_encoder_open(NULL));
	CHECK(v2x_encoder_geterr(NULL)[0] == '\0');
	free(line);
	v2x_encoder_close(e);
	v2x_encoder_close(NULL);
	v2x_decoder_close(d);
	if (!failures)
		printf("ok\n");
	return failures ? 1 : 0;
}
