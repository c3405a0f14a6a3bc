/* IEEE 1609.3 WAVE Short Message Protocol on EtherType 0x88DC: WSMP v3 (1609.3-2016/
 * 2020: N-header, extension elements, TPID 0-5, p-encoded PSID, WSM length) and legacy
 * v2 (1609.3-2010). The payload goes to 1609.2, the PSID table, J2735 or data. */
#include <stdio.h>

#include <epan/decode_as.h>
#include <epan/etypes.h>
#include <epan/expert.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>
#include <epan/tfs.h>
#include <epan/unit_strings.h>

#include "ieee1609dot3.h"
#include "registry.h"
#include "ws-compat.h"
#include "uper.h"
#include "vals.h"

#define WSMP_V2 2
#define WSMP_V3 3
#define DOT2_PROTOCOL_VERSION 0x03 /* first octet of an Ieee1609Dot2Data */

static int proto_wsmp = -1;

static int hf_subtype = -1;
static int hf_option = -1;
static int hf_version = -1;
static int hf_ext_count = -1;
static int hf_ext_id = -1;
static int hf_ext_length = -1;
static int hf_ext_value = -1;
static int hf_tx_power = -1;
static int hf_channel = -1;
static int hf_data_rate = -1;
static int hf_channel_load = -1;
static int hf_time_confidence = -1;
static int hf_tpid = -1;
static int hf_psid = -1;
static int hf_psid_encoded = -1;
static int hf_src_port = -1;
static int hf_dst_port = -1;
static int hf_lpp = -1;
static int hf_wave_element_id = -1;
static int hf_length = -1;
static int hf_trailing = -1;

static gint ett_wsmp = -1;
static gint ett_n_header = -1;
static gint ett_t_header = -1;
static gint ett_extensions = -1;
static gint ett_extension = -1;
static gint ett_psid = -1;

static expert_field ei_bad_version = EI_INIT;
static expert_field ei_bad_psid = EI_INIT;
static expert_field ei_bad_tpid = EI_INIT;
static expert_field ei_length_beyond = EI_INIT;
static expert_field ei_trailing = EI_INIT;
static expert_field ei_ext_unknown = EI_INIT;
static expert_field ei_ext_bad_length = EI_INIT;
static expert_field ei_truncated = EI_INIT;

static dissector_table_t psid_table;
static dissector_handle_t dot2_handle;
static dissector_handle_t j2735_handle;
static v2x_ws_bool pref_raw_j2735 = true;

/* What COL_INFO and the payload handoff need from the header. */
struct wsmp_header {
	unsigned version;
	bool has_psid;
	uint32_t psid;
	int channel;   /* -1: no channel element */
	int data_rate; /* -1: no data rate element; else 500 kb/s units */
	uint32_t length;
};

static const value_string subtype_vals[] = {
	{0, "Null networking"},
	{0, NULL},
};

static const value_string tpid_vals[] = {
	{0, "PSID"},
	{1, "PSID, T-header extensions"},
	{2, "Source and destination port"},
	{3, "Source and destination port, T-header extensions"},
	{4, "LPP"},
	{5, "LPP, T-header extensions"},
	{0, NULL},
};

/* Adds the "truncated header" expert info when n octets at offset are not captured. */
static bool have(tvbuff_t *tvb, packet_info *pinfo, proto_item *at, int offset, int n)
{
	if (tvb_bytes_exist(tvb, offset, n))
		return true;
	expert_add_info(pinfo, at, &ei_truncated);
	return false;
}

/* One 1-octet element value: tx power, channel, data rate, channel load, time
 * confidence. v3 codes tx power as UPER INTEGER(-128..127), i.e. offset by 128;
 * v2 codes it as a signed octet. */
static void add_element_value(proto_tree *tree, tvbuff_t *tvb, int offset, uint8_t id,
			      unsigned version, struct wsmp_header *h)
{
	uint8_t v = tvb_get_uint8(tvb, offset);
	switch (id) {
	case V2X_WEID_TX_POWER:
		if (version == WSMP_V3)
			proto_tree_add_int(tree, hf_tx_power, tvb, offset, 1, (int)v - 128);
		else
			proto_tree_add_item(tree, hf_tx_power, tvb, offset, 1, ENC_NA);
		break;
	case V2X_WEID_CHANNEL:
		proto_tree_add_item(tree, hf_channel, tvb, offset, 1, ENC_NA);
		h->channel = v;
		break;
	case V2X_WEID_DATA_RATE:
		proto_tree_add_item(tree, hf_data_rate, tvb, offset, 1, ENC_NA);
		h->data_rate = v;
		break;
	case V2X_WEID_CHANNEL_LOAD:
		proto_tree_add_item(tree, hf_channel_load, tvb, offset, 1, ENC_NA);
		break;
	case V2X_WEID_TIME_CONFIDENCE:
		proto_tree_add_item(tree, hf_time_confidence, tvb, offset, 1, ENC_NA);
		break;
	}
}

