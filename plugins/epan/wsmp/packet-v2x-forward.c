/* What roadside and on-board units forward over UDP around a V2X message: C-V2X PC5
 * non-IP frames (the V2X message family octet or EtherType 0x88DC, then WSMP) and USDOT
 * RSU text records (Version= ... Payload=<hex>). libv2x decides (v2x_pc5_wsmp_prefix,
 * v2x_rsu_parse); these draw what it found and hand the message on. */
#include <epan/expert.h>
#include <epan/packet.h>

#include "frame.h"
#include "ieee1609dot3.h"
#include "rsu.h"
#include "udp-datagram.h"
#include "ws-compat.h"

static int proto_pc5 = -1;
static int hf_pc5_family = -1;
static int hf_pc5_ethertype = -1;
static gint ett_pc5 = -1;
static expert_field ei_pc5_not_wsmp = EI_INIT;

static int proto_rsu = -1;
static int hf_rsu[V2X_RSU_KEY_COUNT];
static int hf_rsu_payload_octets = -1;
static gint ett_rsu = -1;
static expert_field ei_rsu_bad = EI_INIT;

static dissector_handle_t wsmp_handle;
static dissector_handle_t j2735_handle;

/* "IEEE 1609 (1)": libv2x names the families of 3GPP TS 24.587 table 9.2.1 */
static void fmt_family(gchar *label, guint32 v)
{
	const char *name = v2x_pc5_family_name((uint8_t)v);
	snprintf(label, ITEM_LABEL_LENGTH, "%s (%u)", name ? name : "Reserved", v);
}

/* The prefix (1: family octet, 2: EtherType) then WSMP; Decode As passes prefix 0 and
 * the first octets say which (an EtherType 0x88DC, or else a family octet). */
static int dissect_pc5_prefix(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			      size_t prefix)
{
	guint len = tvb_captured_length(tvb);
	if (len < 2)
		return 0;
	if (!prefix)
		prefix = tvb_get_ntohs(tvb, 0) == 0x88DC ? 2 : 1;
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "PC5");
	proto_item *ti = proto_tree_add_item(tree, proto_pc5, tvb, 0, (gint)prefix, ENC_NA);
	proto_tree *t = proto_item_add_subtree(ti, ett_pc5);
	if (prefix == 2) {
		proto_tree_add_item(t, hf_pc5_ethertype, tvb, 0, 2, ENC_BIG_ENDIAN);
		proto_item_append_text(ti, ", EtherType 0x88DC");
	} else {
		proto_tree_add_item(t, hf_pc5_family, tvb, 0, 1, ENC_NA);
		if (tvb_get_uint8(tvb, 0) != V2X_PC5_FAMILY_IEEE1609) {
			expert_add_info(pinfo, ti, &ei_pc5_not_wsmp);
			call_data_dissector(tvb_new_subset_remaining(tvb, 1), pinfo, tree);
			return (int)len;
		}
		proto_item_append_text(ti, ", family IEEE 1609");
	}
	call_dissector(wsmp_handle, tvb_new_subset_remaining(tvb, (gint)prefix), pinfo, tree);
	return (int)len;
}

static int dissect_pc5(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
	return dissect_pc5_prefix(tvb, pinfo, tree, 0);
}

/* On UDP: only when libv2x's rule holds (a whole WSMP v3 packet after the prefix) */
static v2x_ws_bool dissect_pc5_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				    void *data _U_)
{
	guint len;
	const guint8 *buf = v2x_udp_datagram(tvb, &len);
	if (!buf)
		return FALSE;
	struct v2x_wsmp *w = wmem_new(pinfo->pool, struct v2x_wsmp);
	size_t prefix = v2x_pc5_wsmp_prefix(buf, len, w);
	if (!prefix)
		return FALSE;
	dissect_pc5_prefix(tvb, pinfo, tree, prefix);
	return TRUE;
}

/* The record's lines at the offsets libv2x found, then its payload (decoded from hex, a
 * new data source) to the J2735 plugin's "j2735" (1609.2 or MessageFrame) at the top. */
