/* <v2x/tx.h>: WSMP out of an OCB interface through an AF_PACKET raw socket, each frame an
 * Ethernet header (what an OCB netdev takes) and a WSMP packet (lib/frame_write.c). */
#define _GNU_SOURCE
#include <v2x/ocb.h>
#include <v2x/tx.h>

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <linux/nl80211.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bsm.h"
#include "frame.h"
#include "frame_write.h"
#include "ieee80211.h"

enum { MAX_FRAME = 2304 }; /* 802.11's MSDU */

struct v2x_tx {
	int fd;
	struct sockaddr_ll to;
	uint8_t mac[6];
	uint32_t freq_mhz, width_mhz; /* an OCB interface's channel */
	uint64_t sent;
	char warning[640];
	struct v2x_buf frame, wsm, dot2; /* reused from frame to frame */
	char err[V2X_ERRBUF_SIZE];
};

/* Asked without privileges (any socket answers SIOCGIFFLAGS). */
static bool is_loopback(const char *ifname)
{
	struct ifreq ifr = {0};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
	bool lo = fd >= 0 && ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_LOOPBACK);
	if (fd >= 0)
		close(fd);
	return lo;
}

/* Why ifname is not an OCB interface on a channel, into tx->warning ("" when it is). */
static void check_interface(struct v2x_tx *tx, const char *ifname)
{
	char errbuf[V2X_ERRBUF_SIZE];
	char *why = tx->warning;
	size_t len = sizeof tx->warning;
	struct v2x_ocb_status st = {.size = sizeof(st)};
	struct v2x_ocb *o = NULL;
	if (is_loopback(ifname))
		snprintf(why, len, "a loopback interface: the frames stay on this host");
	else if (!(o = v2x_ocb_open(errbuf)))
		snprintf(why, len, "not known to be an OCB interface (%s)", errbuf);
	else if (v2x_ocb_status(o, ifname, &st) < 0)
		snprintf(why, len, "not a wireless interface (%s): frames would go out as "
			 "Ethernet", v2x_ocb_geterr(o));
	else if (st.iftype == NL80211_IFTYPE_MONITOR)
		snprintf(why, len, "a monitor interface: transmitting takes the OCB interface "
			 "itself (its Ethernet frames); use the OCB interface of phy%u", st.phy);
	else if (st.iftype != NL80211_IFTYPE_OCB)
		snprintf(why, len, "a %s interface, not OCB: join a channel first (v2xcap ocb "
			 "join %s CHANNEL)", st.iftype_name, ifname);
	else if (!st.freq_mhz)
		snprintf(why, len, "in OCB mode but on no channel: join one first (v2xcap ocb "
			 "join %s CHANNEL)", ifname);
	tx->freq_mhz = why[0] ? 0 : st.freq_mhz;
	tx->width_mhz = why[0] ? 0 : st.width_mhz;
	v2x_ocb_close(o);
}

static int open_socket(struct v2x_tx *tx, const char *ifname, char *errbuf)
{
	struct ifreq ifr = {0};
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
	tx->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0); /* 0: send only */
	if (tx->fd < 0) {
		snprintf(errbuf, V2X_ERRBUF_SIZE, "%s: AF_PACKET socket: %s%s", ifname,
			 strerror(errno), errno == EPERM ? " (needs root or CAP_NET_RAW)" : "");
		return -1;
	}
	if (ioctl(tx->fd, SIOCGIFINDEX, &ifr) < 0 || (tx->to.sll_ifindex = ifr.ifr_ifindex,
						       ioctl(tx->fd, SIOCGIFHWADDR, &ifr) < 0)) {
		snprintf(errbuf, V2X_ERRBUF_SIZE, "%s: %s", ifname, strerror(errno));
		return -1;
	}
	tx->to.sll_family = AF_PACKET;
	tx->to.sll_protocol = htons(V2X_ETHERTYPE_WSMP);
	tx->to.sll_halen = 6;
	memset(tx->to.sll_addr, 0xff, 6);
	memcpy(tx->mac, ifr.ifr_hwaddr.sa_data, 6);
	return 0;
}