static bool is_header_element(uint8_t id)
{
	return id == V2X_WEID_TX_POWER || id == V2X_WEID_CHANNEL || id == V2X_WEID_DATA_RATE ||
	       id == V2X_WEID_CHANNEL_LOAD || id == V2X_WEID_TIME_CONFIDENCE;
}

/* One element: id, length (1 octet in v2, a UPER length determinant in v3), value.
 * Returns the offset after it, or -1 when it is truncated. */
static int dissect_element(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, int offset,
			   unsigned version, struct wsmp_header *h)
{
	proto_item *ti = proto_tree_add_item(tree, hf_ext_id, tvb, offset, 1, ENC_NA);
	proto_tree *et = proto_item_add_subtree(ti, ett_extension);
	uint8_t id = tvb_get_uint8(tvb, offset);
	struct uper_field len;
	if (version == WSMP_V3) {
		if (!uper_length(tvb, 8 * (unsigned)(offset + 1), &len)) {
			expert_add_info(pinfo, ti, &ei_truncated);
			return -1;
		}
	} else {
		if (!have(tvb, pinfo, ti, offset + 1, 1))
			return -1;
		len = (struct uper_field){tvb_get_uint8(tvb, offset + 1), 8};
	}
	uper_add_uint(et, hf_ext_length, tvb, 8 * (unsigned)(offset + 1), &len);
	int value_at = offset + 1 + (int)len.nbits / 8;
	if (!have(tvb, pinfo, ti, value_at, (int)len.value))
		return -1;
	int end = value_at + (int)len.value;
	proto_item_set_len(ti, end - offset);
	if (!is_header_element(id)) {
		proto_tree_add_item(et, hf_ext_value, tvb, value_at, (int)len.value, ENC_NA);
		expert_add_info(pinfo, ti, &ei_ext_unknown);
	} else if (len.value != 1) {
		proto_tree_add_item(et, hf_ext_value, tvb, value_at, (int)len.value, ENC_NA);
		expert_add_info(pinfo, ti, &ei_ext_bad_length);
	} else {
		add_element_value(et, tvb, value_at, id, version, h);
	}
	return end;
}

/* v3 extension list (N-header or T-header): count, then the elements. */
static int dissect_extensions(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			      int offset, struct wsmp_header *h)
{
	struct uper_field count;
	if (!uper_length(tvb, 8 * (unsigned)offset, &count)) {
		expert_add_info(pinfo, proto_tree_get_parent(tree), &ei_truncated);
		return -1;
	}
	proto_item *ti = uper_add_uint(tree, hf_ext_count, tvb, 8 * (unsigned)offset, &count);
	proto_tree *xt = proto_item_add_subtree(ti, ett_extensions);
	int start = offset;
	offset += (int)count.nbits / 8;
	for (uint32_t i = 0; i < count.value && offset >= 0; i++) {
		if (!have(tvb, pinfo, ti, offset, 1))
			return -1;
		offset = dissect_element(tvb, pinfo, xt, offset, WSMP_V3, h);
	}
	if (offset >= 0)
		proto_item_set_len(ti, offset - start);
	return offset;
}

/* The p-encoded PSID (or LPP) at offset, as value with its encoded octets below it. */
static int dissect_psid(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, int offset,
			int hf, uint32_t *value)
{
	struct uper_field f;
	if (!uper_varlen(tvb, 8 * (unsigned)offset, &f)) {
		proto_item *ti = proto_tree_add_item(tree, hf_psid_encoded, tvb, offset,
						     tvb_captured_length_remaining(tvb, offset) > 0 ? 1 : 0,
						     ENC_NA);
		expert_add_info(pinfo, ti, &ei_bad_psid);
		return -1;
	}
	proto_item *ti = uper_add_uint(tree, hf, tvb, 8 * (unsigned)offset, &f);
	proto_tree_add_item(proto_item_add_subtree(ti, ett_psid), hf_psid_encoded, tvb, offset,
			    (int)f.nbits / 8, ENC_NA);
	*value = f.value;
	return offset + (int)f.nbits / 8;
}

