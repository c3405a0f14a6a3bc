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

/* The pcap file header, or the pcapng section header and interface description blocks
 * (interface 0). */
void v2x_pcap_write_header(struct v2x_buf *out, const struct v2x_pcap_conf *c);
/* One record (pcap) or enhanced packet block (pcapng, interface 0). */
void v2x_pcap_write_record(struct v2x_buf *out, bool pcapng, int64_t ts_us,
			   const uint8_t *data, uint32_t caplen, uint32_t origlen);

/* pcapng with several interfaces: one more interface description block (the next
 * interface id; c->pcapng is not read), and an enhanced packet block on interface if_id
 * with an opt_comment when comment is not NULL. */
void v2x_pcapng_write_idb(struct v2x_buf *out, const struct v2x_pcap_conf *c);
void v2x_pcapng_write_epb(struct v2x_buf *out, uint32_t if_id, int64_t ts_us,
			  const uint8_t *data, uint32_t caplen, uint32_t origlen,
			  const char *comment);

/* The link-layer header of LINKTYPE_WIRESHARK_UPPER_PDU (252, V2X_LINK_UPPER_PDU): the
 * TLV naming the registered Wireshark dissector of the PDU that follows, and the end TLV
 * (Wireshark's wsutil/exported_pdu_tlvs.h). */
void v2x_exported_pdu_header(struct v2x_buf *out, const char *dissector);

#endif
