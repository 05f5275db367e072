// fakegpu.h is the device that the native drivers' fake libraries
// (gpu/cuda/testdata/fakecuda.c, gpu/hip/testdata/fakehip.c) share, each
// binding its library's entry points to it: device memory on host pages
// of its own, streams as worker threads that run their operations in
// order, events stamped by the host's clock, and C versions of the
// driver suite's entries (add, spin, divide) with the kernel arguments
// both calling contracts share (schema/ptx.go, schema/hsaco.go), and
// graphs: a stream's launches captured, then run as a whole. The
// synchronous copies, memsets and frees wait for every stream, as the
// libraries' default stream does for blocking streams.
//
// It is included once, by one fake's C file; its functions are static.

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

// A loaded entry: its name, which of the suite's entries it runs, and
// the facts its library reports of it.
enum { K_UNKNOWN, K_ADD, K_SPIN, K_DIVIDE };
struct fn { char name[128]; int kind, regs, local_bytes, shared_bytes; };

static int kind_of(const char *name) {
	return !strcmp(name, "add") ? K_ADD : !strcmp(name, "spin") ? K_SPIN : !strcmp(name, "divide") ? K_DIVIDE : K_UNKNOWN;
}

// The kernel arguments each entry the fake runs takes: two per buffer,
// the uniform block, the fault word; -1 for an entry it does not run.
static int nparams(int kind) { return kind == K_ADD ? 7 : kind == K_SPIN ? 3 : kind == K_DIVIDE ? 6 : -1; }

// Streams: each a worker thread running its operations in order.
enum { OP_LAUNCH, OP_COPY, OP_MEMSET, OP_EVENT };
struct event { int state; struct timespec t; }; // state: 0 unrecorded, 1 pending, 2 done
struct op {
	int kind;
	struct op *next;
	struct fn *fn;
	unsigned grid[3], block[3];
	uint64_t params[16];
	void *dst, *src;
	size_t n;
	unsigned char v;
	struct event *ev;
};
struct stream {
	struct op *head, *tail;
	int busy, dying;
	struct stream *next;
	// While capturing, what is pushed on the stream goes to the graph.
	int capturing;
	struct graph *graph;
};

// A graph, and an instantiated one alike: the operations captured, in
// order.
struct graph { struct op *head, *tail; };
static struct stream *streams;
static long live_allocs;

static void run(struct stream *s, struct op *o);

static void *worker(void *arg) {
	struct stream *s = arg;
	pthread_mutex_lock(&mu);
	for (;;) {
		while (!s->head && !s->dying) pthread_cond_wait(&cv, &mu);
		if (!s->head) break;
		struct op *o = s->head;
		s->head = o->next;
		if (!s->head) s->tail = 0;
		s->busy = 1;
		pthread_mutex_unlock(&mu);
		run(s, o);
		free(o->src);
		free(o);
		pthread_mutex_lock(&mu);
		s->busy = 0;
		pthread_cond_broadcast(&cv);
	}
	for (struct stream **p = &streams; *p; p = &(*p)->next)
		if (*p == s) { *p = s->next; break; }
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	free(s);
	return 0;
}

static int idle(struct stream *s) { return !s->head && !s->busy; }

// wait_all waits, holding mu, until every stream is idle.
static void wait_all(void) {
	for (;;) {
		int all = 1;
		for (struct stream *s = streams; s; s = s->next) all &= idle(s);
		if (all) return;
		pthread_cond_wait(&cv, &mu);
	}
}

// sync_all waits until every stream is idle.
static void sync_all(void) { pthread_mutex_lock(&mu); wait_all(); pthread_mutex_unlock(&mu); }

