"""Matrix products against NumPy: matmul/@, dot, vdot, inner, outer, tensordot.

Every test runs on the devices of the ``ldev`` fixture: "cpu" (NumPy's matmul on
zero-copy views), "cpu-plan" (the cpu device routed through the cuBLAS call plan
with a host stand-in for cuBLAS, so the plan's operation flags, leading
dimensions, batch strides and copies are checked without a GPU), "cpu-tiled"
(every float32/float64 product through the host loops of cuarray's tiled
kernel), and where a GPU is present "cuda:0" (the default routing: cuarray's
tiled kernel for bool, integers and small float32/float64 products, cuBLAS for
the rest) and "cuda:0-blas" (every float product through cuBLAS).

Results are compared with NumPy computed in float64/complex128 on the same
inputs, within k * eps * (|A| @ |B|) per element; integer and bool products must
equal NumPy's exactly (NumPy wraps on overflow, and so must we).
"""

import numpy as np
import pytest

import cuarray as ca
from cuarray import _core
from conftest import ALL_DTYPES, requires_gpu, random_array

LDEVS = ["cpu", "cpu-plan", "cpu-tiled", pytest.param("cuda:0", marks=requires_gpu),
         pytest.param("cuda:0-blas", marks=requires_gpu)]
NO_SMALL = (0, 0)            # _linalg_small_limits: no float product is small
ALL_SMALL = (2**62, 2**62)   # every float32/float64 product is small


@pytest.fixture(params=LDEVS)
def ldev(request):
    """The device string; "cpu-plan" and "cpu-tiled" turn on the emulation (the
    cpu device through the GPU routing with host stand-ins), "-plan" and
    "-blas" send every float product to the cuBLAS plan, "-tiled" every
    float32/float64 product to the tiled kernel's host loops."""
    p = request.param
    emulate = p.startswith("cpu-")
    limits = {"cpu-plan": NO_SMALL, "cpu-tiled": ALL_SMALL, "cuda:0-blas": NO_SMALL}.get(p)
    old_emulate = _core._linalg_emulate(True) if emulate else None
    old_limits = _core._linalg_small_limits(*limits) if limits else None
    try:
        yield "cpu" if emulate else p.split("-")[0]
    finally:
        if old_limits is not None:
            _core._linalg_small_limits(*old_limits)
        if emulate:
            _core._linalg_emulate(old_emulate)


INEXACT = {np.dtype(t) for t in (np.float16, np.float32, np.float64, np.complex64,
                                 np.complex128)}
# per-element bound: |C - ref| <= TOL * (|A| @ |B|) + tiny
TOL = {np.float16: 4e-3, np.float32: 2e-6, np.float64: 1e-14, np.complex64: 4e-6,
       np.complex128: 2e-14}


def wide(h):
    if h.dtype.kind == "c":
        return h.astype(np.complex128)
    return h.astype(np.float64)


def check_product(got, h1, h2, op=np.matmul):
    """got: a cuarray result; h1, h2: the NumPy operands."""
    assert isinstance(got, ca.ndarray)
    g = got.get()
    ref = op(h1, h2)
    assert g.shape == ref.shape
    assert g.dtype == ref.dtype, (g.dtype, ref.dtype)
    if g.dtype in INEXACT:
        exact = op(wide(h1), wide(h2))
        bound = op(np.abs(wide(h1)).real, np.abs(wide(h2)).real)
        tol = TOL[g.dtype.type]
        err = np.abs(g.astype(exact.dtype) - exact)
        assert np.all(err <= tol * bound + 1e-30), (err.max(), (tol * bound).max())
    else:
        np.testing.assert_array_equal(g, ref)


def on(dev, h):
    """h (NumPy) on the device, C-ordered."""
    return ca.asarray(np.array(h, order="C"), device=dev, copy=True)


