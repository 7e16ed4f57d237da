"""einsum and einsum_path (the top level's; see _linalg_products.py for the other
products and the norms).

einsum contracts its operands in pairs. Each pair becomes one product:
labels in both operands and in the result are batch dimensions, labels in
both but not needed later are summed (the product's k), the others are the
product's rows (first operand) and columns (second); the operands are
transposed and reshaped to (batch..., m, k) and (batch..., k, n) and go to
matmul as they are (views when their dimensions merge; matmul takes the
transposed ones as cuBLAS operation flags). Pairs without a summed label are a
broadcast multiply; pairs of vectors with batch labels a multiply and a sum. A
label in one operand only is summed before its first product, repeated labels
of one operand (diagonals) are views where the layout allows. The order of
the pairs is the path of einsum_path: opt_einsum's greedy heuristic for
optimize=True/'greedy', an exhaustive search for 'optimal', the path given as
['einsum_path', (i, j), ...], and left to right for optimize=False (NumPy's
default: it contracts everything in one loop, which a GPU does not do well).
"""

import itertools as _it
import operator as _operator
import sys as _sys
import threading as _threading

import numpy as _np

from ._devices import device_of as _dev
from ._linalg_products import _arr
from ._outargs import write_out as _write_out
from ._sort_threads import _datetime

# the package namespace, looked up at call time (element-wise functions live in
# _ufuncs, reductions in _core; linalg.svd/inv arrive with the factorizations)
_ca = _sys.modules[__package__]

__all__ = ["einsum", "einsum_path"]

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_LETTER_SET = frozenset(_LETTERS)


# =============================================================================
# einsum: parsing
# =============================================================================

def _sublist(sub, what):
    """An interleaved-form subscript list (ints in [0, 52), Ellipsis) as a string."""
    out = []
    for s in sub:
        if s is Ellipsis:
            out.append("...")
            continue
        try:
            s = _operator.index(s)
        except TypeError:
            raise TypeError("For this input type lists must contain either int or "
                            "Ellipsis") from None
        if not 0 <= s < 52:
            raise ValueError("subscript is not within the valid range [0, 52) in "
                             f"{what}")
        out.append(_LETTERS[s])
    return "".join(out)


def _split_operands(operands):
    """(subscripts string, operand list) from either calling form."""
    if not operands:
        raise ValueError("must specify the einstein sum subscripts string and at least "
                         "one operand")
    if isinstance(operands[0], str):
        return operands[0], list(operands[1:])
    ops = list(operands)
    out = ops.pop() if len(ops) % 2 else None
    arrays, terms = ops[0::2], ops[1::2]
    subs = ",".join(_sublist(t, f"operand {k}") for k, t in enumerate(terms))
    if out is not None:
        subs += "->" + _sublist(out, "the output")
    return subs, arrays


def _parse_term(term, where):
    """(labels, position of the ellipsis or None) of one term of the subscripts."""
    labels, ell = [], None
    i, n = 0, len(term)
    while i < n:
        c = term[i]
        if c in _LETTER_SET:
            labels.append(c)
            i += 1
        elif c == " ":  # NumPy skips spaces, but not inside '...' or '->'
            i += 1
        elif c == ".":
            if term[i:i + 3] != "..." or ell is not None:
                raise ValueError("einstein sum subscripts string contains a '.' that "
                                 f"is not part of an ellipsis ('...') in {where}")
            ell = len(labels)
            i += 3
        else:
            raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts "
                             "string, subscripts must be letters")
    return labels, ell


