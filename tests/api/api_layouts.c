/* The values and struct layouts of the public headers that the Python module (python/v2x)
 * restates in ctypes, for tests/api/test_layouts.py. A line per fact:
 *   NAME VALUE                 a constant
 *   struct NAME SIZE           a struct's size, then each member in order:
 *   NAME.MEMBER OFFSET SIZE */
#include <stddef.h>
#include <stdio.h>

#include <v2x/v2x.h>

#define CONSTANT(c) printf("%s %lld\n", #c, (long long)(c))
#define STRUCT(s) printf("struct %s %zu\n", #s, sizeof(struct s))
#define MEMBER(s, m) \
	printf("%s.%s %zu %zu\n", #s, #m, offsetof(struct s, m), sizeof(((struct s *)0)->m))

int main(void)
{
	CONSTANT(V2X_ERRBUF_SIZE);
	CONSTANT(V2X_OK);
	CONSTANT(V2X_EFORMAT);
	CONSTANT(V2X_EINVAL);
	CONSTANT(V2X_EIO);
	CONSTANT(V2X_ENOMEM);
	CONSTANT(V2X_ENOTSUP);
	CONSTANT(V2X_EAGAIN);
	CONSTANT(V2X_JSON_OCTETS);
	CONSTANT(V2X_LIVE_ALL);
	CONSTANT(V2X_LIVE_NONBLOCK);

	STRUCT(v2x_record);
	MEMBER(v2x_record, number);
	MEMBER(v2x_record, ts_ns);
	MEMBER(v2x_record, linktype);
	MEMBER(v2x_record, caplen);
	MEMBER(v2x_record, origlen);
	MEMBER(v2x_record, data);

	STRUCT(v2x_visitor);
	MEMBER(v2x_visitor, size);
	MEMBER(v2x_visitor, key);
	MEMBER(v2x_visitor, open);
	MEMBER(v2x_visitor, close);
	MEMBER(v2x_visitor, integer);
	MEMBER(v2x_visitor, text);
	MEMBER(v2x_visitor, octets);
	MEMBER(v2x_visitor, boolean);
	MEMBER(v2x_visitor, null);
	MEMBER(v2x_visitor, number);
	MEMBER(v2x_visitor, uinteger);

	STRUCT(v2x_capture_stats);
	MEMBER(v2x_capture_stats, size);
	MEMBER(v2x_capture_stats, seen);
	MEMBER(v2x_capture_stats, handed_out);
	MEMBER(v2x_capture_stats, received);
	MEMBER(v2x_capture_stats, dropped_kernel);
	MEMBER(v2x_capture_stats, dropped_interface);
	return 0;
}