struct v2x_tx *v2x_tx_open(const char *ifname, unsigned flags, char *errbuf)
{
	if (!errbuf)
		return NULL;
	if (!ifname || !ifname[0] || strlen(ifname) >= IFNAMSIZ) {
		snprintf(errbuf, V2X_ERRBUF_SIZE, "v2x_tx_open: no interface name given");
		return NULL;
	}
	struct v2x_tx *tx = calloc(1, sizeof(*tx));
	if (!tx) {
		snprintf(errbuf, V2X_ERRBUF_SIZE, "v2x_tx_open: out of memory");
		return NULL;
	}
	tx->fd = -1;
	if (if_nametoindex(ifname) == 0) {
		snprintf(errbuf, V2X_ERRBUF_SIZE, "%s: %s", ifname, strerror(errno));
		goto fail;
	}
	check_interface(tx, ifname);
	if (tx->warning[0] && !(flags & V2X_TX_ANY_INTERFACE)) {
		snprintf(errbuf, V2X_ERRBUF_SIZE, "%s is %.200s", ifname, tx->warning);
		goto fail;
	}
	if (open_socket(tx, ifname, errbuf) == 0)
		return tx;
fail:
	v2x_tx_close(tx);
	return NULL;
}

int v2x_tx_get_info(const struct v2x_tx *tx, struct v2x_tx_info *info)
{
	if (!tx || !info || info->size < offsetof(struct v2x_tx_info, warning) + sizeof(char *))
		return V2X_EINVAL;
	struct v2x_tx_info i = {.size = info->size, .freq_mhz = tx->freq_mhz,
				.width_mhz = tx->width_mhz, .sent = tx->sent,
				.warning = tx->warning[0] ? tx->warning : NULL};
	memcpy(i.mac, tx->mac, sizeof i.mac);
	memcpy(info, &i, info->size < sizeof(i) ? info->size : sizeof(i));
	return V2X_OK;
}

int v2x_tx_send_packet(struct v2x_tx *tx, const uint8_t *wsmp, size_t len)
{
	if (!tx)
		return V2X_EINVAL;
	tx->err[0] = '\0';
	if (!wsmp || len > MAX_FRAME - 14) {
		snprintf(tx->err, sizeof tx->err, "a WSMP of %zu octets does not fit in a frame",
			 len);
		return V2X_EINVAL;
	}
	struct v2x_link_spec link = {.linktype = V2X_LINK_ETHERNET};
	memcpy(link.src, tx->mac, 6);
	v2x_buf_reset(&tx->frame);
	v2x_link_write(&tx->frame, &link, V2X_ETHERTYPE_WSMP, wsmp, len);
	if (tx->frame.err) {
		snprintf(tx->err, sizeof tx->err, "out of memory");
		return V2X_ENOMEM;
	}
	if (sendto(tx->fd, tx->frame.p, tx->frame.len, 0, (const struct sockaddr *)&tx->to,
		   sizeof tx->to) < 0) {
		int e = errno; /* the message is formatted before the code is chosen */
		snprintf(tx->err, sizeof tx->err, "sendto: %s%s", strerror(e),
			 e == ENETDOWN ? " (is the interface up and joined? v2xcap ocb join)" : "");
		return e == EMSGSIZE ? V2X_EINVAL : V2X_EIO;
	}
	tx->sent++;
	return V2X_OK;
}