def _parse(subscripts, shapes, sum_missing_ellipsis):
    """Full label strings per operand, the output labels and every label's size.

    Ellipsis dimensions become letters that the subscripts do not use (the
    first free ones, right-aligned across operands as broadcasting is)."""
    explicit = "->" in subscripts
    ins, _, out = subscripts.partition("->")
    if "->" in out or "-" in ins or ">" in ins or "-" in out or ">" in out:
        raise ValueError("einstein sum subscripts string contains a '-' or '>' that is "
                         "not part of one output specifier '->'")
    if explicit and "," in out:
        raise ValueError("invalid subscript ',' in einstein sum subscripts string, "
                         "subscripts must be letters")
    terms = ins.split(",")
    if len(terms) > len(shapes):
        raise ValueError("fewer operands provided to einstein sum function than "
                         "specified in the subscripts string")
    if len(terms) < len(shapes):
        raise ValueError("more operands provided to einstein sum function than "
                         "specified in the subscripts string")
    parsed = [_parse_term(t, f"operand {k}") for k, t in enumerate(terms)]
    n_ell = 0
    nells = []
    for k, ((labels, ell), shape) in enumerate(zip(parsed, shapes)):
        nd = len(shape)
        if ell is None:
            if nd > len(labels):
                raise ValueError("operand has more dimensions than subscripts given in "
                                 "einstein sum, but no '...' ellipsis provided to "
                                 "broadcast the extra dimensions.")
            if nd < len(labels):
                raise ValueError("einstein sum subscripts string contains too many "
                                 f"subscripts for operand {k}")
            nells.append(0)
        else:
            if nd < len(labels):
                raise ValueError("einstein sum subscripts string contains too many "
                                 f"subscripts for operand {k}")
            nells.append(nd - len(labels))
            n_ell = max(n_ell, nd - len(labels))
    used = set(c for labels, _ in parsed for c in labels)
    if explicit:
        out_labels, out_ell = _parse_term(out, "the output")
        used.update(out_labels)
    free = [c for c in _LETTERS if c not in used]
    if n_ell > len(free):
        raise ValueError("too many subscripts in einsum: at most 52 distinct labels, "
                         "ellipsis dimensions included")
    ell_labels = free[:n_ell]
    full = []
    for (labels, ell), ne in zip(parsed, nells):
        if ell is None:
            full.append("".join(labels))
        else:
            full.append("".join(labels[:ell]) + "".join(ell_labels[n_ell - ne:]) +
                        "".join(labels[ell:]))
    if explicit:
        seen = set()
        for c in out_labels:
            if c in seen:
                raise ValueError("einstein sum subscripts string includes output "
                                 f"subscript '{c}' multiple times")
            seen.add(c)
            if not any(c in labels for labels, _ in parsed):
                raise ValueError("einstein sum subscripts string included output "
                                 f"subscript '{c}' which never appeared in an input")
        if out_ell is None:
            if n_ell and not sum_missing_ellipsis:
                raise ValueError("output has more dimensions than subscripts given in "
                                 "einstein sum, but no '...' ellipsis provided to "
                                 "broadcast the extra dimensions.")
            output = "".join(out_labels)
        else:
            output = ("".join(out_labels[:out_ell]) + "".join(ell_labels) +
                      "".join(out_labels[out_ell:]))
    else:
        counts = {}
        for labels, _ in parsed:
            for c in labels:
                counts[c] = counts.get(c, 0) + 1
        once = "".join(c for c in _LETTERS if counts.get(c) == 1)
        output = "".join(ell_labels) + once
    dims = {}
    for k, (labels, shape) in enumerate(zip(full, shapes)):
        mine = {}
        for c, d in zip(labels, shape):
            if c in mine and mine[c] != d:
                raise ValueError(f"dimensions in operand {k} for collapsing index "
                                 f"'{c}' don't match ({mine[c]} != {d})")
            mine[c] = d
        for c, d in mine.items():
            prev = dims.get(c)
            if prev is None or prev == 1:
                dims[c] = d
            elif d != 1 and d != prev:
                raise ValueError("operands could not be broadcast together: label "
                                 f"'{c}' has size {prev} in an earlier operand and {d} "
                                 f"in operand {k}")
    return full, output, dims


# =============================================================================
# einsum: paths (as opt_einsum's and numpy.einsum_path's)
# =============================================================================

def _size(labels, dims):
    r = 1
    for c in labels:
        r *= dims[c]
    return r


def _flops(involved, inner, nterms, dims):
    """The FLOP count einsum_path reports for one contraction."""
    return _size(involved, dims) * (max(1, nterms - 1) + (1 if inner else 0))


def _step(positions, sets, out_set):
    """Contract sets[positions]: (result labels, the new list of sets, the summed
    labels, every label involved)."""
    pos = set(positions)
    involved = set().union(*(sets[p] for p in positions))
    rest = [s for i, s in enumerate(sets) if i not in pos]
    keep = out_set.union(*rest)
    result = frozenset(involved & keep)
    return result, rest + [result], involved - result, involved


