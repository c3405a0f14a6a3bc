/* What the files of the WSMP plugin share: their registration entry points and the
 * names both the WSMP and the WSA dissector use. */
#ifndef V2X_PLUGIN_IEEE1609DOT3_H
#define V2X_PLUGIN_IEEE1609DOT3_H

/* Filter name of the PSID dissector table (J2735 and WSA register into it). */
#define IEEE1609DOT3_PSID_TABLE "ieee1609dot3.psid"
/* The built-in 1609.2 dissector's PSID table, for payloads inside a 1609.2 envelope. */
#define IEEE1609DOT2_PSID_TABLE "ieee1609dot2.psid"

/* Exported by libwireshark (packet-ieee1609dot2.h), whose header wireshark-dev 4.0
 * ships with includes that do not resolve: the 1609.2 dissector passes this PSID to
 * its PSID table for the next unsecured/signed payload. */
#include <epan/packet.h>
WS_DLL_PUBLIC void ieee1609dot2_set_next_default_psid(packet_info *pinfo, guint32 psid);

void proto_register_ieee1609dot3(void);
void proto_reg_handoff_ieee1609dot3(void);
void proto_register_ieee1609dot3_wsa(void);
void proto_reg_handoff_ieee1609dot3_wsa(void);
/* packet-v2x-forward.c: C-V2X PC5 non-IP frames and USDOT RSU text records over UDP */
void proto_register_v2x_forward(void);
void proto_reg_handoff_v2x_forward(void);

#endif
