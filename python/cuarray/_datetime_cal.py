"""NumPy's calendar functions over cuarray datetime64 arrays: datetime_as_string,
datetime_data, busdaycalendar, is_busday, busday_offset, busday_count.

The business-day functions are element-wise int64 compositions on the day counts
(M8[D] bits), on the device of the dates: 1970-01-01 (day 0) was a Thursday, so
(d + 3) mod 7 is the weekday (Monday 0). Counting from the Monday 1969-12-29,
W(x) is the number of weekmask days before day x (whole weeks times the days per
week, plus a table of the partial week) and H(x) the number of holidays before x
(a binary search in the calendar's sorted holidays, which NumPy's busdaycalendar
already reduced to weekmask days), so B(x) = W(x) - H(x) counts the business days
before x: busday_count is B(end) - B(begin), and busday_offset finds the business
day of index B(rolled date) + offset by inverting W and stepping over the holidays
before it (one more binary search: see _day_of).

NumPy judges every argument first (its function on empty stand-ins of the
operands: the same exceptions for a bad weekmask, roll, casting or calendar).
datetime_as_string returns NumPy's array of str (cuarray holds no strings).
"""

import numpy as _np

from ._datetime import (
    DatetimeArray,
    _I8,
    _NAT,
    _base,
    _bits,
    _ca,
    _nat_mask,
    _wrap,
    asarray,
)

__all__ = ["datetime_as_string", "datetime_data", "busdaycalendar", "is_busday",
           "busday_offset", "busday_count"]

datetime_data = _np.datetime_data
_DAY = _np.dtype("M8[D]")

class _Default(str):
    """NumPy's default weekmask, told apart from one passed (NumPy refuses a
    weekmask passed with busdaycal=, even '1111100')."""

    def __repr__(self):
        return "'1111100'"


_WEEKMASK = _Default("1111100")


class _NoHolidays:
    """No holidays= given (NumPy refuses an explicit None)."""

    def __repr__(self):
        return "None"


_NOHOL = _NoHolidays()


def _host(v):
    return v.get() if isinstance(v, _base) else v


def datetime_as_string(arr, unit=None, timezone="naive", casting="same_kind"):
    """datetime_as_string(arr, unit=None, timezone='naive', casting='same_kind')

    NumPy's strings of the datetime64 values of arr (numpy.datetime_as_string),
    as a NumPy array of str: cuarray arrays hold no strings.
    """
    return _np.datetime_as_string(_host(arr), unit, timezone, casting)


class busdaycalendar:
    """busdaycalendar(weekmask='1111100', holidays=None)

    The valid days of the week and the holidays for the busday functions
    (numpy.busdaycalendar normalises them: holidays sorted, unique, NaT and days
    outside the weekmask dropped). `weekmask` (7 bools, Monday first) and
    `holidays` (datetime64[D]) are cuarray arrays on the current device.
    """

    def __init__(self, weekmask=_WEEKMASK, holidays=_NOHOL):
        self._np = _np.busdaycalendar(**_cal_kw(weekmask, holidays, None))

    @property
    def weekmask(self):
        return _ca.asarray(self._np.weekmask)

    @property
    def holidays(self):
        return asarray(self._np.holidays)

    def __repr__(self):
        return (f"cuarray.busdaycalendar(weekmask={self._np.weekmask.tolist()}, "
                f"holidays={self._np.holidays.tolist()})")


def _np_cal(busdaycal):
    return busdaycal._np if isinstance(busdaycal, busdaycalendar) else busdaycal


def _cal_kw(weekmask, holidays, busdaycal):
    """The calendar arguments for NumPy (which takes no None for them), on the
    host."""
    kw = {} if weekmask is _WEEKMASK else {"weekmask": _host(weekmask)}
    if holidays is not _NOHOL:
        kw["holidays"] = _host(holidays)
    if busdaycal is not None:
        kw["busdaycal"] = _np_cal(busdaycal)
    return kw


def _proto(x):
    """A stand-in of x for NumPy's checks: empty, of a cuarray array's dtype; a
    host value itself (NumPy converts lists, strings and Python floats its way)."""
    if isinstance(x, _base):
        return _np.empty(0, x.dtype)
    return x


