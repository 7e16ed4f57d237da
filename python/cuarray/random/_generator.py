"""Generator: NumPy's Generator interface over cuarray's bit generators: the
permutations, integers, choice and the class itself; the distributions (one kernel
launch of the ``_dist`` primitive each, or a short composition of such draws) are
in _distributions.py.
"""

import math as _math
import operator

import numpy as _np

import cuarray as _ca

from .. import _core
from . import _params as P
from ._distributions import _Draws
from ._params import _F64, _I64

_CoreGenerator = _core.Generator


class _Distributions(_Draws):
    """The distributions (_Draws) and the permutations shared by Generator and
    RandomState (a mixin over _core.Generator)."""

    __slots__ = ()

    # ------------------------------------------------------------- permutations
    def _keys(self, shape, dev):
        """Random 64-bit sort keys (ties have probability n^2 / 2^65)."""
        return self._bits64(shape, dev, "a permutation")

    def _words32(self, n, dev, what="a permutation"):
        """n uniform 32-bit words (uint32): Philox, or the cuRAND generator's."""
        bg = self._external()
        if bg is None:
            return _CoreGenerator.integers(self, 0, 2**32, (n,), _np.uint32, device=dev)
        if bg._quasi:
            raise ValueError(f"{type(bg).__name__} is quasi-random: {what} needs "
                             "independent random keys")
        return bg._raw(n, dev)

    def _perm(self, n, dev):
        """A random permutation of arange(n) (int64), every one equally likely.

        Up to 2^31 - 1 items: 2n words from the bit generator, keys k = the
        first n and slot words w = the rest, and one _core._perm_sort, whose
        result is defined as the stable sort of the items by k with every run
        of equal keys then ordered by w at its slots (kernels/shared/perm_impl.h). When
        that is not enough (two equal keys with equal w, or a segment too long
        for the fast placement) the primitive says so and _perm_generic computes
        the same definition with sorts, and breaks the remaining ties with fresh
        words (_untie). Uniform: sorting i.i.d. keys gives every order of the
        items with distinct keys equally likely; given k (so given the runs and
        their slots), the w at those slots are i.i.d. and independent of k, so
        each run's order is uniform too, and _untie's later rounds are exact in
        the same way; so all n! permutations are equally likely (given ideal
        random bits). It is a function of the bit generator's words alone, so
        the same on the cpu device (the same primitive in host C) and a GPU.
        Beyond 2^31 - 1 items: 64-bit keys, one sort and _untie.
        """
        if n < 2:
            return _ca.arange(n, dtype=_I64, device=dev)
        if n > _PERM32_MAX:
            sk, perm = _sort_pairs(self._keys((n,), dev), 64)
            self._untie(sk, perm)
            return perm
        kw = self._words32(2 * n, dev)
        k, w = kw[:n], kw[n:]
        perm, tied = _core._perm_sort(k, w, _PERM_SHIFT)
        if bool(tied):  # about 2^-13 of the time at 2^26 items (n^2 / 2^65)
            perm = self._perm_generic(k, w)
        return perm

    def _perm_generic(self, k, w):
        """_perm's permutation from keys k and slot words w by sorts: the
        stable order of k, each run of equal keys ordered by w at its slots,
        then _untie's rounds on what still ties."""
        sk, perm = _sort_pairs(k, 32)
        self._untie(sk, perm, first=w)
        return perm

    def _untie(self, sk, perm, bits=32, first=None):
        """Shuffle, in place in perm, the entries of every run of equal keys in sk
        (sorted keys, perm the positions they came from), uniformly.

        Each round takes the slots whose key equals a neighbour's, gives each a
        random word r (the first round: first[slot] when `first` is given, n
        words indexed by slot; else and later: fresh `bits`-bit words, 32; fewer
        only in tests, to force more rounds) and sorts them by (run number, r)
        with (run, r) as one 64-bit key; runs stay where they are, their entries
        move to r's order. Slots whose (run, r) tie go to the next round, until
        none tie.
        """
        dev = sk.device
        keys, pos = sk, None  # pos: the positions in perm of the round's slots
        while keys.size > 1:
            eq = keys[1:] == keys[:-1]
            no = _ca.zeros(1, dtype=bool, device=dev)
            ep = _ca.concatenate([no, eq, no])
            slots = _ca.flatnonzero(ep[:-1] | ep[1:])
            m = int(slots.size)
            if m == 0:
                return
            if m > 2**32:
                raise ValueError(f"a permutation with {m} tied keys is out of range")
            kt = keys[slots]
            start = _ca.concatenate([_ca.ones(1, dtype=bool, device=dev),
                                     kt[1:] != kt[:-1]])
            run = (_ca.cumsum(start, dtype=_I64) - 1).astype(_np.uint64)
            if first is not None:
                r, first = first[slots], None
            else:
                r = self._words32(m, dev)
                if bits < 32:
                    r = r >> _np.uint32(32 - bits)
            ck = (run << _np.uint64(32)) | r.astype(_np.uint64)
            keys, order = _sort_pairs(ck, 32 + (m - 1).bit_length())
            p = slots if pos is None else pos[slots]
            perm[p] = perm[p[order]]
            pos = p

    def bytes(self, length):
        """bytes(length): `length` random bytes (uniform integers 0..255)."""
        length = operator.index(length)
        if length < 0:
            raise ValueError("negative dimensions are not allowed")
        if self._external() is not None:
            w = self._bits64((-(-length // 8),), P.resolve_device(None), "bytes")
            return w.get().tobytes()[:length]
        a = _CoreGenerator.integers(self, 0, 256, (length,), _np.uint8, device="cpu")
        return a.get().tobytes()


# ------------------------------------------------------------------ integers
def _mulhi64(x, r):
    """floor(x r / 2**64) for uint64 arrays x and r, in 32-bit halves."""
    m = _np.uint64(0xFFFFFFFF)
    s32 = _np.uint64(32)
    xh, xl = x >> s32, x & m
    rh, rl = r >> s32, r & m
    a, b, c = xh * rl, xl * rh, xl * rl
    carry = ((a & m) + (b & m) + (c >> s32)) >> s32
    return xh * rh + (a >> s32) + (b >> s32) + carry


def _int_bounds(x):
    if isinstance(x, _ca.ndarray):
        if x.dtype.kind not in "biu":
            raise TypeError("integer bounds are required")
        return x
    a = _np.asarray(x)
    if a.dtype.kind not in "biu" and a.dtype != object:
        raise TypeError("integer bounds are required")
    return a


def _array_integers(gen, low, high, size, dtype, endpoint, device):
    """integers with array bounds: low + floor(X r / 2**64), X uniform 64-bit and r
    = high - low (+ 1): each value's probability is off by at most r / 2**64."""
    dt = _np.dtype(dtype)
    if dt.kind not in "biu":
        raise TypeError(f"Unsupported dtype {dt!r} for integers")
    lo_min, hi_max = (0, 1) if dt == _np.bool_ else (_np.iinfo(dt).min, _np.iinfo(dt).max)
    low, high = _int_bounds(low), _int_bounds(high)
    last = high if endpoint else high - 1
    if P._any(low < lo_min):
        raise ValueError(f"low is out of bounds for {dt.name}")
    if P._any(last > hi_max):
        raise ValueError(f"high is out of bounds for {dt.name}")
    if P._any(last < low):
        raise ValueError("low > high" if endpoint else "low >= high")
    dev = P.resolve_device(device)
    shape = P.broadcast_shape(P.size_tuple(size), [low, high])

    def u64(v):
        a = _ca.asarray(v, device=dev).astype(_np.uint64)
        return _ca.broadcast_to(a, shape)

    lo_u, last_u = u64(low), u64(last)
    r = last_u - lo_u + _np.uint64(1)  # 0: the full 2**64 range
    x = gen._bits64(shape, dev)
    v = lo_u + _ca.where(r == _np.uint64(0), x, _mulhi64(x, r))
    if dt == _np.bool_:
        return v != _np.uint64(0)
    return v.astype(dt)


def _new_generator(cls, key, seq, bitgen):
    """A new cls (Generator or RandomState) on the Philox key, with its seed
    sequence and the BitGenerator it was made from (None: its own)."""
    self = _CoreGenerator.__new__(cls, key)
    self._seq = seq
    self._bitgen = bitgen
    return self


class Generator(_Distributions, _CoreGenerator):
    """Generator(bit_generator=None)

    NumPy's Generator interface. ``bit_generator`` is a seed (an int in
    [0, 2**64), None for fresh entropy, or a numpy.random.SeedSequence) or one of
    cuarray.random's bit generators: Philox (ours, the default: the same numbers
    on the cpu device and every GPU) or cuRAND's (XORWOW, MRG32k3a,
    Philox4_32_10, MTGP32, Sobol32, ScrambledSobol32, Sobol64, ScrambledSobol64),
    whose words feed the same transforms. ``state`` is ``(seed, offset)`` of the
    Philox stream. Every method takes ``device=`` (default: the current device)
    and queues its kernels on that device's current stream.
    """

    __slots__ = ("_seq", "_bitgen")

    def uniform(self, low=0.0, high=1.0, size=None, dtype=_np.float64, *, device=None):
        """uniform(low=0.0, high=1.0, size=None, dtype=float64, *, device=None)

        low + (high - low) U[0, 1); low and high broadcast. As NumPy's Generator
        (not RandomState), high < low is a ValueError.
        """
        lo, hi = P.as_param(low), P.as_param(high)
        if type(lo) in (int, float) and type(hi) in (int, float):
            # the common call: Python arithmetic (an infinite or NaN range is the
            # OverflowError that the draw raises)
            bad = -_math.inf < hi - lo < 0
        elif isinstance(lo, _ca.ndarray) or isinstance(hi, _ca.ndarray):
            rng = _ca.subtract(hi, lo)
            bad = P._all(_ca.isfinite(rng)) and P._any(_ca.less(rng, 0))
        else:
            rng = _np.subtract(hi, lo)
            bad = bool(_np.all(_np.isfinite(rng))) and bool(_np.any(rng < 0))
        if bad:
            raise ValueError("high - low < 0")
        return _Distributions.uniform(self, low, high, size, dtype, device=device)

    def __new__(cls, bit_generator=None):
        from ._bitgen import BitGenerator, _seed_and_sequence
        bitgen = None
        if isinstance(bit_generator, BitGenerator):
            bitgen = bit_generator
            key, seq = bitgen._key, bitgen._seed_seq
        else:
            key, seq = _seed_and_sequence(bit_generator)
        return _new_generator(cls, key, seq, bitgen)

    def __init__(self, bit_generator=None):
        pass

    def __repr__(self):
        if self._bitgen is not None and self._bitgen._external:
            return f"Generator({self._bitgen!r})"
        return _CoreGenerator.__repr__(self)

    @property
    def bit_generator(self):
        """The bit generator: a Philox over this generator's (seed, offset), or
        the cuRAND generator it was made with."""
        from ._bitgen import Philox
        if self._bitgen is None:
            self._bitgen = Philox._of(self)
        return self._bitgen

    def spawn(self, n_children):
        """spawn(n_children): independent child Generators.

        Children are seeded from numpy.random.SeedSequence's spawn of this
        generator's seed sequence (one is made from the seed when it had none):
        each child gets its own 64-bit Philox key, hashed by SeedSequence, so
        children and parent never share a stream.
        """
        from ._bitgen import _sequence_of
        seq = self._seq
        if seq is None:
            seq = self._seq = _sequence_of(self.state[0])
        kids = seq.spawn(n_children)
        if self._bitgen is not None and self._bitgen._external:
            return [Generator(type(self._bitgen)(k)) for k in kids]
        return [Generator(k) for k in kids]

    def integers(self, low, high=None, size=None, dtype=_np.int64, endpoint=False, *,
                 device=None):
        """integers(low, high=None, size=None, dtype=int64, endpoint=False, *,
        device=None)

        Uniform integers in [low, high) ([low, high] with endpoint=True; [0, low)
        without high). Scalar bounds: exactly uniform (Lemire's method). Array
        bounds broadcast: low + floor(X r / 2**64) for uniform 64-bit X, each value
        within r / 2**64 of its probability.
        """
        def scalar(v):
            return v is None or isinstance(v, (int, _np.integer)) or (
                isinstance(v, _np.ndarray) and v.ndim == 0 and v.dtype.kind in "biu")

        if scalar(low) and scalar(high) and self._external() is None:
            return _CoreGenerator.integers(self, low if not isinstance(
                low, _np.ndarray) else int(low), high if not isinstance(
                high, _np.ndarray) else int(high), size, dtype, endpoint, device=device)
        if high is None:
            low, high = 0, low
        return _array_integers(self, low, high, size, dtype, endpoint, device)

    def permutation(self, x, axis=0, *, device=None):
        """permutation(x, axis=0, *, device=None)

        A random permutation of arange(x), or a copy of x shuffled along `axis`
        (a gather of its slices): one radix sort of random 32-bit keys with their
        positions (64-bit keys above 2^31 - 1 items), every run of tied keys then
        shuffled by fresh random keys until none tie, so every permutation is
        equally likely. x as an integer must be >= 0.
        """
        if isinstance(x, (int, _np.integer)) and not isinstance(x, bool):
            n = operator.index(x)
            if n < 0:
                raise ValueError("negative dimensions are not allowed")
            return self._perm(n, P.resolve_device(device))
        arr = x if isinstance(x, _ca.ndarray) else _ca.asarray(x, device=device)
        if arr.ndim == 0:
            raise _np.exceptions.AxisError("x must be an integer or at least "
                                           "1-dimensional")
        ax = _norm_axis(axis, arr.ndim)
        perm = self._perm(arr.shape[ax], arr.device)
        return _ca.take(arr, perm, axis=ax)

    def shuffle(self, x, axis=0):
        """shuffle(x, axis=0): shuffle x in place along `axis` (a cuarray or NumPy
        array, or a mutable sequence), by a random-key permutation."""
        if isinstance(x, _ca.ndarray):
            if x.ndim == 0:
                raise TypeError("shuffle requires an array of at least one dimension")
            ax = _norm_axis(axis, x.ndim)
            perm = self._perm(x.shape[ax], x.device)
            x[...] = _ca.take(x, perm, axis=ax)
            return None
        if isinstance(x, _np.ndarray):
            if x.ndim == 0:
                raise TypeError("shuffle requires an array of at least one dimension")
            ax = _norm_axis(axis, x.ndim)
            perm = self._perm(x.shape[ax], "cpu").get()
            x[...] = _np.take(x, perm, axis=ax)
            return None
        if axis != 0:
            raise NotImplementedError("Axis argument is only supported on ndarray "
                                      "objects")
        items = list(x)
        perm = self._perm(len(items), "cpu").get()
        for i, j in enumerate(perm):
            x[i] = items[j]
        return None

    def permuted(self, x, *, axis=None, out=None):
        """permuted(x, *, axis=None, out=None)

        x with every slice along `axis` shuffled independently (all elements when
        axis is None): one argsort of random keys per slice, a take_along_axis.
        """
        arr = x if isinstance(x, _ca.ndarray) else _ca.asarray(x)
        if axis is None:
            flat = _ca.ravel(arr)
            perm = self._perm(flat.size, arr.device)
            res = flat[perm].reshape(arr.shape)
        else:
            ax = _norm_axis(axis, arr.ndim)
            keys = self._keys(arr.shape, arr.device)
            order = _ca.argsort(keys, axis=ax, kind="stable")
            res = _ca.take_along_axis(arr, order, axis=ax)
        if out is None:
            return res
        if tuple(out.shape) != tuple(arr.shape):
            raise ValueError("out must have the same shape as x")
        out[...] = res
        return out

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True, *,
               device=None):
        """choice(a, size=None, replace=True, p=None, axis=0, shuffle=True, *,
        device=None)

        Samples of arange(a) or of a's entries along `axis`. With replacement:
        uniform integers, or with p the inverse CDF (searchsorted of uniforms in
        cumsum(p)). Without: the first entries of a random-key permutation, or with
        p the Efraimidis-Spirakis keys E / p (the order in which exponential races
        end, which is NumPy's sequential draw without replacement).
        """
        return _choice(self, a, size, replace, p, axis, device, _np.random.Generator)

    def multivariate_hypergeometric(self, colors, nsample, size=None,
                                    method="marginals", *, device=None):
        """multivariate_hypergeometric(colors, nsample, size=None,
        method='marginals', *, device=None)

        Conditional hypergeometrics color by color (method 'marginals' or
        'count', the same distribution): x_j = hypergeometric(colors[j],
        sum(colors[j+1:]), nsample - x_0 - ... - x_{j-1}).
        """
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        col = _np.asarray(colors.get() if isinstance(colors, _ca.ndarray) else colors)
        if col.ndim != 1:
            raise ValueError("colors must be a one-dimensional sequence of "
                             "nonnegative integers")
        if col.dtype.kind not in "iu" and col.size:
            raise ValueError("colors must be a one-dimensional sequence of "
                             "nonnegative integers")
        col = col.astype(_np.int64)
        if _np.any(col < 0):
            raise ValueError("colors must be a one-dimensional sequence of "
                             "nonnegative integers")
        total = int(col.sum())
        ns = operator.index(nsample)
        if ns < 0:
            raise ValueError("nsample must be nonnegative.")
        if ns > total:
            raise ValueError("nsample must not exceed the total count (sum of colors)")
        size = P.size_tuple(size) or ()
        dev = P.resolve_device(device)
        left = _ca.full(size, float(ns), dtype=_F64, device=dev)
        rest = total
        cols = []
        for j in range(col.size - 1):
            rest -= int(col[j])
            x = self._sample("hypergeometric", size, _I64, dev,
                             (float(col[j]), float(rest), left))
            cols.append(x)
            left = left - x
        cols.append(left.astype(_I64))
        return _ca.stack(cols, axis=-1)


_PERM32_MAX = 2**31 - 1  # the longest permutation sorted with 32-bit keys


# The key bits _perm_sort leaves to its placement pass: the radix sort orders
# bits [shift, 32) (one pass per 8 bits) and the placement orders each segment of
# equal high bits by the full key. 0: measured on the H200 at 2^26 items (session
# 8), shift 0 (4 passes, segments of equal keys only) took 3.10 ms, shift 8 (3
# passes, segments of ~4) 8.62 ms and shift 16 10.3 ms: the placement's scan of a
# segment costs far more than the radix pass it saves. On the cpu device both took
# the same time at 2^22. The tests pass other shifts to _perm_sort directly.
_PERM_SHIFT = 0


def _sort_pairs(keys, bits):
    """(sorted keys, int64 positions that sort them, stably) of 1-D keys whose
    values fit `bits` bits: one radix sort of (key, position) pairs on a GPU; on
    the cpu device NumPy's stable argsort and a gather (cheaper there than
    NumPy sorting the keys a second time). The same arrays either way."""
    if keys.device.id < 0:
        perm = _core._sort_bits(keys, bits, 1)
        return keys[perm], perm
    return _core._sort_bits(keys, bits, 2)


def _norm_axis(axis, ndim):
    ax = operator.index(axis)
    if not -ndim <= ax < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return ax + ndim if ax < 0 else ax


def _choice(gen, a, size, replace, p, axis, device, kind):
    """choice for Generator (kind np.random.Generator) and RandomState."""
    dev = P.resolve_device(device)
    legacy = kind is not _np.random.Generator
    if isinstance(a, (int, _np.integer)) and not isinstance(a, bool):
        pop, arr = operator.index(a), None
        shape = P.size_tuple(size)
        if pop < 0 or (pop == 0 and (shape is None or _np.prod(shape) != 0)):
            raise ValueError("a must be a positive integer unless no samples are "
                             "taken" if not legacy else "a must be greater than 0 "
                             "unless no samples are taken")
    else:
        arr = a if isinstance(a, _ca.ndarray) else _ca.asarray(_np.asarray(a), device=dev)
        if arr.ndim == 0:
            raise ValueError("a must be a sequence or an integer, not a 0-d array"
                             if not legacy else "a must be 1-dimensional or an "
                             "integer")
        if legacy and arr.ndim != 1:
            raise ValueError("a must be 1-dimensional")
        axis = _norm_axis(axis, arr.ndim)
        pop = arr.shape[axis]
        dev = arr.device
    shape = P.size_tuple(size)
    k = 1 if shape is None else int(_np.prod(shape))
    if pop == 0 and k != 0:
        raise ValueError(("'a'" if legacy else "a") + " cannot be empty unless no "
                         "samples are taken")
    pv = None
    if p is not None:
        pv = _np.asarray(p.get() if isinstance(p, _ca.ndarray) else p, dtype=_F64)
        if pv.ndim != 1:
            raise ValueError("p must be 1-dimensional")
        if pv.size != pop:
            raise ValueError("'a' and 'p' must have same size" if legacy else
                             "a and p must have same size")
        if _np.any(_np.isnan(pv)):
            raise ValueError("Probabilities contain NaN")
        if _np.any(pv < 0):
            raise ValueError(("p" if legacy else "P") + "robabilities are not "
                             "non-negative")
        if abs(float(pv.sum()) - 1.0) > _np.sqrt(_np.finfo(_F64).eps):
            raise ValueError("probabilities do not sum to 1" if legacy else
                             "Probabilities do not sum to 1. See Notes section of "
                             "docstring for more information.")
    out_shape = () if shape is None else shape
    if replace:
        if pv is not None:
            cdf = _np.cumsum(pv)
            cdf /= cdf[-1]
            u = gen.random(out_shape, device=dev)
            idx = _ca.searchsorted(_ca.asarray(cdf, device=dev), u, side="right")
            idx = _ca.minimum(idx, pop - 1)
        else:
            idx = Generator.integers(gen, 0, max(pop, 1), out_shape, _np.int64,
                                     device=dev)
    else:
        if k > pop:
            raise ValueError("Cannot take a larger sample than population when "
                             + ("replace is False" if not legacy else
                                "'replace=False'"))
        if pv is not None:
            if int(_np.count_nonzero(pv)) < k:
                raise ValueError("Fewer non-zero entries in p than size")
            e = gen.standard_exponential((pop,), device=dev)
            keys = e / _ca.asarray(pv, device=dev)
            idx = _ca.argsort(keys, kind="stable")[:k]
        else:
            idx = gen._perm(pop, dev)[:k]
        idx = idx.reshape(out_shape)
    if arr is None:
        return idx
    return _ca.take(arr, idx, axis=axis)
