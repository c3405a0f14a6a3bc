/* What the hand-written J2735 dissector (packet-j2735-messageframe.c) and the part
 * generated from the schema (packet-j2735-template.c -> the build tree's packet-j2735.c,
 * or j2735-headeronly.c without a schema) share. */
#ifndef PACKET_J2735_H
#define PACKET_J2735_H

#include <epan/packet.h>

#include "ws-compat.h"

/* Values noted while a message is dissected, for COL_INFO, the tap and statistics. */
enum j2735_note_kind {
	J2735_NOTE_LAT,
	J2735_NOTE_LON,
	J2735_NOTE_SPEED,
	J2735_NOTE_HEADING,
	J2735_NOTE_MSGCOUNT,
	J2735_NOTE_INTERSECTION,
	J2735_NOTE_TEMPID,
	J2735_NOTE_PACKETID,
	J2735_NOTE_LANE,     /* counted */
	J2735_NOTE_MOVEMENT, /* counted */
	J2735_NOTE_TIM_FRAME, /* counted */
	J2735_NOTE_COUNT
};

#define J2735_MAX_MSGCOUNTS 2
#define J2735_PACKETID_LEN 9

/* One per packet (pinfo->pool); also the tap record. */
struct j2735_summary {
	guint32 psid;
	gboolean has_psid;
	guint32 msg_id;
	gboolean has_msg_id;
	gboolean seen[J2735_NOTE_COUNT];
	gint32 lat, lon;
	guint32 speed, heading, intersection, temp_id;
	guint32 msg_counts[J2735_MAX_MSGCOUNTS]; /* the first ones, in order */
	guint n_msg_counts;
	guint8 packet_id[J2735_PACKETID_LEN];
	guint lanes, movements, tim_frames;
};

struct j2735_summary *j2735_summary_get(packet_info *pinfo);
void j2735_note(packet_info *pinfo, enum j2735_note_kind kind, guint32 value);
void j2735_note_bytes(packet_info *pinfo, enum j2735_note_kind kind, tvbuff_t *value);

/* Expert infos the generated code raises: a value in a reserved range; reserved bits set;
 * an id (part II, ...) with no known type, whose value is then shown as octets. */
void j2735_check_reserved(packet_info *pinfo, proto_item *item, guint32 value, guint32 first,
			  guint32 last);
/* The BIT STRING types whose last bits the standard reserves ("reserved and set to zero",
 * "reserved at this time and shall be zero"); the first reserved bit of each is in the table
 * of packet-j2735-messageframe.c. */
enum j2735_bits_type {
	J2735_BITS_INTERSECTION_STATUS,
	J2735_BITS_LANE_BARRIER,
	J2735_BITS_LANE_BIKE,
	J2735_BITS_LANE_CROSSWALK,
	J2735_BITS_LANE_PARKING,
	J2735_BITS_LANE_SIDEWALK,
	J2735_BITS_LANE_STRIPING,
	J2735_BITS_LANE_TRACKED_VEHICLE,
	J2735_BITS_COUNT
};

/* Warns when bits (a BIT STRING's octet-aligned value, NULL when absent) has a reserved
 * bit of type set. */
void j2735_check_reserved_bits(packet_info *pinfo, proto_item *item, tvbuff_t *bits,
			       enum j2735_bits_type type);
int j2735_unknown_id(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const char *what,
		     guint32 id);

/* Unit formatters (BASE_CUSTOM) for the key types. */
void j2735_fmt_latitude(gchar *s, gint32 v);
void j2735_fmt_longitude(gchar *s, gint32 v);
void j2735_fmt_elevation(gchar *s, gint32 v);
void j2735_fmt_speed(gchar *s, guint32 v);
void j2735_fmt_heading(gchar *s, guint32 v);
void j2735_fmt_dsecond(gchar *s, guint32 v);
void j2735_fmt_timemark(gchar *s, guint32 v);

/* The generated part. edition is "2016", "2020", ... or NULL in header-only mode. */
extern const char *const j2735_gen_edition;
/* Registers the generated fields under proto and one dissector table per object set of
 * the open types (j2735.partii.<set>, j2735.regext.<set>). */
void j2735_gen_register(int proto);
/* Registers the part II and regional types into their tables (after all tables exist). */
void j2735_gen_handoff(void);
/* The generated dissector of the message with this id (for a placeholder, one that says
 * so), NULL when not in the schema. */
dissector_t j2735_gen_message_dissector(guint32 msg_id);

/* Registration, called by plugin.c. */
void proto_register_j2735(void);
void proto_reg_handoff_j2735(void);

/* The statistics tree (j2735-stats.c); tap "j2735" carries struct j2735_summary. */
void j2735_stats_register(void);

#endif
