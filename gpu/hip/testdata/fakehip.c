// fakehip.c is a stand-in for libamdhip64.so that the hip driver's tests
// build with gcc and point XPU_HIP_LIB at. It binds the HIP runtime
// functions the driver calls to the fake device the native drivers'
// fakes share (gpu/internal/native/testdata/fakegpu.h: memory on host
// pages, streams on worker threads, C versions of the suite's entries),
// for a made-up gfx90a device whose attributes and architecture name the
// tests may set (fake_set_attr, fake_set_name, fake_set_arch,
// fake_set_memory). A module "loads" by reading the code object's ELF:
// its kernels (the dynamic symbol table's functions) and each kernel's
// descriptor (name.kd), whose VGPR granules and private and group
// segment sizes hipFuncGetAttribute reports; an object for another
// processor than gfx90a (e_flags) does not load.

#include "../../internal/native/testdata/fakegpu.h"

typedef int hipError_t;

enum {
	OK = 0, ERR_INVALID_VALUE = 1, ERR_OOM = 2, ERR_NOT_INIT = 3, ERR_INVALID_DEVICE = 101,
	ERR_INVALID_IMAGE = 200, ERR_NO_BINARY = 209, ERR_INVALID_HANDLE = 400, ERR_NOT_FOUND = 500,
	ERR_NOT_READY = 600, ERR_NOT_SUPPORTED = 801,
};

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

// Streams, memory and events: fakegpu.h's.
hipError_t hipStreamCreateWithFlags(struct stream **out, unsigned flags) {
	NEED_DEV;
	if (flags) return ERR_INVALID_VALUE; // the driver asks for blocking streams
	*out = stream_new();
	return OK;
}
hipError_t hipStreamDestroy(struct stream *s) { NEED_DEV; stream_destroy(s); return OK; }
hipError_t hipStreamQuery(struct stream *s) { NEED_DEV; return stream_idle(s) ? OK : ERR_NOT_READY; }
hipError_t hipStreamSynchronize(struct stream *s) { NEED_DEV; stream_sync(s); return OK; }

hipError_t hipMalloc(void **p, size_t n) {
	NEED_DEV;
	if (n == 0) { *p = 0; return OK; }
	void *m = n > memory ? 0 : device_alloc(n);
	if (!m) return ERR_OOM;
	*p = m;
	return OK;
}
hipError_t hipFree(void *p) { NEED_DEV; if (p) device_free(p); return OK; }
hipError_t hipMemcpyHtoD(void *dst, const void *src, size_t n) { NEED_DEV; sync_all(); memcpy(dst, src, n); return OK; }
hipError_t hipMemcpyDtoH(void *dst, const void *src, size_t n) { NEED_DEV; sync_all(); memcpy(dst, src, n); return OK; }
hipError_t hipMemsetD8(void *dst, unsigned char v, size_t n) { NEED_DEV; sync_all(); memset(dst, v, n); return OK; }
hipError_t hipMemcpyHtoDAsync(void *dst, const void *src, size_t n, struct stream *s) { NEED_DEV; async_copy(s, dst, src, n); return OK; }
hipError_t hipMemsetD8Async(void *dst, unsigned char v, size_t n, struct stream *s) { NEED_DEV; async_memset(s, dst, v, n); return OK; }

hipError_t hipEventCreateWithFlags(struct event **e, unsigned flags) { NEED_DEV; *e = calloc(1, sizeof **e); return flags ? ERR_INVALID_VALUE : OK; }
hipError_t hipEventDestroy(struct event *e) { NEED_DEV; free(e); return OK; }
hipError_t hipEventRecord(struct event *e, struct stream *s) { NEED_DEV; event_record(e, s); return OK; }
hipError_t hipEventSynchronize(struct event *e) { NEED_DEV; event_sync(e); return OK; }
hipError_t hipEventElapsedTime(float *ms, struct event *a, struct event *b) { NEED_DEV; return event_elapsed(ms, a, b) ? OK : ERR_NOT_READY; }

// Modules: the kernels of a code object, with the facts of their
// descriptors.
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
				f->shared_bytes = u32(d);
				f->local_bytes = u32(d + 4);
				f->regs = ((u32(d + 48) & 0x3f) + 1) * 8;
			}
			f->kind = kind_of(f->name);
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
		int t = 512 / (f->regs > 0 ? f->regs : 1) * 4 * 64;
		*v = t > 1024 ? 1024 : t;
		return OK;
	}
	case 1: *v = f->shared_bytes; return OK;
	case 3: *v = f->local_bytes; return OK;
	case 4: *v = f->regs; return OK;
	}
	return ERR_INVALID_VALUE;
}

hipError_t hipModuleLaunchKernel(struct fn *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                                 unsigned shared, struct stream *s, void **params, void **extra) {
	NEED_DEV;
	int n = nparams(f->kind);
	if (n < 0) return ERR_NOT_SUPPORTED;
	if (!gx || !gy || !gz || gx > (unsigned)attrs[29] || gy > (unsigned)attrs[30] || gz > (unsigned)attrs[31] ||
	    (unsigned long)bx * by * bz > (unsigned)attrs[56] || shared || extra || !params)
		return ERR_INVALID_VALUE;
	unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
	launch(s, f, grid, block, params);
	return OK;
}

hipError_t hipStreamBeginCapture(struct stream *s, int mode) {
	NEED_DEV;
	if (mode < 0 || mode > 2) return ERR_INVALID_VALUE;
	return capture_begin(s) ? OK : ERR_INVALID_VALUE;
}
hipError_t hipStreamEndCapture(struct stream *s, struct graph **g) {
	NEED_DEV;
	*g = capture_end(s);
	return *g ? OK : ERR_INVALID_VALUE;
}
hipError_t hipGraphInstantiateWithFlags(struct graph **exec, struct graph *g, unsigned long long flags) {
	NEED_DEV;
	if (flags || !g) return ERR_INVALID_VALUE;
	*exec = graph_copy(g);
	return *exec ? OK : ERR_NOT_SUPPORTED;
}
hipError_t hipGraphLaunch(struct graph *exec, struct stream *s) { NEED_DEV; return graph_launch(exec, s) ? OK : ERR_INVALID_VALUE; }
hipError_t hipGraphExecDestroy(struct graph *exec) { NEED_DEV; graph_free(exec); return OK; }
hipError_t hipGraphDestroy(struct graph *g) { NEED_DEV; graph_free(g); return OK; }
