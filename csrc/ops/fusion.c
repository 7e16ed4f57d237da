/*
 * fusion.c: deferred element-wise operations, fused into one kernel when one
 * feeds another.
 *
 * An element-wise call on a GPU whose operands are dense, same-shape float32 (or
 * float64) and bool arrays returns its result at once, but may leave the
 * kernel unlaunched: the result array records the program that computes it (a
 * "pending" array). When a later element-wise call takes pending arrays as
 * operands, it copies their programs into its own, so that
 *
 *     where(a > 0.5, a, a * 2)
 *
 * runs as ONE kernel that reads `a` once and writes the result once, instead of
 * three kernels and two temporaries. A pending array whose program was copied
 * into another one is "consumed": if it dies unused (the usual fate of a
 * temporary) its kernel is never launched.
 *
 * Deferral must not be observable, so deferred work reaches the stream, in the
 * order it was asked for, before anything else can depend on it:
 *   - before any other GPU work, transfer, synchronization or event record that
 *     cuarray issues: every checked call of the launch layer (launch.h) calls
 *     ca_fusion_flush() first, and code that enqueues through its raw calls
 *     without the GIL flushes before releasing it;
 *   - before an array's memory leaves cuarray's hands (__cuda_array_interface__,
 *     DLPack, .data.ptr, the buffer protocol): ca_fusion_export_memory();
 *   - when a pending array that nobody consumed dies: its kernel is launched
 *     then (asked-for work is always done, only fused temporaries are skipped).
 * Memory that other code may write behind cuarray's back (exported, foreign,
 * host-visible) never feeds a deferred program, so a deferred read can not
 * see a later outside write. Only arrays of plain pooled device memory do.
 *
 * Small arrays are not deferred (CUARRAY_FUSION sets the threshold in
 * elements, 0 turns deferral off): there the per-call overhead is what counts.
 * All of this runs under the GIL; the list of pending arrays is global.
 */
#include "launch.h"
#include "ew_table.h"

#define DEFAULT_THRESHOLD ((Py_ssize_t)1 << 16)

typedef struct ca_pending {
    struct ca_pending *prev, *next; /* the global list, in the order asked for */
    CaArray *out;                   /* borrowed: the array this computes (it owns us) */
    CaArray *leaf[CA_FUSE_MAXLEAF]; /* strong references */
    int family, nconst;
    int loop[CA_FUSE_MAXINSTR]; /* the loop of each instruction */
    ca_fuse_params p;           /* leaves, constants, instructions */
    int device;
    ca_stream_t stream;
    int consumed; /* copied into another program */
} ca_pending;

static ca_pending *head, *tail;
static Py_ssize_t threshold = DEFAULT_THRESHOLD;
static int threshold_read;
/* counters for tests and the curious: cuarray._core._fusion() */
static unsigned long long n_deferred, n_fused_launch, n_plain_launch, n_skipped,
    n_fused_sum;

static const int family_float[CA_FUSE_NFAM] = { CA_FLOAT32, CA_FLOAT64 };
static const int family_vec[CA_FUSE_NFAM] = { CA_FUSE_VEC_F32, CA_FUSE_VEC_F64 };

static Py_ssize_t
fusion_threshold(void)
{
    if (!threshold_read) {
        threshold_read = 1;
        const char *e = getenv("CUARRAY_FUSION");
        if (e != NULL && *e) {
            char *end;
            long long v = strtoll(e, &end, 10);
            if (*end == '\0' && v >= 0) {
                threshold = (Py_ssize_t)v;
            }
        }
    }
    return threshold;
}

/* ---- the list ------------------------------------------------------------ */

/* Take r out of the list / put it at its end; r's array stays pending. */
static void
list_remove(ca_pending *r)
{
    if (r->prev) {
        r->prev->next = r->next;
    }
    else {
        head = r->next;
    }
    if (r->next) {
        r->next->prev = r->prev;
    }
    else {
        tail = r->prev;
    }
    r->prev = r->next = NULL;
    ca_fusion_npending--;
}

