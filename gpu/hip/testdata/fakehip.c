// fakehip.c is a stand-in for libamdhip64.so that the hip driver's tests
// build with gcc and point XPU_HIP_LIB at. It implements the HIP runtime
// functions the driver calls on host memory (a device pointer is a host
// address), for a made-up gfx90a device whose attributes and
// architecture name the tests may set (fake_set_attr, fake_set_name,
// fake_set_arch, fake_set_memory). A module "loads" by reading the code
// object's ELF: its kernels (the dynamic symbol table's functions) and
// each kernel's descriptor (name.kd), whose VGPR granules and private and
// group segment sizes hipFuncGetAttribute reports; an object for another
// processor than gfx90a (e_flags) does not load. A launch runs, on a
// worker thread per stream, a C version of the entries the tests name
// (add, spin, divide), with the kernel arguments of the HSACO calling
// contract. The null stream's calls (the synchronous copies, hipMemsetD8,
// hipFree) wait for every stream, as HIP's do for blocking streams.

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

typedef int hipError_t;

enum {
	OK = 0, ERR_INVALID_VALUE = 1, ERR_OOM = 2, ERR_NOT_INIT = 3, ERR_INVALID_DEVICE = 101,
	ERR_INVALID_IMAGE = 200, ERR_NO_BINARY = 209, ERR_INVALID_HANDLE = 400, ERR_NOT_FOUND = 500,
	ERR_NOT_READY = 600, ERR_NOT_SUPPORTED = 801,
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int inited;

// The device's attributes, by hipDeviceAttribute_t (ROCm 6).
static int attrs[128];
static char name[256] = "xpu fake HIP device";
static char arch[256] = "gfx90a:sramecc+:xnack-";
static uint64_t memory = 1ull << 30;

// The processor the fake runs: gfx90a, EF_AMDGPU_MACH 0x3f.
enum { MACH = 0x3f };

static void defaults(void) {
	static int done;
	if (done) return;
	done = 1;
	attrs[56] = 1024;                                   // max threads per block
	attrs[26] = 1024; attrs[27] = 1024; attrs[28] = 1024; // max block
	attrs[29] = 2147483647; attrs[30] = 65536; attrs[31] = 65536; // max grid
	attrs[74] = 64 << 10;                               // shared per block
	attrs[87] = 64;                                     // warp
	attrs[5] = 1700000;                                 // clock kHz
	attrs[63] = 104;                                    // compute units
	attrs[16] = 0;                                      // integrated
	attrs[60] = 1600000;                                // memory clock kHz
	attrs[59] = 4096;                                   // bus bits
	attrs[19] = 8 << 20;                                // L2
	attrs[23] = 9; attrs[61] = 0;                       // HIP's "compute capability"
	attrs[75] = 64 << 10;                               // shared optin
}

void fake_set_attr(int id, int v) { pthread_mutex_lock(&mu); defaults(); if (id >= 0 && id < 128) attrs[id] = v; pthread_mutex_unlock(&mu); }
void fake_set_name(const char *s) { pthread_mutex_lock(&mu); snprintf(name, sizeof name, "%s", s); pthread_mutex_unlock(&mu); }
void fake_set_arch(const char *s) { pthread_mutex_lock(&mu); snprintf(arch, sizeof arch, "%s", s); pthread_mutex_unlock(&mu); }
void fake_set_memory(uint64_t n) { pthread_mutex_lock(&mu); memory = n; pthread_mutex_unlock(&mu); }

const char *hipGetErrorName(hipError_t rc) {
	switch (rc) {
	case OK: return "hipSuccess";
	case ERR_INVALID_VALUE: return "hipErrorInvalidValue";
	case ERR_OOM: return "hipErrorOutOfMemory";
	case ERR_NOT_INIT: return "hipErrorNotInitialized";
	case ERR_INVALID_DEVICE: return "hipErrorInvalidDevice";
	case ERR_INVALID_IMAGE: return "hipErrorInvalidImage";
	case ERR_NO_BINARY: return "hipErrorNoBinaryForGpu";
	case ERR_INVALID_HANDLE: return "hipErrorInvalidHandle";
	case ERR_NOT_FOUND: return "hipErrorNotFound";
	case ERR_NOT_READY: return "hipErrorNotReady";
	case ERR_NOT_SUPPORTED: return "hipErrorNotSupported";
	}
	return "hipErrorUnknown";
}

const char *hipGetErrorString(hipError_t rc) {
	switch (rc) {
	case ERR_INVALID_VALUE: return "invalid argument";
	case ERR_OOM: return "out of memory";
	case ERR_INVALID_IMAGE: return "device kernel image is invalid";
	case ERR_NO_BINARY: return "no kernel image is available for execution on the device";
	case ERR_NOT_FOUND: return "named symbol not found";
	case ERR_INVALID_DEVICE: return "invalid device ordinal";
	}
	return "fake error";
}

hipError_t hipInit(unsigned flags) { pthread_mutex_lock(&mu); defaults(); inited = 1; pthread_mutex_unlock(&mu); return flags ? ERR_INVALID_VALUE : OK; }
hipError_t hipRuntimeGetVersion(int *v) { *v = 60342134; return OK; } // 6.3.42134
hipError_t hipGetDeviceCount(int *n) { *n = 1; return inited ? OK : ERR_NOT_INIT; }
hipError_t hipDeviceGet(int *d, int ordinal) { if (ordinal != 0) return ERR_INVALID_DEVICE; *d = 0; return OK; }
hipError_t hipDeviceGetName(char *s, int n, int d) { pthread_mutex_lock(&mu); snprintf(s, n, "%s", name); pthread_mutex_unlock(&mu); return d ? ERR_INVALID_DEVICE : OK; }
hipError_t hipDeviceGetAttribute(int *v, int id, int d) {
	if (d || id < 0 || id >= 128) return ERR_INVALID_VALUE;
	pthread_mutex_lock(&mu); defaults(); *v = attrs[id]; pthread_mutex_unlock(&mu);
	return OK;
}
hipError_t hipDeviceTotalMem(size_t *n, int d) { pthread_mutex_lock(&mu); *n = memory; pthread_mutex_unlock(&mu); return d ? ERR_INVALID_DEVICE : OK; }

// hipGetDevicePropertiesR0600 fills the gcnArchName of the ROCm 6
// hipDeviceProp_t (offset 1160, 256 bytes) and poisons the rest, which
// the driver does not read.
hipError_t hipGetDevicePropertiesR0600(unsigned char *p, int d) {
	if (d) return ERR_INVALID_DEVICE;
	memset(p, 0x5A, 1472);
	pthread_mutex_lock(&mu);
	snprintf((char *)p + 1160, 256, "%s", arch);
	pthread_mutex_unlock(&mu);
	return OK;
}

// The current device is the thread's, and every other call checks that
// it is set: HIP's default, device 0, is not the driver's device in
// general.
static __thread int current = -1;
hipError_t hipSetDevice(int d) { if (d) return ERR_INVALID_DEVICE; current = d; return OK; }
#define NEED_DEV do { if (current != 0) return ERR_INVALID_DEVICE; } while (0)

// Streams: each a worker thread running its operations in order.
enum { OP_LAUNCH, OP_COPY, OP_MEMSET, OP_EVENT };
struct fn;
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
};
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

