/* SAE J2735 messages decoded by code that asn2wrs generates at build time from the user's
 * schema (asn1/asn2wrs/j2735_prep.py, j2735.cnf); the asn2wrs markers below pull it in.
 * Only built when J2735_ASN1_DIR is set; j2735-headeronly.c stands in otherwise. */
#include <epan/packet.h>
#include <epan/asn1.h>
#include <epan/dissectors/packet-per.h>

#include "packet-j2735.h"

#define PNAME  "SAE J2735"
#define PSNAME "J2735"
#define PFNAME "j2735"

const char *const j2735_gen_edition = J2735_EDITION;

static int proto_j2735 = -1;
static dissector_table_t partii_table;

static int j2735_dissect_partii_value(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				      void *data _U_)
{
	guint32 id = j2735_summary_get(pinfo)->partii_id;
	int n = dissector_try_uint_with_data(partii_table, id, tvb, pinfo, tree, FALSE, NULL);
	return n ? n : j2735_unknown_id(tvb, pinfo, tree, "BSM part II id", id);
}

/* Regional extensions: one table per REG-EXT-ID-AND-TYPE object set, keyed by region id.
 * Each type holding a regional field makes its set current while it is dissected. */
#include "j2735-gen-regext.c"
static dissector_table_t regext_tables[array_length(j2735_regext_sets)];

static guint j2735_regext_enter(packet_info *pinfo, guint set)
{
	struct j2735_summary *s = j2735_summary_get(pinfo);
	guint outer = s->regext_set;
	s->regext_set = set;
	return outer;
}

static void j2735_regext_leave(packet_info *pinfo, guint outer)
{
	j2735_summary_get(pinfo)->regext_set = outer;
}

static int j2735_dissect_regext_value(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				      void *data _U_)
{
	struct j2735_summary *s = j2735_summary_get(pinfo);
	guint set = s->regext_set < array_length(regext_tables) ? s->regext_set : 0;
	int n = 0;
	if (set)
		n = dissector_try_uint_with_data(regext_tables[set], s->region_id, tvb, pinfo, tree,
					   FALSE, NULL);
	if (n)
		return n;
	return j2735_unknown_id(tvb, pinfo, tree,
				wmem_strdup_printf(pinfo->pool, "%s region id",
						   set ? j2735_regext_sets[set] : "regional extension"),
				s->region_id);
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

dissector_t j2735_gen_message_dissector(guint32 msg_id)
{
	for (const struct j2735_msg_pdu *m = j2735_msg_pdus; m->type; m++)
		if (m->id == msg_id)
			return m->dissect;
	return NULL;
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
	partii_table = register_dissector_table("j2735.partii", "J2735 BSM part II id",
						proto, FT_UINT32, BASE_DEC);
	for (guint i = 1; i < array_length(regext_tables); i++)
		regext_tables[i] = register_dissector_table(
			g_strdup_printf("j2735.regext.%s", j2735_regext_sets[i]),
			g_strdup_printf("J2735 %s region id", j2735_regext_sets[i]),
			proto, FT_UINT32, BASE_DEC);
}

void j2735_gen_handoff(void)
{
#include "packet-j2735-dis-tab.c"
}