def _greedy_path(sets, out_set, dims, limit):
    """Pairwise, each time the pair whose product removes the most elements
    (then the cheapest), leaving outer products for when nothing else is left;
    a pair whose result exceeds `limit` elements, or that would make the path
    cost more than the one-step contraction, is not taken."""
    n = len(sets)
    if n == 1:
        return [(0,)]
    if n == 2:
        return [(0, 1)]
    _, _, removed, involved = _step(range(n), sets, out_set)
    naive = _flops(involved, removed, n, dims)
    cost = 0
    path = []
    cands = []  # (key, (i, j), result, flops), in the order they were found

    def consider(i, j):
        result, _, removed, involved = _step((i, j), sets, out_set)
        new = _size(result, dims)
        if new > limit:
            return
        flops = _flops(involved, removed, 2, dims)
        if cost + flops > naive:
            return
        gone = _size(sets[i], dims) + _size(sets[j], dims) - new
        cands.append(((-gone, flops), (i, j), result, flops))

    pairs = _it.combinations(range(n), 2)
    while len(sets) > 1:
        for i, j in pairs:
            if not sets[i].isdisjoint(sets[j]):
                consider(i, j)
        if not cands:
            for i, j in _it.combinations(range(len(sets)), 2):
                consider(i, j)
            if not cands:
                path.append(tuple(range(len(sets))))
                break
        best = min(cands, key=lambda c: c[0])
        bi, bj = best[1]
        kept = []
        for key, (i, j), result, flops in cands:
            if i in (bi, bj) or j in (bi, bj):
                continue
            i2 = i - (i > bi) - (i > bj)
            j2 = j - (j > bi) - (j > bj)
            kept.append((key, (i2, j2), result, flops))
        cands = kept
        sets = [s for k, s in enumerate(sets) if k not in (bi, bj)] + [best[2]]
        last = len(sets) - 1
        pairs = ((k, last) for k in range(last))
        path.append((bi, bj))
        cost += best[3]
    return path


def _optimal_path(sets, out_set, dims, limit):
    """Every order of pairwise contractions whose results stay within `limit`
    elements, the cheapest by einsum_path's FLOP count (depth first, pruned by
    the best complete path). Where the limit leaves no complete pairwise path,
    the cheapest of the longest partial ones, then one contraction of the rest
    (numpy.einsum_path's rule)."""
    n = len(sets)
    best = [-1, None, None]  # depth, cost, path

    def walk(sets, cost, path):
        depth = len(path)
        if best[0] == n - 1 and cost >= best[1]:
            return
        moved = False
        if len(sets) > 1:
            for i, j in _it.combinations(range(len(sets)), 2):
                result, new_sets, removed, involved = _step((i, j), sets, out_set)
                if _size(result, dims) > limit:
                    continue
                moved = True
                path.append((i, j))
                walk(new_sets, cost + _flops(involved, removed, 2, dims), path)
                path.pop()
        if not moved and (depth > best[0] or (depth == best[0] and cost < best[1])):
            best[0], best[1], best[2] = depth, cost, list(path)

    walk(list(sets), 0, [])
    path = best[2]
    if best[0] < n - 1:
        path.append(tuple(range(n - best[0])))
    return path


def _path_kind(optimize):
    """(kind, memory limit or None, explicit path or None) from optimize=."""
    if optimize is True:
        return "greedy", None, None
    if optimize is False or optimize is None:
        return False, None, None
    if isinstance(optimize, str):
        if optimize not in ("greedy", "optimal"):
            raise KeyError(f"Path name {optimize} not found")
        return optimize, None, None
    if isinstance(optimize, (list, tuple)) and len(optimize) and \
            optimize[0] == "einsum_path":
        return "explicit", None, [tuple(_operator.index(i) for i in p)
                                  for p in optimize[1:]]
    if isinstance(optimize, (list, tuple)) and len(optimize) == 2 and \
            isinstance(optimize[0], str) and isinstance(optimize[1], (int, float)):
        kind, _, _ = _path_kind(optimize[0])
        return kind, int(optimize[1]), None
    raise TypeError(f"Did not understand the path: {optimize}")


