/* IEEE 1609.3-2020 WAVE Service Advertisement (SrvAdvMsg, PSID 0x87): a hand-written
 * UPER walk over Ieee1609Dot3Wsa.asn with bit-exact items (see README.md for why). */
#include <limits.h>

#include <epan/expert.h>
#include <epan/packet.h>
#include <epan/tfs.h>
#include <epan/unit_strings.h>
#include <wsutil/utf8_entities.h>

#include "ieee1609dot3.h"
#include "registry.h"
#include "uper.h"
#include "vals.h"

#define WSA_VERSION 3
#define WSA_EDCA_RECORDS 4	/* EdcaParameterSet: AC_BE, AC_BK, AC_VI, AC_VO */
#define WSA_TXOP_UNIT_US 32	/* txopLimit unit (IEEE 802.11 TXOP limit) */

static int proto_wsa = -1;

static int hf_version = -1;
static int hf_present_extensions = -1;
static int hf_present_services = -1;
static int hf_present_channels = -1;
static int hf_present_routing = -1;
static int hf_said = -1;
static int hf_content_count = -1;
static int hf_count = -1;
static int hf_ext_id = -1;
static int hf_ext_length = -1;
static int hf_ext_value = -1;
static int hf_service_psid = -1;
static int hf_channel_index = -1;
static int hf_ch_options = -1;
static int hf_operating_class = -1;
static int hf_channel = -1;
static int hf_power = -1;
static int hf_adaptable = -1;
static int hf_data_rate = -1;
static int hf_ch_info_options = -1;
static int hf_lifetime = -1;
static int hf_ip_prefix = -1;
static int hf_ip_prefix_length = -1;
static int hf_default_gateway = -1;
static int hf_primary_dns = -1;
static int hf_repeat_rate = -1;
static int hf_latitude = -1;
static int hf_longitude = -1;
static int hf_elevation = -1;
static int hf_advertiser_id = -1;
static int hf_psc = -1;
static int hf_ipv6_address = -1;
static int hf_service_port = -1;
static int hf_mac_address = -1;
static int hf_rcpi_threshold = -1;
static int hf_count_threshold = -1;
static int hf_count_threshold_interval = -1;
static int hf_channel_access = -1;
static int hf_protocol_type = -1;
static int hf_application_data = -1;
static int hf_edca_res = -1;
static int hf_edca_aci = -1;
static int hf_edca_acm = -1;
static int hf_edca_aifsn = -1;
static int hf_edca_ecw_max = -1;
static int hf_edca_ecw_min = -1;
static int hf_edca_txop_limit = -1;
static int hf_ext_channel_med_id = -1;
static int hf_ext_channel_length = -1;
static int hf_ext_channel_lte_v2x = -1;
static int hf_ext_channel_value = -1;

static gint ett_wsa = -1;
static gint ett_list = -1;
static gint ett_item = -1;

static expert_field ei_bad_version = EI_INIT;
static expert_field ei_truncated = EI_INIT;
static expert_field ei_ext_unknown = EI_INIT;
static expert_field ei_ext_channel_unknown = EI_INIT;

/* EdcaParameterRecord aci; the records of an EdcaParameterSet come in this order too. */
static const value_string aci_vals[] = {
	{0, "AC_BE (best effort)"},
	{1, "AC_BK (background)"},
	{2, "AC_VI (video)"},
	{3, "AC_VO (voice)"},
	{0, NULL},
};

/* MedType: the chInfoType values of Ieee1609Dot3Wsa.asn's ChInfoTypes. */
#define MED_UNKNOWN 0
#define MED_ANY 1
#define MED_M5 5
#define MED_CV2X 12
static const value_string med_type_vals[] = {
	{MED_UNKNOWN, "unknown"},
	{MED_ANY, "any"},
	{MED_M5, "M5 (IEEE 802.11 OCB)"},
	{MED_CV2X, "C-V2X"},
	{0, NULL},
};

/* A walk over the UPER bits. Once err is set every read returns 0 and adds nothing,
 * so the structure code needs no checks of its own (tcpdump's GET_ idea, on bits). */
struct walk {
	tvbuff_t *tvb;
	packet_info *pinfo;
	proto_item *top;
	unsigned bit;
	unsigned end; /* the end of the open type being walked: no read goes past it */
	bool err;
	bool in_ext_channel; /* inside ExtendedChannelInfos: bounds the recursion */
};

