/* Statistics > J2735 and `tshark -z j2735,tree`: message counts per type, per PSID,
 * per BSM sender (TemporaryID) and per MAP/SPaT intersection, from the "j2735" tap. */
#include <epan/stats_tree.h>

#include "registry.h"
#include "packet-j2735.h"

static const char st_types[] = "Message type";
static const char st_psids[] = "PSID";
static const char st_senders[] = "BSM TemporaryID";
/* no "/" in node names: stats_tree reads it as a path */
static const char st_intersections[] = "Intersection (MAP, SPaT)";

static void stats_init(stats_tree *st)
{
	stats_tree_create_node(st, st_types, 0, STAT_DT_INT, TRUE);
	stats_tree_create_node(st, st_psids, 0, STAT_DT_INT, TRUE);
	stats_tree_create_node(st, st_senders, 0, STAT_DT_INT, TRUE);
	stats_tree_create_node(st, st_intersections, 0, STAT_DT_INT, TRUE);
}

static void tick(stats_tree *st, const char *parent, const char *child)
{
	int id = tick_stat_node(st, parent, 0, TRUE);
	tick_stat_node(st, child, id, FALSE);
}

static tap_packet_status stats_packet(stats_tree *st, packet_info *pinfo _U_,
				      epan_dissect_t *edt _U_, const void *p,
				      tap_flags_t flags _U_)
{
	const struct j2735_summary *s = p;
	char key[64];
	if (!s->has_msg_id)
		return TAP_PACKET_DONT_REDRAW;
	const struct v2x_msgid *msg = v2x_msgid_lookup(s->msg_id);
	if (msg)
		tick(st, st_types, msg->abbrev);
	else {
		snprintf(key, sizeof key, "unknown (%u)", s->msg_id);
		tick(st, st_types, key);
	}
	if (s->has_psid) {
		const char *name = v2x_psid_name(s->psid);
		snprintf(key, sizeof key, "0x%x %s", s->psid, name ? name : "");
		tick(st, st_psids, key);
	}
	if (msg && msg->id == V2X_MSG_BSM && s->seen[J2735_NOTE_TEMPID]) {
		snprintf(key, sizeof key, "%08X", s->temp_id);
		tick(st, st_senders, key);
	}
	if (msg && (msg->id == V2X_MSG_MAP || msg->id == V2X_MSG_SPAT) &&
	    s->seen[J2735_NOTE_INTERSECTION]) {
		snprintf(key, sizeof key, "%u %s", s->intersection, msg->abbrev);
		tick(st, st_intersections, key);
	}
	return TAP_PACKET_REDRAW;
}

void j2735_stats_register(void)
{
	stats_tree_register_plugin("j2735", "j2735", "J2735", 0, stats_packet, stats_init,
				   NULL);
}
