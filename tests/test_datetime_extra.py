"""datetime64/timedelta64 reductions, scans, order statistics, calendar functions
and the other compositions (python/cuarray/_datetime_stats.py, _datetime_cal.py)
against NumPy, on both devices.

Each case runs NumPy and cuarray on the same data (random int64 counts with NaT
sprinkled in) and compares the outcome whole: the values, dtype and NaT positions,
or the exception's type and message, and the warnings given (category and text).
"""

import io
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cuarray as ca

from test_datetime import NAT, data, same


def run(f):
    """('ok', result, warnings) or ('raise', exception, warnings) of f()."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = ("ok", f())
        except Exception as e:  # noqa: BLE001 - the exception is the outcome
            r = ("raise", e)
    return r + (sorted({(x.category.__name__, str(x.message)) for x in w}),)


def host(v):
    if isinstance(v, ca.ndarray):
        return v.get()
    if isinstance(v, tuple):
        return tuple(host(e) for e in v)
    return v


def check(want_f, got_f, warn=True):
    """NumPy's want_f() and cuarray's got_f() have the same outcome."""
    want, got = run(want_f), run(got_f)
    assert want[0] == got[0], (want, got)
    if want[0] == "raise":
        assert type(got[1]) is type(want[1]), (want[1], got[1])
        assert str(got[1]) == str(want[1])
    else:
        w, g = want[1], got[1]
        if isinstance(w, tuple):
            assert isinstance(g, tuple) and len(g) == len(w)
            for a, b in zip(g, w):
                same(a, np.asarray(b))
        elif isinstance(w, (bool, int, float, str)):
            assert host(g) == w or np.asarray(host(g)) == w
        else:
            same(g, np.asarray(w))
    if warn:
        assert got[2] == want[2], (want[2], got[2])


def td(shape=(4, 9), seed=0, unit="s", nat=0.15, span=10**6):
    return data(np.dtype(f"m8[{unit}]"), shape, seed=seed, span=span, nat=nat)


def dts(shape=(4, 9), seed=0, unit="s", nat=0.15, span=10**6):
    return data(np.dtype(f"M8[{unit}]"), shape, seed=seed, span=span, nat=nat)


def samples(make, seed):
    """An array with NaT, one without, one with a NaT-only row, and an empty one."""
    a = make(seed=seed)
    clean = make(seed=seed + 1, nat=0.0)
    rows = make(seed=seed + 2)
    rows[1] = np.array("NaT", rows.dtype)
    return [a, clean, rows, make(shape=(0, 3), seed=seed),
            make(shape=(3, 0), seed=seed)]


AXES = [None, 0, 1, -1, (0, 1)]

# ---------------------------------------------------------------- reductions


REDUCTIONS = ["sum", "nansum", "mean", "nanmean", "prod", "nanprod", "var", "std",
              "nanvar", "nanstd", "min", "max", "nanmin", "nanmax", "argmin", "argmax",
              "nanargmin", "nanargmax", "ptp", "any", "all", "median", "nanmedian",
              "amin", "amax", "count_nonzero"]


@pytest.mark.parametrize("kind", ["m8", "M8"])
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions(device, kind, name):
    make = td if kind == "m8" else dts
    for i, h in enumerate(samples(make, 10)):
        x = ca.asarray(h, device=device)
        for axis in AXES:
            if name.startswith("arg") or name.startswith("nanarg"):
                if isinstance(axis, tuple):
                    continue
            kw = {} if axis is None else {"axis": axis}
            check(lambda: getattr(np, name)(h, **kw),
                  lambda: getattr(ca, name)(x, **kw))
            if name not in ("count_nonzero",):
                kw["keepdims"] = True
                check(lambda: getattr(np, name)(h, **kw),
                      lambda: getattr(ca, name)(x, **kw))


@pytest.mark.parametrize("name", ["sum", "mean", "min", "max", "argmin", "argmax",
                                  "any", "all", "prod", "var", "std", "ptp"])
def test_reduction_methods(device, name):
    for h in (td(seed=1), dts(seed=2)):
        x = ca.asarray(h, device=device)
        for axis in (None, 0, 1):
            check(lambda: getattr(h, name)(axis=axis) if hasattr(h, name)
                  else getattr(np, name)(h, axis=axis),
                  lambda: getattr(x, name)(axis=axis))


def test_reduction_arguments(device):
    """out=, dtype=, where=, initial= and refusals of NumPy's arguments."""
    h = td(seed=3)
    x = ca.asarray(h, device=device)
    o = ca.empty(9, "m8[s]", device=device)
    r = ca.sum(x, axis=0, out=o)
    assert r is o
    same(o, h.sum(axis=0))
    check(lambda: np.sum(h, dtype="m8[ms]"), lambda: ca.sum(x, dtype="m8[ms]"))
    check(lambda: np.sum(h, dtype=np.int64), lambda: ca.sum(x, dtype=np.int64))
    check(lambda: np.mean(h, axis=1, dtype=float),
          lambda: ca.mean(x, axis=1, dtype=float))
    m = h != np.timedelta64("NaT")
    check(lambda: np.sum(h, where=m),
          lambda: ca.sum(x, where=ca.asarray(m, device=device)))
    check(lambda: np.max(h, initial=np.timedelta64(5, "s")),
          lambda: ca.max(x, initial=np.timedelta64(5, "s")))
    check(lambda: np.nanmax(h, axis=0, initial=np.timedelta64(5, "s")),
          lambda: ca.nanmax(x, axis=0, initial=np.timedelta64(5, "s")))
    check(lambda: np.sum(h, axis=2), lambda: ca.sum(x, axis=2))
    check(lambda: np.var(h, ddof=1), lambda: ca.var(x, ddof=1))


