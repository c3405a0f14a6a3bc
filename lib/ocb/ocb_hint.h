/* What to do about a failed OCB request (v2x_ocb_gethint), for lib/ocb/ocb.c. */
#ifndef V2X_OCB_OCB_HINT_H
#define V2X_OCB_OCB_HINT_H

#include <stddef.h>
#include <stdint.h>

#include "nl80211.h"

/* Writes to buf (len octets, "" when there is nothing to add) why a request on iface
 * (NULL when it was not found) failed with errno err, in the user's words, from the
 * errno and what the phy reports about freq at width MHz (freq 0: no channel asked). */
void v2x_ocb_hint(struct v2x_nl *nl, int err, const struct v2x_nl_iface *iface, uint32_t freq,
		  unsigned width, char *buf, size_t len);

#endif