def _find_path(full, output, dims, optimize):
    kind, limit, explicit = _path_kind(optimize)
    sets = [frozenset(t) for t in full]
    out_set = frozenset(output)
    n = len(sets)
    if explicit is not None:
        left = n
        for p in explicit:
            if len(set(p)) != len(p) or any(not 0 <= i < left for i in p):
                raise ValueError(f"Invalid einsum_path step {p} for {left} operands")
            left -= len(p) - 1
        if left != 1:
            raise ValueError(f"Invalid einsum_path is specified: {left - 1} more "
                             "operands has to be contracted.")
        return explicit
    if limit is None:
        limit = max(_size(t, dims) for t in full + [output])
    everything = frozenset().union(*sets)
    if kind is False or n <= 2 or everything == out_set:
        return [tuple(range(n))]
    if kind == "greedy":
        return _greedy_path(sets, out_set, dims, limit)
    return _optimal_path(sets, out_set, dims, limit)


def einsum_path(subscripts, *operands, optimize="greedy", einsum_call=False):
    """einsum_path(subscripts, *operands, optimize='greedy')

    The order einsum contracts its operands in, as numpy.einsum_path: a list
    ``['einsum_path', (i, j), ...]`` of the positions contracted at each step (in
    the list of operands left, the result going to its end) and a printable
    report (scalings, FLOP counts, the largest intermediate, each step).
    optimize: 'greedy' (opt_einsum's greedy heuristic), 'optimal' (every
    order), False (one step), an explicit path, or (name, memory limit in
    elements). Only the operands' shapes are read.
    """
    subs, arrays = _split_operands((subscripts,) + operands)
    shapes = [tuple(_np.shape(a)) for a in arrays]
    full, output, dims = _parse(subs, shapes, True)
    path = _find_path(full, output, dims, optimize)
    # the report, with numpy.einsum_path's conventions: each step's operands in
    # the order popped (highest position first), intermediates' labels sorted by
    # (size, label)
    inputs = list(full)
    sets = [frozenset(t) for t in full]
    out_set = frozenset(output)
    everything = frozenset().union(*sets)
    inner = sum(len(s) for s in sets) - len(everything) > 0
    naive = _flops(everything, inner, len(full), dims)
    rows, costs, scales, sizes = [], [], [], []
    for k, p in enumerate(path):
        p = tuple(sorted(p, reverse=True))
        result, sets, removed, involved = _step(p, sets, out_set)
        costs.append(_flops(involved, removed, len(p), dims))
        scales.append(len(involved))
        sizes.append(_size(result, dims))
        popped = [inputs.pop(i) for i in p]
        if k == len(path) - 1:
            label = output
        else:
            label = "".join(sorted(result, key=lambda c: (dims[c], c)))
        inputs.append(label)
        rows.append((len(involved), ",".join(popped) + "->" + label,
                     ",".join(inputs) + "->" + output))
    opt = sum(costs) + 1
    lines = [
        "  Complete contraction:  " + ",".join(full) + "->" + output,
        "         Naive scaling:  %d" % len(everything),
        "     Optimized scaling:  %d" % max(scales),
        "      Naive FLOP count:  %.3e" % naive,
        "  Optimized FLOP count:  %.3e" % opt,
        "   Theoretical speedup:  %3.3f" % (naive / opt),
        "  Largest intermediate:  %.3e elements" % max(sizes),
        "-" * 74,
        "%6s %24s %40s" % ("scaling", "current", "remaining"),
        "-" * 74,
    ]
    for scale, cur, rem in rows:
        lines.append("%4d    %24s %40s" % (scale, cur, rem))
    return ["einsum_path"] + [tuple(p) for p in path], "\n".join(lines)


# =============================================================================
# einsum: execution
# =============================================================================

_PLANS = {}
_PLANS_MAX = 512

# Recipes: an einsum call's sequence of primitive calls, recorded the first time a
# (subscripts, optimize, dtype, casting, operand shapes/strides/dtypes) form is seen
# and replayed after that. Every decision the contraction makes (path, label orders,
# which views merge) depends on those alone, and the primitives' result layouts are
# deterministic, so a replay makes the same calls without the Python that chose
# them (a 2-operand product: a few microseconds instead of ~100).
_RECIPES = {}
_UNHASHABLE = object()
_recording = _threading.local()


def _hashable(optimize):
    if isinstance(optimize, list):
        optimize = tuple(tuple(p) if isinstance(p, list) else p for p in optimize)
    try:
        hash(optimize)
    except TypeError:
        return _UNHASHABLE
    return optimize


