/*
 * dynlib.c: load cuBLAS, cuFFT, cuRAND, cuSOLVER and NVRTC on first use (see dynlib.h
 * for why).
 *
 * Where it looks for a library, in order:
 *   1. its soname (dynlib_fns.def: "libcublas.so.13", "libcufft.so.12",
 *      "libcusolver.so.12": CUDA 13 ships cuFFT 12 and cuSOLVER 12)
 *      through the dynamic loader's own search (an already loaded copy, e.g.
 *      CuPy's or PyTorch's, LD_LIBRARY_PATH, ld.so.cache);
 *   2. the toolkit cuarray was built against (CA_CUDA_LIB_DIR), and
 *      $CUDA_HOME/lib64 or $CUDA_PATH/lib64 at run time;
 *   3. NVIDIA's pip wheels: <entry>/nvidia/<lib>/lib and <entry>/nvidia/cu13/lib
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
#include "faults.h"

#if CA_HAVE_CUDA

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each pointer type must match the toolkit's declaration: a row's check. */
#if defined(__GNUC__)
#define CA_CHECK_SIG(fn, type)                                                         \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&fn), type),                \
                   #fn " does not match " #type " (dynlib_fns.def)")
#define CA_DL_LIB(...)
#define CA_DL_FN(lib, ret, field, sym, params) CA_CHECK_SIG(sym, ret(*) params);
/* A typed family: each precision's function with its element and real types. */
#define CA_DL_TYPED(lib, ret, field, S, D, C, Z, sig)                                  \
    CA_CHECK_SIG(S, ret(*) sig(float, float));                                         \
    CA_CHECK_SIG(D, ret(*) sig(double, double));                                       \
    CA_CHECK_SIG(C, ret(*) sig(cuComplex, float));                                     \
    CA_CHECK_SIG(Z, ret(*) sig(cuDoubleComplex, double));
#define CA_DL_END(lib)
#include "dynlib_fns.def"
#endif

typedef struct {
    const char *name;
    void **slot;
} lib_sym;

/* Each library's table, <lib>_table, and what fills it, <lib>_syms: a row's
 * symbol and the field it fills (a typed family: four, in precision order). Kept
 * as written: an array that one row macro opens and another closes. */
/* clang-format off */
#define CA_DL_LIB(lib, ...)                                                            \
    static ca_##lib##_api lib##_table;                                                 \
    static const lib_sym lib##_syms[] = {
