/* The generated part's stand-in when no SAE schema was given at build time: no message
 * is decoded past the MessageFrame header (packet-j2735-messageframe.c says how to get more). */
#include "packet-j2735.h"

const char *const j2735_gen_edition = NULL;

void j2735_gen_register(int proto _U_)
{
}

void j2735_gen_handoff(void)
{
}

dissector_t j2735_gen_message_dissector(guint32 msg_id _U_)
{
	return NULL;
}
