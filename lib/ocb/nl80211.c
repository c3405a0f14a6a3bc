/* nl80211 and rtnetlink requests for OCB control (lib/ocb/ocb.c): each command only
 * fills a message; nl_exec() sends it, collects replies and turns errors into errno +
 * extended-ACK text. */
#define _GNU_SOURCE
#include "nl80211.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <linux/nl80211.h>
#include <linux/rtnetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

typedef int (*reply_fn)(struct nl_msg *msg, void *arg);

struct exchange {
	int state; /* 0 waiting, 1 acknowledged/finished, -1 error */
	struct v2x_nl_error *e;
	reply_fn on_reply;
	void *arg;
};

static void set_error(struct v2x_nl_error *e, int err, const char *msg)
{
	e->err = err;
	snprintf(e->msg, sizeof e->msg, "%s", msg ? msg : "");
}

static void set_libnl_error(struct v2x_nl_error *e, int nl_err)
{
	e->err = EIO;
	snprintf(e->msg, sizeof e->msg, "libnl: %s", nl_geterror(nl_err));
}

/* The kernel's NLMSGERR_ATTR_MSG follows the error (and the echoed request unless
 * capped) when NETLINK_EXT_ACK is on. */
static int on_error(struct sockaddr_nl *who, struct nlmsgerr *err, void *arg)
{
	(void)who;
	struct exchange *x = arg;
	struct nlmsghdr *nlh = (struct nlmsghdr *)err - 1;
	size_t ack_len = sizeof(*nlh) + sizeof(*err);

	set_error(x->e, -err->error, NULL);
	x->state = -1;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		ack_len += err->msg.nlmsg_len - sizeof(*nlh);
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || nlh->nlmsg_len <= ack_len)
		return NL_STOP;
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	struct nlattr *attrs = (struct nlattr *)((unsigned char *)nlh + ack_len);
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, attrs, (int)(nlh->nlmsg_len - ack_len), NULL) < 0 ||
	    !tb[NLMSGERR_ATTR_MSG])
		return NL_STOP;
	int len = nla_len(tb[NLMSGERR_ATTR_MSG]);
	const char *text = nla_data(tb[NLMSGERR_ATTR_MSG]);
	while (len > 0 && (text[len - 1] == '\0' || text[len - 1] == '\n'))
		len--;
	snprintf(x->e->msg, sizeof x->e->msg, "kernel: %.*s", len, text);
	return NL_STOP;
}

static int on_done(struct nl_msg *msg, void *arg)
{
	(void)msg;
	struct exchange *x = arg;
	x->state = 1;
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct exchange *x = arg;
	return x->on_reply ? x->on_reply(msg, x->arg) : NL_OK;
}

/* Sends msg (and frees it), passes every reply to on_reply, waits for the ACK or the end
 * of the dump. 0 or -1 with *e. */
static int nl_exec(struct nl_sock *sk, struct nl_msg *msg, reply_fn on_reply, void *arg,
		   struct v2x_nl_error *e)
{
	struct exchange x = {.state = 0, .e = e, .on_reply = on_reply, .arg = arg};
	set_error(e, 0, NULL);
	if (!msg) {
		set_error(e, ENOMEM, "cannot build the netlink message");
		return -1;
	}
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		set_error(e, ENOMEM, "cannot allocate netlink callbacks");
		return -1;
	}
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &x);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_done, &x);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_done, &x);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &x);
	int rc = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (rc < 0) {
		set_libnl_error(e, rc);
		x.state = -1;
	}
	while (x.state == 0) {
		rc = nl_recvmsgs(sk, cb);
		if (rc < 0 && x.state == 0) {
			set_libnl_error(e, rc);
			x.state = -1;
		}
	}
	nl_cb_put(cb);
	return x.state > 0 ? 0 : -1;
}

static struct nl_msg *nl80211_msg(const struct v2x_nl *nl, uint8_t cmd, int flags,
				  uint32_t ifindex)
{
	struct nl_msg *msg = nlmsg_alloc();
	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->nl80211_id, 0, flags, cmd, 0) ||
	    (ifindex && nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex) < 0)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Frees msg and returns NULL when an attribute did not fit (rc < 0). */
