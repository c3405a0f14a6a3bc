/* Messages as jpo-ode and asn1_codec tools exchange them: UPER MessageFrames or 1609.2
 * messages, one per line in hex, or one in a binary file. The message layer is found by
 * libv2x (v2x_message_parse); the JSON is decode's. */
#include "decode_hex.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode_line.h"
#include "hex.h"

/* The next line of in (its newline kept) in *line, grown as needed: its length, or 0 at
 * the end of the input (fgets: getline is not on every platform this builds for). */
static size_t read_line(FILE *in, char **line, size_t *cap)
{
	size_t len = 0;
	for (;;) {
		if (*cap - len < 2) {
			size_t ncap = *cap ? 2 * *cap : 256;
			char *l = realloc(*line, ncap);
			if (!l)
				return len;
			*line = l;
			*cap = ncap;
		}
		if (!fgets(*line + len, (int)(*cap - len), in))
			return len;
		len += strlen(*line + len);
		if ((*line)[len - 1] == '\n')
			return len;
	}
}

/* One message's JSON line; false when it is malformed (reported on stderr). */
static bool decode_one(struct json_writer *w, const char *path, unsigned long n,
		       const uint8_t *buf, size_t len, unsigned flags)
{
	struct v2x_frame f;
	int r = v2x_message_parse(buf, len, &f);
	const char *why = NULL;
	json_begin_object(w);
	json_string_field(w, "file", path);
	json_uint_field(w, "frame", n);
	if (r < 0) {
		char msg[160];
		snprintf(msg, sizeof msg, "%s: %s", v2x_layer_name(f.error_layer), f.error);
		json_string_field(w, "error", msg);
		why = f.error;
	}
	if (f.has_dot2)
		v2x_decode_write_dot2(w, &f.dot2);
	const char *bad = NULL;
	if (f.layer == V2X_LAYER_J2735 && !v2x_decode_write_j2735(w, &f, flags, &bad) && !why)
		why = bad;
	json_end_object(w);
	json_end_line(w);
	if (why) {
		json_flush(w);
		fflush(stdout);
		fprintf(stderr, "v2xcap decode: %s: %s %lu: %s\n", path, len ? "line" : "empty line",
			n, why);
	}
	return !why;
}

int decode_messages(const char *path, bool raw, bool strict, unsigned flags)
{
	bool std_in = !strcmp(path, "-");
	FILE *in = std_in ? stdin : fopen(path, "rb");
	if (!in) {
		fprintf(stderr, "v2xcap decode: %s: %s\n", path, strerror(errno));
		return V2XCAP_EXIT_FAILURE;
	}
	struct json_writer w;
	json_init(&w, stdout);
	char *line = NULL;
	size_t cap = 0;
	size_t got;
	unsigned long n = 0, bad = 0;
	uint8_t *buf = NULL;
	if (raw) { /* the whole file is one message */
		size_t len = 0, size = 0;
		for (;;) {
			if (len == size) {
				size = size ? 2 * size : 4096;
				uint8_t *b = realloc(buf, size);
				if (!b)
					break;
				buf = b;
			}
			size_t k = fread(buf + len, 1, size - len, in);
			len += k;
			if (k == 0)
				break;
		}
		bad += !decode_one(&w, path, 1, buf, len, flags);
	} else {
		while ((got = read_line(in, &line, &cap)) > 0) {
			n++;
			const char *p = line;
			while (isspace((unsigned char)*p))
				p++;
			if (!*p || *p == '#') /* blank lines and comments */
				continue;
			uint8_t *b = realloc(buf, got / 2 + 1);
			if (!b)
				break;
			buf = b;
			size_t at;
			long k = v2x_hex_decode(p, strlen(p), buf, got / 2 + 1, &at);
			if (k < 0) {
				json_flush(&w);
				fflush(stdout);
				fprintf(stderr, "v2xcap decode: %s: line %lu: not hex\n", path, n);
				bad++;
				continue;
			}
			bad += !decode_one(&w, path, n, buf, (size_t)k, flags);
		}
	}
	int rc = ferror(in) ? V2XCAP_EXIT_FAILURE : V2XCAP_EXIT_OK;
	if (rc)
		fprintf(stderr, "v2xcap decode: %s: read error\n", path);
	json_flush(&w);
	free(line);
	free(buf);
	if (!std_in)
		fclose(in);
	if (bad && strict)
		rc = V2XCAP_EXIT_FAILURE;
	if (ferror(stdout)) {
		fprintf(stderr, "v2xcap decode: error writing the output\n");
		rc = V2XCAP_EXIT_FAILURE;
	}
	return rc;
}
