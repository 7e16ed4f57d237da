/*
 * host_lapack.c: finds the LAPACK NumPy loaded (host_lapack.h says why) and
 * resolves its routines into one table per element type, on first use.
 *
 * The search: every shared object the process has loaded (dl_iterate_phdr), in
 * load order, opened again with RTLD_NOLOAD (no new library is ever loaded) and
 * asked for sgetrf under the two ILP64 spellings below. NumPy's wheels load
 * their OpenBLAS at `import numpy`, so by the time a cuarray array exists it is
 * there. A library that has sgetrf but lacks one of the other routines is
 * refused whole: half a table would fail in the middle of a factorization.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "cuarray.h"
#include "host_lapack.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "<prefix><t><name>_64_": NumPy's scipy-openblas64 wheels, then a plain ILP64
 * OpenBLAS built with the 64_ suffix. */
static const char *const prefixes[] = { "scipy_", "" };

static pthread_mutex_t lapack_lock = PTHREAD_MUTEX_INITIALIZER;
static int searched;
static char *found_path;
static ca_host_lapack_api tables[4]; /* s, d, c, z */

typedef struct {
    char **names;
    size_t count, cap;
} name_list;

static int
collect_name(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    name_list *l = data;
    if (info->dlpi_name == NULL || info->dlpi_name[0] == '\0') {
        return 0; /* the executable itself */
    }
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **grown = realloc(l->names, cap * sizeof *grown);
        if (grown == NULL) {
            return 1;
        }
        l->names = grown, l->cap = cap;
    }
    char *copy = strdup(info->dlpi_name);
    if (copy == NULL) {
        return 1;
    }
    l->names[l->count++] = copy;
    return 0;
}

static void *
sym(void *h, const char *prefix, char t, const char *name)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s%c%s_64_", prefix, t, name);
    return dlsym(h, buf);
}

/* Every routine of one element type from `h`; 0 when all are there. */
static int
resolve_type(void *h, const char *p, char t, ca_host_lapack_api *x)
{
    const int cplx = t == 'c' || t == 'z';
    memset(x, 0, sizeof *x);
    x->getrf = (ca_lp_getrf_fn)sym(h, p, t, "getrf");
    x->getrs = (ca_lp_getrs_fn)sym(h, p, t, "getrs");
    x->getri = (ca_lp_getri_fn)sym(h, p, t, "getri");
    x->potrf = (ca_lp_potrf_fn)sym(h, p, t, "potrf");
    x->geqrf = (ca_lp_geqrf_fn)sym(h, p, t, "geqrf");
    x->orgqr = (ca_lp_orgqr_fn)sym(h, p, t, cplx ? "ungqr" : "orgqr");
    int ok = x->getrf && x->getrs && x->getri && x->potrf && x->geqrf && x->orgqr;
    if (cplx) {
        x->heevd = (ca_lp_heevd_fn)sym(h, p, t, "heevd");
        x->cgesvd = (ca_lp_cgesvd_fn)sym(h, p, t, "gesvd");
        x->cgesdd = (ca_lp_cgesdd_fn)sym(h, p, t, "gesdd");
        x->cgeev = (ca_lp_cgeev_fn)sym(h, p, t, "geev");
        ok = ok && x->heevd && x->cgesvd && x->cgesdd && x->cgeev;
    }
    else {
        x->syevd = (ca_lp_syevd_fn)sym(h, p, t, "syevd");
        x->gesvd = (ca_lp_gesvd_fn)sym(h, p, t, "gesvd");
        x->gesdd = (ca_lp_gesdd_fn)sym(h, p, t, "gesdd");
        x->geev = (ca_lp_geev_fn)sym(h, p, t, "geev");
        ok = ok && x->syevd && x->gesvd && x->gesdd && x->geev;
    }
    return ok ? 0 : -1;
}

/* All four tables from the library `path` (already loaded); 0 on success. */
static int
try_library(const char *path)
{
    void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (h == NULL) {
        return -1;
    }
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
        if (sym(h, prefixes[i], 's', "getrf") == NULL) {
            continue;
        }
        int ok = 1;
        for (int t = 0; t < 4 && ok; t++) {
            ok = resolve_type(h, prefixes[i], "sdcz"[t], &tables[t]) == 0;
        }
        Dl_info where;
        if (ok && dladdr((void *)tables[0].getrf, &where) != 0 && where.dli_fname) {
            path = where.dli_fname; /* h may have found it in a dependency */
        }
        if (ok) {
            found_path = strdup(path);
            return 0; /* the handle stays open: the tables point into it */
        }
    }
    memset(tables, 0, sizeof tables);
    dlclose(h);
    return -1;
}

static void
search_locked(void)
{
    name_list l = { NULL, 0, 0 };
    dl_iterate_phdr(collect_name, &l); /* names only: no dlopen under its lock */
    for (size_t i = 0; i < l.count; i++) {
        if (found_path == NULL) {
            (void)try_library(l.names[i]);
        }
        free(l.names[i]);
    }
    free(l.names);
    searched = 1;
}

static int
table_index(int dtype)
{
    switch (dtype) {
    case CA_FLOAT32: return 0;
    case CA_FLOAT64: return 1;
    case CA_COMPLEX64: return 2;
    case CA_COMPLEX128: return 3;
    default: return -1;
    }
}

const ca_host_lapack_api *
ca_host_lapack(int dtype)
{
    const int t = table_index(dtype);
    if (t < 0) {
        return NULL;
    }
    pthread_mutex_lock(&lapack_lock);
    if (!searched) {
        search_locked();
    }
    const ca_host_lapack_api *x = found_path != NULL ? &tables[t] : NULL;
    pthread_mutex_unlock(&lapack_lock);
    return x;
}

const char *
ca_host_lapack_path(void)
{
    pthread_mutex_lock(&lapack_lock);
    const char *p = found_path;
    pthread_mutex_unlock(&lapack_lock);
    return p;
}
