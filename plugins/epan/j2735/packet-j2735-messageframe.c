/* SAE J2735 MessageFrame: the header (messageId, open-type length) read without a schema,
 * the message handed to its sub-protocol (j2735.bsm, j2735.map ...) through the table
 * j2735.msgid, a one-line COL_INFO summary, the tap, and the registrations on the PSID
 * tables (in 1609.2's: noted for the WSMP plugin to show at the top of the tree), on UDP
 * (Decode As) and as strict UDP heuristics (a bare MessageFrame; a 1609.2 message). */
#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/proto_data.h>
#include <epan/prefs.h>
#include <epan/tap.h>
#include <epan/exceptions.h>
#include <epan/show_exception.h>
#include <wsutil/str_util.h>

#include "bsm.h"
#include "frame.h"
#include "ieee1609dot2.h"
#include "j2735.h"
#include "registry.h"
#include "udp-datagram.h"
#include "packet-j2735.h"

#define MSGID_BIT_OFFSET 1
#define MSGID_BITS 15
#define HEADER_OCTETS 2

static int proto_j2735 = -1;
static int hf_j2735_ext = -1;
static int hf_j2735_msgid = -1;
static int hf_j2735_length = -1;
static int hf_j2735_value = -1;
static int hf_j2735_psid = -1;
static int hf_j2735_at_top = -1;
static int hf_j2735_trailing = -1;
static int proto_jpo_ode = -1;
static int hf_jpo_ode_prefix = -1;
static gint ett_jpo_ode = -1;
static dissector_handle_t jpo_ode_message_handle;
static gint ett_j2735 = -1;
static gint ett_j2735_msg = -1;
static expert_field ei_j2735_malformed = EI_INIT;
static expert_field ei_j2735_trailing = EI_INIT;
static expert_field ei_j2735_unknown_msgid = EI_INIT;
static expert_field ei_j2735_not_decoded = EI_INIT;
static expert_field ei_j2735_unknown_id = EI_INIT;
static expert_field ei_j2735_reserved_value = EI_INIT;
static expert_field ei_j2735_reserved_bits = EI_INIT;
static int j2735_tap = -1;
static dissector_table_t msgid_table;
static dissector_handle_t j2735_psid_handle;
static dissector_handle_t j2735_dot2_handle;
static dissector_handle_t dot2_handle; /* Wireshark's ieee1609dot2.data */
static range_t *extra_psids;

/* The sub-protocol of one message id: its own filter name (j2735.bsm) and tree item. */
struct j2735_msg_proto {
	int proto;
	const struct v2x_msgid *msg;
	dissector_t dissect;
};

struct j2735_summary *j2735_summary_get(packet_info *pinfo)
{
	struct j2735_summary *s = p_get_proto_data(pinfo->pool, pinfo, proto_j2735, 0);
	if (!s) {
		s = wmem_new0(pinfo->pool, struct j2735_summary);
		p_add_proto_data(pinfo->pool, pinfo, proto_j2735, 0, s);
	}
	return s;
}

void j2735_note(packet_info *pinfo, enum j2735_note_kind kind, guint32 value)
{
	struct j2735_summary *s = j2735_summary_get(pinfo);
	switch (kind) {
	case J2735_NOTE_LANE:
		s->lanes++;
		break;
	case J2735_NOTE_MOVEMENT:
		s->movements++;
		break;
	case J2735_NOTE_TIM_FRAME:
		s->tim_frames++;
		break;
	case J2735_NOTE_MSGCOUNT:
		if (s->n_msg_counts < J2735_MAX_MSGCOUNTS)
			s->msg_counts[s->n_msg_counts++] = value;
		break;
	default:
		if (s->seen[kind])
			return; /* the summary describes the first one */
		if (kind == J2735_NOTE_LAT)
			s->lat = (gint32)value;
		else if (kind == J2735_NOTE_LON)
			s->lon = (gint32)value;
		else if (kind == J2735_NOTE_SPEED)
			s->speed = value;
		else if (kind == J2735_NOTE_HEADING)
			s->heading = value;
		else if (kind == J2735_NOTE_INTERSECTION)
			s->intersection = value;
		break;
	}
	s->seen[kind] = TRUE;
}