def _op(fn, *args, **kwargs):
    """fn(*args, **kwargs), recorded when a recipe is being made (arrays are
    positional arguments, keyword arguments constants)."""
    r = fn(*args, **kwargs)
    rec = getattr(_recording, "rec", None)
    if rec is not None:
        slots, vals = rec["slots"], rec["vals"]
        spec = []
        for a in args:
            k = slots.get(id(a))
            if k is not None and vals[k] is a:
                spec.append((True, k))
            elif isinstance(a, _ca.ndarray):
                raise RuntimeError("einsum: an array outside the recipe")  # a bug here
            else:
                spec.append((False, a))
        spec = tuple(spec)
        rec["ops"].append((fn, spec, kwargs))
        slots[id(r)] = len(rec["vals"])
        rec["vals"].append(r)
    return r


def _record(subs, arrays, optimize, dtype, casting):
    rec = {"slots": {id(a): i for i, a in enumerate(arrays)}, "vals": list(arrays),
           "ops": []}
    _recording.rec = rec
    try:
        x = _contract_all(subs, arrays, optimize, dtype, casting)
    finally:
        _recording.rec = None
    if x is rec["vals"][-1]:
        result = len(rec["vals"]) - 1
    else:
        result = rec["slots"][id(x)]
    return (tuple(rec["ops"]), result), x


def _replay(recipe, arrays):
    ops, result = recipe
    vals = list(arrays)
    for fn, spec, kwargs in ops:
        vals.append(fn(*[vals[v] if is_slot else v for is_slot, v in spec], **kwargs))
    return vals[result]


def _plan(subs, shapes, optimize):
    """(labels per operand, output labels, sizes, path), cached per call form."""
    try:
        key = (subs, tuple(shapes), optimize if not isinstance(optimize, list)
               else tuple(tuple(p) if isinstance(p, (list, tuple)) else p
                          for p in optimize))
        hash(key)
    except TypeError:
        key = None
    if key is not None:
        plan = _PLANS.get(key)
        if plan is not None:
            return plan
    full, output, dims = _parse(subs, shapes, optimize is not False)
    path = _find_path(full, output, dims, optimize)
    plan = (full, output, dims, path)
    if key is not None:
        if len(_PLANS) >= _PLANS_MAX:
            _PLANS.clear()
        _PLANS[key] = plan
    return plan


def _sum_labels(x, labels, drop, dt):
    """x summed over the labels in `drop` (in dtype dt: bools or, integers wrap)."""
    axes = tuple(i for i, c in enumerate(labels) if c in drop)
    if not axes:
        return x, labels
    x = _op(_ca.sum, x, axis=axes, dtype=dt)
    return x, "".join(c for c in labels if c not in drop)


def _prepare(x, labels, dims):
    """One operand's diagonals taken and its broadcast length-1 axes dropped."""
    while len(set(labels)) != len(labels):
        for i, c in enumerate(labels):
            j = labels.find(c, i + 1)
            if j > 0:
                break
        # diagonal() removes axes i and j and appends the diagonal
        x = _op(_ca.diagonal, x, 0, i, j)
        labels = labels[:i] + labels[i + 1:j] + labels[j + 1:] + c
    shape = x.shape
    if any(d == 1 and dims[c] != 1 for c, d in zip(labels, shape)):
        # a length-1 axis broadcast against a longer one elsewhere: the operand
        # is constant along it, so it leaves the operand (no broadcast copy)
        idx = tuple(0 if (d == 1 and dims[c] != 1) else slice(None)
                    for c, d in zip(labels, shape))
        x = _op(_operator.getitem, x, idx)
        labels = "".join(c for c, d in zip(labels, shape)
                         if not (d == 1 and dims[c] != 1))
    return x, labels


def _mergeable(x, axes):
    """Whether x's axes (in this order) merge into one without a copy."""
    sh, st = x.shape, x.strides
    ax = [a for a in axes if sh[a] != 1]
    for a, b in zip(ax, ax[1:]):
        if st[a] != st[b] * sh[b]:
            return False
    return True


def _as_matrices(x, labels, batch, rows, cols, dims):
    """x as (batch..., prod(rows), prod(cols)): a transpose and a reshape, views
    when the row axes and the column axes each merge."""
    pos = {c: i for i, c in enumerate(labels)}
    perm = [pos[c] for c in batch] + [pos[c] for c in rows] + [pos[c] for c in cols]
    if perm != list(range(len(perm))):
        x = _op(_ca.transpose, x, perm)
    shape = tuple(dims[c] for c in batch) + (_size(rows, dims), _size(cols, dims))
    if x.shape != shape:
        x = _op(_ca.reshape, x, shape)
    return x


