/* A recording CUDA driver for running a port's host code on a machine with no GPU.
 *
 * Built as libcuda.so.1 (workbench/check/cuda_stub.py) and loaded before a port's library, it
 * answers the driver calls cutile's host side makes: one device (sm_90, 132 SMs), contexts,
 * streams and events that do nothing, "device" memory that is host memory (so a pointer the
 * host code computes is a real address), host callbacks run at once. A module is the Tile IR
 * bytecode the stand-in tileiras wrapped (magic, length, bytes); a launch hands the module,
 * the entry's name, the grid and the kernel parameters to the callback the workbench
 * registered, which runs the kernel through its Tile IR interpreter before the call returns,
 * as a stream would order it. A non-zero callback result is reported as an illegal address.
 */
#include <cuda.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int (*launch_callback)(const void *image, uint64_t image_bytes, const char *name,
                               const unsigned *grid, const unsigned *block, void **params);

/* cuda-core accepts only images that start as an ELF does */
static const char MAGIC[8] = {0x7f, 'E', 'L', 'F', 'W', 'B', 'I', 'R'};
static launch_callback on_launch;

struct module { void *image; uint64_t bytes; };
struct function { struct module *module; char name[256]; };

/* what the host code asked of the driver in a call, counted by kind (wbstub_counts) */
enum { SYNCHRONIZE, COPY, ALLOCATE, RELEASE, MEMSET, HOST_CALLBACK, LAUNCH, KINDS };
static int counts[KINDS];

void wbstub_reset_counts(void) { memset(counts, 0, sizeof counts); }
/* the counts in enum order: synchronize, copy, allocate, release, memset, host callback, launch */
int wbstub_counts(int *out, int n) {
    for (int i = 0; i < n && i < KINDS; i++) out[i] = counts[i];
    return KINDS;
}

/* live allocations, so that the callback can place them in the interpreter's memory */
#define MAX_ALLOCATIONS 4096
static uint64_t allocations[MAX_ALLOCATIONS][2];
static int n_allocations;

void wbstub_set_launch_callback(launch_callback callback) { on_launch = callback; }

/* the live allocations as (address, bytes) pairs; returns how many there are */
int wbstub_allocations(uint64_t *out, int max_pairs) {
    for (int i = 0; i < n_allocations && i < max_pairs; i++) {
        out[2 * i] = allocations[i][0];
        out[2 * i + 1] = allocations[i][1];
    }
    return n_allocations;
}

static CUresult allocate(CUdeviceptr *ptr, size_t bytes) {
    counts[ALLOCATE]++;
    if (n_allocations == MAX_ALLOCATIONS) return CUDA_ERROR_OUT_OF_MEMORY;
    void *p = aligned_alloc(256, bytes ? (bytes + 255) / 256 * 256 : 256);
    if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
    allocations[n_allocations][0] = (uint64_t)p;
    allocations[n_allocations][1] = bytes;
    n_allocations++;
    *ptr = (CUdeviceptr)p;
    return CUDA_SUCCESS;
}