void j2735_note_bytes(packet_info *pinfo, enum j2735_note_kind kind, tvbuff_t *value)
{
	struct j2735_summary *s = j2735_summary_get(pinfo);
	if (!value || s->seen[kind])
		return;
	if (kind == J2735_NOTE_TEMPID && tvb_reported_length(value) == 4)
		s->temp_id = tvb_get_ntohl(value, 0);
	else if (kind == J2735_NOTE_PACKETID && tvb_reported_length(value) == J2735_PACKETID_LEN)
		tvb_memcpy(value, s->packet_id, 0, J2735_PACKETID_LEN);
	else
		return;
	s->seen[kind] = TRUE;
}

void j2735_check_reserved(packet_info *pinfo, proto_item *item, guint32 value, guint32 first,
			  guint32 last)
{
	if (value >= first && value <= last)
		expert_add_info_format(pinfo, item, &ei_j2735_reserved_value,
				       "Value %u is in the reserved range %u..%u", value, first,
				       last);
}

/* The first reserved bit of each type, the same in the 2016 and 2020 editions: every
 * bit from it to the end of the fixed-size string is reserved. */
static const struct {
	const char *type;
	guint first_reserved;
} reserved_bits[J2735_BITS_COUNT] = {
	[J2735_BITS_INTERSECTION_STATUS] = {"IntersectionStatusObject", 14},
	[J2735_BITS_LANE_BARRIER] = {"LaneAttributes-Barrier", 10},
	[J2735_BITS_LANE_BIKE] = {"LaneAttributes-Bike", 7},
	[J2735_BITS_LANE_CROSSWALK] = {"LaneAttributes-Crosswalk", 9},
	[J2735_BITS_LANE_PARKING] = {"LaneAttributes-Parking", 7},
	[J2735_BITS_LANE_SIDEWALK] = {"LaneAttributes-Sidewalk", 4},
	[J2735_BITS_LANE_STRIPING] = {"LaneAttributes-Striping", 6},
	[J2735_BITS_LANE_TRACKED_VEHICLE] = {"LaneAttributes-TrackedVehicle", 5},
};

void j2735_check_reserved_bits(packet_info *pinfo, proto_item *item, tvbuff_t *bits,
			       enum j2735_bits_type type)
{
	/* The PER decoder pads the value with zero bits to whole octets, so the padding is
	 * never taken for a set reserved bit. */
	guint nbits = bits ? tvb_captured_length(bits) * 8 : 0;
	wmem_strbuf_t *set = wmem_strbuf_new(pinfo->pool, "");
	guint nset = 0;
	for (guint bit = reserved_bits[type].first_reserved; bit < nbits; bit++) {
		if (!tvb_get_bits8(bits, bit, 1))
			continue;
		wmem_strbuf_append_printf(set, nset++ ? ", %u" : "%u", bit);
	}
	if (nset)
		expert_add_info_format(pinfo, item, &ei_j2735_reserved_bits,
				       "Reserved bits set: %s bit%s %s", reserved_bits[type].type,
				       nset > 1 ? "s" : "", wmem_strbuf_get_str(set));
}

int j2735_unknown_id(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const char *what,
		     guint32 id)
{
	proto_tree_add_expert_format(tree, pinfo, &ei_j2735_unknown_id, tvb, 0, -1,
				     "Unknown %s %u: value not decoded", what, id);
	return tvb_captured_length(tvb);
}

