/* SAE J2735 messages decoded by code that asn2wrs generates at build time from the user's
 * schema (asn1/asn2wrs/j2735_prep.py, j2735.cnf); the asn2wrs markers below pull it in.
 * Only built when J2735_ASN1_DIR is set; j2735-headeronly.c stands in otherwise. */
#include <epan/packet.h>
#include <epan/asn1.h>
#include <epan/dissectors/packet-per.h>

#include "packet-j2735.h"

/* The regional add-on types (AddGrpB, AddGrpC) are generated but unreachable: regional
 * extension values stay opaque, their type depends on the enclosing set. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

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
	int n = dissector_try_uint_new(partii_table, id, tvb, pinfo, tree, FALSE, NULL);
	return n ? n : j2735_unknown_id(tvb, pinfo, tree, "BSM part II id", id);
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
}

void j2735_gen_handoff(void)
{
#include "packet-j2735-dis-tab.c"
}