# ---------------------------------------------------------------- scans


@pytest.mark.parametrize("name", ["cumsum", "nancumsum", "cumprod", "nancumprod"])
def test_scans(device, name):
    for h in samples(td, 20) + [dts(seed=21)]:
        x = ca.asarray(h, device=device)
        for axis in (None, 0, 1, -1):
            kw = {} if axis is None else {"axis": axis}
            check(lambda: getattr(np, name)(h, **kw),
                  lambda: getattr(ca, name)(x, **kw))
    h = td(seed=22)
    x = ca.asarray(h, device=device)
    check(lambda: getattr(h, "cumsum")(1), lambda: x.cumsum(1))


def test_cumulative_sum(device):
    for h in (td(seed=23), td(shape=(7,), seed=24), dts(seed=25)):
        x = ca.asarray(h, device=device)
        for axis in (None, 0, 1):
            for init in (False, True):
                check(lambda: np.cumulative_sum(h, axis=axis, include_initial=init),
                      lambda: ca.cumulative_sum(x, axis=axis, include_initial=init))
        check(lambda: np.cumulative_prod(h, axis=0),
              lambda: ca.cumulative_prod(x, axis=0))


def test_diff_ediff1d(device):
    for h in (dts(seed=26), td(seed=27)):
        x = ca.asarray(h, device=device)
        for n in (1, 2, 3):
            for axis in (0, 1, -1):
                check(lambda: np.diff(h, n, axis), lambda: ca.diff(x, n, axis))
        check(lambda: np.diff(h, prepend=h[:, :1]),
              lambda: ca.diff(x, prepend=x[:, :1]))
        check(lambda: np.diff(h, append=h[:, -1:], axis=1),
              lambda: ca.diff(x, append=x[:, -1:], axis=1))
        check(lambda: np.ediff1d(h), lambda: ca.ediff1d(x))


# ---------------------------------------------------------------- order statistics

METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf",
           "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
           "hazen", "weibull", "median_unbiased", "normal_unbiased"]


@pytest.mark.parametrize("name", ["quantile", "percentile", "nanquantile",
                                  "nanpercentile"])
@pytest.mark.parametrize("method", METHODS)
def test_quantiles(device, name, method):
    scale = 100 if "percentile" in name else 1
    qs = [0.5 * scale, 0.37 * scale, np.array([0.0, 0.25, 0.9, 1.0]) * scale]
    for h in samples(td, 30)[:3] + samples(dts, 40)[:3]:
        x = ca.asarray(h, device=device)
        for q in qs:
            for axis in (None, 0, 1):
                check(lambda: getattr(np, name)(h, q, axis=axis, method=method),
                      lambda: getattr(ca, name)(x, q, axis=axis, method=method))
            check(lambda: getattr(np, name)(h, q, axis=1, method=method, keepdims=True),
                  lambda: getattr(ca, name)(x, q, axis=1, method=method, keepdims=True))


