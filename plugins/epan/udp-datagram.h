/* What the plugins' UDP heuristics judge: the whole datagram, by libv2x's content rules
 * (the ones v2xcap's frame path uses). Shared by both plugins. */
#ifndef V2X_UDP_DATAGRAM_H
#define V2X_UDP_DATAGRAM_H

#include <epan/packet.h>

/* The datagram's octets and *len; NULL (claim nothing) when empty or cut short by the
 * capture's snap length: a rule that needs the datagram's end cannot hold on a part. */
static inline const guint8 *v2x_udp_datagram(tvbuff_t *tvb, guint *len)
{
	*len = tvb_captured_length(tvb);
	if (*len == 0 || *len != tvb_reported_length(tvb))
		return NULL;
	return tvb_get_ptr(tvb, 0, (gint)*len);
}

#endif
