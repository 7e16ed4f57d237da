/*
 * dynlib.h: cuBLAS, cuFFT, cuRAND, cuSOLVER and NVRTC, loaded on first use (csrc/runtime/dynlib.c).
 *
 * cuarray does not link cuBLAS: linked, it costs every `import cuarray` about
 * 0.36 s and 217 MB of resident memory, used or not (cuFFT, 280 MB on disk,
 * likewise). ca_cublas() / ca_cufft() dlopen() the library the first time a
 * product / a transform needs it and resolve its functions into a table.
 * The functions are rows of dynlib_fns.def, their pointer types written out from
 * the declarations of the toolkit's headers, and dynlib.c checks each against the
 * header at compile time, so a mismatch cannot build.
 */
#ifndef CA_DYNLIB_H
#define CA_DYNLIB_H

#include "cuarray.h"

#if CA_HAVE_CUDA
#include <cublas_api.h>
#include <cufft.h>
#include <cusolverDn.h>
#include <curand.h>
/* cusparse.h marks its legacy API deprecated; only the generic API is used */
#ifndef DISABLE_CUSPARSE_DEPRECATED
#define DISABLE_CUSPARSE_DEPRECATED
#endif
#include <cusparse.h>
#include <nvrtc.h>

/* Each library's table, ca_<lib>_api: a function pointer per row of its section
 * of dynlib_fns.def, of the type the row writes out (a typed family: an array of
 * four, its element pointers `void *`, in precision order S, D, C, Z). dynlib.c
 * makes from the same rows the check of each type against the toolkit's
 * declaration and the dlsym() list that fills the table.
 *
 * ca_<lib>() returns the table, loading the library on the first call
 * (thread-safe, once): NULL with ImportError naming the library and every place
 * searched. A failed load is remembered: later calls fail the same way at once.
 * ca_cusolver() loads cuBLAS first, which cuSOLVER depends on; ca_cublas_lu()'s
 * table is cuBLAS's batched LU functions (the same library, its own table).
 * (The row macros are kept as written: a struct that one opens and another
 * closes.) */
/* clang-format off */
#define CA_DL_LIB(lib, ...) typedef struct {
#define CA_DL_FN(lib, ret, field, sym, params) ret (*field) params;
#define CA_DL_TYPED(lib, ret, field, S, D, C, Z, sig) ret (*field[4]) sig(void, void);
#define CA_DL_END(lib) } ca_##lib##_api; const ca_##lib##_api *ca_##lib(void);
/* clang-format on */
#include "dynlib_fns.def"

#endif /* CA_HAVE_CUDA */

/* Where cuSPARSE was loaded from, or NULL if it is not loaded (never loads). */
const char *ca_cusparse_path(void);

/* Where cuSOLVER was loaded from, or NULL if it is not loaded (never loads). */
const char *ca_cusolver_path(void);

/* The path cuBLAS was loaded from, or NULL if it is not loaded (never loads;
 * NULL in host-only builds). */
const char *ca_cublas_path(void);
/* The same for cuFFT. */
const char *ca_cufft_path(void);
/* The same for cuRAND. */
const char *ca_curand_path(void);
/* The same for NVRTC. */
const char *ca_nvrtc_path(void);

#endif /* CA_DYNLIB_H */