#define CA_DL_FN(lib, ret, field, sym, params) { #sym, (void **)&lib##_table.field },
#define CA_DL_TYPED(lib, ret, field, S, D, C, Z, sig)                                  \
    { #S, (void **)&lib##_table.field[0] }, { #D, (void **)&lib##_table.field[1] },    \
    { #C, (void **)&lib##_table.field[2] }, { #Z, (void **)&lib##_table.field[3] },
#define CA_DL_END(lib) };
/* clang-format on */
#include "dynlib_fns.def"

/* One library: where to look, what to resolve, and how its load went. The
 * state is written once under load_lock and read with acquire loads. */
typedef struct {
    const char *what; /* "cuBLAS", for messages */
    const char *soname;
    const char *dep_soname; /* loaded first from the same directory, or NULL */
    const char *pip_dir;    /* its own directory in NVIDIA's wheels */
    const char *advice;     /* what to install, for the not-found message */
    const lib_sym *syms;
    size_t nsyms;
    int state; /* 0 not tried, 1 loaded, -1 failed; atomic */
    char loaded_from[4096];
    char error[8192];
} lib_desc;

/* A library's fixed fields (state, loaded_from and error start zeroed). */
#define CA_LIB(what_, soname_, dep_, pip_, advice_, syms_)                             \
    {                                                                                  \
        .what = what_, .soname = soname_, .dep_soname = dep_, .pip_dir = pip_,         \
        .advice = advice_, .syms = syms_, .nsyms = sizeof(syms_) / sizeof(syms_[0])    \
    }
#define CA_LIB_ADVICE(what)                                                            \
    "Install " what " for CUDA 13 (the CUDA toolkit, or NVIDIA's " what " wheel for "  \
    "CUDA 13)"

/* Each library's description, <lib>_lib, from its CA_DL_LIB row. */
#define CA_DL_LIB(lib, what, soname, dep, pip_dir, advice)                             \
    static lib_desc lib##_lib = CA_LIB(what, soname, dep, pip_dir, advice, lib##_syms);
#define CA_DL_FN(...)
#define CA_DL_TYPED(...)
#define CA_DL_END(lib)
#include "dynlib_fns.def"

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

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

/* The directories of steps 2 and 3 for `lib` (GIL held). */
static int
collect_dirs(const lib_desc *lib, dir_list *l)
{
#ifdef CA_CUDA_LIB_DIR
    if (add_dir(l, CA_CUDA_LIB_DIR, NULL) < 0) {
        return -1;
    }
#endif
    const char *envs[] = { "CUDA_HOME", "CUDA_PATH" };
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
        if (add_dir(l, s, lib->pip_dir) < 0 || add_dir(l, s, "nvidia/cu13/lib") < 0) {
            return -1;
        }
    }
    return 0;
}

/* Resolve every symbol of lib's table from `h`. (GIL released, lock held) */
static int
resolve(lib_desc *lib, void *h, const char *where)
{
    for (size_t i = 0; i < lib->nsyms; i++) {
        void *p = dlsym(h, lib->syms[i].name);
        if (p == NULL) {
            snprintf(lib->error, sizeof lib->error,
                     "%s loaded from %s lacks the function %s (a %s older than "
                     "CUDA 13?)",
                     lib->what, where, lib->syms[i].name, lib->what);
            for (size_t j = 0; j < lib->nsyms; j++) {
                *lib->syms[j].slot = NULL;
            }
            return -1;
        }
        *lib->syms[i].slot = p;
    }
    snprintf(lib->loaded_from, sizeof lib->loaded_from, "%s", where);
    return 0;
}

/* (GIL released, lock held) 1 when loaded, else -1 with lib->error set. */
static int
load_locked(lib_desc *lib, const dir_list *dirs)
{
    char first_error[1024] = "";
    void *h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
    if (h != NULL) {
        char where[4096];
        Dl_info info;
        snprintf(where, sizeof where, "%s", lib->soname);
        void *sym = dlsym(h, lib->syms[0].name);
        if (sym != NULL && dladdr(sym, &info) && info.dli_fname != NULL) {
            snprintf(where, sizeof where, "%s", info.dli_fname);
        }
        return resolve(lib, h, where) == 0 ? 1 : -1;
    }
    const char *e = dlerror();
    snprintf(first_error, sizeof first_error, "%s", e ? e : "not found");
    size_t used = 0;
    char looked[6144] = "";
    for (int i = 0; i < dirs->n; i++) {
        char path[4096], dep[4096];
        snprintf(path, sizeof path, "%s/%s", dirs->dirs[i], lib->soname);
        if (used + 3 < sizeof looked) {
            int w = snprintf(looked + used, sizeof looked - used, "%s%s",
                             used ? ", " : "", dirs->dirs[i]);
            used += w > 0 ? (size_t)w : 0;
            if (used >= sizeof looked) {
                used = sizeof looked - 1;
            }
        }
        if (access(path, R_OK) != 0) {
            continue;
        }
        if (lib->dep_soname != NULL) {
            snprintf(dep, sizeof dep, "%s/%s", dirs->dirs[i], lib->dep_soname);
            if (access(dep, R_OK) == 0) {
                /* Kept loaded for the life of the process, like the library. */
                (void)dlopen(dep, RTLD_NOW | RTLD_GLOBAL);
            }
        }
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h != NULL) {
            return resolve(lib, h, path) == 0 ? 1 : -1;
        }
        e = dlerror();
        snprintf(lib->error, sizeof lib->error, "%s exists but could not be loaded: %s",
                 path, e ? e : "?");
        return -1;
    }
    snprintf(lib->error, sizeof lib->error,
             "%s (%s) was not found: the dynamic loader said \"%s\"; also looked "
             "in: %s. %s or add its directory to LD_LIBRARY_PATH",
             lib->what, lib->soname, first_error, used ? looked : "(nowhere else)",
             lib->advice);
    return -1;
}

