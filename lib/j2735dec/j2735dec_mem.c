/* The allocator of the asn1c-generated code (j2735dec_mem.h): blocks up to 1 KiB in
 * 16-octet classes, each class a free list of the calling thread, kept for the next
 * message (no lock, nothing returned to malloc until the thread ends); larger blocks are
 * malloc's. A block freed on another thread than its own joins that thread's lists. */
#include "j2735dec_mem.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#undef malloc
#undef calloc
#undef realloc
#undef free

#define GRAIN 16
#define CLASSES 64 /* 1 .. 64 * GRAIN octets */
#define LARGE 0

/* Before each block; 16 octets, so the block keeps malloc's alignment. */
struct head {
	size_t cls;   /* LARGE or 1..CLASSES - 1 */
	size_t size;  /* LARGE: what was asked */
};

struct lists {
	void *free[CLASSES]; /* a free block holds the next one's address */
	int registered;
};

static _Thread_local struct lists lists;
static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void release(void *arg)
{
	struct lists *l = arg;
	for (size_t c = 1; c < CLASSES; c++)
		while (l->free[c]) {
			void *p = l->free[c];
			l->free[c] = *(void **)p;
			free((struct head *)p - 1);
		}
}

static void make_key(void)
{
	pthread_key_create(&key, release);
}

void *j2735dec_mem_malloc(size_t n)
{
	size_t c = n ? (n + GRAIN - 1) / GRAIN : 1;
	struct head *h;
	if (c >= CLASSES) {
		if (n > SIZE_MAX - sizeof(*h) || !(h = malloc(sizeof(*h) + n)))
			return NULL;
		h->cls = LARGE;
		h->size = n;
		return h + 1;
	}
	void *p = lists.free[c];
	if (p) {
		lists.free[c] = *(void **)p;
		return p;
	}
	if (!lists.registered) { /* the lists go back to malloc when the thread ends */
		pthread_once(&key_once, make_key);
		lists.registered = pthread_setspecific(key, &lists) == 0;
	}
	if (!(h = malloc(sizeof(*h) + c * GRAIN)))
		return NULL;
	h->cls = c;
	return h + 1;
}

void *j2735dec_mem_calloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	void *p = j2735dec_mem_malloc(n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

void j2735dec_mem_free(void *p)
{
	if (!p)
		return;
	struct head *h = (struct head *)p - 1;
	if (h->cls == LARGE) {
		free(h);
		return;
	}
	*(void **)p = lists.free[h->cls];
	lists.free[h->cls] = p;
}

void *j2735dec_mem_realloc(void *p, size_t n)
{
	if (!p)
		return j2735dec_mem_malloc(n);
	struct head *h = (struct head *)p - 1;
	size_t have = h->cls == LARGE ? h->size : h->cls * GRAIN;
	if (n <= have)
		return p;
	void *q = j2735dec_mem_malloc(n);
	if (q) {
		memcpy(q, p, have < n ? have : n);
		j2735dec_mem_free(p);
	}
	return q;
}
