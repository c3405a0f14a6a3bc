/* v2xcap report: priority first: the messages priority.c classifies as emergencies become
 * findings that sort before every other (LWN's 2015 V2X report asked for emergency
 * messages first). */
#include <stdio.h>

#include "priority.h"
#include "report.h"

void rpt_priority_init(struct report *r)
{
	static const char *const ids[V2X_PRIO_N] = {
		[V2X_PRIO_EVA] = "priority.eva",
		[V2X_PRIO_BSM_EMERGENCY] = "priority.bsm-emergency",
		[V2X_PRIO_RSA] = "priority.rsa",
		[V2X_PRIO_SRM] = "priority.srm",
		[V2X_PRIO_BSM_EVENTS] = "priority.bsm-events",
	};
	for (int k = 0; k < V2X_PRIO_N; k++)
		r->prio_reqs[k] = (struct rpt_requirement){
			ids[k], v2x_priority_kind_title(k),
			v2x_priority_kind_source(k)};
}

int rpt_priority_frame(struct report *r, const struct rpt_where *at, const struct v2x_frame *f)
{
	struct v2x_priority p = {.size = sizeof(p)};
	if (!v2x_prio_of(f, &p))
		return 0;
	char who[24] = "";
	if (p.is_bsm)
		snprintf(who, sizeof(who), "%08x", p.temp_id);
	else if (f->has_src)
		snprintf(who, sizeof(who), "%02x:%02x:%02x:%02x:%02x:%02x", f->src[0], f->src[1],
			 f->src[2], f->src[3], f->src[4], f->src[5]);
	for (int k = 0; k < V2X_PRIO_N; k++) {
		if (!(p.kinds & (1u << k)))
			continue;
		struct rpt_finding *fi = rpt_finding(&r->findings, RPT_PRIORITY, &r->prio_reqs[k], who);
		if (!fi)
			return -1;
		char text[sizeof(fi->text)];
		if (k == V2X_PRIO_BSM_EVENTS) {
			char names[160];
			v2x_priority_events_text(p.events, names, sizeof(names));
			snprintf(text, sizeof(text), "event flags: %s", names);
		} else if (k == V2X_PRIO_BSM_EMERGENCY) {
			snprintf(text, sizeof(text), "emergency vehicle responding");
		} else {
			snprintf(text, sizeof(text), "%s messages",
				 k == V2X_PRIO_EVA ? "EVA" : k == V2X_PRIO_RSA ? "RSA" : "SRM");
		}
		if (!fi->count)
			snprintf(fi->text, sizeof(fi->text), "%s", text);
		if (!fi->has_pos && p.is_bsm && p.lat != V2X_DE_LATITUDE_UNAVAILABLE &&
		    p.lon != V2X_DE_LONGITUDE_UNAVAILABLE) {
			fi->has_pos = true;
			fi->lat = p.lat / 1e7;
			fi->lon = p.lon / 1e7;
		}
		rpt_finding_at(fi, at);
	}
	return 0;
}
