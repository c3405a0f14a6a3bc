/* libFuzzer harness over the whole v2xcap frame path: the first octet picks the link type
 * (as in fuzz_frame), the rest is a frame, written twice (100 ms apart, so that the second
 * meets the per-sender state of the first) into a pcap file; then `v2xcap stats --decode
 * --format json`, `v2xcap decode` and `v2xcap dump` read it, through
 * v2xcap's own main(). Their output goes to /dev/null (run with -close_fd_mask=3 to drop
 * the per-frame error lines too). Any sanitizer report, leak or an exit status other than
 * 0/1 is a finding. */
#define _GNU_SOURCE /* memfd_create */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "frame.h"

int v2xcap_main(int argc, char **argv); /* analyzer/main.c, renamed for the harness */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int linktypes[] = {V2X_LINK_RADIOTAP, V2X_LINK_IEEE80211, V2X_LINK_ETHERNET,
				V2X_LINK_LINUX_SLL, V2X_LINK_LINUX_SLL2, V2X_LINK_UPPER_PDU};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	if (!freopen("/dev/null", "w", stdout))
		__builtin_trap();
	return 0;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4); /* host order: the magic says which */
}

static void run(char *const args[], int n)
{
	optind = 0; /* getopt's state, fully reset (glibc) as each call is a new process */
	int rc = v2xcap_main(n, (char **)args);
	if (rc != 0 && rc != 1)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 65536)
		return 0;
	uint32_t lt = (uint32_t)linktypes[data[0] % (sizeof(linktypes) / sizeof(linktypes[0]))];
	uint32_t n = (uint32_t)(size - 1);
	uint8_t head[24] = {0};
	put32(head, 0xa1b2c3d4);
	const uint16_t version[2] = {2, 4};
	memcpy(head + 4, version, sizeof(version));
	put32(head + 16, 65535);
	put32(head + 20, lt);
	int fd = memfd_create("capture", 0);
	if (fd < 0 || write(fd, head, sizeof(head)) != (ssize_t)sizeof(head))
		__builtin_trap();
	for (uint32_t usec = 0; usec <= 100000; usec += 100000) {
		uint8_t rec[16];
		put32(rec, 1700000000), put32(rec + 4, usec), put32(rec + 8, n), put32(rec + 12, n);
		if (write(fd, rec, sizeof(rec)) != (ssize_t)sizeof(rec) ||
		    write(fd, data + 1, n) != (ssize_t)n)
			__builtin_trap();
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	char *stats[] = {"v2xcap", "stats", "--decode", "--format", "json", path, NULL};
	char *decode[] = {"v2xcap", "decode", path, NULL};
	char *dump[] = {"v2xcap", "dump", path, NULL};
	run(stats, 6);
	run(decode, 3);
	run(dump, 3);
	close(fd);
	return 0;
}
