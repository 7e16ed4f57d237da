"""NumPy's out=, dtype= and casting= rules (python/cuarray/_outargs.py and the
Array API's cumulative functions) against NumPy on both devices: each call runs
with NumPy and with cuarray on the same data (conftest.agree), and both give
the same values, dtype and shape (and layout or identity with out= where a test
returns them), or raise the same exception type with the same message (where
a test says otherwise, why)."""

import numpy as np
import pytest

import cuarray as ca
from conftest import DEVICES, agree


@pytest.fixture(params=DEVICES)
def dev(request):
    return request.param


def arr(xp, a, dev):
    return ca.asarray(a, device=dev) if xp is ca else np.asarray(a)


def zeros(xp, shape, dtype, dev, order="C"):
    if xp is ca:
        return ca.zeros(shape, dtype=dtype, order=order, device=dev)
    return np.zeros(shape, dtype=dtype, order=order)


# ---- dot's out ------------------------------------------------------------------

A = np.arange(6.0).reshape(2, 3)
B = np.arange(12.0).reshape(3, 4)

DOT_OUTS = [  # (a, b, out shape, out dtype, out layout)
    (A, B, (2, 4), "f8", "C"),
    (A, B, (2, 4), "f4", "C"),
    (A, B, (4, 2), "f8", "C"),
    (A, B, (2, 4, 1), "f8", "C"),
    (A, B, (2, 4), "f8", "F"),
    (A, B, (2, 4), "f8", "step"),
    (A, B, (2, 4), "c16", "C"),
    (A[0], B, (4,), "f8", "C"),
    (A[0], B, (1, 4), "f8", "C"),
    (A[0], A[0], (), "f8", "C"),
    (A[0], A[0], (1,), "f8", "C"),
    (A.astype("i8"), B.astype("i8"), (2, 4), "i8", "C"),
    (A.astype("i8"), B.astype("i8"), (2, 4), "f8", "C"),
    (A.astype("f2"), B.astype("f2"), (2, 4), "f4", "C"),
    (A.astype("f2"), B.astype("f2"), (2, 4), "f2", "C"),
    (A.astype("c8"), B.astype("c8"), (2, 4), "c8", "F"),
    (A.astype("?"), B.astype("?"), (2, 4), "?", "C"),
    (np.ones((2, 3, 4)), np.ones((5, 4, 2)), (2, 3, 5, 2), "f8", "C"),
    (np.ones((2, 3, 4)), np.ones((5, 4, 2)), (2, 3, 2, 5), "f8", "C"),
    (2.0, B, (3, 4), "f8", "C"),
    (2.0, B.astype("f4"), (3, 4), "f4", "C"),
    (2, B.astype("f4"), (3, 4), "f8", "C"),
    (np.float16(2), B.astype("f4"), (3, 4), "f4", "C"),
    (2, B.astype("i8"), (3, 4), "f8", "C"),      # NumPy multiplies: same_kind out
    (2, B.astype("i8"), (3, 4), "i4", "C"),
    (A, np.ones((4, 2)), (2, 2), "f8", "C"),     # not aligned: dot's own error
]


@pytest.mark.parametrize("case", range(len(DOT_OUTS)))
def test_dot_out(dev, case):
    a, b, shape, dt, layout = DOT_OUTS[case]

    def run(xp):
        x = arr(xp, a, dev) if isinstance(a, np.ndarray) else a
        y = arr(xp, b, dev)
        if layout == "step":
            out = zeros(xp, shape[:-1] + (2 * shape[-1],), dt, dev)[..., ::2]
        else:
            out = zeros(xp, shape, dt, dev, order=layout)
        r = xp.dot(x, y, out=out)
        return (r, r is out) if shape else r
    agree(run, message=case != len(DOT_OUTS) - 1)


