"""einsum and einsum_path against NumPy on both devices: subscript forms
(implicit/explicit output, '...', diagonals, broadcasting, interleaved), every
optimize= form, dtypes and their promotion, strided operands, NumPy's errors,
and einsum_path's path and report."""

import re

import numpy as np
import pytest

import cuarray as ca
from cuarray import _core

from conftest import random_array, requires_gpu

# "cpu-blas": the cpu device with products routed through the cuBLAS call plan
# (operation flags, leading dimensions, batch strides) and its host stand-in, so
# the layouts einsum hands to matmul are checked without a GPU.
EDEVS = ["cpu", "cpu-blas", pytest.param("cuda:0", marks=requires_gpu)]


@pytest.fixture(params=EDEVS)
def edev(request):
    if request.param != "cpu-blas":
        yield request.param
        return
    old = _core._linalg_emulate(True)
    limits = _core._linalg_small_limits(0, 0)
    try:
        yield "cpu"
    finally:
        _core._linalg_small_limits(*limits)
        _core._linalg_emulate(old)


def wide(x):
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def data(shape, dtype, rng):
    return random_array(shape, dtype, rng)


def check(got, subs, hops, **kw):
    """got against np.einsum of the same operands: exact for bool and integers,
    else within k * eps of the float64 result (k: the number of terms)."""
    want = np.einsum(subs, *hops, **kw)
    g = got.get() if isinstance(got, ca.ndarray) else np.asarray(got)
    assert g.dtype == want.dtype, (subs, g.dtype, want.dtype)
    assert g.shape == want.shape, (subs, g.shape, want.shape)
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(g, want)
        return
    exact = np.einsum(subs, *[wide(np.asarray(h)) for h in hops], **kw)
    scale = np.einsum(subs, *[np.abs(wide(np.asarray(h))) for h in hops], **kw)
    terms = max(1, np.prod([np.size(h) for h in hops]) // max(1, want.size))
    eps = np.finfo(want.dtype).eps
    tol = 4 * eps * (np.minimum(terms, 4096) + 2) * (np.abs(scale) + 1e-30)
    err = np.abs(g.astype(exact.dtype) - exact)
    assert (err <= tol).all(), (subs, float(err.max()), float(tol.min()))


# (subscripts, shapes)
FORMS = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(4, 3, 5), (4, 5, 6)]),
    ("bij,bjk->bki", [(4, 3, 5), (4, 5, 6)]),
    ("bij,bjk->kbi", [(4, 3, 5), (4, 5, 6)]),
    ("ij,kj->ik", [(3, 4), (5, 4)]),
    ("ji,jk->ik", [(4, 3), (4, 5)]),
    ("ij,jk->ki", [(3, 4), (4, 5)]),
    ("ij->ji", [(3, 4)]),
    ("ij", [(3, 4)]),
    ("ji", [(3, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->i", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("iij->ij", [(3, 3, 5)]),
    ("iji->j", [(3, 4, 3)]),
    ("iii->i", [(3, 3, 3)]),
    ("ijk->kji", [(2, 3, 4)]),
    ("ijk->jk", [(2, 3, 4)]),
    ("i,i", [(7,), (7,)]),
    ("i,i->i", [(7,), (7,)]),
    ("i,i->", [(7,), (7,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,j", [(3,), (4,)]),
    ("i,j->ji", [(3,), (4,)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ij->", [(3, 4), (3, 4)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ij,ji->i", [(3, 4), (4, 3)]),
    ("ij,j->i", [(3, 4), (4,)]),
    ("j,ij->i", [(4,), (3, 4)]),
    ("i,ij->j", [(3,), (3, 4)]),
    ("ijk,jkl->il", [(2, 3, 4), (3, 4, 5)]),
    ("abcd,cdef->abef", [(2, 3, 4, 5), (4, 5, 2, 3)]),
    ("abcd,dcef->abef", [(2, 3, 4, 5), (5, 4, 2, 3)]),
    ("abc,cd->abd", [(2, 3, 4), (4, 5)]),
    ("abc,bd->acd", [(2, 3, 4), (3, 5)]),
    ("ijk,ijk->ijk", [(2, 3, 4), (2, 3, 4)]),
    ("ijk,jk->ij", [(2, 3, 4), (3, 4)]),
    ("ijk,ikl->ijl", [(2, 3, 4), (2, 4, 5)]),
    ("aab,bc->ac", [(3, 3, 4), (4, 5)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("ab,bc,cd->ad", [(2, 3), (3, 4), (4, 5)]),
    ("ab,bc,cd,de->ae", [(2, 3), (3, 4), (4, 5), (5, 6)]),
    ("ea,fb,abcd,gc,hd->efgh", [(2, 3), (2, 4), (3, 4, 2, 3), (3, 2), (2, 3)]),
    ("i,i,i->", [(5,), (5,), (5,)]),
    ("i,j,k->ijk", [(2,), (3,), (4,)]),
    ("ij,jk,ki->", [(3, 4), (4, 5), (5, 3)]),
    ("Ab,bC->AC", [(3, 4), (4, 5)]),
    ("AB,Ba->aA", [(3, 4), (4, 5)]),
    ("i j , j k -> i k", [(3, 4), (4, 5)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...ij,...jk", [(2, 3, 4), (2, 4, 5)]),
    ("...i,...i", [(2, 3, 4), (3, 4)]),
    ("...i,...i->...", [(2, 3, 4), (1, 4)]),
    ("i...->...", [(3, 2, 4)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("ij...,jk...->ik...", [(2, 3, 4), (3, 5, 4)]),
    ("...,...", [(2, 3), (3,)]),
    ("i,->i", [(4,), ()]),
    (",->", [(), ()]),
    ("->", [()]),
    ("ij,jk->ik", [(3, 1), (4, 5)]),
    ("ij,ij->ij", [(3, 1), (1, 4)]),
    ("ij,jk->ik", [(0, 3), (3, 4)]),
    ("ij,jk->ik", [(3, 0), (0, 4)]),
    ("ij,jk->", [(3, 0), (0, 4)]),
]


@pytest.mark.parametrize("subs,shapes", FORMS, ids=[f[0] + str(len(f[1])) for f in FORMS])
@pytest.mark.parametrize("optimize", [False, True, "optimal"])
def test_forms_float64(edev, subs, shapes, optimize):
    rng = np.random.default_rng(len(subs) * 7 + len(shapes))
    hops = [data(s, np.float64, rng) for s in shapes]
    ops = [ca.asarray(h, device=edev) for h in hops]
    got = ca.einsum(subs, *ops, optimize=optimize)
    assert got.device == ops[0].device
    check(got, subs, hops, optimize=optimize)


DTYPE_FORMS = [f for f in FORMS if f[0] in (
    "ij,jk->ik", "bij,bjk->bik", "ij,kj->ik", "ii->i", "ij->", "i,i", "i,j->ij",
    "ij,ij->i", "ab,bc,cd->ad", "...ij,...jk->...ik", "abcd,dcef->abef", "iij->ij")]
DTYPES = [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int8,
          np.int32, np.int64, np.uint16, np.bool_]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("subs,shapes", DTYPE_FORMS,
                         ids=[f[0] + str(len(f[1])) for f in DTYPE_FORMS])
def test_dtypes(edev, subs, shapes, dtype):
    rng = np.random.default_rng(3)
    hops = [data(s, dtype, rng) for s in shapes]
    ops = [ca.asarray(h, device=edev) for h in hops]
    for optimize in (False, "greedy"):
        check(ca.einsum(subs, *ops, optimize=optimize), subs, hops, optimize=optimize)


@pytest.mark.parametrize("pair", [(np.int32, np.float32), (np.int64, np.float32),
                                  (np.float32, np.complex128), (np.bool_, np.int8),
                                  (np.float16, np.float32), (np.uint8, np.int8)],
                         ids=str)
def test_mixed_dtypes_promote(edev, pair):
    rng = np.random.default_rng(5)
    h1, h2 = data((3, 4), pair[0], rng), data((4, 5), pair[1], rng)
    got = ca.einsum("ij,jk->ik", ca.asarray(h1, device=edev), ca.asarray(h2, device=edev))
    check(got, "ij,jk->ik", [h1, h2])


def test_python_scalar_and_numpy_operands(edev):
    h = data((4,), np.float32, np.random.default_rng(0))
    a = ca.asarray(h, device=edev)
    check(ca.einsum("i,->i", a, 2.5), "i,->i", [h, 2.5])
    check(ca.einsum("i,i", a, h), "i,i", [h, h])  # a NumPy operand goes to a's device


def test_strided_operands(edev):
    rng = np.random.default_rng(8)
    big = data((6, 10, 8), np.float32, rng)
    a = ca.asarray(big, device=edev)
    cases = [
        ("bij,bjk->bik", (slice(None, None, 2), slice(1, 7), slice(None)),
         (slice(None, 3), slice(None, 8), slice(2, 8))),
        ("ij,jk->ik", (0, slice(None, None, -2), slice(None)), (1, slice(None, 8), slice(None))),
    ]
    for subs, i1, i2 in cases:
        h1, h2 = big[i1], big[i2]
        check(ca.einsum(subs, a[i1], a[i2], optimize=True), subs, [h1, h2])
    ht = big.transpose(2, 0, 1)
    at = ca.transpose(a, (2, 0, 1))
    for subs in ("ijk,jkl->il", "ijk,ijl->kl", "abc,cbd->ad"):
        hb = data((6, 10, 3) if subs == "ijk,jkl->il" else
                  (8, 6, 3) if subs == "ijk,ijl->kl" else (10, 6, 3), np.float32, rng)
        check(ca.einsum(subs, at, ca.asarray(hb, device=edev)), subs, [ht, hb])
    # a Fortran-ordered operand and a diagonal of a non-contiguous one
    hf = np.asfortranarray(data((5, 6), np.float64, rng))
    check(ca.einsum("ij,jk", ca.asarray(hf, device=edev), ca.asarray(hf.T, device=edev)),
          "ij,jk", [hf, hf.T])
    hs = data((6, 6), np.float64, rng)
    check(ca.einsum("ii->i", ca.asarray(hs, device=edev).T), "ii->i", [hs.T])


def test_interleaved(edev):
    rng = np.random.default_rng(9)
    h1, h2 = data((3, 4), np.float64, rng), data((4, 5), np.float64, rng)
    a1, a2 = ca.asarray(h1, device=edev), ca.asarray(h2, device=edev)
    for sub in ([0, 1], [1, 2], [0, 2]), ([0, 1], [1, 2], [2, 0]), ([0, 1], [1, 2], []):
        want = np.einsum(h1, sub[0], h2, sub[1], sub[2])
        got = ca.einsum(a1, sub[0], a2, sub[1], sub[2])
        np.testing.assert_allclose(got.get(), want, rtol=1e-12)
    want = np.einsum(h1, [0, 1], h2, [1, 2])  # implicit output
    np.testing.assert_allclose(ca.einsum(a1, [0, 1], a2, [1, 2]).get(), want, rtol=1e-12)
    h3 = data((2, 3, 4), np.float64, rng)
    want = np.einsum(h3, [Ellipsis, 0, 1], h2, [1, 51], [Ellipsis, 0, 51])
    got = ca.einsum(ca.asarray(h3, device=edev), [Ellipsis, 0, 1], a2, [1, 51],
                    [Ellipsis, 0, 51])
    np.testing.assert_allclose(got.get(), want, rtol=1e-12)
    with pytest.raises(ValueError):
        ca.einsum(a1, [0, 52])
    with pytest.raises(TypeError):
        ca.einsum(a1, [0, "a"])


def test_one_gemm_for_batched_product(edev):
    """bij,bjk->bik is a single batched product of the operands as they are."""
    rng = np.random.default_rng(10)
    h1, h2 = data((8, 16, 24), np.float32, rng), data((8, 24, 12), np.float32, rng)
    a1, a2 = ca.asarray(h1, device=edev), ca.asarray(h2, device=edev)
    got = ca.einsum("bij,bjk->bik", a1, a2)
    check(got, "bij,bjk->bik", [h1, h2])
    assert got.flags.c_contiguous
    np.testing.assert_array_equal(got.get(), ca.matmul(a1, a2).get())


def test_recipes_replay(edev):
    """A form seen before replays its recorded calls: new data, same shapes; the
    same shapes with other strides are a form of their own."""
    rng = np.random.default_rng(14)
    for _ in range(3):
        h1, h2 = data((5, 4, 6), np.float64, rng), data((5, 6, 3), np.float64, rng)
        for subs in ("bij,bjk->bik", "bij,bjk->kb", "bij,bjk->bki"):
            check(ca.einsum(subs, ca.asarray(h1, device=edev), ca.asarray(h2, device=edev)),
                  subs, [h1, h2])
        t1 = np.ascontiguousarray(h1.transpose(0, 2, 1)).transpose(0, 2, 1)
        a1 = ca.transpose(ca.asarray(np.ascontiguousarray(h1.transpose(0, 2, 1)),
                                     device=edev), (0, 2, 1))
        check(ca.einsum("bij,bjk->bik", a1, ca.asarray(h2, device=edev)), "bij,bjk->bik",
              [t1, h2])
        h3 = data((4, 4, 2), np.float64, rng)
        check(ca.einsum("iij->j", ca.asarray(h3, device=edev)), "iij->j", [h3])
        check(ca.einsum("ij...->j", ca.asarray(h3, device=edev), optimize=True), "ij...->j",
              [h3], optimize=True)


def test_dtype_casting_order_out(edev):
    rng = np.random.default_rng(11)
    h1, h2 = data((3, 4), np.int32, rng), data((4, 5), np.int32, rng)
    a1, a2 = ca.asarray(h1, device=edev), ca.asarray(h2, device=edev)
    check(ca.einsum("ij,jk", a1, a2, dtype=np.float64), "ij,jk", [h1, h2],
          dtype=np.float64)
    f1, f2 = h1.astype(np.float64), h2.astype(np.float64)
    b1, b2 = ca.asarray(f1, device=edev), ca.asarray(f2, device=edev)
    with pytest.raises(TypeError):
        ca.einsum("ij,jk", b1, b2, dtype=np.float32)
    check(ca.einsum("ij,jk", b1, b2, dtype=np.float32, casting="same_kind"), "ij,jk",
          [f1, f2], dtype=np.float32, casting="same_kind")
    got = ca.einsum("ij,jk->ki", b1, b2, order="C")
    assert got.flags.c_contiguous
    got = ca.einsum("ij,jk->ik", b1, b2, order="F")
    assert got.flags.f_contiguous
    out = ca.zeros((3, 5), dtype=np.float64, device=edev)
    r = ca.einsum("ij,jk", b1, b2, out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), f1 @ f2)
    with pytest.raises(ValueError):
        ca.einsum("ij,jk", b1, b2, out=ca.zeros((5, 3), device=edev))


def test_views_as_numpys(edev):
    h = data((4, 4), np.float64, np.random.default_rng(12))
    a = ca.asarray(h, device=edev)
    d = ca.einsum("ii->i", a)
    np.testing.assert_array_equal(d.get(), np.diag(h))
    t = ca.einsum("ij->ji", a)
    np.testing.assert_array_equal(t.get(), h.T)


def test_optimize_paths_agree(edev):
    """Every optimize= form gives the same values on a longer chain."""
    rng = np.random.default_rng(13)
    subs = "ab,bc,cd,de,ef->af"
    shapes = [(4, 30), (30, 2), (2, 40), (40, 3), (3, 5)]
    hops = [data(s, np.float64, rng) for s in shapes]
    ops = [ca.asarray(h, device=edev) for h in hops]
    path = np.einsum_path(subs, *hops, optimize="optimal")[0]
    for optimize in (False, True, "greedy", "optimal", path, ("greedy", 10 ** 6),
                     ["einsum_path", (0, 1), (0, 1), (0, 1), (0, 1)],
                     ["einsum_path", (0, 1, 2, 3, 4)]):
        check(ca.einsum(subs, *ops, optimize=optimize), subs, hops)


BAD = [
    ("ij,jk->ii", [(2, 2), (2, 2)]),
    ("i->j", [(2,)]),
    ("i,j", [(2, 2), (2,)]),
    ("ij->i->j", [(2, 2)]),
    ("ij", [(2, 2), (2, 2)]),
    ("ij,jk", [(2, 2)]),
    ("i$j", [(2, 2)]),
    ("i.j", [(2, 2)]),
    ("a..b", [(2, 2)]),
    ("......", [(2, 2)]),
    ("...i...", [(2, 2)]),
    ("ij->i,j", [(2, 2)]),
    ("ab->a>", [(2, 2)]),
    ("a-b", [(2, 2)]),
    ("ijk", [(2, 2)]),
    ("ii", [(2, 3)]),
    ("i,i->", [(2,), (3,)]),
    ("ab->AB", [(2, 2)]),
    ("ij,jk->ik", [(2, 3), (4, 5)]),
    ("...i->i", [(2, 3)]),
    # spaces are skipped, but they break an ellipsis or an arrow (found by
    # tests/test_fuzz_shape.py: the parser used to strip them first)
    (". ..", [()]),
    (".. .ij", [(2, 2)]),
    ("ij - > ji", [(2, 2)]),
    ("ij- >ji", [(2, 2)]),
]


@pytest.mark.parametrize("subs,shapes", BAD, ids=[b[0] for b in BAD])
def test_bad_subscripts_raise_valueerror(subs, shapes):
    hops = [np.ones(s) for s in shapes]
    with pytest.raises(ValueError):
        np.einsum(subs, *hops)  # NumPy's own behaviour, checked here
    ops = [ca.asarray(h, device="cpu") for h in hops]
    with pytest.raises(ValueError):
        ca.einsum(subs, *ops)


@pytest.mark.parametrize("subs", ["i j", "i j->j i", "ij-> ji", " ...ij", "...i j", "i j-> ",
                                  " i , j -> ij"])
def test_spaces_are_skipped(subs):
    h = np.arange(6.0).reshape(2, 3)
    hops = [h] if "," not in subs else [h[0], h[:, 0]]
    want = np.einsum(subs, *hops)
    got = ca.einsum(subs, *[ca.asarray(o, device="cpu") for o in hops])
    assert got.shape == want.shape
    np.testing.assert_allclose(got.get(), want)


def test_missing_output_ellipsis_sums_when_optimized():
    h = np.arange(6.0).reshape(2, 3)
    a = ca.asarray(h, device="cpu")
    for subs in ("...i->i", "i...->"):
        np.testing.assert_allclose(ca.einsum(subs, a, optimize=True).get(),
                                   np.einsum(subs, h, optimize=True))


def test_bad_optimize_and_paths():
    a = ca.ones((2, 2), device="cpu")
    with pytest.raises(TypeError):
        ca.einsum("ij,jk", a, a, optimize=3.5)
    with pytest.raises(KeyError):
        ca.einsum("ij,jk,kl", a, a, a, optimize="fastest")
    with pytest.raises(ValueError):
        ca.einsum("ij,jk,kl", a, a, a, optimize=["einsum_path", (0, 1)])
    with pytest.raises(ValueError):
        ca.einsum("ij,jk,kl", a, a, a, optimize=["einsum_path", (0, 3), (0, 1)])
    with pytest.raises(ValueError):
        ca.einsum()
    with pytest.raises(ValueError):
        ca.einsum_path("ij,jk", np.ones((2, 2)))


# ---------------------------------------------------------------- einsum_path

PATH_CASES = [
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ea,fb,abcd,gc,hd->efgh", [(10, 10), (10, 10), (10, 10, 10, 10), (10, 10), (10, 10)]),
    ("abc,bcd,cde,def->af", [(3, 4, 5), (4, 5, 6), (5, 6, 7), (6, 7, 2)]),
    ("ab,bc,cd,de,ef->af", [(4, 30), (30, 2), (2, 40), (40, 3), (3, 5)]),
    ("ij,jk,kl,lm,mn->in", [(50, 5), (5, 60), (60, 4), (4, 70), (70, 3)]),
    ("bdik,acaj,ikab,ajac,ikbd", [(2, 3, 4, 5), (6, 2, 6, 7), (4, 5, 6, 2), (6, 7, 6, 2),
                                  (4, 5, 2, 3)]),
    ("i,j,k->ijk", [(2,), (3,), (4,)]),
    ("ab,cd,ef->abcdef", [(2, 3), (3, 4), (4, 5)]),
    ("ab,cd,de->abce", [(2, 3), (3, 4), (4, 5)]),
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ii->", [(4, 4)]),
    ("abhe,hidj,jgba,hiab,gab", [(5, 3, 4, 2), (4, 6, 3, 5), (5, 2, 3, 5), (4, 6, 5, 3),
                                 (2, 5, 3)]),
]


def _flops_of(report):
    return float(re.search(r"Optimized FLOP count:\s+(\S+)", report).group(1))


@pytest.mark.parametrize("subs,shapes", PATH_CASES, ids=[p[0] for p in PATH_CASES])
def test_einsum_path_matches_numpy(subs, shapes):
    hops = [np.ones(s) for s in shapes]
    for optimize in ("greedy", True, False, ("greedy", 40)):
        want = np.einsum_path(subs, *hops, optimize=optimize)
        got = ca.einsum_path(subs, *[ca.asarray(h, device="cpu") for h in hops],
                             optimize=optimize)
        assert got[0] == want[0], (optimize, got[0], want[0])
        assert got[1] == want[1], (optimize, got[1], want[1])
    # 'optimal': the same cost (ties may be broken in another order)
    want = np.einsum_path(subs, *hops, optimize="optimal")
    got = ca.einsum_path(subs, *hops, optimize="optimal")
    assert got[0][0] == "einsum_path"
    assert _flops_of(got[1]) == pytest.approx(_flops_of(want[1]))
    # and the paths einsum_path gives run, with NumPy's values
    for path in (got[0], want[0]):
        rng = np.random.default_rng(1)
        h = [data(s, np.float64, rng) for s in shapes]
        check(ca.einsum(subs, *[ca.asarray(x, device="cpu") for x in h], optimize=path),
              subs, h)


def test_einsum_path_explicit_and_ellipsis():
    hops = [np.ones((2, 3, 4)), np.ones((4, 5)), np.ones((5, 2))]
    path = ["einsum_path", (1, 2), (0, 1)]
    got = ca.einsum_path("...ij,jk,kl->...il", *hops, optimize=path)
    want = np.einsum_path("...ij,jk,kl->...il", *hops, optimize=path)
    assert got[0] == want[0]
    # the ellipsis's letters are NumPy's choice (set order): compare the costs
    assert _flops_of(got[1]) == _flops_of(want[1])
    got = ca.einsum_path("...ij,jk,kl->...il", *hops)
    want = np.einsum_path("...ij,jk,kl->...il", *hops)
    assert got[0] == want[0]