def laid_out(dev, h, layout):
    """A cuarray array with h's values on dev in `layout`:
    'C', 'F', 'T' (a transposed view of C-ordered data), 'step' (every other
    element of a bigger array), 'neg' (negative strides)."""
    if layout == "C":
        return on(dev, h)
    if layout == "T":
        return on(dev, np.ascontiguousarray(np.swapaxes(h, -1, -2))).mT
    if layout == "F":
        return ca.asfortranarray(on(dev, h))
    big_shape = h.shape[:-2] + (2 * h.shape[-2], 3 * h.shape[-1])
    big = np.zeros(big_shape, h.dtype)
    if layout == "step":
        big[..., ::2, ::3] = h
        sl = (Ellipsis, slice(None, None, 2), slice(None, None, 3))
    else:  # neg
        big[..., ::-2, ::-3] = h
        sl = (Ellipsis, slice(None, None, -2), slice(None, None, -3))
    if dev == "cpu":
        v = ca.asarray(big[sl], device="cpu", copy=False)
        assert v.strides == big[sl].strides
        return v
    b = ca.asarray(big, device=dev)
    try:
        return b[sl]
    except TypeError:
        pytest.skip("needs basic indexing on this device")


# ------------------------------------------------------------------ matmul
SHAPES = [
    ((5,), (5,)),              # vector . vector -> 0-d
    ((4,), (4, 3)),            # vector @ matrix
    ((3, 4), (4,)),            # matrix @ vector
    ((1, 1), (1, 1)),
    ((5, 7), (7, 3)),
    ((1, 6), (6, 9)),
    ((8, 6), (6, 1)),
    ((33, 17), (17, 20)),
    ((3, 4, 5), (3, 5, 2)),    # batch
    ((2, 1, 4, 5), (3, 5, 2)),  # broadcast batch
    ((4, 5), (3, 5, 2)),       # matrix broadcast over a batch
    ((3, 4, 5), (5, 2)),
    ((2, 3, 4, 5), (5,)),      # batch @ vector
    ((5,), (2, 3, 5, 4)),      # vector @ batch
    ((2, 1, 3, 4), (1, 2, 4, 3)),
]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("s1,s2", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_matmul_shapes(ldev, dtype, s1, s2):
    rng = np.random.default_rng(hash((s1, s2)) & 0xFFFF)
    h1 = random_array(s1, dtype, rng)
    h2 = random_array(s2, dtype, rng)
    a, b = on(ldev, h1), on(ldev, h2)
    check_product(ca.matmul(a, b), h1, h2)
    check_product(a @ b, h1, h2)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128, np.int32, np.int8, np.bool_],
                         ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("la", ["C", "F", "T", "step", "neg"])
@pytest.mark.parametrize("lb", ["C", "F", "T", "step", "neg"])
def test_matmul_layouts(ldev, dtype, la, lb):
    rng = np.random.default_rng(7)
    h1 = random_array((6, 5), dtype, rng)
    h2 = random_array((5, 4), dtype, rng)
    a, b = laid_out(ldev, h1, la), laid_out(ldev, h2, lb)
    np.testing.assert_array_equal(a.get(), h1)
    np.testing.assert_array_equal(b.get(), h2)
    check_product(a @ b, h1, h2)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.int64],
                         ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("la", ["C", "T", "step"])
@pytest.mark.parametrize("lb", ["C", "F", "neg"])
def test_matmul_layouts_batched(ldev, dtype, la, lb):
    rng = np.random.default_rng(8)
    h1 = random_array((3, 6, 5), dtype, rng)
    h2 = random_array((3, 5, 4), dtype, rng)
    a, b = laid_out(ldev, h1, la), laid_out(ldev, h2, lb)
    check_product(a @ b, h1, h2)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int16, np.bool_],
                         ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("s1,s2", [((0, 3), (3, 4)), ((3, 0), (0, 4)), ((3, 4), (4, 0)),
                                   ((0,), (0,)), ((2, 0, 3), (2, 3, 4)), ((0, 2, 3), (3, 4)),
                                   ((2, 3, 0), (2, 0, 5)), ((0,), (0, 3))])
def test_matmul_empty(ldev, dtype, s1, s2):
    h1 = random_array(s1, dtype)
    h2 = random_array(s2, dtype)
    got = ca.matmul(on(ldev, h1), on(ldev, h2))
    ref = np.matmul(h1, h2)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    np.testing.assert_array_equal(got.get(), ref)  # k == 0: zeros


@pytest.mark.parametrize("t1,t2", [(np.int8, np.uint8), (np.int32, np.float32),
                                   (np.float16, np.float32), (np.float32, np.complex64),
                                   (np.bool_, np.int16), (np.uint64, np.float64)],
                         ids=str)
