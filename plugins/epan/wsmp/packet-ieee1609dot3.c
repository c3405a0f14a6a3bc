/* IEEE 1609.3 WAVE Short Message Protocol on EtherType 0x88DC: WSMP v3 (1609.3-2016/
 * 2020: N-header, extension elements, TPID 0-5, p-encoded PSID, WSM length) and legacy
 * v2 (1609.3-2010). The payload goes to 1609.2, the PSID table, J2735 or data. */
#include <stdio.h>

#include <epan/decode_as.h>
#include <epan/etypes.h>
#include <epan/exceptions.h>
#include <epan/expert.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>
#include <epan/show_exception.h>
#include <epan/tfs.h>
#include <epan/unit_strings.h>

#include "ieee1609dot3.h"
#include "frame.h"
#include "j2735.h"
#include "radiotap.h"
#include "registry.h"
#include "udp-datagram.h"
#include "ws-compat.h"
#include "vals.h"
#include "wsmp.h"

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
static expert_field ei_bad_fcs = EI_INIT;

static dissector_table_t psid_table;
static dissector_handle_t dot2_handle;
static dissector_handle_t j2735_handle;
static dissector_handle_t j2735_recorded_handle;
static v2x_ws_bool pref_raw_j2735 = true;

/* What COL_INFO and the payload handoff need from the header. */
struct wsmp_header {
	unsigned version;
	bool has_psid;
	uint32_t psid;
	bool has_lpp;
	uint32_t lpp;
	int channel;   /* -1: no channel element */
	int data_rate; /* -1: no data rate element; else 500 kb/s units */
	uint32_t length;
};

static const value_string subtype_vals[] = {
	{0, "Null networking"},
	{0, NULL},
};

/* The field of each header element libv2x decodes (v2x_wsmp_element_kinds). */
static int element_hf(uint8_t id)
{
	switch (id) {
	case V2X_WEID_TX_POWER:
		return hf_tx_power;
	case V2X_WEID_CHANNEL:
		return hf_channel;
	case V2X_WEID_DATA_RATE:
		return hf_data_rate;
	case V2X_WEID_CHANNEL_LOAD:
		return hf_channel_load;
	case V2X_WEID_TIME_CONFIDENCE:
		return hf_time_confidence;
	default:
		return -1;
	}
}

/* One element as libv2x found it: id, length, value (decoded when libv2x knows it). */
static void add_element(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo,
			const struct v2x_wave_ext *e, struct wsmp_header *h)
{
	int off = (int)e->off, value_at = off + 1 + e->len_len;
	proto_item *ti = proto_tree_add_item(tree, hf_ext_id, tvb, off, 1, ENC_NA);
	proto_item_set_len(ti, value_at + e->len - off);
	proto_tree *et = proto_item_add_subtree(ti, ett_extension);
	proto_tree_add_uint(et, hf_ext_length, tvb, off + 1, e->len_len, e->len);
	const struct v2x_wsmp_element_kind *known = v2x_wsmp_element_kind(e->id);
	if (!e->known) {
		proto_tree_add_item(et, hf_ext_value, tvb, value_at, e->len, ENC_NA);
		expert_add_info(pinfo, ti, known ? &ei_ext_bad_length : &ei_ext_unknown);
		return;
	}
	if (known->unit == V2X_UNIT_DBM)
		proto_tree_add_int(et, element_hf(e->id), tvb, value_at, 1, e->number);
	else
		proto_tree_add_uint(et, element_hf(e->id), tvb, value_at, 1, (uint32_t)e->number);
	if (known->unit == V2X_UNIT_CHANNEL)
		h->channel = e->number;
	else if (known->unit == V2X_UNIT_RATE_500K)
		h->data_rate = e->number;
}

/* A Count field and the elements libv2x kept of its list. */
static void add_elements(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo,
			 uint32_t count_off, unsigned count_len, unsigned announced,
			 const struct v2x_wave_ext *e, unsigned n, struct wsmp_header *h)
{
	if (!tvb_bytes_exist(tvb, (int)count_off, (int)count_len))
		return; /* the Count itself is cut short: the parse error says so */
	proto_item *ti = proto_tree_add_uint(tree, hf_ext_count, tvb, (int)count_off,
					     (int)count_len, announced);
	proto_tree *xt = proto_item_add_subtree(ti, ett_extensions);
	for (unsigned i = 0; i < n; i++)
		add_element(xt, tvb, pinfo, &e[i], h);
	if (n)
		proto_item_set_len(ti, (int)(e[n - 1].off + 1 + e[n - 1].len_len + e[n - 1].len -
					     count_off));
}

