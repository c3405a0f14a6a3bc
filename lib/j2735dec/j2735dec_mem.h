/* Included before every asn1c-generated file (CMakeLists.txt here, -include): asn1c
 * allocates and frees one node per member (a MAP: thousands per message), and these go to
 * per-thread free lists (j2735dec_mem.c) instead of malloc, whose arena lock every calloc
 * takes once a process has threads (decode -j N: 8% of the CPU time of a MAP/SPaT capture
 * went to that lock). Not in sanitizer builds: ASan watches malloc's blocks. */
#ifndef J2735DEC_MEM_H
#define J2735DEC_MEM_H

#include <stddef.h>
#include <stdlib.h> /* first: its prototypes keep their names */

void *j2735dec_mem_malloc(size_t n);
void *j2735dec_mem_calloc(size_t n, size_t size);
void *j2735dec_mem_realloc(void *p, size_t n);
void j2735dec_mem_free(void *p);

/* Object-like: asn1c's `void (*free)(type *)` members are renamed alike everywhere the
 * generated code uses them. */
#define malloc j2735dec_mem_malloc
#define calloc j2735dec_mem_calloc
#define realloc j2735dec_mem_realloc
#define free j2735dec_mem_free

#endif