def test_matmul_mixed_dtypes(ldev, t1, t2):
    rng = np.random.default_rng(3)
    h1 = random_array((4, 5), t1, rng)
    h2 = random_array((5, 3), t2, rng)
    check_product(on(ldev, h1) @ on(ldev, h2), h1, h2)


def test_matmul_int_wraps(ldev):
    h1 = np.full((3, 40), 100, np.int8)
    h2 = np.full((40, 2), 77, np.int8)
    got = (on(ldev, h1) @ on(ldev, h2)).get()
    np.testing.assert_array_equal(got, h1 @ h2)
    h1 = np.full((2, 3), 2**62 + 12345, np.int64)
    got = (on(ldev, h1) @ on(ldev, h1.T.copy())).get()
    np.testing.assert_array_equal(got, h1 @ h1.T)


def test_matmul_larger(ldev):
    rng = np.random.default_rng(5)
    h1 = rng.standard_normal((130, 70)).astype(np.float32)
    h2 = rng.standard_normal((70, 90)).astype(np.float32)
    check_product(on(ldev, h1) @ on(ldev, h2), h1, h2)


def test_matmul_out(ldev):
    rng = np.random.default_rng(11)
    h1 = random_array((2, 4, 5), np.float64, rng)
    h2 = random_array((2, 5, 3), np.float64, rng)
    a, b = on(ldev, h1), on(ldev, h2)
    # C-ordered out of the result dtype: written in place
    out = ca.empty((2, 4, 3), dtype=np.float64, device=ldev)
    r = ca.matmul(a, b, out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), h1 @ h2, rtol=1e-12)
    # out as a 1-tuple, ufunc style
    r = ca.matmul(a, b, out=(out,))
    assert r is out
    # another dtype (same_kind cast)
    out32 = ca.zeros((2, 4, 3), dtype=np.float32, device=ldev)
    assert ca.matmul(a, b, out=out32) is out32
    np.testing.assert_allclose(out32.get(), (h1 @ h2).astype(np.float32), rtol=1e-5)
    # an F-ordered out
    outf = ca.asfortranarray(ca.zeros((4, 3), dtype=np.float64, device=ldev))
    assert ca.matmul(on(ldev, h1[0]), on(ldev, h2[0]), out=outf) is outf
    np.testing.assert_allclose(outf.get(), h1[0] @ h2[0], rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.int32],
                         ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("layout", ["F", "T", "step", "neg"])
def test_matmul_strided_out(ldev, dtype, layout):
    """out= in any layout is written in place (cuBLAS: C = A B for column-major
    outputs, through a temporary for layouts cuBLAS cannot write)."""
    rng = np.random.default_rng(12)
    h1 = random_array((2, 5, 4), dtype, rng)
    h2 = random_array((2, 4, 3), dtype, rng)
    out = laid_out(ldev, np.zeros((2, 5, 3), dtype), layout)
    assert ca.matmul(on(ldev, h1), on(ldev, h2), out=out) is out
    check_product(out, h1, h2)


def test_matmul_out_errors(ldev):
    a = on(ldev, np.ones((2, 3)))
    b = on(ldev, np.ones((3, 4)))
    with pytest.raises(ValueError):
        ca.matmul(a, b, out=ca.empty((2, 5), device=ldev))
    with pytest.raises(TypeError):
        ca.matmul(a, b, out=ca.empty((2, 4), dtype=np.int64, device=ldev))
    with pytest.raises(TypeError):
        ca.matmul(a, b, out=np.empty((2, 4)))


def test_imatmul(ldev):
    rng = np.random.default_rng(2)
    h1 = random_array((4, 4), np.float64, rng)
    h2 = random_array((4, 4), np.float64, rng)
    a = on(ldev, h1)
    a0 = a
    a @= on(ldev, h2)
    assert a is a0
    np.testing.assert_allclose(a.get(), h1 @ h2, rtol=1e-12)
    # a @= a reads a while writing it: must go through a temporary
    a @= a
    np.testing.assert_allclose(a.get(), (h1 @ h2) @ (h1 @ h2), rtol=1e-12)
    with pytest.raises(ValueError):
        a @= on(ldev, np.ones((4, 2)))
    ai = on(ldev, np.ones((2, 2), np.int64))
    with pytest.raises(TypeError):
        ai @= on(ldev, np.ones((2, 2)))


