/*
 * host_lapack.h: the LAPACK that NumPy's linalg already loaded into the process,
 * for the cpu device's factorizations (host_lapack.c finds it, solver_host.c
 * calls it).
 *
 * Why: numpy.linalg computes float32 and complex64 matrices in double precision
 * and rounds the result (2-3x the time of the single-precision routine at
 * n = 512). cuarray factors them in their own precision on a GPU (cuSOLVER), and
 * with this on the cpu device too. No LAPACK is linked or shipped: NumPy's wheels
 * carry OpenBLAS with 64-bit integers (symbols scipy_sgetrf_64_, ...), other
 * builds may export sgetrf_64_; without either, the cpu device keeps numpy.linalg.
 *
 * The pointer types follow LAPACK's Fortran interface (every argument by
 * reference, 64-bit integers, a hidden length per character argument at the end,
 * which the C-written routines simply do not read). Data pointers are void *: one
 * table per element type (s, d, c, z), with the real or complex form of the
 * routines whose argument lists differ (syevd / heevd, gesvd, gesdd, geev).
 */
#ifndef CA_HOST_LAPACK_H
#define CA_HOST_LAPACK_H

#include <stddef.h>
#include <stdint.h>

typedef int64_t ca_lint; /* LAPACK's INTEGER in an ILP64 build */

typedef void (*ca_lp_getrf_fn)(const ca_lint *m, const ca_lint *n, void *a,
                               const ca_lint *lda, ca_lint *ipiv, ca_lint *info);
typedef void (*ca_lp_getrs_fn)(const char *trans, const ca_lint *n, const ca_lint *nrhs,
                               const void *a, const ca_lint *lda, const ca_lint *ipiv,
                               void *b, const ca_lint *ldb, ca_lint *info, size_t);
typedef void (*ca_lp_getri_fn)(const ca_lint *n, void *a, const ca_lint *lda,
                               const ca_lint *ipiv, void *work, const ca_lint *lwork,
                               ca_lint *info);
typedef void (*ca_lp_potrf_fn)(const char *uplo, const ca_lint *n, void *a,
                               const ca_lint *lda, ca_lint *info, size_t);
typedef void (*ca_lp_geqrf_fn)(const ca_lint *m, const ca_lint *n, void *a,
                               const ca_lint *lda, void *tau, void *work,
                               const ca_lint *lwork, ca_lint *info);
typedef void (*ca_lp_orgqr_fn)(const ca_lint *m, const ca_lint *n, const ca_lint *k,
                               void *a, const ca_lint *lda, const void *tau, void *work,
                               const ca_lint *lwork, ca_lint *info);
typedef void (*ca_lp_syevd_fn)(const char *jobz, const char *uplo, const ca_lint *n,
                               void *a, const ca_lint *lda, void *w, void *work,
                               const ca_lint *lwork, ca_lint *iwork,
                               const ca_lint *liwork, ca_lint *info, size_t, size_t);
typedef void (*ca_lp_heevd_fn)(const char *jobz, const char *uplo, const ca_lint *n,
                               void *a, const ca_lint *lda, void *w, void *work,
                               const ca_lint *lwork, void *rwork, const ca_lint *lrwork,
                               ca_lint *iwork, const ca_lint *liwork, ca_lint *info,
                               size_t, size_t);
typedef void (*ca_lp_gesvd_fn)(const char *jobu, const char *jobvt, const ca_lint *m,
                               const ca_lint *n, void *a, const ca_lint *lda, void *s,
                               void *u, const ca_lint *ldu, void *vt,
                               const ca_lint *ldvt, void *work, const ca_lint *lwork,
                               ca_lint *info, size_t, size_t);
typedef void (*ca_lp_cgesvd_fn)(const char *jobu, const char *jobvt, const ca_lint *m,
                                const ca_lint *n, void *a, const ca_lint *lda, void *s,
                                void *u, const ca_lint *ldu, void *vt,
                                const ca_lint *ldvt, void *work, const ca_lint *lwork,
                                void *rwork, ca_lint *info, size_t, size_t);
typedef void (*ca_lp_gesdd_fn)(const char *jobz, const ca_lint *m, const ca_lint *n,
                               void *a, const ca_lint *lda, void *s, void *u,
                               const ca_lint *ldu, void *vt, const ca_lint *ldvt,
                               void *work, const ca_lint *lwork, ca_lint *iwork,
                               ca_lint *info, size_t);
typedef void (*ca_lp_cgesdd_fn)(const char *jobz, const ca_lint *m, const ca_lint *n,
                                void *a, const ca_lint *lda, void *s, void *u,
                                const ca_lint *ldu, void *vt, const ca_lint *ldvt,
                                void *work, const ca_lint *lwork, void *rwork,
                                ca_lint *iwork, ca_lint *info, size_t);
typedef void (*ca_lp_geev_fn)(const char *jobvl, const char *jobvr, const ca_lint *n,
                              void *a, const ca_lint *lda, void *wr, void *wi, void *vl,
                              const ca_lint *ldvl, void *vr, const ca_lint *ldvr,
                              void *work, const ca_lint *lwork, ca_lint *info, size_t,
                              size_t);
typedef void (*ca_lp_cgeev_fn)(const char *jobvl, const char *jobvr, const ca_lint *n,
                               void *a, const ca_lint *lda, void *w, void *vl,
                               const ca_lint *ldvl, void *vr, const ca_lint *ldvr,
                               void *work, const ca_lint *lwork, void *rwork,
                               ca_lint *info, size_t, size_t);

/* One element type's routines. Real types fill syevd, gesvd, gesdd, geev;
 * complex types heevd, cgesvd, cgesdd, cgeev (orgqr is ungqr for them). */
typedef struct {
    ca_lp_getrf_fn getrf;
    ca_lp_getrs_fn getrs;
    ca_lp_getri_fn getri;
    ca_lp_potrf_fn potrf;
    ca_lp_geqrf_fn geqrf;
    ca_lp_orgqr_fn orgqr;
    ca_lp_syevd_fn syevd;
    ca_lp_heevd_fn heevd;
    ca_lp_gesvd_fn gesvd;
    ca_lp_cgesvd_fn cgesvd;
    ca_lp_gesdd_fn gesdd;
    ca_lp_cgesdd_fn cgesdd;
    ca_lp_geev_fn geev;
    ca_lp_cgeev_fn cgeev;
} ca_host_lapack_api;

/* The routines for `dtype` (CA_FLOAT32, CA_FLOAT64, CA_COMPLEX64, CA_COMPLEX128),
 * found on the first call among the shared objects the process has loaded (under
 * a lock, once); NULL when none exports them (no Python exception set). */
const ca_host_lapack_api *ca_host_lapack(int dtype);
/* The file they come from, or NULL (never searches). */
const char *ca_host_lapack_path(void);

#endif /* CA_HOST_LAPACK_H */
