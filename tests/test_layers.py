"""The layers of csrc/: which file may include or call which.

A file's folder is its layer; a file includes and calls only what its own
folder or a lower one defines, lowest first:

    runtime/  devices, streams, events, errors, the launch layer over kernels.h
              and the CUDA runtime, each library's launcher (launch_*.c),
              dynamic loading, the cuda.runtime module (no arrays)
    memory/   the pools and their upstreams, Memory, MemoryPointer, the
              allocators lent to other libraries (torch_alloc.c)
    array/    the array type (ndarray.c) and what every op needs of arrays:
              dtypes, shapes, argument parsing, creation, host <-> device
              transfer, the interchange protocols, conversion of arbitrary
              objects (convert.c), formatting, readback, device flags
    ops/      operations: element-wise and ufuncs, deferred work (fusion.c),
              reductions, indexing, manipulation, sort and search, random,
              linalg, FFT, user kernels
    csrc/     module.c, which sees every layer (it fills ca_hook); cuarray.h,
              the contract every file includes, belongs to no layer

so runtime < memory < array < ops < module.c. Where a lower layer has to
reach a higher one it goes through a pointer of ca_hook (cuarray.h, filled in
module.c), which this test does not see as a call: the flush of deferred
element-wise work (ca_fusion_flush -> ca_hook.flush_deferred), the export of
memory, the release of an array's pending kernel or readback mirror, and so on.
Within the layers the files form an order too: no cycle of calls (a cycle would
make two files one concern split in two).

Includes: a "..." include names a header by its file name (setup.py puts
every header folder on the include path; the names are unique). Each one
resolves to its file, whose folder must be the includer's or lower; cuarray.h,
kernels/ and the generated tables are open to all.

Calls are found by a regex over the sources with comments and string literals
removed: a file "calls" every ca_* function it names (a call or its address),
and a file naming a static inline function or a function-like macro of a csrc
header calls what that inline or macro names, transitively (so a call hidden
in a header counts where it is used). Macros count whatever #if surrounds them:
an over-approximation, which can only make the test stricter. Functions are
attributed to the .c file that defines them; names no csrc/*.c defines
(kernels.h entry points, header inlines themselves) belong to no layer.
"""

import pathlib
import re

from test_source_lint import strip_comments_and_strings as _strip

ROOT = pathlib.Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
KERNELS = ROOT / "kernels"

# The declared order, lowest first; "" is csrc/ itself (module.c).
LAYERS = ["runtime", "memory", "array", "ops", ""]
# csrc/'s own files: the contract and the module.
TOP = {"cuarray.h", "module.c"}

# Upward calls that are known and left to their owners: (caller file,
# function). Each must still exist (test_known_upcalls_still_exist), so that
# the list shrinks as they are fixed. It is empty: keep it so.
KNOWN_UPCALLS = set()


def _files(pattern):
    """name -> path of the csrc files matching `pattern`, at any depth."""
    return {p.name: p for p in sorted(CSRC.rglob(pattern))}


# A definition at the start of a line (PEP 7: the return type on the line
# before, or on the same line): name, parameters, then the body's brace.
_DEF = re.compile(r"^(?:[A-Za-z_][\w \t*]*?[\s*])?(ca_\w+)\s*\([^;{}]*\)\s*\{", re.M)
# cuarray.h's CA_INIT_FUNCTIONS(name, table) defines ca_<name>_init.
_INIT_DEF = re.compile(r"^CA_INIT_FUNCTIONS\((\w+),", re.M)
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
    for h in _files("*.h").values():
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
    for name, p in _files("*.c").items():
        s = _strip(p.read_text())
        mine = set(_DEF.findall(s)) | {f"ca_{n}_init" for n in _INIT_DEF.findall(s)}
        static = set(_STATIC_DEF.findall(s))
        local[name] = mine
        for f in mine - static:
            assert f not in defs, f"{f} is defined in {defs[f]} and {name}"
            defs[f] = name
        calls[name] = _closure(_NAME.findall(s), uses) - mine
    return defs, calls, local


def _layer(fname):
    """The layer index of a csrc file (by name), from its folder."""
    paths = _files(fname)
    assert fname in paths, f"no csrc file {fname}"
    return LAYERS.index(paths[fname].parent.relative_to(CSRC).as_posix().replace(".", ""))


def _upcalls():
    """(caller, callee file, function) for every call to a higher layer."""
    defs, calls, _ = _graph()
    out = []
    for f, names in calls.items():
        for x in sorted(names):
            g = defs.get(x)
            if g is not None and _layer(g) > _layer(f):
                out.append((f, g, x))
    return out


def _edges():
    """file -> the other csrc files whose functions it calls."""
    defs, calls, _ = _graph()
    return {f: {defs[x] for x in names if x in defs and defs[x] != f}
            for f, names in calls.items()}


