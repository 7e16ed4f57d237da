#!/usr/bin/env python3
"""Generate the element-wise kernels, host loops and tables from kernels/ops.def.

    python tools/gen_ops.py --out build/generated --py-out python/cuarray/_generated_ops.py

Writes (only files whose content changed, so make-style rebuilds stay incremental):
  ew_table.h         op ids (CA_OP_<name>), counts, the CA_EW_FOR_EACH_OP X-macro
  ew_table.c         ca_ew_ops[], ca_ew_loops[], the host loop table and (CUDA builds)
                     the GPU launcher table
  ew_host_<k>.c      host (cpu device) loops, one 1-D inner loop per (op, loop)
  ew_gpu_<k>.cu      GPU kernels (contiguous + strided) and launchers per (op, loop),
                     split over several files so nvcc runs them in parallel
  _generated_ops.py  the op table for Python (names, arity, loop signatures)

The math of each op is the expression of its ops.def row; it becomes one element
function per loop, emitted into the host file and the GPU file alike, calling the
CA_HD helpers of kernels/shared/ew_math.h.
"""

import re
import sys
from pathlib import Path

from gen_common import c_array, inputs_stamp, parse_args, write_if_changed, x_macro

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "kernels"

# NumPy type char -> (ca_dtype, storage C type, math suffix, compute C type, itemsize)
DTYPES = {
    "?": ("CA_BOOL", "ca_bool", "b", "int", 1),
    "b": ("CA_INT8", "int8_t", "i8", "int8_t", 1),
    "B": ("CA_UINT8", "uint8_t", "u8", "uint8_t", 1),
    "h": ("CA_INT16", "int16_t", "i16", "int16_t", 2),
    "H": ("CA_UINT16", "uint16_t", "u16", "uint16_t", 2),
    "i": ("CA_INT32", "int32_t", "i32", "int32_t", 4),
    "I": ("CA_UINT32", "uint32_t", "u32", "uint32_t", 4),
    "l": ("CA_INT64", "int64_t", "i64", "int64_t", 8),
    "L": ("CA_UINT64", "uint64_t", "u64", "uint64_t", 8),
    "e": ("CA_FLOAT16", "ca_half", "f32", "float", 2),
    "f": ("CA_FLOAT32", "float", "f32", "float", 4),
    "d": ("CA_FLOAT64", "double", "f64", "double", 8),
    "F": ("CA_COMPLEX64", "ca_complex64", "c64", "ca_complex64", 8),
    "D": ("CA_COMPLEX128", "ca_complex128", "c128", "ca_complex128", 16),
    # ml_dtypes' bfloat16: loops generated from the float32 ones (bf16_loops)
    "E": ("CA_BFLOAT16", "ca_bf16", "f32", "float", 2),
}
FLAGS = {"raw": 1, "nobool": 2, "intdouble": 4, "powcheck": 8, "cmp": 16, "clampint": 32,
         "f16": 64, "slow": 128, "exact": 256}
# Row-name prefixes of ops that live in a namespace of their own: `_special_erf` is
# cuarray._core._special_erf, shown and pickled as cuarray.scipy.special.erf.
NAMESPACES = {"_special_": "scipy.special"}


def heavy(op):
    """Long math: fewer elements per thread (and the special functions all are)."""
    return op.name in HEAVY or qualname(op.name) != op.name


def qualname(name):
    for prefix, ns in NAMESPACES.items():
        if name.startswith(prefix):
            return f"{ns}.{name[len(prefix):]}"
    return name
# Ops whose math is long: fewer elements per thread keeps nvcc time and code size
# down where the kernel is compute- rather than memory-bound anyway.
HEAVY = {"sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
         "logaddexp", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2",
         "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "hypot", "power",
         "floor_divide", "remainder", "fmod", "divide", "sign", "reciprocal",
         "logaddexp2", "float_power", "i0", "spacing", "nextafter", "ldexp", "gcd", "lcm"}
# Fused element-wise programs (kernels/gpu/ew_fuse.cuh): family -> (name, float char,
# register word, elements per thread). A loop fits a family when all its types are
# the family's float or bool.
FUSE_FAMILIES = [("f32", "f", "uint32_t", 4), ("f64", "d", "uint64_t", 2)]
N_GPU_FILES = 16
N_HOST_FILES = 2


