/*
 * readback.c: one element of a device array to the host in one round trip,
 * for float(x), int(x), bool(x) and x.item(), which live here too (the last
 * section, plugged into the ndarray type).
 *
 * A D2H cudaMemcpyAsync into pinned memory plus cudaStreamSynchronize costs a
 * DMA setup and a synchronization on top of the work itself. Instead, a
 * one-thread kernel (kernels/gpu/readback.cu) queued on the caller's stream copies
 * the element into a "slot" of mapped pinned host memory and then stores a
 * sequence number into it; the host polls the sequence number (GIL held, a few
 * microseconds) and reads the value once it matches. When the value does not
 * come within RB_SPIN_NS (a long queue ahead of it), the host falls back to
 * cudaStreamSynchronize with the GIL released, which also reports an earlier
 * failed kernel as CUDAError instead of leaving us waiting.
 *
 * The slot area: RB_NSLOTS slots of CA_READBACK_SLOT_BYTES in one
 * cudaHostAlloc(Mapped | Portable), made on first use (import initializes no
 * CUDA). It lives as long as the process: the module has no teardown hook,
 * and the CUDA runtime releases pinned memory at exit. A busy bitmap (atomic,
 * so it does not depend on the GIL) hands out slots; a call owns its slot
 * until it returns, also while it waits with the GIL released. Sequence
 * numbers come from one 64-bit counter, so a value left in a slot by an
 * earlier use never matches. A slot whose kernel may still be pending when the
 * call gives up (a failed launch or synchronization) is never handed out
 * again: a late write could otherwise land in the next user's value.
 */
#include "launch.h"

#include <math.h>
#include <string.h>

#include "readback.h"
#include "watch.h"
#include "scalar.h"

#if CA_HAVE_CUDA

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#define RB_NSLOTS          64 /* one bit each in rb_busy */
#define RB_MAX_DEVICES     64
/* How long the host polls before it synchronizes instead. A small reduction
 * plus the readback kernel arrive well within it; anything longer is a queue
 * worth releasing the GIL for. */
#define RB_SPIN_NS         20000
#define RB_POLLS_PER_CLOCK 16 /* polls between two clock reads */

enum { RB_UNINIT = 0, RB_INITIALIZING, RB_READY, RB_UNAVAILABLE };

static _Atomic int rb_state = RB_UNINIT;
/* Host address of the slot area; set before rb_state becomes RB_READY. */
static unsigned char *rb_host = NULL;
static _Atomic uint64_t rb_busy = 0;
static _Atomic uint64_t rb_seq = 0;
/* Per device: the slot area's device address; 0 not asked yet, 1 unusable. */
static _Atomic uintptr_t rb_devbase[RB_MAX_DEVICES];

/* A forked child cannot use the parent's CUDA context or its pinned memory:
 * it takes the old path, which raises the CUDA error. */
static void
rb_atfork_child(void)
{
    atomic_store(&rb_state, RB_UNAVAILABLE);
}

/* Make the slot area once. Failure is not an error: the caller reads through
 * the old path, which reports any CUDA problem itself. */
static void
rb_init(void)
{
    int expected = RB_UNINIT;
    if (!atomic_compare_exchange_strong(&rb_state, &expected, RB_INITIALIZING)) {
        return; /* another thread is at it, or it is done */
    }
    if (pthread_atfork(NULL, NULL, rb_atfork_child) != 0) {
        atomic_store(&rb_state, RB_UNAVAILABLE);
        return;
    }
    void *p = NULL;
    int st;
    Py_BEGIN_ALLOW_THREADS
        st = ca_rt_host_alloc(&p, (size_t)RB_NSLOTS * CA_READBACK_SLOT_BYTES, 1);
    Py_END_ALLOW_THREADS
    if (st != 0 || p == NULL || ((uintptr_t)p % 16) != 0) {
        atomic_store(&rb_state, RB_UNAVAILABLE);
        return;
    }
    /* Sequence number 0 is never issued, so zeroed slots match nothing. */
    memset(p, 0, (size_t)RB_NSLOTS * CA_READBACK_SLOT_BYTES);
    rb_host = (unsigned char *)p;
    atomic_store_explicit(&rb_state, RB_READY, memory_order_release);
}