/* v3 T-header: TPID, then PSID / ports / LPP, extensions for odd TPIDs, WSM length. */
static int dissect_v3_t_header(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			       proto_item *wsmp_item, int offset, struct wsmp_header *h)
{
	if (!have(tvb, pinfo, wsmp_item, offset, 1))
		return -1;
	int start = offset;
	proto_tree *tt = proto_tree_add_subtree(tree, tvb, offset, -1, ett_t_header, NULL,
						"T-header");
	proto_item *tpid_item;
	uint32_t tpid;
	tpid_item = proto_tree_add_item_ret_uint(tt, hf_tpid, tvb, offset, 1, ENC_NA, &tpid);
	offset++;
	uint32_t lpp;
	switch (tpid) {
	case 0:
	case 1:
		offset = dissect_psid(tvb, pinfo, tt, offset, hf_psid, &h->psid);
		h->has_psid = offset >= 0;
		break;
	case 2:
	case 3:
		if (!have(tvb, pinfo, tpid_item, offset, 4))
			return -1;
		proto_tree_add_item(tt, hf_src_port, tvb, offset, 2, ENC_BIG_ENDIAN);
		proto_tree_add_item(tt, hf_dst_port, tvb, offset + 2, 2, ENC_BIG_ENDIAN);
		offset += 4;
		break;
	case 4:
	case 5:
		offset = dissect_psid(tvb, pinfo, tt, offset, hf_lpp, &lpp);
		break;
	default:
		expert_add_info(pinfo, tpid_item, &ei_bad_tpid);
		return -1;
	}
	if (offset >= 0 && tpid % 2)
		offset = dissect_extensions(tvb, pinfo, tt, offset, h);
	if (offset < 0)
		return -1;
	struct uper_field len;
	if (!uper_length(tvb, 8 * (unsigned)offset, &len)) {
		expert_add_info(pinfo, wsmp_item, &ei_truncated);
		return -1;
	}
	uper_add_uint(tt, hf_length, tvb, 8 * (unsigned)offset, &len);
	h->length = len.value;
	offset += (int)len.nbits / 8;
	proto_item_set_len(proto_tree_get_parent(tt), offset - start);
	return offset;
}

/* v3: N-header (subtype, option indicator, version, extensions) then the T-header. */
static int dissect_v3(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
		      proto_item *wsmp_item, struct wsmp_header *h)
{
	proto_tree *nt = proto_tree_add_subtree(tree, tvb, 0, 1, ett_n_header, NULL, "N-header");
	proto_tree_add_item(nt, hf_subtype, tvb, 0, 1, ENC_NA);
	proto_tree_add_item(nt, hf_option, tvb, 0, 1, ENC_NA);
	proto_tree_add_item(nt, hf_version, tvb, 0, 1, ENC_NA);
	int offset = 1;
	if (tvb_get_uint8(tvb, 0) & 0x08) {
		offset = dissect_extensions(tvb, pinfo, nt, offset, h);
		if (offset < 0)
			return -1;
		proto_item_set_len(proto_tree_get_parent(nt), offset);
	}
	return dissect_v3_t_header(tvb, pinfo, tree, wsmp_item, offset, h);
}

/* v2 (1609.3-2010): version, PSID, optional 1-octet elements, WAVE element id, length. */
static int dissect_v2(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
		      proto_item *wsmp_item, struct wsmp_header *h)
{
	proto_tree_add_item(tree, hf_version, tvb, 0, 1, ENC_NA);
	int offset = dissect_psid(tvb, pinfo, tree, 1, hf_psid, &h->psid);
	if (offset < 0)
		return -1;
	h->has_psid = true;
	for (;;) {
		if (!have(tvb, pinfo, wsmp_item, offset, 1))
			return -1;
		uint8_t id = tvb_get_uint8(tvb, offset);
		if (id == V2X_WEID_WSMP || id == V2X_WEID_WSMP_S || id == V2X_WEID_WSMP_I)
			break;
		offset = dissect_element(tvb, pinfo, tree, offset, WSMP_V2, h);
		if (offset < 0)
			return -1;
	}
	proto_tree_add_item(tree, hf_wave_element_id, tvb, offset, 1, ENC_NA);
	if (!have(tvb, pinfo, wsmp_item, offset + 1, 2))
		return -1;
	h->length = tvb_get_ntohs(tvb, offset + 1);
	proto_tree_add_item(tree, hf_length, tvb, offset + 1, 2, ENC_BIG_ENDIAN);
	return offset + 3;
}

