"""kernels/reductions.def is the one table of reductions and scans: check that every
row has a reference test against NumPy (float64 arithmetic) on random data, that the
generated tables match the file, that the result dtypes are NumPy's, and that every
kernel op is reachable and has the pairs its functions need."""

from pathlib import Path

import numpy as np
import pytest

import cuarray as ca
from cuarray import _core
from cuarray._generated_reductions import ALIASES, FUNCTIONS, KERNELS, NOMETHOD, TYPE_CHARS

from conftest import ALL_DTYPES, random_array

DEF = Path(__file__).resolve().parent.parent / "kernels" / "reductions.def"
ROWS = {f[0]: f for f in FUNCTIONS}


def wide(x):
    """x in the float64 (complex128) arithmetic the references compute in."""
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def near_one(shape, dtype, rng):
    """Data for products: integers in [-2, 2], floats near 1, so nothing overflows."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.8
    if dtype.kind in "iu":
        lo = 0 if dtype.kind == "u" else -2
        return rng.integers(lo, 3, size=shape).astype(dtype)
    x = 1 + 0.05 * rng.standard_normal(shape)
    if dtype.kind == "c":
        x = x + 0.05j * rng.standard_normal(shape)
    return x.astype(dtype)


def exact_or_wide(op):
    """op in the input's own integer arithmetic (exact, wrapping as NumPy's), or in
    float64 for inexact inputs."""
    def ref(x, axis):
        return op(x if x.dtype.kind in "biu" else wide(x), axis)
    return ref


def magnitude(op):
    """The scale of op's rounding error: op over |x| in float64."""
    return lambda x, axis: op(np.abs(wide(x)), axis)


def with_nans(data):
    """data with NaN at every flat index = 3 (mod 7): float and complex inputs, and
    no slice of a (3, 4, 5) array along any axis is all NaN."""
    def make(shape, dtype, rng):
        x = data(shape, dtype, rng)
        if x.dtype.kind in "fc":
            x.reshape(-1)[np.arange(x.size) % 7 == 3] = np.nan
        return x
    return make


# name -> (data, reference(x, axis), error scale(x, axis) or None for exact results,
#          axes). Every row of reductions.def needs an entry.
REFERENCE = {
    "sum": (random_array, exact_or_wide(lambda x, ax: np.sum(x, axis=ax)),
            magnitude(lambda x, ax: np.sum(x, axis=ax)), None),
    "prod": (near_one, exact_or_wide(lambda x, ax: np.prod(x, axis=ax)),
             magnitude(lambda x, ax: np.prod(x, axis=ax) * 8), None),
    "mean": (random_array, lambda x, ax: np.mean(wide(x), axis=ax),
             magnitude(lambda x, ax: np.mean(x, axis=ax)), None),
    "max": (random_array, lambda x, ax: np.max(x, axis=ax), None, None),
    "min": (random_array, lambda x, ax: np.min(x, axis=ax), None, None),
    "argmax": (random_array, lambda x, ax: np.argmax(x, axis=ax), None, "one"),
    "argmin": (random_array, lambda x, ax: np.argmin(x, axis=ax), None, "one"),
    "var": (random_array, lambda x, ax: np.var(wide(x), axis=ax),
            magnitude(lambda x, ax: np.mean(x * x, axis=ax) * 4), None),
    "std": (random_array, lambda x, ax: np.std(wide(x), axis=ax),
            magnitude(lambda x, ax: np.sqrt(np.mean(x * x, axis=ax)) * 4), None),
    "any": (random_array, lambda x, ax: np.any(x, axis=ax), None, None),
    "all": (random_array, lambda x, ax: np.all(x, axis=ax), None, None),
    "cumsum": (random_array, exact_or_wide(lambda x, ax: np.cumsum(x, axis=ax)),
               magnitude(lambda x, ax: np.cumsum(x, axis=ax)), "one"),
    "cumprod": (near_one, exact_or_wide(lambda x, ax: np.cumprod(x, axis=ax)),
                magnitude(lambda x, ax: np.cumprod(x, axis=ax) * 8), "one"),
    "nansum": (with_nans(random_array), exact_or_wide(lambda x, ax: np.nansum(x, axis=ax)),
               magnitude(lambda x, ax: np.nansum(x, axis=ax)), None),
    "nanprod": (with_nans(near_one), exact_or_wide(lambda x, ax: np.nanprod(x, axis=ax)),
                magnitude(lambda x, ax: np.nanprod(x, axis=ax) * 8), None),
    "nancumsum": (with_nans(random_array),
                  exact_or_wide(lambda x, ax: np.nancumsum(x, axis=ax)),
                  magnitude(lambda x, ax: np.nancumsum(x, axis=ax)), "one"),
    "nancumprod": (with_nans(near_one),
                   exact_or_wide(lambda x, ax: np.nancumprod(x, axis=ax)),
                   magnitude(lambda x, ax: np.nancumprod(x, axis=ax) * 8), "one"),
    "_nanmax": (with_nans(random_array), lambda x, ax: np.nanmax(x, axis=ax), None, None),
    "_nanmin": (with_nans(random_array), lambda x, ax: np.nanmin(x, axis=ax), None, None),
    "_nanargmax": (with_nans(random_array), lambda x, ax: np.nanargmax(x, axis=ax), None,
                   "one"),
    "_nanargmin": (with_nans(random_array), lambda x, ax: np.nanargmin(x, axis=ax), None,
                   "one"),
    "_nancount": (with_nans(random_array), lambda x, ax: np.sum(~np.isnan(x), axis=ax),
                  None, None),
}
# the NumPy function of each row whose name is not NumPy's (the '_' primitives of
# python/cuarray/_nanfunctions.py)
NUMPY_FN = {"_nanmax": np.nanmax, "_nanmin": np.nanmin, "_nanargmax": np.nanargmax,
            "_nanargmin": np.nanargmin, "_nancount": lambda x: np.sum(~np.isnan(x))}