/* The slot area's address for kernels of `device` (the current device), or
 * NULL when that device cannot reach it. Under UVA it is the host address;
 * asking is always right. A race between two threads computes the same
 * answer twice. */
static unsigned char *
rb_device_base(int device)
{
    if (device < 0 || device >= RB_MAX_DEVICES) {
        return NULL;
    }
    uintptr_t b = atomic_load_explicit(&rb_devbase[device], memory_order_relaxed);
    if (b == 0) {
        void *d = NULL;
        int st = ca_rt_host_device_pointer(&d, rb_host);
        if (st != 0 || d == NULL || ((uintptr_t)d % 16) != 0) {
            b = 1;
        }
        else {
            b = (uintptr_t)d;
        }
        atomic_store_explicit(&rb_devbase[device], b, memory_order_relaxed);
    }
    return b == 1 ? NULL : (unsigned char *)b;
}

static int
rb_acquire(void)
{
    uint64_t busy = atomic_load_explicit(&rb_busy, memory_order_relaxed);
    while (busy != UINT64_MAX) {
        int i = __builtin_ctzll(~busy);
        if (atomic_compare_exchange_weak_explicit(
                &rb_busy, &busy, busy | ((uint64_t)1 << i), memory_order_acquire,
                memory_order_relaxed)) {
            return i;
        }
    }
    return -1;
}

static void
rb_release(int i)
{
    atomic_fetch_and_explicit(&rb_busy, ~((uint64_t)1 << i), memory_order_release);
}

static inline void
rb_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

static inline int64_t
rb_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Poll for `seq` for at most RB_SPIN_NS; 1 when it arrived. */
static int
rb_spin(const volatile uint64_t *seqp, uint64_t seq)
{
    int64_t t0 = rb_now_ns();
    for (;;) {
        for (int k = 0; k < RB_POLLS_PER_CLOCK; k++) {
            if (*seqp == seq) {
                return 1;
            }
            rb_cpu_relax();
        }
        if (rb_now_ns() - t0 >= RB_SPIN_NS) {
            return *seqp == seq;
        }
    }
}

/* Per slot, for mirrors: the sequence number the kernel writes, the stream it
 * runs on; rb_zombie: slots whose result array died before the kernel wrote
 * them (still busy). GIL-protected. */
static unsigned long long rb_mirror_seq[RB_NSLOTS];
static ca_stream_t rb_mirror_stream[RB_NSLOTS];
static uint64_t rb_zombie;
static int rb_zombie_next;

static inline volatile uint64_t *
rb_seq_word(int i)
{
    return (volatile uint64_t *)(rb_host + (size_t)i * CA_READBACK_SLOT_BYTES +
                                 CA_READBACK_SEQ_OFFSET);
}

/* When every slot is busy: look at one dead mirror's slot (round robin, one
 * read) and take it if its value has come, or (same_stream) if it is pending
 * on `stream`, which runs the taker's kernel after the pending one. -1: none. */
static int
rb_take_zombie(ca_stream_t stream, int same_stream)
{
    for (int k = 0; rb_zombie && k < RB_NSLOTS; k++) {
        const int z = (rb_zombie_next + k) % RB_NSLOTS;
        if (rb_zombie >> z & 1u) {
            rb_zombie_next = z + 1;
            if (*rb_seq_word(z) == rb_mirror_seq[z] ||
                (same_stream && rb_mirror_stream[z] == stream)) {
                rb_zombie &= ~((uint64_t)1 << z);
                return z;
            }
            return -1;
        }
    }
    return -1;
}