/* 0 when `lib` is loaded (loading it on the first call), else -1 with
 * ImportError. */
static int
load_lib(lib_desc *lib)
{
    int s = __atomic_load_n(&lib->state, __ATOMIC_ACQUIRE);
    if (s == 1) {
        return 0;
    }
    if (s == 0 && CA_FAULT(CA_FAULT_LIBRARY_LOAD)) {
        /* not sticky, as a real failure is: the next call loads the library */
        PyErr_Format(PyExc_ImportError, "%s could not be loaded (injected fault)",
                     lib->what);
        return -1;
    }
    if (s == 0) {
        dir_list dirs = { NULL, 0 };
        if (collect_dirs(lib, &dirs) < 0) {
            free_dirs(&dirs);
            return -1;
        }
        Py_BEGIN_ALLOW_THREADS
            pthread_mutex_lock(&load_lock);
            if (__atomic_load_n(&lib->state, __ATOMIC_ACQUIRE) == 0) {
                __atomic_store_n(&lib->state, load_locked(lib, &dirs),
                                 __ATOMIC_RELEASE);
            }
            pthread_mutex_unlock(&load_lock);
        Py_END_ALLOW_THREADS
        free_dirs(&dirs);
        if (__atomic_load_n(&lib->state, __ATOMIC_ACQUIRE) == 1) {
            return 0;
        }
    }
    PyErr_SetString(PyExc_ImportError, lib->error);
    return -1;
}

/* Where a library was loaded from, or NULL while it is not loaded. */
static const char *
loaded_path(const lib_desc *lib)
{
    return __atomic_load_n(&lib->state, __ATOMIC_ACQUIRE) == 1 ? lib->loaded_from
                                                               : NULL;
}

/* A library's entry points: its table, loaded on the first call, and where it
 * was loaded from (NULL while it is not). */
#define CA_LIB_PATH(name)                                                              \
    const char *ca_##name##_path(void) { return loaded_path(&name##_lib); }
#define CA_LIB_ENTRY(name)                                                             \
    const ca_##name##_api *ca_##name(void)                                             \
    {                                                                                  \
        return load_lib(&name##_lib) < 0 ? NULL : &name##_table;                       \
    }                                                                                  \
    CA_LIB_PATH(name)
CA_LIB_ENTRY(cublas)
CA_LIB_ENTRY(cufft)
CA_LIB_ENTRY(curand)
CA_LIB_ENTRY(nvrtc)
CA_LIB_ENTRY(cusparse)
CA_LIB_PATH(cusolver)

/* cuSOLVER's dependencies resolve against the cuBLAS loaded first. */
const ca_cusolver_api *
ca_cusolver(void)
{
    if (load_lib(&cublas_lib) < 0) {
        return NULL;
    }
    return load_lib(&cusolver_lib) < 0 ? NULL : &cusolver_table;
}

const ca_cublas_lu_api *
ca_cublas_lu(void)
{
    return load_lib(&cublas_lu_lib) < 0 ? NULL : &cublas_lu_table;
}

#else /* !CA_HAVE_CUDA */

/* No library is ever loaded in the host-only build. */
#define CA_NO_LIB_PATH(name)                                                           \
    const char *ca_##name##_path(void) { return NULL; }
CA_NO_LIB_PATH(cublas)
CA_NO_LIB_PATH(cufft)
CA_NO_LIB_PATH(cusolver)
CA_NO_LIB_PATH(curand)
CA_NO_LIB_PATH(nvrtc)
CA_NO_LIB_PATH(cusparse)

#endif /* CA_HAVE_CUDA */