static int dissect_rsu(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
	guint len = tvb_captured_length(tvb);
	struct v2x_rsu_rec *r = wmem_new(pinfo->pool, struct v2x_rsu_rec);
	const char *why = NULL;
	int rc = v2x_rsu_parse(tvb_get_ptr(tvb, 0, (gint)len), len, r, &why);
	if (rc < 0 && !v2x_rsu_starts(tvb_get_ptr(tvb, 0, (gint)len), len))
		return 0;
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "RSU");
	proto_item *ti = proto_tree_add_item(tree, proto_rsu, tvb, 0, rc < 0 ? -1 : (gint)r->len,
					     ENC_NA);
	proto_tree *t = proto_item_add_subtree(ti, ett_rsu);
	if (rc < 0) {
		expert_add_info_format(pinfo, ti, &ei_rsu_bad, "%s", why);
		col_set_str(pinfo->cinfo, COL_INFO, "RSU record, malformed");
		return (int)len;
	}
	for (int k = 0; k < V2X_RSU_KEY_COUNT; k++) {
		const struct v2x_rsu_span *s = &r->field[k];
		if (!s->present)
			continue;
		if (k == V2X_RSU_PSID)
			proto_tree_add_uint(t, hf_rsu[k], tvb, (gint)s->off, (gint)s->len, r->psid);
		else if (k == V2X_RSU_TXCHANNEL && r->has_channel)
			proto_tree_add_uint(t, hf_rsu[k], tvb, (gint)s->off, (gint)s->len,
					    r->channel);
		else if (k == V2X_RSU_PRIORITY && r->has_priority)
			proto_tree_add_uint(t, hf_rsu[k], tvb, (gint)s->off, (gint)s->len,
					    r->priority);
		else if (k == V2X_RSU_TXINTERVAL && r->has_interval)
			proto_tree_add_uint(t, hf_rsu[k], tvb, (gint)s->off, (gint)s->len,
					    r->interval);
		else if (k != V2X_RSU_PSID && k != V2X_RSU_TXCHANNEL && k != V2X_RSU_PRIORITY &&
			 k != V2X_RSU_TXINTERVAL)
			proto_tree_add_item(t, hf_rsu[k], tvb, (gint)s->off, (gint)s->len,
					    ENC_ASCII);
	}
	const struct v2x_rsu_span *type = &r->field[V2X_RSU_TYPE];
	col_add_fstr(pinfo->cinfo, COL_INFO, "RSU record %s PSID 0x%x",
		     type->present ? tvb_format_text(pinfo->pool, tvb, (gint)type->off,
						     (gint)type->len)
				   : "",
		     r->psid);
	proto_item_append_text(ti, ", PSID 0x%x", r->psid);
	tvbuff_t *payload = tvb_new_child_real_data(tvb, r->payload, r->payload_len,
						    r->payload_len);
	add_new_data_source(pinfo, payload, "RSU record payload");
	proto_tree_add_item(t, hf_rsu_payload_octets, payload, 0, -1, ENC_NA);
	ieee1609dot2_set_next_default_psid(pinfo, r->psid);
	if (j2735_handle)
		call_dissector(j2735_handle, payload, pinfo, tree);
	else
		call_data_dissector(payload, pinfo, tree);
	return (int)len;
}

/* On UDP: text that starts "Version=" and reads as a whole record (libv2x) */
static v2x_ws_bool dissect_rsu_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				    void *data _U_)
{
	guint len;
	const guint8 *buf = v2x_udp_datagram(tvb, &len);
	if (!buf || !v2x_rsu_starts(buf, len))
		return FALSE;
	struct v2x_rsu_rec *r = wmem_new(pinfo->pool, struct v2x_rsu_rec);
	const char *why;
	if (v2x_rsu_parse(buf, len, r, &why) < 0)
		return FALSE;
	dissect_rsu(tvb, pinfo, tree, NULL);
	return TRUE;
}

