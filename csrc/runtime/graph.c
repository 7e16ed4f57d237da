/*
 * graph.c: cuarray.cuda.Graph (issue 40): stream capture of any cuarray work into a
 * CUDA graph, replayed by launch(); Stream.begin_capture / end_capture /
 * is_capturing and _graph_launch / _graph_upload (device.c, which parses the
 * streams) call in here.
 *
 * Memory: every block allocated on this thread while it captures is kept by the
 * Graph (the memory layer appends each new Memory to ca_capture_keep, which lives
 * here, below it, as a plain list), so the pools can
 * never hand the graph's buffers to other work: a replay writes only memory it
 * owns, and arrays made inside the capture see each replay's results. The blocks
 * go back to the pools when the Graph dies, after its last launch has finished.
 * While capturing, the pools serve this thread without waiting for other streams
 * or the device (pool.h, ca_pool_alloc_capturing), and grow with cudaMalloc,
 * which pool_upstream.c makes in relaxed capture mode: the allocation happens at
 * once and the graph refers to its address, kept by the Graph.
 * One capture per thread at a time. Work that synchronizes (reading a value to
 * the host, a copy to NumPy) cannot be captured: CUDA refuses it and invalidates
 * the capture. The error raised then ends the capture at once
 * (ca_graph_capture_error, from errors.c): until a capture is ended, CUDA refuses
 * every later use of its stream and every device-wide wait, so a failure that
 * skipped end_capture would break all later work of the process. end_capture
 * on that stream then raises CUDAError. (An error that leaves the capture valid,
 * e.g. out of memory, leaves it open: end it in a finally.)
 */
#include "cuarray.h"
#include "launch.h"

typedef struct {
    PyObject_HEAD void *graph; /* cudaGraph_t */
    void *exec;                /* cudaGraphExec_t */
    PyObject *keep;            /* the Memory allocated inside the capture */
    int launched;              /* launched at least once */
    int device;
} CaGraph;

_Thread_local PyObject *ca_capture_keep;

static PyTypeObject *graph_type;
static _Thread_local ca_stream_t capturing_stream;
static _Thread_local int capturing;
/* the stream whose capture an error ended (ca_graph_capture_error), until
 * end_capture reports it or a capture begins */
static _Thread_local ca_stream_t aborted_stream;

/* Stream.begin_capture: mode is cudaStreamCaptureMode (0 global, 1 thread-local,
 * 2 relaxed: the pools may call cudaMalloc). */
PyObject *
ca_graph_begin_capture(ca_stream_t s, int device, int mode)
{
    if (device == CA_CPU) {
        PyErr_SetString(PyExc_RuntimeError,
                        "begin_capture: the cpu device has no CUDA graphs (make a GPU "
                        "current)");
        return NULL;
    }
    if (s == NULL || s == (ca_stream_t)0x1) { /* NULL / cudaStreamLegacy */
        PyErr_SetString(PyExc_RuntimeError,
                        "begin_capture: the legacy default stream cannot be captured; "
                        "capture a cuarray.cuda.Stream()");
        return NULL;
    }
    if (mode < 0 || mode > 2) {
        PyErr_Format(PyExc_ValueError, "begin_capture: mode must be 0, 1 or 2, not %d",
                     mode);
        return NULL;
    }
    if (capturing) {
        PyErr_SetString(PyExc_RuntimeError,
                        "begin_capture: this thread is already capturing a stream");
        return NULL;
    }
    PyObject *keep = PyList_New(0);
    if (keep == NULL) {
        return NULL;
    }
    if (ca_run_stream_begin_capture(s, mode) < 0) {
        Py_DECREF(keep);
        return NULL;
    }
    ca_capture_keep = keep;
    capturing_stream = s;
    capturing = 1;
    aborted_stream = NULL;
    Py_RETURN_NONE;
}

/* The capture's state back to none on this thread; the kept Memory (new ref). */
static PyObject *
capture_done(void)
{
    PyObject *keep = ca_capture_keep;
    ca_capture_keep = NULL;
    capturing = 0;
    capturing_stream = NULL;
    return keep;
}