static void
list_append(ca_pending *r)
{
    r->prev = tail;
    if (tail) {
        tail->next = r;
    }
    else {
        head = r;
    }
    tail = r;
    ca_fusion_npending++;
}

static void
unlink_pending(ca_pending *r)
{
    list_remove(r);
    r->out->pending = NULL;
    r->out->mem->pending--;
}

static void
free_pending(ca_pending *r)
{
    for (int j = 0; j < r->p.nleaf; j++) {
        Py_XDECREF(r->leaf[j]);
    }
    PyMem_Free(r);
}

/* Report a failed deferred launch: there is no caller to raise to. A launch
 * fails only when the CUDA context is already broken, which the next checked
 * call reports as well. */
static void
launch_failed(int status, CaArray *out)
{
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    ca_cuda_error_int(status, "deferred element-wise kernel");
    PyErr_WriteUnraisable((PyObject *)out);
    PyErr_Restore(et, ev, tb);
}

/* Enqueue r's kernel on its stream (r already unlinked). */
static void
launch(ca_pending *r)
{
    CaArray *out = r->out;
    int prev = -1, rc;
    if (ca_device_count() > 1 && ca_rt_get_device(&prev) != 0) {
        prev = -1;
    }
    if (prev != r->device) {
        /* the (cached) cudaSetDevice; it only fails for a missing device */
        if (ca_use_device(r->device) < 0) {
            PyErr_WriteUnraisable((PyObject *)out);
            return;
        }
    }
    if (r->p.ninstr == 1) {
        /* One op: the plain kernel of its loop, exactly what an eager call runs. */
        const ca_fuse_instr *in = &r->p.ins[0];
        const int loop = r->loop[0];
        const int nin = ca_ew_ops[ca_ew_loops[loop].op].nin;
        ca_strided s;
        ca_scalar_arg sc[3];
        unsigned mask = 0;
        s.ndim = 1;
        s.nops = nin + 1;
        s.shape[0] = out->size;
        s.data[0] = out->data;
        s.strides[0][0] = out->itemsize;
        for (int i = 0; i < nin; i++) {
            const int c = in->src[i];
            memset(&sc[i], 0, sizeof sc[i]);
            if (c & CA_FUSE_CONST) {
                /* back from the register word to the loop's input type */
                const uint64_t w = r->p.consts[c & 0x7f];
                const int t = ca_ew_loops[loop].types[i];
                if (t == CA_BOOL) {
                    sc[i].bytes[0] = w != 0;
                }
                else if (t == CA_FLOAT32) {
                    const uint32_t w32 = (uint32_t)w;
                    memcpy(sc[i].bytes, &w32, 4);
                }
                else {
                    memcpy(sc[i].bytes, &w, 8);
                }
                mask |= 1u << i;
                s.data[i + 1] = NULL;
                s.strides[i + 1][0] = 0;
            }
            else {
                s.data[i + 1] = r->leaf[c]->data;
                s.strides[i + 1][0] = r->leaf[c]->itemsize;
            }
        }
        /* raw launches: this is the flush (launch.h) */
        rc = ca_rt_elementwise(r->device, loop, &s, sc, mask, r->stream);
        n_plain_launch++;
    }
    else {
        r->p.out = out->data;
        r->p.out_type = out->dtype;
        r->p.n = (uint32_t)out->size;
        rc = ca_rt_fused_elementwise(r->device, r->family, &r->p, r->stream);
        n_fused_launch++;
    }
    if (rc != 0) {
        launch_failed(rc, out);
    }
    if (prev >= 0 && prev != r->device) {
        (void)ca_rt_set_device(prev);
    }
}