def test_matmul_dtype_kw(ldev):
    h1 = np.arange(6, dtype=np.float32).reshape(2, 3)
    h2 = np.arange(12, dtype=np.float32).reshape(3, 4)
    got = ca.matmul(on(ldev, h1), on(ldev, h2), dtype=np.float64)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got.get(), h1.astype(np.float64) @ h2)
    with pytest.raises(TypeError):
        ca.matmul(on(ldev, h1), on(ldev, h2), dtype=np.int32)


@pytest.mark.parametrize("s1,s2", [((2, 3), (4, 5)), ((3,), (4,)), ((2, 2, 3), (3, 3, 2)),
                                   ((3, 2, 3), (2, 3, 5))])
def test_matmul_bad_shapes(ldev, s1, s2):
    with pytest.raises(ValueError):
        np.matmul(np.ones(s1), np.ones(s2))
    with pytest.raises(ValueError):
        ca.matmul(on(ldev, np.ones(s1)), on(ldev, np.ones(s2)))


def test_matmul_0d_and_scalars(ldev):
    a = on(ldev, np.ones((2, 2)))
    with pytest.raises(ValueError, match="enough dimensions"):
        ca.matmul(on(ldev, np.array(2.0)), a)
    with pytest.raises(ValueError):
        ca.matmul(a, 3.0)
    # Python sequences are converted onto the other operand's device
    got = a @ [[1.0, 2.0], [3.0, 4.0]]
    np.testing.assert_array_equal(got.get(), np.ones((2, 2)) @ [[1, 2], [3, 4]])
    got = [[1.0, 2.0]] @ a
    np.testing.assert_array_equal(got.get(), [[3.0, 3.0]])
    # unknown types: NotImplemented -> TypeError from Python
    with pytest.raises(TypeError):
        a @ "ab"
    with pytest.raises(TypeError):
        a @ object()


def test_linalg_namespace():
    assert ca.linalg.matmul is ca.matmul
    assert ca.linalg.tensordot is ca.tensordot
    old = ca.linalg.set_allow_tf32(True)
    assert ca.linalg.get_allow_tf32() is True
    ca.linalg.set_allow_tf32(old)
    assert ca.linalg.get_allow_tf32() is old


# ------------------------------------------------------------------ dot & co
DOT_SHAPES = [((), (3, 2)), ((3, 2), ()), ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 2)),
              ((3, 4), (4, 2)), ((2, 3, 4), (4,)), ((2, 3, 4), (4, 5)),
              ((2, 3, 4), (5, 4, 2)), ((3, 4), (2, 4, 5)), ((0, 4), (4, 3))]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int32,
                                   np.bool_, np.float16],
                         ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("s1,s2", DOT_SHAPES, ids=lambda s: "x".join(map(str, s)) or "0d")
def test_dot(ldev, dtype, s1, s2):
    rng = np.random.default_rng(13)
    h1 = random_array(s1, dtype, rng)
    h2 = random_array(s2, dtype, rng)
    check_product(ca.dot(on(ldev, h1), on(ldev, h2)), h1, h2, op=np.dot)
    check_product(on(ldev, h1).dot(on(ldev, h2)), h1, h2, op=np.dot)


def test_dot_out_and_errors(ldev):
    h1 = np.arange(6.0).reshape(2, 3)
    h2 = np.arange(12.0).reshape(3, 4)
    out = ca.empty((2, 4), device=ldev)
    assert ca.dot(on(ldev, h1), on(ldev, h2), out=out) is out
    np.testing.assert_array_equal(out.get(), h1 @ h2)
    h3 = np.arange(24.0).reshape(2, 3, 4)
    h4 = np.arange(40.0).reshape(2, 4, 5)
    out = ca.empty((2, 3, 2, 5), device=ldev)
    assert ca.dot(on(ldev, h3), on(ldev, h4), out=out) is out
    np.testing.assert_array_equal(out.get(), np.dot(h3, h4))
    with pytest.raises(ValueError, match="not aligned"):
        ca.dot(on(ldev, h1), on(ldev, h1))
    with pytest.raises(ValueError, match="not aligned"):
        ca.dot(on(ldev, np.ones(3)), on(ldev, np.ones(4)))
    with pytest.raises(ValueError):
        ca.dot(on(ldev, h1), on(ldev, h2), out=ca.empty((4, 2), device=ldev))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128,
                                   np.int64, np.uint8, np.bool_, np.float16],
                         ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("s1,s2", [((7,), (7,)), ((2, 3), (3, 2)), ((2, 3), (6,)), ((0,), (0,))])
