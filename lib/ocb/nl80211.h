/* The one place libv2x talks to the kernel about radios: nl80211 over generic netlink
 * (iw's shape: each command only fills a message, one helper sends it and turns the
 * answer into an errno plus the kernel's extended-ACK text) and link up/down over
 * rtnetlink. */
#ifndef V2X_OCB_NL80211_H
#define V2X_OCB_NL80211_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nl_sock;

/* What went wrong: a positive errno and a message (may be ""): "kernel: " and the
 * extended-ACK text, or "libnl: " and what libnl reported. */
struct v2x_nl_error {
	int err;
	char msg[256];
};

struct v2x_nl {
	struct nl_sock *genl;  /* nl80211 */
	struct nl_sock *route; /* rtnetlink, for link up/down */
	int nl80211_id;
};

/* One network interface as nl80211 reports it. */
struct v2x_nl_iface {
	uint32_t ifindex;
	uint32_t wiphy;
	uint32_t iftype;       /* enum nl80211_iftype */
	char name[32];
	uint8_t mac[6];
	uint32_t freq;         /* MHz, 0 when not on a channel */
	uint32_t width;        /* enum nl80211_chan_width, valid when freq != 0 */
	uint32_t center_freq1;
};

/* Regulatory state of one channel in the phy's band table. */
struct v2x_nl_channel {
	bool found;            /* the phy lists this frequency at all */
	bool disabled, no_ir, no_10mhz, no_20mhz;
	uint32_t max_power_mbm; /* 0.01 dBm */
};

/* What a phy can do, as far as OCB is concerned. */
struct v2x_nl_wiphy {
	uint32_t index;
	char name[32];
	bool supports_ocb, supports_monitor;
	bool supports_5mhz, supports_10mhz;
	struct v2x_nl_channel chan; /* the channel asked for in v2x_nl_get_wiphy() */
};

/* Opens both sockets with extended ACKs on; 0 or -1 with *e filled. */
int v2x_nl_open(struct v2x_nl *nl, struct v2x_nl_error *e);
void v2x_nl_close(struct v2x_nl *nl);

/* Every command returns 0 on success or -1 with *e filled. */
int v2x_nl_ifindex(const char *name, uint32_t *ifindex, struct v2x_nl_error *e);
int v2x_nl_get_interface(struct v2x_nl *nl, uint32_t ifindex, struct v2x_nl_iface *out,
			 struct v2x_nl_error *e);
/* Fills out[0..cap) with the wireless interfaces; *n receives how many were stored. */
int v2x_nl_list_interfaces(struct v2x_nl *nl, struct v2x_nl_iface *out, size_t cap,
			   size_t *n, struct v2x_nl_error *e);
/* Capabilities of phy `wiphy`, and the regulatory state of freq (MHz, 0 for none). */
int v2x_nl_get_wiphy(struct v2x_nl *nl, uint32_t wiphy, uint32_t freq,
		     struct v2x_nl_wiphy *out, struct v2x_nl_error *e);
int v2x_nl_set_iftype(struct v2x_nl *nl, uint32_t ifindex, uint32_t iftype,
		      struct v2x_nl_error *e);
/* width in MHz: 5, 10 or 20 (20 MHz is non-HT, as 802.11p). */
int v2x_nl_join_ocb(struct v2x_nl *nl, uint32_t ifindex, uint32_t freq, unsigned width,
		    struct v2x_nl_error *e);
int v2x_nl_leave_ocb(struct v2x_nl *nl, uint32_t ifindex, struct v2x_nl_error *e);
/* Creates a monitor vif on phy `wiphy`; *ifindex receives the new interface's index. */
int v2x_nl_new_monitor(struct v2x_nl *nl, uint32_t wiphy, const char *name,
		       uint32_t *ifindex, struct v2x_nl_error *e);
int v2x_nl_link_set(struct v2x_nl *nl, uint32_t ifindex, bool up, struct v2x_nl_error *e);

/* Channel width in MHz of an enum nl80211_chan_width value (0 when not 5/10/20/40/...). */
unsigned v2x_nl_width_mhz(uint32_t chan_width);
const char *v2x_nl_iftype_name(uint32_t iftype);

#endif