_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def test_the_regexes_find_definitions_and_calls():
    # A self-check, so that the tests below cannot pass by finding nothing.
    defs, calls, local = _graph()
    assert defs["ca_array_empty"] == "ndarray.c"
    assert defs["ca_parse_args"] == "args.c"
    assert defs["ca_memory_alloc"] == "memory.c"
    assert defs["ca_run_stream_sync"] == "launch.c"
    assert defs["ca_asarray"] == "convert.c"
    assert defs["ca_fft_init"] == "fft.c"  # through CA_INIT_FUNCTIONS
    assert "ca_memory_alloc" in calls["ndarray.c"]
    assert "ca_array_empty" in calls["creation.c"]
    # a header wrapper's expansion counts where it is used
    assert "ca_fusion_flush" in calls["launch.c"]
    assert "ca_fusion_flush_all" not in calls["launch.c"]  # through ca_hook
    assert "ca_asarray" in calls["creation.c"] and "ca_asarray" in calls["sort.c"]
    for f in calls:
        assert _layer(f) is not None


def test_every_file_is_in_a_layer_folder():
    for p in sorted(CSRC.rglob("*")):
        if p.is_file():
            where = p.parent.relative_to(CSRC).as_posix().replace(".", "")
            assert where in LAYERS, f"{p.relative_to(ROOT)}: not in a layer folder"
            assert where or p.name in TOP, (
                f"csrc/{p.name} belongs in one of csrc/{', csrc/'.join(LAYERS[:-1])}")
    assert _layer("ndarray.c") == 2 and _layer("memory.c") == 1
    assert _layer("launch_blas.c") == 0 and _layer("pool_upstream.c") == 1
    assert _layer("creation.c") == 2 and _layer("fusion.c") == 3
    assert _layer("module.c") == 4


def test_file_names_are_unique():
    # An include names a header by its file name (every folder is on the path),
    # and setup.py names the CUDA objects by their source's stem.
    for exts in ((".h", ".cuh"), (".cu",)):
        seen = {}
        for p in sorted(q for root in (CSRC, KERNELS) for q in root.rglob("*")):
            if p.suffix in exts:
                assert p.stem not in seen, f"{p.relative_to(ROOT)} and {seen[p.stem]}"
                seen[p.stem] = p.relative_to(ROOT)


def test_no_include_goes_up_a_layer():
    names = _files("*")
    bad = []
    for name, p in names.items():
        if p.parent == CSRC:
            continue  # cuarray.h (the contract) and module.c see every layer
        for inc in _INCLUDE.findall(p.read_text()):
            q = names.get(inc)
            if q is None or q.parent == CSRC:
                continue  # cuarray.h, kernels/ and generated headers
            if _layer(inc) > _layer(name):
                bad.append((name, inc))
    assert bad == [], f"includes of a higher layer's header: {bad}"


def test_ndarray_calls_only_below_it():
    # The array core can be read, changed and tested with runtime/, memory/ and
    # the array layer's helpers (dtype, shape, args) only under it.
    edges = _edges()
    allowed = {"dtype.c", "shape.c", "args.c"}
    bad = sorted(g for g in edges["ndarray.c"] if _layer(g) >= 2 and g not in allowed)
    assert not any(f == "ndarray.c" for f, _ in KNOWN_UPCALLS)
    assert bad == [], (
        "ndarray.c (the array core) calls files of the array layer above it; move "
        "the code into the file that owns it and plug it in through a method/slot "
        f"table, or reach it through ca_hook: {bad}")


def test_no_call_goes_up_a_layer():
    bad = [u for u in _upcalls() if (u[0], u[2]) not in KNOWN_UPCALLS]
    assert bad == [], (
        "calls to a higher layer (caller, callee's file, function); go through "
        f"ca_hook or move the code: {bad}")


def test_known_upcalls_still_exist():
    now = {(u[0], u[2]) for u in _upcalls()}
    gone = sorted(KNOWN_UPCALLS - now)
    assert gone == [], f"fixed: remove from KNOWN_UPCALLS: {gone}"


def test_calls_have_no_cycles():
    # Not across layers (the test above) and not within one: the files of csrc/
    # form one order.
    edges = _edges()
    state = {}

    def visit(f, path):
        state[f] = 1
        for g in sorted(edges[f]):
            if state.get(g) == 1:
                raise AssertionError("cycle of calls: " + " -> ".join(path + [f, g]))
            if g not in state:
                visit(g, path + [f])
        state[f] = 2

    for f in sorted(edges):
        if f not in state:
            visit(f, [])


def test_ndarray_and_args_make_no_cuda_calls():
    # The launch layer (launch.h) is the only code that enqueues, waits or copies.
    files = _files("*.c")
    for f in ("ndarray.c", "args.c"):
        s = _strip(files[f].read_text())
        found = sorted(set(re.findall(r"\bcuda[A-Z]\w*", s)))
        assert found == [], f"{f} names CUDA runtime API: {found}"
