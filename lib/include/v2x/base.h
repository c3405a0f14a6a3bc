/* libv2x's foundations: the version, the status codes every function returns, and the
 * size of an error buffer. Included by every public header (and by <v2x/v2x.h>).
 *
 * Conventions of the whole API (docs/api.md):
 *  - Functions return 0 or a negative enum v2x_status, or a handle / NULL.
 *  - The message naming the cause: v2x_<handle>_geterr(handle) for a handle, and
 *    char errbuf[V2X_ERRBUF_SIZE] for the calls that make one. NULL or garbage arguments
 *    give V2X_EINVAL (or NULL with errbuf filled); libv2x never aborts, exits or writes
 *    to stderr.
 *  - What a call hands out is borrowed unless it says otherwise: valid until the next
 *    call on the same handle.
 *  - Threads: one handle, one thread at a time; distinct handles in parallel are safe.
 *  - The ABI only grows: caller-allocated structs start with a size field, structs the
 *    library owns only grow at their end, everything else is an opaque handle. */
#ifndef V2X_V2X_BASE_H
#define V2X_V2X_BASE_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define V2X_API __attribute__((visibility("default")))
#else
#define V2X_API
#endif

/* The API these headers declare: major << 16 | minor << 8. A program that needs a
 * function added later tests `#if V2X_API_VERSION >= ...`. */
#define V2X_API_VERSION 0x000100

/* Room for any message libv2x writes into an errbuf, its NUL included. */
#define V2X_ERRBUF_SIZE 256

enum v2x_status {
	V2X_OK = 0,
	V2X_EFORMAT = -1,       /* malformed input: a frame, a record, a file's content */
	V2X_EINVAL = -2,        /* an argument the function does not take (NULL, out of range) */
	V2X_EIO = -3,           /* the system refused to open, read or write */
	V2X_ENOMEM = -4,        /* out of memory */
	V2X_ENOTSUP = -5,       /* a format, link type or feature this build does not have */
	V2X_EAGAIN = -6,        /* nothing now: call again (a live capture without a frame) */
	V2X_EPERM = -7,         /* the system needs a privilege the caller lacks (CAP_NET_ADMIN) */
	V2X_ENODEV = -8,        /* no such (wireless) interface */
	V2X_EBUSY = -9,         /* the device is held by something else */
};

/* "libv2x 0.1.0": the library's name and version (run time; V2X_API_VERSION is the
 * headers'). Static string, thread safe. */
V2X_API const char *v2x_lib_version(void);

/* A short English text for a status ("malformed input"); "unknown status" for a value
 * not in enum v2x_status. Static string, thread safe. */
V2X_API const char *v2x_strerror(int status);

#ifdef __cplusplus
}
#endif

#endif
