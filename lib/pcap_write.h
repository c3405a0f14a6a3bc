/* pcap (microsecond) and pcapng (one section, one interface, enhanced packet blocks)
 * file encoding, little-endian; the caller writes the octets where it wants them. */
#ifndef V2X_PCAP_WRITE_H
#define V2X_PCAP_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "writer.h"

struct v2x_pcap_conf {
	bool pcapng;
	uint32_t linktype;
	uint32_t snaplen;
	const char *if_name;    /* pcapng if_name option, NULL for none */
	const char *if_desc;    /* pcapng if_description option, NULL for none */
};

/* The pcap file header, or the pcapng section header and interface description blocks. */
void v2x_pcap_write_header(struct v2x_buf *out, const struct v2x_pcap_conf *c);
/* One record (pcap) or enhanced packet block (pcapng, interface 0). */
void v2x_pcap_write_record(struct v2x_buf *out, bool pcapng, int64_t ts_us,
			   const uint8_t *data, uint32_t caplen, uint32_t origlen);

#endif
