/* pcap / pcapng encoding (see pcap_write.h). */
#include "pcap_write.h"

#include <string.h>

enum {
	PCAP_MAGIC_US = 0xA1B2C3D4,
	PCAPNG_SHB = 0x0A0D0D0A, PCAPNG_IDB = 1, PCAPNG_EPB = 6,
	PCAPNG_BYTE_ORDER_MAGIC = 0x1A2B3C4D,
	OPT_ENDOFOPT = 0, OPT_COMMENT = 1, IF_NAME = 2, IF_DESCRIPTION = 3,
	EXP_PDU_END = 0, EXP_PDU_DISSECTOR_NAME = 12, /* wsutil/exported_pdu_tlvs.h */
};

static const uint8_t zeros[4];

static size_t pad4(size_t n)
{
	return (4 - n % 4) % 4;
}

static size_t option_len(const char *text)
{
	size_t len = strlen(text);
	return len > 0xffff ? 0xffff : len;
}

static size_t option_size(const char *text)
{
	return text ? 4 + option_len(text) + pad4(option_len(text)) : 0;
}

/* A pcapng option: code, length, value padded to 32 bits. */
static void option(struct v2x_buf *b, uint16_t code, const char *text)
{
	if (!text)
		return;
	size_t len = option_len(text);
	v2x_put_le16(b, code);
	v2x_put_le16(b, (uint16_t)len);
	v2x_put(b, text, len);
	v2x_put(b, zeros, pad4(len));
}

void v2x_pcap_write_header(struct v2x_buf *out, const struct v2x_pcap_conf *c)
{
	if (!c->pcapng) {
		v2x_put_le32(out, PCAP_MAGIC_US);
		v2x_put_le16(out, 2);
		v2x_put_le16(out, 4);
		v2x_put_le32(out, 0); /* thiszone */
		v2x_put_le32(out, 0); /* sigfigs */
		v2x_put_le32(out, c->snaplen);
		v2x_put_le32(out, c->linktype);
		return;
	}
	/* Section header block: version 1.0, no options, section length unknown (-1) */
	v2x_put_le32(out, PCAPNG_SHB);
	v2x_put_le32(out, 28);
	v2x_put_le32(out, PCAPNG_BYTE_ORDER_MAGIC);
	v2x_put_le16(out, 1);
	v2x_put_le16(out, 0);
	v2x_put_le64(out, UINT64_MAX);
	v2x_put_le32(out, 28);
	v2x_pcapng_write_idb(out, c);
}

void v2x_pcapng_write_idb(struct v2x_buf *out, const struct v2x_pcap_conf *c)
{
	/* The default resolution is microseconds. The end-of-options marker only follows
	 * options. */
	size_t opts = option_size(c->if_name) + option_size(c->if_desc);
	uint32_t len = (uint32_t)(20 + opts + (opts ? 4 : 0));
	v2x_put_le32(out, PCAPNG_IDB);
	v2x_put_le32(out, len);
	v2x_put_le16(out, (uint16_t)c->linktype);
	v2x_put_le16(out, 0);
	v2x_put_le32(out, c->snaplen);
	option(out, IF_NAME, c->if_name);
	option(out, IF_DESCRIPTION, c->if_desc);
	if (opts)
		v2x_put_le32(out, OPT_ENDOFOPT);
	v2x_put_le32(out, len);
}

void v2x_pcap_write_record(struct v2x_buf *out, bool pcapng, int64_t ts_us,
			   const uint8_t *data, uint32_t caplen, uint32_t origlen)
{
	if (pcapng) {
		v2x_pcapng_write_epb(out, 0, ts_us, data, caplen, origlen, NULL);
		return;
	}
	v2x_put_le32(out, (uint32_t)(ts_us / 1000000));
	v2x_put_le32(out, (uint32_t)(ts_us % 1000000));
	v2x_put_le32(out, caplen);
	v2x_put_le32(out, origlen);
	v2x_put(out, data, caplen);
}

void v2x_pcapng_write_epb(struct v2x_buf *out, uint32_t if_id, int64_t ts_us,
			  const uint8_t *data, uint32_t caplen, uint32_t origlen,
			  const char *comment)
{
	size_t opts = option_size(comment);
	uint32_t len = (uint32_t)(32 + caplen + pad4(caplen) + opts + (opts ? 4 : 0));
	v2x_put_le32(out, PCAPNG_EPB);
	v2x_put_le32(out, len);
	v2x_put_le32(out, if_id);
	v2x_put_le32(out, (uint32_t)((uint64_t)ts_us >> 32));
	v2x_put_le32(out, (uint32_t)ts_us);
	v2x_put_le32(out, caplen);
	v2x_put_le32(out, origlen);
	v2x_put(out, data, caplen);
	v2x_put(out, zeros, pad4(caplen));
	option(out, OPT_COMMENT, comment);
	if (opts)
		v2x_put_le32(out, OPT_ENDOFOPT);
	v2x_put_le32(out, len);
}

void v2x_exported_pdu_header(struct v2x_buf *out, const char *dissector)
{
	size_t len = strlen(dissector);
	v2x_put_be16(out, EXP_PDU_DISSECTOR_NAME);
	v2x_put_be16(out, (uint16_t)len);
	v2x_put(out, dissector, len);
	v2x_put_be16(out, EXP_PDU_END);
	v2x_put_be16(out, 0);
}