def test_dot_out_read_only_and_dispatch(dev):
    x, y = ca.asarray(A, device=dev), ca.asarray(B, device=dev)
    ro = ca.broadcast_to(ca.zeros(4, device=dev), (2, 4))
    with pytest.raises(ValueError, match="not acceptable"):
        ca.dot(x, y, out=ro)
    out = ca.zeros((2, 4), device=dev)
    assert np.dot(x, y, out=out) is out  # __array_function__ runs cuarray.dot
    np.testing.assert_array_equal(out.get(), A @ B)
    with pytest.raises(ValueError, match="not acceptable"):
        np.dot(x, y, out=ca.zeros((2, 4), np.float32, device=dev))


# ---- concatenate and stack -------------------------------------------------------

X = np.arange(4.0).reshape(2, 2)
Y = np.arange(4.0, 8.0).reshape(2, 2)

JOINS = [  # (keywords, out (shape, dtype, layout) or None)
    ({}, ((4, 2), "f8", "C")),
    ({}, ((4, 2), "f8", "F")),
    ({}, ((3, 3), "f8", "C")),
    ({}, ((8,), "f8", "C")),
    ({}, ((4, 2), "i4", "C")),
    ({"casting": "unsafe"}, ((4, 2), "i4", "C")),
    ({}, ((4, 2), "f4", "C")),
    ({"casting": "safe"}, ((4, 2), "f4", "C")),
    ({"casting": "no"}, ((4, 2), "c16", "C")),
    ({"casting": "equiv"}, ((4, 2), "f8", "C")),
    ({"casting": "safe"}, ((4, 2), "c16", "C")),
    ({"axis": 1}, ((2, 4), "f8", "C")),
    ({"axis": 1}, ((4, 2), "f8", "C")),
    ({"axis": -1}, ((2, 2, 2), "f8", "C")),
    ({"axis": None}, ((8,), "f8", "C")),
    ({"axis": None}, ((4, 2), "f8", "C")),
    ({"axis": None}, ((9,), "f8", "C")),
    ({"dtype": "f8"}, ((4, 2), "f8", "C")),
    ({"dtype": "f4"}, None),
    ({"dtype": "i4"}, None),
    ({"dtype": "i4", "casting": "unsafe"}, None),
    ({"casting": "foo"}, None),
    ({"casting": None}, None),
    ({"casting": 3}, None),
    ({"casting": "no"}, None),
]


def _join_run(name, kw, out, dev, inputs):
    def run(xp):
        xs = [arr(xp, v, dev) for v in inputs]
        if out is None:
            return getattr(xp, name)(xs, **kw)
        o = zeros(xp, out[0], out[1], dev, order=out[2])
        r = getattr(xp, name)(xs, out=o, **kw)
        return r, r is o
    return run


@pytest.mark.parametrize("case", range(len(JOINS)))
def test_concatenate_out_dtype_casting(dev, case):
    kw, out = JOINS[case]
    agree(_join_run("concatenate", kw, out, dev, (X, Y)))
    agree(_join_run("concatenate", kw, out, dev, (X, Y.astype(np.float32))))


STACKS = [({}, ((2, 2, 2), "f8", "C")), ({}, ((4, 2), "f8", "C")),
          ({}, ((2, 2, 2), "i2", "C")), ({"casting": "unsafe"}, ((2, 2, 2), "i2", "C")),
          ({"casting": "safe"}, ((2, 2, 2), "f4", "C")), ({"axis": 2}, ((2, 2, 2), "f8", "F")),
          ({"axis": -1}, ((2, 2, 3), "f8", "C")), ({"dtype": "f8"}, ((2, 2, 2), "f8", "C")),
          ({"dtype": "i4"}, None), ({"dtype": "u1", "casting": "unsafe"}, None),
          ({"casting": None}, None), ({"casting": "bad"}, None)]


@pytest.mark.parametrize("case", range(len(STACKS)))
def test_stack_out_dtype_casting(dev, case):
    kw, out = STACKS[case]
    agree(_join_run("stack", kw, out, dev, (X, Y)))
    agree(_join_run("stack", kw, out, dev, (X.astype(np.int16), Y.astype(np.int8))))


