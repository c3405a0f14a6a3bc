/* A program of the public API only (<v2x/v2x.h>, linked to libv2x.so): one JSON line per
 * frame of a capture, with the keys tests/dump/check_dump.py reads from `v2xcap dump`,
 * so that the same expected values (captures/<name>.expect.json) check both.
 *   api_frames CAPTURE */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <v2x/v2x.h>

static void mac(const char *key, const uint8_t *m)
{
	printf(",\"%s\":\"%02x:%02x:%02x:%02x:%02x:%02x\"", key, m[0], m[1], m[2], m[3], m[4],
	       m[5]);
}

int main(int argc, char **argv)
{
	char errbuf[V2X_ERRBUF_SIZE];
	struct v2x_capture *c = argc == 2 ? v2x_capture_open(argv[1], errbuf) : NULL;
	if (!c) {
		fprintf(stderr, "%s\n", argc == 2 ? errbuf : "usage: api_frames CAPTURE");
		return argc == 2 ? 1 : 2;
	}
	const struct v2x_record *rec;
	const struct v2x_frame *f;
	int r, errors = 0;
	while ((r = v2x_capture_next(c, &rec, &f)) != 0) {
		if (r < 0) {
			fprintf(stderr, "%s (%s)\n", v2x_capture_geterr(c), v2x_strerror(r));
			errors++;
			continue;
		}
		struct v2x_frame_info i = {.size = sizeof(i)};
		if (v2x_frame_get_info(f, &i) != V2X_OK)
			return 1;
		printf("{\"frame\":%" PRIu64 ",\"time_us\":%" PRId64 ",\"linktype\":%d",
		       rec->number, rec->ts_ns / 1000, rec->linktype);
		if (i.has_src)
			mac("src", i.src);
		if (strcmp(i.llc, "epd") == 0 || strcmp(i.llc, "snap") == 0)
			printf(",\"llc\":\"%s\"", i.llc);
		if (i.freq_mhz)
			printf(",\"freq_mhz\":%u", i.freq_mhz);
		if (i.has_signal)
			printf(",\"rssi_dbm\":%d", i.signal_dbm);
		if (strcmp(i.encap, "none") != 0)
			printf(",\"encap\":\"%s\"", i.encap);
		if (i.udp_prefix)
			printf(",\"udp_prefix\":%" PRIu32, i.udp_prefix);
		if (i.has_wsmp) {
			printf(",\"wsmp_version\":%u", i.wsmp_version);
			if (i.has_wsmp_psid)
				printf(",\"psid\":%" PRIu32, i.wsmp_psid);
		}
		if (i.has_dot2)
			printf(",\"dot2\":\"%s\"", i.dot2_content);
		if (i.has_dot2_psid)
			printf(",\"dot2_psid\":%" PRIu32, i.dot2_psid);
		if (i.has_generation_time)
			printf(",\"dot2_generation_time\":%" PRIu64, i.generation_time_us);
		size_t len;
		const uint8_t *mf = v2x_frame_message(f, &len);
		if (i.has_message_id && mf)
			printf(",\"msgid\":%u,\"message_len\":%zu", i.message_id, len);
		if (i.trailing_octets)
			printf(",\"trailing_octets\":%zu", i.trailing_octets);
		if (i.error)
			printf(",\"error\":\"%s: %s\"", v2x_layer_name(i.error_layer), i.error);
		printf("}\n");
	}
	v2x_capture_close(c);
	return errors ? 1 : 0;
}