@pytest.mark.parametrize("name", ["nanquantile", "nanpercentile", "nanmax", "nanmin"])
def test_all_nat_warning_points_at_the_caller(device, name):
    """An all-NaT row warns as NumPy does, at the line that called the function
    (warnings' stacklevel counts the frames in between; NumPy's nanquantile warns
    from its own file)."""
    h = np.array([["NaT", "NaT"], [5, "NaT"]], "m8[s]")
    x = ca.asarray(h, device=device)
    args = {"nanquantile": (0.5,), "nanpercentile": (50,)}.get(name, ())
    got, want = [], []
    for mod, a, w in ((np, h, want), (ca, x, got)):
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            r = getattr(mod, name)(a, *args, axis=1)
        w += [m for m in rec if "All-NaN" in str(m.message)]
        w.append(host(r))
    assert [x.category for x in got[:-1]] == [x.category for x in want[:-1]] == \
        [RuntimeWarning]
    assert got[0].filename == __file__
    np.testing.assert_array_equal(got[-1], want[-1])


def test_quantile_edges(device):
    h = td(seed=31)
    x = ca.asarray(h, device=device)
    e = td(shape=(0,), seed=31)
    xe = ca.asarray(e, device=device)
    for name in ("quantile", "nanquantile", "median", "nanmedian"):
        args = () if "median" in name else (0.5,)
        check(lambda: getattr(np, name)(e, *args), lambda: getattr(ca, name)(xe, *args))
    check(lambda: np.quantile(h, 1.5), lambda: ca.quantile(x, 1.5))
    check(lambda: np.quantile(h, 0.5, method="bogus"),
          lambda: ca.quantile(x, 0.5, method="bogus"))
    check(lambda: np.percentile(h, ca.asarray([10.0, 90.0]).get()),
          lambda: ca.percentile(x, ca.asarray([10.0, 90.0], device=device)))
    w = np.ones(h.shape)
    check(lambda: np.quantile(h, 0.5, axis=1, method="inverted_cdf", weights=w),
          lambda: ca.quantile(x, 0.5, axis=1, method="inverted_cdf",
                              weights=ca.asarray(w, device=device)))
    check(lambda: np.percentile(h, 50, interpolation="lower"),
          lambda: ca.percentile(x, 50, interpolation="lower"))
    o = ca.empty(9, "m8[s]", device=device)
    assert ca.median(x, axis=0, out=o) is o
    same(o, np.median(h, axis=0))
    big = np.array([I64 - 10, I64 - 2, -I64 + 5, 3], "m8[ns]")  # wrapping sums
    check(lambda: np.median(big), lambda: ca.median(ca.asarray(big, device=device)))
    check(lambda: np.nanmedian(big),
          lambda: ca.nanmedian(ca.asarray(big, device=device)))


I64 = int(np.iinfo(np.int64).max)


@pytest.mark.parametrize("shape,axis", [((41,), None), ((5, 8), 1), ((5, 8), 0),
                                        ((3, 4, 5), (0, 2)), ((5, 8), None)])
def test_medians_shapes(device, shape, axis):
    for seed, nat in ((50, 0.0), (51, 0.2), (52, 0.6)):
        h = td(shape=shape, seed=seed, nat=nat)
        x = ca.asarray(h, device=device)
        for name in ("median", "nanmedian"):
            check(lambda: getattr(np, name)(h, axis=axis),
                  lambda: getattr(ca, name)(x, axis=axis))


# ---------------------------------------------------------------- ufuncs