/* "BSM id=BEA10000 cnt=12 41.1642143,-104.8434120 13.2 m/s 87.5°" and its kin. */
static void add_summary(packet_info *pinfo, const struct j2735_summary *s,
			const struct v2x_msgid *msg)
{
	wmem_strbuf_t *b = wmem_strbuf_new(pinfo->pool, msg ? msg->abbrev : "J2735");
	if (!msg)
		wmem_strbuf_append_printf(b, " msgId %u (unknown)", s->msg_id);
	else if (j2735_gen_edition && !j2735_gen_message_dissector(s->msg_id))
		wmem_strbuf_append(b, ": not in this edition");
	else if (msg->id == V2X_MSG_BSM) {
		if (s->seen[J2735_NOTE_TEMPID])
			wmem_strbuf_append_printf(b, " id=%08X", s->temp_id);
		if (s->n_msg_counts)
			wmem_strbuf_append_printf(b, " cnt=%u", s->msg_counts[0]);
		if (s->seen[J2735_NOTE_LAT] && s->seen[J2735_NOTE_LON])
			wmem_strbuf_append_printf(b, " %.7f,%.7f", s->lat / 1e7, s->lon / 1e7);
		if (s->seen[J2735_NOTE_SPEED] && s->speed != V2X_DE_SPEED_UNAVAILABLE)
			wmem_strbuf_append_printf(b, " %.1f m/s", s->speed * 0.02);
		if (s->seen[J2735_NOTE_HEADING] && s->heading != V2X_DE_HEADING_UNAVAILABLE)
			wmem_strbuf_append_printf(b, " %.1f\xc2\xb0", s->heading * 0.0125);
	} else if (msg->id == V2X_MSG_MAP && s->seen[J2735_NOTE_INTERSECTION]) {
		/* msgIssueRevision comes first, the intersection's revision second */
		wmem_strbuf_append_printf(b, " intersection %u", s->intersection);
		if (s->n_msg_counts)
			wmem_strbuf_append_printf(b, " rev %u", s->msg_counts[s->n_msg_counts - 1]);
		wmem_strbuf_append_printf(b, " %u lanes", s->lanes);
	} else if (msg->id == V2X_MSG_SPAT && s->seen[J2735_NOTE_INTERSECTION]) {
		wmem_strbuf_truncate(b, 0);
		wmem_strbuf_append_printf(b, "SPaT intersection %u %u movements", s->intersection,
					  s->movements);
	} else if (msg->id == V2X_MSG_TIM && s->seen[J2735_NOTE_PACKETID]) {
		wmem_strbuf_append(b, " packet 0x");
		for (int i = 0; i < J2735_PACKETID_LEN; i++)
			wmem_strbuf_append_printf(b, "%02X", s->packet_id[i]);
		wmem_strbuf_append_printf(b, " %u frame%s", s->tim_frames,
					  s->tim_frames == 1 ? "" : "s");
	}
	col_add_str(pinfo->cinfo, COL_INFO, wmem_strbuf_get_str(b));
}

static int dissect_message(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_,
			   void *cb_data)
{
	const struct j2735_msg_proto *mp = cb_data;
	proto_item *ti = proto_tree_add_item(tree, mp->proto, tvb, 0, -1, ENC_NA);
	proto_tree *mt = proto_item_add_subtree(ti, ett_j2735_msg);
	return mp->dissect(tvb, pinfo, mt, NULL);
}

static void dissect_value(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			  proto_item *msgid_item, const struct j2735_summary *s)
{
	const struct v2x_msgid *msg = v2x_msgid_lookup(s->msg_id);
	if (dissector_try_uint_with_data(msgid_table, s->msg_id, tvb, pinfo, tree, FALSE, NULL))
		return;
	proto_tree_add_item(tree, hf_j2735_value, tvb, 0, -1, ENC_NA);
	if (!msg)
		expert_add_info(pinfo, msgid_item, &ei_j2735_unknown_msgid);
	else if (!j2735_gen_edition)
		expert_add_info_format(pinfo, msgid_item, &ei_j2735_not_decoded,
				       "%s not decoded: this plugin was built without the SAE "
				       "J2735 schema (configure with -DJ2735_ASN1_DIR=<dir>)",
				       msg->name);
	else
		expert_add_info_format(pinfo, msgid_item, &ei_j2735_not_decoded,
				       "%s: not in this edition (%s, message id %u, is not in "
				       "the J2735 %s schema this plugin was built from)",
				       msg->abbrev, msg->name, s->msg_id, j2735_gen_edition);
}