def _order_for(x, labels, group, candidates):
    """The first candidate order of `group` whose axes merge in x (else the first)."""
    pos = {c: i for i, c in enumerate(labels)}
    for cand in candidates:
        if _mergeable(x, [pos[c] for c in cand]):
            return cand
    return candidates[0]


def _contract_pair(A, la, B, lb, keep, dims, dt, final):
    """The product of two prepared operands over their shared labels not in keep.
    final: the output labels when this is the last step (the result's order is
    then chosen to match it where that costs nothing)."""
    A, la = _sum_labels(A, la, set(la) - set(lb) - keep, dt)
    B, lb = _sum_labels(B, lb, set(lb) - set(la) - keep, dt)
    sa, sb = set(la), set(lb)
    batch = [c for c in la if c in sb and c in keep]
    contr = [c for c in la if c in sb and c not in keep]
    am = [c for c in la if c not in sb]
    bn = [c for c in lb if c not in sa]
    if final is not None:
        opos = {c: i for i, c in enumerate(final)}
        batch.sort(key=opos.__getitem__)
        if am and bn and opos[bn[0]] < opos[am[0]]:
            A, la, am, B, lb, bn = B, lb, bn, A, la, am
        am = _order_for(A, la, am, [sorted(am, key=opos.__getitem__), am])
        bn = _order_for(B, lb, bn, [sorted(bn, key=opos.__getitem__), bn])
    nb = len(batch)
    if not contr:
        # an outer product over the batch labels: one broadcast multiply
        pa, pb = {c: i for i, c in enumerate(la)}, {c: i for i, c in enumerate(lb)}
        At = _op(_ca.transpose, A, [pa[c] for c in batch + am])
        Bt = _op(_ca.transpose, B, [pb[c] for c in batch + bn])
        At = _op(_operator.getitem, At, (Ellipsis,) + (None,) * len(bn))
        Bt = _op(_operator.getitem, Bt, (slice(None),) * nb + (None,) * len(am))
        return _op(_ca.multiply, At, Bt), "".join(batch + am + bn)
    if not am and not bn and nb:
        # many dot products: multiply and sum (a batch of 1x1 products would be
        # one GEMM launch per element group in cuBLAS's terms)
        pa, pb = {c: i for i, c in enumerate(la)}, {c: i for i, c in enumerate(lb)}
        At = _op(_ca.transpose, A, [pa[c] for c in batch + contr])
        Bt = _op(_ca.transpose, B, [pb[c] for c in batch + contr])
        axes = tuple(range(nb, nb + len(contr)))
        prod = _op(_ca.multiply, At, Bt)
        return _op(_ca.sum, prod, axis=axes, dtype=dt), "".join(batch)
    # the summed labels in an order both operands merge in, where one exists
    pa, pb = {c: i for i, c in enumerate(la)}, {c: i for i, c in enumerate(lb)}
    other = sorted(contr, key=pb.__getitem__)
    if other != contr and not _mergeable(B, [pb[c] for c in contr]) and \
            _mergeable(A, [pa[c] for c in other]):
        contr = other
    A3 = _as_matrices(A, la, batch, am, contr, dims)
    B3 = _as_matrices(B, lb, batch, contr, bn, dims)
    C = _op(_ca.matmul, A3, B3)
    shape = tuple(dims[c] for c in batch + am + bn)
    if C.shape != shape:
        C = _op(_ca.reshape, C, shape)
    return C, "".join(batch + am + bn)


