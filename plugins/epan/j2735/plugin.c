/* The plugin's entry points (doc/README.plugins): registers the J2735 dissector. The
 * version names the schema edition the plugin was generated from (`tshark -G plugins`). */
#include <epan/packet.h>
#include <ws_version.h>

#include "packet-j2735.h"

WS_DLL_PUBLIC_DEF const char plugin_version[] = V2X_VERSION "-" J2735_PLUGIN_FLAVOUR;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

void plugin_register(void)
{
	/* Wireshark keeps the pointer: the registration record must outlive this call. */
	static const proto_plugin plugin = {
		.register_protoinfo = proto_register_j2735,
		.register_handoff = proto_reg_handoff_j2735,
	};
	proto_register_plugin(&plugin);
}
