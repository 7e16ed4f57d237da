"""Fuzz: reshape, transpose and einsum arguments (random, valid and invalid) vs NumPy.

Shapes with -1 (once or twice), other negatives, zeros, huge and non-integer
entries, orders; axis permutations with repeats, out-of-range and negative axes,
wrong types; einsum subscripts drawn from letters, '...', ',', '->' and stray
characters, over operands of random shapes, and the same in the sublist form.
The result, or the exception type, must be NumPy's. Budget: tests/fuzz_budget.py.
"""

import string

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cuarray as ca
from fuzz_budget import assert_numpy_typed, exc_type, fuzz, outcome, same_array

pytestmark = pytest.mark.filterwarnings("ignore")

_shapes = st.lists(st.integers(0, 4), max_size=4).map(tuple)
_dim = st.one_of(st.integers(-3, 8), st.sampled_from([-1, -1, 0, 2**31, 2**63, -2**63, 2**70,
                                                     1.0, "2", None, True, np.int8(2),
                                                     np.uint64(3), np.float64(2)]))


def _ints_only(v, fill):
    """`v` with its entries that are not integers made `fill` (a well-typed twin)."""
    def fix(e):
        return e if isinstance(e, (int, np.integer)) and not isinstance(e, bool) else fill
    if isinstance(v, (tuple, list)):
        return type(v)(fix(e) for e in v)
    return fix(v)


def _both_errors(np_f, got_exc, want_exc, args, kw, fill):
    """An input with a type error (NumPy's TypeError, found first as NumPy converts
    every argument first) and a value error (cuarray's ValueError, found first):
    its well-typed twin raises ValueError in NumPy too."""
    if want_exc is not TypeError or got_exc is None or not issubclass(got_exc, ValueError):
        return False
    twin = tuple(_ints_only(a, fill) for a in args)
    kw = {k: (v if isinstance(v, str) else "C") for k, v in kw.items()}
    twin_exc = exc_type(np_f, *twin, **kw)[1]
    return twin_exc is not None and issubclass(got_exc, twin_exc)


def _compare(np_f, ca_f, what, *args, fill=1, **kw):
    want, want_exc = exc_type(np_f, *args, **kw)
    got, got_exc = exc_type(ca_f, *args, **kw)
    if want_exc is not None:
        if not _both_errors(np_f, got_exc, want_exc, args, kw, fill):
            assert_numpy_typed(got_exc, want_exc, what)
        return
    assert got_exc is None, f"{what}: NumPy returned {np.shape(want)}, cuarray raised {got_exc}"
    same_array(got if isinstance(got, ca.ndarray) else ca.asarray(got, device="cpu"),
               np.asarray(want), what)


def _pair(shape):
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    return x, ca.asarray(x, device="cpu")


@fuzz(200)
@given(shape=_shapes, new=st.one_of(_dim, st.lists(_dim, max_size=5).map(tuple),
                                     st.lists(st.integers(-1, 6), max_size=5)),
       order=st.sampled_from([None, "C", "F", "A", "K", "c", "x", 1]), spread=st.booleans())
def test_fuzz_reshape(shape, new, order, spread):
    # the C converters' known differences: test_reshape_none, _bool, _order_type
    entries = new if isinstance(new, (tuple, list)) else (new,)
    assume(new is not None and not any(isinstance(e, (bool, np.bool_)) for e in entries))
    assume(order is None or isinstance(order, str))
    big = [int(e) for e in entries if isinstance(e, (int, np.integer)) and int(e) > 0]
    assume(np.prod(big, dtype=object) < 2**59)  # test_reshape_empty_to_too_big
    x, a = _pair(shape)
    kw = {} if order is None else dict(order=order)
    args = tuple(new) if spread and isinstance(new, (tuple, list)) and new else (new,)
    assume(args != (None,))
    _compare(x.reshape, a.reshape, f"{shape}.reshape(*{args}, **{kw})", *args, **kw)
    _compare(lambda n, **k: np.reshape(x, n, **k), lambda n, **k: ca.reshape(a, n, **k),
             f"reshape({shape}, {new!r}, **{kw})", new, **kw)


_axis = st.one_of(st.integers(-5, 5), st.sampled_from([1.0, "0", None, 2**63, np.int64(1),
                                                      True]))


@fuzz(200)
@given(shape=_shapes, axes=st.one_of(st.none(), st.lists(_axis, max_size=5).map(tuple), _axis),
       spread=st.booleans())
def test_fuzz_transpose(shape, axes, spread):
    entries = axes if isinstance(axes, tuple) else (axes,)
    assume(not any(isinstance(e, int) and abs(e) >= 2**63 for e in entries))  # xfails below
    assume(not any(isinstance(e, bool) for e in entries))
    x, a = _pair(shape)
    args = axes if spread and isinstance(axes, tuple) else (axes,)
    _compare(x.transpose, a.transpose, f"{shape}.transpose(*{args})", *args, fill=0)
    if isinstance(axes, tuple) or axes is None:
        _compare(lambda ax: np.transpose(x, ax), lambda ax: ca.transpose(a, ax),
                 f"transpose({shape}, {axes!r})", axes, fill=0)