static bool walk_need(struct walk *w, unsigned nbits)
{
	if (!w->err && ((uint64_t)w->bit + nbits > w->end || !uper_have(w->tvb, w->bit, nbits))) {
		w->err = true;
		expert_add_info(w->pinfo, w->top, &ei_truncated);
	}
	return !w->err;
}

/* A constrained whole number of nbits (1..32) with lower bound 0, as a bit item. */
static uint32_t walk_bits(struct walk *w, proto_tree *t, int hf, unsigned nbits)
{
	if (!walk_need(w, nbits))
		return 0;
	uint64_t v;
	proto_tree_add_bits_ret_val(t, hf, w->tvb, w->bit, nbits, &v, ENC_BIG_ENDIAN);
	w->bit += nbits;
	return (uint32_t)v;
}

/* A constrained integer with a negative lower bound: nbits of (value - lower). */
static void walk_signed(struct walk *w, proto_tree *t, int hf, unsigned nbits, int64_t lower)
{
	if (!walk_need(w, nbits))
		return;
	struct uper_field f = {(uint32_t)tvb_get_bits64(w->tvb, w->bit, nbits, ENC_BIG_ENDIAN),
			       nbits};
	int first = (int)(w->bit / 8);
	int last = (int)((w->bit + nbits + 7) / 8);
	proto_tree_add_int(t, hf, w->tvb, first, last - first, (int32_t)(lower + f.value));
	w->bit += nbits;
}

static uint32_t walk_length(struct walk *w, proto_tree *t, int hf)
{
	struct uper_field f;
	if (w->err)
		return 0;
	if (!uper_length(w->tvb, w->bit, &f)) {
		walk_need(w, UINT32_MAX / 2); /* sets err with the truncation note */
		return 0;
	}
	if (!walk_need(w, f.nbits)) /* within the data, but past the open type */
		return 0;
	uper_add_uint(t, hf, w->tvb, w->bit, &f);
	w->bit += f.nbits;
	return f.value;
}

static uint32_t walk_varlen(struct walk *w, proto_tree *t, int hf)
{
	struct uper_field f;
	if (w->err)
		return 0;
	if (!uper_varlen(w->tvb, w->bit, &f)) {
		walk_need(w, UINT32_MAX / 2);
		return 0;
	}
	if (!walk_need(w, f.nbits))
		return 0;
	uper_add_uint(t, hf, w->tvb, w->bit, &f);
	w->bit += f.nbits;
	return f.value;
}

/* n whole octets at the (maybe unaligned) bit position: IPv6, MAC, strings, bytes. */
static void walk_octets(struct walk *w, proto_tree *t, int hf, unsigned n, unsigned enc)
{
	if (!walk_need(w, 8 * n))
		return;
	if (w->bit % 8 == 0) {
		proto_tree_add_item(t, hf, w->tvb, (int)(w->bit / 8), (int)n, enc);
	} else {
		tvbuff_t *aligned = tvb_new_octet_aligned(w->tvb, w->bit, (gint32)(8 * n));
		add_new_data_source(w->pinfo, aligned, "Octet-aligned WSA field");
		proto_tree_add_item(t, hf, aligned, 0, (int)n, enc);
	}
	w->bit += 8 * n;
}

/* Makes an item span the octets from start_bit to the walk's position. */
static void walk_close(const struct walk *w, proto_item *ti, unsigned start_bit)
{
	proto_item_set_len(ti, (int)((w->bit + 7) / 8 - start_bit / 8));
}

/* Enters an open type of len octets (checked with walk_need): its length bounds the
 * value. Returns the enclosing bound, for walk_leave. */
static unsigned walk_enter(struct walk *w, uint32_t len)
{
	unsigned outer = w->end;
	w->end = w->bit + 8 * len;
	return outer;
}

/* Leaves the open type: skips its padding and any part not decoded. */
static void walk_leave(struct walk *w, unsigned outer)
{
	w->bit = w->end;
	w->end = outer;
}

/* BASE_CUSTOM: an EDCA exponent with its contention window, CW = 2^ECW - 1. */
static void format_ecw(char *label, uint32_t ecw)
{
	snprintf(label, ITEM_LABEL_LENGTH, "%u (CW %u)", ecw, (1u << ecw) - 1);
}

