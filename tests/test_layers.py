"""The layers of csrc/: which file may call which.

Each csrc/*.c file belongs to a layer, and calls only functions defined in its
own layer or below:

    base    errors.c dtype.c device.c args.c shape.c launch*.c pool*.c dynlib.c
            (no Python objects of ours but devices and streams; no arrays)
    memory  memory.c (Memory objects and the pools per device and kind),
            memptr.c (MemoryPointer)
    core    ndarray.c (the array type: metadata, views, protocols)
    rest    everything else (creation, transfer, operators, ..., module.c)

so that the array core can be read, changed and tested with the base and
memory only under it. Where a lower layer has to reach a higher one it goes
through a pointer of ca_hook (cuarray.h, filled in module.c), which this test
does not see as a call; the one direct exception is the flush of deferred
element-wise work (ca_fusion_flush -> ca_fusion_flush_all): deferred kernels
must reach the stream before anything issued after them, so every path that
enqueues or waits flushes first (ARCHITECTURE.md, "Deferred element-wise work").

Calls are found by a regex over the sources with comments and string literals
removed: a file "calls" every ca_* function it names (a call or its address),
and a file naming a static inline function or a function-like macro of a csrc
header calls what that inline or macro names, transitively (so a call hidden
in a header counts where it is used). Macros count whatever #if surrounds them
(memory.c, which opts out of the flush wrappers, still counts as flushing): an
over-approximation, which can only make the test stricter. Functions are
attributed to the .c file that defines them; names no csrc/*.c defines
(kernels.h entry points, header inlines themselves) belong to no layer.
"""

import pathlib
import re

import pytest

CSRC = pathlib.Path(__file__).resolve().parent.parent / "csrc"

# The declared order, lowest first. A file not named here is in "rest".
LAYERS = [
    ("base", ["errors.c", "dtype.c", "device.c", "args.c", "shape.c", "launch*.c",
              "pool*.c", "dynlib.c"]),
    ("memory", ["memory.c", "memptr.c"]),
    ("core", ["ndarray.c"]),
    ("rest", ["*.c"]),
]

# The flush of deferred work (see the docstring): callable from every layer.
SANCTIONED = {"ca_fusion_flush_all"}

# Upward calls that are known and left to their owners: (caller file,
# function). Each must still exist (test_known_upcalls_still_exist), so that
# the list shrinks as they are fixed. ndarray.c may have none.
KNOWN_UPCALLS = set()