/* A p-encoded PSID or LPP, as its value with the encoded octets below it. */
static void add_pencoded(proto_tree *tree, tvbuff_t *tvb, int hf, const struct v2x_wsmp *w,
			 uint32_t value)
{
	proto_item *ti = proto_tree_add_uint(tree, hf, tvb, (int)w->addr_off, (int)w->addr_len,
					     value);
	proto_tree_add_item(proto_item_add_subtree(ti, ett_psid), hf_psid_encoded, tvb,
			    (int)w->addr_off, (int)w->addr_len, ENC_NA);
}

/* The Address Info libv2x read (PSID, LPP or ports) and the T-header extensions. */
static void add_address(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo,
			const struct v2x_wsmp *w, struct wsmp_header *h)
{
	if (w->has_psid)
		add_pencoded(tree, tvb, hf_psid, w, w->psid);
	if (w->has_lpp)
		add_pencoded(tree, tvb, hf_lpp, w, w->lpp);
	if (w->has_ports) {
		proto_tree_add_uint(tree, hf_src_port, tvb, (int)w->addr_off, 2, w->src_port);
		proto_tree_add_uint(tree, hf_dst_port, tvb, (int)w->addr_off + 2, 2, w->dst_port);
	}
	if (w->t_count_off)
		add_elements(tree, tvb, pinfo, w->t_count_off, w->t_count_len, w->n_text_total,
			     w->text, w->n_text, h);
	h->has_psid = w->has_psid;
	h->psid = w->psid;
	h->has_lpp = w->has_lpp;
	h->lpp = w->lpp;
}

static void add_length(proto_tree *tree, tvbuff_t *tvb, const struct v2x_wsmp *w,
		       struct wsmp_header *h)
{
	if (!w->length_off || w->error)
		return;
	proto_tree_add_uint(tree, hf_length, tvb, (int)w->length_off, (int)w->length_len,
			    w->length);
	h->length = w->length;
}

/* v3: N-header (subtype, option indicator, version, extensions), T-header (TPID, Address
 * Info, extensions, WSM length): what v2x_wsmp_parse found, where it found it. Returns
 * the item an error of the parse belongs to. */
static proto_item *add_v3(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo,
			  const struct v2x_wsmp *w, struct wsmp_header *h)
{
	proto_item *ni;
	proto_tree *nt = proto_tree_add_subtree(tree, tvb, 0, 1, ett_n_header, &ni, "N-header");
	proto_tree_add_item(nt, hf_subtype, tvb, 0, 1, ENC_NA);
	proto_tree_add_item(nt, hf_option, tvb, 0, 1, ENC_NA);
	proto_tree_add_item(nt, hf_version, tvb, 0, 1, ENC_NA);
	if (w->option && w->n_count_off)
		add_elements(nt, tvb, pinfo, w->n_count_off, w->n_count_len, w->n_ext_total,
			     w->ext, w->n_ext, h);
	if (!w->tpid_off)
		return ni;
	proto_item_set_len(ni, (int)w->tpid_off);
	proto_item *ti;
	proto_tree *tt = proto_tree_add_subtree(tree, tvb, (int)w->tpid_off, -1, ett_t_header,
						&ti, "T-header");
	proto_item *tpid = proto_tree_add_item(tt, hf_tpid, tvb, (int)w->tpid_off, 1, ENC_NA);
	if (w->error == V2X_WSMP_ERR_TPID)
		return tpid;
	add_address(tt, tvb, pinfo, w, h);
	add_length(tt, tvb, w, h);
	if (!w->error)
		proto_item_set_len(ti, (int)(w->hdr_len - w->tpid_off));
	return ti;
}

/* v2 (1609.3-2010): version, PSID, 1-octet elements, WAVE element id, 2-octet length. */
static proto_item *add_v2(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo,
			  const struct v2x_wsmp *w, struct wsmp_header *h)
{
	proto_item *vi = proto_tree_add_item(tree, hf_version, tvb, 0, 1, ENC_NA);
	add_address(tree, tvb, pinfo, w, h);
	for (unsigned i = 0; i < w->n_ext; i++)
		add_element(tree, tvb, pinfo, &w->ext[i], h);
	if (w->wave_element_id_off)
		proto_tree_add_item(tree, hf_wave_element_id, tvb, (int)w->wave_element_id_off, 1,
				    ENC_NA);
	add_length(tree, tvb, w, h);
	return vi;
}