void
ca_fusion_flush_all(void)
{
    /* Raw launch-layer calls may run with the GIL released (in another
     * thread's Py_BEGIN_ALLOW_THREADS block); the GIL owner flushes then, not
     * us. */
    if (!PyGILState_Check()) {
        return;
    }
    ca_pending *done = NULL;
    while (head != NULL) {
        ca_pending *r = head;
        unlink_pending(r);
        launch(r);
        r->next = done;
        done = r;
    }
    /* Dropping the leaves may free arrays: after every launch, not in between. */
    while (done != NULL) {
        ca_pending *r = done;
        done = r->next;
        free_pending(r);
    }
}

void
ca_fusion_export_memory(CaMemory *m)
{
    if (m == NULL) {
        return;
    }
    ca_fusion_flush();
    m->shared = 1;
}

void
ca_fusion_array_dealloc(CaArray *a)
{
    ca_pending *r = a->pending;
    unlink_pending(r);
    if (r->consumed) {
        /* every use of it was fused into another program */
        n_skipped++;
    }
    else {
        launch(r);
    }
    free_pending(r);
}

/* ---- building programs ----------------------------------------------------- */

/* Can `a` be read by a deferred program of `family` over (ndim, shape)? */
static int
leaf_ok(const CaArray *a, int family, int device, int ndim, const Py_ssize_t *shape)
{
    const CaMemory *m = a->mem;
    if (a->pending != NULL || m == NULL || m->pending || m->shared ||
        m->owner != NULL || m->kind != CA_MEM_DEVICE || a->device != device ||
        (a->dtype != CA_BOOL && a->dtype != family_float[family]) ||
        !(a->flags & CA_C_CONTIGUOUS) || CA_NDIM(a) != ndim) {
        return 0;
    }
    for (int d = 0; d < ndim; d++) {
        if (CA_SHAPE(a)[d] != shape[d]) {
            return 0;
        }
    }
    return (uintptr_t)a->data % (uintptr_t)(a->itemsize * family_vec[family]) == 0;
}

/* Can pending array `a` be copied into a program of `family` over (ndim, shape)
 * on (device, stream)? */
static int
pending_ok(const CaArray *a, int family, int device, ca_stream_t stream, int ndim,
           const Py_ssize_t *shape)
{
    const ca_pending *r = a->pending;
    if (r->family != family || r->device != device || r->stream != stream ||
        CA_NDIM(a) != ndim) {
        return 0;
    }
    for (int d = 0; d < ndim; d++) {
        if (CA_SHAPE(a)[d] != shape[d]) {
            return 0;
        }
    }
    return 1;
}

/* The operand code of leaf `a` in r (added if new); -1 when r is full. */
static int
add_leaf(ca_pending *r, CaArray *a)
{
    for (int j = 0; j < r->p.nleaf; j++) {
        if (r->leaf[j]->data == a->data && r->leaf[j]->dtype == a->dtype) {
            return j;
        }
    }
    if (r->p.nleaf == CA_FUSE_MAXLEAF) {
        return -1;
    }
    const int j = r->p.nleaf++;
    Py_INCREF(a);
    r->leaf[j] = a;
    r->p.leaf[j] = a->data;
    r->p.leaf_type[j] = a->dtype;
    return j;
}

static int
add_const(ca_pending *r, uint64_t w)
{
    for (int k = 0; k < r->nconst; k++) {
        if (r->p.consts[k] == w) {
            return CA_FUSE_CONST | k;
        }
    }
    if (r->nconst == CA_FUSE_MAXCONST) {
        return -1;
    }
    r->p.consts[r->nconst] = w;
    return CA_FUSE_CONST | r->nconst++;
}

/* Copy program q into r; returns the code of q's result in r, or -1 when r has
 * no room. */