def _shape_str(s):
    return "(" + ",".join(map(str, s)) + ("," if len(s) == 1 else "") + ")"


def _broadcast(arrays, out):
    """The arrays broadcast together (and to out's shape): NumPy's iterator error."""
    shapes = [a.shape for a in arrays] + ([tuple(out.shape)] if out is not None else [])
    try:
        shape = _np.broadcast_shapes(*shapes)
        if out is not None and shape != tuple(out.shape):
            raise ValueError
    except ValueError:
        raise ValueError("operands could not be broadcast together with shapes " +
                         "".join(_shape_str(s) + " " for s in shapes)) from None
    return [_ca.broadcast_to(a, shape) for a in arrays]


def _tables(weekmask, holidays, busdaycal, device):
    """The calendar as device tables: (days per week k, cum[r] = weekmask days
    among the first r of a week, pos[j] = the weekday of the j-th, holidays)."""
    cal = _np_cal(busdaycal) if busdaycal is not None else \
        _np.busdaycalendar(**_cal_kw(weekmask, holidays, None))
    wm = cal.weekmask.astype(_I8)
    cum = _np.concatenate([[0], _np.cumsum(wm)]).astype(_I8)
    pos = _np.flatnonzero(wm).astype(_I8)
    hol = cal.holidays.view(_I8)
    return (int(wm.sum()), _ca.asarray(cal.weekmask, device=device),
            _ca.asarray(cum, device=device), _ca.asarray(pos, device=device),
            _ca.asarray(hol, device=device) if hol.size else None)


def _days(dates, device=None):
    """dates as M8[D] int64 bits on the device (NumPy's 'safe' cast: checked)."""
    if isinstance(dates, DatetimeArray):
        return _bits(dates.astype(_DAY, copy=False)) if dates.dtype != _DAY \
            else _bits(dates)
    if isinstance(dates, _base):
        return dates.astype(_I8)  # (NumPy refused a non-datetime array already)
    return _bits(asarray(_np.asarray(dates).astype(_DAY), device=device))


def _offsets(offsets, device):
    if isinstance(offsets, _base):
        return offsets.astype(_I8)
    return _ca.asarray(_np.asarray(offsets).astype(_I8), device=device)  # (truncates)


def _device(*xs):
    for x in xs:
        if isinstance(x, _base):
            return x.device
    return None


def _hol_before(hol, x, side="left"):
    if hol is None:
        return _ca.zeros(x.shape, dtype=_I8, device=x.device)
    return _ca.searchsorted(hol, x.reshape(-1), side=side).reshape(x.shape)


def _is_bus(d, wm, hol):
    valid = _ca.take(wm, (d + 3) % 7)
    if hol is not None:
        i = _hol_before(hol, d)
        hit = _ca.take(hol, _ca.minimum(i, hol.size - 1)) == d
        valid = valid & ~(hit & (i < hol.size))
    return valid & ~_nat_mask(d)