static struct nl_msg *checked(struct nl_msg *msg, int rc)
{
	if (msg && rc < 0) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static struct nl_sock *open_socket(int protocol, struct v2x_nl_error *e)
{
	struct nl_sock *sk = nl_socket_alloc();
	if (!sk) {
		set_error(e, ENOMEM, "cannot allocate a netlink socket");
		return NULL;
	}
	int rc = protocol == NETLINK_GENERIC ? genl_connect(sk) : nl_connect(sk, protocol);
	if (rc < 0) {
		set_libnl_error(e, rc);
		nl_socket_free(sk);
		return NULL;
	}
	int one = 1;
	/* Both are best effort: old kernels simply send no text. */
	(void)setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof one);
	(void)setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof one);
	nl_socket_enable_msg_peek(sk); /* wiphy dumps can exceed a page */
	return sk;
}

int v2x_nl_open(struct v2x_nl *nl, struct v2x_nl_error *e)
{
	memset(nl, 0, sizeof *nl);
	nl->genl = open_socket(NETLINK_GENERIC, e);
	if (!nl->genl)
		return -1;
	nl->nl80211_id = genl_ctrl_resolve(nl->genl, "nl80211");
	if (nl->nl80211_id < 0) {
		set_error(e, ENOENT, "the kernel has no nl80211 (cfg80211 not loaded?)");
		v2x_nl_close(nl);
		return -1;
	}
	nl->route = open_socket(NETLINK_ROUTE, e);
	if (!nl->route) {
		v2x_nl_close(nl);
		return -1;
	}
	return 0;
}

void v2x_nl_close(struct v2x_nl *nl)
{
	if (nl->genl)
		nl_socket_free(nl->genl);
	if (nl->route)
		nl_socket_free(nl->route);
	nl->genl = nl->route = NULL;
}

int v2x_nl_ifindex(const char *name, uint32_t *ifindex, struct v2x_nl_error *e)
{
	*ifindex = if_nametoindex(name);
	if (*ifindex == 0) {
		set_error(e, ENODEV, "no such interface");
		return -1;
	}
	return 0;
}

static struct nlattr **parse_genl(struct nl_msg *msg, struct nlattr **tb)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	if (nla_parse(tb, NL80211_ATTR_MAX, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
		      NULL) < 0)
		return NULL;
	return tb;
}

