/* The plugin's entry points: the four symbols Wireshark looks up in an epan plugin
 * (doc/README.plugins), registering the WSMP and WSA dissectors. */
#include <epan/packet.h>
#include <ws_version.h>

#include "ieee1609dot3.h"

WS_DLL_PUBLIC_DEF const char plugin_version[] = V2X_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

static void register_protocols(void)
{
	proto_register_ieee1609dot3();
	proto_register_ieee1609dot3_wsa();
}

static void register_handoffs(void)
{
	proto_reg_handoff_ieee1609dot3();
	proto_reg_handoff_ieee1609dot3_wsa();
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