/* BASE_CUSTOM: txopLimit in 32 us units, shown in microseconds. */
static void format_txop_limit(char *label, uint32_t txop)
{
	snprintf(label, ITEM_LABEL_LENGTH, "%u " UTF8_MICRO_SIGN "s (%u)",
		 txop * WSA_TXOP_UNIT_US, txop);
}

/* EdcaParameterSet: four records of 32 bits, one subtree each, labelled by its AC. */
static void walk_edca_set(struct walk *w, proto_tree *t)
{
	for (uint32_t ac = 0; ac < WSA_EDCA_RECORDS && !w->err; ac++) {
		unsigned start = w->bit;
		proto_item *ri;
		proto_tree *rt = proto_tree_add_subtree(t, w->tvb, (int)(w->bit / 8), 1, ett_item,
							&ri, val_to_str_const(ac, aci_vals, "?"));
		walk_bits(w, rt, hf_edca_res, 1);
		uint32_t aci = walk_bits(w, rt, hf_edca_aci, 2);
		walk_bits(w, rt, hf_edca_acm, 1);
		uint32_t aifsn = walk_bits(w, rt, hf_edca_aifsn, 4);
		uint32_t ecw_max = walk_bits(w, rt, hf_edca_ecw_max, 4);
		uint32_t ecw_min = walk_bits(w, rt, hf_edca_ecw_min, 4);
		uint32_t txop = walk_bits(w, rt, hf_edca_txop_limit, 16);
		if (!w->err)
			proto_item_append_text(ri, ": ACI %u, AIFSN %u, CWmin %u, CWmax %u, "
					       "TXOP limit %u " UTF8_MICRO_SIGN "s", aci, aifsn,
					       (1u << ecw_min) - 1, (1u << ecw_max) - 1,
					       txop * WSA_TXOP_UNIT_US);
		walk_close(w, ri, start);
	}
}

/* ChannelInfo and ExtendedChannelInfos contain each other through extensions. */
static void walk_channel_info(struct walk *w, proto_tree *t);

/* ExtendedChannelInfos: medId, then the open type the medium gives (ChInfoTypes). */
static void walk_ext_channel_infos(struct walk *w, proto_tree *t)
{
	w->in_ext_channel = true;
	uint32_t count = walk_length(w, t, hf_count);
	for (uint32_t i = 0; i < count && !w->err; i++) {
		unsigned item_start = w->bit;
		proto_item *ii;
		proto_tree *it = proto_tree_add_subtree_format(t, w->tvb, (int)(w->bit / 8), 1,
							       ett_item, &ii,
							       "Extended channel info %u", i + 1);
		uint32_t med = walk_bits(w, it, hf_ext_channel_med_id, 8);
		uint32_t len = walk_length(w, it, hf_ext_channel_length);
		if (!walk_need(w, 8 * len))
			break;
		unsigned outer = walk_enter(w, len);
		proto_item_append_text(ii, ": %s", val_to_str_const(med, med_type_vals,
								    "unassigned medium"));
		switch (med) {
		case MED_UNKNOWN: /* NULL */
		case MED_ANY:
			break;
		case MED_M5:
			walk_channel_info(w, it);
			break;
		case MED_CV2X: /* LTEv2xChannelInfo: EUTRA RRC types, not decoded */
			walk_octets(w, it, hf_ext_channel_lte_v2x, len, ENC_NA);
			break;
		default:
			walk_octets(w, it, hf_ext_channel_value, len, ENC_NA);
			expert_add_info(w->pinfo, ii, &ei_ext_channel_unknown);
			break;
		}
		walk_leave(w, outer);
		walk_close(w, ii, item_start);
	}
	w->in_ext_channel = false;
}