def test_more_ufuncs(device):
    a, b = dts(seed=60), dts(seed=61, unit="ms")
    t, u = td(seed=62), td(seed=63, unit="h")
    u.flat[:3] = np.array(0, u.dtype)
    for h in (a, t):
        x = ca.asarray(h, device=device)
        for name in ("isnan", "isfinite", "isinf", "sign", "rint", "sqrt", "signbit"):
            check(lambda: getattr(np, name)(h), lambda: getattr(ca, name)(x))
        check(lambda: np.round(h), lambda: ca.round(x))
        check(lambda: np.round(h, 2), lambda: ca.round(x, 2))
    for p, q in ((a, b), (t, u), (a, t)):
        x, y = ca.asarray(p, device=device), ca.asarray(q, device=device)
        for name in ("fmax", "fmin", "maximum", "minimum"):
            check(lambda: getattr(np, name)(p, q), lambda: getattr(ca, name)(x, y))
            check(lambda: getattr(np, name)(p, q), lambda: getattr(np, name)(x, y))
    x, y = ca.asarray(t, device=device), ca.asarray(u, device=device)
    with np.errstate(all="ignore"):
        check(lambda: np.divmod(t, u), lambda: ca.divmod(x, y))
        check(lambda: np.divmod(t, u), lambda: np.divmod(x, y))
        check(lambda: divmod(t, u), lambda: divmod(x, y))


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(st.integers(-2**63 + 1, 2**63 - 1), st.integers(-99, 99),
                          st.just(NAT)), min_size=1, max_size=40),
       st.sampled_from(["s", "ns", "D", "h"]), st.sampled_from([None, 0, 1]))
def test_hypothesis_sum_mean_cumsum(device, values, unit, axis):
    h = np.array(values, np.int64).view(f"m8[{unit}]")
    if axis == 1:  # two rows (NumPy's nanmedian takes its masked path there)
        h = np.concatenate([h, h[::-1]]).reshape(2, -1)
    x = ca.asarray(h, device=device)
    with np.errstate(all="ignore"):
        for name in ("sum", "mean", "cumsum", "median", "nanmin", "nanmax", "ptp",
                     "nanmedian"):
            check(lambda: getattr(np, name)(h, axis=axis),
                  lambda: getattr(ca, name)(x, axis=axis))
        for m in ("linear", "midpoint", "hazen", "nearest", "inverted_cdf"):
            check(lambda: np.quantile(h, 0.3, axis=axis, method=m),
                  lambda: ca.quantile(x, 0.3, axis=axis, method=m))
            check(lambda: np.nanquantile(h, [0.1, 0.7], axis=axis, method=m),
                  lambda: ca.nanquantile(x, [0.1, 0.7], axis=axis, method=m))
        check(lambda: np.diff(h), lambda: ca.diff(x))


# ---------------------------------------------------------------- calendar

ROLLS = ["raise", "nat", "forward", "following", "backward", "preceding",
         "modifiedfollowing", "modifiedpreceding", "bogus"]
WEEKMASKS = ["1111100", "1010101", [1, 1, 1, 1, 1, 1, 1], "Mon Wed Fri", "0000011",
             [True, False, False, False, False, False, False], "Sat Sun",
             "0000000", "abc", [1, 0]]


def days(n=60, seed=0, nat=0.1, span=3000):
    rng = np.random.default_rng(seed)
    d = rng.integers(18000 - span, 18000 + span, n).astype("M8[D]")
    d[rng.random(n) < nat] = np.datetime64("NaT")
    return d


def cal_kw(wm, hol, device):
    """(NumPy's, cuarray's) keyword arguments; None: not passed."""
    kw, kc = {}, {}
    if wm is not None:
        kw["weekmask"] = kc["weekmask"] = wm
    if hol is not None:
        kw["holidays"] = hol
        kc["holidays"] = ca.asarray(hol, device=device)
    return kw, kc


@pytest.mark.parametrize("wm", WEEKMASKS + [None], ids=str)
def test_is_busday_count(device, wm):
    d, e = days(seed=1), days(seed=2)
    hols = [None, days(30, seed=3, span=2000), np.array([], "M8[D]")]
    for hol in hols:
        kw, kc = cal_kw(wm, hol, device)
        x, y = ca.asarray(d, device=device), ca.asarray(e, device=device)
        check(lambda: np.is_busday(d, **kw), lambda: ca.is_busday(x, **kc))
        check(lambda: np.busday_count(d, e, **kw), lambda: ca.busday_count(x, y, **kc))
        dn, en = d[~np.isnat(d) & ~np.isnat(e)], e[~np.isnat(d) & ~np.isnat(e)]
        check(lambda: np.busday_count(dn, en, **kw),
              lambda: ca.busday_count(ca.asarray(dn, device=device),
                                      ca.asarray(en, device=device), **kc))


