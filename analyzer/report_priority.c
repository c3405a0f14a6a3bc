/* v2xcap report: priority first: which messages are emergencies, as findings that sort
 * before every other (LWN's 2015 V2X report asked for emergency messages first). */
#include <string.h>

#include "registry.h"
#include "report.h"

#define EVA_ID 22
#define RSA_ID 27

static const struct rpt_requirement req_eva = {
	"priority.eva", "Emergency vehicle alert heard",
	"SAE J2735 EmergencyVehicleAlert (messageId 22)"};
static const struct rpt_requirement req_rsa = {
	"priority.rsa", "Road side alert heard", "SAE J2735 RoadSideAlert (messageId 27)"};
static const struct rpt_requirement req_events = {
	"priority.bsm-events", "BSM with event flags set",
	"SAE J2735 DE_VehicleEventFlags in VehicleSafetyExtensions (BSM part II); SAE J2945/1 "
	"sends event flags while the event lasts"};
static const struct rpt_requirement req_emergency = {
	"priority.bsm-emergency", "BSM of an emergency vehicle with lights or siren in use",
	"SAE J2735 DF_EmergencyDetails (SpecialVehicleExtensions, BSM part II)"};

static int add(struct report *r, const struct rpt_requirement *req, const char *sender,
	       const struct rpt_where *at, const char *text, const struct rpt_bsm *b)
{
	struct rpt_finding *f = rpt_finding(&r->findings, RPT_PRIORITY, req, sender);
	if (!f)
		return -1;
	if (!f->count)
		snprintf(f->text, sizeof(f->text), "%s", text);
	if (!f->has_pos && b && b->lat != RPT_LAT_UNAVAILABLE && b->lon != RPT_LON_UNAVAILABLE) {
		f->has_pos = true;
		f->lat = b->lat / 1e7;
		f->lon = b->lon / 1e7;
	}
	rpt_finding_at(f, at);
	return 0;
}

int rpt_priority_frame(struct report *r, const struct rpt_where *at, unsigned msg_id,
		       const char *sender, const struct rpt_bsm *b)
{
	if (msg_id == EVA_ID)
		return add(r, &req_eva, sender, at, "EVA messages", NULL);
	if (msg_id == RSA_ID)
		return add(r, &req_rsa, sender, at, "RSA messages", NULL);
	if (!b)
		return 0;
	if (b->events[0]) {
		char text[200];
		snprintf(text, sizeof(text), "event flags: %s", b->events);
		if (add(r, &req_events, sender, at, text, b) < 0)
			return -1;
	}
	if (b->emergency)
		return add(r, &req_emergency, sender, at, "lights or siren in use", b);
	return 0;
}