/* The value of one WAVE extension element (the contents of its open type). */
static void walk_extension_value(struct walk *w, proto_tree *t, uint8_t id, uint32_t len)
{
	switch (id) {
	case V2X_WEID_REPEAT_RATE:
		walk_bits(w, t, hf_repeat_rate, 8);
		break;
	case V2X_WEID_2D_LOCATION: /* fill bit, latitude, longitude (0.1 micro degree) */
	case V2X_WEID_3D_LOCATION: /* the same plus elevation */
		w->bit += 1;
		walk_signed(w, t, hf_latitude, 31, -900000000);
		walk_signed(w, t, hf_longitude, 32, -1799999999);
		if (id == V2X_WEID_3D_LOCATION)
			walk_signed(w, t, hf_elevation, 16, -4096);
		break;
	case V2X_WEID_ADVERTISER_ID: /* UTF8String */
		walk_octets(w, t, hf_advertiser_id, walk_length(w, t, hf_ext_length), ENC_UTF_8);
		break;
	case V2X_WEID_PROVIDER_CONTEXT: /* 3 fill bits, 5-bit size, octets */
		w->bit += 3;
		walk_octets(w, t, hf_psc, walk_bits(w, t, hf_ext_length, 5), ENC_NA);
		break;
	case V2X_WEID_IPV6_ADDRESS:
	case V2X_WEID_SECONDARY_DNS:
		walk_octets(w, t, hf_ipv6_address, 16, ENC_NA);
		break;
	case V2X_WEID_SERVICE_PORT:
		walk_bits(w, t, hf_service_port, 16);
		break;
	case V2X_WEID_PROVIDER_MAC:
	case V2X_WEID_GATEWAY_MAC:
		walk_octets(w, t, hf_mac_address, 6, ENC_NA);
		break;
	case V2X_WEID_RCPI_THRESHOLD:
		walk_bits(w, t, hf_rcpi_threshold, 8);
		break;
	case V2X_WEID_COUNT_THRESHOLD:
		walk_bits(w, t, hf_count_threshold, 8);
		break;
	case V2X_WEID_CHANNEL_ACCESS:
		walk_bits(w, t, hf_channel_access, 8);
		break;
	case V2X_WEID_COUNT_THRESHOLD_INTERVAL:
		walk_bits(w, t, hf_count_threshold_interval, 8);
		break;
	case V2X_WEID_PROTOCOL_TYPE:
		walk_varlen(w, t, hf_protocol_type);
		break;
	case V2X_WEID_ASSERTED_BY_SIGNER: /* NULL */
		break;
	case V2X_WEID_APPLICATION_DATA:
		walk_octets(w, t, hf_application_data, walk_length(w, t, hf_ext_length), ENC_NA);
		break;
	case V2X_WEID_EDCA_PARAMETERS:
		walk_edca_set(w, t);
		break;
	case V2X_WEID_EXT_CHANNEL_INFOS: /* its ChannelInfos cannot carry another one */
		if (!w->in_ext_channel) {
			walk_ext_channel_infos(w, t);
			break;
		}
		/* fall through */
	default: /* ids WSA does not define, an 84 nested in an 84 */
		walk_octets(w, t, hf_ext_value, len, ENC_NA);
		if (!v2x_wave_element_name(id))
			expert_add_info(w->pinfo, proto_tree_get_parent(t), &ei_ext_unknown);
		break;
	}
}

/* SEQUENCE OF Extension: count, then id + open type (length + octets) each. */
static void walk_extensions(struct walk *w, proto_tree *t, const char *what)
{
	unsigned start = w->bit;
	proto_item *li;
	proto_tree *lt = proto_tree_add_subtree(t, w->tvb, (int)(w->bit / 8), 1, ett_list, &li,
						what);
	uint32_t count = walk_length(w, lt, hf_count);
	for (uint32_t i = 0; i < count && !w->err; i++) {
		if (!walk_need(w, 8))
			break;
		unsigned ext_start = w->bit;
		uint8_t id = tvb_get_bits8(w->tvb, w->bit, 8);
		proto_item *ti = proto_tree_add_bits_item(lt, hf_ext_id, w->tvb, w->bit, 8, ENC_NA);
		proto_tree *et = proto_item_add_subtree(ti, ett_item);
		w->bit += 8;
		uint32_t len = walk_length(w, et, hf_ext_length);
		if (!walk_need(w, 8 * len))
			break;
		unsigned outer = walk_enter(w, len);
		walk_extension_value(w, et, id, len);
		walk_leave(w, outer);
		walk_close(w, ti, ext_start);
	}
	walk_close(w, li, start);
}