/* The parser's error, in its words, where it happened; at is the item it belongs to. */
static void add_error(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo,
		      const struct v2x_wsmp *w, proto_item *at, const char *why)
{
	int off = (int)w->error_off;
	int rest = tvb_captured_length_remaining(tvb, off);
	rest = rest > 0 ? rest : 0;
	switch (w->error) {
	case V2X_WSMP_ERR_VERSION:
		expert_add_info_format(pinfo, at, &ei_bad_version, "%s", why);
		break;
	case V2X_WSMP_ERR_TPID:
		expert_add_info_format(pinfo, at, &ei_bad_tpid, "%s", why);
		break;
	case V2X_WSMP_ERR_PSID: {
		proto_item *ti = proto_tree_add_item(tree, hf_psid_encoded, tvb, off,
						     rest ? 1 : 0, ENC_NA);
		expert_add_info_format(pinfo, ti, &ei_bad_psid, "%s", why);
		break;
	}
	case V2X_WSMP_ERR_TRUNCATED:
	case V2X_WSMP_OK:
		proto_tree_add_expert_format(tree, pinfo, &ei_truncated, tvb, off, rest, "%s", why);
		break;
	}
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
	if (h->has_lpp)
		col_append_fstr(pinfo->cinfo, COL_INFO, " LPP 0x%x", h->lpp);
	if (h->channel >= 0)
		col_append_fstr(pinfo->cinfo, COL_INFO, " ch %d", h->channel);
	if (h->data_rate >= 0) {
		char mbps[32];
		vals_format_mbps(mbps, sizeof mbps, (uint32_t)h->data_rate);
		col_append_fstr(pinfo->cinfo, COL_INFO, " %s", mbps);
	}
	col_append_fstr(pinfo->cinfo, COL_INFO, " %u B", h->length);
}

/* The built-in 1609.2 dissector decodes the envelope; the J2735 entry of its PSID table only
 * notes the message, which goes to j2735.recorded here, at the top of the tree (README:
 * "J2735 at the top level"). A bad envelope does not lose a message 1609.2 found before the
 * error: its exception is shown after the message, so that Info keeps "[Malformed Packet]"
 * after J2735's summary. */
static void dissect_dot2(tvbuff_t *payload, packet_info *pinfo, proto_tree *top)
{
	volatile unsigned long code = 0;
	const char *volatile message = NULL;
	const char *volatile proto = NULL;
	TRY {
		call_dissector(dot2_handle, payload, pinfo, top);
	}
	CATCH_BOUNDS_AND_DISSECTOR_ERRORS {
		code = EXCEPT_CODE;
		message = wmem_strdup(pinfo->pool, GET_MESSAGE);
		proto = pinfo->current_proto;
	}
	ENDTRY;
	if (j2735_recorded_handle)
		call_dissector_only(j2735_recorded_handle, payload, pinfo, top, NULL);
	if (code) {
		pinfo->current_proto = proto; /* named as the protocol that failed */
		show_exception(payload, pinfo, top, code, message);
	}
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
		dissect_dot2(payload, pinfo, top);
		return;
	}
	/* The PSID table holds J2735 on the PSIDs the registry and the J2735 plugin's
	 * extra_psids preference name (v2x_j2735_basis's first two reasons), the WSA, and
	 * Decode As; past it, libv2x's rule decides by content alone. */
	if (h->has_psid &&
	    dissector_try_uint_with_data(psid_table, h->psid, payload, pinfo, top, TRUE, NULL))
		return;
	if (pref_raw_j2735 && j2735_handle &&
	    v2x_j2735_basis(false, 0, tvb_get_ptr(payload, 0, len), (size_t)len)) {
		call_dissector(j2735_handle, payload, pinfo, top);
		return;
	}
	call_data_dissector(payload, pinfo, top);
}

/* The receiver's radiotap flags say the frame failed its FCS check (libv2x reads the
 * header the frame starts with): v2xcap does not take such a frame as data. */
static void note_bad_fcs(tvbuff_t *tvb, packet_info *pinfo, proto_item *wsmp_item)
{
	if (!proto_is_frame_protocol(pinfo->layers, "radiotap"))
		return;
	tvbuff_t *frame = tvb_get_ds_tvb(tvb);
	unsigned n = tvb_captured_length(frame);
	struct v2x_radiotap rt;
	const char *why;
	if (v2x_radiotap_parse(tvb_get_ptr(frame, 0, (int)n), n, &rt, &why) == 0 && rt.bad_fcs)
		expert_add_info(pinfo, wsmp_item, &ei_bad_fcs);
}