@st.composite
def _einsum_case(draw):
    letters = draw(st.sampled_from(["ij", "ijk", "abc", "iI", "ijkl"]))
    nops = draw(st.integers(1, 3))
    terms, shapes = [], []
    sizes = {c: draw(st.integers(1, 3)) for c in letters}
    for _ in range(nops):
        t = "".join(draw(st.lists(st.sampled_from(letters), max_size=4)))
        ell = draw(st.integers(0, 6)) == 0
        # operand shape: mostly matching its term, sometimes off by a dimension
        shp = [sizes[c] for c in t]
        if draw(st.integers(0, 4)) == 0:
            shp = shp + [2] if draw(st.booleans()) else shp[:-1]
        if ell:
            t = "..." + t
            shp = [2] * draw(st.integers(0, 2)) + shp
        terms.append(t)
        shapes.append(tuple(shp))
    sub = ",".join(terms)
    if draw(st.booleans()):
        out = "".join(draw(st.lists(st.sampled_from(letters + "."), max_size=4)))
        sub += "->" + out
    if draw(st.integers(0, 8)) == 0:  # a stray character somewhere
        k = draw(st.integers(0, len(sub)))
        sub = sub[:k] + draw(st.sampled_from([" ", "-", ">", ",", "1", "%", ".", "é"])) + sub[k:]
    return sub, shapes


_LABELS = string.ascii_uppercase + string.ascii_lowercase  # sublist ints 0..51


def _sublist(term):
    """One term of the subscripts in the interleaved form, or None."""
    out, i = [], 0
    while i < len(term):
        if term.startswith("...", i):
            out.append(Ellipsis)
            i += 3
        elif term[i] in _LABELS:
            out.append(_LABELS.index(term[i]))
            i += 1
        else:
            return None
    return out


def _interleaved(sub, ops):
    """einsum's arguments in the form einsum(op0, sub0, op1, sub1, ..., [out]), or None."""
    ins, arrow, out = sub.partition("->")
    terms = [_sublist(t) for t in ins.split(",")]
    if None in terms or len(terms) != len(ops) or (arrow and _sublist(out) is None):
        return None
    args = [v for pair in zip(ops, terms) for v in pair]
    return args + [_sublist(out)] if arrow else args


@fuzz(200)
@given(case=_einsum_case(), dtype=st.sampled_from([np.float64, np.int32, np.complex64]),
       interleaved=st.booleans())
def test_fuzz_einsum(case, dtype, interleaved):
    sub, shapes = case
    xs = [(np.arange(int(np.prod(s))) % 5).astype(dtype).reshape(s) for s in shapes]
    cs = [ca.asarray(x, device="cpu") for x in xs]
    what = f"einsum({sub!r}, {shapes})"
    np_args, ca_args = [sub] + xs, [sub] + cs
    if interleaved and _interleaved(sub, xs) is not None:
        np_args, ca_args = _interleaved(sub, xs), _interleaved(sub, cs)
        what += " interleaved"
    want, want_exc = exc_type(np.einsum, *np_args)
    got, got_exc = exc_type(ca.einsum, *ca_args)
    if want_exc is not None:
        assert_numpy_typed(got_exc, want_exc, what)
        return
    assert got_exc is None, f"{what}: NumPy returned, cuarray raised {got_exc}"
    outcome("compared with NumPy's result")
    want = np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (what, got.dtype, want.dtype)
    np.testing.assert_allclose(got.get(), want, rtol=1e-5, err_msg=what)


# ---- the C converters' differences the fuzz found (each fixed in csrc/; kept as regressions)

def test_reshape_none():
    same_array(ca.zeros((2, 3), device="cpu").reshape(None), np.zeros((2, 3)).reshape(None),
               "reshape(None)")


@pytest.mark.parametrize("call", [lambda x: x.reshape(True, 6), lambda x: x.transpose(True)])
def test_bool_as_dimension_or_axis(call):
    with pytest.raises(TypeError):
        call(np.zeros(6))
    with pytest.raises(TypeError):
        call(ca.zeros(6, device="cpu"))


def test_reshape_order_type():
    with pytest.raises(TypeError):
        np.zeros(6).reshape(6, order=1)
    with pytest.raises(TypeError):
        ca.zeros(6, device="cpu").reshape(6, order=1)


def test_transpose_str_axes():
    with pytest.raises(TypeError):
        np.zeros((2, 3)).transpose("a")
    with pytest.raises(TypeError):
        ca.zeros((2, 3), device="cpu").transpose("a")


def test_transpose_huge_axis():
    with pytest.raises(ValueError):
        np.zeros((2, 3)).transpose(0, 2**63)
    with pytest.raises(ValueError):
        ca.zeros((2, 3), device="cpu").transpose(0, 2**63)


def test_reshape_empty_to_too_big():
    with pytest.raises(ValueError):
        np.zeros(0).reshape(0, 2**31, 2**31)
    with pytest.raises(ValueError):
        ca.zeros(0, device="cpu").reshape(0, 2**31, 2**31)