class Op:
    def __init__(self, name, nin, nout, flags, loops, expr, lineno):
        self.name, self.nin, self.nout = name, nin, nout
        self.flags, self.loops, self.expr, self.lineno = flags, loops, expr, lineno
        self.bf16 = bf16_loops(self)


def bf16_loops(op):
    """bfloat16 twins of the float32 loops (all inputs float32, result float32 or
    bool): the same float expression on bfloat16 loads, the result rounded once to
    bfloat16 (PyTorch's rule, ml_dtypes' loops' values). After NumPy's loops in the
    table, so NumPy's linear search never meets them; elementwise.c takes a twin
    when the operands promote to bfloat16. Not for `raw` rows (bit operations) nor
    `f16` rows (whose helpers step in the storage format: a float32 step is not a
    bfloat16 one), nor namespaced rows (scipy.special's: long kernels for nvcc, and
    the float32 loop with one rounding after gives the same values)."""
    if op.flags & (FLAGS["raw"] | FLAGS["f16"]) or qualname(op.name) != op.name:
        return []
    return [sig.replace("f", "E") for sig in op.loops
            if set(sig[:op.nin]) == {"f"} and sig[op.nin] in "f?"]


def die(msg):
    sys.exit(f"gen_ops.py: {msg}")


def parse_loops(spec, nin, nout, where):
    loops = []
    for item in spec.split(","):
        if not item:
            die(f"{where}: empty loop item")
        if item.startswith("*"):
            body = item[1:]
            chars, out = (body.split("->") + [None])[:2]
            for c in chars:
                loops.append(c * nin + (out if out is not None else c * nout))
        else:
            if "->" not in item:
                die(f"{where}: loop {item!r} needs '->' (or a '*' shorthand)")
            ins, outs = item.split("->")
            if len(ins) != nin or len(outs) != nout:
                die(f"{where}: loop {item!r} does not match nin={nin} nout={nout}")
            loops.append(ins + outs)
    for sig in loops:
        for c in sig:
            if c not in DTYPES:
                die(f"{where}: unknown type char {c!r} in {sig!r}")
    if len(set(loops)) != len(loops):
        die(f"{where}: duplicate loops")
    return loops


def parse_ops(path):
    ops = []
    for lineno, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 5)
        if len(parts) < 6:
            die(f"{path.name}:{lineno}: expected 'name nin nout flags loops expr'")
        name, nin, nout, flags, loops, expr = parts
        where = f"{path.name}:{lineno}"
        nin, nout = int(nin), int(nout)
        if nout != 1 or not 1 <= nin <= 3:
            die(f"{where}: only nout=1 and nin 1..3 are supported")
        fl = 0
        if flags != "-":
            for f in flags.split(","):
                if f not in FLAGS:
                    die(f"{where}: unknown flag {f!r}")
                fl |= FLAGS[f]
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            die(f"{where}: bad op name {name!r}")
        ops.append(Op(name, nin, nout, fl, parse_loops(loops, nin, nout, where), expr, lineno))
    names = [o.name for o in ops]
    if len(set(names)) != len(names):
        die("duplicate op names")
    return ops


# ---- code for one (op, loop) ---------------------------------------------------------

def loop_sfx(sig, nin, half=False):
    # `half` (flag f16): float16 loops call the _f16 helpers (still computing in
    # float) where binary16's own steps matter (nextafter, spacing)
    sfx = ["f16" if half and c == "e" else DTYPES[c][2] for c in sig[:nin]]
    return sfx[0] if len(set(sfx)) == 1 else "_".join(sfx)


def translate(expr, sfx):
    # `f(` -> `ca_f_<sfx>(`; the variables a, b, c stay as they are.
    return re.sub(r"\b([A-Za-z_]\w*)\s*\(", lambda m: f"ca_{m.group(1)}_{sfx}(", expr)


