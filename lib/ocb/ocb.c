/* <v2x/ocb.h>: OCB join/leave, a monitor vif and an interface's state, in the steps `iw`
 * takes (set type ocb with the link down, link up, ocb join), over lib/ocb/nl80211.c. */
#define _GNU_SOURCE
#include <v2x/ocb.h>

#include <errno.h>
#include <linux/nl80211.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nl80211.h"
#include "ocb_hint.h"

struct v2x_ocb {
	struct v2x_nl nl;
	char err[512];  /* what was asked, of which interface, the system's and kernel's words */
	char hint[640]; /* the longest hint (a missing width) with a kernel release in it */
};

static int status_of(int err)
{
	switch (err) {
	case EPERM:
	case EACCES:
		return V2X_EPERM;
	case ENODEV:
	case ENOENT:
		return V2X_ENODEV;
	case EOPNOTSUPP:
		return V2X_ENOTSUP;
	case EBUSY:
		return V2X_EBUSY;
	case EINVAL:
	case ERANGE:
		return V2X_EINVAL;
	case ENOMEM:
		return V2X_ENOMEM;
	default:
		return V2X_EIO;
	}
}

/* A request the kernel (or libnl) refused: "what ifname: strerror (kernel text)" and its
 * hint; iface, freq and width (0: none) are what the hint may ask the phy about. */
static int failed(struct v2x_ocb *o, const char *what, const char *ifname,
		  const struct v2x_nl_error *e, const struct v2x_nl_iface *iface, uint32_t freq,
		  unsigned width)
{
	int n = snprintf(o->err, sizeof o->err, "%s %s: %s", what, ifname, strerror(e->err));
	if (e->msg[0] && n >= 0 && (size_t)n < sizeof o->err)
		snprintf(o->err + n, sizeof o->err - (size_t)n, " (%s)", e->msg);
	v2x_ocb_hint(&o->nl, e->err, iface, freq, width, o->hint, sizeof o->hint);
	return status_of(e->err);
}

__attribute__((format(printf, 2, 3))) static int invalid(struct v2x_ocb *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(o->err, sizeof o->err, fmt, ap);
	va_end(ap);
	return V2X_EINVAL;
}

static void clear(struct v2x_ocb *o)
{
	o->err[0] = o->hint[0] = '\0';
}

/* Starts a request on ifname: clears the last failure; V2X_OK, or V2X_EINVAL for a name
 * that is no interface name. */
static int begin(struct v2x_ocb *o, const char *ifname)
{
	clear(o);
	if (!ifname || !ifname[0] || strlen(ifname) >= IFNAMSIZ)
		return invalid(o, "no interface name given, or one longer than %d octets",
			       IFNAMSIZ - 1);
	return V2X_OK;
}

static int lookup(struct v2x_ocb *o, const char *ifname, struct v2x_nl_iface *iface)
{
	uint32_t ifindex;
	struct v2x_nl_error e;
	int rc = begin(o, ifname);
	if (rc == V2X_OK && (v2x_nl_ifindex(ifname, &ifindex, &e) < 0 ||
			     v2x_nl_get_interface(&o->nl, ifindex, iface, &e) < 0))
		rc = failed(o, "looking up", ifname, &e, NULL, 0, 0);
	return rc;
}

struct v2x_ocb *v2x_ocb_open(char *errbuf)
{
	if (!errbuf)
		return NULL;
	struct v2x_ocb *o = calloc(1, sizeof(*o));
	struct v2x_nl_error e;
	if (!o) {
		snprintf(errbuf, V2X_ERRBUF_SIZE, "cannot talk to nl80211: out of memory");
		return NULL;
	}
	if (v2x_nl_open(&o->nl, &e) < 0) {
		snprintf(errbuf, V2X_ERRBUF_SIZE, "cannot talk to nl80211: %s%s%.160s", strerror(e.err),
			 e.msg[0] ? ": " : "", e.msg);
		free(o);
		return NULL;
	}
	return o;
}

void v2x_ocb_close(struct v2x_ocb *o)
{
	if (!o)
		return;
	v2x_nl_close(&o->nl);
	free(o);
}

const char *v2x_ocb_geterr(const struct v2x_ocb *o)
{
	return o ? o->err : "no OCB handle (NULL)";
}

const char *v2x_ocb_gethint(const struct v2x_ocb *o)
{
	return o ? o->hint : "";
}

int v2x_ocb_join(struct v2x_ocb *o, const char *ifname, uint32_t freq_mhz, unsigned width_mhz)
{
	if (!o)
		return V2X_EINVAL;
	struct v2x_nl_iface iface;
	int rc = lookup(o, ifname, &iface);
	if (rc < 0)
		return rc;
	if (width_mhz != 5 && width_mhz != 10 && width_mhz != 20)
		return invalid(o, "joining OCB on %s: a width of %u MHz (5, 10 or 20)", ifname,
			       width_mhz);
	if (freq_mhz < 2400 || freq_mhz > 7200)
		return invalid(o, "joining OCB on %s: %u MHz is no Wi-Fi channel", ifname,
			       freq_mhz);
	struct v2x_nl_error e;
	bool is_ocb = iface.iftype == NL80211_IFTYPE_OCB;
	if (is_ocb && iface.freq == freq_mhz && v2x_nl_width_mhz(iface.width) == width_mhz)
		return 1;
	if (is_ocb && iface.freq && v2x_nl_leave_ocb(&o->nl, iface.ifindex, &e) < 0)
		return failed(o, "leaving OCB on", ifname, &e, &iface, 0, 0);
	/* the kernel changes a type only while the link is down */
	if (!is_ocb && (v2x_nl_link_set(&o->nl, iface.ifindex, false, &e) < 0 ||
			v2x_nl_set_iftype(&o->nl, iface.ifindex, NL80211_IFTYPE_OCB, &e) < 0))
		return failed(o, "setting OCB mode on", ifname, &e, &iface, 0, 0);
	if (v2x_nl_link_set(&o->nl, iface.ifindex, true, &e) < 0)
		return failed(o, "bringing up", ifname, &e, &iface, 0, 0);
	if (v2x_nl_join_ocb(&o->nl, iface.ifindex, freq_mhz, width_mhz, &e) < 0)
		return failed(o, "joining OCB on", ifname, &e, &iface, freq_mhz, width_mhz);
	return 0;
}