/* The MessageFrame, with the PSID it came with when has_psid. */
static int dissect_frame(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 psid,
			 gboolean has_psid)
{
	struct v2x_msgframe mf;
	const char *why = NULL;
	guint len = tvb_captured_length(tvb);
	const guint8 *buf = tvb_get_ptr(tvb, 0, len);
	struct j2735_summary *s = j2735_summary_get(pinfo);

	col_set_str(pinfo->cinfo, COL_PROTOCOL, "J2735");
	proto_item *ti = proto_tree_add_item(tree, proto_j2735, tvb, 0, -1, ENC_NA);
	proto_tree *jt = proto_item_add_subtree(ti, ett_j2735);
	s->psid = psid;
	s->has_psid = has_psid;
	if (has_psid)
		proto_item_set_generated(proto_tree_add_uint(jt, hf_j2735_psid, tvb, 0, 0, psid));
	int rc = v2x_msgframe_parse(buf, len, &mf, &why);
	proto_item *idi = NULL;
	if (mf.has_msg_id) {
		s->msg_id = mf.msg_id;
		s->has_msg_id = TRUE;
		proto_tree_add_bits_item(jt, hf_j2735_ext, tvb, 0, 1, ENC_BIG_ENDIAN);
		idi = proto_tree_add_bits_item(jt, hf_j2735_msgid, tvb, MSGID_BIT_OFFSET,
					       MSGID_BITS, ENC_BIG_ENDIAN);
	}
	if (rc < 0) {
		/* A message cut short whose id is readable keeps its type (Info, statistics). */
		proto_tree_add_expert_format(jt, pinfo, &ei_j2735_malformed, tvb, 0, -1, "%s", why);
		const struct v2x_msgid *m = mf.has_msg_id ? v2x_msgid_lookup(mf.msg_id) : NULL;
		if (m)
			col_add_fstr(pinfo->cinfo, COL_INFO, "%s [%s]", m->abbrev,
				     mf.truncated ? "truncated" : "malformed");
		else
			col_add_str(pinfo->cinfo, COL_INFO, "J2735 (malformed)");
		if (mf.has_msg_id)
			tap_queue_packet(j2735_tap, pinfo, s);
		return len;
	}
	guint value_off = (guint)(mf.value - buf);
	proto_tree_add_uint(jt, hf_j2735_length, tvb, HEADER_OCTETS, value_off - HEADER_OCTETS,
			    mf.value_len);
	proto_item_set_len(ti, (gint)mf.frame_len);
	tvbuff_t *value = tvb_new_subset_length(tvb, value_off, mf.value_len);
	TRY {
		dissect_value(value, pinfo, jt, idi, s);
	}
	CATCH_NONFATAL_ERRORS {
		show_exception(value, pinfo, jt, EXCEPT_CODE, GET_MESSAGE);
	}
	ENDTRY;
	if (mf.trailing) {
		proto_item *tr = proto_tree_add_item(jt, hf_j2735_trailing, tvb,
						     (gint)mf.frame_len, (gint)mf.trailing, ENC_NA);
		expert_add_info_format(pinfo, tr, &ei_j2735_trailing,
				       "+%u octets after the MessageFrame", (unsigned)mf.trailing);
	}
	add_summary(pinfo, s, v2x_msgid_lookup(mf.msg_id));
	tap_queue_packet(j2735_tap, pinfo, s);
	return (int)(mf.frame_len + mf.trailing);
}

/* From a PSID table (ieee1609dot3.psid, ieee1609dot2.psid): the key is the PSID. */
static int dissect_j2735_psid(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			      void *data _U_)
{
	return dissect_frame(tvb, pinfo, tree, pinfo->match_uint, TRUE);
}

/* A payload the 1609.2 PSID table handed over, kept for j2735.recorded. */
struct j2735_recorded {
	tvbuff_t *tvb; /* NULL once dissected */
	guint32 psid;
};

