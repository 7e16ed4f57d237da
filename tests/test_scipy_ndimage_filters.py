"""cuarray.scipy.ndimage's filters against SciPy: correlations, Gaussian, uniform,
Sobel/Prewitt/Laplace, min/max, rank/median/percentile, generic_* — every mode,
origins, dtypes, edges and SciPy's exceptions.

Tests that take `route` run twice on the cpu device: SciPy's own routine on views
('scipy') and the kernels' host loops ('composition', CPU_SCIPY off)."""

import numpy as np
import pytest

import cuarray as ca
import cuarray.scipy.ndimage as cn

from conftest import ROUTES, random_array
from ndimage_cases import MODES, check, route_of, same_error, tol
from test_scipy_fft import _names  # the shared names file's reader

FILTER_MODES = ["reflect", "constant", "nearest", "mirror", "wrap"]
DTYPES = [np.uint8, np.int16, np.int32, np.int64, np.float32, np.float64]


@pytest.fixture(params=ROUTES)
def route(request, monkeypatch, device):
    return route_of(request, monkeypatch, device)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("origin", [-1, 0, 1])
@pytest.mark.parametrize("fn", ["correlate1d", "convolve1d"])
@pytest.mark.parametrize("axis", [0, -1])
def test_correlate1d_modes(route, device, fn, mode, origin, axis):
    x = random_array((9, 11), np.float64)
    check(fn, device, x, [1.0, -2.0, 3.5, 0.25], axis=axis, mode=mode, cval=1.5,
          origin=origin)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn", ["correlate1d", "convolve1d"])
def test_correlate1d_dtypes(route, device, fn, dtype):
    x = random_array((6, 7), dtype)
    check(fn, device, x, [0.5, 1.0, 0.5], **tol(dtype))
    check(fn, device, x, [1.0, 2.0, 3.0], output=np.float32, rtol=2e-6, atol=1e-5)


@pytest.mark.parametrize("size", [1, 2, 5, 30])
def test_correlate1d_lengths(route, device, size):
    # weights longer than the line: the boundary folds several times
    x = random_array((3, size), np.float64)
    for mode in FILTER_MODES:
        check("correlate1d", device, x, np.arange(1.0, 8.0), mode=mode)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fn", ["correlate", "convolve"])
@pytest.mark.parametrize("origin", [0, (1, -1), (-1, 0)])
def test_correlate_nd(route, device, fn, mode, origin):
    x = random_array((8, 9), np.float64)
    w = random_array((3, 4), np.float64)
    w[1, 2] = 0.0
    check(fn, device, x, w, mode=mode, cval=-2.0, origin=origin)


@pytest.mark.parametrize("dtype", DTYPES)
def test_correlate_nd_dtypes(route, device, dtype):
    x = random_array((5, 6, 4), dtype)
    w = np.array([[[1.0, 2.0], [0.0, -1.0]], [[3.0, 0.5], [1.0, 1.0]]])
    check("correlate", device, x, w, **tol(dtype))
    check("convolve", device, x, w[0], axes=(0, 2), **tol(dtype))


def test_correlate_complex(route, device):
    x = random_array((7, 6), np.complex128)
    w = random_array((3,), np.complex128)
    check("correlate1d", device, x, w)
    check("convolve1d", device, x.real.copy(), w)
    check("correlate", device, x, np.array([[1.0, 2.0], [3.0, 4.0]]))


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("mode", FILTER_MODES)
def test_gaussian(route, device, dtype, mode):
    x = random_array((12, 10), dtype)
    t = tol(dtype)
    check("gaussian_filter", device, x, 1.5, mode=mode, **t)
    check("gaussian_filter", device, x, (1.0, 0.7), order=(1, 2), mode=mode, **t)
    check("gaussian_filter1d", device, x, 2.0, axis=0, order=3, mode=mode, **t)
    check("gaussian_filter", device, x, 3.0, radius=2, truncate=1.0, **t)
    check("gaussian_filter", device, x, [0, 2.0], output=np.float64)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.float64])
@pytest.mark.parametrize("fn", ["sobel", "prewitt", "laplace"])
@pytest.mark.parametrize("mode", FILTER_MODES)
def test_stencils(route, device, dtype, fn, mode):
    x = random_array((7, 8, 3), dtype)
    t = tol(dtype)
    if fn == "laplace":
        check(fn, device, x, mode=mode, **t)
    else:
        check(fn, device, x, axis=1, mode=mode, **t)
        check(fn, device, x, axis=0, mode=mode, output=np.float64)


@pytest.mark.parametrize("fn", ["gaussian_laplace", "gaussian_gradient_magnitude"])
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_gaussian_derivatives(route, device, fn, dtype):
    x = random_array((9, 10), dtype)
    check(fn, device, x, 1.2, **tol(dtype))
    check(fn, device, x, (1.0, 2.0), mode="nearest", **tol(dtype))


