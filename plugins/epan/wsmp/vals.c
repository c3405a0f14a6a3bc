/* value_string tables built from libv2x's registry (see vals.h). */
#include <stdio.h>
#include <epan/proto.h>
#include <epan/wmem_scopes.h>

#include "registry.h"
#include "vals.h"
#include "wsmp.h"

const value_string *vals_psid(void)
{
	size_t n = 0;
	while (v2x_psids[n].name)
		n++;
	value_string *vs = wmem_alloc0_array(wmem_epan_scope(), value_string, n + 1);
	for (size_t i = 0; i < n; i++) {
		vs[i].value = v2x_psids[i].psid;
		vs[i].strptr = v2x_psids[i].name;
	}
	return vs;
}

const value_string *vals_wave_element(void)
{
	size_t n = 0;
	while (v2x_wave_elements[n].name)
		n++;
	value_string *vs = wmem_alloc0_array(wmem_epan_scope(), value_string, n + 1);
	for (size_t i = 0; i < n; i++) {
		vs[i].value = v2x_wave_elements[i].value;
		vs[i].strptr = v2x_wave_elements[i].name;
	}
	return vs;
}

const value_string *vals_tpid(void)
{
	value_string *vs = wmem_alloc0_array(wmem_epan_scope(), value_string, V2X_WSMP_N_TPID + 1);
	for (unsigned i = 0; i < V2X_WSMP_N_TPID; i++) {
		vs[i].value = i;
		vs[i].strptr = v2x_wsmp_tpids[i].name;
	}
	return vs;
}

void vals_format_mbps(char *buf, size_t size, uint32_t rate)
{
	snprintf(buf, size, "%u%s Mb/s", rate / 2, rate % 2 ? ".5" : "");
}

void vals_format_data_rate(char *label, uint32_t rate)
{
	char mbps[32];
	vals_format_mbps(mbps, sizeof mbps, rate);
	snprintf(label, ITEM_LABEL_LENGTH, "%s (%u)", mbps, rate);
}