int
ca_readback_element(int device, const void *src, int itemsize, void *buf,
                    ca_stream_t stream)
{
    if (itemsize < 1 || itemsize > CA_READBACK_VALUE_BYTES) {
        return 1;
    }
    int state = atomic_load_explicit(&rb_state, memory_order_acquire);
    if (state != RB_READY) {
        if (state != RB_UNINIT) {
            return 1;
        }
        rb_init();
        if (atomic_load_explicit(&rb_state, memory_order_acquire) != RB_READY) {
            return 1;
        }
    }
    unsigned char *dbase = rb_device_base(device);
    if (dbase == NULL) {
        return 1;
    }
    int i = rb_acquire();
    if (i < 0 && (i = rb_take_zombie(stream, 0)) < 0) {
        return 1;
    }
    size_t off = (size_t)i * CA_READBACK_SLOT_BYTES;
    const volatile uint64_t *slot = (const volatile uint64_t *)(rb_host + off);
    const volatile uint64_t *seqp =
        (const volatile uint64_t *)(rb_host + off + CA_READBACK_SEQ_OFFSET);
    uint64_t seq = atomic_fetch_add_explicit(&rb_seq, 1, memory_order_relaxed) + 1;

    if (ca_run_readback(device, dbase + off, src, itemsize, seq, stream) < 0) {
        /* cudaGetLastError may report an older error with our kernel queued
         * all the same: the slot stays out of use (see the top). */
        return -1;
    }
    if (rb_spin(seqp, seq)) {
        CA_COUNT(syncs); /* a wait too (the fallback's is the launch layer's) */
    }
    else {
        if (ca_run_stream_sync(stream) < 0) {
            /* The kernel may never have run or may still run: slot retired. */
            return -1;
        }
        uint64_t got = *seqp;
        if (got != seq) {
            PyErr_Format(PyExc_RuntimeError,
                         "reading an element of a cuda:%d array: the stream "
                         "completed but the value did not arrive in the readback "
                         "slot (sequence number %llu expected, %llu found)",
                         device, (unsigned long long)seq, (unsigned long long)got);
            return -1;
        }
    }
    /* The kernel wrote the value before the sequence number (a system-wide
     * fence between them): read the value only after seeing the number. */
    atomic_thread_fence(memory_order_acquire);
    uint64_t v[2];
    v[0] = slot[0];
    v[1] = slot[1];
    memcpy(buf, v, (size_t)itemsize);
    rb_release(i);
    return 0;
}

/* ---- mirrors ---------------------------------------------------------------- */

int
ca_readback_mirror_acquire(int device, ca_stream_t stream, char **value,
                           unsigned long long **flag, unsigned long long *seq)
{
    int state = atomic_load_explicit(&rb_state, memory_order_acquire);
    if (state != RB_READY) {
        if (state != RB_UNINIT) {
            return -1;
        }
        rb_init();
        if (atomic_load_explicit(&rb_state, memory_order_acquire) != RB_READY) {
            return -1;
        }
    }
    unsigned char *dbase = rb_device_base(device);
    if (dbase == NULL) {
        return -1;
    }
    int i = rb_acquire();
    if (i < 0 && (i = rb_take_zombie(stream, 1)) < 0) {
        return -1;
    }
    const size_t off = (size_t)i * CA_READBACK_SLOT_BYTES;
    rb_mirror_seq[i] = atomic_fetch_add_explicit(&rb_seq, 1, memory_order_relaxed) + 1;
    rb_mirror_stream[i] = stream;
    *value = (char *)dbase + off;
    *flag = (unsigned long long *)(dbase + off + CA_READBACK_SEQ_OFFSET);
    *seq = rb_mirror_seq[i];
    return i;
}

int
ca_readback_mirror_read(int slot, void *buf, int itemsize)
{
    if (!rb_spin(rb_seq_word(slot), rb_mirror_seq[slot])) {
        return 1;
    }
    atomic_thread_fence(memory_order_acquire);
    const volatile uint64_t *v =
        (const volatile uint64_t *)(rb_host + (size_t)slot * CA_READBACK_SLOT_BYTES);
    uint64_t w[2];
    w[0] = v[0];
    w[1] = v[1];
    memcpy(buf, w, (size_t)itemsize);
    return 0;
}

