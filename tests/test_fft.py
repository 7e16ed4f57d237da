"""cuarray.fft against numpy.fft.

Every test runs on the devices of the ``fdev`` fixture: "cpu" (numpy.fft on
views), "cpu-plan" (the emulation switch: the cpu device goes through the
GPU's path, the layouts planned for cuFFT, the plan cache and the work areas,
with NumPy standing in for cuFFT) and "cuda:0" (cuFFT) where a GPU is present.
Values are compared with NumPy's transform of the input in float64/complex128,
dtypes with NumPy's own result.
"""

import subprocess
import sys

import numpy as np
import pytest

import cuarray as ca
from cuarray import _core, _host_threads
from cuarray.fft import _four_step as fft_four_step
from cuarray.fft import _rfft_line as fft_rfft_line

from conftest import count_calls, requires_gpu, random_array

FDEVS = ["cpu", "cpu-plan", pytest.param("cuda:0", marks=requires_gpu)]


@pytest.fixture(params=FDEVS)
def fdev(request):
    p = request.param
    emulate = p == "cpu-plan"
    old = _core._fft_emulate(True) if emulate else None
    try:
        yield "cpu" if emulate else p
    finally:
        if emulate:
            _core._fft_emulate(old)


def on(dev, h):
    return ca.asarray(h, device=dev)


def wide(h):
    h = np.asarray(h)
    if h.dtype.kind == "c":
        return h.astype(np.complex128)
    return h.astype(np.float64)


# |r - ref| <= TOL * max(|ref|, 1) (over the whole array)
TOL = {np.dtype(np.float16): 5e-3, np.dtype(np.float32): 5e-6,
       np.dtype(np.complex64): 5e-6, np.dtype(np.float64): 1e-12,
       np.dtype(np.complex128): 1e-12}


def check(r, h, fn, *args, **kw):
    """r (a cuarray result) against numpy.fft's `fn` of the host input h: NumPy's
    dtype and shape, values within TOL of the float64/complex128 transform."""
    want = getattr(np.fft, fn)(h, *args, **kw)
    ref = getattr(np.fft, fn)(wide(h), *args, **kw)
    got = r.get() if isinstance(r, ca.ndarray) else r
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if ref.size == 0:
        return
    scale = max(float(np.abs(ref).max()), 1.0)
    err = float(np.abs(got.astype(np.complex128) - ref).max())
    tol = TOL[got.dtype]
    if np.asarray(h).dtype == np.float16:  # NumPy's own float16 path is this coarse
        tol = max(tol, TOL[np.dtype(np.float16)])
    assert err <= tol * scale * max(1, np.log2(max(ref.shape))), (err, scale)


NORMS = [None, "backward", "ortho", "forward"]
C2C_DTYPES = [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int8,
              np.int32, np.uint16, np.bool_]
REAL_DTYPES = [np.float16, np.float32, np.float64, np.int16, np.int64, np.uint8, np.bool_]
LENGTHS = [1, 2, 7, 8, 13, 16, 30, 97, 128]


# ------------------------------------------------------------- one-axis transforms
# (function, input dtype, shape) for the dtype-by-norm sweep: c2c, r2c and c2r
DTYPE_NORM_CASES = ([(fn, dt, (3, 12)) for fn in ("fft", "ifft") for dt in C2C_DTYPES]
                    + [(fn, dt, (4, 10)) for fn in ("rfft", "ihfft") for dt in REAL_DTYPES]
                    + [(fn, dt, (4, 9)) for fn in ("irfft", "hfft") for dt in C2C_DTYPES])


@pytest.mark.parametrize("fn,dtype,shape", DTYPE_NORM_CASES,
                         ids=[f"{fn}-{np.dtype(dt).name}" for fn, dt, _ in DTYPE_NORM_CASES])
@pytest.mark.parametrize("norm", NORMS)
def test_dtypes_norms(fdev, fn, dtype, shape, norm):
    h = random_array(shape, dtype)
    check(getattr(ca.fft, fn)(on(fdev, h), norm=norm), h, fn, norm=norm)


