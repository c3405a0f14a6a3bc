/* Counts the J2735 message types in captures, as `v2xcap stats` does in its "by type"
 * table: libv2x's capture reader, every frame parsed, the MessageFrame's id looked up.
 *   count_types CAPTURE...
 * Build against the installed library: cc count_types.c $(pkg-config --cflags --libs v2x) */
#include <stdio.h>

#include <v2x/v2x.h>

int main(int argc, char **argv)
{
	static unsigned long count[256], other;
	int status = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: count_types CAPTURE...\n");
		return 2;
	}
	for (int a = 1; a < argc; a++) {
		char errbuf[V2X_ERRBUF_SIZE];
		struct v2x_capture *c = v2x_capture_open(argv[a], errbuf);
		if (!c) {
			fprintf(stderr, "count_types: %s\n", errbuf);
			status = 1;
			continue;
		}
		const struct v2x_frame *f;
		int r;
		while ((r = v2x_capture_next(c, NULL, &f)) != 0) {
			struct v2x_frame_info info = {.size = sizeof(info)};
			if (r < 0) { /* a bad record: said, and the rest is read */
				fprintf(stderr, "count_types: %s\n", v2x_capture_geterr(c));
				status = 1;
			} else if (v2x_frame_get_info(f, &info) == V2X_OK && info.has_message_id) {
				if (info.message_id < 256)
					count[info.message_id]++;
				else
					other++;
			}
		}
		v2x_capture_close(c);
	}
	for (unsigned id = 0; id < 256; id++)
		if (count[id]) {
			const char *name = v2x_message_name(id);
			printf("%s %lu\n", name ? name : "unknown", count[id]);
		}
	if (other)
		printf("unknown %lu\n", other);
	return status;
}