static void push(struct stream *s, struct op *o) {
	pthread_mutex_lock(&mu);
	if (s->capturing) {
		struct graph *g = s->graph;
		if (g->tail) g->tail->next = o; else g->head = o;
		g->tail = o;
		pthread_mutex_unlock(&mu);
		return;
	}
	if (s->tail) s->tail->next = o; else s->head = o;
	s->tail = o;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static struct stream *stream_new(void) {
	struct stream *s = calloc(1, sizeof *s);
	pthread_t t;
	pthread_mutex_lock(&mu);
	s->next = streams;
	streams = s;
	pthread_mutex_unlock(&mu);
	pthread_create(&t, 0, worker, s);
	pthread_detach(t);
	return s;
}

// stream_destroy returns at once, as the libraries' does; the worker
// runs what is queued and exits. A spin kernel of a destroyed stream
// stops, so that work a test abandoned does not outlive it for long.
static void stream_destroy(struct stream *s) {
	pthread_mutex_lock(&mu);
	s->dying = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static int stream_idle(struct stream *s) {
	pthread_mutex_lock(&mu);
	int r = idle(s);
	pthread_mutex_unlock(&mu);
	return r;
}

static void stream_sync(struct stream *s) {
	pthread_mutex_lock(&mu);
	while (!idle(s)) pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

// Device memory is mapped pages of its own, handed back to the system
// when freed, so that the leak tests read the process's resident memory
// and not what malloc keeps of freed blocks.
enum { HEADER = 256 }; // the mapping's size, before the 256-aligned memory
static void *device_alloc(size_t n) {
	unsigned char *m = mmap(0, n + HEADER, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) return 0;
	*(size_t *)m = n + HEADER;
	memset(m + HEADER, 0xA5, n); // device memory is not zeroed
	pthread_mutex_lock(&mu); live_allocs++; pthread_mutex_unlock(&mu);
	return m + HEADER;
}
static void device_free(void *p) {
	unsigned char *m = (unsigned char *)p - HEADER;
	pthread_mutex_lock(&mu); wait_all(); live_allocs--; pthread_mutex_unlock(&mu);
	munmap(m, *(size_t *)m);
}
long fake_live_allocs(void) { pthread_mutex_lock(&mu); long n = live_allocs; pthread_mutex_unlock(&mu); return n; }

// The asynchronous copy from pageable memory stages the bytes at once.
static void async_copy(struct stream *s, void *dst, const void *src, size_t n) {
	struct op *o = calloc(1, sizeof *o);
	o->kind = OP_COPY; o->dst = dst; o->src = malloc(n); o->n = n;
	memcpy(o->src, src, n);
	push(s, o);
}
static void async_memset(struct stream *s, void *dst, unsigned char v, size_t n) {
	struct op *o = calloc(1, sizeof *o);
	o->kind = OP_MEMSET; o->dst = dst; o->v = v; o->n = n;
	push(s, o);
}

// Events.
static void event_record(struct event *e, struct stream *s) {
	struct op *o = calloc(1, sizeof *o);
	o->kind = OP_EVENT; o->ev = e;
	pthread_mutex_lock(&mu); e->state = 1; pthread_mutex_unlock(&mu);
	push(s, o);
}
static void event_sync(struct event *e) {
	pthread_mutex_lock(&mu);
	while (e->state == 1) pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}
// event_elapsed sets *ms to the time from a to b and returns 1, or
// returns 0 while either is not done.
static int event_elapsed(float *ms, struct event *a, struct event *b) {
	pthread_mutex_lock(&mu);
	int ready = a->state == 2 && b->state == 2;
	pthread_mutex_unlock(&mu);
	if (ready) *ms = (float)((b->t.tv_sec - a->t.tv_sec) * 1e3 + (b->t.tv_nsec - a->t.tv_nsec) / 1e6);
	return ready;
}

// launch queues a run of f over grid blocks of block work-items on s,
// with its nparams(f->kind) arguments, which params points to.
static void launch(struct stream *s, struct fn *f, const unsigned grid[3], const unsigned block[3], void **params) {
	struct op *o = calloc(1, sizeof *o);
	o->kind = OP_LAUNCH; o->fn = f;
	memcpy(o->grid, grid, sizeof o->grid);
	memcpy(o->block, block, sizeof o->block);
	for (int i = 0; i < nparams(f->kind); i++) o->params[i] = *(uint64_t *)params[i];
	push(s, o);
}

static int dying(struct stream *s) { pthread_mutex_lock(&mu); int d = s->dying; pthread_mutex_unlock(&mu); return d; }

static void run(struct stream *s, struct op *o) {
	switch (o->kind) {
	case OP_COPY: memcpy(o->dst, o->src, o->n); return;
	case OP_MEMSET: memset(o->dst, o->v, o->n); return;
	case OP_EVENT:
		pthread_mutex_lock(&mu);
		clock_gettime(CLOCK_MONOTONIC, &o->ev->t);
		o->ev->state = 2;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		return;
	}
	uint64_t *p = o->params;
	uint64_t threads = (uint64_t)o->grid[0] * o->block[0];
	switch (o->fn->kind) {
	case K_ADD: { // out, in, unused, uniforms: out[i] = in[i] + k below in's length
		uint32_t *out = (uint32_t *)(uintptr_t)p[0], *in = (uint32_t *)(uintptr_t)p[2];
		uint32_t k = *(uint32_t *)(uintptr_t)p[6];
		for (uint64_t i = 0; i < threads; i++)
			if (i < p[3] / 4) out[i] = in[i] + k;
		return;
	}
	case K_SPIN: { // out, uniforms {rounds, inner}
		uint32_t *out = (uint32_t *)(uintptr_t)p[0], *u = (uint32_t *)(uintptr_t)p[2];
		uint32_t x = 12345, i = 0;
		for (; i < u[0] && !dying(s); i++)
			for (uint32_t j = 0; j < u[1]; j++) x = x * 1664525u + 1013904223u;
		out[0] = x; out[1] = i;
		return;
	}
	case K_DIVIDE: { // out, in, uniforms {d}, fault: out[i] = in[i] / d
		uint32_t *out = (uint32_t *)(uintptr_t)p[0], *in = (uint32_t *)(uintptr_t)p[2];
		uint32_t d = *(uint32_t *)(uintptr_t)p[4], *fault = (uint32_t *)(uintptr_t)p[5];
		for (uint64_t i = 0; i < threads && i < p[3] / 4; i++) {
			if (d == 0) { __atomic_fetch_or(fault, 1u, __ATOMIC_RELAXED); out[i] = 0; }
			else out[i] = in[i] / d;
		}
		return;
	}
	}
}

// Graphs. Only launches are captured (the drivers copy a graph's
// uniforms before launching it, outside the capture); a capture begun
// twice, ended without one, or launched empty is an error.
static int capture_begin(struct stream *s) {
	pthread_mutex_lock(&mu);
	int ok = !s->capturing;
	if (ok) { s->capturing = 1; s->graph = calloc(1, sizeof *s->graph); }
	pthread_mutex_unlock(&mu);
	return ok;
}
static struct graph *capture_end(struct stream *s) {
	pthread_mutex_lock(&mu);
	struct graph *g = s->capturing ? s->graph : 0;
	s->capturing = 0;
	s->graph = 0;
	pthread_mutex_unlock(&mu);
	return g;
}
static void graph_free(struct graph *g) {
	for (struct op *o = g->head, *next; o; o = next) { next = o->next; free(o->src); free(o); }
	free(g);
}
static struct graph *graph_copy(struct graph *g) {
	struct graph *c = calloc(1, sizeof *c);
	for (struct op *o = g->head; o; o = o->next) {
		if (o->kind != OP_LAUNCH) { graph_free(c); return 0; }
		struct op *k = malloc(sizeof *k);
		*k = *o;
		k->next = 0;
		if (c->tail) c->tail->next = k; else c->head = k;
		c->tail = k;
	}
	return c;
}
static int graph_launch(struct graph *g, struct stream *s) {
	if (!g->head) return 0;
	for (struct op *o = g->head; o; o = o->next) {
		struct op *k = malloc(sizeof *k);
		*k = *o;
		k->next = 0;
		push(s, k);
	}
	return 1;
}
