"""any / all on the cpu device against NumPy: the block loops of
kernels/host/host_truth.c (a truth test on the element's bits, folded branch-free a
block of CA_HT_BLOCK bytes at a time, the walk stopping after a deciding block).

Every dtype, edge values (NaN, -0.0, subnormals, a complex with one nonzero
part), the deciding element at the first or last position and around block
edges, strided and reversed views, axis None / 0 / 1 / -1 / keepdims, and sizes
above the thread pool's threshold (host_threads.h CA_HOST_PAR_MIN, 2^23
elements of work) on one thread and on two.
"""

import numpy as np
import pytest

import cuarray as ca
from conftest import ALL_DTYPES

BLOCK = 4096  # kernels/host/host_truth.c CA_HT_BLOCK (bytes)
PAR_MIN = 1 << 23  # kernels/host/host_threads.h CA_HOST_PAR_MIN (elements)


def h(x):
    return ca.asarray(np.array(x, copy=True), device="cpu")


def check(got, want):
    want = np.asarray(want)
    assert isinstance(got, ca.ndarray), type(got)
    assert got.shape == want.shape and got.dtype == want.dtype == np.bool_
    np.testing.assert_array_equal(got.get(), want)


def both(xn, a, axis=None, keepdims=False):
    check(a.any(axis=axis, keepdims=keepdims), np.any(xn, axis=axis, keepdims=keepdims))
    check(a.all(axis=axis, keepdims=keepdims), np.all(xn, axis=axis, keepdims=keepdims))


def falsy(dtype):
    """The values that are false: zero, and -0.0 for floats (both parts for complex)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return [0, complex(-0.0, -0.0), complex(0.0, -0.0)]
    return [0, -0.0] if dtype.kind == "f" else [0]


def truthy(dtype):
    """True values, the edges among them: NaN, inf, the smallest subnormal, a complex
    with only one nonzero (or NaN) part, the sign bit alone in an integer."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return [True]
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return [1, info.max, info.min] if dtype.kind == "i" else [1, info.max]
    if dtype.kind == "f":
        tiny = np.finfo(dtype).smallest_subnormal
        return [1, np.nan, -np.inf, tiny, -tiny]
    tiny = np.finfo(dtype).smallest_subnormal
    return [1, complex(0, np.nan), complex(np.nan, 0), complex(-0.0, tiny),
            complex(tiny, -0.0), complex(0, -1)]


def lengths(dtype):
    """Lengths around the block edges for this element size."""
    per = BLOCK // np.dtype(dtype).itemsize
    return [0, 1, 2, 7, 31, per - 1, per, per + 1, 3 * per + 5]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_one_deciding_element_everywhere(dtype):
    """All false but one true, all true but one false, at the edges of the run and
    of the blocks, for each edge value; contiguous, reversed and strided."""
    for n in lengths(dtype):
        per = BLOCK // np.dtype(dtype).itemsize
        spots = sorted({p for p in (0, n - 1, per - 1, per, n // 2) if 0 <= p < n})
        for fill, odd in ((falsy(dtype), truthy(dtype)), (truthy(dtype), falsy(dtype))):
            for f in fill:
                base = np.full(n, f, dtype=dtype)
                both(base, h(base))
                for v in odd:
                    for p in spots:
                        x = base.copy()
                        x[p] = v
                        both(x, h(x))
                        both(x[::-1], h(x)[::-1])
                        big = np.repeat(x, 3)
                        both(big[1::3], h(big)[1::3])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_random_data_axes_and_views(dtype):
    rng = np.random.default_rng(5)
    for shape in [(5, 7), (3, 1100), (1100, 3), (2, 3, 2050)]:
        x = np.zeros(shape, dtype)
        vals = np.array(truthy(dtype) + falsy(dtype), dtype=dtype)
        x[...] = vals[rng.integers(0, len(vals), size=shape)]
        # rows that are all true and rows that are all false
        x[0] = truthy(dtype)[0]
        x[-1] = falsy(dtype)[-1]
        views = [(x, h(x)), (x.T, h(x).T), (x[::-1], h(x)[::-1]),
                 (x[..., ::2], h(x)[..., ::2]), (x[:, ::-3], h(x)[:, ::-3])]
        for xn, a in views:
            axes = [None, 0, 1, -1, (0, -1)]
            for axis in axes:
                for keepdims in (False, True):
                    both(xn, a, axis, keepdims)


def test_empty_and_zero_size_axes():
    for dtype in ALL_DTYPES:
        for shape in [(0,), (0, 4), (4, 0), (2, 0, 3)]:
            x = np.zeros(shape, dtype)
            for axis in [None, 0, -1]:
                both(x, h(x), axis)
                both(x, h(x), axis, True)


def test_bool_bytes_other_than_one_are_true():
    """A bool byte of 2 or 255 (reinterpreted memory) is true, as for NumPy."""
    raw = np.frombuffer(bytes([2, 255, 1, 128] * 1500), dtype=np.bool_)
    a = h(raw)
    assert bool(a.all()) and bool(a.any())
    assert bool(np.all(raw))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float32, np.complex128])
def test_above_thread_threshold(host_threads, threads, dtype):
    """Full and axis reductions of more than CA_HOST_PAR_MIN elements (the run cut
    in chunks for the threads, or outputs shared out): the deciding element last,
    first, or in the middle of a chunk."""
    host_threads(threads)
    n = PAR_MIN + 4099
    t, f = truthy(dtype)[0], falsy(dtype)[0]
    for fill, odd in ((t, f), (f, t)):
        x = np.full(n, fill, dtype=dtype)
        a = h(x)
        both(x, a)
        for p in (n - 1, 0, n // 3):
            x[p] = odd
            a = h(x)
            both(x, a)
            both(x[::2], a[::2])
            m = x[: n - n % 8].reshape(8, -1)
            both(m, a[: n - n % 8].reshape(8, -1), axis=1)
            both(m, a[: n - n % 8].reshape(8, -1), axis=0)
            x[p] = fill