void
ca_readback_mirror_drop(int slot)
{
    if (*rb_seq_word(slot) == rb_mirror_seq[slot]) {
        rb_release(slot);
    }
    else {
        rb_zombie |= (uint64_t)1 << slot;
    }
}

void
ca_readback_mirror_unused(int slot)
{
    rb_release(slot);
}

void
ca_readback_mirror_retire(int slot)
{
    (void)slot; /* stays busy */
}

#else /* !CA_HAVE_CUDA */

int
ca_readback_element(int device, const void *src, int itemsize, void *buf,
                    ca_stream_t stream)
{
    (void)device;
    (void)src;
    (void)itemsize;
    (void)buf;
    (void)stream;
    return 1;
}

int
ca_readback_mirror_acquire(int device, ca_stream_t stream, char **value,
                           unsigned long long **flag, unsigned long long *seq)
{
    (void)device;
    (void)stream;
    (void)value;
    (void)flag;
    (void)seq;
    return -1;
}

int
ca_readback_mirror_read(int slot, void *buf, int itemsize)
{
    (void)slot;
    (void)buf;
    (void)itemsize;
    return 1;
}

void
ca_readback_mirror_drop(int slot)
{
    (void)slot;
}

void
ca_readback_mirror_unused(int slot)
{
    (void)slot;
}

void
ca_readback_mirror_retire(int slot)
{
    (void)slot;
}

#endif /* CA_HAVE_CUDA */

/* ======================================================================== */
/* Python scalars from one element: bool(), int(), float(), complex(),       */
/* operator.index() and item(), plugged into the ndarray type                */
/* ======================================================================== */

/* Copy the one element at `p` (an address of a's device) into buf. */
static int
array_read_element(CaArray *a, const char *p, void *buf)
{
    if (a->device == CA_CPU) {
        CA_COUNT(syncs); /* where a GPU's program would wait */
        memcpy(buf, p, (size_t)a->itemsize);
        return 0;
    }
    if (a->rb_slot >= 0 && p == a->data && a->rb_epoch == ca_work_epoch &&
        ca_readback_mirror_read(a->rb_slot, buf, a->itemsize) == 0) {
        /* the reduction that computed a also wrote it to host memory, and no
         * GPU work since could have changed it: no launch at all (a wait for
         * the value all the same) */
        CA_COUNT(syncs);
        return 0;
    }
    if (ca_use_device(a->device) < 0) {
        return -1;
    }
    ca_stream_t stream = ca_current_stream(a->device);
    /* The fast path (float(x.sum()) and friends): a tiny kernel queued behind
     * the work that computes the element writes it into mapped pinned memory
     * the host polls; one round trip, no DMA, usually no synchronization. */
    int r = ca_readback_element(a->device, p, a->itemsize, buf, stream);
    if (r <= 0) {
        return r;
    }
    /* No readback slot: through a pinned bounce buffer, queued behind the work
     * that computes the element, one synchronization (a copy into pageable
     * `buf` would first wait for the stream, then stage). */
    r = ca_bounce_copy(buf, p, (size_t)a->itemsize, 1, stream);
    if (r <= 0) {
        return r;
    }
    /* Every buffer in use by other threads. */
    return ca_run_memcpy_wait(buf, p, (size_t)a->itemsize, stream);
}

static double
half_to_double(uint16_t h)
{
    int sign = (h >> 15) & 1;
    int exp = (h >> 10) & 0x1f;
    int mant = h & 0x3ff;
    double v;
    if (exp == 0) {
        v = ldexp((double)mant, -24);
    }
    else if (exp == 31) {
        v = mant ? Py_NAN : Py_HUGE_VAL;
    }
    else {
        v = ldexp((double)(mant | 0x400), exp - 25);
    }
    return sign ? -v : v;
}