@pytest.mark.parametrize("roll", ROLLS)
@pytest.mark.parametrize("wm", ["1111100", "1010101", "0000011", "Tue"], ids=str)
def test_busday_offset(device, roll, wm):
    d = days(seed=4)
    off = np.random.default_rng(5).integers(-40, 40, d.shape)
    for hol in (None, days(40, seed=6, nat=0.05, span=2500)):
        kw, kc = cal_kw(wm, hol, device)
        x, o = ca.asarray(d, device=device), ca.asarray(off, device=device)
        check(lambda: np.busday_offset(d, off, roll=roll, **kw),
              lambda: ca.busday_offset(x, o, roll=roll, **kc))
        dn = d[~np.isnat(d)]
        check(lambda: np.busday_offset(dn, 3, roll=roll, **kw),
              lambda: ca.busday_offset(ca.asarray(dn, device=device), 3,
                                       roll=roll, **kc))
        # every day of two months: month ends for the modified rolls
        span = np.arange("2020-01-25", "2020-03-08", dtype="M8[D]")
        check(lambda: np.busday_offset(span, 0, roll=roll, **kw),
              lambda: ca.busday_offset(ca.asarray(span, device=device), 0, roll=roll,
                                       **kc))


def test_busday_arguments(device):
    d = days(seed=7, nat=0.0)
    x = ca.asarray(d, device=device)
    hol = days(20, seed=8, nat=0.2)
    c = np.busdaycalendar(weekmask="1110110", holidays=hol)
    cc = ca.busdaycalendar(weekmask="1110110", holidays=ca.asarray(hol, device=device))
    np.testing.assert_array_equal(cc.weekmask.get(), c.weekmask)
    same(cc.holidays, c.holidays)
    for cal in (c, cc):
        check(lambda: np.is_busday(d, busdaycal=c),
              lambda: ca.is_busday(x, busdaycal=cal))
        check(lambda: np.busday_offset(d, 2, roll="backward", busdaycal=c),
              lambda: ca.busday_offset(x, 2, roll="backward", busdaycal=cal))
        check(lambda: np.busday_count(d, d[::-1], busdaycal=c),
              lambda: ca.busday_count(x, x[::-1], busdaycal=cal))
        check(lambda: np.is_busday(d, busdaycal=c, weekmask="1111100"),
              lambda: ca.is_busday(x, busdaycal=cal, weekmask="1111100"))
    check(lambda: np.busdaycalendar(holidays=None),
          lambda: ca.busdaycalendar(holidays=None))
    check(lambda: np.busdaycalendar(weekmask="0000000"),
          lambda: ca.busdaycalendar(weekmask="0000000"))
    check(lambda: np.is_busday(d, holidays=None),
          lambda: ca.is_busday(x, holidays=None))
    for v in ("2020-01-01", ["2020-01-04", "2020-01-05"], np.datetime64("2020-02-29")):
        with ca.Device(device):
            check(lambda: np.is_busday(v), lambda: ca.is_busday(v))
            check(lambda: np.busday_offset(v, 1, roll="forward"),
                  lambda: ca.busday_offset(v, 1, roll="forward"))
            check(lambda: np.busday_offset(v, 1.7, roll="forward"),
                  lambda: ca.busday_offset(v, 1.7, roll="forward"))
    for dt in ("M8[h]", "M8[M]", "M8[Y]", "m8[D]", "int64", "float64"):
        h = d.astype(dt) if dt[0] == "M" else d.view(np.int64).astype(dt)
        y = ca.asarray(h, device=device)
        check(lambda: np.is_busday(h), lambda: ca.is_busday(y))
    check(lambda: np.busday_offset(d, np.ones(d.shape)),
          lambda: ca.busday_offset(x, ca.ones(d.shape, device=device)))
    check(lambda: np.busday_offset(d[:3], [1, 2]),
          lambda: ca.busday_offset(x[:3], ca.asarray([1, 2], device=device)))
    check(lambda: np.busday_count(d[:3].reshape(3, 1), d[:2]),
          lambda: ca.busday_count(x[:3].reshape(3, 1), x[:2]))
    check(lambda: np.busday_count(d[:6].reshape(2, 3), d[:4].reshape(4, 1)),
          lambda: ca.busday_count(x[:6].reshape(2, 3), x[:4].reshape(4, 1)))
    o = ca.empty(d.shape, bool, device=device)
    assert ca.is_busday(x, out=o) is o
    same(o, np.is_busday(d))
    check(lambda: np.is_busday(d, out=np.empty(3, bool)),
          lambda: ca.is_busday(x, out=ca.empty(3, bool, device=device)))
    r = ca.busday_offset(x, 1, roll="forward")
    assert r.device == x.device