int v2x_ocb_leave(struct v2x_ocb *o, const char *ifname)
{
	if (!o)
		return V2X_EINVAL;
	struct v2x_nl_iface iface;
	struct v2x_nl_error e;
	int rc = lookup(o, ifname, &iface);
	if (rc < 0)
		return rc;
	if (iface.iftype != NL80211_IFTYPE_OCB || !iface.freq)
		return 1;
	if (v2x_nl_leave_ocb(&o->nl, iface.ifindex, &e) < 0)
		return failed(o, "leaving OCB on", ifname, &e, &iface, 0, 0);
	return 0;
}

int v2x_ocb_monitor_add(struct v2x_ocb *o, const char *ifname, const char *monitor)
{
	if (!o)
		return V2X_EINVAL;
	struct v2x_nl_iface iface, mon;
	struct v2x_nl_error e;
	uint32_t ifindex;
	int rc = lookup(o, ifname, &iface);
	if (rc < 0)
		return rc;
	if ((rc = begin(o, monitor)) < 0)
		return rc;
	int existed = v2x_nl_ifindex(monitor, &ifindex, &e) == 0;
	if (existed) {
		/* idempotent: a monitor of that name on the same phy is what was asked for */
		if (v2x_nl_get_interface(&o->nl, ifindex, &mon, &e) < 0 ||
		    mon.iftype != NL80211_IFTYPE_MONITOR || mon.wiphy != iface.wiphy)
			return invalid(o, "%s exists and is not a monitor on phy%u", monitor,
				       iface.wiphy);
	} else if (v2x_nl_new_monitor(&o->nl, iface.wiphy, monitor, &ifindex, &e) < 0) {
		return failed(o, "creating monitor interface", monitor, &e, &iface, 0, 0);
	}
	if (v2x_nl_link_set(&o->nl, ifindex, true, &e) < 0)
		return failed(o, "bringing up", monitor, &e, &iface, 0, 0);
	return existed;
}

/* The status of iface, with its phy's capabilities and its channel's regulatory state. */
static void fill_status(struct v2x_ocb *o, const struct v2x_nl_iface *i, struct v2x_ocb_status *st)
{
	struct v2x_ocb_status s = {.size = sizeof(s), .ifindex = i->ifindex, .phy = i->wiphy,
				   .iftype = i->iftype, .iftype_name = v2x_nl_iftype_name(i->iftype),
				   .freq_mhz = i->freq};
	snprintf(s.ifname, sizeof s.ifname, "%s", i->name);
	memcpy(s.mac, i->mac, sizeof s.mac);
	if (i->freq)
		s.width_mhz = v2x_nl_width_mhz(i->width);
	struct v2x_nl_wiphy w;
	struct v2x_nl_error e;
	if (v2x_nl_get_wiphy(&o->nl, i->wiphy, i->freq, &w, &e) == 0) {
		s.phy_known = 1;
		s.ocb_supported = w.supports_ocb;
		s.monitor_supported = w.supports_monitor;
		s.width5_supported = w.supports_5mhz;
		s.width10_supported = w.supports_10mhz;
		s.chan_found = w.chan.found;
		s.chan_disabled = w.chan.disabled;
		s.chan_no_ir = w.chan.no_ir;
		s.chan_no_10mhz = w.chan.no_10mhz;
		s.chan_no_20mhz = w.chan.no_20mhz;
		s.chan_max_power_mbm = w.chan.max_power_mbm;
	}
	*st = s;
}

int v2x_ocb_status(struct v2x_ocb *o, const char *ifname, struct v2x_ocb_status *st)
{
	enum { FIRST = offsetof(struct v2x_ocb_status, chan_max_power_mbm) + sizeof(uint32_t) };
	if (!o)
		return V2X_EINVAL;
	clear(o);
	if (!st || st->size < FIRST)
		return invalid(o, "no status struct, or its size (%zu) is less than the first "
			       "release's (%zu)", st ? st->size : 0, (size_t)FIRST);
	struct v2x_nl_iface iface;
	int rc = lookup(o, ifname, &iface);
	if (rc < 0)
		return rc;
	struct v2x_ocb_status s;
	fill_status(o, &iface, &s);
	s.size = st->size;
	memcpy(st, &s, st->size < sizeof(s) ? st->size : sizeof(s));
	return V2X_OK;
}

int v2x_ocb_list(struct v2x_ocb *o, int (*fn)(const struct v2x_ocb_status *st, void *ctx),
		 void *ctx)
{
	if (!o)
		return V2X_EINVAL;
	clear(o);
	if (!fn)
		return invalid(o, "no function to call (NULL)");
	/* collected first: the phy of each is asked after the dump, on the same socket */
	struct v2x_nl_iface all[64];
	struct v2x_nl_error e;
	size_t n;
	if (v2x_nl_list_interfaces(&o->nl, all, sizeof all / sizeof all[0], &n, &e) < 0)
		return failed(o, "listing", "interfaces", &e, NULL, 0, 0);
	for (size_t i = 0; i < n; i++) {
		struct v2x_ocb_status s;
		fill_status(o, &all[i], &s);
		if (fn(&s, ctx))
			break;
	}
	return V2X_OK;
}