static int
add_program(ca_pending *r, const ca_pending *q)
{
    int map_leaf[CA_FUSE_MAXLEAF], map_const[CA_FUSE_MAXCONST];
    if (r->p.ninstr + q->p.ninstr > CA_FUSE_MAXINSTR) {
        return -1;
    }
    for (int j = 0; j < q->p.nleaf; j++) {
        if ((map_leaf[j] = add_leaf(r, q->leaf[j])) < 0) {
            return -1;
        }
    }
    for (int k = 0; k < q->nconst; k++) {
        if ((map_const[k] = add_const(r, q->p.consts[k])) < 0) {
            return -1;
        }
    }
    const int base = r->p.ninstr;
    for (int k = 0; k < q->p.ninstr; k++) {
        ca_fuse_instr in = q->p.ins[k];
        for (int i = 0; i < 3; i++) {
            const int c = in.src[i];
            if (c & CA_FUSE_CONST) {
                /* unused inputs name constant 0 whether or not q has one */
                in.src[i] = (c & 0x7f) < q->nconst ? (uint8_t)map_const[c & 0x7f]
                                                   : (uint8_t)CA_FUSE_CONST;
            }
            else if (c < CA_FUSE_MAXLEAF) {
                in.src[i] = (uint8_t)map_leaf[c];
            }
            else {
                in.src[i] = (uint8_t)(c + base);
            }
        }
        r->loop[base + k] = q->loop[k];
        r->p.ins[base + k] = in;
    }
    r->p.ninstr += q->p.ninstr;
    return CA_FUSE_MAXLEAF + r->p.ninstr - 1;
}

/* A scalar (loop input type t, bytes from the caller) as a register word. */
static uint64_t
const_word(int t, const ca_scalar_arg *s)
{
    if (t == CA_BOOL) {
        return s->bytes[0] != 0;
    }
    if (t == CA_FLOAT32) {
        uint32_t w;
        memcpy(&w, s->bytes, 4);
        return w;
    }
    uint64_t w;
    memcpy(&w, s->bytes, 8);
    return w;
}

PyObject *
ca_fusion_try(int loop, CaArray *const *arrs, const ca_scalar_arg *scalars, int ndim,
              const Py_ssize_t *shape, int device)
{
    const ca_ew_loop *L = &ca_ew_loops[loop];
    const int nin = ca_ew_ops[L->op].nin;
    int family = -1;
    Py_ssize_t size = 1;
    ca_pending *r = NULL;
    CaArray *res = NULL;

    if (device == CA_CPU) {
        return NULL;
    }
    for (int d = 0; d < ndim; d++) {
        size *= shape[d];
    }
    const Py_ssize_t th = fusion_threshold();
    if (th == 0 || size < th || size > (Py_ssize_t)INT32_MAX) {
        return NULL;
    }
    /* The family: the loop's float type, else (all bool) that of a pending
     * operand, else float32. */
    for (int i = 0; i <= nin; i++) {
        const int t = L->types[i];
        if (t == CA_FLOAT32) {
            family = CA_FUSE_F32;
        }
        else if (t == CA_FLOAT64) {
            family = CA_FUSE_F64;
        }
    }
    for (int i = 0; i < nin && family < 0; i++) {
        if (arrs[i] != NULL && arrs[i]->pending != NULL) {
            family = arrs[i]->pending->family;
        }
    }
    if (family < 0) {
        family = CA_FUSE_F32;
    }
    const int slot = ca_ew_fuse_slot[family][loop];
    if (slot < 0) {
        return NULL;
    }
    const ca_stream_t stream = ca_current_stream(device);
    for (int i = 0; i < nin; i++) {
        CaArray *a = arrs[i];
        if (a != NULL && a->dtype != L->types[i]) {
            return NULL;
        }
        if (a != NULL &&
            !(a->pending != NULL ? pending_ok(a, family, device, stream, ndim, shape)
                                 : leaf_ok(a, family, device, ndim, shape))) {
            return NULL;
        }
    }

    r = PyMem_Calloc(1, sizeof *r);
    if (r == NULL) {
        return NULL; /* not deferred; the eager path has its own errors */
    }
    r->family = family;
    r->device = device;
    r->stream = stream;
    ca_fuse_instr ins;
    ins.slot = (int16_t)slot;
    ins.src[0] = ins.src[1] = ins.src[2] = CA_FUSE_CONST; /* unused inputs */
    for (int i = 0; i < nin; i++) {
        CaArray *a = arrs[i];
        int c = a == NULL ? add_const(r, const_word(L->types[i], &scalars[i]))
                : a->pending != NULL ? add_program(r, a->pending)
                                     : add_leaf(r, a);
        if (c < 0 || r->p.ninstr == CA_FUSE_MAXINSTR) {
            free_pending(r); /* too big to fuse: run eagerly */
            return NULL;
        }
        ins.src[i] = (uint8_t)c;
    }
    r->loop[r->p.ninstr] = loop;
    r->p.ins[r->p.ninstr++] = ins;

    res = ca_array_empty(L->types[nin], ndim, shape, 0, device, CA_MEM_DEVICE);
    if (res == NULL) {
        free_pending(r);
        return NULL; /* with the pool's OutOfMemoryError */
    }
    for (int i = 0; i < nin; i++) {
        if (arrs[i] != NULL && arrs[i]->pending != NULL) {
            arrs[i]->pending->consumed = 1;
        }
    }
    r->out = res;
    res->pending = r;
    res->mem->pending++;
    list_append(r);
    n_deferred++;
    return (PyObject *)res;
}

