// fakecuda.c is a stand-in for libcuda.so.1 that the cuda driver's tests
// build with gcc and point XPU_CUDA_LIB at. It binds the driver API
// functions the driver calls to the fake device the native drivers'
// fakes share (gpu/internal/native/testdata/fakegpu.h: memory on host
// pages, streams on worker threads, C versions of the suite's entries
// with the parameters of the PTX calling contract), for a made-up device
// whose attributes the tests may set (fake_set_attr, fake_set_name,
// fake_set_memory). A module "loads" by recording its .entry names, with
// the registers and local bytes their declarations name.

#include "../../internal/native/testdata/fakegpu.h"

typedef int CUresult;
typedef int CUdevice;

enum {
	OK = 0, ERR_INVALID_VALUE = 1, ERR_OOM = 2, ERR_NOT_INIT = 3, ERR_INVALID_PTX = 218,
	ERR_INVALID_HANDLE = 400, ERR_NOT_FOUND = 500, ERR_NOT_READY = 600, ERR_NOT_SUPPORTED = 801,
	ERR_INVALID_DEVICE = 101,
};

static int inited;

// The device's attributes, by CUdevice_attribute.
static int attrs[128];
static char name[256] = "xpu fake CUDA device";
static uint64_t memory = 1ull << 30;

static void defaults(void) {
	static int done;
	if (done) return;
	done = 1;
	attrs[1] = 1024;                                    // max threads per block
	attrs[2] = 1024; attrs[3] = 1024; attrs[4] = 64;    // max block
	attrs[5] = 2147483647; attrs[6] = 65535; attrs[7] = 65535; // max grid
	attrs[8] = 48 << 10;                                // shared per block
	attrs[10] = 32;                                     // warp
	attrs[13] = 1500000;                                // clock kHz
	attrs[16] = 4;                                      // multiprocessors
	attrs[18] = 0;                                      // integrated
	attrs[36] = 5000000;                                // memory clock kHz
	attrs[37] = 256;                                    // bus bits
	attrs[38] = 4 << 20;                                // L2
	attrs[75] = 7; attrs[76] = 5;                       // compute capability
	attrs[97] = 64 << 10;                               // shared optin
}

void fake_set_attr(int id, int v) { pthread_mutex_lock(&mu); defaults(); if (id >= 0 && id < 128) attrs[id] = v; pthread_mutex_unlock(&mu); }
void fake_set_name(const char *s) { pthread_mutex_lock(&mu); snprintf(name, sizeof name, "%s", s); pthread_mutex_unlock(&mu); }
void fake_set_memory(uint64_t n) { pthread_mutex_lock(&mu); memory = n; pthread_mutex_unlock(&mu); }

static const char *names[][2] = {
	{"0", "CUDA_SUCCESS"}, {"1", "CUDA_ERROR_INVALID_VALUE"}, {"2", "CUDA_ERROR_OUT_OF_MEMORY"},
	{"3", "CUDA_ERROR_NOT_INITIALIZED"}, {"101", "CUDA_ERROR_INVALID_DEVICE"}, {"218", "CUDA_ERROR_INVALID_PTX"},
	{"201", "CUDA_ERROR_INVALID_CONTEXT"}, {"400", "CUDA_ERROR_INVALID_HANDLE"}, {"500", "CUDA_ERROR_NOT_FOUND"}, {"600", "CUDA_ERROR_NOT_READY"},
	{"801", "CUDA_ERROR_NOT_SUPPORTED"},
};

CUresult cuGetErrorName(CUresult rc, const char **s) {
	char buf[16];
	snprintf(buf, sizeof buf, "%d", rc);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(names[i][0], buf)) { *s = names[i][1]; return OK; }
	*s = 0;
	return ERR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult rc, const char **s) {
	switch (rc) {
	case ERR_INVALID_VALUE: *s = "invalid argument"; return OK;
	case ERR_OOM: *s = "out of memory"; return OK;
	case ERR_INVALID_PTX: *s = "a PTX JIT compilation failed"; return OK;
	case ERR_NOT_FOUND: *s = "named symbol not found"; return OK;
	case ERR_NOT_SUPPORTED: *s = "operation not supported"; return OK;
	case 201: *s = "invalid device context"; return OK;
	}
	*s = "fake error";
	return OK;
}

CUresult cuInit(unsigned flags) { pthread_mutex_lock(&mu); defaults(); inited = 1; pthread_mutex_unlock(&mu); return flags ? ERR_INVALID_VALUE : OK; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return OK; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return inited ? OK : ERR_NOT_INIT; }
CUresult cuDeviceGet(CUdevice *d, int ordinal) { if (ordinal != 0) return ERR_INVALID_DEVICE; *d = 0; return OK; }
CUresult cuDeviceGetName(char *s, int n, CUdevice d) { pthread_mutex_lock(&mu); snprintf(s, n, "%s", name); pthread_mutex_unlock(&mu); return d ? ERR_INVALID_DEVICE : OK; }
CUresult cuDeviceGetAttribute(int *v, int id, CUdevice d) {
	if (d || id < 0 || id >= 128) return ERR_INVALID_VALUE;
	pthread_mutex_lock(&mu); defaults(); *v = attrs[id]; pthread_mutex_unlock(&mu);
	return OK;
}
CUresult cuDeviceTotalMem_v2(size_t *n, CUdevice d) { pthread_mutex_lock(&mu); *n = memory; pthread_mutex_unlock(&mu); return d ? ERR_INVALID_DEVICE : OK; }