static uint32_t get_u32(struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

static void fill_iface(struct nlattr **tb, struct v2x_nl_iface *i)
{
	memset(i, 0, sizeof *i);
	i->ifindex = get_u32(tb[NL80211_ATTR_IFINDEX]);
	i->wiphy = get_u32(tb[NL80211_ATTR_WIPHY]);
	i->iftype = get_u32(tb[NL80211_ATTR_IFTYPE]);
	i->freq = get_u32(tb[NL80211_ATTR_WIPHY_FREQ]);
	i->width = get_u32(tb[NL80211_ATTR_CHANNEL_WIDTH]);
	i->center_freq1 = get_u32(tb[NL80211_ATTR_CENTER_FREQ1]);
	if (tb[NL80211_ATTR_IFNAME])
		nla_strlcpy(i->name, tb[NL80211_ATTR_IFNAME], sizeof i->name);
	if (tb[NL80211_ATTR_MAC] && nla_len(tb[NL80211_ATTR_MAC]) == 6)
		memcpy(i->mac, nla_data(tb[NL80211_ATTR_MAC]), 6);
}

static int reply_iface(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	if (parse_genl(msg, tb) && tb[NL80211_ATTR_IFINDEX])
		fill_iface(tb, arg);
	return NL_OK;
}

int v2x_nl_get_interface(struct v2x_nl *nl, uint32_t ifindex, struct v2x_nl_iface *out,
			 struct v2x_nl_error *e)
{
	memset(out, 0, sizeof *out);
	if (nl_exec(nl->genl, nl80211_msg(nl, NL80211_CMD_GET_INTERFACE, 0, ifindex),
		    reply_iface, out, e) < 0)
		return -1;
	if (out->ifindex != ifindex) {
		set_error(e, ENODEV, "not a wireless interface");
		return -1;
	}
	return 0;
}

struct iface_list {
	struct v2x_nl_iface *out;
	size_t cap, n;
};

static int reply_iface_list(struct nl_msg *msg, void *arg)
{
	struct iface_list *l = arg;
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	if (l->n < l->cap && parse_genl(msg, tb) && tb[NL80211_ATTR_IFINDEX])
		fill_iface(tb, &l->out[l->n++]);
	return NL_OK;
}

int v2x_nl_list_interfaces(struct v2x_nl *nl, struct v2x_nl_iface *out, size_t cap,
			   size_t *n, struct v2x_nl_error *e)
{
	struct iface_list l = {out, cap, 0};
	int rc = nl_exec(nl->genl, nl80211_msg(nl, NL80211_CMD_GET_INTERFACE, NLM_F_DUMP, 0),
			 reply_iface_list, &l, e);
	*n = l.n;
	return rc;
}

struct wiphy_query {
	struct v2x_nl_wiphy *out;
	uint32_t freq;
};

static void read_channel(struct nlattr *freq_attr, struct wiphy_query *q)
{
	struct nlattr *tb[NL80211_FREQUENCY_ATTR_MAX + 1];
	if (nla_parse_nested(tb, NL80211_FREQUENCY_ATTR_MAX, freq_attr, NULL) < 0 ||
	    get_u32(tb[NL80211_FREQUENCY_ATTR_FREQ]) != q->freq)
		return;
	struct v2x_nl_channel *c = &q->out->chan;
	c->found = true;
	c->disabled = tb[NL80211_FREQUENCY_ATTR_DISABLED] != NULL;
	c->no_ir = tb[NL80211_FREQUENCY_ATTR_NO_IR] != NULL;
	c->no_10mhz = tb[NL80211_FREQUENCY_ATTR_NO_10MHZ] != NULL;
	c->no_20mhz = tb[NL80211_FREQUENCY_ATTR_NO_20MHZ] != NULL;
	c->max_power_mbm = get_u32(tb[NL80211_FREQUENCY_ATTR_MAX_TX_POWER]);
}

static void read_bands(struct nlattr *bands, struct wiphy_query *q)
{
	struct nlattr *band, *freq;
	int rem_band, rem_freq;
	nla_for_each_nested(band, bands, rem_band) {
		struct nlattr *tb[NL80211_BAND_ATTR_MAX + 1];
		if (nla_parse_nested(tb, NL80211_BAND_ATTR_MAX, band, NULL) < 0 ||
		    !tb[NL80211_BAND_ATTR_FREQS])
			continue;
		nla_for_each_nested(freq, tb[NL80211_BAND_ATTR_FREQS], rem_freq)
			read_channel(freq, q);
	}
}

/* A split dump sends a phy in several messages; each adds what it carries. */
static int reply_wiphy(struct nl_msg *msg, void *arg)
{
	struct wiphy_query *q = arg;
	struct v2x_nl_wiphy *w = q->out;
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	if (!parse_genl(msg, tb) || get_u32(tb[NL80211_ATTR_WIPHY]) != w->index)
		return NL_OK;
	if (tb[NL80211_ATTR_WIPHY_NAME])
		nla_strlcpy(w->name, tb[NL80211_ATTR_WIPHY_NAME], sizeof w->name);
	if (tb[NL80211_ATTR_SUPPORTED_IFTYPES]) {
		struct nlattr *types[NL80211_IFTYPE_MAX + 1];
		if (nla_parse_nested(types, NL80211_IFTYPE_MAX, tb[NL80211_ATTR_SUPPORTED_IFTYPES],
				     NULL) == 0) {
			w->supports_ocb = types[NL80211_IFTYPE_OCB] != NULL;
			w->supports_monitor = types[NL80211_IFTYPE_MONITOR] != NULL;
		}
	}
	if (tb[NL80211_ATTR_SUPPORT_5_MHZ])
		w->supports_5mhz = true;
	if (tb[NL80211_ATTR_SUPPORT_10_MHZ])
		w->supports_10mhz = true;
	if (tb[NL80211_ATTR_WIPHY_BANDS] && q->freq)
		read_bands(tb[NL80211_ATTR_WIPHY_BANDS], q);
	return NL_OK;
}

int v2x_nl_get_wiphy(struct v2x_nl *nl, uint32_t wiphy, uint32_t freq,
		     struct v2x_nl_wiphy *out, struct v2x_nl_error *e)
{
	memset(out, 0, sizeof *out);
	out->index = wiphy;
	struct wiphy_query q = {out, freq};
	struct nl_msg *msg = nl80211_msg(nl, NL80211_CMD_GET_WIPHY, NLM_F_DUMP, 0);
	msg = checked(msg, msg ? nla_put_flag(msg, NL80211_ATTR_SPLIT_WIPHY_DUMP) : 0);
	msg = checked(msg, msg ? nla_put_u32(msg, NL80211_ATTR_WIPHY, wiphy) : 0);
	return nl_exec(nl->genl, msg, reply_wiphy, &q, e);
}

int v2x_nl_set_iftype(struct v2x_nl *nl, uint32_t ifindex, uint32_t iftype,
		      struct v2x_nl_error *e)
{
	struct nl_msg *msg = nl80211_msg(nl, NL80211_CMD_SET_INTERFACE, 0, ifindex);
	msg = checked(msg, msg ? nla_put_u32(msg, NL80211_ATTR_IFTYPE, iftype) : 0);
	return nl_exec(nl->genl, msg, NULL, NULL, e);
}

static uint32_t chan_width_of(unsigned mhz)
{
	switch (mhz) {
	case 5: return NL80211_CHAN_WIDTH_5;
	case 10: return NL80211_CHAN_WIDTH_10;
	default: return NL80211_CHAN_WIDTH_20_NOHT;
	}
}

int v2x_nl_join_ocb(struct v2x_nl *nl, uint32_t ifindex, uint32_t freq, unsigned width,
		    struct v2x_nl_error *e)
{
	struct nl_msg *msg = nl80211_msg(nl, NL80211_CMD_JOIN_OCB, 0, ifindex);
	msg = checked(msg, msg ? nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, freq) : 0);
	msg = checked(msg, msg ? nla_put_u32(msg, NL80211_ATTR_CHANNEL_WIDTH,
					     chan_width_of(width)) : 0);
	msg = checked(msg, msg ? nla_put_u32(msg, NL80211_ATTR_CENTER_FREQ1, freq) : 0);
	return nl_exec(nl->genl, msg, NULL, NULL, e);
}

