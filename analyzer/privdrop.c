/* Privilege drop for live capture: setgroups/setgid/setuid to the target user, then an
 * empty capability set (also for a binary given file capabilities with setcap). */
#define _GNU_SOURCE
#include "privdrop.h"

#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The traditional nobody/nogroup ids, for systems (static binaries, initramfs) where
 * the password database cannot be read. */
enum { NOBODY_ID = 65534 };

static int parse_id(const char *s, unsigned long *id)
{
	char *end;
	if (!s || !*s)
		return -1;
	*id = strtoul(s, &end, 10);
	return *end ? -1 : 0;
}

static int resolve(const char *user, uid_t *uid, gid_t *gid, char *err, size_t errlen)
{
	unsigned long id;
	if (!user) {
		unsigned long g;
		if (parse_id(getenv("SUDO_UID"), &id) == 0) {
			*uid = (uid_t)id;
			*gid = parse_id(getenv("SUDO_GID"), &g) == 0 ? (gid_t)g : (gid_t)id;
			return 0;
		}
		user = "nobody";
	}
	if (parse_id(user, &id) == 0) {
		struct passwd *pw = getpwuid((uid_t)id);
		*uid = (uid_t)id;
		*gid = pw ? pw->pw_gid : (gid_t)id;
		return 0;
	}
	struct passwd *pw = getpwnam(user);
	if (pw) {
		*uid = pw->pw_uid;
		*gid = pw->pw_gid;
		return 0;
	}
	if (strcmp(user, "nobody") == 0) {
		*uid = NOBODY_ID;
		*gid = NOBODY_ID;
		return 0;
	}
	snprintf(err, errlen, "unknown user '%s'", user);
	return -1;
}

static int clear_capabilities(char *err, size_t errlen)
{
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof data);
	(void)prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (syscall(SYS_capset, &hdr, data) != 0) {
		snprintf(err, errlen, "cannot clear capabilities: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int v2xcap_drop_privileges(const char *user, char *became, size_t became_len, char *err,
			size_t errlen)
{
	snprintf(became, became_len, "no change");
	if (geteuid() == 0) {
		uid_t uid;
		gid_t gid;
		if (resolve(user, &uid, &gid, err, errlen) < 0)
			return -1;
		if (uid == 0) {
			snprintf(became, became_len, "stays root (--user root)");
			return 0;
		}
		if (setgroups(0, NULL) != 0 || setgid(gid) != 0 || setuid(uid) != 0) {
			snprintf(err, errlen, "cannot switch to uid %u: %s", (unsigned)uid,
				 strerror(errno));
			return -1;
		}
		if (setuid(0) == 0) {
			snprintf(err, errlen, "could regain root after dropping it");
			return -1;
		}
		snprintf(became, became_len, "uid %u gid %u", (unsigned)uid, (unsigned)gid);
	}
	return clear_capabilities(err, errlen);
}
