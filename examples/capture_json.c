/* Writes the JSON line of every J2735 message in a capture, as `v2xcap decode` does:
 * libv2x's capture reader and its decoder (the schema's edition the library was built
 * with; without one, ids and names only).
 *   capture_json CAPTURE
 * Build against the installed library: cc capture_json.c $(pkg-config --cflags --libs v2x) */
#include <stdio.h>

#include <v2x/v2x.h>

int main(int argc, char **argv)
{
	char errbuf[V2X_ERRBUF_SIZE];
	if (argc != 2) {
		fprintf(stderr, "usage: capture_json CAPTURE\n");
		return 2;
	}
	struct v2x_decoder *d = v2x_decoder_open(errbuf);
	struct v2x_capture *c = d ? v2x_capture_open(argv[1], errbuf) : NULL;
	if (!c) {
		fprintf(stderr, "capture_json: %s\n", errbuf);
		v2x_decoder_close(d);
		return 1;
	}
	if (!v2x_decoder_edition(d))
		fprintf(stderr, "capture_json: libv2x was built without a J2735 schema: "
				"message ids and names only\n");
	const struct v2x_record *rec;
	int r;
	while ((r = v2x_capture_next(c, &rec, NULL)) != 0) {
		const char *line = NULL;
		if (r < 0) { /* a bad record: said, and the rest is read */
			fprintf(stderr, "capture_json: %s\n", v2x_capture_geterr(c));
			continue;
		}
		if (v2x_decode_record_json(d, argv[1], rec, 0, &line, NULL) == V2X_EFORMAT)
			fprintf(stderr, "capture_json: %s\n", v2x_decoder_geterr(d));
		if (line) /* a malformed message's line says what is wrong with it */
			fputs(line, stdout);
	}
	v2x_capture_close(c);
	v2x_decoder_close(d);
	return 0;
}