int v2x_nl_leave_ocb(struct v2x_nl *nl, uint32_t ifindex, struct v2x_nl_error *e)
{
	return nl_exec(nl->genl, nl80211_msg(nl, NL80211_CMD_LEAVE_OCB, 0, ifindex), NULL, NULL,
		       e);
}

int v2x_nl_new_monitor(struct v2x_nl *nl, uint32_t wiphy, const char *name,
		       uint32_t *ifindex, struct v2x_nl_error *e)
{
	struct v2x_nl_iface created = {0};
	struct nl_msg *msg = nl80211_msg(nl, NL80211_CMD_NEW_INTERFACE, 0, 0);
	msg = checked(msg, msg ? nla_put_u32(msg, NL80211_ATTR_WIPHY, wiphy) : 0);
	msg = checked(msg, msg ? nla_put_string(msg, NL80211_ATTR_IFNAME, name) : 0);
	msg = checked(msg, msg ? nla_put_u32(msg, NL80211_ATTR_IFTYPE,
					     NL80211_IFTYPE_MONITOR) : 0);
	if (nl_exec(nl->genl, msg, reply_iface, &created, e) < 0)
		return -1;
	*ifindex = created.ifindex;
	return created.ifindex ? 0 : v2x_nl_ifindex(name, ifindex, e);
}

int v2x_nl_link_set(struct v2x_nl *nl, uint32_t ifindex, bool up, struct v2x_nl_error *e)
{
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC,
		.ifi_index = (int)ifindex,
		.ifi_flags = up ? IFF_UP : 0,
		.ifi_change = IFF_UP,
	};
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWLINK, 0);
	msg = checked(msg, msg ? nlmsg_append(msg, &ifi, sizeof ifi, NLMSG_ALIGNTO) : 0);
	return nl_exec(nl->route, msg, NULL, NULL, e);
}

unsigned v2x_nl_width_mhz(uint32_t chan_width)
{
	switch (chan_width) {
	case NL80211_CHAN_WIDTH_5: return 5;
	case NL80211_CHAN_WIDTH_10: return 10;
	case NL80211_CHAN_WIDTH_20_NOHT:
	case NL80211_CHAN_WIDTH_20: return 20;
	case NL80211_CHAN_WIDTH_40: return 40;
	case NL80211_CHAN_WIDTH_80: return 80;
	case NL80211_CHAN_WIDTH_160:
	case NL80211_CHAN_WIDTH_80P80: return 160;
	default: return 0;
	}
}

const char *v2x_nl_iftype_name(uint32_t iftype)
{
	switch (iftype) {
	case NL80211_IFTYPE_STATION: return "managed";
	case NL80211_IFTYPE_ADHOC: return "IBSS";
	case NL80211_IFTYPE_AP: return "AP";
	case NL80211_IFTYPE_MONITOR: return "monitor";
	case NL80211_IFTYPE_MESH_POINT: return "mesh point";
	case NL80211_IFTYPE_OCB: return "ocb";
	default: return "other";
	}
}
