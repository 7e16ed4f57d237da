"""kernels/ops.def is the one table of element-wise ops: check that every row is
tested, that the generated table matches it, and that the loops of NumPy's ufuncs
are NumPy's own (in NumPy's order, which decides type resolution)."""

from pathlib import Path

import numpy as np

from cuarray import _core
from cuarray._generated_ops import OPS

import test_elementwise
import test_scipy_special

OPS_DEF = Path(__file__).resolve().parent.parent / "kernels" / "ops.def"
OURS = set("?bBhHiIlLefdFD")
# ops of the table that are NumPy functions rather than ufuncs, or whose loops
# are defined here (where/clip/round/angle/real/imag are not NumPy ufuncs)
NOT_UFUNCS = {"where", "round", "angle", "real", "imag", "clip", "i0"}


def parse_ops_def():
    names = []
    for line in OPS_DEF.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.append(line.split()[0])
    return names


def test_every_op_has_a_test():
    names = parse_ops_def()
    assert len(names) == len(set(names))
    # scipy.special's rows are tested against SciPy in test_scipy_special.py
    special = [n for n in names if n.startswith("_special_")]
    names = [n for n in names if not n.startswith("_special_")]
    untested = [n for n in names if n not in test_elementwise.REFERENCE]
    untested += [n for n in special if n not in test_scipy_special.REFERENCE]
    assert not untested, f"ops of kernels/ops.def without a reference test: {untested}"
    tested_loops = {name for name, sig in test_elementwise.LOOPS}
    assert set(names) <= tested_loops


def test_special_loops_are_scipys():
    """SciPy's loops in SciPy's order (less long double and the complex loops
    test_scipy_special.NO_COMPLEX names)."""
    for name, nin, nout, flags, sigs, expr in OPS:
        if name.startswith("_special_"):
            short = name[len("_special_"):]
            assert sigs == test_scipy_special.scipy_types(short), short
            assert "exact" in flags, short


def test_generated_table_is_current():
    assert [op[0] for op in OPS] == parse_ops_def()
    assert sorted(_core._ops) == sorted(parse_ops_def())


def test_loops_are_numpys():
    for name, nin, nout, flags, sigs, expr in OPS:
        if name in NOT_UFUNCS or name.startswith("_"):
            continue
        uf = getattr(np, name)
        assert (uf.nin, uf.nout) == (nin, nout), name
        theirs = []
        for t in uf.types:
            t = t.replace("q", "l").replace("Q", "L")
            if all(c in OURS for c in t.replace("->", "")) and t not in theirs:
                theirs.append(t)
        assert sigs == theirs, f"{name}: ops.def has {sigs}, NumPy has {theirs}"


def test_clip_loops_match_numpys_clip_ufunc():
    from numpy._core import umath
    theirs = []
    for t in umath.clip.types:
        t = t.replace("q", "l").replace("Q", "L")
        if all(c in OURS for c in t.replace("->", "")) and t not in theirs:
            theirs.append(t)
    ours = dict((n, s) for n, _, _, _, s, _ in OPS)["clip"]
    assert ours == theirs


def test_internal_ops_match_numpys_two_result_loops():
    """frexp's parts: NumPy's e->ei, f->fi, d->di split into two ops."""
    ours = dict((n, s) for n, _, _, _, s, _ in OPS)
    theirs = [t for t in np.frexp.types if all(c in OURS for c in t.replace("->", ""))]
    assert ours["_frexp_mant"] == [t[:4] for t in theirs]
    assert ours["_frexp_exp"] == [t[:3] + t[4] for t in theirs]


def test_i0_loops_give_numpys_dtypes():
    ours = dict((n, s) for n, _, _, _, s, _ in OPS)["i0"]
    for sig in ours:
        c, out = sig.split("->")
        assert np.i0(np.ones(2, c)).dtype == np.dtype(out), sig
