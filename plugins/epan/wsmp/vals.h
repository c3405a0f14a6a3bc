/* value_string tables built from libv2x's registry (lib/registry.h), so the plugin
 * shows the same PSID and WAVE element names as v2xcap. */
#ifndef V2X_PLUGIN_VALS_H
#define V2X_PLUGIN_VALS_H

#include "ws-compat.h" /* value_string.h, wherever this Wireshark has it */

/* Built once at registration, in wmem_epan_scope(); terminated by {0, NULL}. */
const value_string *vals_psid(void);
const value_string *vals_wave_element(void);
const value_string *vals_tpid(void);

/* BASE_CUSTOM formatter for IEEE 802.11 data rates in 500 kb/s units: "6 Mb/s (12)". */
void vals_format_data_rate(char *label, uint32_t rate);
/* The same rate for COL_INFO: "6 Mb/s", "4.5 Mb/s". */
void vals_format_mbps(char *buf, size_t size, uint32_t rate);

#endif