/* An ml_dtypes element's value (exact in a double). */
static double
ml_to_double(int dtype, const void *buf)
{
    ca_bf16 b;
    ca_f8e4m3 e4;
    ca_f8e5m2 e5;
    switch (dtype) {
    case CA_BFLOAT16: memcpy(&b, buf, sizeof b); return ca_bf16_to_float(b);
    case CA_FLOAT8_E4M3FN: memcpy(&e4, buf, sizeof e4); return ca_f8e4m3_to_float(e4);
    default: memcpy(&e5, buf, sizeof e5); return ca_f8e5m2_to_float(e5);
    }
}

/* A Python bool/int/float/complex from one element of `dtype` at buf. */
static PyObject *
scalar_to_python(int dtype, const void *buf)
{
    switch (dtype) {
    case CA_BOOL: return PyBool_FromLong(*(const uint8_t *)buf != 0);
    case CA_INT8: return PyLong_FromLong(*(const int8_t *)buf);
    case CA_UINT8: return PyLong_FromLong(*(const uint8_t *)buf);
    case CA_INT16: return PyLong_FromLong(*(const int16_t *)buf);
    case CA_UINT16: return PyLong_FromLong(*(const uint16_t *)buf);
    case CA_INT32: return PyLong_FromLong(*(const int32_t *)buf);
    case CA_UINT32: return PyLong_FromUnsignedLong(*(const uint32_t *)buf);
    case CA_INT64: return PyLong_FromLongLong(*(const int64_t *)buf);
    case CA_UINT64: return PyLong_FromUnsignedLongLong(*(const uint64_t *)buf);
    case CA_FLOAT16: return PyFloat_FromDouble(half_to_double(*(const uint16_t *)buf));
    case CA_FLOAT32: return PyFloat_FromDouble(*(const float *)buf);
    case CA_FLOAT64: return PyFloat_FromDouble(*(const double *)buf);
    case CA_COMPLEX64: {
        const float *c = (const float *)buf;
        return PyComplex_FromDoubles(c[0], c[1]);
    }
    case CA_COMPLEX128: {
        const double *c = (const double *)buf;
        return PyComplex_FromDoubles(c[0], c[1]);
    }
    case CA_BFLOAT16:
    case CA_FLOAT8_E4M3FN:
    case CA_FLOAT8_E5M2: return PyFloat_FromDouble(ml_to_double(dtype, buf));
    }
    PyErr_SetString(PyExc_SystemError, "bad dtype");
    return NULL;
}

/* The Python value of the element at `p` for `what` (the transfer guard's
 * name of the conversion). Synchronizes. */
static PyObject *
array_element(CaArray *a, const char *p, const char *what)
{
    uint64_t buf[2];
    if (ca_guard(CA_TG_D2H, 0, what, (size_t)a->itemsize, a->device) < 0) {
        return NULL;
    }
    ca_count_d2h((size_t)a->itemsize);
    if (array_read_element(a, p, buf) < 0) {
        return NULL;
    }
    return scalar_to_python(a->dtype, buf);
}