AXES = {None: [None, 0, -1, (0, 2), (1,)], "one": [None, 0, 1, -1]}
EPS = {np.dtype(t): np.finfo(t).eps for t in (np.float16, np.float32, np.float64,
                                             np.complex64, np.complex128)}


def parse_def():
    kernels, fns = [], []
    for line in DEF.read_text().splitlines():
        line = line.strip()
        if line.startswith("kernel "):
            kernels.append(line.split()[1])
        elif line.startswith("fn "):
            fns.append(line.split()[1])
    return kernels, fns


def test_every_row_has_a_test():
    _, fns = parse_def()
    untested = [n for n in fns if n not in REFERENCE]
    assert not untested, f"rows of kernels/reductions.def without a reference: {untested}"
    assert set(REFERENCE) <= set(fns), "references of functions the table lacks"


def test_generated_table_is_current():
    kernels, fns = parse_def()
    assert [k[0] for k in KERNELS] == kernels
    assert [f[0] for f in FUNCTIONS] == fns
    for name, *_rest, doc in FUNCTIONS:
        fn = getattr(_core, name)
        assert fn.__doc__ is not None and doc.splitlines()[0] in fn.__doc__
        assert getattr(ca, name) is fn
        if name in NOMETHOD:
            assert not hasattr(ca.ndarray, name), name
        else:
            assert getattr(ca.ndarray, name).__doc__ == fn.__doc__
    for alias, name in ALIASES.items():
        assert getattr(_core, alias).__doc__ == getattr(_core, name).__doc__


def test_result_dtypes_are_numpys():
    for name, _k, _bk, _rule, result, *_ in FUNCTIONS:
        for c, want in zip(TYPE_CHARS, result):
            x = np.ones(3, c)
            got = np.asarray(NUMPY_FN.get(name, getattr(np, name, None))(x)).dtype
            assert got == np.dtype(want), f"{name}({np.dtype(c)}): NumPy gives {got}"


def test_every_kernel_is_reachable_and_has_its_pairs():
    pairs = {k[0]: set(k[7]) for k in KERNELS}
    scans = {k[0]: set(k[8]) for k in KERNELS}
    used = {"SUM" for k in KERNELS if k[6] == "mean"}  # the aux pass of var and std
    for name, kernel, bool_kernel, rule, result, *_rest in FUNCTIONS:
        sig = ROWS[name][8]
        used |= {kernel, bool_kernel} - {"-"}
        have = scans[kernel] if sig == "scan" else pairs[kernel]
        for c, r in zip(TYPE_CHARS, result):
            if sig == "scan" or rule in ("same", "index", "bool") or r in "lL":
                # the default dtypes run the kernel on the input as it is
                assert f"{c}->{r}" in have, (name, c, r)
    assert {k[0] for k in KERNELS} == used, "kernel rows that no function uses"


def check_close(got, want, scale, rdt):
    got = np.asarray(got)
    assert got.dtype == rdt and got.shape == want.shape, (got.dtype, rdt, got.shape,
                                                          want.shape)
    if scale is None or rdt.kind in "biu":
        np.testing.assert_array_equal(got, want)
        return
    tol = 8 * EPS[rdt] * (np.abs(want.astype(np.complex128)) + scale)
    err = np.abs(got.astype(np.complex128) - want.astype(np.complex128))
    assert (err <= tol + np.finfo(rdt).tiny).all(), (got, want, err, tol)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("name", [f[0] for f in FUNCTIONS])
def test_row_against_numpy_float64(name, dtype):
    data, ref, scale, axes = REFERENCE[name]
    rng = np.random.default_rng(sum(map(ord, name)) + np.dtype(dtype).num)
    x = data((3, 4, 5), dtype, rng)
    rdt = np.dtype(ROWS[name][4][TYPE_CHARS.index(np.dtype(dtype).char)])
    a = ca.asarray(x, device="cpu")
    for axis in AXES[axes]:
        want = np.asarray(ref(x, axis)).astype(rdt)
        sc = None if scale is None else np.asarray(scale(x, axis), np.float64)
        check_close(getattr(ca, name)(a, axis=axis).get(), want, sc, rdt)
        if name not in NOMETHOD:
            check_close(getattr(a, name)(axis=axis).get(), want, sc, rdt)