@pytest.mark.parametrize("name", ["hstack", "vstack", "dstack", "column_stack"])
@pytest.mark.parametrize("kw", [{}, {"dtype": "f4"}, {"dtype": "i4"},
                                {"dtype": "i4", "casting": "unsafe"}, {"casting": "no"},
                                {"casting": "bad"}, {"out": True}])
def test_stack_family_keywords(dev, name, kw):
    def run(xp):
        k = dict(kw)
        if k.pop("out", None):
            k["out"] = zeros(xp, (4, 2), "f8", dev)
        return getattr(xp, name)([arr(xp, X, dev), arr(xp, Y.astype("f4"), dev)], **k)
    agree(run, message=False)  # (NumPy names its inner function in some)


# ---- matmul's ufunc keywords ---------------------------------------------------

M1 = np.arange(24.0).reshape(2, 3, 4)
M2 = np.arange(40.0).reshape(2, 4, 5)
V = np.arange(4.0)

MATMULS = [  # (x1, x2, keywords; "out": (shape, dtype) made per library)
    (M1, M2, {"axes": [(1, 2), (1, 2), (1, 2)]}),
    (M1, M2, {"axes": [(-2, -1), (-2, -1), (-2, -1)]}),
    (M1.transpose(0, 2, 1), M2.transpose(0, 2, 1), {"axes": [(2, 1), (2, 1), (2, 1)]}),
    (M1.transpose(0, 2, 1), M2.transpose(0, 2, 1), {"axes": [(2, 1), (2, 1), (0, 2)]}),
    (M1.transpose(0, 2, 1), M2.transpose(0, 2, 1),
     {"axes": [(2, 1), (2, 1), (0, 2)], "out": ((3, 2, 5), "f8")}),
    (M1.transpose(0, 2, 1), M2.transpose(0, 2, 1),
     {"axes": [(2, 1), (2, 1), (0, 2)], "out": ((3, 2, 5), "i4"), "casting": "unsafe"}),
    (M1, M2, {"axes": [(1, 2), (1, 2)]}),
    (M1, M2, {"axes": [(1, 2), (1, 2), (1,)]}),
    (M1, M2, {"axes": [(1, 2), (1, 2), (1, 2, 0)]}),
    (M1, M2, {"axes": [(1, 2), (1, 2), [1, 2]]}),
    (M1, M2, {"axes": [(1, 2), (1, 2), (1, 3)]}),
    (M1, M2, {"axes": [(1, 1), (1, 2), (1, 2)]}),
    (M1, M2, {"axes": [(1, 2.0), (1, 2), (1, 2)]}),
    (M1, M2, {"axes": ((1, 2), (1, 2), (1, 2))}),
    (M1, M2, {"axes": [1, (1, 2), (1, 2)]}),
    (M1, M2, {"axes": [(0, 1), (1, 2), (0, 1)]}),
    (V, V, {"axes": [0, 0, ()]}),
    (V, V, {"axes": [(0,), (0,)]}),
    (M1, V, {"axes": [(-2, -1), (0,), 1]}),
    (M1.transpose(1, 0, 2), V, {"axes": [(0, 2), 0, 0]}),
    (V, M2, {"axes": [0, (-2, -1), (0,)]}),
    (M1, M2, {"casting": "no", "out": ((2, 3, 5), "f4")}),
    (M1, M2, {"casting": "no", "out": ((2, 3, 5), "f8")}),
    (M1, M2, {"casting": "unsafe", "out": ((2, 3, 5), "i2")}),
    (M1, M2, {"casting": "same_kind", "out": ((2, 3, 5), "f4")}),
    (M1, M2, {"dtype": "i4", "casting": "unsafe"}),
    (M1, M2, {"dtype": "f4", "casting": "safe"}),
    (M1, M2, {"dtype": "c8", "casting": "same_kind"}),
    (M1, M2, {"dtype": "c16", "casting": "equiv"}),
    (M1.astype("i2"), M2.astype("i8"), {"casting": "no"}),
    (M1.astype("i2"), M2.astype("i8"), {"casting": "safe"}),
    (M1, M2, {"casting": "foo"}),
    (M1, M2, {"casting": None}),
    (M1, M2, {"order": "F"}),
    (M1, M2, {"order": "A"}),
    (M1, M2, {"order": "C"}),
    (M1, M2, {"order": None}),
    (M1, M2, {"order": "X"}),
    (np.asfortranarray(M1[0]), np.asfortranarray(M2[0]), {"order": "A"}),
    (np.asfortranarray(M1[0]), np.asfortranarray(M2[0]), {"order": "K"}),
    (M1, M2, {"subok": False}),
    (M1, M2, {"axis": 1}),
    (M1, M2, {"foo": 1}),
]


