/* The plugin's entry points (doc/README.plugins): registers the J2735 dissector. The
 * version names the schema edition the plugin was generated from (`tshark -G plugins`). */
#include <epan/packet.h>

#include "packet-j2735.h"

V2X_PLUGIN_EXPORTS(V2X_VERSION "-" J2735_PLUGIN_FLAVOUR)

void plugin_register(void)
{
	/* Wireshark keeps the pointer: the registration record must outlive this call. */
	static const proto_plugin plugin = {
		.register_protoinfo = proto_register_j2735,
		.register_handoff = proto_reg_handoff_j2735,
	};
	proto_register_plugin(&plugin);
}
