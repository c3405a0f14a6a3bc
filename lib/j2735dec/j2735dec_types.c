/* Every type descriptor made final once, before any decode (see j2735dec_walk.h).
 *
 * asn1c 0.9.28 gives a type defined from another type (an INTEGER with its own range, an
 * alias of a SEQUENCE: about 500 of them) a descriptor whose codec functions copy the base
 * type's functions into it on their first call. The first decodes on several threads at
 * once then write and read the same descriptors unsynchronised: ThreadSanitizer reports
 * it, and a build by GCC 14 decoded a valid BSM as malformed about once in fifty runs of
 * `stats --decode -j 5`. Printing "absent" through every descriptor reachable from the
 * tables does that copying on one thread, under pthread_once; afterwards the descriptors
 * hold the base functions and nothing writes them again. It costs a process ~0.7 ms, once
 * (200 runs of `decode` on a one-frame capture: 12.7 -> 13.4 ms each). */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "MessageFrame.h"
#include "j2735dec_walk.h"

static int ignore_output(const void *buf, size_t size, void *key)
{
	(void)buf, (void)size, (void)key;
	return 0;
}

/* Descriptors already resolved: open addressing on their addresses. */
struct seen {
	asn_TYPE_descriptor_t **slot;
	size_t cap, n;
};

static size_t hash(const asn_TYPE_descriptor_t *td, size_t cap)
{
	return ((uintptr_t)td >> 4) * 2654435761u & (cap - 1);
}

/* True when td is new (and now recorded). */
static bool first_visit(struct seen *s, asn_TYPE_descriptor_t *td)
{
	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		asn_TYPE_descriptor_t **slot = calloc(cap, sizeof(*slot));
		if (!slot) /* the rest left to their first use, as asn1c has it */
			return false;
		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i]) {
				size_t h = hash(s->slot[i], cap);
				while (slot[h])
					h = (h + 1) & (cap - 1);
				slot[h] = s->slot[i];
			}
		free(s->slot);
		s->slot = slot;
		s->cap = cap;
	}
	size_t h = hash(td, s->cap);
	for (; s->slot[h]; h = (h + 1) & (s->cap - 1))
		if (s->slot[h] == td)
			return false;
	s->slot[h] = td;
	s->n++;
	return true;
}

static void resolve(struct seen *s, asn_TYPE_descriptor_t *td)
{
	if (!td || !first_visit(s, td))
		return;
	td->print_struct(td, NULL, 0, ignore_output, NULL);
	for (int i = 0; i < td->elements_count; i++) /* a typedef's members appear just now */
		resolve(s, td->elements[i].type);
}

static void resolve_table(struct seen *s, const struct j2735dec_open_type *t)
{
	for (; t->name; t++)
		resolve(s, t->type);
}

static void resolve_all(void)
{
	struct seen s = {0};
	resolve(&s, &asn_DEF_MessageFrame);
	resolve_table(&s, j2735dec_messages);
	resolve_table(&s, j2735dec_partii);
	resolve_table(&s, j2735dec_regional);
	free(s.slot);
}

void j2735dec_types_resolve(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, resolve_all);
}