int
ca_fusion_sum(CaArray *a, const ca_reduce_desc *d, ca_stream_t stream)
{
    ca_pending *r = a->pending;
    if (r == NULL || r->stream != stream || a->dtype != family_float[r->family] ||
        !PyGILState_Check()) {
        return CA_KERR_UNSUPPORTED;
    }
    /* Everything asked for before runs first, in order, as a plain launch would
     * have it; a's own kernel is not among them (the sum reads a's leaves,
     * never a's memory, so a may stay deferred behind it). */
    list_remove(r);
    ca_fusion_flush();
    list_append(r);
    ca_fuse_params p = r->p;
    p.out = NULL; /* the sum stores no element */
    p.out_type = a->dtype;
    p.n = (uint32_t)a->size;
    const int rc = ca_rt_fused_sum(r->device, r->family, &p, d, stream);
    if (rc == 0) {
        r->consumed = 1;
        n_fused_sum++;
    }
    return rc;
}

/* ---- Python ---------------------------------------------------------------- */

static PyObject *
py_fusion(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "threshold", NULL };
    PyObject *v[1];
    (void)m;
    if (ca_parse_args("_fusion", args, nargs, kwnames, names, 1, 0, v) < 0) {
        return NULL;
    }
    const Py_ssize_t old = fusion_threshold();
    if (v[0] != NULL && v[0] != Py_None) {
        Py_ssize_t t = PyNumber_AsSsize_t(v[0], PyExc_OverflowError);
        if (t == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (t < 0) {
            PyErr_SetString(PyExc_ValueError, "threshold must be >= 0");
            return NULL;
        }
        threshold = t;
    }
    return Py_BuildValue("{s:n,s:n,s:K,s:K,s:K,s:K,s:K}", "threshold", old, "pending",
                         ca_fusion_npending, "deferred", n_deferred, "fused_launches",
                         n_fused_launch, "plain_launches", n_plain_launch, "skipped",
                         n_skipped, "fused_sums", n_fused_sum);
}

static PyObject *
py_fusion_flush(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    ca_fusion_flush_all();
    Py_RETURN_NONE;
}

static PyMethodDef fusion_defs[] = {
    { "_fusion", (PyCFunction)(void (*)(void))py_fusion, METH_FASTCALL | METH_KEYWORDS,
      "_fusion(threshold=None)\n--\n\nDeferred element-wise work: the counters and the "
      "threshold in elements before the call (set a new one; 0 turns deferral off)." },
    { "_fusion_flush", py_fusion_flush, METH_NOARGS,
      "Launch every deferred element-wise kernel now." },
    { NULL, NULL, 0, NULL },
};

CA_INIT_FUNCTIONS(fusion, fusion_defs)