static void set_info(packet_info *pinfo, const struct wsmp_header *h)
{
	col_add_fstr(pinfo->cinfo, COL_INFO, "WSMP v%u", h->version);
	if (h->has_psid) {
		const char *name = v2x_psid_name(h->psid);
		col_append_fstr(pinfo->cinfo, COL_INFO, " PSID 0x%x", h->psid);
		if (name)
			col_append_fstr(pinfo->cinfo, COL_INFO, " (%s)", name);
	}
	if (h->channel >= 0)
		col_append_fstr(pinfo->cinfo, COL_INFO, " ch %d", h->channel);
	if (h->data_rate >= 0) {
		char mbps[32];
		vals_format_mbps(mbps, sizeof mbps, (uint32_t)h->data_rate);
		col_append_fstr(pinfo->cinfo, COL_INFO, " %s", mbps);
	}
	col_append_fstr(pinfo->cinfo, COL_INFO, " %u B", h->length);
}

/* Exactly `length` octets of payload (fewer if the frame ends first: expert error);
 * octets after them are shown as trailing data. */
static void dissect_payload(tvbuff_t *tvb, packet_info *pinfo, proto_tree *top,
			    proto_tree *tree, proto_item *wsmp_item, int offset,
			    const struct wsmp_header *h)
{
	int avail = tvb_reported_length_remaining(tvb, offset);
	int len = (int)h->length;
	if (len > avail) {
		expert_add_info(pinfo, wsmp_item, &ei_length_beyond);
		len = avail;
	} else if (len < avail) {
		proto_item *ti = proto_tree_add_item(tree, hf_trailing, tvb, offset + len,
						     avail - len, ENC_NA);
		expert_add_info(pinfo, ti, &ei_trailing);
	}
	if (len <= 0)
		return;
	tvbuff_t *payload = tvb_new_subset_length(tvb, offset, len);
	if (h->has_psid)
		p_add_proto_data(pinfo->pool, pinfo, proto_wsmp, 0, GUINT_TO_POINTER(h->psid));
	if (dot2_handle && tvb_get_uint8(payload, 0) == DOT2_PROTOCOL_VERSION) {
		if (h->has_psid)
			ieee1609dot2_set_next_default_psid(pinfo, h->psid);
		call_dissector(dot2_handle, payload, pinfo, top);
		return;
	}
	if (h->has_psid &&
	    dissector_try_uint_with_data(psid_table, h->psid, payload, pinfo, top, TRUE, NULL))
		return;
	if (pref_raw_j2735 && j2735_handle) {
		call_dissector(j2735_handle, payload, pinfo, top);
		return;
	}
	call_data_dissector(payload, pinfo, top);
}

static int dissect_wsmp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "WSMP");
	col_clear(pinfo->cinfo, COL_INFO);
	proto_item *wsmp_item = proto_tree_add_item(tree, proto_wsmp, tvb, 0, -1, ENC_NA);
	proto_tree *wt = proto_item_add_subtree(wsmp_item, ett_wsmp);
	if (!have(tvb, pinfo, wsmp_item, 0, 1))
		return tvb_captured_length(tvb);

	struct wsmp_header h = {.channel = -1, .data_rate = -1};
	uint8_t first = tvb_get_uint8(tvb, 0);
	h.version = first & 0x07;
	int offset;
	if (first == WSMP_V2) {
		offset = dissect_v2(tvb, pinfo, wt, wsmp_item, &h);
	} else if (h.version == WSMP_V3) {
		offset = dissect_v3(tvb, pinfo, wt, wsmp_item, &h);
	} else {
		proto_item *vi = proto_tree_add_item(wt, hf_version, tvb, 0, 1, ENC_NA);
		expert_add_info(pinfo, vi, &ei_bad_version);
		col_add_fstr(pinfo->cinfo, COL_INFO, "WSMP, unknown version %u", h.version);
		return tvb_captured_length(tvb);
	}
	if (offset < 0) {
		col_add_fstr(pinfo->cinfo, COL_INFO, "WSMP v%u, bad header", h.version);
		return tvb_captured_length(tvb);
	}
	proto_item_append_text(wsmp_item, ", Version %u", h.version);
	if (h.has_psid)
		proto_item_append_text(wsmp_item, ", PSID 0x%x", h.psid);
	set_info(pinfo, &h);
	dissect_payload(tvb, pinfo, tree, wt, wsmp_item, offset, &h);
	return tvb_captured_length(tvb);
}