static int
array_bool(CaArray *a)
{
    if (a->size != 1) {
        PyErr_SetString(PyExc_ValueError,
                        a->size == 0
                            ? "The truth value of an empty array is ambiguous. Use "
                              "`array.size > 0` to check that an array is not empty."
                            : "The truth value of an array with more than one element "
                              "is ambiguous. Use a.any() or a.all()");
        return -1;
    }
    PyObject *v = array_element(a, a->data, "bool()");
    if (v == NULL) {
        return -1;
    }
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

/* The element of a one-element array as a Python object, for int(), float()
 * and complex(). NumPy 2 accepts only 0-d arrays here; CuPy (and NumPy 1)
 * any array of size 1, which code written for CuPy relies on. `convert`, when
 * not NULL, turns it into the type asked for (int(), float()). */
static PyObject *
scalar_value(CaArray *a, const char *what, PyObject *(*convert)(PyObject *))
{
    if (a->size != 1) {
        PyErr_SetString(PyExc_TypeError,
                        "only one-element arrays can be converted to Python scalars");
        return NULL;
    }
    PyObject *v = array_element(a, a->data, what);
    if (v != NULL && convert != NULL) {
        Py_SETREF(v, convert(v));
    }
    return v;
}

static PyObject *
array_int(CaArray *a)
{
    return scalar_value(a, "int()", PyNumber_Long);
}

static PyObject *
array_float(CaArray *a)
{
    return scalar_value(a, "float()", PyNumber_Float);
}

static PyObject *
array_complex(CaArray *a, PyObject *unused)
{
    PyObject *v = scalar_value(a, "complex()", NULL);
    if (v == NULL) {
        return NULL;
    }
    if (PyComplex_Check(v)) {
        return v;
    }
    Py_complex c = { PyFloat_AsDouble(v), 0.0 };
    Py_DECREF(v);
    if (c.real == -1.0 && PyErr_Occurred()) {
        return NULL;
    }
    return PyComplex_FromCComplex(c);
}

static PyObject *
array_index(CaArray *a)
{
    if (CA_NDIM(a) != 0 || !ca_is_integer(a->dtype)) {
        PyErr_SetString(
            PyExc_TypeError,
            "only integer scalar arrays can be converted to a scalar index");
        return NULL;
    }
    return array_element(a, a->data, "operator.index()");
}

/* ---- item(), tolist() ------------------------------------------------------- */

static PyObject *
array_item(CaArray *a, PyObject *args)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    int nd = CA_NDIM(a);
    const Py_ssize_t *shape = CA_SHAPE(a), *strides = CA_STRIDES(a);
    if (nargs == 0) {
        if (a->size != 1) {
            PyErr_SetString(PyExc_ValueError,
                            "can only convert an array of size 1 to a Python scalar");
            return NULL;
        }
        return array_element(a, a->data, "item()");
    }
    if (nargs == 1 && PyTuple_Check(PyTuple_GET_ITEM(args, 0))) {
        args = PyTuple_GET_ITEM(args, 0);
        nargs = PyTuple_GET_SIZE(args);
    }
    char *p = a->data;
    if (nargs == 1) {
        /* A flat index in C order. */
        Py_ssize_t i = PyNumber_AsSsize_t(PyTuple_GET_ITEM(args, 0), PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (i < 0) {
            i += a->size;
        }
        if (i < 0 || i >= a->size) {
            PyErr_Format(PyExc_IndexError, "index %zd is out of bounds for size %zd",
                         PyLong_AsSsize_t(PyTuple_GET_ITEM(args, 0)), a->size);
            return NULL;
        }
        for (int d = nd - 1; d >= 0; d--) {
            p += (i % shape[d]) * strides[d];
            i /= shape[d];
        }
        return array_element(a, p, "item()");
    }
    if (nargs != nd) {
        PyErr_SetString(PyExc_ValueError, "incorrect number of indices for array");
        return NULL;
    }
    for (int d = 0; d < nd; d++) {
        Py_ssize_t i = PyNumber_AsSsize_t(PyTuple_GET_ITEM(args, d), PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) {
            return NULL;
        }
        Py_ssize_t j = i < 0 ? i + shape[d] : i;
        if (j < 0 || j >= shape[d]) {
            PyErr_Format(PyExc_IndexError,
                         "index %zd is out of bounds for axis %d with size %zd", i, d,
                         shape[d]);
            return NULL;
        }
        p += j * strides[d];
    }
    return array_element(a, p, "item()");
}

PyMethodDef ca_readback_array_methods[] = {
    { "item", (PyCFunction)array_item, METH_VARARGS,
      "item(*args)\n--\n\nThe element (a Python scalar) at a flat or N-d index; with "
      "no "
      "argument the only element. Synchronizes." },
    { "__complex__", (PyCFunction)array_complex, METH_NOARGS, NULL },
    { NULL, NULL, 0, NULL },
};

PyType_Slot ca_readback_number_slots[] = {
    { Py_nb_bool, array_bool },
    { Py_nb_int, array_int },
    { Py_nb_float, array_float },
    { Py_nb_index, array_index },
    { 0, NULL },
};