def _index(d, k, cum, hol):
    """B(d): the business days before day d."""
    s = d + 3  # days since Monday 1969-12-29
    return (s // 7) * k + _ca.take(cum, s % 7) - _hol_before(hol, d)


def _day_of(t, k, cum, pos, hol):
    """The business day of index t (the inverse of _index on business days): the
    weekmask day of index t plus the holidays before it. Holiday j has c_j =
    W(holiday) - j business days before it (non-decreasing), so it comes before
    the business day of index t exactly when c_j <= t: one binary search."""
    m = t
    if hol is not None:
        s = hol + 3
        j = _ca.arange(hol.size, device=hol.device)
        c = (s // 7) * k + _ca.take(cum, s % 7) - j
        m = t + _ca.searchsorted(c, t.reshape(-1), side="right").reshape(t.shape)
    return (m // k) * 7 + _ca.take(pos, m % k) - 3


def _finish(r, out):
    if out is None:
        return r
    out[...] = r
    return out


def is_busday(dates, weekmask=_WEEKMASK, holidays=_NOHOL, busdaycal=None, out=None):
    """is_busday(dates, weekmask='1111100', holidays=None, busdaycal=None, out=None)

    Whether each date is a business day (numpy.is_busday; NaT is not).
    """
    _np.is_busday(_proto(dates), **_cal_kw(weekmask, holidays, busdaycal))
    dev = _device(dates, out)
    d, = _broadcast([_days(dates, dev)], out)
    k, wm, cum, pos, hol = _tables(weekmask, holidays, busdaycal, d.device)
    return _finish(_is_bus(d, wm, hol), out)


def busday_count(begindates, enddates, weekmask=_WEEKMASK, holidays=_NOHOL,
                 busdaycal=None, out=None):
    """busday_count(begindates, enddates, weekmask='1111100', holidays=None,
    busdaycal=None, out=None)

    The business days in [begin, end) (numpy.busday_count; negative when end is
    before begin); a NaT date raises NumPy's ValueError.
    """
    _np.busday_count(_proto(begindates), _proto(enddates),
                     **_cal_kw(weekmask, holidays, busdaycal))
    dev = _device(begindates, enddates, out)
    b, e = _broadcast([_days(begindates, dev), _days(enddates, dev)], out)
    if bool(_ca.any(_nat_mask(b))) or bool(_ca.any(_nat_mask(e))):
        raise ValueError("Cannot compute a business day count with a NaT "
                         "(not-a-time) date")
    k, wm, cum, pos, hol = _tables(weekmask, holidays, busdaycal, b.device)
    # end before begin: NumPy counts (end, begin], negated
    swap = (b > e).astype(_I8)
    b, e = b + swap, e + swap
    return _finish(_index(e, k, cum, hol) - _index(b, k, cum, hol), out)


def _month(d):
    """The proleptic Gregorian year * 12 + month of day counts d."""
    z = d + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    m = _ca.where(mp < 10, mp + 3, mp - 9)
    y = yoe + era * 400 + (m <= 2).astype(_I8)
    return y * 12 + m


_ROLLS = ("raise", "nat", "forward", "following", "backward", "preceding",
          "modifiedfollowing", "modifiedpreceding")


def busday_offset(dates, offsets, roll="raise", weekmask=_WEEKMASK, holidays=_NOHOL,
                  busdaycal=None, out=None):
    """busday_offset(dates, offsets, roll='raise', weekmask='1111100',
    holidays=None, busdaycal=None, out=None)

    Each date rolled to a business day as `roll` says, then moved by `offsets`
    business days (numpy.busday_offset, every roll mode).
    """
    _np.busday_offset(_proto(dates), _proto(offsets), roll=roll,
                      **_cal_kw(weekmask, holidays, busdaycal))
    dev = _device(dates, offsets, out)
    d = _days(dates, dev)
    d, off = _broadcast([d, _offsets(offsets, d.device)], out)
    k, wm, cum, pos, hol = _tables(weekmask, holidays, busdaycal, d.device)
    nat = _nat_mask(d)
    bus = _is_bus(d, wm, hol)
    if roll == "raise" and not bool(_ca.all(bus)):
        # NumPy stops at the first offending date, in C order
        first = int(_ca.argmax((~bus).reshape(-1)))
        if bool(nat.reshape(-1)[first]):
            raise ValueError("NaT input in busday_offset")
        raise ValueError("Non-business day date in busday_offset")
    dd = _ca.where(nat, 0, d)  # (NaT: any day, masked at the end)
    t = _index(dd, k, cum, hol)  # the first business day on or after d has index t
    back = _ca.where(bus, t, t - 1)
    if roll in ("backward", "preceding"):
        t = back
    elif roll in ("modifiedfollowing", "modifiedpreceding"):
        first = t if roll == "modifiedfollowing" else back
        other = back if roll == "modifiedfollowing" else t
        moved = _month(_day_of(first, k, cum, pos, hol)) != _month(dd)
        t = _ca.where(moved, other, first)
    elif roll == "nat":
        nat = nat | ~bus
    r = _day_of(t + off, k, cum, pos, hol)
    return _finish(_wrap(_ca.where(nat, _NAT, r), _DAY), out)