// The primary context: a count of retains; the current context is the
// thread's, and every other call checks that it is set.
static int retains;
static int ctxToken;
static __thread void *current;
CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice d) { pthread_mutex_lock(&mu); retains++; pthread_mutex_unlock(&mu); *ctx = &ctxToken; return d ? ERR_INVALID_DEVICE : OK; }
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) { pthread_mutex_lock(&mu); retains--; pthread_mutex_unlock(&mu); return d ? ERR_INVALID_DEVICE : OK; }
CUresult cuCtxSetCurrent(void *ctx) { current = ctx; return OK; }
int fake_retains(void) { pthread_mutex_lock(&mu); int n = retains; pthread_mutex_unlock(&mu); return n; }
#define NEED_CTX do { if (current != &ctxToken) return 201; /* CUDA_ERROR_INVALID_CONTEXT */ } while (0)

// Streams, memory and events: fakegpu.h's. A device pointer is a host
// address.
CUresult cuStreamCreate(struct stream **out, unsigned flags) {
	NEED_CTX;
	if (flags) return ERR_INVALID_VALUE; // the driver asks for blocking streams
	*out = stream_new();
	return OK;
}
CUresult cuStreamDestroy_v2(struct stream *s) { NEED_CTX; stream_destroy(s); return OK; }
CUresult cuStreamQuery(struct stream *s) { NEED_CTX; return stream_idle(s) ? OK : ERR_NOT_READY; }
CUresult cuStreamSynchronize(struct stream *s) { NEED_CTX; stream_sync(s); return OK; }

CUresult cuMemAlloc_v2(uint64_t *p, size_t n) {
	NEED_CTX;
	if (n == 0) return ERR_INVALID_VALUE;
	void *m = n > memory ? 0 : device_alloc(n);
	if (!m) return ERR_OOM;
	*p = (uint64_t)(uintptr_t)m;
	return OK;
}
CUresult cuMemFree_v2(uint64_t p) { NEED_CTX; device_free((void *)(uintptr_t)p); return OK; }
CUresult cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t n) { NEED_CTX; sync_all(); memcpy((void *)(uintptr_t)dst, src, n); return OK; }
CUresult cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t n) { NEED_CTX; sync_all(); memcpy(dst, (void *)(uintptr_t)src, n); return OK; }
CUresult cuMemsetD8_v2(uint64_t dst, unsigned char v, size_t n) { NEED_CTX; sync_all(); memset((void *)(uintptr_t)dst, v, n); return OK; }
CUresult cuMemcpyHtoDAsync_v2(uint64_t dst, const void *src, size_t n, struct stream *s) { NEED_CTX; async_copy(s, (void *)(uintptr_t)dst, src, n); return OK; }
CUresult cuMemsetD8Async(uint64_t dst, unsigned char v, size_t n, struct stream *s) { NEED_CTX; async_memset(s, (void *)(uintptr_t)dst, v, n); return OK; }

CUresult cuEventCreate(struct event **e, unsigned flags) { NEED_CTX; *e = calloc(1, sizeof **e); return flags ? ERR_INVALID_VALUE : OK; }
CUresult cuEventDestroy_v2(struct event *e) { NEED_CTX; free(e); return OK; }
CUresult cuEventRecord(struct event *e, struct stream *s) { NEED_CTX; event_record(e, s); return OK; }
CUresult cuEventSynchronize(struct event *e) { NEED_CTX; event_sync(e); return OK; }
CUresult cuEventElapsedTime(float *ms, struct event *a, struct event *b) { NEED_CTX; return event_elapsed(ms, a, b) ? OK : ERR_NOT_READY; }

// Modules: the entries of a PTX text, with the registers and local bytes
// its declarations name.
struct module { int n; struct fn fns[64]; };

// count sums, over the lines of [p, end) that hold word, the numbers
// that follow the character open on them.
static int count(const char *p, const char *end, const char *word, char open) {
	int sum = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		if (!nl) nl = end;
		char line[512];
		size_t n = nl - p < 511 ? (size_t)(nl - p) : 511;
		memcpy(line, p, n);
		line[n] = 0;
		char *at = strchr(line, open);
		if (strstr(line, word) && at) sum += atoi(at + 1);
		p = nl + 1;
	}
	return sum;
}

static void jitlog(char *buf, size_t n, const char *s) { if (buf && n) snprintf(buf, n, "%s", s); }

