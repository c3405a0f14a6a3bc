/* Hints for failed OCB requests: the kernel says EINVAL for a disabled channel, a width
 * the driver lacks and a width the kernel no longer offers alike, so the hint asks the
 * phy which one it was. */
#define _GNU_SOURCE
#include "ocb_hint.h"

#include <errno.h>
#include <stdio.h>
#include <sys/utsname.h>

/* Why a join narrower than 20 MHz failed, from what the phy and the channel report. */
static void narrow_width_hint(const struct v2x_nl_wiphy *w, unsigned width, char *buf,
			      size_t len)
{
	if (width == 10 && w->chan.no_10mhz) {
		snprintf(buf, len, "the regulatory domain does not allow 10 MHz on this channel: "
			 "retry at 20 MHz (v2xcap: --width 20), or use a domain that allows it");
		return;
	}
	struct utsname u;
	const char *release = uname(&u) == 0 ? u.release : "?";
	if (!(width == 5 ? w->supports_5mhz : w->supports_10mhz))
		/* A 20 MHz radio does not hear 10 MHz ITS-G5/DSRC stations: say so. */
		snprintf(buf, len,
			 "phy%u offers no %u MHz channels (kernel %s): its driver lacks them, or "
			 "the kernel is one from 2026 on (Linux removed 5 and 10 MHz channels). "
			 "Retry at 20 MHz (v2xcap: --width 20; such a radio does not hear "
			 "stations on 10 MHz channels), or use an older kernel with an "
			 "802.11p-capable driver", w->index, width, release);
	else
		snprintf(buf, len, "phy%u reports %u MHz support, but this kernel (%s) refused "
			 "the channel at %u MHz: retry at 20 MHz (v2xcap: --width 20)", w->index,
			 width, release, width);
}

/* The hint of an EINVAL: asks the phy about the channel. */
static const char *invalid_hint(struct v2x_nl *nl, const struct v2x_nl_iface *iface,
				uint32_t freq, unsigned width, char *buf, size_t len)
{
	struct v2x_nl_wiphy w;
	struct v2x_nl_error e;
	if (!freq || !iface || v2x_nl_get_wiphy(nl, iface->wiphy, freq, &w, &e) < 0)
		return "";
	if (!w.chan.found)
		return "the phy has no channel at this frequency";
	if (w.chan.disabled)
		return "the channel is disabled by the regulatory domain: 5.9 GHz ITS needs a "
		       "domain/regulatory.db that enables it (iw reg set, an 802.11p regdb); "
		       "for mac80211_hwsim load the module with regtest=5";
	if (width < 20) {
		narrow_width_hint(&w, width, buf, len);
		return buf;
	}
	return w.supports_ocb ? "" : "the driver has no OCB mode";
}

void v2x_ocb_hint(struct v2x_nl *nl, int err, const struct v2x_nl_iface *iface, uint32_t freq,
		  unsigned width, char *buf, size_t len)
{
	const char *hint = "";
	switch (err) {
	case EPERM:
	case EACCES:
		snprintf(buf, len, "needs CAP_NET_ADMIN: run as root (sudo), or give the program "
			 "the capability: setcap cap_net_admin+ep $(command -v %s)",
			 program_invocation_short_name);
		return;
	case EOPNOTSUPP:
		hint = "the driver has no OCB mode: 802.11p needs an OCB-capable driver "
		       "(e.g. ath9k/ath10k with 802.11p support)";
		break;
	case EBUSY:
		hint = "the interface or phy is busy: another interface on this phy may use a "
		       "different channel, or a manager (NetworkManager, wpa_supplicant) holds it";
		break;
	case ENETDOWN:
		hint = "the interface is down: joining OCB brings it up; check rfkill";
		break;
	case ENODEV:
		hint = "no such wireless interface: 'iw dev' (or 'v2xcap ocb status') lists them";
		break;
	case EINVAL:
		hint = invalid_hint(nl, iface, freq, width, buf, len);
		if (hint == buf)
			return;
		break;
	}
	snprintf(buf, len, "%s", hint);
}