/* libv2x parses the header (v2x_wsmp_parse); this draws what it found at its offsets. */
static int dissect_wsmp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "WSMP");
	col_clear(pinfo->cinfo, COL_INFO);
	proto_item *wsmp_item = proto_tree_add_item(tree, proto_wsmp, tvb, 0, -1, ENC_NA);
	proto_tree *wt = proto_item_add_subtree(wsmp_item, ett_wsmp);
	note_bad_fcs(tvb, pinfo, wsmp_item);
	unsigned caplen = tvb_captured_length(tvb);
	struct v2x_wsmp *w = wmem_new(pinfo->pool, struct v2x_wsmp);
	const char *why = NULL;
	int rc = v2x_wsmp_parse(tvb_get_ptr(tvb, 0, (int)caplen), caplen, w, &why);
	struct wsmp_header h = {.version = w->version, .channel = -1, .data_rate = -1};
	proto_item *at = wsmp_item;
	if (w->version == WSMP_V3)
		at = add_v3(wt, tvb, pinfo, w, &h);
	else if (w->version == WSMP_V2 && w->error != V2X_WSMP_ERR_VERSION)
		at = add_v2(wt, tvb, pinfo, w, &h);
	else if (caplen)
		at = proto_tree_add_item(wt, hf_version, tvb, 0, 1, ENC_NA);
	if (rc < 0) {
		add_error(wt, tvb, pinfo, w, at, why);
		if (w->error == V2X_WSMP_ERR_VERSION)
			col_add_fstr(pinfo->cinfo, COL_INFO, "WSMP, unknown version %u", h.version);
		else
			col_add_fstr(pinfo->cinfo, COL_INFO, "WSMP v%u, bad header", h.version);
		return (int)caplen;
	}
	proto_item_append_text(wsmp_item, ", Version %u", h.version);
	if (h.has_psid)
		proto_item_append_text(wsmp_item, ", PSID 0x%x", h.psid);
	set_info(pinfo, &h);
	dissect_payload(tvb, pinfo, tree, wt, wsmp_item, (int)w->hdr_len, &h);
	return (int)caplen;
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
		{&hf_tpid, {"TPID", "ieee1609dot3.tpid", FT_UINT8, BASE_DEC, NULL, 0x0,
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
		{&ei_bad_fcs, {"ieee1609dot3.bad_fcs", PI_CHECKSUM, PI_WARN,
			       "The receiver flagged this frame's FCS as bad (radiotap flags): "
			       "its WSMP data may be corrupt (v2xcap does not decode it)", EXPFILL}},
	};

	/* Names come from libv2x's registry, built into value_strings once here. */
	const value_string *elements = vals_wave_element();
	for (size_t i = 0; i < array_length(hf); i++) {
		if (hf[i].p_id == &hf_ext_id || hf[i].p_id == &hf_wave_element_id)
			hf[i].hfinfo.strings = VALS(elements);
		else if (hf[i].p_id == &hf_psid)
			hf[i].hfinfo.strings = VALS(vals_psid());
		else if (hf[i].p_id == &hf_tpid)
			hf[i].hfinfo.strings = VALS(vals_tpid());
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
	prefs_register_bool_preference(prefs, "raw_j2735", "Recognise J2735 by content",
				       "Hand a payload that has no IEEE 1609.2 header and no "
				       "PSID table entry to the J2735 dissector (when loaded) if "
				       "libv2x's strict check holds: a defined message id and an "
				       "open type that ends where the payload ends",
				       &pref_raw_j2735);

	register_dissector("ieee1609dot3", dissect_wsmp, proto_wsmp);
}

/* On UDP: a whole WSM forwarded by an RSU or OBU, by libv2x's content rule (the one
 * v2xcap's frame path uses): a v3 header that reads and a length that ends the datagram. */
static v2x_ws_bool dissect_wsmp_udp_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
					 void *data _U_)
{
	guint len;
	const guint8 *buf = v2x_udp_datagram(tvb, &len);
	struct v2x_wsmp *w = wmem_new(pinfo->pool, struct v2x_wsmp);
	if (!buf || !v2x_udp_wsmp_whole(buf, len, w))
		return FALSE;
	dissect_wsmp(tvb, pinfo, tree, NULL);
	return TRUE;
}

void proto_reg_handoff_ieee1609dot3(void)
{
	/* Runs after the built-in dissectors' handoffs, so this replaces the built-in
	 * WSMP on 0x88DC; "-d ethertype==0x88dc,wsmp" switches back. */
	dissector_add_uint("ethertype", ETHERTYPE_WSMP, find_dissector("ieee1609dot3"));
	/* A whole WSM forwarded over UDP: by content, and Decode As by port */
	dissector_add_for_decode_as("udp.port", find_dissector("ieee1609dot3"));
	heur_dissector_add("udp", dissect_wsmp_udp_heur, "IEEE 1609.3 WSMP over UDP", "wsmp_udp",
			   proto_wsmp, HEURISTIC_ENABLE);
	dot2_handle = find_dissector_add_dependency("ieee1609dot2.data", proto_wsmp);
	j2735_handle = find_dissector("j2735");
	j2735_recorded_handle = find_dissector("j2735.recorded");
}