CUresult cuModuleLoadDataEx(struct module **out, const void *image, unsigned nopts, int *opts, void **vals) {
	NEED_CTX;
	char *infoLog = 0, *errLog = 0;
	size_t infoN = 0, errN = 0;
	for (unsigned i = 0; i < nopts; i++) {
		switch (opts[i]) {
		case 3: infoLog = vals[i]; break;
		case 4: infoN = (size_t)(uintptr_t)vals[i]; break;
		case 5: errLog = vals[i]; break;
		case 6: errN = (size_t)(uintptr_t)vals[i]; break;
		}
	}
	const char *text = image;
	const char *bad = strstr(text, "FAKECUDA_JIT_FAIL");
	if (bad) {
		int line = 1;
		for (const char *p = text; p < bad; p++) line += *p == '\n';
		char msg[256];
		snprintf(msg, sizeof msg, "ptxas application ptx input, line %d; fatal   : Parsing error near 'FAKECUDA_JIT_FAIL': syntax error", line);
		jitlog(errLog, errN, msg);
		return ERR_INVALID_PTX;
	}
	struct module *m = calloc(1, sizeof *m);
	const char *end = text + strlen(text);
	for (const char *p = strstr(text, ".entry"); p && m->n < 64; ) {
		p += 6;
		while (*p == ' ' || *p == '\t') p++;
		struct fn *f = &m->fns[m->n++];
		size_t k = 0;
		while (k < sizeof f->name - 1 && (p[k] == '_' || p[k] == '$' || (p[k] >= '0' && p[k] <= '9') || ((p[k] | 32) >= 'a' && (p[k] | 32) <= 'z'))) k++;
		memcpy(f->name, p, k);
		const char *next = strstr(p, ".entry");
		const char *stop = next ? next : end;
		f->regs = count(p, stop, ".reg", '<');
		f->local_bytes = count(p, stop, ".local", '[');
		f->kind = kind_of(f->name);
		p = next;
	}
	char msg[64];
	snprintf(msg, sizeof msg, "fake JIT: %d entries", m->n);
	jitlog(infoLog, infoN, msg);
	jitlog(errLog, errN, "");
	*out = m;
	return OK;
}

CUresult cuModuleUnload(struct module *m) { NEED_CTX; free(m); return OK; }

CUresult cuModuleGetFunction(struct fn **out, struct module *m, const char *nm) {
	NEED_CTX;
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->fns[i].name, nm)) { *out = &m->fns[i]; return OK; }
	return ERR_NOT_FOUND;
}

CUresult cuFuncGetAttribute(int *v, int attr, struct fn *f) {
	NEED_CTX;
	switch (attr) {
	case 0: { // as a multiprocessor of 65,536 registers would
		int regs = f->regs > 0 ? f->regs : 1, t = 65536 / regs / 32 * 32;
		*v = t > 1024 ? 1024 : t;
		return OK;
	}
	case 1: *v = f->shared_bytes; return OK;
	case 3: *v = f->local_bytes; return OK;
	case 4: *v = f->regs; return OK;
	}
	return ERR_INVALID_VALUE;
}

CUresult cuLaunchKernel(struct fn *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, struct stream *s, void **params, void **extra) {
	NEED_CTX;
	int n = nparams(f->kind);
	if (n < 0) return ERR_NOT_SUPPORTED;
	if (!gx || !gy || !gz || gx > (unsigned)attrs[5] || gy > (unsigned)attrs[6] || gz > (unsigned)attrs[7] ||
	    (unsigned long)bx * by * bz > (unsigned)attrs[1] || shared || extra || !params)
		return ERR_INVALID_VALUE;
	unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
	launch(s, f, grid, block, params);
	return OK;
}

CUresult cuStreamBeginCapture_v2(struct stream *s, int mode) {
	NEED_CTX;
	if (mode < 0 || mode > 2) return ERR_INVALID_VALUE;
	return capture_begin(s) ? OK : ERR_INVALID_VALUE;
}
CUresult cuStreamEndCapture(struct stream *s, struct graph **g) {
	NEED_CTX;
	*g = capture_end(s);
	return *g ? OK : ERR_INVALID_VALUE;
}
CUresult cuGraphInstantiateWithFlags(struct graph **exec, struct graph *g, unsigned long long flags) {
	NEED_CTX;
	if (flags || !g) return ERR_INVALID_VALUE;
	*exec = graph_copy(g);
	return *exec ? OK : ERR_NOT_SUPPORTED;
}
CUresult cuGraphLaunch(struct graph *exec, struct stream *s) { NEED_CTX; return graph_launch(exec, s) ? OK : ERR_INVALID_VALUE; }
CUresult cuGraphExecDestroy(struct graph *exec) { NEED_CTX; graph_free(exec); return OK; }
CUresult cuGraphDestroy(struct graph *g) { NEED_CTX; graph_free(g); return OK; }