def test_vdot(ldev, dtype, s1, s2):
    rng = np.random.default_rng(17)
    h1 = random_array(s1, dtype, rng)
    h2 = random_array(s2, dtype, rng)
    got = ca.vdot(on(ldev, h1), on(ldev, h2))
    assert isinstance(got, ca.ndarray) and got.shape == ()
    ref = np.vdot(h1, h2)
    assert got.dtype == np.asarray(ref).dtype
    if got.dtype in INEXACT:
        bound = np.vdot(np.abs(wide(h1)), np.abs(wide(h2))).real
        assert abs(complex(got.get()) - complex(np.vdot(wide(h1), wide(h2)))) <= \
            TOL[got.dtype.type] * bound + 1e-30
    else:
        assert got.get() == ref


def test_vdot_conjugates_first(ldev):
    h1 = np.array([1 + 2j, 3 - 1j], np.complex128)
    h2 = np.array([2 - 1j, 1j], np.complex128)
    assert complex(ca.vdot(on(ldev, h1), on(ldev, h2)).get()) == np.vdot(h1, h2)
    # a strided first operand (transposed storage path)
    h3 = np.arange(12).astype(np.complex64).reshape(3, 4) * (1 + 1j)
    v = laid_out(ldev, h3, "T")
    assert complex(ca.vdot(v, on(ldev, h3)).get()) == pytest.approx(np.vdot(h3, h3))
    with pytest.raises(ValueError):
        ca.vdot(on(ldev, np.ones(3)), on(ldev, np.ones(4)))


def check_pair(ldev, fn, op, s1, s2, dtype, seed):
    """fn of random operands of shapes s1 and s2 against NumPy's op."""
    rng = np.random.default_rng(seed)
    h1 = random_array(s1, dtype, rng)
    h2 = random_array(s2, dtype, rng)
    check_product(fn(on(ldev, h1), on(ldev, h2)), h1, h2, op=op)


@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.int16],
                         ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("s1,s2", [((4,), (4,)), ((2, 4), (3, 4)), ((2, 3, 4), (4,)),
                                   ((), (3, 4)), ((2, 3, 4), (5, 4))])
def test_inner(ldev, dtype, s1, s2):
    check_pair(ldev, ca.inner, np.inner, s1, s2, dtype, 19)


def test_inner_bad(ldev):
    with pytest.raises(ValueError):
        ca.inner(on(ldev, np.ones((2, 3))), on(ldev, np.ones((4, 5))))


@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.int8, np.bool_],
                         ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("s1,s2", [((4,), (3,)), ((2, 2), (3,)), ((0,), (3,)), ((1,), (1,))])
def test_outer(ldev, dtype, s1, s2):
    check_pair(ldev, ca.outer, np.outer, s1, s2, dtype, 23)


def test_outer_out(ldev):
    out = ca.empty((3, 2), dtype=np.float32, device=ldev)
    r = ca.outer(on(ldev, np.arange(3.0)), on(ldev, np.arange(2.0)), out=out)
    assert r is out
    np.testing.assert_array_equal(out.get(), np.outer(np.arange(3.0), np.arange(2.0)))


TENSORDOT_CASES = [
    ((3, 4, 5), (4, 5, 2), 2),
    ((3, 4, 5), (5, 2), 1),
    ((3, 4), (5, 6), 0),
    ((3, 4, 5), (3, 4, 5), 3),
    ((3, 4, 5), (4, 3, 2), ([1, 0], [0, 1])),
    ((3, 4, 5), (5, 3), ([0, 2], [1, 0])),
    ((2, 3, 4), (4, 3, 2), ([-1], [0])),
    ((2, 3), (3, 2), (1, 0)),
]


@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.int32, np.float16],
                         ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("s1,s2,axes", TENSORDOT_CASES, ids=str)
