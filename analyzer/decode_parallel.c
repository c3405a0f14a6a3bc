/* The batch pipeline of decode_parallel.h: reader thread -> N workers -> caller, with one
 * mutex over the batch states (a batch holds hundreds of frames, so the lock is taken a
 * few thousand times a second, not per frame). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode_parallel.h"
#include "progress.h"

/* Large enough that the lock and the wake-ups cost little per frame, small enough that
 * N workers get batches of a short capture too. A batch ends at 32 KiB of frames too: a
 * MAP's JSON is ~30 times its octets, and 256 of them made 4 MiB of output per batch
 * (peak RSS of -j2 on MAP/SPaT 35 -> 15 MB). */
#define BATCH_FRAMES 256
#define BATCH_OCTETS (1u << 15)

enum state { FREE, FILLED, WORKING, DONE };

struct batch {
	enum state state;
	uint64_t seq;
	struct v2xcap_batch pub;
	struct v2xcap_par_item items[BATCH_FRAMES];
	size_t *data_off;          /* per item, while filling: data may move on realloc */
	uint8_t *data;
	size_t data_len, data_cap;
	unsigned char *results;    /* BATCH_FRAMES * result_size */
	struct v2x_buf out;        /* the workers' output, kept from batch to batch */
	bool oom;                  /* out ran out of memory: nothing to emit */
};

struct pipe {
	const struct v2xcap_par_job *job;
	struct v2x_capfile *cf;
	pthread_mutex_t mu;
	pthread_cond_t to_reader, to_workers, to_caller;
	struct batch *b;
	size_t n_b;
	struct json_writer *w;     /* one per worker (64 KiB each) */
	unsigned next_w;
	uint64_t read_seq;         /* batches handed to the workers so far */
	bool eof, stop;
};

static struct batch *find(struct pipe *p, enum state st, uint64_t seq, bool any_seq)
{
	for (size_t i = 0; i < p->n_b; i++)
		if (p->b[i].state == st && (any_seq || p->b[i].seq == seq))
			return &p->b[i];
	return NULL;
}

/* Copies one frame (or error) into b; -1 when out of memory. */
static int batch_add(struct batch *b, const struct v2x_capframe *fr, const char *error,
		     size_t result_size)
{
	struct v2xcap_par_item *it = &b->items[b->pub.n];
	size_t need = error ? strlen(error) + 1 : fr->caplen;
	/* allocated even for an empty first frame: batch_seal points into data */
	if (!b->data || b->data_len + need > b->data_cap) {
		size_t cap = b->data_cap ? b->data_cap : BATCH_OCTETS;
		while (cap < b->data_len + need)
			cap *= 2;
		uint8_t *d = realloc(b->data, cap);
		if (!d)
			return -1;
		b->data = d;
		b->data_cap = cap;
	}
	memcpy(b->data + b->data_len, error ? (const void *)error : fr->data, need);
	it->fr = error ? (struct v2x_capframe){0} : *fr;
	it->error = error; /* made to point into data when the batch is complete */
	it->result = b->results + b->pub.n * result_size;
	b->data_off[b->pub.n++] = b->data_len;
	b->data_len += need;
	return 0;
}

static void batch_seal(struct batch *b, size_t result_size)
{
	for (size_t i = 0; i < b->pub.n; i++) {
		struct v2xcap_par_item *it = &b->items[i];
		if (it->error)
			it->error = (const char *)b->data + b->data_off[i];
		else
			it->fr.data = b->data + b->data_off[i];
	}
	memset(b->results, 0, b->pub.n * result_size);
}

static void *reader(void *arg)
{
	struct pipe *p = arg;
	size_t rs = p->job->result_size;
	struct v2xcap_progress prog;
	struct v2x_capframe fr;
	enum v2x_cap_result r = V2X_CAP_FRAME;
	bool failed = false;
	v2xcap_progress_init(&prog);
	while (r != V2X_CAP_END && !failed) {
		pthread_mutex_lock(&p->mu);
		struct batch *b;
		while (!p->stop && !(b = find(p, FREE, 0, true)))
			pthread_cond_wait(&p->to_reader, &p->mu);
		bool stop = p->stop;
		pthread_mutex_unlock(&p->mu);
		if (stop)
			break;
		b->pub.n = 0;
		b->data_len = 0;
		while (b->pub.n < BATCH_FRAMES && b->data_len < BATCH_OCTETS &&
		       (r = v2x_capfile_next(p->cf, &fr)) != V2X_CAP_END) {
			const char *err = r == V2X_CAP_ERROR ? v2x_capfile_error(p->cf) : NULL;
			if (batch_add(b, &fr, err, rs) < 0) {
				failed = true;
				break;
			}
			v2xcap_progress_tick(&prog, p->cf);
		}
		batch_seal(b, rs);
		pthread_mutex_lock(&p->mu);
		if (b->pub.n) {
			b->seq = p->read_seq++;
			b->state = FILLED;
			pthread_cond_signal(&p->to_workers);
		}
		pthread_mutex_unlock(&p->mu);
	}
	v2xcap_progress_done(&prog, p->cf);
	pthread_mutex_lock(&p->mu);
	p->eof = true;
	if (failed) /* out of memory: what was read is still emitted, then the caller says so */
		p->stop = true;
	pthread_cond_broadcast(&p->to_workers);
	pthread_cond_broadcast(&p->to_caller);
	pthread_mutex_unlock(&p->mu);
	return (void *)(intptr_t)failed;
}