@settings(max_examples=80, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.lists(st.integers(-40000, 40000), min_size=1, max_size=30),
       st.lists(st.integers(-500, 500), min_size=1, max_size=30),
       st.lists(st.booleans(), min_size=7, max_size=7).filter(any),
       st.lists(st.integers(-40000, 40000), max_size=20),
       st.sampled_from(ROLLS[1:-1]))
def test_hypothesis_busday(device, dates, offs, wm, hols, roll):
    n = min(len(dates), len(offs))
    d = np.array(dates[:n], np.int64).astype("M8[D]")
    off = np.array(offs[:n], np.int64)
    hol = np.array(hols, np.int64).astype("M8[D]")
    x = ca.asarray(d, device=device)
    xh = ca.asarray(hol, device=device)
    check(lambda: np.busday_offset(d, off, roll=roll, weekmask=wm, holidays=hol),
          lambda: ca.busday_offset(x, ca.asarray(off, device=device), roll=roll,
                                   weekmask=wm, holidays=xh))
    check(lambda: np.busday_count(d, d[::-1], weekmask=wm, holidays=hol),
          lambda: ca.busday_count(x, x[::-1], weekmask=wm, holidays=xh))
    check(lambda: np.is_busday(d, weekmask=wm, holidays=hol),
          lambda: ca.is_busday(x, weekmask=wm, holidays=xh))


@pytest.mark.parametrize("unit", ["D", "s", "ms", "ns", "M", "Y", "h"])
def test_datetime_as_string(device, unit):
    h = data(np.dtype(f"M8[{unit}]"), (3, 5), seed=9, span=10**5)
    x = ca.asarray(h, device=device)
    for kw in ({}, {"unit": "D"}, {"unit": "auto"}, {"unit": "s"}, {"timezone": "UTC"},
               {"timezone": "naive"}, {"timezone": "bogus"}, {"unit": "as"},
               {"unit": "Y", "casting": "safe"}, {"unit": "xx"}):
        want, got = run(lambda: np.datetime_as_string(h, **kw)), \
            run(lambda: ca.datetime_as_string(x, **kw))
        assert want[0] == got[0]
        if want[0] == "ok":
            assert isinstance(got[1], np.ndarray)
            np.testing.assert_array_equal(got[1], want[1])
            assert got[1].dtype == want[1].dtype
        else:
            assert type(got[1]) is type(want[1]) and str(got[1]) == str(want[1])
    t = ca.asarray(td(seed=10), device=device)
    check(lambda: np.datetime_as_string(td(seed=10)), lambda: ca.datetime_as_string(t))
    assert ca.datetime_data(x.dtype) == np.datetime_data(h.dtype)


# ---------------------------------------------------------------- other compositions


def test_creation_and_conversions(device):
    a, b = np.datetime64("2020-01-01"), np.datetime64("2020-03-01T12")
    step = np.timedelta64(7, "h")
    with ca.Device(device):
        check(lambda: np.arange(a, b, step), lambda: ca.arange(a, b, step))
        check(lambda: np.arange("2020-01", "2021-01", dtype="M8[M]"),
              lambda: ca.arange("2020-01", "2021-01", dtype="M8[M]"))
        xa, xb = ca.asarray(a), ca.asarray(b)
        check(lambda: np.arange(a, b, 3), lambda: ca.arange(xa, xb, 3))
        check(lambda: np.linspace(a, b, 5), lambda: ca.linspace(a, b, 5))
        check(lambda: np.linspace(a, b, 5), lambda: ca.linspace(xa, xb, 5))
        check(lambda: np.arange(a, 5.5), lambda: ca.arange(a, 5.5))
    h = dts(seed=70, shape=(3, 4))
    x = ca.asarray(h, device=device)
    t = td(seed=71, shape=(5,))
    y = ca.asarray(t, device=device)
    for p, q in ((h, x), (t, y)):
        assert repr(q) == repr(p) and str(q) == str(p)
        assert q.tolist() == p.tolist()
        assert q.item(0) == p.item(0) or (np.isnat(p.flat[0]) and q.item(0) is None)
        assert repr(q[0]) == repr(np.asarray(p[0]))
        s = q.reshape(-1)[1]
        assert s.item() == p.reshape(-1)[1].item() or s.item() is None
        for conv in (int, float, complex):
            check(lambda: conv(np.asarray(p.reshape(-1)[1])), lambda: conv(s))
        check(lambda: operator_index(np.asarray(p.reshape(-1)[1])),
              lambda: operator_index(s))
    with pytest.raises(TypeError):  # cuarray holds no strings or objects
        x.astype(str)
    with pytest.raises(TypeError):
        x.astype(object)


