/* libv2x: V2X frames as vehicles and roadside units send them (802.11p OCB and C-V2X
 * forwarders, IEEE 1609.3 WSMP, IEEE 1609.2, SAE J2735), for applications. The whole
 * API; docs/api.md is the guide, each header the reference of its functions.
 *
 *   cc prog.c $(pkg-config --cflags --libs v2x) */
#ifndef V2X_V2X_H
#define V2X_V2X_H

#include <v2x/base.h>
#include <v2x/capture.h>
#include <v2x/dump.h>
#include <v2x/encode.h>
#include <v2x/frame.h>
#include <v2x/j2735.h>
#include <v2x/ocb.h>
#include <v2x/priority.h>
#include <v2x/stats.h>
#include <v2x/tx.h>

#endif