#define RECORDED_KEY 1 /* proto data key of struct j2735_recorded (0: the summary) */

/* From 1609.2's PSID table. Under our WSMP the payload is only noted: the WSMP hands it to
 * j2735.recorded once 1609.2 returns, so the message is a top-level tree beside WSMP and not
 * seven levels down in 1609.2's. Reached another way (the built-in wsmp, 1609.2 on UDP), or
 * a second time in a packet, the message is dissected where 1609.2 found it. The item left
 * in 1609.2's tree says where the message went, and keeps the j2735 layer in
 * frame.protocols (Wireshark drops the layer of a dissector that adds no item). */
static int dissect_j2735_dot2(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	if (!proto_is_frame_protocol(pinfo->layers, "ieee1609dot3") ||
	    p_get_proto_data(pinfo->pool, pinfo, proto_j2735, RECORDED_KEY))
		return dissect_j2735_psid(tvb, pinfo, tree, data);
	struct j2735_recorded *r = wmem_new(pinfo->pool, struct j2735_recorded);
	r->tvb = tvb;
	r->psid = pinfo->match_uint;
	p_add_proto_data(pinfo->pool, pinfo, proto_j2735, RECORDED_KEY, r);
	proto_item_set_generated(proto_tree_add_item(tree, hf_j2735_at_top, tvb, 0, -1, ENC_NA));
	return tvb_captured_length(tvb);
}

/* Called by the WSMP plugin with its tree after 1609.2 returns: the noted payload, if any.
 * The tvb is the one the WSMP gave 1609.2; the noted payload lies inside it. */
static int dissect_j2735_recorded(tvbuff_t *tvb _U_, packet_info *pinfo, proto_tree *tree,
				  void *data _U_)
{
	struct j2735_recorded *r = p_get_proto_data(pinfo->pool, pinfo, proto_j2735, RECORDED_KEY);
	if (!r || !r->tvb)
		return 0;
	tvbuff_t *payload = r->tvb;
	r->tvb = NULL;
	return dissect_frame(payload, pinfo, tree, r->psid, TRUE);
}

/* A message in a 1609.2 envelope libv2x read (d, over the whole tvb). Wireshark's 1609.2
 * draws the envelope and hands a payload with a PSID to its PSID table; unsecured data
 * names no PSID, so a payload 1609.2 did not bring to J2735 is the message when the user
 * says so (Decode As) or libv2x's rule does (v2x_j2735_basis, as v2xcap decides). */
static void dissect_in_dot2(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			    const struct v2x_dot2 *d, const guint8 *buf, bool user_says)
{
	call_dissector(dot2_handle, tvb, pinfo, tree);
	if (d->payload_len == 0 || p_get_proto_data(pinfo->pool, pinfo, proto_j2735, 0))
		return; /* nothing readable (encrypted), or J2735 reached through 1609.2 */
	if (!user_says && v2x_j2735_basis(d->has_psid, d->psid, d->payload, d->payload_len) ==
				  V2X_J2735_NOT)
		return;
	dissect_frame(tvb_new_subset_length(tvb, (gint)(d->payload - buf), (gint)d->payload_len),
		      pinfo, tree, d->psid, d->has_psid);
}

/* "j2735" (Decode As on UDP, v2xcap convert's exported PDUs): a message as deployments
 * forward and log it, a bare MessageFrame or one in a 1609.2 envelope (libv2x's content
 * check), taken as J2735 whatever its content: the user said so. */
static int dissect_j2735_raw(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			     void *data _U_)
{
	struct v2x_dot2 d;
	const char *why;
	guint len = tvb_captured_length(tvb);
	const guint8 *buf = tvb_get_ptr(tvb, 0, len);
	if (!dot2_handle || !v2x_dot2_first_octet(buf, len) ||
	    v2x_dot2_parse(buf, len, &d, &why) < 0 || d.payload_len == 0)
		return dissect_frame(tvb, pinfo, tree, 0, FALSE);
	dissect_in_dot2(tvb, pinfo, tree, &d, buf, true);
	return (int)len;
}