def _result_dtype(arrays, dtype, casting):
    if dtype is None:
        return _np.result_type(*[a.dtype for a in arrays])
    dt = _np.dtype(dtype)
    for a in arrays:
        if not _np.can_cast(a.dtype, dt, casting=casting):
            raise TypeError(f"Cannot cast array data from {a.dtype!r} to {dt!r} "
                            f"according to the rule {casting!r}")
    return dt


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """einsum(subscripts, *operands, out=None, dtype=None, order='K', casting='safe',
    optimize=False)

    Einstein summation, as numpy.einsum: the subscripts string (letters,
    '...', ',' and an optional '->' output; implicit mode sums the labels that
    appear more than once and orders the rest alphabetically after the
    broadcast dimensions) or the interleaved form einsum(op0, sublist0, op1,
    sublist1, ..., [sublistout]). Repeated labels in one operand take its
    diagonal; length-1 dimensions broadcast.

    Operands are contracted in pairs, each pair one matmul (one strided
    batched cuBLAS GEMM on a GPU) over transposed/reshaped views, or a
    broadcast multiply when nothing is summed. optimize: False contracts left
    to right; True or 'greedy' in the order of opt_einsum's greedy path;
    'optimal' after an exhaustive search; a path from einsum_path as given.
    The result is in the operands' common dtype (or dtype=, with the casting
    rule checked); it may be a view of an operand when nothing is computed
    (a transpose, a diagonal), as NumPy's.
    """
    # NumPy's answer (its error) on the host copies
    if any(_datetime(o) for o in operands):
        from ._datetime_stats import host_function
        return host_function(_np.einsum, *operands, out=out, dtype=dtype, order=order,
                             casting=casting, optimize=optimize)
    subs, arrays = _split_operands(operands)
    dev = _dev(*arrays)
    arrays = [_arr(a, dev) for a in arrays]
    key = (subs, _hashable(optimize), None if dtype is None else _np.dtype(dtype),
           casting, tuple((a.shape, a.strides, a.dtype.char) for a in arrays))
    recipe = _RECIPES.get(key) if key[1] is not _UNHASHABLE else None
    if recipe is None:
        recipe, x = _record(subs, arrays, optimize, dtype, casting)
        if key[1] is not _UNHASHABLE:
            if len(_RECIPES) >= _PLANS_MAX:
                _RECIPES.clear()
            _RECIPES[key] = recipe
    else:
        x = _replay(recipe, arrays)
    if order in ("C", "c") and not x.flags.c_contiguous:
        x = _ca.ascontiguousarray(x)
    elif order in ("F", "f") and not x.flags.f_contiguous:
        x = _ca.asfortranarray(x)
    if out is None:
        return x
    return _write_out(x, out, f"out has shape {getattr(out, 'shape', None)}, the "
                      f"result {tuple(x.shape)}")


def _contract_all(subs, arrays, optimize, dtype, casting):
    """The contraction itself; every primitive it calls goes through _op."""
    full, output, dims, path = _plan(subs, [a.shape for a in arrays], optimize)
    dt = _result_dtype(arrays, dtype, casting)
    ops = []
    for a, labels in zip(arrays, full):
        if a.dtype != dt:
            a = _op(_ca.ndarray.astype, a, dt)
        ops.append(_prepare(a, labels, dims))
    # labels in one operand only, and not in the output, are summed at once
    count = {}
    for _, labels in ops:
        for c in labels:
            count[c] = count.get(c, 0) + 1
    out_set = set(output)
    ops = [_sum_labels(x, labels, {c for c in labels if count[c] == 1} - out_set, dt)
           for x, labels in ops]
    nsteps = len(path)
    for k, step in enumerate(path):
        step = sorted(step)
        taken = [ops[i] for i in step]
        ops = [o for i, o in enumerate(ops) if i not in step]
        keep = set(out_set)
        for _, labels in ops:
            keep.update(labels)
        x, lx = taken[0]
        for n, (y, ly) in enumerate(taken[1:]):
            rest = set(keep)
            for _, labels in taken[n + 2:]:
                rest.update(labels)
            last = k == nsteps - 1 and n == len(taken) - 2
            x, lx = _contract_pair(x, lx, y, ly, rest, dims, dt,
                                   output if last else None)
        if len(taken) == 1:
            x, lx = _sum_labels(x, lx, set(lx) - keep, dt)
        ops.append((x, lx))
    (x, lx), = ops
    x, lx = _sum_labels(x, lx, set(lx) - out_set, dt)
    # labels of the output that no operand kept (length 1 everywhere) come back
    if len(lx) != len(output):
        missing = [c for c in output if c not in lx]
        x = _op(_operator.getitem, x, (Ellipsis,) + (None,) * len(missing))
        lx = lx + "".join(missing)
    pos = {c: i for i, c in enumerate(lx)}
    perm = [pos[c] for c in output]
    if perm == list(range(len(perm))) and not any(x is a for a in arrays):
        return x
    # a view, also where nothing was computed (NumPy returns views there)
    return _op(_ca.transpose, x, perm)


# =============================================================================
# top-level products: kron, cross, vecdot, trace, matrix_transpose
# =============================================================================