void
ca_graph_capture_error(void)
{
    if (!capturing || !ca_capture_end_if_invalidated_quiet(capturing_stream)) {
        return;
    }
    ca_stream_t s = capturing_stream;
    PyObject *keep = capture_done();
    aborted_stream = s;
    /* nothing of the capture will ever run: its blocks go back to the pools
     * (a Memory's dealloc may run weakref callbacks: the caller's exception is
     * set aside meanwhile) */
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    Py_DECREF(keep);
    PyErr_Restore(et, ev, tb);
}

/* Stream.end_capture -> Graph */
PyObject *
ca_graph_end_capture(ca_stream_t s, int device)
{
    void *g = NULL, *exec = NULL;
    if (!capturing && s != NULL && s == aborted_stream) {
        aborted_stream = NULL;
        /* 901: cudaErrorStreamCaptureInvalidated, as cudaStreamEndCapture says */
        return ca_cuda_error(901, "cudaStreamEndCapture (the capture was invalidated "
                                  "by an earlier error, and ended then)");
    }
    if (!capturing || s != capturing_stream) {
        PyErr_SetString(
            PyExc_RuntimeError,
            "end_capture: this stream is not being captured by this thread");
        return NULL;
    }
    /* the state first: an error raised below must not end the capture again */
    PyObject *keep = capture_done();
    int rc = ca_run_stream_end_capture(s, &g);
    if (rc < 0 || ca_run_graph_instantiate(&exec, g) < 0) {
        ca_graph_destroy_quiet(g, NULL);
        Py_DECREF(keep); /* nothing of the capture will ever run */
        return NULL;
    }
    CaGraph *self = PyObject_New(CaGraph, graph_type);
    if (self == NULL) {
        ca_graph_destroy_quiet(g, exec);
        Py_DECREF(keep);
        return NULL;
    }
    self->graph = g;
    self->exec = exec;
    self->keep = keep;
    self->launched = 0;
    self->device = device;
    return (PyObject *)self;
}

/* Stream.is_capturing -> bool (CUDA's view: any thread's capture) */
PyObject *
ca_graph_is_capturing(ca_stream_t s, int device)
{
    int c = 0;
    if (device != CA_CPU && s != NULL && s != (ca_stream_t)0x1 &&
        ca_run_stream_is_capturing(s, &c) < 0) {
        return NULL;
    }
    return PyBool_FromLong(c != 0);
}

/* Graph.launch(stream) (device.c parses the stream) */
PyObject *
ca_graph_launch(PyObject *g, ca_stream_t s)
{
    if (!Py_IS_TYPE(g, graph_type)) {
        PyErr_SetString(PyExc_TypeError, "launch: not a cuarray.cuda.Graph");
        return NULL;
    }
    CaGraph *self = (CaGraph *)g;
    if (ca_run_graph_launch(self->exec, s) < 0) {
        return NULL;
    }
    self->launched = 1;
    Py_RETURN_NONE;
}

/* Graph.upload(stream) */
PyObject *
ca_graph_upload(PyObject *g, ca_stream_t s)
{
    if (!Py_IS_TYPE(g, graph_type)) {
        PyErr_SetString(PyExc_TypeError, "upload: not a cuarray.cuda.Graph");
        return NULL;
    }
    return ca_run_graph_upload(((CaGraph *)g)->exec, s) < 0 ? NULL : Py_NewRef(Py_None);
}

static void
Graph_dealloc(CaGraph *self)
{
    if (self->launched) {
        /* the kept blocks return to the pools only after the graph's last run */
        if (ca_run_device_sync() < 0) {
            PyErr_WriteUnraisable((PyObject *)self);
        }
    }
    ca_graph_destroy_quiet(self->graph, self->exec);
    Py_XDECREF(self->keep);
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_Free(self);
    Py_DECREF(tp);
}

static PyType_Slot Graph_slots[] = {
    { Py_tp_dealloc, Graph_dealloc },
    { Py_tp_doc, "A CUDA graph captured from a stream (Stream.end_capture()); "
                 "launch() replays it." },
    { 0, NULL },
};

/* not immutable: cuda/graph.py adds launch() and upload() */
CA_TYPE_SPEC(Graph_spec, "cuarray.cuda.Graph", CaGraph,
             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, Graph_slots);

int
ca_graph_init(PyObject *m)
{
    graph_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &Graph_spec, NULL);
    return graph_type == NULL
               ? -1
               : PyModule_AddObjectRef(m, "Graph", (PyObject *)graph_type);
}