static void work_batch(struct pipe *p, struct batch *b, struct json_writer *w)
{
	v2x_buf_reset(&b->out);
	json_init_buf(w, &b->out);
	for (size_t i = 0; i < b->pub.n; i++)
		if (!b->items[i].error)
			p->job->work(p->job->ctx, &b->items[i], w);
	b->oom = json_flush(w) < 0;
	b->pub.items = b->items;
	b->pub.out = (const char *)b->out.p;
	b->pub.out_len = b->out.len;
}

static void *worker(void *arg)
{
	struct pipe *p = arg;
	pthread_mutex_lock(&p->mu);
	struct json_writer *w = &p->w[p->next_w++];
	for (;;) {
		struct batch *b = NULL;
		uint64_t oldest = UINT64_MAX;
		for (size_t i = 0; i < p->n_b; i++) /* the oldest first: the caller waits for it */
			if (p->b[i].state == FILLED && p->b[i].seq < oldest) {
				b = &p->b[i];
				oldest = b->seq;
			}
		if (!b) {
			if (p->eof)
				break;
			pthread_cond_wait(&p->to_workers, &p->mu);
			continue;
		}
		b->state = WORKING;
		pthread_mutex_unlock(&p->mu);
		work_batch(p, b, w);
		pthread_mutex_lock(&p->mu);
		b->state = DONE;
		pthread_cond_broadcast(&p->to_caller);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static void free_batches(struct pipe *p)
{
	for (size_t i = 0; i < p->n_b; i++) {
		free(p->b[i].data_off);
		free(p->b[i].data);
		free(p->b[i].results);
		v2x_buf_free(&p->b[i].out);
	}
	free(p->b);
	free(p->w);
}

static int alloc_batches(struct pipe *p, unsigned threads, size_t rs)
{
	/* Two per worker: one being worked on while the next waits; two more for the
	 * reader filling and the caller emitting. */
	size_t n = 2 * (size_t)threads + 2;
	p->b = calloc(n, sizeof(*p->b));
	p->w = malloc(threads * sizeof(*p->w));
	if (!p->b || !p->w)
		return -1;
	p->n_b = n;
	for (size_t i = 0; i < p->n_b; i++) {
		p->b[i].data_off = malloc(BATCH_FRAMES * sizeof(size_t));
		p->b[i].results = malloc(BATCH_FRAMES * (rs ? rs : 1));
		if (!p->b[i].data_off || !p->b[i].results)
			return -1;
	}
	return 0;
}

int v2xcap_par_run(struct v2x_capfile *cf, const struct v2xcap_par_job *job)
{
	struct pipe p = {.job = job, .cf = cf};
	unsigned n = job->threads ? job->threads : 1;
	pthread_t rd, *wk = calloc(n, sizeof(*wk));
	unsigned started = 0;
	int rc = -1;
	bool oom = false;
	if (!wk || alloc_batches(&p, n, job->result_size) < 0)
		goto out;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.to_reader, NULL);
	pthread_cond_init(&p.to_workers, NULL);
	pthread_cond_init(&p.to_caller, NULL);
	for (; started < n; started++)
		if (pthread_create(&wk[started], NULL, worker, &p) != 0)
			break;
	if (started < n || pthread_create(&rd, NULL, reader, &p) != 0) {
		pthread_mutex_lock(&p.mu);
		p.eof = true;
		pthread_cond_broadcast(&p.to_workers);
		pthread_mutex_unlock(&p.mu);
	} else {
		uint64_t next = 0;
		bool go = true;
		pthread_mutex_lock(&p.mu);
		for (;;) {
			struct batch *b = find(&p, DONE, next, false);
			if (!b) {
				if (p.eof && next == p.read_seq)
					break;
				pthread_cond_wait(&p.to_caller, &p.mu);
				continue;
			}
			pthread_mutex_unlock(&p.mu);
			oom |= b->oom;
			if (go && (b->oom || !job->emit(job->ctx, &b->pub)))
				go = false;
			pthread_mutex_lock(&p.mu);
			if (!go)
				p.stop = true;
			b->state = FREE;
			next++;
			pthread_cond_signal(&p.to_reader);
		}
		pthread_mutex_unlock(&p.mu);
		void *failed;
		pthread_join(rd, &failed);
		rc = failed || oom ? -1 : 0;
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(wk[i], NULL);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.to_reader);
	pthread_cond_destroy(&p.to_workers);
	pthread_cond_destroy(&p.to_caller);
out:
	free_batches(&p);
	free(wk);
	return rc;
}

unsigned v2xcap_par_default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

int v2xcap_par_parse_threads(const char *arg, unsigned *threads)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (!*arg || *end || errno || v < 1 || v > 256)
		return -1;
	*threads = (unsigned)v;
	return 0;
}
