/* The benchmark's baseline: a bare libpcap read loop over a capture (every frame read,
 * its first octet touched), i.e. the fastest any tool built on libpcap can go. */
#define _DEFAULT_SOURCE /* pcap.h uses the BSD u_int/u_char types, hidden by -std=c11 */
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	char err[PCAP_ERRBUF_SIZE];
	if (argc != 2) {
		fprintf(stderr, "usage: pcaploop FILE\n");
		return 2;
	}
	pcap_t *p = pcap_open_offline(argv[1], err);
	if (!p) {
		fprintf(stderr, "pcaploop: %s\n", err);
		return 1;
	}
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t frames = 0, bytes = 0, sum = 0;
	int r;
	while ((r = pcap_next_ex(p, &h, &data)) == 1) {
		frames++;
		bytes += h->caplen;
		sum += h->caplen ? data[0] : 0;
	}
	if (r == PCAP_ERROR)
		fprintf(stderr, "pcaploop: %s\n", pcap_geterr(p));
	pcap_close(p);
	printf("frames %" PRIu64 " bytes %" PRIu64 " checksum %" PRIu64 "\n", frames, bytes, sum);
	return r == PCAP_ERROR;
}
