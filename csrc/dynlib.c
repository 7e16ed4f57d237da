/*
 * dynlib.c: load cuBLAS on first use (see dynlib.h for why).
 *
 * Where it looks, in order:
 *   1. "libcublas.so.13" through the dynamic loader's own search (an already
 *      loaded copy, e.g. CuPy's or PyTorch's, LD_LIBRARY_PATH, ld.so.cache);
 *   2. the toolkit cuarray was built against (CA_CUDA_LIB_DIR), and
 *      $CUDA_HOME/lib64 or $CUDA_PATH/lib64 at run time;
 *   3. NVIDIA's pip wheels: <entry>/nvidia/cublas/lib and <entry>/nvidia/cu13/lib
 *      for every entry of sys.path.
 * From a directory, libcublasLt.so.13 (a dependency of libcublas) is loaded
 * first from the same place, so the dependency resolves whatever the loader's
 * search path.
 *
 * Loading happens once per process under a mutex, with the GIL released (it
 * takes a few hundred milliseconds on a cold cache). A failure is remembered
 * with its message.
 */
#include "dynlib.h"

#if CA_HAVE_CUDA

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each pointer type must match the toolkit's declaration. */
#if defined(__GNUC__)
#define CA_CHECK_SIG(fn, type)                                                      \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&fn), type),             \
                   #fn " does not match " #type " (dynlib.h)")
CA_CHECK_SIG(cublasCreate_v2, ca_cublasCreate_fn);
CA_CHECK_SIG(cublasSetStream_v2, ca_cublasSetStream_fn);
CA_CHECK_SIG(cublasSetWorkspace_v2, ca_cublasSetWorkspace_fn);
CA_CHECK_SIG(cublasSetMathMode, ca_cublasSetMathMode_fn);
CA_CHECK_SIG(cublasGetVersion_v2, ca_cublasGetVersion_fn);
CA_CHECK_SIG(cublasSgemm_v2, ca_cublasSgemm_fn);
CA_CHECK_SIG(cublasDgemm_v2, ca_cublasDgemm_fn);
CA_CHECK_SIG(cublasCgemm_v2, ca_cublasCgemm_fn);
CA_CHECK_SIG(cublasZgemm_v2, ca_cublasZgemm_fn);
CA_CHECK_SIG(cublasGemmEx, ca_cublasGemmEx_fn);
CA_CHECK_SIG(cublasSgemmStridedBatched, ca_cublasSgemmStridedBatched_fn);
CA_CHECK_SIG(cublasDgemmStridedBatched, ca_cublasDgemmStridedBatched_fn);
CA_CHECK_SIG(cublasCgemmStridedBatched, ca_cublasCgemmStridedBatched_fn);
CA_CHECK_SIG(cublasZgemmStridedBatched, ca_cublasZgemmStridedBatched_fn);
CA_CHECK_SIG(cublasGemmStridedBatchedEx, ca_cublasGemmStridedBatchedEx_fn);
#endif

#define CA_CUBLAS_SONAME "libcublas.so.13"
#define CA_CUBLASLT_SONAME "libcublasLt.so.13"

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int load_state; /* 0 not tried, 1 loaded, -1 failed; atomic */
static ca_cublas_api api;
static char loaded_from[4096];
static char load_error[8192];

typedef struct {
    char **dirs;
    int n;
} dir_list;

/* (GIL held) */
static int
add_dir(dir_list *l, const char *a, const char *b)
{
    size_t n = strlen(a) + (b ? strlen(b) + 1 : 0) + 1;
    char *s = (char *)malloc(n);
    char **d = (char **)realloc(l->dirs, (size_t)(l->n + 1) * sizeof(char *));
    if (s == NULL || d == NULL) {
        free(s);
        if (d != NULL) {
            l->dirs = d;
        }
        PyErr_NoMemory();
        return -1;
    }
    l->dirs = d;
    if (b != NULL) {
        snprintf(s, n, "%s/%s", a, b);
    }
    else {
        snprintf(s, n, "%s", a);
    }
    l->dirs[l->n++] = s;
    return 0;
}

static void
free_dirs(dir_list *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->dirs[i]);
    }
    free(l->dirs);
    l->dirs = NULL;
    l->n = 0;
}

/* The directories of steps 2 and 3 (GIL held). */
static int
collect_dirs(dir_list *l)
{
#ifdef CA_CUDA_LIB_DIR
    if (add_dir(l, CA_CUDA_LIB_DIR, NULL) < 0) {
        return -1;
    }
#endif
    const char *envs[] = {"CUDA_HOME", "CUDA_PATH"};
    for (int i = 0; i < 2; i++) {
        const char *v = getenv(envs[i]);
        if (v != NULL && *v != '\0' && add_dir(l, v, "lib64") < 0) {
            return -1;
        }
    }
    PyObject *path = PySys_GetObject("path"); /* borrowed */
    if (path == NULL || !PyList_Check(path)) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(path); i++) {
        PyObject *e = PyList_GET_ITEM(path, i);
        if (!PyUnicode_Check(e)) {
            continue;
        }
        const char *s = PyUnicode_AsUTF8(e);
        if (s == NULL) {
            PyErr_Clear();
            continue;
        }
        if (*s == '\0') {
            continue;
        }
        if (add_dir(l, s, "nvidia/cublas/lib") < 0 || add_dir(l, s, "nvidia/cu13/lib") < 0) {
            return -1;
        }
    }
    return 0;
}

