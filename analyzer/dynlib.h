/* Libraries a few commands need, loaded when one of them first does (dlopen) instead of
 * linked into every run: mapping librdkafka or libcrypto and what they pull in was most
 * of v2xcap's start-up beyond libc's (bench/startup-bench, bench/README.md). */
#ifndef V2XCAP_DYNLIB_H
#define V2XCAP_DYNLIB_H

#include <stddef.h>

/* A function of the library, by name, and where its address goes */
struct v2xcap_dynsym {
	const char *name;
	void **fn;
};

/* Loads soname and resolves every symbol: 0, or -1 with why in err ("libx.so.1: ...");
 * on failure no *fn is left set. Not thread-safe: call it before starting threads. */
int v2xcap_dynlib_load(const char *soname, const struct v2xcap_dynsym *syms, size_t n,
		       char *err, size_t errlen);

#endif