/* Decode As on ieee1609dot3.psid: the value is this frame's PSID. */
static gpointer psid_of_frame(packet_info *pinfo)
{
	return p_get_proto_data(pinfo->pool, pinfo, proto_wsmp, 0);
}

static void psid_decode_as_label(packet_info *pinfo, gchar *result)
{
	snprintf(result, MAX_DECODE_AS_PROMPT_LEN, "PSID 0x%x",
		 GPOINTER_TO_UINT(psid_of_frame(pinfo)));
}

static void register_decode_as_psid(void)
{
	static build_valid_func values[] = {psid_of_frame};
	static decode_as_value_t value = {psid_decode_as_label, 1, values};
	static decode_as_t decode_as = {
		"ieee1609dot3", IEEE1609DOT3_PSID_TABLE, 1, 0, &value, NULL, NULL,
		decode_as_default_populate_list, decode_as_default_reset,
		decode_as_default_change, NULL,
	};
	register_decode_as(&decode_as);
}

void proto_register_ieee1609dot3(void)
{
	static hf_register_info hf[] = {
		{&hf_subtype, {"Subtype", "ieee1609dot3.subtype", FT_UINT8, BASE_DEC,
			       VALS(subtype_vals), 0xF0, NULL, HFILL}},
		{&hf_option, {"Option indicator", "ieee1609dot3.option", FT_BOOLEAN, 8,
			      TFS(&tfs_present_not_present), 0x08,
			      "WAVE extension elements follow", HFILL}},
		{&hf_version, {"Version", "ieee1609dot3.version", FT_UINT8, BASE_DEC, NULL, 0x07,
			       NULL, HFILL}},
		{&hf_ext_count, {"Extension elements", "ieee1609dot3.ext.count", FT_UINT16,
				 BASE_DEC, NULL, 0x0, NULL, HFILL}},
		{&hf_ext_id, {"Element", "ieee1609dot3.ext.id", FT_UINT8, BASE_DEC, NULL, 0x0,
			      "WAVE element id", HFILL}},
		{&hf_ext_length, {"Length", "ieee1609dot3.ext.length", FT_UINT16, BASE_DEC, NULL,
				  0x0, NULL, HFILL}},
		{&hf_ext_value, {"Value", "ieee1609dot3.ext.value", FT_BYTES, BASE_NONE, NULL,
				 0x0, NULL, HFILL}},
		{&hf_tx_power, {"Transmit power used", "ieee1609dot3.tx_power", FT_INT8,
				BASE_DEC | BASE_UNIT_STRING, &units_dbm, 0x0, NULL, HFILL}},
		{&hf_channel, {"Channel number", "ieee1609dot3.channel", FT_UINT8, BASE_DEC, NULL,
			       0x0, NULL, HFILL}},
		{&hf_data_rate, {"Data rate", "ieee1609dot3.data_rate", FT_UINT8, BASE_CUSTOM,
				 CF_FUNC(vals_format_data_rate), 0x0,
				 "In 500 kb/s units", HFILL}},
		{&hf_channel_load, {"Channel load", "ieee1609dot3.channel_load", FT_UINT8,
				    BASE_DEC, NULL, 0x0, NULL, HFILL}},
		{&hf_time_confidence, {"Compact time confidence",
				       "ieee1609dot3.time_confidence", FT_UINT8, BASE_DEC, NULL,
				       0x0, NULL, HFILL}},
		{&hf_tpid, {"TPID", "ieee1609dot3.tpid", FT_UINT8, BASE_DEC, VALS(tpid_vals), 0x0,
			    "Transport protocol identifier", HFILL}},
		{&hf_psid, {"PSID", "ieee1609dot3.psid", FT_UINT32, BASE_HEX, NULL, 0x0,
			    "Provider service identifier (IEEE 1609.12)", HFILL}},
		{&hf_psid_encoded, {"p-encoded", "ieee1609dot3.psid.encoded", FT_BYTES, BASE_NONE,
				    NULL, 0x0, "VarLengthNumber octets", HFILL}},
		{&hf_src_port, {"Source port", "ieee1609dot3.src_port", FT_UINT16, BASE_DEC, NULL,
				0x0, NULL, HFILL}},
		{&hf_dst_port, {"Destination port", "ieee1609dot3.dst_port", FT_UINT16, BASE_DEC,
				NULL, 0x0, NULL, HFILL}},
		{&hf_lpp, {"LPP", "ieee1609dot3.lpp", FT_UINT32, BASE_HEX, NULL, 0x0,
			   "Locally assigned port (p-encoded)", HFILL}},
		{&hf_wave_element_id, {"WAVE element id", "ieee1609dot3.wave_element_id", FT_UINT8,
				       BASE_DEC, NULL, 0x0, NULL, HFILL}},
		{&hf_length, {"WSM length", "ieee1609dot3.length", FT_UINT16, BASE_DEC, NULL, 0x0,
			      NULL, HFILL}},
		{&hf_trailing, {"Trailing octets", "ieee1609dot3.trailing", FT_BYTES, BASE_NONE,
				NULL, 0x0, "Octets after the WSM data", HFILL}},
	};
	static gint *ett[] = {&ett_wsmp, &ett_n_header, &ett_t_header, &ett_extensions,
			      &ett_extension, &ett_psid};
	static ei_register_info ei[] = {
		{&ei_bad_version, {"ieee1609dot3.version.bad", PI_PROTOCOL, PI_ERROR,
				   "Unsupported WSMP version (2 or 3 expected)", EXPFILL}},
		{&ei_bad_psid, {"ieee1609dot3.psid.bad", PI_MALFORMED, PI_ERROR,
				"Invalid p-encoding (more than 4 octets or truncated)", EXPFILL}},
		{&ei_bad_tpid, {"ieee1609dot3.tpid.bad", PI_PROTOCOL, PI_ERROR,
				"Unknown TPID (0-5 defined)", EXPFILL}},
		{&ei_length_beyond, {"ieee1609dot3.length.beyond", PI_MALFORMED, PI_ERROR,
				     "WSM length exceeds the frame", EXPFILL}},
		{&ei_trailing, {"ieee1609dot3.length.trailing", PI_PROTOCOL, PI_NOTE,
				"Octets after the WSM data (length field shorter than the frame)",
				EXPFILL}},
		{&ei_ext_unknown, {"ieee1609dot3.ext.unknown", PI_UNDECODED, PI_NOTE,
				   "Extension element not defined for the WSMP header", EXPFILL}},
		{&ei_ext_bad_length, {"ieee1609dot3.ext.bad_length", PI_PROTOCOL, PI_WARN,
				      "Extension element value is not 1 octet", EXPFILL}},
		{&ei_truncated, {"ieee1609dot3.truncated", PI_MALFORMED, PI_ERROR,
				 "Truncated WSMP header", EXPFILL}},
	};

	/* Names come from libv2x's registry, built into value_strings once here. */
	const value_string *elements = vals_wave_element();
	for (size_t i = 0; i < array_length(hf); i++) {
		if (hf[i].p_id == &hf_ext_id || hf[i].p_id == &hf_wave_element_id)
			hf[i].hfinfo.strings = VALS(elements);
		else if (hf[i].p_id == &hf_psid)
			hf[i].hfinfo.strings = VALS(vals_psid());
	}

	proto_wsmp = proto_register_protocol("IEEE 1609.3 WAVE Short Message Protocol",
					     "IEEE 1609.3", "ieee1609dot3");
	proto_register_field_array(proto_wsmp, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	expert_register_field_array(expert_register_protocol(proto_wsmp), ei,
				    array_length(ei));

	psid_table = register_dissector_table(IEEE1609DOT3_PSID_TABLE, "IEEE 1609.3 PSID",
					      proto_wsmp, FT_UINT32, BASE_HEX);
	register_decode_as_psid();

	module_t *prefs = prefs_register_protocol(proto_wsmp, NULL);
	prefs_register_bool_preference(prefs, "raw_j2735", "Payload without 1609.2 is J2735",
				       "Hand a payload that has no IEEE 1609.2 header and no "
				       "PSID table entry to the J2735 dissector (when loaded)",
				       &pref_raw_j2735);

	register_dissector("ieee1609dot3", dissect_wsmp, proto_wsmp);
}

void proto_reg_handoff_ieee1609dot3(void)
{
	/* Runs after the built-in dissectors' handoffs, so this replaces the built-in
	 * WSMP on 0x88DC; "-d ethertype==0x88dc,wsmp" switches back. */
	dissector_add_uint("ethertype", ETHERTYPE_WSMP, find_dissector("ieee1609dot3"));
	dot2_handle = find_dissector_add_dependency("ieee1609dot2.data", proto_wsmp);
	j2735_handle = find_dissector("j2735");
}
