/* What differs between the Wireshark releases the plugins build against (4.0 to 4.6),
 * chosen with ws_version.h, so that every plugin source is written once, against the
 * newest API. Included by both plugins; 4.2 takes the 4.0 branches (see each line). */
#ifndef V2X_WS_COMPAT_H
#define V2X_WS_COMPAT_H

#include <stdbool.h>
#include <stdint.h>

#include <ws_version.h>
#include <epan/packet.h>
#include <epan/prefs.h>

#define V2X_WS_AT_LEAST(major, minor)                                                   \
	(WIRESHARK_VERSION_MAJOR > (major) ||                                            \
	 (WIRESHARK_VERSION_MAJOR == (major) && WIRESHARK_VERSION_MINOR >= (minor)))

/* 4.6 moved value_string.h from epan/ to wsutil/. */
#if V2X_WS_AT_LEAST(4, 6)
#include <wsutil/value_string.h>
#else
#include <epan/value_string.h>
#endif

/* The boolean of heuristic dissectors and of boolean preferences: gboolean (an int) up
 * to 4.2, bool from 4.4. A wrong choice would let Wireshark write the wrong width into a
 * preference, so the choice is checked against the API's own declarations. */
#if V2X_WS_AT_LEAST(4, 4)
typedef bool v2x_ws_bool;
#else
typedef gboolean v2x_ws_bool;
#endif
_Static_assert(__builtin_types_compatible_p(
		       __typeof__(((heur_dissector_t)0)(NULL, NULL, NULL, NULL)), v2x_ws_bool),
	       "ws-compat.h: heur_dissector_t returns another type in this Wireshark");
_Static_assert(__builtin_types_compatible_p(__typeof__(prefs_register_bool_preference),
					    void(module_t *, const char *, const char *,
						 const char *, v2x_ws_bool *)),
	       "ws-compat.h: prefs_register_bool_preference takes another type here");

/* 4.4 renamed the tvb accessors to C99 names and deprecated the GLib-named ones. */
#if !V2X_WS_AT_LEAST(4, 4)
#define tvb_get_uint8 tvb_get_guint8
#endif

/* 4.6 renamed dissector_try_uint_new and deprecated the old name. */
#if !V2X_WS_AT_LEAST(4, 6)
#define dissector_try_uint_with_data dissector_try_uint_new
#endif

/* The symbols Wireshark looks up in an epan plugin (doc/README.plugins): the version
 * `tshark -G plugins` shows, the release it was built for and, from 4.4 on, what kind of
 * plugin it is. plugin_register() is the plugin's own. */
#if V2X_WS_AT_LEAST(4, 4)
#include <wsutil/plugins.h>
#define V2X_PLUGIN_DESCRIBE                                                             \
	WS_DLL_PUBLIC uint32_t plugin_describe(void);                                    \
	uint32_t plugin_describe(void) { return WS_PLUGIN_DESC_DISSECTOR; }
#else
#define V2X_PLUGIN_DESCRIBE
#endif
#define V2X_PLUGIN_EXPORTS(version)                                                     \
	WS_DLL_PUBLIC_DEF const char plugin_version[] = version;                         \
	WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;         \
	WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;         \
	WS_DLL_PUBLIC void plugin_register(void);                                        \
	V2X_PLUGIN_DESCRIBE

#endif
