/* libFuzzer harness over the capture reader (lib/capture/capreader.c): the input is a whole
 * file, pcap or pcapng, read to the end with every frame touched. Any over-read, overflow,
 * UB, leak or hang is a finding; an error must say why. */
#define _GNU_SOURCE /* memfd_create */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capreader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("capture", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		__builtin_trap();
	char name[64], err[256] = "";
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	/* a small buffer, so records cross refills */
	struct v2x_capreader *r = v2x_capreader_open(name, 256, err, sizeof(err));
	close(fd);
	if (!r) {
		if (!err[0])
			__builtin_trap();
		return 0;
	}
	struct v2x_record rec;
	enum v2x_rd_result res;
	volatile uint8_t sink = 0;
	while ((res = v2x_capreader_next(r, &rec)) != V2X_RD_END) {
		if (res == V2X_RD_ERROR) {
			if (!v2x_capreader_error(r)[0])
				__builtin_trap();
			continue;
		}
		if (rec.caplen)
			sink ^= rec.data[0] ^ rec.data[rec.caplen - 1];
	}
	(void)sink;
	v2x_capreader_close(r);
	return 0;
}