# storage <-> compute conversions of the types that are not stored as computed
# (bool, float16, bfloat16): {} is the value; other types load as they are.
LOADS = {"?": "({} != 0)", "e": "ca_half_to_float({})", "E": "ca_bf16_to_float({})"}
STORES = {"?": "(ca_bool)(({}) != 0)", "e": "ca_float_to_half((float)({}))",
          "E": "ca_float_to_bf16((float)({}))", "F": "{}", "D": "{}"}


def load(c, x, raw):
    return x if raw or c not in LOADS else LOADS[c].format(x)


def store(c, r, raw):
    if raw:
        return r
    return STORES.get(c, f"({DTYPES[c][1]})({{}})").format(r)


def elem_func(op, k, sig, qual):
    """The element function: storage in, storage out."""
    raw = bool(op.flags & FLAGS["raw"])
    ins, out = sig[:op.nin], sig[op.nin]
    params = ", ".join(f"{DTYPES[c][1]} x{i}" for i, c in enumerate(ins))
    body = []
    for i, c in enumerate(ins):
        ctype = DTYPES[c][1] if raw else DTYPES[c][3]
        body.append(f"    const {ctype} {'abc'[i]} = {load(c, f'x{i}', raw)};")
    half = bool(op.flags & FLAGS["f16"])
    expr = op.expr if raw else translate(op.expr, loop_sfx(sig, op.nin, half))
    body.append(f"    return {store(out, expr, raw)};")
    return (f"{qual} {DTYPES[out][1]}\n{fname(op, k)}({params})\n{{\n" + "\n".join(body) + "\n}\n")


def fname(op, k):
    return f"ca_ew_{op.name}_{k}"


# Ops whose last input is a parameter, passed as a Python scalar (isclose's
# tolerances): the vector width follows the other operands' types.
PARAM_LAST = {"_isclose", "_isclose_nan"}