def test_tensordot(ldev, dtype, s1, s2, axes):
    rng = np.random.default_rng(29)
    h1 = random_array(s1, dtype, rng)
    h2 = random_array(s2, dtype, rng)

    def op(x, y):
        return np.tensordot(x, y, axes=axes)

    check_product(ca.tensordot(on(ldev, h1), on(ldev, h2), axes=axes), h1, h2, op=op)


def test_tensordot_transposed_input(ldev):
    h1 = random_array((4, 3, 5), np.float64)
    h2 = random_array((5, 3, 2), np.float64)
    a = laid_out(ldev, h1, "T")  # h1's values, last two axes stored transposed
    check_product(ca.tensordot(a, on(ldev, h2), axes=([1, 2], [1, 0])),
                  h1, h2, op=lambda x, y: np.tensordot(x, y, axes=([1, 2], [1, 0])))


def test_tensordot_bad(ldev):
    a = on(ldev, np.ones((2, 3)))
    b = on(ldev, np.ones((4, 5)))
    with pytest.raises(ValueError, match="shape-mismatch"):
        ca.tensordot(a, b, axes=1)
    with pytest.raises(ValueError):
        ca.tensordot(a, b, axes=3)
    with pytest.raises(ValueError, match="shape-mismatch"):
        ca.tensordot(a, b, axes=([0, 1], [0]))
    with pytest.raises((ValueError, IndexError)):
        ca.tensordot(a, b, axes=([5], [0]))


def test_numpy_operand_rules(ldev):
    a = on(ldev, np.ones((2, 2)))
    if ldev == "cpu":
        got = ca.matmul(a, np.ones((2, 2)))
        np.testing.assert_array_equal(got.get(), np.full((2, 2), 2.0))
    else:
        with pytest.raises(TypeError, match="NumPy array"):
            ca.matmul(a, np.ones((2, 2)))


@requires_gpu
def test_mixed_devices():
    a = ca.ones((2, 2), device="cpu")
    b = ca.ones((2, 2), device="cuda:0")
    with pytest.raises(ValueError, match="different devices"):
        a @ b


@requires_gpu
def test_gpu_tf32_switch():
    rng = np.random.default_rng(31)
    h1 = rng.standard_normal((256, 256)).astype(np.float32)
    h2 = rng.standard_normal((256, 256)).astype(np.float32)
    a, b = on("cuda:0", h1), on("cuda:0", h2)
    ref = h1.astype(np.float64) @ h2
    old = ca.linalg.set_allow_tf32(False)
    try:
        err_full = np.abs((a @ b).get() - ref).max()
        ca.linalg.set_allow_tf32(True)
        err_tf32 = np.abs((a @ b).get() - ref).max()
    finally:
        ca.linalg.set_allow_tf32(old)
    assert err_full < 1e-3
    assert err_tf32 < 0.5  # TF32 keeps 10 mantissa bits
    assert _core._cublas_path() is not None


def gpu_square(seed):
    """A random 64 x 64 float64 matrix on the host and on cuda:0, and a new stream."""
    h = np.random.default_rng(seed).standard_normal((64, 64))
    return h, on("cuda:0", h), ca.cuda.Stream()


@requires_gpu
def test_gpu_streams():
    h, a, s = gpu_square(37)
    with s:
        r1 = a @ a
    r2 = a @ a  # back on the default stream: the handle is re-pointed
    s.synchronize()
    np.testing.assert_allclose(r1.get(), h @ h, rtol=1e-12)
    np.testing.assert_allclose(r2.get(), h @ h, rtol=1e-12)


# ------------------------------------------- small float products: the tiled kernel
# On a GPU, float32/float64 products of at most SMALL_WORK multiply-adds with at
# most SMALL_K terms each run in cuarray's tiled kernel (one launch) instead of
# cuBLAS (csrc/ops/linalg.c, SMALL_MAX_*). On the cpu device the same routing is
# exercised with the emulation on (host loops stand in for both).
SMALL_WORK = 128 ** 3
SMALL_K = 128
SDEVS = ["cpu", pytest.param("cuda:0", marks=requires_gpu)]


