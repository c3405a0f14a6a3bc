/* libFuzzer harness over libv2x's public API as an application calls it (<v2x/v2x.h>):
 * the input as fuzz_frame's (the first octet picks the link type, the rest is the frame)
 * through v2x_frame_parse, then as a bare message through v2x_message_parse; each time
 * v2x_frame_get_info (whole and an older caller's short struct) and v2x_frame_message,
 * every string and octet they hand out read; then the J2735 decoder's JSON of the record
 * (v2x_decode_record_json) and of the bare message (v2x_decode_json), its length checked;
 * the frame's priority (v2x_priority_of, its flag names) and the frame counted into
 * statistics, whose JSON document is written every 64 inputs. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <v2x/v2x.h>

/* fuzz_frame's order: run_fuzz.py writes the same index before each seed frame */
static const int linktypes[] = {V2X_LINK_RADIOTAP, V2X_LINK_IEEE80211, V2X_LINK_ETHERNET,
				V2X_LINK_LINUX_SLL, V2X_LINK_LINUX_SLL2, V2X_LINK_UPPER_PDU,
				V2X_LINK_WYDOT, V2X_LINK_RSU_TEXT};

static volatile size_t sink;

static void touch(const char *s)
{
	if (s)
		sink += strlen(s);
}

static void read_out(const struct v2x_frame *f, int rc)
{
	struct v2x_frame_info i = {.size = sizeof(i)};
	if (v2x_frame_get_info(f, &i) != V2X_OK)
		__builtin_trap();
	if ((rc == V2X_EFORMAT) != (i.error != NULL)) /* a failure says why, only then */
		__builtin_trap();
	touch(i.error);
	touch(i.llc);
	touch(i.encap);
	touch(i.dot2_content);
	touch(i.message_name);
	touch(v2x_layer_name(i.error_layer));
	touch(v2x_psid_name(i.wsmp_psid));
	size_t len;
	const uint8_t *m = v2x_frame_message(f, &len);
	for (size_t k = 0; m && k < len; k++)
		sink += m[k];
	struct v2x_frame_info old = {.size = offsetof(struct v2x_frame_info, has_src)};
	if (v2x_frame_get_info(f, &old) != V2X_OK || old.layer != i.layer)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	static struct v2x_frame *f;
	if (!f && !(f = v2x_frame_new()))
		__builtin_trap();
	int lt = linktypes[data[0] % (sizeof(linktypes) / sizeof(linktypes[0]))];
	read_out(f, v2x_frame_parse(lt, data + 1, size - 1, f));
	read_out(f, v2x_message_parse(data + 1, size - 1, f));

	static struct v2x_decoder *d;
	char errbuf[V2X_ERRBUF_SIZE];
	if (!d && !(d = v2x_decoder_open(errbuf)))
		__builtin_trap();
	const struct v2x_record rec = {1, 0, lt, (uint32_t)(size - 1), (uint32_t)(size - 1),
				       data + 1};
	const char *json;
	size_t len;
	int r = v2x_decode_record_json(d, "fuzz", &rec, V2X_JSON_OCTETS, &json, &len);
	if ((r == 1 || r == V2X_EFORMAT) != (json != NULL) || (json && strlen(json) != len))
		__builtin_trap();
	r = v2x_decode_json(d, data + 1, size - 1, V2X_JSON_OCTETS, &json, &len);
	if ((r == V2X_OK) && (!json || strlen(json) != len))
		__builtin_trap();
	touch(v2x_decoder_geterr(d));

	static struct v2x_stats *st;
	static unsigned n;
	if (!st && !(st = v2x_stats_new(errbuf)))
		__builtin_trap();
	v2x_frame_parse(lt, data + 1, size - 1, f);
	struct v2x_priority p = {.size = sizeof(p)};
	char events[256];
	if (v2x_priority_of(f, &p) < 0 || v2x_priority_events_text(p.events, events, sizeof(events)))
		__builtin_trap();
	touch(events);
	if (v2x_stats_add(st, "fuzz", &rec, f) != V2X_OK)
		__builtin_trap();
	if (++n % 64 == 0 && (v2x_stats_json(st, &json, &len) != V2X_OK || strlen(json) != len))
		__builtin_trap();
	return 0;
}
