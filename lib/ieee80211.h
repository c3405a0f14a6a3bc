/* IEEE 802.11 MAC header (data and QoS data frames) and the LLC that follows it on OCB:
 * EPD (88 DC right after the header, IEEE 1609.3) or RFC 1042 SNAP. */
#ifndef V2X_IEEE80211_H
#define V2X_IEEE80211_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum v2x_llc {
	V2X_LLC_NONE,     /* not a data frame carrying an EtherType */
	V2X_LLC_EPD,      /* EtherType right after the MAC header */
	V2X_LLC_SNAP,     /* AA AA 03 00 00 00 + EtherType */
	V2X_LLC_ETHERNET, /* Ethernet / SLL link layer: no 802.11 header */
};

struct v2x_mac {
	uint16_t fc;            /* frame control as on the air (little endian read) */
	uint8_t type, subtype;
	bool is_data, is_qos, is_protected, to_ds, from_ds;
	uint16_t duration;
	uint8_t addr1[6], addr2[6], addr3[6], addr4[6];
	bool has_addr4;
	uint16_t seq;           /* sequence number (12 bits) */
	uint8_t frag;
	uint16_t qos;
	uint16_t hdr_len;
};

/* Parses the MAC header and the LLC. On success returns 0, sets *ethertype (0 when no LLC
 * could be read, e.g. a management frame or a protected frame), *llc and *payload_off
 * (first octet after the EtherType). -1 with *why when the header is truncated. */
int v2x_ieee80211_parse(const uint8_t *buf, size_t len, struct v2x_mac *mac,
			enum v2x_llc *llc, uint16_t *ethertype, size_t *payload_off,
			const char **why);

/* The 5 GHz band's channel numbering (IEEE 802.11 annex E; the 5.9 GHz ITS channels
 * 172-184): MHz = 5000 + 5 * channel. v2x_5ghz_channel is 0 outside 5000-5999 MHz. */
static inline uint32_t v2x_5ghz_mhz(unsigned channel)
{
	return 5000u + 5u * channel;
}

static inline unsigned v2x_5ghz_channel(uint32_t mhz)
{
	return mhz > 5000 && mhz < 6000 ? (mhz - 5000) / 5 : 0;
}

#endif