/* Raw J2735 on UDP: a known message id and an open type that ends exactly at the end. */
static v2x_ws_bool dissect_j2735_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				   void *data _U_)
{
	guint len;
	const guint8 *buf = v2x_udp_datagram(tvb, &len);
	if (!buf || !v2x_msgframe_strict(buf, len))
		return FALSE;
	dissect_frame(tvb, pinfo, tree, 0, FALSE);
	return TRUE;
}

/* 1609.2 on UDP (RSU/OBU forwarding, jpo-ode's receivers): the datagrams v2xcap's frame
 * path takes for 1609.2 (v2x_udp_dot2_start), the J2735 in them as v2xcap finds it. An
 * envelope libv2x cannot read is still 1609.2's to show (malformed), with no message. */
static v2x_ws_bool dissect_dot2_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				  void *data _U_)
{
	struct v2x_dot2 d;
	const char *why;
	guint len;
	const guint8 *buf = v2x_udp_datagram(tvb, &len);
	if (!dot2_handle || !buf || !v2x_udp_dot2_start(buf, len))
		return FALSE;
	if (v2x_dot2_parse(buf, len, &d, &why) < 0)
		call_dissector(dot2_handle, tvb, pinfo, tree);
	else
		dissect_in_dot2(tvb, pinfo, tree, &d, buf, false);
	return TRUE;
}

/* The message of a jpo-ode datagram (1609.2 or a MessageFrame), J2735 by the port's word
 * as for Decode As, called through its own handle so that the J2735 layer is named. */
static int dissect_jpo_ode_message(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				   void *data)
{
	dissect_j2735_raw(tvb, pinfo, tree, data);
	return (int)tvb_captured_length(tvb);
}

/* jpo-ode's receiver ports: the message found by the receiver's start octets after a
 * forwarder's prefix, what follows the MessageFrame named (libv2x's rule, v2xcap's too).
 * A datagram the content rules take whole is left to the heuristics, as the frame path
 * takes it; nothing found: the heuristics and data follow. */
static int dissect_jpo_ode(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	guint len;
	const guint8 *buf = v2x_udp_datagram(tvb, &len);
	long at = v2x_jpo_ode_datagram_at(buf, len, (guint16)pinfo->srcport,
					  (guint16)pinfo->destport);
	if (at < 0)
		return 0;
	proto_item *ti = proto_tree_add_item(tree, proto_jpo_ode, tvb, 0, (gint)at, ENC_NA);
	if (at > 0)
		proto_tree_add_item(proto_item_add_subtree(ti, ett_jpo_ode), hf_jpo_ode_prefix, tvb,
				    0, (gint)at, ENC_NA);
	call_dissector_with_data(jpo_ode_message_handle, tvb_new_subset_remaining(tvb, (gint)at),
				 pinfo, tree, data);
	return (int)len;
}

/* "BSM (BasicSafetyMessage)": the registry names every id, known to the schema or not. */
static void fmt_msgid(gchar *label, guint32 id)
{
	const struct v2x_msgid *m = v2x_msgid_lookup(id);
	if (m)
		snprintf(label, ITEM_LABEL_LENGTH, "%s (%s) (%u)", m->abbrev, m->name, id);
	else
		snprintf(label, ITEM_LABEL_LENGTH, "unknown (%u)", id);
}

/* One sub-protocol per message the schema defines, registered in j2735.msgid. */
static void register_message_protocols(void)
{
	for (const struct v2x_msgid *m = v2x_msgids; m->name; m++) {
		dissector_t dissect = j2735_gen_message_dissector(m->id);
		if (!dissect)
			continue;
		struct j2735_msg_proto *mp = g_new0(struct j2735_msg_proto, 1);
		gchar *filter = g_ascii_strdown(m->abbrev, -1);
		mp->msg = m;
		mp->dissect = dissect;
		mp->proto = proto_register_protocol(g_strdup_printf("SAE J2735 %s", m->name),
						    g_strdup_printf("J2735 %s", m->abbrev),
						    g_strdup_printf("j2735.%s", filter));
		dissector_handle_t h = register_dissector_with_data(
			g_strdup_printf("j2735.%s", filter), dissect_message, mp->proto, mp);
		dissector_add_uint("j2735.msgid", m->id, h);
		g_free(filter);
	}
}