@pytest.mark.parametrize("case", range(len(MATMULS)))
def test_matmul_keywords(dev, case):
    x1, x2, kw = MATMULS[case]

    def run(xp):
        k = dict(kw)
        out = None
        if "out" in k:
            shape, dt = k.pop("out")
            out = k["out"] = zeros(xp, shape, dt, dev)
        r = xp.matmul(arr(xp, x1, dev), arr(xp, x2, dev), **k)
        return r, r.flags.f_contiguous, r is out
    agree(run)


# ---- cumulative_sum / cumulative_prod out= ------------------------------------

@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("include_initial", [False, True])
@pytest.mark.parametrize("out_dtype", ["f8", "f4", "i4", "c16"])
def test_cumulative_out(dev, name, axis, include_initial, out_dtype):
    x = np.arange(12.0).reshape(3, 4) / 3 + 1
    shape = list(x.shape)
    shape[axis] += include_initial

    def run(xp, order="C", dtype=None, initial=include_initial):
        o = zeros(xp, tuple(shape), out_dtype, dev, order=order)
        r = getattr(xp, name)(arr(xp, x, dev), axis=axis, dtype=dtype,
                              include_initial=initial, out=o)
        return r, r is o
    # float32 scans: cuarray accumulates in float64 and rounds each result once,
    # NumPy rounds each running value (a few ulps apart: kernels/reductions.def)
    rtol = 1e-6 if out_dtype in ("f4",) else 0
    agree(run, rtol=rtol)
    agree(lambda xp: run(xp, order="F"), rtol=rtol)
    agree(lambda xp: run(xp, dtype=np.float32), rtol=1e-6)
    # an out of the wrong length: ValueError (NumPy's words vary with the case)
    agree(lambda xp: run(xp, initial=not include_initial), message=False)


def test_cumulative_out_1d_and_0d(dev):
    for x in (np.arange(5.0), np.array(3.0)):
        for ii in (False, True):
            n = x.size + ii
            agree(lambda xp: (lambda o: (xp.cumulative_sum(
                arr(xp, x, dev), include_initial=ii, out=o), o))(
                zeros(xp, (n,), "f8", dev)))


def test_matmul_keywords_through_numpy(dev):
    """np.matmul on cuarray arrays (NumPy hands out= over as a tuple): the same
    casting=, axes= and out= rules."""
    a, b = ca.asarray(M1, device=dev), ca.asarray(M2, device=dev)
    with pytest.raises(TypeError, match="with casting rule 'no'"):
        np.matmul(a, b, casting="no", out=ca.zeros((2, 3, 5), np.float32, device=dev))
    o = ca.zeros((2, 3, 5), np.int32, device=dev)
    assert np.matmul(a, b, casting="unsafe", out=o) is o
    np.testing.assert_array_equal(o.get(), (M1 @ M2).astype(np.int32))
    r = np.matmul(a, b, axes=[(1, 2), (1, 2), (2, 1)])
    np.testing.assert_array_equal(r.get(), np.matmul(M1, M2, axes=[(1, 2), (1, 2), (2, 1)]))