def vec_width(op, sig):
    types = sig[:op.nin - 1] + sig[op.nin:] if op.name in PARAM_LAST else sig
    width = max(1, 16 // max(DTYPES[c][4] for c in types))
    if qualname(op.name) != op.name:
        # scipy.special's rows: long compute-bound code, one element per thread;
        # with real types that also drops the dense kernel (ca_ew_launch), so nvcc
        # compiles each such loop twice instead of four times
        return 1
    if heavy(op) and any(c in "FD" for c in sig):
        # complex math is long and compute-bound: one element per thread keeps
        # the kernels (and nvcc's time) small at no cost in speed
        return 1
    return min(width, 4 if heavy(op) else 8)


# ---- files ---------------------------------------------------------------------------

HEADER = "/* Generated by tools/gen_ops.py from kernels/ops.def: do not edit. */\n"


def gen_table_h(ops, loops):
    lines = [HEADER, "#ifndef CA_EW_TABLE_H", "#define CA_EW_TABLE_H", "",
             '#include "kernels.h"', ""]
    lines.append(f"#define CA_EW_NOPS {len(ops)}")
    lines.append(f"#define CA_EW_NLOOPS {len(loops)}")
    lines.append("")
    lines.append("enum {")
    for i, op in enumerate(ops):
        lines.append(f"    CA_OP_{op.name} = {i},")
    lines.append("};")
    lines.append("")
    lines.append("/* The program slot of each loop per fusion family (kernels.h), -1 if none. */")
    lines.append("extern const int16_t ca_ew_fuse_slot[CA_FUSE_NFAM][CA_EW_NLOOPS];")
    lines.append("")
    lines.append("/* X(name, nin, nout) for every op, in table order. */")
    lines += x_macro("CA_EW_FOR_EACH_OP(X)", [f"X({op.name}, {op.nin}, {op.nout})" for op in ops])
    lines.append("#endif")
    return "\n".join(lines) + "\n"


def gen_table_c(ops, loops, gpu_names):
    out = [HEADER, '#include "ew_internal.h"', '#include "ew_table.h"', ""]
    rows = []
    for op in ops:
        first = next(i for i, (o, _, _) in enumerate(loops) if o is op)
        rows.append(f'{{"{op.name}", "{qualname(op.name)}", {op.nin}, {op.nout}, {op.flags}, '
                    f'{first}, {len(op.loops) + len(op.bf16)}}},')
    out += c_array("const ca_ew_op ca_ew_ops[CA_EW_NOPS]", rows)
    out.append("")
    rows = []
    for op, k, sig in loops:
        types = ", ".join(DTYPES[c][0] for c in sig)
        pad = ", -1" * (4 - len(sig))
        rows.append(f"{{CA_OP_{op.name}, {vec_width(op, sig)}, {{{types}{pad}}}}}, "
                    f"/* {sig[:op.nin]}->{sig[op.nin:]} */")
    out += c_array("const ca_ew_loop ca_ew_loops[CA_EW_NLOOPS]", rows)
    out.append("")
    for op, k, sig in loops:
        out.append(f"void ca_ewh_{op.name}_{k}(char *const *p, const int64_t *s, int64_t n);")
    out.append("")
    out += c_array("const ca_ew_host_fn ca_ew_host[CA_EW_NLOOPS]",
                   [f"ca_ewh_{op.name}_{k}," for op, k, _ in loops])
    out.append("")
    out += gen_fuse_table(loops)
    out.append("")
    out.append("#if CA_HAVE_CUDA")
    for name in gpu_names:
        out.append(f"int {name}(const ca_ew_sparams *p, int contig, ca_stream_t stream);")
    out.append("")
    out += c_array("const ca_ew_gpu_fn ca_ew_gpu[CA_EW_NLOOPS]", [f"{n}," for n in gpu_names])
    out.append("#endif")
    return "\n".join(out) + "\n"


def scalar_patterns(nin):
    """The inputs that get a loop of their own as scalars (stride 0) beside dense
    others: either operand of a binary op (`v * 2.0`, `2.0 - v`); for the
    three-input ops the last two, alone or together (`clip(v, lo, hi)`,
    `where(m, v, 0.0)`, isclose's parameter). A mix matching none of them takes
    the strided loop: correct, but scalar and branchy (clip on random data is
    ~40x slower there)."""
    if nin == 2:
        return [(1,), (2,)]
    if nin == 3:
        return [(2, 3), (2,), (3,)]
    return []


def scalar_loop(f, st, ins_c, nin, scalars):
    """The loop of host_loop for inputs `scalars` at stride 0, the rest dense."""
    dense = [i for i in range(nin + 1) if i not in scalars]
    cond = " && ".join(
        [f"s[{i}] == 0" for i in scalars] +
        [f"s[{i}] == (int64_t)sizeof({st[i]}) && (uintptr_t)p[{i}] % _Alignof({st[i]}) == 0"
         for i in dense])
    lines = [f"    if ({cond}) {{", f"        {st[0]} *o = ({st[0]} *)p[0];"]
    for i in scalars:
        lines.append(f"        {st[i]} c{i};")
        lines.append(f"        memcpy(&c{i}, p[{i}], sizeof c{i});")
    lines += [ins_c[i - 1] for i in dense if i > 0]
    args = ", ".join(f"c{i}" if i in scalars else f"in{i}[i]" for i in range(1, nin + 1))
    lines.append("        for (int64_t i = 0; i < n; i++) {")
    lines.append(f"            o[i] = {f}({args});")
    lines += ["        }", "        return;", "    }"]
    return lines


INT_DIV_OPS = {"floor_divide": "floordiv", "remainder": "floormod"}
INT_DIV_WIDTH = {"b": 8, "B": 8, "h": 16, "H": 16, "i": 32, "I": 32, "l": 64, "L": 64}


def int_div_loop(op, st, ins_c, sig):
    """`v // d` and `v % d` of integers with one divisor d >= 1 for the whole loop:
    a multiply and shifts an element instead of a divide (kernels/host/host_intdiv.h;
    2^22 int64 // 7 on the development machine: 12.7 ms with the divide, NumPy
    2.7). Other divisors (0, negative) take the loops below."""
    if op.name not in INT_DIV_OPS or sig[0] not in INT_DIV_WIDTH:
        return []
    t, name = st[0], DTYPES[sig[0]][1].replace("_t", "")
    w = INT_DIV_WIDTH[sig[0]]
    cond = " && ".join(["s[2] == 0"] + [
        f"s[{i}] == (int64_t)sizeof({t}) && (uintptr_t)p[{i}] % _Alignof({t}) == 0"
        for i in (0, 1)])
    call = (f"ca_floordiv_by_{name}(in1[i], g)" if op.name == "floor_divide"
            else f"ca_floormod_by_{name}(in1[i], d, g)")
    return ["#ifdef CA_HAVE_INTDIV",
            f"    if ({cond}) {{",
            f"        {t} d;",
            "        memcpy(&d, p[2], sizeof d);",
            "        if (d >= 1) {",
            f"            const ca_udiv{w} g = ca_udiv{w}_magic((uint{w}_t)d);",
            f"            {t} *o = ({t} *)p[0];",
            ins_c[0],
            "            for (int64_t i = 0; i < n; i++) {",
            f"                o[i] = {call};",
            "            }",
            "            return;",
            "        }",
            "    }",
            "#endif"]


def host_loop(op, k, sig):
    ins, o = sig[:op.nin], sig[op.nin]
    st = [DTYPES[o][1]] + [DTYPES[c][1] for c in ins]
    n = op.nin + 1
    f = fname(op, k)
    # the inputs' pointers are read once, before the loops: a store through a
    # 1-byte output may alias p[] itself, which otherwise reloads p[i] per element
    # and keeps gcc from vectorising (int8, uint8, bool outputs)
    args_c = ", ".join(f"in{i}[i]" for i in range(1, n))
    ins_c = [f"        const {st[i]} *in{i} = (const {st[i]} *)p[{i}];" for i in range(1, n)]
    contig_cond = " && ".join(f"s[{i}] == (int64_t)sizeof({st[i]}) && "
                              f"(uintptr_t)p[{i}] % _Alignof({st[i]}) == 0" for i in range(n))
    lines = [f"CA_HOST_CLONES void\nca_ewh_{op.name}_{k}(char *const *p, const int64_t *s, "
             f"int64_t n)\n{{"]
    lines.append(f"    if ({contig_cond}) {{")
    lines.append(f"        {st[0]} *o = ({st[0]} *)p[0];")
    lines += ins_c
    lines.append("        for (int64_t i = 0; i < n; i++) {")
    lines.append(f"            o[i] = {f}({args_c});")
    lines.append("        }")
    lines.append("        return;")
    lines.append("    }")
    lines += int_div_loop(op, st, ins_c, sig)
    for scalars in scalar_patterns(op.nin):
        lines += scalar_loop(f, st, ins_c, op.nin, scalars)
    lines.append("    char *po = p[0];")
    for i in range(1, n):
        lines.append(f"    const char *p{i} = p[{i}];")
    lines.append(f"    for (int64_t i = 0; i < n; i++) {{")
    for i in range(1, n):
        lines.append(f"        {st[i]} x{i};")
        lines.append(f"        memcpy(&x{i}, p{i}, sizeof x{i});")
        lines.append(f"        p{i} += s[{i}];")
    call = ", ".join(f"x{i}" for i in range(1, n))
    lines.append(f"        const {st[0]} r = {f}({call});")
    lines.append("        memcpy(po, &r, sizeof r);")
    lines.append("        po += s[0];")
    lines.append("    }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def gen_host(chunk, stamp):
    out = [HEADER, f"/* inputs: {stamp} */", "#include <string.h>", '#include "ew_internal.h"',
           '#include "ew_math.h"', '#include "special_math.h"', '#include "host_intdiv.h"', ""]
    out.append("/* Each function below is one inner loop: n elements, p[0] the output,")
    out.append(" * p[1..] the inputs (a scalar operand is a pointer with stride 0). */")
    for op, k, sig in chunk:
        out.append(f"/* {op.name} {sig[:op.nin]}->{sig[op.nin:]} */")
        out.append(elem_func(op, k, sig, "static inline"))
        out.append(f"void ca_ewh_{op.name}_{k}(char *const *p, const int64_t *s, int64_t n);")
        out.append(host_loop(op, k, sig))
    return "\n".join(out) + "\n"


def gen_gpu(chunk, stamp):
    out = [HEADER, f"/* inputs: {stamp} */", '#include "ew_kernels.cuh"', ""]
    for op, k, sig in chunk:
        ins, o = sig[:op.nin], sig[op.nin]
        st = [DTYPES[c][1] for c in ins] + ["ca_ew_none"] * (3 - op.nin)
        out.append(f"/* {op.name} {sig[:op.nin]}->{sig[op.nin:]} */")
        # long complex math: one out-of-line copy shared by both kernels
        big = heavy(op) and any(c in "FD" for c in sig)
        out.append(elem_func(op, k, sig, "static __device__ " +
                             ("__noinline__" if big else "__forceinline__")))
        out.append(f"struct ca_ewop_{op.name}_{k} {{")
        out.append(f"    typedef {DTYPES[o][1]} O;")
        for i in range(3):
            out.append(f"    typedef {st[i]} I{i};")
        out.append(f"    static constexpr int nin = {op.nin};")
        out.append(f"    static constexpr int vec = {vec_width(op, sig)};")
        params = ", ".join(f"I{i} x{i}" for i in range(3))
        call = ", ".join(f"x{i}" for i in range(op.nin))
        out.append(f"    static __device__ __forceinline__ O f({params})")
        out.append(f"    {{")
        for i in range(op.nin, 3):
            out.append(f"        (void)x{i};")
        out.append(f"        return {fname(op, k)}({call});")
        out.append(f"    }}")
        out.append("};")
        out.append(f'extern "C" int\nca_ewg_{op.name}_{k}(const ca_ew_sparams *p, int contig, '
                   f"ca_stream_t stream)\n{{")
        out.append(f"    return ca_ew_launch<ca_ewop_{op.name}_{k}>(p, contig, stream);")
        out.append("}\n")
    return "\n".join(out) + "\n"


def fuse_slots(loops):
    """Per family, the fusable loops in table order: [(loop index, op, k, sig)]."""
    fams = []
    for _, fc, _, _ in FUSE_FAMILIES:
        # namespaced rows (scipy.special's long series) stay out: each case is
        # inlined into the one interpreter kernel every fused chain runs
        fams.append([(i, op, k, sig) for i, (op, k, sig) in enumerate(loops)
                     if op.nout == 1 and set(sig) <= {fc, "?"} and qualname(op.name) == op.name])
    return fams


def gen_fuse_table(loops):
    rows = []
    for fam in fuse_slots(loops):
        slot = {i: j for j, (i, _, _, _) in enumerate(fam)}
        rows.append("{" + ", ".join(str(slot.get(i, -1)) for i in range(len(loops))) + "},")
    return (["/* The program slot of each loop per fusion family (-1: does not fit). */"] +
            c_array("const int16_t ca_ew_fuse_slot[CA_FUSE_NFAM][CA_EW_NLOOPS]", rows))


def gen_fuse(loops, stamp):
    out = [HEADER, f"/* inputs: {stamp} */", '#include "ew_fuse.cuh"', ""]
    fams = fuse_slots(loops)
    done = set()
    for fam in fams:
        for i, op, k, sig in fam:
            if i not in done:
                done.add(i)
                out.append(f"/* {op.name} {sig[:op.nin]}->{sig[op.nin:]} */")
                out.append(elem_func(op, k, sig, "static __device__ __forceinline__"))
    get = {"f": "get_f", "d": "get_d", "?": "get_b"}
    for (name, fc, word, vec), fam in zip(FUSE_FAMILIES, fams):
        out.append(f"struct ca_fuse_apply_{name} {{")
        out.append(f"    static __device__ __forceinline__ void")
        out.append(f"    run(int slot, ca_fuse_regs<{word}, {vec}> &r, int dst, uint8_t s0, "
                   f"uint8_t s1, uint8_t s2)")
        out.append("    {")
        out.append("        (void)s1;")
        out.append("        (void)s2;")
        out.append("        switch (slot) {")
        for j, (i, op, k, sig) in enumerate(fam):
            args = ", ".join(f"r.{get[c]}(s{n}, e)" for n, c in enumerate(sig[:op.nin]))
            out.append(f"        case {j}: /* {op.name} {sig[:op.nin]}->{sig[op.nin:]} */")
            out.append(f"#pragma unroll")
            out.append(f"            for (int e = 0; e < {vec}; e++) {{")
            out.append(f"                r.put(dst, e, {fname(op, k)}({args}));")
            out.append(f"            }}")
            out.append(f"            return;")
        out.append("        }")
        out.append("    }")
        out.append("};")
        out.append("")
        ft = DTYPES[fc][1]
        out.append(f'extern "C" int\nca_fuse_launch_{name}(const ca_fuse_params *p, '
                   f"ca_stream_t stream)\n{{")
        out.append(f"    return ca_fuse_launch<{ft}, {word}, {vec}, ca_fuse_apply_{name}>"
                   f"(p, stream);")
        out.append("}\n")
        # the fused sum adds with the plain sum's op struct (red_gpu_ops.h)
        red = f"ca_red::RK_SUM_{DTYPES[fc][0][3:].lower()}_{DTYPES[fc][0][3:].lower()}"
        out.append(f'extern "C" int\nca_fuse_sum_launch_{name}(const ca_fuse_params *p, '
                   f"const ca_reduce_desc *d,\n{' ' * (len(name) + 20)}ca_stream_t stream)\n{{")
        out.append(f"    return ca_fuse_sum_launch<{ft}, {word}, {vec}, ca_fuse_apply_{name},\n"
                   f"                              {red}>(p, d, stream);")
        out.append("}\n")
    return "\n".join(out) + "\n"


def gen_py(ops, loops):
    out = ['"""Generated by tools/gen_ops.py from kernels/ops.def: do not edit."""', ""]
    out.append("# (name, nin, nout, flags, [loop signatures as 'ff->f'], expression)")
    out.append("OPS = [")
    for op in ops:
        sigs = [f"{s[:op.nin]}->{s[op.nin:]}" for s in op.loops]
        out.append(f"    ({op.name!r}, {op.nin}, {op.nout}, {sorted(k for k, v in FLAGS.items() if op.flags & v)!r},")
        out.append(f"     {sigs!r},")
        out.append(f"     {op.expr!r}),")
    out.append("]")
    out.append("")
    out.append("NAMES = [op[0] for op in OPS]")
    return "\n".join(out) + "\n"


def split(items, n):
    """n chunks of about equal cost (vector width approximates the unrolled code)."""
    chunks = [[] for _ in range(n)]
    cost = [0] * n
    for it in sorted(items, key=lambda t: -t[3]):
        j = cost.index(min(cost))
        chunks[j].append(it[:3])
        cost[j] += it[3]
    for c in chunks:
        c.sort(key=lambda t: (t[0].lineno, t[1]))
    return [c for c in chunks if c]


def main(argv=None):
    args = parse_args(argv, __doc__, "--ops", KERNELS / "ops.def")

    ops = parse_ops(args.ops)
    loops = [(op, k, sig) for op in ops for k, sig in enumerate(op.loops + op.bf16)]
    stamp = inputs_stamp(args.ops, __file__)

    written = []
    out = args.out
    write_if_changed(out / "ew_table.h", gen_table_h(ops, loops), written)
    gpu_names = [f"ca_ewg_{op.name}_{k}" for op, k, sig in loops]
    write_if_changed(out / "ew_table.c", gen_table_c(ops, loops, gpu_names), written)

    costed = [(op, k, sig, vec_width(op, sig) + 1 + (4 if heavy(op) else 0)
               * (2 if sig[0] in "FD" else 1)) for op, k, sig in loops]
    for i, chunk in enumerate(split(costed, N_GPU_FILES)):
        write_if_changed(out / f"ew_gpu_{i:02d}.cu", gen_gpu(chunk, stamp), written)
    write_if_changed(out / "ew_fuse.cu", gen_fuse(loops, stamp), written)
    for i, chunk in enumerate(split([(o, k, s, 1) for o, k, s in loops], N_HOST_FILES)):
        write_if_changed(out / f"ew_host_{i}.c", gen_host(chunk, stamp), written)
    if args.py_out:
        write_if_changed(args.py_out, gen_py(ops, loops), written)
    print(f"gen_ops.py: {len(ops)} ops, {len(loops)} loops; "
          f"{len(written)} file(s) rewritten")


if __name__ == "__main__":
    main()