static void push(struct stream *s, struct op *o) {
	pthread_mutex_lock(&mu);
	if (s->tail) s->tail->next = o; else s->head = o;
	s->tail = o;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

hipError_t hipStreamCreateWithFlags(struct stream **out, unsigned flags) {
	NEED_DEV;
	if (flags) return ERR_INVALID_VALUE; // the driver asks for blocking streams
	struct stream *s = calloc(1, sizeof *s);
	pthread_t t;
	pthread_mutex_lock(&mu);
	s->next = streams;
	streams = s;
	pthread_mutex_unlock(&mu);
	pthread_create(&t, 0, worker, s);
	pthread_detach(t);
	*out = s;
	return OK;
}

// hipStreamDestroy returns at once; the worker runs what is queued and
// exits. A spin kernel of a destroyed stream stops, so that work a test
// abandoned does not outlive it for long.
hipError_t hipStreamDestroy(struct stream *s) {
	NEED_DEV;
	pthread_mutex_lock(&mu);
	s->dying = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	return OK;
}

hipError_t hipStreamQuery(struct stream *s) {
	NEED_DEV;
	pthread_mutex_lock(&mu);
	int r = idle(s) ? OK : ERR_NOT_READY;
	pthread_mutex_unlock(&mu);
	return r;
}

hipError_t hipStreamSynchronize(struct stream *s) {
	NEED_DEV;
	pthread_mutex_lock(&mu);
	while (!idle(s)) pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return OK;
}

// Memory. Device memory is mapped pages of its own, handed back to the
// system when freed, so that the leak tests read the process's resident
// memory and not what malloc keeps of freed blocks.
enum { HEADER = 256 }; // the mapping's size, before the 256-aligned memory
static void *device_alloc(size_t n) {
	unsigned char *m = mmap(0, n + HEADER, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) return 0;
	*(size_t *)m = n + HEADER;
	memset(m + HEADER, 0xA5, n); // device memory is not zeroed
	return m + HEADER;
}
static void device_free(void *p) {
	unsigned char *m = (unsigned char *)p - HEADER;
	munmap(m, *(size_t *)m);
}
hipError_t hipMalloc(void **p, size_t n) {
	NEED_DEV;
	if (n == 0) { *p = 0; return OK; }
	void *m = n > memory ? 0 : device_alloc(n);
	if (!m) return ERR_OOM;
	pthread_mutex_lock(&mu); live_allocs++; pthread_mutex_unlock(&mu);
	*p = m;
	return OK;
}
hipError_t hipFree(void *p) {
	NEED_DEV;
	if (!p) return OK;
	pthread_mutex_lock(&mu); wait_all(); live_allocs--; pthread_mutex_unlock(&mu);
	device_free(p);
	return OK;
}
long fake_live_allocs(void) { pthread_mutex_lock(&mu); long n = live_allocs; pthread_mutex_unlock(&mu); return n; }

hipError_t hipMemcpyHtoD(void *dst, const void *src, size_t n) {
	NEED_DEV;
	pthread_mutex_lock(&mu); wait_all(); pthread_mutex_unlock(&mu);
	memcpy(dst, src, n);
	return OK;
}
hipError_t hipMemcpyDtoH(void *dst, const void *src, size_t n) {
	NEED_DEV;
	pthread_mutex_lock(&mu); wait_all(); pthread_mutex_unlock(&mu);
	memcpy(dst, src, n);
	return OK;
}
hipError_t hipMemsetD8(void *dst, unsigned char v, size_t n) {
	NEED_DEV;
	pthread_mutex_lock(&mu); wait_all(); pthread_mutex_unlock(&mu);
	memset(dst, v, n);
	return OK;
}
// The asynchronous copy from pageable memory stages the bytes at once.
hipError_t hipMemcpyHtoDAsync(void *dst, const void *src, size_t n, struct stream *s) {
	NEED_DEV;
	struct op *o = calloc(1, sizeof *o);
	o->kind = OP_COPY; o->dst = dst; o->src = malloc(n); o->n = n;
	memcpy(o->src, src, n);
	push(s, o);
	return OK;
}
hipError_t hipMemsetD8Async(void *dst, unsigned char v, size_t n, struct stream *s) {
	NEED_DEV;
	struct op *o = calloc(1, sizeof *o);
	o->kind = OP_MEMSET; o->dst = dst; o->v = v; o->n = n;
	push(s, o);
	return OK;
}

// Events.
hipError_t hipEventCreateWithFlags(struct event **e, unsigned flags) { NEED_DEV; *e = calloc(1, sizeof **e); return flags ? ERR_INVALID_VALUE : OK; }
hipError_t hipEventDestroy(struct event *e) { NEED_DEV; free(e); return OK; }
hipError_t hipEventRecord(struct event *e, struct stream *s) {
	NEED_DEV;
	struct op *o = calloc(1, sizeof *o);
	o->kind = OP_EVENT; o->ev = e;
	pthread_mutex_lock(&mu); e->state = 1; pthread_mutex_unlock(&mu);
	push(s, o);
	return OK;
}
hipError_t hipEventSynchronize(struct event *e) {
	NEED_DEV;
	pthread_mutex_lock(&mu);
	while (e->state == 1) pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return OK;
}
hipError_t hipEventElapsedTime(float *ms, struct event *a, struct event *b) {
	NEED_DEV;
	pthread_mutex_lock(&mu);
	int ready = a->state == 2 && b->state == 2;
	pthread_mutex_unlock(&mu);
	if (!ready) return ERR_NOT_READY;
	*ms = (float)((b->t.tv_sec - a->t.tv_sec) * 1e3 + (b->t.tv_nsec - a->t.tv_nsec) / 1e6);
	return OK;
}

// Modules: the kernels of a code object, with the facts of their
// descriptors.
enum { K_UNKNOWN, K_ADD, K_SPIN, K_DIVIDE };
struct fn { char name[128]; int kind, vgprs, private_bytes, group_bytes; };
struct module { int n; struct fn fns[64]; };

// The ELF64 structures the fake reads, as the ELF specification lays
// them out.
struct ehdr { unsigned char ident[16]; uint16_t type, machine; uint32_t version; uint64_t entry, phoff, shoff; uint32_t flags; uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx; };
struct shdr { uint32_t name, type; uint64_t flags, addr, offset, size; uint32_t link, info; uint64_t addralign, entsize; };
struct sym { uint32_t name; unsigned char info, other; uint16_t shndx; uint64_t value, size; };

// at returns the file bytes of the n bytes at virtual address va, or 0.
static const unsigned char *at(const unsigned char *img, const struct shdr *sh, int shnum, uint64_t va, uint64_t n) {
	for (int i = 0; i < shnum; i++)
		if (sh[i].type == 1 && sh[i].addr <= va && va + n <= sh[i].addr + sh[i].size) return img + sh[i].offset + (va - sh[i].addr);
	return 0;
}

static uint32_t u32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }

hipError_t hipModuleLoadData(struct module **out, const void *image) {
	NEED_DEV;
	const unsigned char *img = image;
	const struct ehdr *eh = image;
	if (memcmp(img, "\x7f" "ELF", 4) || img[4] != 2 || eh->machine != 224 || eh->shentsize != sizeof(struct shdr)) return ERR_INVALID_IMAGE;
	if ((eh->flags & 0xff) != MACH) return ERR_NO_BINARY;
	const struct shdr *sh = (const struct shdr *)(img + eh->shoff);
	struct module *m = calloc(1, sizeof *m);
	for (int i = 0; i < eh->shnum; i++) {
		if (sh[i].type != 11) continue; // SHT_DYNSYM
		const struct sym *syms = (const struct sym *)(img + sh[i].offset);
		const char *str = (const char *)img + sh[sh[i].link].offset;
		int nsym = sh[i].size / sizeof(struct sym);
		for (int j = 0; j < nsym && m->n < 64; j++) {
			if ((syms[j].info & 0xf) != 2) continue; // STT_FUNC
			struct fn *f = &m->fns[m->n++];
			snprintf(f->name, sizeof f->name, "%s", str + syms[j].name);
			char kd[140];
			snprintf(kd, sizeof kd, "%s.kd", f->name);
			for (int k = 0; k < nsym; k++) {
				if (strcmp(str + syms[k].name, kd)) continue;
				const unsigned char *d = at(img, sh, eh->shnum, syms[k].value, 64);
				if (!d) { free(m); return ERR_INVALID_IMAGE; }
				// group_segment_fixed_size, private_segment_fixed_size;
				// compute_pgm_rsrc1's VGPR granules, of 8 on gfx90a.
				f->group_bytes = u32(d);
				f->private_bytes = u32(d + 4);
				f->vgprs = ((u32(d + 48) & 0x3f) + 1) * 8;
			}
			f->kind = !strcmp(f->name, "add") ? K_ADD : !strcmp(f->name, "spin") ? K_SPIN : !strcmp(f->name, "divide") ? K_DIVIDE : K_UNKNOWN;
		}
	}
	*out = m;
	return OK;
}

