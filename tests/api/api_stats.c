/* A program of the public API only (<v2x/v2x.h>, linked to libv2x.so): statistics and the
 * priority classification as an application uses them, checked against `v2xcap stats`
 * by tests/api/check_stats.py.
 *   api_stats CAPTURE   v2x_stats_json's document, then a line {"priority_of": {KIND: n}}:
 *                       the frames v2x_priority_of gives each kind
 * Errors on stderr; exit 1 when the capture cannot be opened or a call fails. */
#include <stdio.h>

#include <v2x/v2x.h>

int main(int argc, char **argv)
{
	char errbuf[V2X_ERRBUF_SIZE];
	if (argc != 2) {
		fprintf(stderr, "usage: api_stats CAPTURE\n");
		return 2;
	}
	struct v2x_stats *s = v2x_stats_new(errbuf);
	struct v2x_capture *c = s ? v2x_capture_open(argv[1], errbuf) : NULL;
	if (!c) {
		fprintf(stderr, "api_stats: %s\n", errbuf);
		v2x_stats_free(s);
		return 1;
	}
	unsigned long long kinds[V2X_PRIO_N] = {0};
	const struct v2x_record *rec;
	const struct v2x_frame *f;
	int r, rc = 0;
	while ((r = v2x_capture_next(c, &rec, &f)) != 0) {
		struct v2x_priority p = {.size = sizeof(p)};
		if (r < 0)
			continue; /* a bad record: v2xcap stats does not count it either */
		if (v2x_stats_add(s, argv[1], rec, f) < 0 || v2x_priority_of(f, &p) < 0) {
			fprintf(stderr, "api_stats: %s\n", v2x_stats_geterr(s));
			rc = 1;
		}
		for (int k = 0; k < V2X_PRIO_N; k++)
			kinds[k] += p.kinds >> k & 1;
	}
	const char *json;
	size_t len;
	if (v2x_stats_json(s, &json, &len) < 0) {
		fprintf(stderr, "api_stats: %s\n", v2x_stats_geterr(s));
		rc = 1;
	} else {
		fwrite(json, 1, len, stdout);
	}
	printf("{\"priority_of\": {");
	for (int k = 0; k < V2X_PRIO_N; k++)
		printf("%s\"%s\": %llu", k ? ", " : "", v2x_priority_kind_name(k), kinds[k]);
	printf("}}\n");
	v2x_capture_close(c);
	v2x_stats_free(s);
	return rc;
}