def test_generic_laplace_gradient(route, device):
    x = random_array((8, 9), np.float64)

    def d2(inp, axis, output, mode, cval, scale):
        return cn.correlate1d(inp, [scale, -2 * scale, scale], axis, output, mode, cval)

    def d2_np(inp, axis, output, mode, cval, scale):
        import scipy.ndimage as nd
        return nd.correlate1d(inp, [scale, -2 * scale, scale], axis, output, mode, cval)

    import scipy.ndimage as nd
    want = nd.generic_laplace(x, d2_np, extra_arguments=(0.5,))
    got = cn.generic_laplace(ca.asarray(x, device=device), d2, extra_arguments=(0.5,))
    np.testing.assert_allclose(got.get(), want, rtol=1e-12)
    want = nd.generic_gradient_magnitude(x, nd.sobel)
    got = cn.generic_gradient_magnitude(ca.asarray(x, device=device), cn.sobel)
    np.testing.assert_allclose(got.get(), want, rtol=1e-12)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", FILTER_MODES)
def test_uniform(route, device, dtype, mode):
    x = random_array((10, 9), dtype)
    t = tol(dtype)
    check("uniform_filter", device, x, 3, mode=mode, cval=2.0, **t)
    check("uniform_filter", device, x, (2, 4), mode=mode, origin=(0, 1), **t)
    check("uniform_filter1d", device, x, 5, axis=0, mode=mode, origin=-2, **t)


@pytest.mark.parametrize("dtype", DTYPES + [np.bool_])
@pytest.mark.parametrize("mode", FILTER_MODES)
@pytest.mark.parametrize("fn", ["minimum_filter", "maximum_filter"])
def test_minmax(route, device, dtype, mode, fn):
    x = random_array((9, 8), dtype)
    check(fn, device, x, size=3, mode=mode, cval=1)
    check(fn, device, x, size=(2, 4), mode=mode, origin=(-1, 1))
    fp = np.array([[1, 0, 1], [0, 1, 1]], dtype=bool)
    check(fn, device, x, footprint=fp, mode=mode, origin=(0, -1))
    check(fn, device, x, footprint=fp, mode=mode, cval=-1.5)
    check(fn + "1d", device, x, 4, axis=0, mode=mode, origin=1)


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("mode", FILTER_MODES)
def test_rank_median_percentile(route, device, dtype, mode):
    x = random_array((8, 9), dtype)
    check("median_filter", device, x, size=3, mode=mode, cval=-1)
    check("median_filter", device, x, size=3, mode=mode, cval=300.7)
    fp = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]], dtype=bool)
    check("median_filter", device, x, footprint=fp, mode=mode, origin=(1, 0))
    check("rank_filter", device, x, 2, size=(3, 2), mode=mode)
    check("rank_filter", device, x, -2, size=4, mode=mode)
    check("rank_filter", device, x, 0, size=3, mode=mode)
    check("percentile_filter", device, x, 30, size=3, mode=mode)
    check("percentile_filter", device, x, -20, footprint=fp, mode=mode)
    check("percentile_filter", device, x, 100, size=2, mode=mode)


def test_axes(route, device):
    x = random_array((6, 7, 5), np.float64)
    check("gaussian_filter", device, x, 1.0, axes=(0, 2))
    check("uniform_filter", device, x, 3, axes=(1,))
    check("minimum_filter", device, x, size=3, axes=(0, -1))
    check("median_filter", device, x, size=(3, 2), axes=(2, 0))
    check("correlate", device, x, np.ones((2, 3)), axes=(0, 1))


def test_edges(route, device):
    for shape in [(1,), (1, 1), (0,), (3, 0)]:
        x = random_array(shape, np.float64)
        check("correlate1d", device, x, [1.0, 2.0])
        check("gaussian_filter", device, x, 1.0)
        check("uniform_filter", device, x, 3)
        check("median_filter", device, x, size=2)
        check("maximum_filter", device, x, size=2)
        check("correlate", device, x, np.ones((2,) * x.ndim))


def test_output_argument(route, device):
    x = random_array((6, 6), np.float64)
    out = ca.zeros((6, 6), dtype=np.float32, device=device)
    r = cn.gaussian_filter(ca.asarray(x, device=device), 1.0, output=out)
    import scipy.ndimage as nd
    np.testing.assert_allclose(out.get(), nd.gaussian_filter(x, 1.0, output=np.float32),
                               rtol=1e-6)
    assert r is out
    check("sobel", device, x, output="float32", rtol=1e-6, atol=1e-5)


