/* A program of the public API only (<v2x/v2x.h>, linked to libv2x.so): J2735 decoding as
 * an application does it, checked against `v2xcap decode` by tests/api/check_decode.py.
 *   api_decode [--octets] CAPTURE   v2x_decode_record_json's line for every record
 *   api_decode --walk [--octets] CAPTURE
 *                                   the line rebuilt from v2x_decode_record_walk's visits
 *                                   (a real number with all its digits, not the line's 6)
 *   api_decode --hex FILE           per line of hex: v2x_decode_json's object, then a line
 *                                   {"walk": ...} rebuilt from v2x_decode_walk's visits
 * Errors on stderr; exit 1 when a message did not decode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <v2x/v2x.h>

/* The visits printed as JSON: enough of a writer to compare with "value". */
struct out {
	bool first; /* no comma before the next item */
};
static void sep(struct out *o)
{
	if (!o->first)
		putchar(',');
	o->first = false;
}
static void on_key(void *p, const char *name)
{
	sep(p);
	printf("\"%s\":", name);
	((struct out *)p)->first = true; /* the value follows the colon */
}
static void on_open(void *p, bool array)
{
	sep(p);
	putchar(array ? '[' : '{');
	((struct out *)p)->first = true;
}
static void on_close(void *p, bool array)
{
	putchar(array ? ']' : '}');
	((struct out *)p)->first = false;
}
static void on_integer(void *p, long long v)
{
	sep(p);
	printf("%lld", v);
}
static void on_text(void *p, const char *s, size_t n)
{
	sep(p);
	putchar('"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f) /* an octet is a character (Latin-1) */
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}
static void on_octets(void *p, const uint8_t *s, size_t n)
{
	sep(p);
	putchar('"');
	for (size_t i = 0; i < n; i++)
		printf("%02x", s[i]); /* as the JSON writes OCTET STRINGs */
	putchar('"');
}
static void on_boolean(void *p, bool v)
{
	sep(p);
	fputs(v ? "true" : "false", stdout);
}
static void on_null(void *p)
{
	sep(p);
	fputs("null", stdout);
}
static void on_number(void *p, double v)
{
	char text[40];
	sep(p);
	snprintf(text, sizeof(text), "%.17g", v); /* every digit: read back, it is v */
	fputs(text, stdout);
	if (!strpbrk(text, ".e")) /* still a real number to a JSON parser */
		fputs(".0", stdout);
}
static void on_uinteger(void *p, unsigned long long v)
{
	sep(p);
	printf("%llu", v);
}
static const struct v2x_visitor printer = {sizeof(printer), on_key, on_open, on_close,
					   on_integer, on_text, on_octets, on_boolean, on_null,
					   on_number, on_uinteger};

static int from_hex(const char *s, uint8_t *buf, size_t cap, size_t *len)
{
	size_t n = 0;
	for (; s[0] && s[0] != '\n' && s[0] != '\r'; s += 2) {
		unsigned v;
		if (n == cap || sscanf(s, "%2x", &v) != 1 || !s[1])
			return -1;
		buf[n++] = (uint8_t)v;
	}
	*len = n;
	return 0;
}

static int hex_lines(struct v2x_decoder *d, const char *path)
{
	FILE *in = fopen(path, "r");
	if (!in) {
		perror(path);
		return 1;
	}
	static char line[1 << 17];
	static uint8_t buf[1 << 16];
	int bad = 0;
	for (unsigned long n = 1; fgets(line, sizeof(line), in); n++) {
		size_t len;
		const char *json;
		if (from_hex(line, buf, sizeof(buf), &len) < 0 || len == 0) {
			fprintf(stderr, "%s: line %lu: not hex\n", path, n);
			bad = 1;
			continue;
		}
		int r = v2x_decode_json(d, buf, len, 0, &json, NULL);
		if (r != V2X_OK) {
			fprintf(stderr, "%s: line %lu: %s (%s)\n", path, n, v2x_decoder_geterr(d),
				v2x_strerror(r));
			bad = 1;
		}
		if (json)
			printf("%s\n", json);
		struct out o = {true};
		fputs("{\"walk\":", stdout);
		if (v2x_decode_walk(d, buf, len, &printer, &o) != V2X_OK)
			fputs("null", stdout);
		puts("}");
	}
	fclose(in);
	return bad;
}

int main(int argc, char **argv)
{
	char errbuf[V2X_ERRBUF_SIZE];
	struct v2x_decoder *d = v2x_decoder_open(errbuf);
	if (!d) {
		fprintf(stderr, "%s\n", errbuf);
		return 1;
	}
	int rc;
	bool walk = argc >= 3 && strcmp(argv[1], "--walk") == 0;
	unsigned flags = argc == 3 + walk && strcmp(argv[1 + walk], "--octets") == 0
				 ? V2X_JSON_OCTETS : 0;
	if (argc == 3 && strcmp(argv[1], "--hex") == 0) {
		rc = hex_lines(d, argv[2]);
	} else if (argc == 2 + walk || flags) {
		const char *path = argv[argc - 1];
		struct v2x_capture *c = v2x_capture_open(path, errbuf);
		if (!c) {
			fprintf(stderr, "%s\n", errbuf);
			v2x_decoder_close(d);
			return 1;
		}
		const struct v2x_record *rec;
		int r;
		rc = 0;
		while ((r = v2x_capture_next(c, &rec, NULL)) != 0) {
			const char *json;
			if (r < 0) {
				fprintf(stderr, "%s\n", v2x_capture_geterr(c));
				continue;
			}
			struct out o = {true};
			json = NULL;
			r = walk ? v2x_decode_record_walk(d, path, rec, flags, &printer, &o)
				 : v2x_decode_record_json(d, path, rec, flags, &json, NULL);
			if (walk && (r == 1 || r == V2X_EFORMAT))
				putchar('\n');
			if (r == V2X_EFORMAT) {
				fprintf(stderr, "%s: frame %llu: %s\n", path,
					(unsigned long long)rec->number, v2x_decoder_geterr(d));
				rc = 1;
			}
			if (json)
				fputs(json, stdout);
		}
		v2x_capture_close(c);
	} else {
		fprintf(stderr, "usage: api_decode [--walk] [--octets] CAPTURE | --hex FILE\n");
		rc = 2;
	}
	v2x_decoder_close(d);
	return rc;
}
