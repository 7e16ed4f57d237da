"""cuarray arrays as Dask chunks: results against the same graphs on NumPy chunks."""

import pickle

import numpy as np
import pytest

import cuarray as ca

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
import cuarray.dask  # noqa: E402,F401  (registers cuarray with Dask)

from conftest import DEVICES, requires_gpu  # noqa: E402


def pair(dev, shape=(12, 10), chunks=(5, 4), seed=0, dtype=np.float64):
    h = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return (da.from_array(ca.asarray(h, device=dev), chunks=chunks),
            da.from_array(h, chunks=chunks))


def check(got, want, rtol=1e-12):
    """Compute both; the cuarray one must give cuarray chunks and NumPy's values."""
    g, w = dask.compute(got, want, scheduler="sync")
    if isinstance(w, np.ndarray) and w.ndim:
        assert isinstance(g, ca.ndarray), type(g)
        g = g.get()
    elif isinstance(g, ca.ndarray):
        g = g.get()
    np.testing.assert_allclose(np.asarray(g), w, rtol=rtol, atol=1e-12)


@pytest.mark.parametrize("dev", DEVICES)
def test_meta_and_chunks_are_cuarray(dev):
    x, _ = pair(dev)
    assert isinstance(x._meta, ca.ndarray)
    assert all(isinstance(b, ca.ndarray) for b in
               dask.compute(*x.to_delayed().ravel(), scheduler="sync"))


@pytest.mark.parametrize("dev", DEVICES)
def test_reductions(dev):
    x, h = pair(dev)
    for f in (lambda a: a.sum(), lambda a: a.sum(axis=0), lambda a: a.mean(axis=1),
              lambda a: a.max(), lambda a: a.min(axis=0), lambda a: a.std(),
              lambda a: a.var(axis=0), lambda a: a.prod(axis=1),
              lambda a: a.argmax(axis=0), lambda a: da.nansum(a), lambda a: a.any(),
              lambda a: da.count_nonzero(a > 0, axis=1)):
        check(f(x), f(h), rtol=1e-10)


@pytest.mark.parametrize("dev", DEVICES)
def test_elementwise_slicing_rechunk(dev):
    x, h = pair(dev)
    for f in (lambda a: a + 1, lambda a: da.exp(a) * 2 - a, lambda a: a[2:9, ::3],
              lambda a: a[[1, 5, 7]], lambda a: a.T.rechunk((3, 6)),
              lambda a: da.where(a > 0, a, -a), lambda a: a.map_blocks(lambda b: b * b),
              lambda a: da.concatenate([a, a], axis=1),
              lambda a: da.stack([a, a]), lambda a: a.reshape(120),
              lambda a: da.cumsum(a, axis=0)):
        check(f(x), f(h))


@pytest.mark.parametrize("dev", DEVICES)
def test_matmul_tensordot_einsum(dev):
    x, h = pair(dev, shape=(12, 12), chunks=(5, 5))
    check(x @ x.T, h @ h.T, rtol=1e-10)
    check(da.tensordot(x, x, axes=1), da.tensordot(h, h, axes=1), rtol=1e-10)
    check(da.einsum("ij,jk->ik", x, x), da.einsum("ij,jk->ik", h, h), rtol=1e-10)
    check((x @ x.T).sum(), (h @ h.T).sum(), rtol=1e-10)


@pytest.mark.parametrize("dev", DEVICES)
def test_percentile(dev):
    # Dask's percentile makes its 0 and 100 with empty_lookup, which knows no
    # device: chunks are on the current device (README, Dask section)
    with ca.Device(dev):
        x, h = pair(dev, shape=(50,), chunks=(20,))
        check(da.percentile(x, [10, 50, 90]), da.percentile(h, [10, 50, 90]))


