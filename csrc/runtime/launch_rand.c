/*
 * launch_rand.c: the launch layer's cuRAND calls (launch.h): cuRAND's generators
 * as sources of raw 32- or 64-bit words for cuarray.random's bit generators.
 *
 * cuRAND is loaded on first use (dynlib.c). A generator is made on the device
 * that is current when it is created (a GPU generator) or, for the cpu device,
 * with curandCreateGeneratorHost (cuRAND's host generators, which write host
 * memory and need no GPU). Its words are transformed by cuarray's own kernels
 * (kernels/shared/random_dist.h), so cuRAND's (0, 1] uniforms are never used. The
 * stream is set per call; the GIL serializes every use of a generator.
 */
#include "launch.h"
#include "watch.h"
#include "cuda_compat.h"
#include "dynlib.h"
#include "faults.h"

#include <string.h>

struct ca_curand_gen {
#if CA_HAVE_CUDA
    curandGenerator_t gen;
#endif
    int device; /* ordinal, or CA_CPU for a host generator */
};

#if CA_HAVE_CUDA
static const struct {
    const char *name;
    curandRngType_t type;
    int wide, quasi;
} kinds[] = {
    { "XORWOW", CURAND_RNG_PSEUDO_XORWOW, 0, 0 },
    { "MRG32k3a", CURAND_RNG_PSEUDO_MRG32K3A, 0, 0 },
    { "MTGP32", CURAND_RNG_PSEUDO_MTGP32, 0, 0 },
    { "MT19937", CURAND_RNG_PSEUDO_MT19937, 0, 0 },
    { "Philox4_32_10", CURAND_RNG_PSEUDO_PHILOX4_32_10, 0, 0 },
    { "Sobol32", CURAND_RNG_QUASI_SOBOL32, 0, 1 },
    { "ScrambledSobol32", CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, 0, 1 },
    { "Sobol64", CURAND_RNG_QUASI_SOBOL64, 1, 1 },
    { "ScrambledSobol64", CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, 1, 1 },
};
#define NKINDS ((int)(sizeof(kinds) / sizeof(kinds[0])))

static int
find_kind(const char *name)
{
    for (int i = 0; i < NKINDS; i++) {
        if (strcmp(kinds[i].name, name) == 0) {
            return i;
        }
    }
    PyErr_Format(PyExc_ValueError, "unknown cuRAND generator '%s'", name);
    return -1;
}

int
ca_curand_kind_info(const char *name, int *wide, int *quasi)
{
    int k = find_kind(name);
    if (k < 0) {
        return -1;
    }
    *wide = kinds[k].wide;
    *quasi = kinds[k].quasi;
    return 0;
}

/* Seed (pseudo) or one dimension (quasi), then the offset. */
static int
configure(const ca_curand_api *api, curandGenerator_t gen, int k, uint64_t seed,
          uint64_t offset)
{
    curandStatus_t st;
    if (kinds[k].quasi) {
        st = api->SetQuasiRandomGeneratorDimensions(gen, 1);
        if (st != CURAND_STATUS_SUCCESS) {
            return ca_curand_error((int)st, "curandSetQuasiRandomGeneratorDimensions");
        }
    }
    else {
        st = api->SetPseudoRandomGeneratorSeed(gen, (unsigned long long)seed);
        if (st != CURAND_STATUS_SUCCESS) {
            return ca_curand_error((int)st, "curandSetPseudoRandomGeneratorSeed");
        }
    }
    if (offset != 0) {
        st = api->SetGeneratorOffset(gen, (unsigned long long)offset);
        if (st != CURAND_STATUS_SUCCESS) {
            return ca_curand_error((int)st, "curandSetGeneratorOffset");
        }
    }
    return 0;
}