void proto_register_j2735(void)
{
	static hf_register_info hf[] = {
		{&hf_j2735_ext, {"Extension", "j2735.ext", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
				 "MessageFrame extension bit", HFILL}},
		{&hf_j2735_msgid, {"Message id", "j2735.msgid", FT_UINT16, BASE_CUSTOM,
				   CF_FUNC(fmt_msgid), 0x0, "DSRCmsgID", HFILL}},
		{&hf_j2735_length, {"Length", "j2735.length", FT_UINT32, BASE_DEC, NULL, 0x0,
				    "Octets of the message (open-type length)", HFILL}},
		{&hf_j2735_value, {"Message", "j2735.value", FT_BYTES, BASE_NONE, NULL, 0x0,
				   "The message's UPER octets, not decoded", HFILL}},
		{&hf_j2735_psid, {"PSID", "j2735.psid", FT_UINT32, BASE_HEX, NULL, 0x0,
				  "PSID the message came with", HFILL}},
		{&hf_j2735_trailing, {"Octets after the MessageFrame", "j2735.trailing", FT_BYTES,
				      BASE_NONE, NULL, 0x0,
				      "Left over after the MessageFrame's own length: not part of "
				      "the message", HFILL}},
		{&hf_j2735_at_top, {"SAE J2735 MessageFrame, shown at the top level of the tree",
				    "j2735.at_top", FT_NONE, BASE_NONE, NULL, 0x0,
				    "The 1609.2 payload, dissected after 1609.2", HFILL}},
	};
	static gint *ett[] = {&ett_j2735, &ett_j2735_msg};
	static ei_register_info ei[] = {
		{&ei_j2735_malformed, {"j2735.malformed", PI_MALFORMED, PI_ERROR,
				       "Malformed J2735 MessageFrame", EXPFILL}},
		{&ei_j2735_trailing, {"j2735.trailing.octets", PI_PROTOCOL, PI_NOTE,
				      "Octets after the MessageFrame", EXPFILL}},
		{&ei_j2735_unknown_msgid, {"j2735.msgid.unknown", PI_UNDECODED, PI_WARN,
					   "Unknown J2735 message id", EXPFILL}},
		{&ei_j2735_not_decoded, {"j2735.not_decoded", PI_UNDECODED, PI_NOTE,
					 "J2735 message not decoded", EXPFILL}},
		{&ei_j2735_unknown_id, {"j2735.id.unknown", PI_UNDECODED, PI_WARN,
					"Unknown J2735 extension id", EXPFILL}},
		{&ei_j2735_reserved_value, {"j2735.reserved_value", PI_PROTOCOL, PI_WARN,
					    "J2735 value in a reserved range", EXPFILL}},
		{&ei_j2735_reserved_bits, {"j2735.reserved_bits", PI_PROTOCOL, PI_WARN,
					   "J2735 reserved bits set", EXPFILL}},
	};
	/* The name says which schema the plugin was generated from, or how to get one. */
	const char *name = j2735_gen_edition
		? g_strdup_printf("SAE J2735 (%s schema)", j2735_gen_edition)
		: "SAE J2735 (message ids only: for full decoding build with "
		  "-DJ2735_ASN1_DIR=<your SAE J2735 ASN.1 folder>)";

	proto_j2735 = proto_register_protocol(name, "J2735", "j2735");
	proto_register_field_array(proto_j2735, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	expert_register_field_array(expert_register_protocol(proto_j2735), ei, array_length(ei));
	msgid_table = register_dissector_table("j2735.msgid", "J2735 message id", proto_j2735,
					       FT_UINT16, BASE_DEC);
	j2735_gen_register(proto_j2735);
	register_message_protocols();
	register_dissector("j2735", dissect_j2735_raw, proto_j2735);
	j2735_psid_handle = create_dissector_handle(dissect_j2735_psid, proto_j2735);
	j2735_dot2_handle = create_dissector_handle(dissect_j2735_dot2, proto_j2735);
	/* No protocol: 1609.2's call of j2735_dot2_handle already named the j2735 layer. */
	register_dissector("j2735.recorded", dissect_j2735_recorded, -1);
	j2735_tap = register_tap("j2735");
	module_t *prefs = prefs_register_protocol(proto_j2735, proto_reg_handoff_j2735);
	range_convert_str(wmem_epan_scope(), &extra_psids, "", 0xffffffff);
	prefs_register_range_preference(prefs, "extra_psids", "More PSIDs",
					"PSIDs besides the J2735 ones of IEEE 1609.12 whose "
					"payload is a J2735 MessageFrame", &extra_psids, 0xffffffff);
	j2735_stats_register();
	/* apart from j2735, so that Decode As lists one "J2735" on udp.port */
	static hf_register_info hf_jpo[] = {
		{&hf_jpo_ode_prefix, {"Forwarder's prefix", "jpo_ode.prefix", FT_BYTES, BASE_NONE,
				      NULL, 0x0, "Octets before the message", HFILL}},
	};
	static gint *ett_jpo[] = {&ett_jpo_ode};
	proto_jpo_ode = proto_register_protocol("jpo-ode UDP receiver datagram", "jpo-ode",
						"jpo_ode");
	proto_register_field_array(proto_jpo_ode, hf_jpo, array_length(hf_jpo));
	proto_register_subtree_array(ett_jpo, array_length(ett_jpo));
}

static void register_psid(guint32 psid, gpointer user_data _U_)
{
	dissector_add_uint("ieee1609dot2.psid", psid, j2735_dot2_handle);
	if (find_dissector_table("ieee1609dot3.psid"))
		dissector_add_uint("ieee1609dot3.psid", psid, j2735_psid_handle);
}

static void unregister_psid(guint32 psid, gpointer user_data _U_)
{
	dissector_delete_uint("ieee1609dot2.psid", psid, j2735_dot2_handle);
	if (find_dissector_table("ieee1609dot3.psid"))
		dissector_delete_uint("ieee1609dot3.psid", psid, j2735_psid_handle);
}

void proto_reg_handoff_j2735(void)
{
	static range_t *registered_extra; /* what the last preference value registered */
	static gboolean initialized = FALSE;
	if (!initialized) {
		for (const struct v2x_psid *p = v2x_psids; p->name; p++)
			if (p->j2735)
				register_psid(p->psid, NULL);
		dot2_handle = find_dissector_add_dependency("ieee1609dot2.data", proto_j2735);
		dissector_handle_t raw = find_dissector("j2735");
		dissector_add_for_decode_as("udp.port", raw);
		heur_dissector_add("udp", dissect_j2735_heur, "SAE J2735 over UDP", "j2735_udp",
				   proto_j2735, HEURISTIC_ENABLE);
		heur_dissector_add("udp", dissect_dot2_heur, "IEEE 1609.2 (SAE J2735) over UDP",
				   "j2735_dot2_udp", proto_j2735, HEURISTIC_ENABLE);
		jpo_ode_message_handle = create_dissector_handle(dissect_jpo_ode_message,
								 proto_j2735);
		dissector_handle_t jpo = create_dissector_handle(dissect_jpo_ode, proto_jpo_ode);
		for (unsigned i = 0; i < V2X_JPO_ODE_N_PORTS; i++)
			dissector_add_uint("udp.port", v2x_jpo_ode_receivers[i].port, jpo);
		j2735_gen_handoff();
		initialized = TRUE;
	} else {
		range_foreach(registered_extra, unregister_psid, NULL);
		wmem_free(wmem_epan_scope(), registered_extra);
	}
	registered_extra = range_copy(wmem_epan_scope(), extra_psids);
	range_foreach(registered_extra, register_psid, NULL);
}