def _strip(src):
    """Source without comments and string/char literals (newlines kept)."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * src.count("\n", i, j))
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


# A definition at the start of a line (PEP 7: the return type on the line
# before, or on the same line): name, parameters, then the body's brace.
_DEF = re.compile(r"^(?:[A-Za-z_][\w \t*]*?[\s*])?(ca_\w+)\s*\([^;{}]*\)\s*\{", re.M)
_STATIC_DEF = re.compile(r"^static\b[^;{}(]*?\b(ca_\w+)\s*\([^;{}]*\)\s*\{", re.M)
_NAME = re.compile(r"\b(ca_\w+|cuda[A-Z]\w*|Py_BEGIN_ALLOW_THREADS)\b")
_MACRO = re.compile(
    r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\([^)]*\))?((?:[^\n]*\\\n)*[^\n]*)", re.M)


def _body(src, brace):
    """The text of the {...} block opening at index `brace`."""
    depth = 0
    for j in range(brace, len(src)):
        if src[j] == "{":
            depth += 1
        elif src[j] == "}":
            depth -= 1
            if depth == 0:
                return src[brace:j + 1]
    return src[brace:]


def _header_expansions():
    """name -> names it uses, for the static inline functions and the macros
    of csrc/*.h (a macro may redefine a function's name: the wrappers of
    cuarray.h; its expansion then adds to what that name means)."""
    uses = {}
    for h in sorted(CSRC.glob("*.h")):
        s = _strip(h.read_text())
        for m in re.finditer(r"static\s+inline\b[^;{}]*?\b(\w+)\s*\([^;{}]*\)\s*\{", s):
            body = _body(s, m.end() - 1)
            uses.setdefault(m.group(1), set()).update(_NAME.findall(body))
        for m in _MACRO.finditer(s):
            name, body = m.group(1), m.group(3)
            uses.setdefault(name, set()).update(
                x for x in _NAME.findall(body) if x != name)
    return uses


def _closure(names, uses):
    seen, todo = set(), list(names)
    while todo:
        x = todo.pop()
        if x in seen:
            continue
        seen.add(x)
        todo.extend(uses.get(x, ()))
    return seen


def _graph():
    """(defs: function -> defining file, calls: file -> names it uses,
    local: file -> names it defines)."""
    uses = _header_expansions()
    defs, calls, local = {}, {}, {}
    for p in sorted(CSRC.glob("*.c")):
        s = _strip(p.read_text())
        mine = set(_DEF.findall(s))
        static = set(_STATIC_DEF.findall(s))
        local[p.name] = mine
        for f in mine - static:
            assert f not in defs, f"{f} is defined in {defs[f]} and {p.name}"
            defs[f] = p.name
        calls[p.name] = _closure(_NAME.findall(s), uses) - mine
    return defs, calls, local


def _layer(fname):
    for i, (_, pats) in enumerate(LAYERS):
        if any(pathlib.PurePath(fname).match(p) for p in pats):
            return i
    raise AssertionError(fname)


def _upcalls():
    """(caller, callee file, function) for every call to a higher layer."""
    defs, calls, _ = _graph()
    out = []
    for f, names in calls.items():
        for x in sorted(names):
            g = defs.get(x)
            if g is not None and _layer(g) > _layer(f) and x not in SANCTIONED:
                out.append((f, g, x))
    return out


def test_the_regexes_find_definitions_and_calls():
    # A self-check, so that the tests below cannot pass by finding nothing.
    defs, calls, local = _graph()
    assert defs["ca_array_empty"] == "ndarray.c"
    assert defs["ca_parse_args"] == "args.c"
    assert defs["ca_memory_alloc"] == "memory.c"
    assert defs["ca_run_stream_sync"] == "launch.c"
    assert "ca_memory_alloc" in calls["ndarray.c"]
    assert "ca_array_empty" in calls["creation.c"]
    # a header wrapper's expansion counts where it is used
    assert "ca_fusion_flush_all" in calls["launch.c"]
    for f in calls:
        assert _layer(f) is not None


def test_layers_are_declared_for_existing_files():
    names = {p.name for p in CSRC.glob("*.c")}
    for f in ("errors.c", "dtype.c", "device.c", "args.c", "memory.c", "ndarray.c",
              "launch.c", "pool.c", "dynlib.c"):
        assert f in names, f
    assert _layer("ndarray.c") == 2 and _layer("memory.c") == 1
    assert _layer("launch_blas.c") == 0 and _layer("pool_upstream.c") == 0
    assert _layer("creation.c") == 3 and _layer("module.c") == 3


def test_ndarray_calls_only_base_and_memory():
    defs, calls, _ = _graph()
    bad = sorted(
        (x, defs[x]) for x in calls["ndarray.c"]
        if x in defs and _layer(defs[x]) > _layer("memory.c") and x not in SANCTIONED)
    assert not any(f == "ndarray.c" for f, _ in KNOWN_UPCALLS)
    assert bad == [], (
        "ndarray.c (the array core) calls above the memory layer; move the code into "
        "the file that owns it and plug it in through a method/slot table, or reach "
        f"it through ca_hook: {bad}")


def test_base_layer_calls_only_the_base_layer():
    defs, calls, _ = _graph()
    bad = []
    for f, names in calls.items():
        if _layer(f) == 0:
            bad += [(f, x, defs[x]) for x in sorted(names)
                    if x in defs and _layer(defs[x]) > 0 and x not in SANCTIONED
                    and (f, x) not in KNOWN_UPCALLS]
    assert bad == [], f"base-layer files call above the base layer: {bad}"


def test_base_layer_has_no_cycles():
    # Within the base, files form an order too (a cycle would make two files
    # one concern split in two).
    defs, calls, _ = _graph()
    base = [f for f in calls if _layer(f) == 0]
    edges = {f: {defs[x] for x in calls[f] if x in defs and defs[x] != f
                 and _layer(defs[x]) == 0} for f in base}
    state = {}

    def visit(f, path):
        state[f] = 1
        for g in sorted(edges[f]):
            if state.get(g) == 1:
                raise AssertionError("cycle in the base layer: "
                                     + " -> ".join(path + [f, g]))
            if g not in state:
                visit(g, path + [f])
        state[f] = 2

    for f in sorted(base):
        if f not in state:
            visit(f, [])


def test_no_call_goes_up_a_layer():
    bad = [u for u in _upcalls() if (u[0], u[2]) not in KNOWN_UPCALLS]
    assert bad == [], (
        "calls to a higher layer (caller, callee's file, function); go through "
        f"ca_hook or move the code: {bad}")


def test_known_upcalls_still_exist():
    now = {(u[0], u[2]) for u in _upcalls()}
    gone = sorted(KNOWN_UPCALLS - now)
    assert gone == [], f"fixed: remove from KNOWN_UPCALLS: {gone}"


def test_ndarray_and_args_make_no_cuda_calls():
    # The launch layer (launch.h) is the only code that enqueues, waits or copies.
    for f in ("ndarray.c", "args.c"):
        s = _strip((CSRC / f).read_text())
        found = sorted(set(re.findall(r"\bcuda[A-Z]\w*", s)))
        assert found == [], f"{f} names CUDA runtime API: {found}"