def test_errors(route, device):
    x = random_array((5, 6), np.float64)
    same_error("correlate1d", device, x, [])
    same_error("correlate1d", device, x, [1.0, 2.0], axis=2)
    same_error("correlate1d", device, x, [1.0, 2.0, 3.0], origin=2)
    same_error("correlate1d", device, x, [1.0], mode="bogus")
    same_error("correlate", device, x, np.ones(3))
    same_error("uniform_filter1d", device, x, 0)
    same_error("minimum_filter", device, x)
    same_error("minimum_filter", device, x, footprint=np.zeros((2, 2), bool))
    same_error("rank_filter", device, x, 10, size=3)
    same_error("percentile_filter", device, x, 120, size=3)
    same_error("gaussian_filter1d", device, x, 1.0, order=-1)
    same_error("gaussian_filter", device, x, 1.0, output=np.zeros((2, 2)))
    same_error("median_filter", device, x.astype(complex), size=3)
    same_error("correlate1d", device, np.float64(1.0), [1.0])


def test_generic_filters(device):
    x = random_array((6, 7), np.float64)
    if device != "cpu":
        with pytest.raises(NotImplementedError):
            cn.generic_filter(ca.asarray(x, device=device), np.mean, size=3)
        return
    check("generic_filter", device, x, np.ptp, size=3)
    check("generic_filter", device, x, np.sum, footprint=np.eye(3), mode="constant")

    def f1(iline, oline):
        oline[...] = iline[:-2] + 2 * iline[2:]
    check("generic_filter1d", device, x, f1, 3, axis=0)


NAMES = _names()


@pytest.mark.skipif(NAMES is None, reason="scipy-names.json not present")
def test_every_listed_name():
    assert sorted(cn.__all__) == sorted(NAMES["scipy.ndimage"])
    assert len(cn.__all__) == 70


def test_signatures():
    import inspect

    import scipy.ndimage as nd
    for name in cn.__all__:
        want = inspect.signature(getattr(nd, name)).parameters
        got = inspect.signature(getattr(cn, name)).parameters
        assert list(got) == list(want), name
        for p in want:
            assert got[p].kind == want[p].kind, (name, p)


def test_line_axis():
    # which filters a GPU tiles: taps along one axis, consecutive, in order
    from cuarray.scipy.ndimage._filters import _MIN, _RANK, _line_axis, _line_offsets
    assert _line_axis(_line_offsets(3, 1, 5, 1), _MIN) == 1
    assert _line_axis(_line_offsets(2, 1, 1, 0), _MIN) == 1
    assert _line_axis(_line_offsets(2, 0, 4, 0), _RANK) == -1
    assert _line_axis(np.array([[0, -1], [0, 1]]), _MIN) == -1
    assert _line_axis(np.array([[0, 0], [1, 1]]), _MIN) == -1
    assert _line_axis(np.array([[2, 0]]), _MIN) == 0


ZERO_D = [("gaussian_filter", (1.0,), {}), ("uniform_filter", (), {}),
          ("median_filter", (), {"size": 1}), ("minimum_filter", (), {"size": 1}),
          ("correlate", (np.array(2.0),), {}), ("laplace", (), {}),
          ("grey_erosion", (), {"size": 1}), ("binary_erosion", (), {}),
          ("binary_dilation", (), {}), ("spline_filter", (), {}), ("sum", (), {})]
ZERO_D_ERRORS = [("sobel", (), {}), ("correlate1d", ([1.0],), {}), ("zoom", (2,), {}),
                 ("shift", (1,), {}), ("fourier_gaussian", (1.0,), {}),
                 ("map_coordinates", (np.zeros((0, 2)),), {})]


@pytest.mark.parametrize("name, args, kwargs", ZERO_D)
def test_zero_d(route, device, name, args, kwargs):
    check(name, device, np.array(2.5), *args, **kwargs)


@pytest.mark.parametrize("name, args, kwargs", ZERO_D_ERRORS)
def test_zero_d_errors(route, device, name, args, kwargs):
    same_error(name, device, np.array(2.5), *args, **kwargs)


@pytest.mark.parametrize("name, args, kwargs", [
    ("correlate1d", ([1.0, 2.0],), {}), ("correlate", (np.ones((2, 2)),), {}),
    ("gaussian_filter", (1.0,), {}), ("minimum_filter", (), {"size": 2}),
    ("median_filter", (), {"size": 3}), ("zoom", (2,), {}), ("spline_filter", (), {}),
    ("map_coordinates", (np.zeros((2, 3)),), {}), ("binary_erosion", (), {}),
    ("label", (), {}), ("fourier_gaussian", (1.0,), {})])
def test_float16_refused(route, device, name, args, kwargs):
    # SciPy's C layer has no float16 loops; neither do we pretend to
    same_error(name, device, np.arange(12, dtype=np.float16).reshape(3, 4), *args,
               **kwargs)