int v2x_tx_send_wsmp(struct v2x_tx *tx, const struct v2x_wsmp_params *p,
		     const uint8_t *payload, size_t len)
{
	if (!tx)
		return V2X_EINVAL;
	if (!p || p->size < offsetof(struct v2x_wsmp_params, power_dbm) + 1 || !payload ||
	    p->psid >= 1u << 28) {
		snprintf(tx->err, sizeof tx->err, "v2x_tx_send_wsmp: %s",
			 !p || p->size < offsetof(struct v2x_wsmp_params, power_dbm) + 1
				 ? "no parameters, or a size smaller than the first release's"
			 : !payload ? "no payload" : "a PSID beyond 2^28");
		return V2X_EINVAL;
	}
	struct v2x_wsmp_element ext[3];
	size_t n_ext = 0;
	if (p->has_power)
		ext[n_ext++] = (struct v2x_wsmp_element){V2X_WEID_TX_POWER, 1,
							 {(uint8_t)p->power_dbm}, true};
	if (p->channel)
		ext[n_ext++] = (struct v2x_wsmp_element){V2X_WEID_CHANNEL, 1, {p->channel}, false};
	if (p->rate_500kbps)
		ext[n_ext++] = (struct v2x_wsmp_element){V2X_WEID_DATA_RATE, 1, {p->rate_500kbps},
							 false};
	const struct v2x_wsmp_spec w = {.version = 3, .psid = p->psid, .ext = ext,
					.n_ext = n_ext, .length = -1};
	if (p->dot2_unsecured) {
		const struct v2x_dot2_spec dot2 = {.content = V2X_DOT2_UNSECURED};
		v2x_buf_reset(&tx->dot2);
		v2x_dot2_write(&tx->dot2, &dot2, payload, len);
		payload = tx->dot2.p;
		len = tx->dot2.len;
	}
	v2x_buf_reset(&tx->wsm);
	v2x_wsmp_write(&tx->wsm, &w, payload, len);
	if (tx->wsm.err || tx->dot2.err) {
		snprintf(tx->err, sizeof tx->err, "out of memory");
		return V2X_ENOMEM;
	}
	return v2x_tx_send_packet(tx, tx->wsm.p, tx->wsm.len);
}

const char *v2x_tx_geterr(const struct v2x_tx *tx)
{
	return tx ? tx->err : "v2x_tx_geterr: no transmitter given";
}

void v2x_tx_close(struct v2x_tx *tx)
{
	if (!tx)
		return;
	if (tx->fd >= 0)
		close(tx->fd);
	v2x_buf_free(&tx->frame);
	v2x_buf_free(&tx->wsm);
	v2x_buf_free(&tx->dot2);
	free(tx);
}

void v2x_bsm_fields_init(struct v2x_bsm_fields *f)
{
	if (!f)
		return;
	struct v2x_bsm_core c;
	v2x_bsm_core_unavailable(&c);
	*f = (struct v2x_bsm_fields){.size = f->size, .sec_mark = c.sec_mark, .lat = c.lat,
				     .lon = c.lon, .elev = c.elev, .speed = c.speed,
				     .heading = c.heading, .width = c.width, .length = c.length};
}

int v2x_bsm_build(const struct v2x_bsm_fields *f, uint8_t *buf, size_t cap, size_t *len)
{
	if (!f || !buf || !len || f->size < offsetof(struct v2x_bsm_fields, length) + 2)
		return V2X_EINVAL;
	struct v2x_bsm_core c;
	v2x_bsm_core_unavailable(&c);
	c.msg_cnt = f->msg_cnt;
	c.id = f->temp_id;
	c.sec_mark = f->sec_mark;
	c.lat = f->lat;
	c.lon = f->lon;
	c.elev = f->elev;
	c.speed = f->speed;
	c.heading = f->heading;
	c.width = f->width;
	c.length = f->length;
	struct v2x_buf b = {0};
	int r = f->msg_cnt > 127 || v2x_bsm_frame_write(&b, &c) < 0 || b.err || b.len > cap
			? V2X_EINVAL : V2X_OK;
	if (r == V2X_OK) {
		memcpy(buf, b.p, b.len);
		*len = b.len;
	}
	v2x_buf_free(&b);
	return r;
}