/* Resolve every symbol of the table from `h`. (GIL released, lock held) */
static int
resolve(void *h, const char *where)
{
    struct {
        const char *name;
        void **slot;
    } syms[] = {
        {"cublasCreate_v2", (void **)&api.Create},
        {"cublasSetStream_v2", (void **)&api.SetStream},
        {"cublasSetWorkspace_v2", (void **)&api.SetWorkspace},
        {"cublasSetMathMode", (void **)&api.SetMathMode},
        {"cublasGetVersion_v2", (void **)&api.GetVersion},
        {"cublasSgemm_v2", (void **)&api.Sgemm},
        {"cublasDgemm_v2", (void **)&api.Dgemm},
        {"cublasCgemm_v2", (void **)&api.Cgemm},
        {"cublasZgemm_v2", (void **)&api.Zgemm},
        {"cublasGemmEx", (void **)&api.GemmEx},
        {"cublasSgemmStridedBatched", (void **)&api.SgemmStridedBatched},
        {"cublasDgemmStridedBatched", (void **)&api.DgemmStridedBatched},
        {"cublasCgemmStridedBatched", (void **)&api.CgemmStridedBatched},
        {"cublasZgemmStridedBatched", (void **)&api.ZgemmStridedBatched},
        {"cublasGemmStridedBatchedEx", (void **)&api.GemmStridedBatchedEx},
    };
    for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
        void *p = dlsym(h, syms[i].name);
        if (p == NULL) {
            snprintf(load_error, sizeof load_error,
                     "cuBLAS loaded from %s lacks the function %s (a cuBLAS older than "
                     "CUDA 13?)",
                     where, syms[i].name);
            memset(&api, 0, sizeof api);
            return -1;
        }
        *syms[i].slot = p;
    }
    snprintf(loaded_from, sizeof loaded_from, "%s", where);
    return 0;
}

/* (GIL released, lock held) 1 when loaded, else -1 with load_error set. */
static int
load_locked(const dir_list *dirs)
{
    char first_error[1024] = "";
    void *h = dlopen(CA_CUBLAS_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (h != NULL) {
        char where[4096] = CA_CUBLAS_SONAME;
        Dl_info info;
        void *sym = dlsym(h, "cublasCreate_v2");
        if (sym != NULL && dladdr(sym, &info) && info.dli_fname != NULL) {
            snprintf(where, sizeof where, "%s", info.dli_fname);
        }
        return resolve(h, where) == 0 ? 1 : -1;
    }
    const char *e = dlerror();
    snprintf(first_error, sizeof first_error, "%s", e ? e : "not found");
    size_t used = 0;
    char looked[6144] = "";
    for (int i = 0; i < dirs->n; i++) {
        char lib[4096], lt[4096];
        snprintf(lib, sizeof lib, "%s/%s", dirs->dirs[i], CA_CUBLAS_SONAME);
        if (used + 3 < sizeof looked) {
            int w = snprintf(looked + used, sizeof looked - used, "%s%s", used ? ", " : "",
                             dirs->dirs[i]);
            used += w > 0 ? (size_t)w : 0;
            if (used >= sizeof looked) {
                used = sizeof looked - 1;
            }
        }
        if (access(lib, R_OK) != 0) {
            continue;
        }
        snprintf(lt, sizeof lt, "%s/%s", dirs->dirs[i], CA_CUBLASLT_SONAME);
        if (access(lt, R_OK) == 0) {
            /* Kept loaded for the life of the process, like libcublas. */
            (void)dlopen(lt, RTLD_NOW | RTLD_GLOBAL);
        }
        h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
        if (h != NULL) {
            return resolve(h, lib) == 0 ? 1 : -1;
        }
        e = dlerror();
        snprintf(load_error, sizeof load_error, "%s exists but could not be loaded: %s", lib,
                 e ? e : "?");
        return -1;
    }
    snprintf(load_error, sizeof load_error,
             "cuBLAS (" CA_CUBLAS_SONAME ") was not found: the dynamic loader said \"%s\"; "
             "also looked in: %s. Install cuBLAS for CUDA 13 (the CUDA toolkit, or "
             "NVIDIA's cuBLAS wheel for CUDA 13) or add its directory to "
             "LD_LIBRARY_PATH",
             first_error, used ? looked : "(nowhere else)");
    return -1;
}

const ca_cublas_api *
ca_cublas(void)
{
    int s = __atomic_load_n(&load_state, __ATOMIC_ACQUIRE);
    if (s == 1) {
        return &api;
    }
    if (s == 0) {
        dir_list dirs = {NULL, 0};
        if (collect_dirs(&dirs) < 0) {
            free_dirs(&dirs);
            return NULL;
        }
        Py_BEGIN_ALLOW_THREADS
        pthread_mutex_lock(&load_lock);
        if (__atomic_load_n(&load_state, __ATOMIC_ACQUIRE) == 0) {
            __atomic_store_n(&load_state, load_locked(&dirs), __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&load_lock);
        Py_END_ALLOW_THREADS
        free_dirs(&dirs);
        s = __atomic_load_n(&load_state, __ATOMIC_ACQUIRE);
        if (s == 1) {
            return &api;
        }
    }
    PyErr_SetString(PyExc_ImportError, load_error);
    return NULL;
}

const char *
ca_cublas_path(void)
{
    return __atomic_load_n(&load_state, __ATOMIC_ACQUIRE) == 1 ? loaded_from : NULL;
}

#else /* !CA_HAVE_CUDA */

const char *
ca_cublas_path(void)
{
    return NULL;
}

#endif /* CA_HAVE_CUDA */