@pytest.fixture(params=SDEVS)
def sdev(request):
    """The device, with the default small-product limits; the cpu device with
    the GPU routing emulated."""
    limits = _core._linalg_small_limits(SMALL_WORK, SMALL_K)
    assert limits == (SMALL_WORK, SMALL_K)  # the defaults, as documented here
    old = _core._linalg_emulate(True) if request.param == "cpu" else None
    try:
        yield request.param
    finally:
        if old is not None:
            _core._linalg_emulate(old)


def check_fp_bound(got, h1, h2):
    """|C - C64| <= k * eps * (|A| @ |B|): the bound any summation order of
    k fused or unfused multiply-adds in the element's precision satisfies."""
    g = got.get()
    assert g.dtype == np.result_type(h1, h2)
    k = h1.shape[-1]
    exact = np.matmul(h1.astype(np.float64), h2.astype(np.float64))
    bound = np.matmul(np.abs(h1.astype(np.float64)), np.abs(h2.astype(np.float64)))
    eps = np.finfo(g.dtype).eps
    err = np.abs(g.astype(np.float64) - exact)
    assert np.all(err <= k * eps * bound + 1e-300), (err.max(), (k * eps * bound).max())


FLOATS = [np.float32, np.float64]
# (batch, m, n, k), and whether the product is small; either side of each bound
THRESHOLD = [
    ((), 128, 128, 128, True),       # exactly SMALL_WORK
    ((), 128, 128, 129, False),      # k over SMALL_K
    ((), 129, 128, 128, False),      # work over
    ((), 64, 64, 64, True),          # the benchmark's size
    ((), 1, 1, 128, True),
    ((), 1, 1, 129, False),          # a long dot product stays on cuBLAS
    ((), 2048, 1024, 1, True),       # work == SMALL_WORK at k = 1
    ((), 2049, 1024, 1, False),
    ((2,), 64, 128, 128, True),      # a batch: batch * m * n * k == SMALL_WORK
    ((3,), 64, 128, 128, False),
    ((5,), 17, 33, 65, True),        # ragged tiles and a partial k step
    ((), 15, 1, 127, True),
]


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("batch,m,n,k,small", THRESHOLD,
                         ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v))
def test_small_threshold(sdev, dtype, batch, m, n, k, small):
    rng = np.random.default_rng(m * 7919 + n * 31 + k)
    h1 = rng.standard_normal(batch + (m, k)).astype(dtype)
    h2 = rng.standard_normal(batch + (k, n)).astype(dtype)
    got = on(sdev, h1) @ on(sdev, h2)
    assert _core._linalg_last_route() == ("tiled" if small else "blas")
    check_fp_bound(got, h1, h2)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("la", ["C", "F", "T", "step", "neg"])
@pytest.mark.parametrize("lb", ["C", "F", "T", "step", "neg"])
@pytest.mark.parametrize("mnk", [(37, 29, 70), (96, 120, 128)], ids=str)
def test_small_layouts(sdev, dtype, la, lb, mnk):
    m, n, k = mnk
    rng = np.random.default_rng(17)
    h1 = rng.standard_normal((m, k)).astype(dtype)
    h2 = rng.standard_normal((k, n)).astype(dtype)
    a, b = laid_out(sdev, h1, la), laid_out(sdev, h2, lb)
    got = a @ b
    assert _core._linalg_last_route() == "tiled"
    check_fp_bound(got, h1, h2)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("la", ["C", "T", "step"])
@pytest.mark.parametrize("lb", ["F", "neg"])
def test_small_layouts_batched(sdev, dtype, la, lb):
    rng = np.random.default_rng(19)
    h1 = rng.standard_normal((4, 20, 36)).astype(dtype)
    h2 = rng.standard_normal((4, 36, 18)).astype(dtype)
    a, b = laid_out(sdev, h1, la), laid_out(sdev, h2, lb)
    got = a @ b
    assert _core._linalg_last_route() == "tiled"
    check_fp_bound(got, h1, h2)
    # B broadcast over A's batch, and a vector operand
    got = a @ b[0]
    check_fp_bound(got, h1, h2[0])
    v = rng.standard_normal(36).astype(dtype)
    check_fp_bound(a @ on(sdev, v), h1, v)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda t: np.dtype(t).name)