def test_backend_switch():
    with dask.config.set({"array.backend": "cuarray"}):
        for y, w in ((da.ones((6, 4), chunks=3), np.ones((6, 4))),
                     (da.zeros((5,), chunks=2, dtype=np.int32), np.zeros(5, np.int32)),
                     (da.full((4, 4), 7.5, chunks=2), np.full((4, 4), 7.5)),
                     (da.arange(10, chunks=3), np.arange(10))):
            assert isinstance(y._meta, ca.ndarray)
            got = y.compute(scheduler="sync")
            assert isinstance(got, ca.ndarray) and got.dtype == w.dtype
            np.testing.assert_array_equal(got.get(), w)
        r = da.random.RandomState(5).random_sample((8, 8), chunks=4)
        got = r.compute(scheduler="sync")
        assert isinstance(got, ca.ndarray) and got.shape == (8, 8)
        g = got.get()
        assert ((g >= 0) & (g < 1)).all() and len(np.unique(g)) == 64
    h = da.ones((4,), chunks=2)
    assert isinstance(h._meta, np.ndarray)  # the default backend again
    moved = h.to_backend("cuarray")
    assert isinstance(moved.compute(scheduler="sync"), ca.ndarray)


@pytest.mark.parametrize("dev", DEVICES)
def test_sizeof_and_to_numpy(dev):
    from dask.array.dispatch import to_numpy_dispatch
    from dask.sizeof import sizeof
    a = ca.asarray(np.arange(1000.0), device=dev)
    assert sizeof(a) == 8000
    np.testing.assert_array_equal(to_numpy_dispatch(a), np.arange(1000.0))


@pytest.mark.parametrize("dev", DEVICES)
def test_pickle_protocol_5_out_of_band(dev):
    h = np.arange(4096, dtype=np.float32).reshape(64, 64)
    a = ca.asarray(h, device=dev)
    bufs = []
    s = pickle.dumps(a, protocol=5, buffer_callback=bufs.append)
    assert bufs and sum(memoryview(b).nbytes for b in bufs) == h.nbytes
    assert len(s) < h.nbytes  # the bytes travel out of band, not in the stream
    b = pickle.loads(s, buffers=bufs)
    assert isinstance(b, ca.ndarray) and b.device == a.device
    np.testing.assert_array_equal(b.get(), h)


@pytest.mark.parametrize("dev", DEVICES)
def test_local_cluster_two_processes(dev):
    # two worker processes (on one GPU: both use it, as CUARRAY_DEVICE says); the
    # chunks travel pickled, their bytes out of band
    distributed = pytest.importorskip("distributed")
    h = np.random.default_rng(3).standard_normal((400, 300))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, worker_dashboard_address=None,
                                  env={"CUARRAY_DEVICE": dev}) as cluster, \
            distributed.Client(cluster) as client:
        client.run(lambda: __import__("cuarray.dask"))
        x = da.from_array(ca.asarray(h, device=dev), chunks=(100, 100))
        got = client.compute((x @ x.T).sum() + x.sum()).result()
        want = (h @ h.T).sum() + h.sum()
        assert np.isclose(float(got), want, rtol=1e-10)
        y = client.compute(x[::7] * 2).result()
        assert isinstance(y, ca.ndarray)
        np.testing.assert_array_equal(y.get(), h[::7] * 2)


@requires_gpu
def test_local_cuda_cluster_one_gpu():
    # dask-cuda's LocalCUDACluster: one worker process per GPU (CUDA_VISIBLE_DEVICES
    # set per worker), cuarray chunks computed there and moved pickled
    dask_cuda = pytest.importorskip("dask_cuda")
    distributed = pytest.importorskip("distributed")
    h = np.random.default_rng(4).standard_normal((400, 300))
    with dask_cuda.LocalCUDACluster(n_workers=1, threads_per_worker=1,
                                    dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        client.run(lambda: __import__("cuarray.dask"))
        x = da.from_array(ca.asarray(h, device="cuda:0"), chunks=(100, 100))
        got = client.compute((x @ x.T).sum() + x.sum()).result()
        assert np.isclose(float(got), (h @ h.T).sum() + h.sum(), rtol=1e-10)
        y = client.compute(x[::7] * 2).result()
        assert isinstance(y, ca.ndarray) and y.device == ca.empty(0, device="cuda:0").device
        np.testing.assert_array_equal(y.get(), h[::7] * 2)