def operator_index(v):
    import operator
    return operator.index(v)


def test_save_load_round_trip(device):
    for h in (dts(seed=72), td(seed=73, unit="ns")):
        x = ca.asarray(h, device=device)
        f = io.BytesIO()
        ca.save(f, x)
        f.seek(0)
        r = ca.load(f)
        same(r, h)
        f.seek(0)
        np.testing.assert_array_equal(np.load(f), h)


def test_host_compositions(device):
    """Functions NumPy answers (or refuses) for datetimes, through the host copy."""
    h, t = dts(seed=74), td(seed=75)
    hc, tc = dts(seed=76, nat=0.0), td(seed=77, nat=0.0)
    for p in (h, t, hc, tc):
        x = ca.asarray(p, device=device)
        check(lambda: np.average(p), lambda: ca.average(x))
        check(lambda: np.histogram(p), lambda: ca.histogram(x))
        check(lambda: np.histogram_bin_edges(p), lambda: ca.histogram_bin_edges(x))
        check(lambda: np.trapezoid(p), lambda: ca.trapezoid(x))
        check(lambda: np.gradient(p, axis=0), lambda: ca.gradient(x, axis=0))
        check(lambda: np.isclose(p, p), lambda: ca.isclose(x, x))
        check(lambda: np.allclose(p, p), lambda: ca.allclose(x, x))
        check(lambda: np.lexsort([p[0], p[1]]), lambda: ca.lexsort([x[0], x[1]]))
        check(lambda: np.sort_complex(p), lambda: ca.sort_complex(x))
        check(lambda: np.select([np.isnat(p)], [p]),
              lambda: ca.select([ca.isnat(x)], [x]))
        check(lambda: np.select([np.isnat(p)], [p], p[0, 0]),
              lambda: ca.select([ca.isnat(x)], [x], x[0, 0]))
        check(lambda: np.nonzero(p), lambda: ca.nonzero(x))
        check(lambda: np.array_equal(p, p), lambda: ca.array_equal(x, x))
    tw = td(seed=78, nat=0.0)
    check(lambda: np.average(tc, weights=np.ones(tc.shape)),
          lambda: ca.average(ca.asarray(tc, device=device),
                             weights=ca.ones(tc.shape, device=device)))
    check(lambda: np.histogram(tw, bins=np.array([-10**5, 0, 10**5], "m8[s]")),
          lambda: ca.histogram(ca.asarray(tw, device=device),
                               bins=ca.asarray(np.array([-10**5, 0, 10**5], "m8[s]"),
                                               device=device)))


def test_parts_triangles_sets(device):
    for h in (dts(seed=80, shape=(4, 4)), td(seed=81, shape=(4, 4))):
        x = ca.asarray(h, device=device)
        for name in ("real", "imag", "isreal", "iscomplex", "angle", "tril", "triu",
                     "i0", "conj", "fix", "nan_to_num", "real_if_close", "positive"):
            check(lambda: getattr(np, name)(h), lambda: getattr(ca, name)(x))
        same(x.imag, h.imag)
        same(x.real, h.real)
        check(lambda: np.tril(h, -1), lambda: ca.tril(x, -1))
        check(lambda: np.triu(h, 2), lambda: ca.triu(x, 2))
        check(lambda: np.clip(h), lambda: ca.clip(x))
        check(lambda: np.clip(h, None, None), lambda: ca.clip(x, None, None))
        for name in ("unique_all", "unique_counts", "unique_inverse"):
            check(lambda: tuple(getattr(np, name)(h)),
                  lambda: tuple(getattr(ca, name)(x)))
        same(ca.unique_values(x), np.unique(h))
        for en in (True, False):
            check(lambda: np.unique(h, True, True, True, equal_nan=en),
                  lambda: ca.unique(x, True, True, True, equal_nan=en))
            check(lambda: np.unique(h, equal_nan=en),
                  lambda: ca.unique(x, equal_nan=en))
            check(lambda: np.unique(h, return_counts=True, equal_nan=en),
                  lambda: ca.unique(x, return_counts=True, equal_nan=en))


