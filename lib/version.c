/* The library's version and the texts of its status codes (<v2x/base.h>). */
#include <v2x/base.h>

/* V2X_VERSION: the project's, from lib/CMakeLists.txt */

const char *v2x_lib_version(void)
{
	return "libv2x " V2X_VERSION;
}

const char *v2x_strerror(int status)
{
	switch (status) {
	case V2X_OK:
		return "success";
	case V2X_EFORMAT:
		return "malformed input";
	case V2X_EINVAL:
		return "invalid argument";
	case V2X_EIO:
		return "input/output error";
	case V2X_ENOMEM:
		return "out of memory";
	case V2X_ENOTSUP:
		return "not supported";
	case V2X_EAGAIN:
		return "nothing now, try again";
	case V2X_EPERM:
		return "operation not permitted";
	case V2X_ENODEV:
		return "no such device";
	case V2X_EBUSY:
		return "device busy";
	}
	return "unknown status";
}