@pytest.mark.parametrize("fn", ["fft", "ifft", "rfft", "ihfft"])
@pytest.mark.parametrize("length", LENGTHS)
@pytest.mark.parametrize("n", [None, "short", "long"])
def test_lengths_and_n(fdev, fn, length, n):
    h = random_array((2, length), np.float64 if fn in ("rfft", "ihfft") else np.complex128)
    nn = None if n is None else (max(1, length // 2) if n == "short" else 2 * length + 3)
    check(getattr(ca.fft, fn)(on(fdev, h), n=nn), h, fn, n=nn)


@pytest.mark.parametrize("fn", ["irfft", "hfft"])
@pytest.mark.parametrize("length", [2, 3, 5, 8, 9, 17, 65])
@pytest.mark.parametrize("n", [None, "odd", "short", "long"])
def test_c2r_lengths_and_n(fdev, fn, length, n):
    h = random_array((3, length), np.complex128)
    nn = {None: None, "odd": 2 * length - 1, "short": max(1, length // 2),
          "long": 3 * length}[n]
    check(getattr(ca.fft, fn)(on(fdev, h), n=nn), h, fn, n=nn)


@pytest.mark.parametrize("fn", ["fft", "ifft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex128])
@pytest.mark.parametrize("norm", ["ortho", "forward", None])
@pytest.mark.parametrize("n", [5, 12, 40])
def test_norm_with_cast_and_padding(fdev, fn, dtype, norm, n):
    """A copy that casts or pads also applies the norm's scale (cuarray folds it
    into that copy)."""
    if fn == "ihfft" and np.dtype(dtype).kind == "c":
        return
    h = random_array((3, 12), dtype)
    check(getattr(ca.fft, fn)(on(fdev, h), n=n, norm=norm), h, fn, n=n, norm=norm)


@pytest.mark.parametrize("fn", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
def test_axis(fdev, fn, axis):
    dt = np.float64 if fn in ("rfft", "ihfft") else np.complex128
    h = random_array((5, 6, 7), dt)
    check(getattr(ca.fft, fn)(on(fdev, h), axis=axis), h, fn, axis=axis)


def test_rfft_complex_refused(fdev):
    for dt in (np.complex64, np.complex128):
        with pytest.raises(TypeError):
            ca.fft.rfft(on(fdev, random_array((8,), dt)))
        with pytest.raises(TypeError):
            np.fft.rfft(random_array((8,), dt))
    h = random_array((8,), np.bool_)
    check(ca.fft.rfft(on(fdev, h)), h, "rfft")


# ------------------------------------------------------------- n-dimensional
ND_CASES = [
    ((6, 8), None, None),
    ((6, 8), (0,), None),
    ((6, 8), (1, 0), None),
    ((5, 6, 7), None, None),
    ((5, 6, 7), (0, 2), None),
    ((5, 6, 7), (2, 0), None),
    ((5, 6, 7), (1,), (9,)),
    ((5, 6, 7), (-1, -2), (4, 10)),
    ((5, 6, 7), (1, 0, 2), (3, 6, 8)),
    ((5, 6, 7), (0, 1), (-1, 5)),
    ((3, 4, 5, 6), None, None),
    ((3, 4, 5, 6), (3, 1, 0, 2), None),
    ((3, 4, 5, 6), (0, 1, 2, 3), (4, 3, 6, 5)),
    ((2, 3, 4, 5, 6), (4, 0, 3, 1), None),
    ((2, 3, 2, 3, 2, 3, 4), None, None),
    ((3, 4, 5, 6), (1, 3), None),
]


@pytest.mark.parametrize("fn", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("shape,axes,s", ND_CASES)
def test_nd(fdev, fn, shape, axes, s):
    dt = np.float64 if fn == "rfftn" else np.complex128
    h = random_array(shape, dt)
    check(getattr(ca.fft, fn)(on(fdev, h), s=s, axes=axes), h, fn, s=s, axes=axes)


@pytest.mark.parametrize("fn", ["fft2", "ifft2", "rfft2", "irfft2"])
@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.float64, np.complex128])
@pytest.mark.parametrize("norm", NORMS)
def test_2d(fdev, fn, dtype, norm):
    if fn == "rfft2" and np.dtype(dtype).kind == "c":
        return
    h = random_array((3, 10, 12), dtype)
    check(getattr(ca.fft, fn)(on(fdev, h), norm=norm), h, fn, norm=norm)


@pytest.mark.parametrize("fn", ["fftn", "rfftn", "irfftn"])
def test_nd_float16(fdev, fn):
    h = random_array((6, 8), np.float16)
    check(getattr(ca.fft, fn)(on(fdev, h)), h, fn)


def test_nd_s_without_axes_is_deprecated(fdev):
    h = random_array((4, 6, 8), np.complex128)
    with pytest.warns(DeprecationWarning):
        r = ca.fft.fftn(on(fdev, h), s=(5, 7))
    with pytest.warns(DeprecationWarning):
        want = np.fft.fftn(h, s=(5, 7))
    np.testing.assert_allclose(r.get(), want, rtol=1e-12, atol=1e-12)


def test_numpy_integers_as_arguments(fdev):
    h = random_array((4, 6, 8), np.complex128)
    a = on(fdev, h)
    check(ca.fft.fft(a, n=np.int64(5), axis=np.int32(1)), h, "fft", n=5, axis=1)
    check(ca.fft.fftn(a, s=np.array([3, 9]), axes=np.array([0, 2])), h, "fftn", s=(3, 9),
          axes=(0, 2))
    check(ca.fft.rfftn(on(fdev, h.real.copy()), s=[np.int16(4), 7], axes=[2, 1]), h.real,
          "rfftn", s=(4, 7), axes=(2, 1))


def test_nd_no_axes(fdev):
    h = random_array((3, 4), np.float32)
    r = ca.fft.fftn(on(fdev, h), axes=())
    assert r.dtype == np.complex64
    np.testing.assert_array_equal(r.get(), h.astype(np.complex64))


# ------------------------------------------------------------- layouts
def layouts(h):
    """(name, NumPy view, the same view of a cuarray array) builders."""
    return {
        "transposed": lambda x: x.transpose(2, 0, 1),
        "step": lambda x: x[:, ::2, 1:],
        "negative": lambda x: x[::-1, :, ::-2],
        "middle": lambda x: x[1:4, 2:5, :],
        "swapped": lambda x: x.swapaxes(0, 1),
    }


@pytest.mark.parametrize("layout", ["transposed", "step", "negative", "middle", "swapped"])
@pytest.mark.parametrize("fn,kw", [("fft", {"axis": 1}), ("fft", {"axis": 0}),
                                   ("ifft", {}), ("fftn", {}),
                                   ("fft2", {"axes": (0, 2)}), ("rfft", {"axis": 0}),
                                   ("irfft", {"axis": 1}), ("rfftn", {"axes": (2, 0)}),
                                   ("irfftn", {"axes": (0, 1)}), ("hfft", {})])
def test_strided_inputs(fdev, layout, fn, kw):
    dt = np.float64 if fn in ("rfft", "rfftn") else np.complex128
    h = random_array((6, 7, 8), dt)
    view = layouts(h)[layout]
    a = view(on(fdev, h))
    hv = view(h)
    check(getattr(ca.fft, fn)(a, **kw), hv, fn, **kw)
    np.testing.assert_array_equal(a.get(), hv)  # the input is left alone


@pytest.mark.parametrize("fn", ["irfft", "irfftn", "hfft", "irfft2"])
def test_c2r_leaves_input_alone(fdev, fn):
    """cuFFT overwrites a C2R input: cuarray hands it a copy (the emulation
    writes NaN over what its stand-in reads)."""
    h = random_array((4, 6, 5), np.complex128)
    a = on(fdev, h)
    getattr(ca.fft, fn)(a)
    np.testing.assert_array_equal(a.get(), h)


def test_batch_both_sides_of_axis(fdev):
    """Batch axes before and after the transformed one: not one cuFFT stride."""
    h = random_array((3, 16, 5, 2), np.complex64)
    check(ca.fft.fft(on(fdev, h), axis=1), h, "fft", axis=1)
    check(ca.fft.fftn(on(fdev, h), axes=(1, 3)), h, "fftn", axes=(1, 3))


def test_zero_size(fdev):
    h = np.zeros((0, 8), np.complex128)
    check(ca.fft.fft(on(fdev, h)), h, "fft")
    check(ca.fft.rfft(on(fdev, np.zeros((0, 8)))), np.zeros((0, 8)), "rfft")
    h = np.zeros((0,), np.complex128)
    check(ca.fft.fft(on(fdev, h), n=4), h, "fft", n=4)


# ------------------------------------------------------------- round trips
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("length", [5, 8, 31, 64])
@pytest.mark.parametrize("norm", NORMS)
def test_round_trips(fdev, dtype, length, norm):
    h = random_array((3, length), dtype)
    a = on(fdev, h)
    rt = np.float32 if np.dtype(dtype) in (np.float32, np.complex64) else np.float64
    tol = 1e-4 if rt == np.float32 else 1e-11
    back = ca.fft.ifft(ca.fft.fft(a, norm=norm), norm=norm).get()
    np.testing.assert_allclose(back, h, rtol=tol, atol=tol * 10)
    if np.dtype(dtype).kind == "f":
        back = ca.fft.irfft(ca.fft.rfft(a, norm=norm), n=length, norm=norm).get()
        assert back.dtype == rt
        np.testing.assert_allclose(back, h, rtol=tol, atol=tol * 10)
        back = ca.fft.hfft(ca.fft.ihfft(a, norm=norm), n=length, norm=norm).get()
        np.testing.assert_allclose(back, h, rtol=tol, atol=tol * 10)


def test_round_trips_nd(fdev):
    h = random_array((4, 6, 9), np.float64)
    a = on(fdev, h)
    np.testing.assert_allclose(ca.fft.ifftn(ca.fft.fftn(a)).get(), h, atol=1e-12)
    np.testing.assert_allclose(ca.fft.irfftn(ca.fft.rfftn(a), s=h.shape, axes=(0, 1, 2))
                               .get(), h, atol=1e-12)
    np.testing.assert_allclose(ca.fft.irfft2(ca.fft.rfft2(a), s=h.shape[1:]).get(), h,
                               atol=1e-12)


# ------------------------------------------------------------- out=
@pytest.mark.parametrize("fn,dt,odt", [("fft", np.complex128, np.complex128),
                                       ("fft", np.complex64, np.complex64),
                                       ("fft", np.complex128, np.complex64),
                                       ("fft", np.float32, np.complex128),
                                       ("ifft", np.complex128, np.complex128),
                                       ("rfft", np.float64, np.complex128),
                                       ("rfft", np.float32, np.complex64),
                                       ("irfft", np.complex128, np.float64),
                                       ("irfft", np.complex64, np.float32),
                                       ("irfft", np.complex128, np.float32),
                                       ("ihfft", np.float64, np.complex128)])
@pytest.mark.parametrize("norm", [None, "ortho"])
def test_out(fdev, fn, dt, odt, norm):
    h = random_array((4, 10), dt)
    want = getattr(np.fft, fn)(h, norm=norm)
    out = ca.empty(want.shape, dtype=odt, device=fdev)
    r = getattr(ca.fft, fn)(on(fdev, h), norm=norm, out=out)
    assert r is out
    single = {np.dtype(np.complex64), np.dtype(np.float32)}
    tol = 1e-4 if np.dtype(odt) in single or np.dtype(dt) in single else 1e-12
    np.testing.assert_allclose(out.get(), want, rtol=tol, atol=tol * 10)


@pytest.mark.parametrize("fn", ["fftn", "ifft2", "rfftn", "irfftn", "irfft2"])
def test_out_nd(fdev, fn):
    h = random_array((3, 6, 8), np.float64 if fn == "rfftn" else np.complex128)
    s = (5, 7)
    want = getattr(np.fft, fn)(h, s=s, axes=(1, 2))
    out = ca.empty(want.shape, dtype=want.dtype, device=fdev)
    r = getattr(ca.fft, fn)(on(fdev, h), s=s, axes=(1, 2), out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), want, rtol=1e-12, atol=1e-12)


def test_out_strided_and_aliased(fdev):
    h = random_array((6, 8), np.complex128)
    big = ca.zeros((6, 16), dtype=np.complex128, device=fdev)
    out = big[:, ::2]
    r = ca.fft.fft(on(fdev, h), out=out)
    assert r is out
    np.testing.assert_allclose(big.get()[:, ::2], np.fft.fft(h), atol=1e-12)
    np.testing.assert_array_equal(big.get()[:, 1::2], 0)
    a = on(fdev, h.copy())  # (the cpu device wraps NumPy memory without a copy)
    r = ca.fft.fft(a, axis=0, out=a)  # in place, as NumPy allows
    assert r is a
    np.testing.assert_allclose(a.get(), np.fft.fft(h, axis=0), atol=1e-12)
    out = ca.empty((6, 8), dtype=np.complex128, device=fdev).T.T
    t = on(fdev, h).T
    ca.fft.fft(t, axis=0, out=out.T)
    np.testing.assert_allclose(out.get(), np.fft.fft(h.T, axis=0).T, atol=1e-12)


def test_out_errors(fdev):
    a = on(fdev, random_array((4, 8), np.complex128))
    with pytest.raises(ValueError, match="shape"):
        ca.fft.fft(a, out=ca.empty((4, 7), dtype=np.complex128, device=fdev))
    with pytest.raises(ValueError, match="shape"):
        ca.fft.fft(a, out=ca.empty((8,), dtype=np.complex128, device=fdev))
    with pytest.raises(TypeError, match="same_kind"):
        ca.fft.fft(a, out=ca.empty((4, 8), dtype=np.float64, device=fdev))
    with pytest.raises(TypeError):
        ca.fft.fft(a, out=np.empty((4, 8), np.complex128))
    with pytest.raises(TypeError, match="same_kind"):
        ca.fft.irfft(a, out=ca.empty((4, 14), dtype=np.int64, device=fdev))
    # NumPy's exception types for the same mistakes
    h = random_array((4, 8), np.complex128)
    with pytest.raises(ValueError):
        np.fft.fft(h, out=np.empty((4, 7), np.complex128))
    with pytest.raises(TypeError):
        np.fft.fft(h, out=np.empty((4, 8), np.float64))


# ------------------------------------------------------------- repeated axes
@pytest.mark.parametrize("name,kw", [
    ("fftn", {"axes": (0, 0)}), ("fft2", {"axes": (1, -1)}), ("fftn", {"axes": (1, -2, 0)}),
    ("ifftn", {"axes": (2, 2), "s": (7, 3)}), ("rfftn", {"axes": (1, 1)}),
    ("rfftn", {"axes": (0, 2, 0)}), ("irfftn", {"axes": (1, 1)}),
    ("irfftn", {"axes": (2, 0, 2), "s": (4, 5, 6)}), ("ifft2", {"axes": (0, 0), "norm": "ortho"})])
def test_repeated_axes_transform_once_per_mention(fdev, name, kw):
    """NumPy transforms an axis named twice twice (one 1-d transform per entry)."""
    h = random_array((4, 6, 5), np.float64)
    want = getattr(np.fft, name)(h, **kw)
    got = getattr(ca.fft, name)(on(fdev, h), **kw)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-10, atol=1e-10)
    out = ca.empty(want.shape, dtype=want.dtype, device=fdev)
    assert getattr(ca.fft, name)(on(fdev, h), **kw, out=out) is out
    np.testing.assert_allclose(out.get(), want, rtol=1e-10, atol=1e-10)


# ------------------------------------------------------------- bad input
def test_bad_input(fdev):
    a = on(fdev, random_array((4, 8), np.complex128))
    h = random_array((4, 8), np.complex128)
    for kw in ({"n": 0}, {"n": -1}, {"n": -5}):
        with pytest.raises(ValueError, match="Invalid number of FFT data points"):
            ca.fft.fft(a, **kw)
        with pytest.raises(ValueError):
            np.fft.fft(h, **kw)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        ca.fft.irfft(on(fdev, np.ones((3, 1), np.complex128)))
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        ca.fft.fftn(a, s=(0, 4), axes=(0, 1))
    for ax in (2, -3):
        with pytest.raises(np.exceptions.AxisError):
            ca.fft.fft(a, axis=ax)
        with pytest.raises(IndexError):  # NumPy's (AxisError is an IndexError)
            np.fft.fft(h, axis=ax)
    with pytest.raises(np.exceptions.AxisError):
        ca.fft.fftn(a, axes=(0, 5))
    with pytest.raises(ValueError, match="different lengths"):
        ca.fft.fftn(a, s=(4, 4), axes=(0,))
    with pytest.raises(ValueError, match="Invalid norm value"):
        ca.fft.fft(a, norm="none")
    with pytest.raises(ValueError, match="Invalid norm value"):
        ca.fft.hfft(a, norm="bad")
    with pytest.raises(ValueError):
        np.fft.fft(h, norm="none")
    with pytest.raises(TypeError, match="cuarray.ndarray"):
        ca.fft.fft(h)
    with pytest.raises(TypeError):
        ca.fft.fft(a, n=2.5)


# ------------------------------------------------------------- helpers
@pytest.mark.parametrize("n", [1, 2, 7, 8, 13])
@pytest.mark.parametrize("d", [1.0, 0.25])
def test_fftfreq(fdev, n, d):
    r = ca.fft.fftfreq(n, d, device=fdev)
    assert r.device == ca.Device(fdev)
    np.testing.assert_allclose(r.get(), np.fft.fftfreq(n, d), rtol=1e-15)
    assert r.dtype == np.fft.fftfreq(n, d).dtype
    r = ca.fft.rfftfreq(n, d=d, device=fdev)
    np.testing.assert_allclose(r.get(), np.fft.rfftfreq(n, d), rtol=1e-15)


@pytest.mark.parametrize("shape", [(7,), (8,), (4, 5), (3, 4, 5)])
@pytest.mark.parametrize("axes", [None, 0, -1, (0,), "all"])
def test_shifts(fdev, shape, axes):
    if axes == "all":
        axes = tuple(range(len(shape)))
    h = np.arange(np.prod(shape)).reshape(shape)
    a = on(fdev, h)
    np.testing.assert_array_equal(ca.fft.fftshift(a, axes).get(), np.fft.fftshift(h, axes))
    np.testing.assert_array_equal(ca.fft.ifftshift(a, axes=axes).get(),
                                  np.fft.ifftshift(h, axes=axes))
    np.testing.assert_array_equal(ca.fft.ifftshift(ca.fft.fftshift(a, axes), axes).get(), h)


def test_namespace():
    for name in ("fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
                 "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq",
                 "fftshift", "ifftshift"):
        assert callable(getattr(ca.fft, name)), name
        assert name in ca.fft.__all__
    assert issubclass(ca.cuda.CUFFTError, ca.cuda.CUDAError)


def test_cpu_result_is_numpy_memory_wrapped():
    """On the cpu device the result is NumPy's array, wrapped without a copy."""
    a = on("cpu", random_array((64,), np.complex128))
    r = ca.fft.fft(a)
    v = np.asarray(r)
    assert v.flags.writeable and r.device == ca.Device("cpu")
    v[0] = 12345
    assert complex(r[0]) == 12345


def test_import_does_not_load_cufft():
    code = ("import cuarray, cuarray.fft; from cuarray import _core; "
            "print(_core._cufft_path())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "None"


def test_cufft_errors():
    with pytest.raises(ca.cuda.CUFFTError) as ei:
        _core._raise_cuda_error(8, "cufftMakePlanMany64", "cufft")
    assert ei.value.name == "CUFFT_INVALID_SIZE" and ei.value.status == 8
    assert "cufftMakePlanMany64" in str(ei.value)
    with pytest.raises(ca.OutOfMemoryError):
        _core._raise_cuda_error(2, "cufftMakePlanMany64", "cufft")
    with pytest.raises(ca.cuda.CUFFTError, match="status 99"):
        _core._raise_cuda_error(99, "cufftExecC2C", "cufft")


# ------------------------------------------------------------- the plan cache
PDEVS = ["cpu-plan", pytest.param("cuda:0", marks=requires_gpu)]


@pytest.fixture(params=PDEVS)
def pdev(request):
    """A device whose transforms make plans; its cache emptied and reset."""
    emulate = request.param == "cpu-plan"
    dev = "cpu" if emulate else request.param
    old = _core._fft_emulate(True) if emulate else None
    cache = ca.fft.config.get_plan_cache(dev)
    size, mem = cache.get_size(), cache.get_memsize()
    cache.clear()
    try:
        yield dev
    finally:
        cache.clear()
        cache.set_size(size)
        cache.set_memsize(mem)
        if emulate:
            _core._fft_emulate(old)


def transform(dev, n, batch=2):
    h = random_array((batch, n), np.complex64)
    r = ca.fft.fft(on(dev, h))
    check(r, h, "fft")


def test_cache_hits_and_lru(pdev):
    cache = ca.fft.config.get_plan_cache(pdev)
    assert len(cache) == 0 and cache.get_size() == 16 and cache.get_memsize() == -1
    transform(pdev, 8)
    transform(pdev, 8)
    assert len(cache) == 1
    transform(pdev, 16)
    transform(pdev, 8)  # now the most recent
    plans = cache.get_plans()
    assert [p[2] for p in plans] == [(8,), (16,)]
    assert plans[0][0] == "C2C" and plans[0][3] == 2
    cache.set_size(2)
    transform(pdev, 32)  # evicts 16, the least recently used
    assert [p[2] for p in cache.get_plans()] == [(32,), (8,)]
    cache.set_size(1)  # evicts at once
    assert [p[2] for p in cache.get_plans()] == [(32,)]
    assert cache.get_curr_size() == 1


def test_cache_key_has_layout_and_type(pdev):
    cache = ca.fft.config.get_plan_cache(pdev)
    h = random_array((4, 8), np.complex128)
    a = on(pdev, h)
    ca.fft.fft(a)
    ca.fft.ifft(a)  # the same plan: direction is an argument of the execution
    assert len(cache) == 1
    ca.fft.fft(a, axis=0)  # other strides and batch
    ca.fft.fft(on(pdev, h.astype(np.complex64)))  # other type
    ca.fft.rfft(on(pdev, h.real.copy()))
    types = sorted(p[0] for p in cache.get_plans())
    assert types == ["C2C", "D2Z", "Z2Z", "Z2Z"]


def test_cache_memsize(pdev):
    cache = ca.fft.config.get_plan_cache(pdev)
    sizes = (1009, 2003, 4001)  # primes: cuFFT's Bluestein plans need work areas
    for n in sizes:
        transform(pdev, n)
    ws = {p[2][0]: p[8] for p in cache.get_plans()}
    assert cache.get_curr_memsize() == sum(ws.values())
    if min(ws.values()) == 0:
        pytest.skip(f"cuFFT asked for no work area: {ws}")
    cache.set_memsize(ws[4001] + ws[2003])  # the oldest (1009) goes
    assert sorted(p[2][0] for p in cache.get_plans()) == [2003, 4001]
    assert cache.get_curr_memsize() <= cache.get_memsize()
    cache.set_memsize(min(ws.values()) - 1)  # nothing fits
    assert len(cache) == 0
    transform(pdev, 1009)  # too big for the cache: made, used, destroyed
    assert len(cache) == 0
    cache.set_memsize(-1)
    transform(pdev, 1009)
    assert len(cache) == 1


def test_cache_disabled_and_clear(pdev, capsys):
    cache = ca.fft.config.get_plan_cache(pdev)
    cache.set_size(0)
    transform(pdev, 8)
    assert len(cache) == 0
    cache.set_size(4)
    transform(pdev, 8)
    transform(pdev, 12)
    assert len(cache) == 2
    cache.show_info()
    text = capsys.readouterr().out
    assert "2 / 4" in text and "C2C" in text
    ca.fft.config.show_plan_cache_info()
    cache.clear()
    assert len(cache) == 0 and cache.get_curr_memsize() == 0
    with pytest.raises(ValueError):
        cache.set_size(-1)
    with pytest.raises(ValueError):
        cache.set_memsize(-2)


def test_plan_used_on_another_stream(pdev):
    """A plan made on one stream runs on another: its work area moves with it."""
    cache = ca.fft.config.get_plan_cache(pdev)
    h = random_array((8, 64), np.complex64)
    a = on(pdev, h)
    with ca.Device(pdev):
        s1 = ca.cuda.Stream()
        s2 = ca.cuda.Stream()
        with s1:
            r1 = ca.fft.fft(a)
        with s2:
            s2.wait_event(s1.record())
            r2 = ca.fft.fft(a)
            r3 = ca.fft.ifft(r2)
        s2.synchronize()
    assert len(cache) == 1
    check(r1, h, "fft")
    check(r2, h, "fft")
    np.testing.assert_allclose(r3.get(), h, atol=1e-4)
    r4 = ca.fft.fft(a)  # back on the default stream
    check(r4, h, "fft")
    assert len(cache) == 1


def test_threads_share_the_cache(pdev):
    """Threads evicting each other's plans (size 1) while they run them."""
    import threading
    cache = ca.fft.config.get_plan_cache(pdev)
    cache.set_size(1)
    errors = []

    def work(n):
        try:
            for _ in range(20):
                transform(pdev, n, batch=64)
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(n,)) for n in (256, 384, 512, 640)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(cache) <= 1


def test_many_axes_use_several_plans(pdev):
    cache = ca.fft.config.get_plan_cache(pdev)
    h = random_array((2, 3, 4, 5, 6), np.complex128)
    check(ca.fft.fftn(on(pdev, h)), h, "fftn")
    ranks = sorted(p[1] for p in cache.get_plans())
    assert ranks == [2, 3]


@requires_gpu
def test_gpu_loads_cufft_and_deferred_input():
    a = on("cuda:0", random_array((1 << 16,), np.float32))
    r = ca.fft.rfft(a * 2 + 1)  # a deferred (fused) input is flushed first
    h = a.get() * 2 + 1
    check(r, h, "rfft")
    assert _core._cufft_path() is not None


@requires_gpu
@pytest.mark.parametrize("n", [1 << 20, 1000003, 4096 * 3])
def test_gpu_large_and_prime(n):
    h = random_array((n,), np.complex64)
    check(ca.fft.fft(on("cuda:0", h)), h, "fft")
    check(ca.fft.ifft(on("cuda:0", h)), h, "ifft")


@requires_gpu
def test_gpu_managed_memory_input():
    h = random_array((16, 32), np.complex128)
    a = ca.asarray(h, device="cuda:0", memory="managed")
    check(ca.fft.fft2(a), h, "fft2")


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32, np.float64,
                                   np.int64])
def test_cpu_one_axis_is_numpys_bits(dtype):
    # The cpu device calls numpy.fft's own gufuncs for one-axis transforms, with the
    # factor typed as numpy.fft types it: the results are NumPy's bit for bit.
    rng = np.random.default_rng(5)
    h = rng.standard_normal((3, 64)) + 1j * rng.standard_normal((3, 64))
    h = h if np.dtype(dtype).kind == "c" else h.real
    h = h.astype(dtype)
    x = ca.asarray(h, device="cpu")
    names = ("fft", "ifft", "irfft", "hfft") + (("rfft", "ihfft") if h.dtype.kind != "c"
                                                 else ())
    for name in names:
        for norm in (None, "ortho", "forward"):
            for n, axis in ((None, -1), (50, 1), (81, 0), (7, 0)):
                got = getattr(ca.fft, name)(x, n=n, axis=axis, norm=norm).get()
                want = getattr(np.fft, name)(h, n=n, axis=axis, norm=norm)
                assert got.dtype == want.dtype, (name, norm, n)
                np.testing.assert_array_equal(got, want, err_msg=f"{name} {norm} {n}")


# ------------------------------------------- rfft of a long line (fft/_rfft_line.py)
# The cpu device's rfft of one long real line runs as half as many complex points
# in four steps; its bits are not numpy.fft's, its accuracy is. These tests take
# conftest's `device` (the emulation switch does not concern this path, and a GPU
# never takes it: there they check cuFFT's results and that the path stays out).

RFFT_NORMS = [None, "backward", "ortho", "forward"]


@pytest.fixture
def rfft_lines(monkeypatch):
    """Whether each call of the path ran it (True) or handed back to numpy (False)."""
    return count_calls(monkeypatch, fft_rfft_line, "rfft_line")


def rfft_and_taken(rfft_lines, *args, **kw):
    """(ca.fft.rfft(*args, **kw), whether it ran the path): calls below MIN_SIZE
    never reach it (the caller's one comparison)."""
    before = len(rfft_lines)
    r = ca.fft.rfft(*args, **kw)
    return r, rfft_lines[before:] == [True]


def rfft_rel_error(r, ref):
    r = np.asarray(r).astype(np.clongdouble)
    return float(np.linalg.norm(r - ref) / np.linalg.norm(ref))


def rfft_close(r, h, norm, n=None):
    """`r` (ca.fft.rfft of host `h`) has numpy's dtype and shape, its error against
    numpy.fft.rfft in long double is within 1.25 times numpy's own plus an ulp on
    the cpu device (measured: up to 1.12x, see fft/_rfft_line.py) and within 8 ulps
    from cuFFT on a GPU (a float32 transform's error grows as eps log n; measured on
    the H200: 2.2-2.6 ulps for n = 2^17-2^21, where NumPy computes float32 lines
    more precisely), and it is within a few of numpy's ulps of numpy's result
    element-wise (relative to the largest)."""
    on_gpu = isinstance(r, ca.ndarray) and r.device != ca.Device("cpu")
    got = r.get() if isinstance(r, ca.ndarray) else np.asarray(r)
    want = np.fft.rfft(h, n=n, norm=norm)
    assert got.dtype == want.dtype and got.shape == want.shape
    ref = np.fft.rfft(h.astype(np.longdouble), n=n, norm=norm)
    eps = np.finfo(want.real.dtype).eps
    if on_gpu:
        assert rfft_rel_error(got, ref) <= 8 * eps
    else:
        assert rfft_rel_error(got, ref) <= 1.25 * rfft_rel_error(want, ref) + eps
    scale = float(np.abs(ref).max())
    assert float(np.abs(got - want).max()) <= 64 * eps * scale


def rfft_taken(device, dtype, norm, n):
    """Whether n points of `dtype` data take the path (thresholds by precision)."""
    if device != "cpu":
        return False
    real = np.dtype(dtype).name
    work = fft_rfft_line._precision(real, norm, n)[0]
    return (n % 2 == 0 and fft_four_step.factors(n // 2) is not None
            and n >= fft_rfft_line._least_length(n, real, work))


def even_balanced(start, step):
    """The first even length from `start` (by `step`) whose half has balanced factors
    and is not a power of two."""
    n = start
    while n & (n - 1) == 0 or fft_four_step.factors(n // 2) is None:
        n += step
    return n


def rfft_lengths():
    """At and around each threshold: powers of two, and other even lengths."""
    r = fft_rfft_line
    lengths = {r.MIN_LENGTH_POWER_OF_TWO, r.MIN_LENGTH, r.MIN_LENGTH_SINGLE,
               r.MIN_LENGTH_SINGLE // 2, even_balanced(r.MIN_LENGTH, 2),
               even_balanced(r.MIN_LENGTH - 2, -2), even_balanced(r.MIN_LENGTH_SINGLE, 2)}
    return sorted(lengths)


def path_length(dtype, norm):
    """The shortest power of two that takes the path for `dtype` data and `norm`."""
    r = fft_rfft_line
    if dtype == np.float64:
        return r.MIN_LENGTH_POWER_OF_TWO
    return r.MIN_LENGTH if norm is None else r.MIN_LENGTH_SINGLE


@pytest.mark.parametrize("n", rfft_lengths())
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rfft_line(device, rfft_lines, n, dtype):
    h = random_array(n, dtype)
    x = on(device, h)
    for norm in RFFT_NORMS:
        r, taken = rfft_and_taken(rfft_lines, x, norm=norm)
        rfft_close(r, h, norm)
        assert taken == rfft_taken(device, dtype, norm, n), norm


def test_rfft_line_thresholds(device, rfft_lines):
    """Each kind of data takes the path from its own threshold on; just below it,
    numpy.fft.rfft's own bits."""
    r = fft_rfft_line
    above = [(r.MIN_LENGTH, np.float32, None),
             (r.MIN_LENGTH_SINGLE, np.float32, "ortho"),
             (even_balanced(r.MIN_LENGTH, 2), np.float32, "backward"),
             (even_balanced(r.MIN_LENGTH, 2), np.float64, "forward")]
    below = [(r.MIN_LENGTH // 2, np.float32, None),
             (r.MIN_LENGTH_SINGLE // 2, np.float32, "forward"),
             (r.MIN_LENGTH_POWER_OF_TWO // 2, np.float64, "ortho"),
             (even_balanced(r.MIN_LENGTH - 2, -2), np.float64, None),
             (even_balanced(r.MIN_LENGTH - 2, -2), np.float32, None),
             (even_balanced(r.MIN_LENGTH_SINGLE - 2, -2), np.float32, "ortho")]
    for n, dtype, norm in above + below:
        h = random_array(n, dtype)
        got, taken = rfft_and_taken(rfft_lines, on(device, h), norm=norm)
        assert taken == ((n, dtype, norm) in above and device == "cpu"), (n, dtype, norm)
        if not taken and device == "cpu":
            np.testing.assert_array_equal(got.get(), np.fft.rfft(h, norm=norm))


def test_rfft_line_small_lengths(device, monkeypatch, rfft_lines):
    """The index mapping on lengths of every shape (n1, n2 odd or even, n/2 odd),
    the thresholds lowered and blocks of a few rows."""
    for name in ("MIN_LENGTH", "MIN_LENGTH_POWER_OF_TWO", "MIN_LENGTH_SINGLE", "MIN_SIZE"):
        monkeypatch.setattr(fft_rfft_line, name, 1)
    monkeypatch.setattr(fft_rfft_line, "BLOCK_BYTES", 256)
    monkeypatch.setattr(fft_four_step, "MIN_FACTOR", 2)
    fft_four_step.factors.cache_clear()
    lengths = (8, 12, 18, 30, 50, 98, 128, 210, 486, 686, 2000, 2 * 2**11 * 3**2)
    try:
        for n in lengths:
            for dtype in (np.float32, np.float64):
                h = random_array(n, dtype)
                for norm in (None, "ortho", "forward"):
                    rfft_close(ca.fft.rfft(on(device, h), norm=norm), h, norm)
    finally:
        fft_four_step.factors.cache_clear()
    assert rfft_lines == [device == "cpu"] * (len(lengths) * 6)


@pytest.mark.parametrize("dtype, norm", [(np.float32, None), (np.float32, "ortho"),
                                         (np.float64, "forward")])
def test_rfft_line_n_pads_and_crops(device, rfft_lines, dtype, norm):
    n = path_length(dtype, norm)
    h = random_array(n + 100, dtype)
    short = h[:1000].copy()  # far below MIN_SIZE: n= alone brings it in
    for src in (h, h[:n - 10], short):
        rfft_close(ca.fft.rfft(on(device, src), n=n, norm=norm), src, norm, n=n)
    rfft_close(ca.fft.rfft(on(device, h), n=np.int64(n), norm=norm), h, norm, n=n)
    assert rfft_lines == [device == "cpu"] * 4


def test_rfft_line_out(device, rfft_lines):
    n = path_length(np.float32, None)
    h = random_array(n, np.float32)
    x = on(device, h)
    out = ca.empty(n // 2 + 1, dtype=np.complex64, device=device)
    assert ca.fft.rfft(x, out=out) is out
    rfft_close(out, h, None)
    strided = ca.zeros(n + 2, dtype=np.complex64, device=device)
    assert ca.fft.rfft(x, out=strided[::2]) is not None
    rfft_close(strided[::2], h, None)
    assert not strided[1::2].get().any()
    assert rfft_lines == [device == "cpu"] * 2
    # out= of another dtype: the one call as before
    wide = ca.empty(n // 2 + 1, dtype=np.complex128, device=device)
    ca.fft.rfft(x, out=wide)
    if device == "cpu":
        want = np.fft.rfft(h, out=np.empty(n // 2 + 1, np.complex128))
        np.testing.assert_array_equal(wide.get(), want)
    assert rfft_lines[2:] == [False]


def test_rfft_line_layouts(device, rfft_lines):
    """A line along either axis of a 2-D array takes the path; a strided line, a
    misaligned one, several lines, an odd length and integer data do not."""
    n = path_length(np.float32, None)
    h = random_array(n, np.float32)
    row, col = h.reshape(1, n), h.reshape(n, 1)
    r = ca.fft.rfft(on(device, row))
    assert r.shape == (1, n // 2 + 1)
    rfft_close(r[0], h, None)
    r = ca.fft.rfft(on(device, col), axis=0)
    assert r.shape == (n // 2 + 1, 1)
    rfft_close(r[:, 0], h, None)
    assert rfft_lines == [device == "cpu"] * 2
    rfft_lines.clear()
    wide = random_array(2 * n + 2, np.float32)
    x = on(device, wide)
    two = random_array((2, n), np.float32)
    ints = (h * 100).astype(np.int64)
    cases = [(x[:2 * n:2], wide[:2 * n:2]), (x[1:n + 1], wide[1:n + 1]),
             (on(device, two), two), (x[:n + 1], wide[:n + 1]), (on(device, ints), ints)]
    for a, ha in cases:
        r = ca.fft.rfft(a)
        if device == "cpu":
            np.testing.assert_array_equal(r.get(), np.fft.rfft(ha))
    assert True not in rfft_lines


def test_rfft_line_same_bits_on_one_thread(device, monkeypatch, rfft_lines):
    if device != "cpu":
        pytest.skip("the cpu device's path")
    r = fft_rfft_line
    for n, dtype, norm in ((r.MIN_LENGTH_POWER_OF_TWO, np.float64, "ortho"),
                           (r.MIN_LENGTH, np.float32, None),
                           (even_balanced(r.MIN_LENGTH_SINGLE, 2), np.float32, "forward")):
        x = on(device, random_array(n, dtype))
        monkeypatch.setattr(_host_threads, "ENABLED", True)
        two = ca.fft.rfft(x, norm=norm).get()
        monkeypatch.setattr(_host_threads, "ENABLED", False)
        one = ca.fft.rfft(x, norm=norm).get()
        assert one.dtype == two.dtype and np.array_equal(one, two)
    assert rfft_lines == [True] * 6


def test_rfft_line_round_trip_and_twiddle_cache(device):
    n = path_length(np.float64, None)
    h = random_array(n, np.float64)
    for norm in ("backward", "ortho", "forward"):
        back = ca.fft.irfft(ca.fft.rfft(on(device, h), norm=norm), n=n, norm=norm)
        assert rfft_rel_error(back.get(), h.astype(np.longdouble)) < 1e-14
    assert len(fft_rfft_line._TWIDDLES) <= fft_rfft_line._TWIDDLES_KEPT