static void walk_service_infos(struct walk *w, proto_tree *t, uint32_t *n)
{
	unsigned start = w->bit;
	proto_item *li;
	proto_tree *lt = proto_tree_add_subtree(t, w->tvb, (int)(w->bit / 8), 1, ett_list, &li,
						"Service infos");
	uint32_t count = walk_length(w, lt, hf_count);
	for (uint32_t i = 0; i < count && !w->err; i++) {
		unsigned item_start = w->bit;
		proto_item *ii;
		proto_tree *it = proto_tree_add_subtree_format(lt, w->tvb, (int)(w->bit / 8), 1,
							       ett_item, &ii, "Service info %u",
							       i + 1);
		walk_varlen(w, it, hf_service_psid);
		walk_bits(w, it, hf_channel_index, 5);
		uint32_t options = walk_bits(w, it, hf_ch_options, 3);
		if (options & 1)
			walk_extensions(w, it, "Service info extensions");
		walk_close(w, ii, item_start);
	}
	walk_close(w, li, start);
	*n = count;
}

/* One ChannelInfo: an item of the channel infos segment or an M5 extended channel info. */
static void walk_channel_info(struct walk *w, proto_tree *t)
{
	walk_bits(w, t, hf_operating_class, 8);
	walk_bits(w, t, hf_channel, 8);
	walk_signed(w, t, hf_power, 8, -128);
	walk_bits(w, t, hf_adaptable, 1);
	walk_bits(w, t, hf_data_rate, 7);
	uint32_t options = walk_bits(w, t, hf_ch_info_options, 8);
	if (options & 1)
		walk_extensions(w, t, "Channel info extensions");
}

static void walk_channel_infos(struct walk *w, proto_tree *t, uint32_t *n)
{
	unsigned start = w->bit;
	proto_item *li;
	proto_tree *lt = proto_tree_add_subtree(t, w->tvb, (int)(w->bit / 8), 1, ett_list, &li,
						"Channel infos");
	uint32_t count = walk_length(w, lt, hf_count);
	for (uint32_t i = 0; i < count && !w->err; i++) {
		unsigned item_start = w->bit;
		proto_item *ii;
		proto_tree *it = proto_tree_add_subtree_format(lt, w->tvb, (int)(w->bit / 8), 1,
							       ett_item, &ii, "Channel info %u",
							       i + 1);
		walk_channel_info(w, it);
		walk_close(w, ii, item_start);
	}
	walk_close(w, li, start);
	*n = count;
}

static void walk_routing_advertisement(struct walk *w, proto_tree *t)
{
	unsigned start = w->bit;
	proto_item *ri;
	proto_tree *rt = proto_tree_add_subtree(t, w->tvb, (int)(w->bit / 8), 1, ett_list, &ri,
						"Routing advertisement");
	walk_bits(w, rt, hf_lifetime, 16);
	walk_octets(w, rt, hf_ip_prefix, 16, ENC_NA);
	walk_bits(w, rt, hf_ip_prefix_length, 8);
	walk_octets(w, rt, hf_default_gateway, 16, ENC_NA);
	walk_octets(w, rt, hf_primary_dns, 16, ENC_NA);
	walk_extensions(w, rt, "Routing advertisement extensions");
	walk_close(w, ri, start);
}

static int dissect_wsa(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "WSA");
	proto_item *ti = proto_tree_add_item(tree, proto_wsa, tvb, 0, -1, ENC_NA);
	proto_tree *t = proto_item_add_subtree(ti, ett_wsa);
	struct walk w = {tvb, pinfo, ti, 0, UINT_MAX, false, false};

	uint32_t version = walk_bits(&w, t, hf_version, 4);
	if (!w.err && version != WSA_VERSION)
		expert_add_info(pinfo, ti, &ei_bad_version);
	bool has_ext = walk_bits(&w, t, hf_present_extensions, 1);
	bool has_services = walk_bits(&w, t, hf_present_services, 1);
	bool has_channels = walk_bits(&w, t, hf_present_channels, 1);
	bool has_routing = walk_bits(&w, t, hf_present_routing, 1);
	uint32_t said = walk_bits(&w, t, hf_said, 4);
	uint32_t content_count = walk_bits(&w, t, hf_content_count, 4);
	uint32_t services = 0, channels = 0;
	if (has_ext)
		walk_extensions(&w, t, "Header extensions");
	if (has_services)
		walk_service_infos(&w, t, &services);
	if (has_channels)
		walk_channel_infos(&w, t, &channels);
	if (has_routing)
		walk_routing_advertisement(&w, t);

	/* appended: the WSMP summary (PSID, channel, length) stays in front */
	col_append_sep_fstr(pinfo->cinfo, COL_INFO, ", ", "WSA v%u id %u count %u, "
			    "%u service(s), %u channel(s)%s", version, said, content_count,
			    services, channels, has_routing ? ", routing advertisement" : "");
	return tvb_captured_length(tvb);
}