PAIR_FUNCS = [
    ("isin", lambda m, a, b: m.isin(a, b)),
    ("intersect1d", lambda m, a, b: m.intersect1d(a, b)),
    ("intersect1d_idx", lambda m, a, b: m.intersect1d(a, b, return_indices=True)),
    ("union1d", lambda m, a, b: m.union1d(a, b)),
    ("setdiff1d", lambda m, a, b: m.setdiff1d(a, b)),
    ("setxor1d", lambda m, a, b: m.setxor1d(a, b)),
    ("digitize", lambda m, a, b: m.digitize(a, b)),
    ("dot", lambda m, a, b: m.dot(a, b)), ("matmul", lambda m, a, b: m.matmul(a, b)),
    ("matmul_op", lambda m, a, b: a @ b), ("outer", lambda m, a, b: m.outer(a, b)),
    ("inner", lambda m, a, b: m.inner(a, b)), ("vdot", lambda m, a, b: m.vdot(a, b)),
    ("tensordot", lambda m, a, b: m.tensordot(a, b, 1)),
    ("kron", lambda m, a, b: m.kron(a, b)),
    ("einsum", lambda m, a, b: m.einsum("i,i", a, b)),
    ("vecdot", lambda m, a, b: m.vecdot(a, b)),
    ("searchsorted", lambda m, a, b: m.searchsorted(m.sort(a), b)),
    ("concatenate", lambda m, a, b: m.concatenate([a, b])),
    ("stack", lambda m, a, b: m.stack([a, b])),
    ("fmax", lambda m, a, b: m.fmax(a, b)), ("fmin", lambda m, a, b: m.fmin(a, b)),
    ("where", lambda m, a, b: m.where(m.isnat(a), a, b)),
    ("bincount", lambda m, a, b: m.bincount(a)),
    ("interp", lambda m, a, b: m.interp(a, a, a)), ("cov", lambda m, a, b: m.cov(a)),
]


@pytest.mark.parametrize("name,f", PAIR_FUNCS, ids=[n for n, _ in PAIR_FUNCS])
def test_pairs(device, name, f):
    h = dts(seed=90, shape=(12,), nat=0.2, span=20)
    t = td(seed=91, shape=(12,), nat=0.2, span=20)
    for a, b in ((h, h[::-1]), (t, t[::-1]), (h, t), (t, 3), (t, np.int64(2)),
                 (np.sort(h), h[:5])):
        x = ca.asarray(a, device=device)
        y = ca.asarray(b, device=device) if isinstance(b, np.ndarray) else b
        with np.errstate(all="ignore"):
            check(lambda: f(np, a, b), lambda: f(ca, x, y))


@pytest.mark.parametrize("wm", ["1111100", "0101010", "1000000"])
def test_busday_dense_holidays(device, wm):
    """Holidays on 40% of four years' days and offsets of years: the inverse of the
    business-day index steps over many holidays at once."""
    rng = np.random.default_rng(3)
    days4 = np.arange("2019-01-01", "2023-01-01", dtype="M8[D]")
    hol = days4[rng.random(days4.size) < 0.4]
    d = np.arange("2018-06-01", "2023-06-01", dtype="M8[D]")
    off = rng.integers(-900, 900, d.size)
    x, o = ca.asarray(d, device=device), ca.asarray(off, device=device)
    xh = ca.asarray(hol, device=device)
    for roll in ("forward", "backward", "modifiedfollowing", "modifiedpreceding", "nat"):
        check(lambda: np.busday_offset(d, off, roll=roll, weekmask=wm, holidays=hol),
              lambda: ca.busday_offset(x, o, roll=roll, weekmask=wm, holidays=xh))
    check(lambda: np.busday_count(d, d[::-1], weekmask=wm, holidays=hol),
          lambda: ca.busday_count(x, x[::-1], weekmask=wm, holidays=xh))
    check(lambda: np.is_busday(d, weekmask=wm, holidays=hol),
          lambda: ca.is_busday(x, weekmask=wm, holidays=xh))
