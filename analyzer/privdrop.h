/* Giving up privileges once a capture socket is open: switch to an unprivileged user and
 * keep no capabilities, so the rest of the capture runs with no special rights. */
#ifndef V2XCAP_PRIVDROP_H
#define V2XCAP_PRIVDROP_H

#include <stddef.h>

/* user: a name or numeric uid; NULL means the invoking user (SUDO_UID/SUDO_GID), else
 * "nobody". As root, switches to that user (not when it is root itself); every process
 * also clears its capability sets. *became receives what was done ("uid 1000", "no
 * change"). 0, or -1 with a message in err. */
int v2xcap_drop_privileges(const char *user, char *became, size_t became_len, char *err,
			size_t errlen);

#endif
