/* SAE J2735 messages decoded by code that asn2wrs generates at build time from the user's
 * schema (asn1/asn2wrs/j2735_prep.py, j2735.cnf); the asn2wrs markers below pull it in.
 * Only built when J2735_ASN1_DIR is set; j2735-headeronly.c stands in otherwise. */
#include <epan/packet.h>
#include <epan/asn1.h>
#include <epan/expert.h>
#include <epan/proto_data.h>
#include <epan/dissectors/packet-per.h>

#include "registry.h"
#include "packet-j2735.h"

#define PNAME  "SAE J2735"
#define PSNAME "J2735"
#define PFNAME "j2735"

const char *const j2735_gen_edition = J2735_EDITION;

static int proto_j2735 = -1;
static expert_field ei_j2735_placeholder = EI_INIT;

/* Open types (BSM and CCM part II, regional extensions): the value's type is chosen by the
 * id read just before it, in the dissector table of the object set current at that point.
 * A type holding an open type of a set makes that set current while it is dissected. */
struct j2735_open_set {
	const char *table;
	const char *what;
};
#include "j2735-gen-sets.c"
static dissector_table_t open_tables[array_length(j2735_open_sets)];

struct j2735_open {
	guint32 id;
	guint set; /* index in j2735_open_sets, 0: none */
};
#define J2735_OPEN_KEY 1 /* proto data of proto_j2735; packet-j2735-messageframe.c uses 0 */

static struct j2735_open *j2735_open_get(packet_info *pinfo)
{
	struct j2735_open *o = p_get_proto_data(pinfo->pool, pinfo, proto_j2735, J2735_OPEN_KEY);
	if (!o) {
		o = wmem_new0(pinfo->pool, struct j2735_open);
		p_add_proto_data(pinfo->pool, pinfo, proto_j2735, J2735_OPEN_KEY, o);
	}
	return o;
}

static guint j2735_open_enter(packet_info *pinfo, guint set)
{
	struct j2735_open *o = j2735_open_get(pinfo);
	guint outer = o->set;
	o->set = set;
	return outer;
}

static void j2735_open_leave(packet_info *pinfo, guint outer)
{
	j2735_open_get(pinfo)->set = outer;
}

static int j2735_dissect_open_value(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				    void *data _U_)
{
	const struct j2735_open *o = j2735_open_get(pinfo);
	guint set = o->set < array_length(open_tables) ? o->set : 0;
	int n = 0;
	if (set)
		n = dissector_try_uint_with_data(open_tables[set], o->id, tvb, pinfo, tree, FALSE,
						 NULL);
	return n ? n : j2735_unknown_id(tvb, pinfo, tree,
					set ? j2735_open_sets[set].what : "open type id", o->id);
}

#include "packet-j2735-hf.c"
#include "packet-j2735-ett.c"
#include "packet-j2735-fn.c"

struct j2735_msg_pdu {
	guint32 id;
	const char *type;
	dissector_t dissect;
};
#include "j2735-gen-tables.c"

static const struct j2735_msg_pdu *msg_pdu(guint32 msg_id)
{
	for (const struct j2735_msg_pdu *m = j2735_msg_pdus; m->type; m++)
		if (m->id == msg_id)
			return m;
	return NULL;
}

/* A message the edition only reserves an id for (`RoadGeometryAndAttributes ::= NULL` in
 * 2024): named, with a note, never an error. */
static int dissect_placeholder(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			       void *data _U_)
{
	guint32 id = j2735_summary_get(pinfo)->msg_id;
	const struct v2x_msgid *msg = v2x_msgid_lookup(id);
	proto_tree_add_expert_format(tree, pinfo, &ei_j2735_placeholder, tvb, 0, -1,
				     "%s: placeholder in this edition (J2735 %s defines %s ::= NULL)",
				     msg ? msg->abbrev : "message", j2735_gen_edition,
				     msg_pdu(id)->type);
	return tvb_captured_length(tvb);
}

dissector_t j2735_gen_message_dissector(guint32 msg_id)
{
	const struct j2735_msg_pdu *m = msg_pdu(msg_id);
	if (!m)
		return NULL;
	return m->dissect ? m->dissect : dissect_placeholder;
}

void j2735_gen_register(int proto)
{
	static hf_register_info hf[] = {
#include "packet-j2735-hfarr.c"
	};
	static gint *ett[] = {
#include "packet-j2735-ettarr.c"
	};
	proto_j2735 = proto;
	proto_register_field_array(proto, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	static ei_register_info ei[] = {
		{&ei_j2735_placeholder, {"j2735.placeholder", PI_UNDECODED, PI_NOTE,
					 "J2735 message that is a placeholder in this edition",
					 EXPFILL}},
	};
	expert_register_field_array(expert_register_protocol(proto), ei, array_length(ei));
	for (guint i = 1; i < array_length(open_tables); i++)
		open_tables[i] = register_dissector_table(
			j2735_open_sets[i].table,
			g_strdup_printf("J2735 %s", j2735_open_sets[i].what), proto, FT_UINT32,
			BASE_DEC);
}

void j2735_gen_handoff(void)
{
#include "packet-j2735-dis-tab.c"
}