static void register_rsu_fields(void)
{
	/* one field per key, named after it (filter usdot_rsu.<key in lower case>) */
	static hf_register_info hf[V2X_RSU_KEY_COUNT + 1];
	for (int k = 0; k < V2X_RSU_KEY_COUNT; k++) {
		bool num = k == V2X_RSU_PSID || k == V2X_RSU_TXCHANNEL || k == V2X_RSU_PRIORITY ||
			   k == V2X_RSU_TXINTERVAL;
		hf_rsu[k] = -1;
		hf[k] = (hf_register_info){&hf_rsu[k], {
			v2x_rsu_key_name(k),
			g_ascii_strdown(g_strdup_printf("usdot_rsu.%s", v2x_rsu_key_name(k)), -1),
			!num ? FT_STRING : k == V2X_RSU_TXINTERVAL ? FT_UINT32 : k == V2X_RSU_PSID
			? FT_UINT32 : FT_UINT8, !num ? BASE_NONE : k == V2X_RSU_PSID ? BASE_HEX
			: BASE_DEC, NULL, 0x0,
			k == V2X_RSU_PSID ? "The PSID's value (the record writes its p-encoding)"
			: k == V2X_RSU_PAYLOAD ? "The message in hex" : NULL, HFILL}};
	}
	hf[V2X_RSU_KEY_COUNT] = (hf_register_info){&hf_rsu_payload_octets, {
		"Payload octets", "usdot_rsu.payload_octets", FT_BYTES, BASE_NONE, NULL, 0x0,
		"The payload decoded from hex", HFILL}};
	proto_register_field_array(proto_rsu, hf, array_length(hf));
}

void proto_register_v2x_forward(void)
{
	static hf_register_info hf[] = {
		{&hf_pc5_family, {"V2X message family", "v2x_pc5.family", FT_UINT8, BASE_CUSTOM,
				  CF_FUNC(fmt_family), 0x0,
				  "Non-IP type (3GPP TS 24.587 9.3, TS 24.386 7.1)", HFILL}},
		{&hf_pc5_ethertype, {"EtherType", "v2x_pc5.ethertype", FT_UINT16, BASE_HEX,
				     NULL, 0x0, "0x88DC: WSMP follows", HFILL}},
	};
	static gint *ett[] = {&ett_pc5, &ett_rsu};
	static ei_register_info ei_pc5[] = {
		{&ei_pc5_not_wsmp, {"v2x_pc5.family.not_1609", PI_UNDECODED, PI_NOTE,
				    "Not the IEEE 1609 family: the message is not WSMP", EXPFILL}},
	};
	static ei_register_info ei_rsu[] = {
		{&ei_rsu_bad, {"usdot_rsu.malformed", PI_MALFORMED, PI_ERROR,
			       "Malformed RSU text record", EXPFILL}},
	};
	proto_pc5 = proto_register_protocol("C-V2X PC5 non-IP PDU (forwarded over UDP)",
					    "PC5 non-IP", "v2x_pc5");
	proto_register_field_array(proto_pc5, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	expert_register_field_array(expert_register_protocol(proto_pc5), ei_pc5,
				    array_length(ei_pc5));
	proto_rsu = proto_register_protocol("USDOT RSU text record (immediate forward)",
					    "RSU record", "usdot_rsu");
	register_rsu_fields();
	expert_register_field_array(expert_register_protocol(proto_rsu), ei_rsu,
				    array_length(ei_rsu));
	register_dissector("v2x_pc5", dissect_pc5, proto_pc5);
	register_dissector("usdot_rsu", dissect_rsu, proto_rsu);
}

void proto_reg_handoff_v2x_forward(void)
{
	wsmp_handle = find_dissector_add_dependency("ieee1609dot3", proto_pc5);
	j2735_handle = find_dissector("j2735");
	dissector_add_for_decode_as("udp.port", find_dissector("v2x_pc5"));
	dissector_add_uint_with_preference("udp.port", V2X_RSU_UDP_PORT,
					   find_dissector("usdot_rsu"));
	heur_dissector_add("udp", dissect_pc5_heur, "C-V2X PC5 non-IP frames over UDP",
			   "v2x_pc5_udp", proto_pc5, HEURISTIC_ENABLE);
	heur_dissector_add("udp", dissect_rsu_heur, "USDOT RSU text records over UDP",
			   "usdot_rsu_udp", proto_rsu, HEURISTIC_ENABLE);
}