hipError_t hipModuleUnload(struct module *m) { NEED_DEV; free(m); return OK; }

hipError_t hipModuleGetFunction(struct fn **out, struct module *m, const char *nm) {
	NEED_DEV;
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->fns[i].name, nm)) { *out = &m->fns[i]; return OK; }
	return ERR_NOT_FOUND;
}

hipError_t hipFuncGetAttribute(int *v, int attr, struct fn *f) {
	NEED_DEV;
	switch (attr) {
	case 0: { // as a compute unit of 512 VGPRs a lane would
		int t = 512 / (f->vgprs > 0 ? f->vgprs : 1) * 4 * 64;
		*v = t > 1024 ? 1024 : t;
		return OK;
	}
	case 1: *v = f->group_bytes; return OK;
	case 3: *v = f->private_bytes; return OK;
	case 4: *v = f->vgprs; return OK;
	}
	return ERR_INVALID_VALUE;
}

// The kernel arguments each entry the fake runs takes: two per buffer,
// the uniform block, the fault word.
static int nparams(int kind) { return kind == K_ADD ? 7 : kind == K_SPIN ? 3 : kind == K_DIVIDE ? 6 : -1; }

hipError_t hipModuleLaunchKernel(struct fn *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                                 unsigned shared, struct stream *s, void **params, void **extra) {
	NEED_DEV;
	int n = nparams(f->kind);
	if (n < 0) return ERR_NOT_SUPPORTED;
	if (!gx || !gy || !gz || gx > (unsigned)attrs[29] || gy > (unsigned)attrs[30] || gz > (unsigned)attrs[31] ||
	    (unsigned long)bx * by * bz > (unsigned)attrs[56] || shared || extra || !params)
		return ERR_INVALID_VALUE;
	struct op *o = calloc(1, sizeof *o);
	o->kind = OP_LAUNCH; o->fn = f;
	o->grid[0] = gx; o->grid[1] = gy; o->grid[2] = gz;
	o->block[0] = bx; o->block[1] = by; o->block[2] = bz;
	for (int i = 0; i < n; i++) o->params[i] = *(uint64_t *)params[i];
	push(s, o);
	return OK;
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