static CUresult release(CUdeviceptr ptr) {
    counts[RELEASE]++;
    for (int i = 0; i < n_allocations; i++) {
        if (allocations[i][0] == (uint64_t)ptr) {
            free((void *)ptr);
            allocations[i][0] = allocations[n_allocations - 1][0];
            allocations[i][1] = allocations[n_allocations - 1][1];
            n_allocations--;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_INVALID_VALUE;
}

static int handle_store;                       /* distinct non-null handles */
#define HANDLE(type) ((type)(void *)&handle_store)

/* -- errors, versions, devices ------------------------------------------------------------ */
CUresult cuGetErrorString(CUresult error, const char **text) {
    *text = error == CUDA_SUCCESS ? "no error"
          : error == CUDA_ERROR_ILLEGAL_ADDRESS ? "the interpreter stopped the kernel (a fault)"
          : "an error of the workbench's recording driver";
    return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult error, const char **text) {
    *text = error == CUDA_SUCCESS ? "CUDA_SUCCESS" : error == CUDA_ERROR_ILLEGAL_ADDRESS
          ? "CUDA_ERROR_ILLEGAL_ADDRESS" : "CUDA_ERROR_UNKNOWN";
    return CUDA_SUCCESS;
}
CUresult cuInit(unsigned flags) { (void)flags; return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int *version) { *version = CUDA_VERSION; return CUDA_SUCCESS; }
CUresult cuDeviceGet(CUdevice *device, int ordinal) {
    if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *count) { *count = 1; return CUDA_SUCCESS; }
CUresult cuDeviceGetName(char *name, int length, CUdevice device) {
    (void)device;
    strncpy(name, "CPU: the workbench's recording driver", (size_t)length);
    if (length > 0) name[length - 1] = 0;
    return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem(size_t *bytes, CUdevice device) {
    (void)device; *bytes = (size_t)16 << 30; return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice device) {
    (void)device;
    switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 132; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *value = 32; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *value = 2147483647; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
        *value = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *value = 232448; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: *value = 1; break;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: *value = 1; break;
    default: *value = 0;
    }
    return CUDA_SUCCESS;
}
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice device) {
    (void)device; memset(uuid, 0, sizeof *uuid); return CUDA_SUCCESS;
}

/* -- contexts ----------------------------------------------------------------------------- */
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice device) {
    (void)device; *ctx = HANDLE(CUcontext); return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice device) { (void)device; return CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxGetState(CUdevice device, unsigned *flags, int *active) {
    (void)device; *flags = 0; *active = 1; return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxSetFlags(CUdevice device, unsigned flags) {
    (void)device; (void)flags; return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext ctx) { (void)ctx; return CUDA_SUCCESS; }
CUresult cuCtxGetCurrent(CUcontext *ctx) { *ctx = HANDLE(CUcontext); return CUDA_SUCCESS; }
CUresult cuCtxPushCurrent(CUcontext ctx) { (void)ctx; return CUDA_SUCCESS; }
CUresult cuCtxPopCurrent(CUcontext *ctx) { if (ctx) *ctx = HANDLE(CUcontext); return CUDA_SUCCESS; }
CUresult cuCtxGetDevice(CUdevice *device) { *device = 0; return CUDA_SUCCESS; }
CUresult cuCtxSynchronize(void) { counts[SYNCHRONIZE]++; return CUDA_SUCCESS; }

/* -- streams and events: the work is done when it is issued ------------------------------- */
CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
    (void)flags; *stream = HANDLE(CUstream); return CUDA_SUCCESS;
}
CUresult cuStreamCreateWithPriority(CUstream *stream, unsigned flags, int priority) {
    (void)flags; (void)priority; *stream = HANDLE(CUstream); return CUDA_SUCCESS;
}
CUresult cuStreamDestroy(CUstream stream) { (void)stream; return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(CUstream stream) {
    (void)stream; counts[SYNCHRONIZE]++; return CUDA_SUCCESS;
}
CUresult cuStreamQuery(CUstream stream) { (void)stream; return CUDA_SUCCESS; }
CUresult cuStreamGetPriority(CUstream stream, int *priority) {
    (void)stream; *priority = 0; return CUDA_SUCCESS;
}
CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned flags) {
    (void)stream; (void)event; (void)flags; return CUDA_SUCCESS;
}
CUresult cuStreamIsCapturing(CUstream stream, CUstreamCaptureStatus *status) {
    (void)stream; *status = CU_STREAM_CAPTURE_STATUS_NONE; return CUDA_SUCCESS;
}
CUresult cuLaunchHostFunc(CUstream stream, CUhostFn fn, void *data) {
    (void)stream; counts[HOST_CALLBACK]++; fn(data); return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *event, unsigned flags) {
    (void)flags; *event = HANDLE(CUevent); return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent event, CUstream stream) {
    (void)event; (void)stream; return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent event) {
    (void)event; counts[SYNCHRONIZE]++; return CUDA_SUCCESS;
}
CUresult cuEventQuery(CUevent event) { (void)event; return CUDA_SUCCESS; }
CUresult cuEventDestroy(CUevent event) { (void)event; return CUDA_SUCCESS; }

/* -- memory: host memory, so addresses are real -------------------------------------------- */
CUresult cuMemAlloc(CUdeviceptr *ptr, size_t bytes) { return allocate(ptr, bytes); }
CUresult cuMemAllocAsync(CUdeviceptr *ptr, size_t bytes, CUstream stream) {
    (void)stream; return allocate(ptr, bytes);
}
CUresult cuMemFree(CUdeviceptr ptr) { return release(ptr); }
CUresult cuMemFreeAsync(CUdeviceptr ptr, CUstream stream) { (void)stream; return release(ptr); }
CUresult cuMemHostAlloc(void **ptr, size_t bytes, unsigned flags) {
    (void)flags; *ptr = malloc(bytes ? bytes : 1); return *ptr ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
CUresult cuMemAllocHost(void **ptr, size_t bytes) { return cuMemHostAlloc(ptr, bytes, 0); }
CUresult cuMemFreeHost(void *ptr) { free(ptr); return CUDA_SUCCESS; }
CUresult cuMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
    *free_bytes = *total_bytes = (size_t)16 << 30; return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes) {
    counts[COPY]++;
    memmove((void *)dst, src, bytes); return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes) {
    counts[COPY]++;
    memmove(dst, (const void *)src, bytes); return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
    counts[COPY]++;
    memmove((void *)dst, (const void *)src, bytes); return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t bytes, CUstream stream) {
    (void)stream; return cuMemcpyHtoD(dst, src, bytes);
}
CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t bytes, CUstream stream) {
    (void)stream; return cuMemcpyDtoH(dst, src, bytes);
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
    (void)stream; return cuMemcpyDtoD(dst, src, bytes);
}
CUresult cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t count) {
    counts[MEMSET]++;
    memset((void *)dst, value, count); return CUDA_SUCCESS;
}
CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count, CUstream stream) {
    (void)stream; return cuMemsetD8(dst, value, count);
}
CUresult cuMemsetD32(CUdeviceptr dst, unsigned value, size_t count) {
    counts[MEMSET]++;
    for (size_t i = 0; i < count; i++) ((unsigned *)dst)[i] = value;
    return CUDA_SUCCESS;
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count, CUstream stream) {
    (void)stream; return cuMemsetD32(dst, value, count);
}
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr) {
    (void)ptr;
    if (attribute == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL) { *(int *)data = 0; return CUDA_SUCCESS; }
    if (attribute == CU_POINTER_ATTRIBUTE_MEMORY_TYPE) {
        *(unsigned *)data = CU_MEMORYTYPE_DEVICE; return CUDA_SUCCESS;
    }
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* -- modules and launches ------------------------------------------------------------------ */
CUresult cuModuleLoadData(CUmodule *out, const void *image) {
    uint64_t bytes;
    if (memcmp(image, MAGIC, sizeof MAGIC) != 0) return CUDA_ERROR_INVALID_IMAGE;
    memcpy(&bytes, (const char *)image + sizeof MAGIC, sizeof bytes);
    struct module *m = malloc(sizeof *m);
    if (!m || !(m->image = malloc(bytes ? bytes : 1))) { free(m); return CUDA_ERROR_OUT_OF_MEMORY; }
    memcpy(m->image, (const char *)image + sizeof MAGIC + sizeof bytes, bytes);
    m->bytes = bytes;
    *out = (CUmodule)(void *)m;
    return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule module) {
    struct module *m = (struct module *)(void *)module;
    free(m->image); free(m);
    return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *out, CUmodule module, const char *name) {
    struct function *f = calloc(1, sizeof *f);
    if (!f) return CUDA_ERROR_OUT_OF_MEMORY;
    f->module = (struct module *)(void *)module;
    strncpy(f->name, name, sizeof f->name - 1);
    *out = (CUfunction)(void *)f;
    return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute attribute, int value) {
    (void)f; (void)attribute; (void)value; return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attribute, CUfunction f) {
    (void)attribute; (void)f; *value = 0; return CUDA_SUCCESS;
}

static CUresult launch(CUfunction f, const unsigned grid[3], const unsigned block[3],
                       void **params) {
    struct function *fn = (struct function *)(void *)f;
    counts[LAUNCH]++;
    if (!on_launch) return CUDA_ERROR_NOT_INITIALIZED;
    return on_launch(fn->module->image, fn->module->bytes, fn->name, grid, block, params)
        ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **params,
                          void **extra) {
    const unsigned grid[3] = {config->gridDimX, config->gridDimY, config->gridDimZ};
    const unsigned block[3] = {config->blockDimX, config->blockDimY, config->blockDimZ};
    if (!params && extra) return CUDA_ERROR_NOT_SUPPORTED;
    return launch(f, grid, block, params);
}
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, CUstream stream,
                        void **params, void **extra) {
    const unsigned grid[3] = {gx, gy, gz};
    const unsigned block[3] = {bx, by, bz};
    (void)smem; (void)stream;
    if (!params && extra) return CUDA_ERROR_NOT_SUPPORTED;
    return launch(f, grid, block, params);
}
