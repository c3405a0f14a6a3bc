/* OCB control on Linux (nl80211, as `iw`): bring an 802.11p radio onto a 5.9 GHz channel
 * in OCB mode ("outside the context of a BSS": no association, what 802.11p stations
 * use), leave it, add a radiotap monitor vif beside it, and read what an interface and
 * its phy report (mode, channel, width, OCB/monitor/5/10 MHz support, the channel's
 * regulatory state). Changing anything needs CAP_NET_ADMIN; reading does not.
 *
 *   char errbuf[V2X_ERRBUF_SIZE];
 *   struct v2x_ocb *o = v2x_ocb_open(errbuf);
 *   if (!o) { fprintf(stderr, "%s\n", errbuf); return 1; }
 *   if (v2x_ocb_join(o, "wlan1", 5890, 10) < 0)
 *           fprintf(stderr, "%s\n  hint: %s\n", v2x_ocb_geterr(o), v2x_ocb_gethint(o));
 *   v2x_ocb_close(o);
 *
 * A failed request gives the kernel's own words (its extended-ACK text) in
 * v2x_ocb_geterr, and, where the errno and what the phy reports explain it, what to do
 * about it in v2x_ocb_gethint: a missing capability, a driver without OCB, a channel the
 * regulatory domain disables, a kernel without 5/10 MHz channels, a busy phy. */
#ifndef V2X_V2X_OCB_H
#define V2X_V2X_OCB_H

#include <stddef.h>
#include <stdint.h>

#include <v2x/base.h>

#ifdef __cplusplus
extern "C" {
#endif

struct v2x_ocb;

/* One wireless interface and its phy, filled by v2x_ocb_status (the caller sets size to
 * sizeof(struct v2x_ocb_status); members are only ever added at the end, and a library
 * fills no more than size says). */
struct v2x_ocb_status {
	size_t size;
	char ifname[32];
	uint32_t ifindex;
	uint32_t phy;              /* the wiphy index: phyN */
	uint32_t iftype;           /* enum nl80211_iftype (<linux/nl80211.h>): OCB is 10 */
	const char *iftype_name;   /* "ocb", "monitor", "managed", "AP", ... (static) */
	uint8_t mac[6];
	uint32_t freq_mhz;         /* the channel it is on; 0: none */
	uint32_t width_mhz;        /* the channel's width; valid with freq_mhz */
	/* The phy's capabilities (0 when phy_known is 0: they could not be read). */
	int phy_known;
	int ocb_supported, monitor_supported, width5_supported, width10_supported;
	/* freq_mhz in the phy's channel list (all 0 when freq_mhz is 0 or unknown to it). */
	int chan_found, chan_disabled, chan_no_ir, chan_no_10mhz, chan_no_20mhz;
	uint32_t chan_max_power_mbm; /* 0.01 dBm */
};

/* Opens the netlink sockets (nl80211, rtnetlink) requests go through: a handle for one
 * thread at a time. NULL with the cause in errbuf when nl80211 is not there (not Linux, no
 * cfg80211, a build without libnl: V2X_ENOTSUP's kind) or errbuf is NULL. */
V2X_API struct v2x_ocb *v2x_ocb_open(char *errbuf);

/* Puts ifname in OCB mode on freq_mhz (the 5.9 GHz ITS channels are 5860-5920 MHz:
 * channel 172-184, MHz = 5000 + 5 * channel) with a channel width_mhz of 5, 10 or 20
 * (20: non-HT, as 802.11p), bringing it down and up as the kernel needs. 0 when it
 * joined, 1 when it was already on that channel at that width (nothing changed), or a
 * negative status with v2x_ocb_geterr/_gethint: V2X_EPERM (no CAP_NET_ADMIN),
 * V2X_ENODEV (no such wireless interface), V2X_ENOTSUP (no OCB mode in the driver),
 * V2X_EBUSY (the phy is held), V2X_EINVAL (a channel or width the phy or regulatory
 * domain refuses, or a NULL or out-of-range argument), V2X_EIO (anything else). */
V2X_API int v2x_ocb_join(struct v2x_ocb *o, const char *ifname, uint32_t freq_mhz,
			 unsigned width_mhz);

/* Leaves ifname's OCB channel: 0 when it left, 1 when it was on none (nothing changed),
 * or a negative status as v2x_ocb_join's. */
V2X_API int v2x_ocb_leave(struct v2x_ocb *o, const char *ifname);

/* Adds a radiotap monitor vif named monitor on ifname's phy and brings it up (it
 * receives what the phy's channel carries, with the radio's view of each frame). 0 when
 * it was created, 1 when a monitor of that name was already on that phy (it is brought
 * up), or a negative status as v2x_ocb_join's (V2X_EINVAL also when monitor is taken by
 * another kind of interface or another phy). */
V2X_API int v2x_ocb_monitor_add(struct v2x_ocb *o, const char *ifname, const char *monitor);

/* Fills *st with what ifname and its phy report (st->size set by the caller). 0, or a
 * negative status as v2x_ocb_join's. */
V2X_API int v2x_ocb_status(struct v2x_ocb *o, const char *ifname, struct v2x_ocb_status *st);

/* Calls fn with the status of every wireless interface, in the kernel's order (the
 * struct is the library's, valid during the call; its size member says what it holds).
 * A fn that returns nonzero stops the walk. 0, or a negative status as v2x_ocb_join's. */
V2X_API int v2x_ocb_list(struct v2x_ocb *o,
			 int (*fn)(const struct v2x_ocb_status *st, void *ctx), void *ctx);

/* The last failure: "joining OCB on wlan1: Invalid argument (kernel: ...)", what was
 * asked, of which interface, the system's words and the kernel's; "" before any. Valid
 * until the next call on o. */
V2X_API const char *v2x_ocb_geterr(const struct v2x_ocb *o);

/* What to do about the last failure ("needs CAP_NET_ADMIN: ..."), from its errno and
 * what the phy reports; "" when there is nothing to add. Valid until the next call on
 * o. */
V2X_API const char *v2x_ocb_gethint(const struct v2x_ocb *o);

/* Closes the sockets and frees o (NULL: nothing). */
V2X_API void v2x_ocb_close(struct v2x_ocb *o);

#ifdef __cplusplus
}
#endif

#endif