void proto_register_ieee1609dot3_wsa(void)
{
	static const true_false_string tfs_present = {"Present", "Absent"};
	static hf_register_info hf[] = {
		{&hf_version, {"Version", "ieee1609dot3.wsa.version", FT_UINT8, BASE_DEC, NULL, 0x0,
			       NULL, HFILL}},
		{&hf_present_extensions, {"Header extensions", "ieee1609dot3.wsa.has_extensions",
					  FT_BOOLEAN, BASE_NONE, TFS(&tfs_present), 0x0, NULL,
					  HFILL}},
		{&hf_present_services, {"Service infos", "ieee1609dot3.wsa.has_service_infos",
					FT_BOOLEAN, BASE_NONE, TFS(&tfs_present), 0x0, NULL, HFILL}},
		{&hf_present_channels, {"Channel infos", "ieee1609dot3.wsa.has_channel_infos",
					FT_BOOLEAN, BASE_NONE, TFS(&tfs_present), 0x0, NULL, HFILL}},
		{&hf_present_routing, {"Routing advertisement", "ieee1609dot3.wsa.has_routing",
				       FT_BOOLEAN, BASE_NONE, TFS(&tfs_present), 0x0, NULL, HFILL}},
		{&hf_said, {"WSA identifier", "ieee1609dot3.wsa.id", FT_UINT8, BASE_DEC, NULL, 0x0,
			    NULL, HFILL}},
		{&hf_content_count, {"Content count", "ieee1609dot3.wsa.content_count", FT_UINT8,
				     BASE_DEC, NULL, 0x0, NULL, HFILL}},
		{&hf_count, {"Count", "ieee1609dot3.wsa.count", FT_UINT16, BASE_DEC, NULL, 0x0,
			     NULL, HFILL}},
		{&hf_ext_id, {"Element", "ieee1609dot3.wsa.ext.id", FT_UINT8, BASE_DEC, NULL, 0x0,
			      "WAVE element id", HFILL}},
		{&hf_ext_length, {"Length", "ieee1609dot3.wsa.ext.length", FT_UINT16, BASE_DEC,
				  NULL, 0x0, NULL, HFILL}},
		{&hf_ext_value, {"Value", "ieee1609dot3.wsa.ext.value", FT_BYTES, BASE_NONE, NULL,
				 0x0, NULL, HFILL}},
		{&hf_service_psid, {"PSID", "ieee1609dot3.wsa.psid", FT_UINT32, BASE_HEX, NULL, 0x0,
				    NULL, HFILL}},
		{&hf_channel_index, {"Channel index", "ieee1609dot3.wsa.channel_index", FT_UINT8,
				     BASE_DEC, NULL, 0x0, "1-based index into the channel infos",
				     HFILL}},
		{&hf_ch_options, {"Options", "ieee1609dot3.wsa.service_options", FT_UINT8,
				  BASE_HEX, NULL, 0x0, "Bit 0: extensions follow", HFILL}},
		{&hf_operating_class, {"Operating class", "ieee1609dot3.wsa.operating_class",
				       FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL}},
		{&hf_channel, {"Channel number", "ieee1609dot3.wsa.channel", FT_UINT8, BASE_DEC,
			       NULL, 0x0, NULL, HFILL}},
		{&hf_power, {"Transmit power level", "ieee1609dot3.wsa.power", FT_INT8,
			     BASE_DEC | BASE_UNIT_STRING, &units_dbm, 0x0, NULL, HFILL}},
		{&hf_adaptable, {"Adaptable", "ieee1609dot3.wsa.adaptable", FT_BOOLEAN, BASE_NONE,
				 NULL, 0x0, NULL, HFILL}},
		{&hf_data_rate, {"Data rate", "ieee1609dot3.wsa.data_rate", FT_UINT8, BASE_CUSTOM,
				 CF_FUNC(vals_format_data_rate), 0x0, "In 500 kb/s units", HFILL}},
		{&hf_ch_info_options, {"Options", "ieee1609dot3.wsa.channel_options", FT_UINT8,
				       BASE_HEX, NULL, 0x0, "Bit 0: extensions follow", HFILL}},
		{&hf_lifetime, {"Router lifetime", "ieee1609dot3.wsa.router_lifetime", FT_UINT16,
				BASE_DEC | BASE_UNIT_STRING, &units_second_seconds, 0x0, NULL,
				HFILL}},
		{&hf_ip_prefix, {"IP prefix", "ieee1609dot3.wsa.ip_prefix", FT_IPv6, BASE_NONE,
				 NULL, 0x0, NULL, HFILL}},
		{&hf_ip_prefix_length, {"IP prefix length", "ieee1609dot3.wsa.ip_prefix_length",
					FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL}},
		{&hf_default_gateway, {"Default gateway", "ieee1609dot3.wsa.default_gateway",
				       FT_IPv6, BASE_NONE, NULL, 0x0, NULL, HFILL}},
		{&hf_primary_dns, {"Primary DNS", "ieee1609dot3.wsa.primary_dns", FT_IPv6,
				   BASE_NONE, NULL, 0x0, NULL, HFILL}},
		{&hf_repeat_rate, {"Repeat rate", "ieee1609dot3.wsa.repeat_rate", FT_UINT8,
				   BASE_DEC, NULL, 0x0, "WSAs per 5 s", HFILL}},
		{&hf_latitude, {"Latitude", "ieee1609dot3.wsa.latitude", FT_INT32, BASE_DEC, NULL,
				0x0, "In 0.1 micro degree", HFILL}},
		{&hf_longitude, {"Longitude", "ieee1609dot3.wsa.longitude", FT_INT32, BASE_DEC,
				 NULL, 0x0, "In 0.1 micro degree", HFILL}},
		{&hf_elevation, {"Elevation", "ieee1609dot3.wsa.elevation", FT_INT32, BASE_DEC,
				 NULL, 0x0, "In 0.1 m", HFILL}},
		{&hf_advertiser_id, {"Advertiser identifier", "ieee1609dot3.wsa.advertiser_id",
				     FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL}},
		{&hf_psc, {"Provider service context", "ieee1609dot3.wsa.psc", FT_BYTES, BASE_NONE,
			   NULL, 0x0, NULL, HFILL}},
		{&hf_ipv6_address, {"IPv6 address", "ieee1609dot3.wsa.ipv6_address", FT_IPv6,
				    BASE_NONE, NULL, 0x0, NULL, HFILL}},
		{&hf_service_port, {"Service port", "ieee1609dot3.wsa.service_port", FT_UINT16,
				    BASE_DEC, NULL, 0x0, NULL, HFILL}},
		{&hf_mac_address, {"MAC address", "ieee1609dot3.wsa.mac_address", FT_ETHER,
				   BASE_NONE, NULL, 0x0, NULL, HFILL}},
		{&hf_rcpi_threshold, {"RCPI threshold", "ieee1609dot3.wsa.rcpi_threshold",
				      FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL}},
		{&hf_count_threshold, {"WSA count threshold", "ieee1609dot3.wsa.count_threshold",
				       FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL}},
		{&hf_count_threshold_interval, {"WSA count threshold interval",
						"ieee1609dot3.wsa.count_threshold_interval",
						FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL}},
		{&hf_channel_access, {"Channel access", "ieee1609dot3.wsa.channel_access",
				      FT_UINT8, BASE_DEC, NULL, 0x0,
				      "0 continuous, 1/2 alternating slot 0/1", HFILL}},
		{&hf_protocol_type, {"Protocol type", "ieee1609dot3.wsa.protocol_type", FT_UINT32,
				     BASE_DEC, NULL, 0x0, NULL, HFILL}},
		{&hf_application_data, {"Application data", "ieee1609dot3.wsa.application_data",
					FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL}},
		{&hf_edca_res, {"Reserved", "ieee1609dot3.wsa.edca.res", FT_UINT8, BASE_DEC, NULL,
				0x0, NULL, HFILL}},
		{&hf_edca_aci, {"ACI", "ieee1609dot3.wsa.edca.aci", FT_UINT8, BASE_DEC,
				VALS(aci_vals), 0x0, "Access category index", HFILL}},
		{&hf_edca_acm, {"ACM", "ieee1609dot3.wsa.edca.acm", FT_BOOLEAN, BASE_NONE,
				TFS(&tfs_required_not_required), 0x0,
				"Admission control mandatory", HFILL}},
		{&hf_edca_aifsn, {"AIFSN", "ieee1609dot3.wsa.edca.aifsn", FT_UINT8, BASE_DEC, NULL,
				  0x0, "Arbitration inter-frame space number", HFILL}},
		{&hf_edca_ecw_max, {"ECWmax", "ieee1609dot3.wsa.edca.ecw_max", FT_UINT8,
				    BASE_CUSTOM, CF_FUNC(format_ecw), 0x0,
				    "Exponent of CWmax: CWmax = 2^ECWmax - 1", HFILL}},
		{&hf_edca_ecw_min, {"ECWmin", "ieee1609dot3.wsa.edca.ecw_min", FT_UINT8,
				    BASE_CUSTOM, CF_FUNC(format_ecw), 0x0,
				    "Exponent of CWmin: CWmin = 2^ECWmin - 1", HFILL}},
		{&hf_edca_txop_limit, {"TXOP limit", "ieee1609dot3.wsa.edca.txop_limit",
				       FT_UINT16, BASE_CUSTOM, CF_FUNC(format_txop_limit), 0x0,
				       "In 32 " UTF8_MICRO_SIGN "s units", HFILL}},
		{&hf_ext_channel_med_id, {"Medium", "ieee1609dot3.wsa.ext_channel.med_id",
					  FT_UINT8, BASE_DEC, VALS(med_type_vals), 0x0,
					  "MedType", HFILL}},
		{&hf_ext_channel_length, {"Length", "ieee1609dot3.wsa.ext_channel.length",
					  FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL}},
		{&hf_ext_channel_lte_v2x, {"LTE-V2X channel info",
					   "ieee1609dot3.wsa.ext_channel.lte_v2x", FT_BYTES,
					   BASE_NONE, NULL, 0x0,
					   "LTEv2xChannelInfo (UPER, not decoded)", HFILL}},
		{&hf_ext_channel_value, {"Value", "ieee1609dot3.wsa.ext_channel.value", FT_BYTES,
					 BASE_NONE, NULL, 0x0, NULL, HFILL}},
	};
	static gint *ett[] = {&ett_wsa, &ett_list, &ett_item};
	static ei_register_info ei[] = {
		{&ei_bad_version, {"ieee1609dot3.wsa.version.bad", PI_PROTOCOL, PI_WARN,
				   "WSA version is not 3", EXPFILL}},
		{&ei_truncated, {"ieee1609dot3.wsa.truncated", PI_MALFORMED, PI_ERROR,
				 "Truncated or invalid WSA", EXPFILL}},
		{&ei_ext_unknown, {"ieee1609dot3.wsa.ext.unknown", PI_UNDECODED, PI_NOTE,
				   "Unknown WAVE extension element", EXPFILL}},
		{&ei_ext_channel_unknown, {"ieee1609dot3.wsa.ext_channel.unknown", PI_UNDECODED,
					   PI_NOTE, "Unknown extended channel info medium",
					   EXPFILL}},
	};

	for (size_t i = 0; i < array_length(hf); i++) {
		if (hf[i].p_id == &hf_ext_id)
			hf[i].hfinfo.strings = VALS(vals_wave_element());
		else if (hf[i].p_id == &hf_service_psid)
			hf[i].hfinfo.strings = VALS(vals_psid());
	}
	proto_wsa = proto_register_protocol("IEEE 1609.3 WAVE Service Advertisement",
					    "IEEE 1609.3 WSA", "ieee1609dot3.wsa");
	proto_register_field_array(proto_wsa, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	expert_register_field_array(expert_register_protocol(proto_wsa), ei, array_length(ei));
	register_dissector("ieee1609dot3.wsa", dissect_wsa, proto_wsa);
}

void proto_reg_handoff_ieee1609dot3_wsa(void)
{
	dissector_handle_t wsa = find_dissector("ieee1609dot3.wsa");
	dissector_add_uint(IEEE1609DOT3_PSID_TABLE, V2X_PSID_WSA, wsa);
	dissector_add_uint(IEEE1609DOT2_PSID_TABLE, V2X_PSID_WSA, wsa);
}
