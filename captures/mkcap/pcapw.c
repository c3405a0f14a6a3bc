/* mkcap: pcap (microsecond) and pcapng (one interface, EPB) file writers. */
#include "mkcap.h"

#define SNAPLEN 65535u

enum {
	PCAPNG_SHB = 0x0A0D0D0A, PCAPNG_IDB = 1, PCAPNG_EPB = 6,
	PCAPNG_BYTE_ORDER_MAGIC = 0x1A2B3C4D,
};

void capfile_header(struct buf *out, enum format fmt, uint32_t dlt)
{
	if (fmt == FMT_PCAP) {
		buf_le32(out, 0xA1B2C3D4u);
		buf_le16(out, 2);
		buf_le16(out, 4);
		buf_le32(out, 0); /* thiszone */
		buf_le32(out, 0); /* sigfigs */
		buf_le32(out, SNAPLEN);
		buf_le32(out, dlt);
		return;
	}
	/* Section header block without options, section length unknown (-1) */
	buf_le32(out, PCAPNG_SHB);
	buf_le32(out, 28);
	buf_le32(out, PCAPNG_BYTE_ORDER_MAGIC);
	buf_le16(out, 1);
	buf_le16(out, 0);
	buf_le64(out, UINT64_MAX);
	buf_le32(out, 28);
	/* Interface description block; default resolution is microseconds */
	buf_le32(out, PCAPNG_IDB);
	buf_le32(out, 20);
	buf_le16(out, (uint16_t)dlt);
	buf_le16(out, 0);
	buf_le32(out, SNAPLEN);
	buf_le32(out, 20);
}

void capfile_record(struct buf *out, enum format fmt, uint64_t ts_us,
		    const uint8_t *frame, size_t n)
{
	if (fmt == FMT_PCAP) {
		buf_le32(out, (uint32_t)(ts_us / 1000000u));
		buf_le32(out, (uint32_t)(ts_us % 1000000u));
		buf_le32(out, (uint32_t)n);
		buf_le32(out, (uint32_t)n);
		buf_put(out, frame, n);
		return;
	}
	size_t padded = (n + 3) & ~(size_t)3;
	uint32_t total = (uint32_t)(32 + padded);
	static const uint8_t zeros[3] = {0};
	buf_le32(out, PCAPNG_EPB);
	buf_le32(out, total);
	buf_le32(out, 0); /* interface id */
	buf_le32(out, (uint32_t)(ts_us >> 32));
	buf_le32(out, (uint32_t)ts_us);
	buf_le32(out, (uint32_t)n);
	buf_le32(out, (uint32_t)n);
	buf_put(out, frame, n);
	buf_put(out, zeros, padded - n);
	buf_le32(out, total);
}