def test_small_out_and_dot(sdev, dtype):
    rng = np.random.default_rng(23)
    h1 = rng.standard_normal((40, 50)).astype(dtype)
    h2 = rng.standard_normal((50, 30)).astype(dtype)
    a, b = on(sdev, h1), on(sdev, h2)
    big = ca.zeros((80, 90), dtype=dtype, device=sdev)
    out = big[::2, ::3]
    r = ca.matmul(a, b, out=out)
    assert r is out
    assert _core._linalg_last_route() == "tiled"
    check_fp_bound(out, h1, h2)
    rest = big.get()
    rest[::2, ::3] = 0
    assert not rest.any()  # nothing written outside the view
    check_fp_bound(ca.dot(a, b), h1, h2)
    check_fp_bound(ca.tensordot(a, b, axes=1), h1, h2)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda t: np.dtype(t).name)
def test_small_nonfinite(sdev, dtype):
    """inf and NaN propagate as in NumPy: the zero padding of ragged tiles
    never meets them in an output that is written."""
    rng = np.random.default_rng(29)
    h1 = rng.standard_normal((21, 19)).astype(dtype)
    h2 = rng.standard_normal((19, 23)).astype(dtype)
    h1[3, 5] = np.inf
    h1[20, 18] = -np.inf
    h2[7, 22] = np.nan
    h2[18, 0] = np.inf
    g = (on(sdev, h1) @ on(sdev, h2)).get()
    assert _core._linalg_last_route() == "tiled"
    with np.errstate(invalid="ignore"):
        ref = h1.astype(np.float64) @ h2.astype(np.float64)
    np.testing.assert_array_equal(np.isnan(g), np.isnan(ref))
    np.testing.assert_array_equal(np.isposinf(g), np.isposinf(ref))
    np.testing.assert_array_equal(np.isneginf(g), np.isneginf(ref))
    fin = np.isfinite(ref)
    assert np.isfinite(g[fin]).all()


def test_small_limits_hook():
    old = _core._linalg_small_limits(5, 6)
    try:
        assert _core._linalg_small_limits(7, 8) == (5, 6)
    finally:
        _core._linalg_small_limits(*old)
    with pytest.raises(TypeError):
        _core._linalg_small_limits("a", 1)


@requires_gpu
def test_gpu_small_full_precision_with_tf32_allowed():
    """A small float32 product runs in the tiled kernel whether or not TF32 is
    allowed, always in full float32 precision."""
    rng = np.random.default_rng(41)
    h1 = rng.standard_normal((64, 64)).astype(np.float32)
    h2 = rng.standard_normal((64, 64)).astype(np.float32)
    a, b = on("cuda:0", h1), on("cuda:0", h2)
    old = ca.linalg.set_allow_tf32(True)
    try:
        got = a @ b
    finally:
        ca.linalg.set_allow_tf32(old)
    assert _core._linalg_last_route() == "tiled"
    check_fp_bound(got, h1, h2)


@requires_gpu
def test_gpu_small_matches_cublas():
    """The tiled kernel and cuBLAS agree to float32's summation-order error on
    the same operands (both without TF32)."""
    rng = np.random.default_rng(43)
    h1 = rng.standard_normal((3, 100, 128)).astype(np.float32)
    h2 = rng.standard_normal((3, 128, 50)).astype(np.float32)
    a, b = on("cuda:0", h1), on("cuda:0", h2)
    t = (a @ b).get()
    assert _core._linalg_last_route() == "tiled"
    old = _core._linalg_small_limits(*NO_SMALL)
    try:
        c = (a @ b).get()
        assert _core._linalg_last_route() == "blas"
    finally:
        _core._linalg_small_limits(*old)
    bound = np.abs(h1.astype(np.float64)) @ np.abs(h2.astype(np.float64))
    assert np.all(np.abs(t.astype(np.float64) - c) <= 2 * 128 * 2**-23 * bound)


@requires_gpu
def test_gpu_small_streams():
    """The tiled kernel runs on the current stream."""
    h, a, s = gpu_square(47)
    with s:
        r1 = a @ a
        assert _core._linalg_last_route() == "tiled"
        r2 = r1 @ a  # ordered after r1 on s
    s.synchronize()
    check_fp_bound(r1, h, h)
    np.testing.assert_allclose(r2.get(), h @ h @ h, rtol=1e-10, atol=1e-10)
