/* The plugin's entry points (doc/README.plugins, ws-compat.h), registering the WSMP and
 * WSA dissectors and those of what forwarders put around WSMP or a message. */
#include <epan/packet.h>

#include "ieee1609dot3.h"
#include "ws-compat.h"

V2X_PLUGIN_EXPORTS(V2X_VERSION)

static void register_protocols(void)
{
	proto_register_ieee1609dot3();
	proto_register_ieee1609dot3_wsa();
	proto_register_v2x_forward();
}

static void register_handoffs(void)
{
	proto_reg_handoff_ieee1609dot3();
	proto_reg_handoff_ieee1609dot3_wsa();
	proto_reg_handoff_v2x_forward();
}

void plugin_register(void)
{
	/* Wireshark keeps the pointer: the registration record must outlive this call. */
	static const proto_plugin plugin = {
		.register_protoinfo = register_protocols,
		.register_handoff = register_handoffs,
	};
	proto_register_plugin(&plugin);
}