int
ca_run_curand_create(const char *kind, int device, uint64_t seed, uint64_t offset,
                     ca_curand_gen **out)
{
    *out = NULL;
    int k = find_kind(kind);
    if (k < 0) {
        return -1;
    }
    const ca_curand_api *api = ca_curand();
    if (api == NULL) {
        return -1;
    }
    ca_curand_gen *g = (ca_curand_gen *)PyMem_Calloc(1, sizeof *g);
    if (g == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    g->device = device;
    ca_launch_flush();
    curandStatus_t st = device == CA_CPU
                            ? api->CreateGeneratorHost(&g->gen, kinds[k].type)
                            : api->CreateGenerator(&g->gen, kinds[k].type);
    if (st != CURAND_STATUS_SUCCESS) {
        PyMem_Free(g);
        return ca_curand_error((int)st, device == CA_CPU ? "curandCreateGeneratorHost"
                                                         : "curandCreateGenerator");
    }
    if (configure(api, g->gen, k, seed, offset) < 0) {
        api->DestroyGenerator(g->gen);
        PyMem_Free(g);
        return -1;
    }
    *out = g;
    return 0;
}

int
ca_run_curand_generate(ca_curand_gen *g, void *out, int64_t n, int wide,
                       ca_stream_t stream)
{
    CA_COUNT(library_calls);
    const ca_curand_api *api = ca_curand();
    if (api == NULL) {
        return -1;
    }
    if (n <= 0) {
        return 0;
    }
    ca_launch_flush();
    if (CA_FAULT(CA_FAULT_LIBRARY_CALL)) {
        return ca_curand_error(CURAND_STATUS_INTERNAL_ERROR, "cuRAND (injected fault)");
    }
    curandStatus_t st;
    if (g->device != CA_CPU) {
        st = api->SetStream(g->gen, (cudaStream_t)stream);
        if (st != CURAND_STATUS_SUCCESS) {
            return ca_curand_error((int)st, "curandSetStream");
        }
    }
    Py_BEGIN_ALLOW_THREADS
        st = wide ? api->GenerateLongLong(g->gen, (unsigned long long *)out, (size_t)n)
                  : api->Generate(g->gen, (unsigned int *)out, (size_t)n);
    Py_END_ALLOW_THREADS
    if (st != CURAND_STATUS_SUCCESS) {
        return ca_curand_error((int)st,
                               wide ? "curandGenerateLongLong" : "curandGenerate");
    }
    return 0;
}

/* The side stream of each device (non-blocking: it never waits on the legacy
 * stream by itself, only on the events below), made on first use and kept. */
#define SIDE_MAX_DEVICES 64
static ca_stream_t side_streams[SIDE_MAX_DEVICES];

static int
side_stream(int device, ca_stream_t stream, ca_stream_t *side)
{
    *side = stream;
    if (device < 0 || device >= SIDE_MAX_DEVICES) {
        return 0; /* no overlap: everything on `stream` */
    }
    if (side_streams[device] == NULL &&
        ca_run_stream_create(&side_streams[device], CA_STREAM_NON_BLOCKING) < 0) {
        side_streams[device] = NULL;
        return -1;
    }
    *side = side_streams[device];
    return 0;
}

/* buf[0:n]'s words become n uniforms in place (each block of 4 words is read by
 * the thread that then writes that block's samples over it): the numbers of
 * CA_RD_UNIFORM's transform, by a kernel that leaves room on the SMs for the
 * next chunk's cuRAND kernel (kernels.h: ca_random_u01_words). */
static int
words_to_u01(int device, void *buf, int64_t n, int dtype, ca_stream_t stream)
{
    return ca_run_random_u01_words(device, buf, n, dtype, stream);
}

int
ca_run_curand_uniform(ca_curand_gen *g, void *out, int64_t n, int dtype, int64_t chunk,
                      ca_stream_t stream)
{
    CA_COUNT(library_calls);
    const int64_t per = dtype == CA_FLOAT64 ? 2 : 4; /* samples per 4 words */
    const int64_t esize = dtype == CA_FLOAT64 ? 8 : 4;
    if (n <= 0) {
        return 0;
    }
    if ((dtype != CA_FLOAT32 && dtype != CA_FLOAT64) || n % per != 0) {
        PyErr_SetString(PyExc_ValueError,
                        "ca_run_curand_uniform: float32 or float64, whole blocks");
        return -1;
    }
    ca_stream_t side = stream;
    if (g->device == CA_CPU || chunk <= 0 || chunk >= n) {
        chunk = n;
    }
    else {
        chunk -= chunk % 4;
        chunk = chunk < 4 ? 4 : chunk;
        if (side_stream(g->device, stream, &side) < 0) {
            return -1;
        }
    }
    for (int64_t off = 0; off < n; off += chunk) {
        const int64_t len = n - off < chunk ? n - off : chunk;
        char *p = (char *)out + off * esize;
        if (ca_run_curand_generate(g, p, len * (4 / per), 0, stream) < 0 ||
            (side != stream && ca_run_stream_wait_stream(side, stream) < 0) ||
            words_to_u01(g->device, p, len, dtype, side) < 0) {
            if (side != stream) {
                /* leave `stream` ordered after whatever reached the side stream */
                PyObject *et, *ev, *tb;
                PyErr_Fetch(&et, &ev, &tb);
                (void)ca_run_stream_wait_stream(stream, side);
                PyErr_Restore(et, ev, tb);
            }
            return -1;
        }
    }
    return side != stream ? ca_run_stream_wait_stream(stream, side) : 0;
}

void
ca_curand_destroy(ca_curand_gen *g)
{
    if (g == NULL) {
        return;
    }
    const ca_curand_api *api = ca_curand();
    if (api != NULL) {
        /* at exit the runtime may be gone: nothing to report then */
        (void)api->DestroyGenerator(g->gen);
    }
    else {
        PyErr_Clear();
    }
    PyMem_Free(g);
}

#else /* !CA_HAVE_CUDA */

static int
no_curand(void)
{
    PyErr_SetString(PyExc_RuntimeError,
                    "cuRAND generators need cuarray built with CUDA (this build is "
                    "host-only): use cuarray.random.Philox");
    return -1;
}

int
ca_curand_kind_info(const char *name, int *wide, int *quasi)
{
    return no_curand();
}

int
ca_run_curand_create(const char *kind, int device, uint64_t seed, uint64_t offset,
                     ca_curand_gen **out)
{
    *out = NULL;
    return no_curand();
}

int
ca_run_curand_generate(ca_curand_gen *g, void *out, int64_t n, int wide,
                       ca_stream_t stream)
{
    CA_COUNT(library_calls);
    return no_curand();
}

int
ca_run_curand_uniform(ca_curand_gen *g, void *out, int64_t n, int dtype, int64_t chunk,
                      ca_stream_t stream)
{
    CA_COUNT(library_calls);
    return no_curand();
}

void
ca_curand_destroy(ca_curand_gen *g)
{
    PyMem_Free(g);
}

#endif /* CA_HAVE_CUDA */

const char *
ca_rand_library_path(void)
{
    return ca_curand_path();
}
