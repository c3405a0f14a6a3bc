/* dlopen of the optional libraries (dynlib.h). */
#include "dynlib.h"

#include <dlfcn.h>
#include <stdio.h>

int v2xcap_dynlib_load(const char *soname, const struct v2xcap_dynsym *syms, size_t n,
		       char *err, size_t errlen)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen, "%s", dlerror());
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!(*syms[i].fn = dlsym(h, syms[i].name))) {
			snprintf(err, errlen, "%s has no %s", soname, syms[i].name);
			for (size_t k = 0; k < i; k++)
				*syms[k].fn = NULL;
			dlclose(h);
			return -1;
		}
	return 0;
}
