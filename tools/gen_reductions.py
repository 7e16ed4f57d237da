#!/usr/bin/env python3
"""Generate the reduction tables, GPU instantiations and host loops from kernels/reductions.def.

    python tools/gen_reductions.py --out build/generated \
        --py-out python/cuarray/_generated_reductions.py

Writes (only files whose content changed, so make-style rebuilds stay incremental):
  red_table.h     kernel op ids (CA_RED_<NAME>), function ids (CA_RF_<NAME>), the
                  function table type, the CA_RED_FOR_EACH_FN / _ALIAS X-macros
  red_table.c     the function table of csrc/ops/reduction.c, the supported (op, in,
                  out) triples of reductions and scans, the aux ops
  red_host.c      the host (cpu device) loops: per triple init, aux, run, store
                  functions, per scan pair one scan loop, and their tables
  red_gpu_ops.h   (C++, nvcc only) one op struct per triple for the kernel
                  templates of kernels/gpu/reduce_impl.cuh and reduce_scan.cu
  red_gpu_<k>.cu  the GPU instantiations, split so nvcc runs them in parallel
  _generated_reductions.py  the table for Python (names, kernels, NumPy's result
                  dtypes, signatures)

The per-element math is the helpers of kernels/shared/reduce_math.h that a kernel row
names; only the walk over the elements differs between the devices (the
templates of reduce_impl.cuh, the loops below).
"""

import shlex
import sys
from pathlib import Path

from gen_common import c_array, inputs_stamp, parse_args, write_if_changed, x_macro

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "kernels"

CHARS = "?bBhHiIlLefdFD"
# NumPy type char -> (scalar.h name, ca_dtype code, storage C type)
DT = {
    "?": ("bool", "CA_BOOL", "ca_bool"),
    "b": ("int8", "CA_INT8", "int8_t"),
    "B": ("uint8", "CA_UINT8", "uint8_t"),
    "h": ("int16", "CA_INT16", "int16_t"),
    "H": ("uint16", "CA_UINT16", "uint16_t"),
    "i": ("int32", "CA_INT32", "int32_t"),
    "I": ("uint32", "CA_UINT32", "uint32_t"),
    "l": ("int64", "CA_INT64", "int64_t"),
    "L": ("uint64", "CA_UINT64", "uint64_t"),
    "e": ("float16", "CA_FLOAT16", "ca_half"),
    "f": ("float32", "CA_FLOAT32", "float"),
    "d": ("float64", "CA_FLOAT64", "double"),
    "F": ("complex64", "CA_COMPLEX64", "ca_complex64"),
    "D": ("complex128", "CA_COMPLEX128", "ca_complex128"),
    # ml_dtypes' bfloat16: every float16 pair gets a bfloat16 twin (bf16_pairs),
    # every function float16's result (bf16_result); no scans (those run on a
    # float32 copy, reduction.c's ml_reduction)
    "E": ("bfloat16", "CA_BFLOAT16", "ca_bf16"),
}
NAME = {c: v[0] for c, v in DT.items()}
CTYPE = {v[0]: v[2] for v in DT.values()}
CTYPE["truth"] = "ca_red_truth"
SIGNED = "?bhil"
UNSIGNED = "BHIL"
FLOATS = "efdE"
HALVES = "eE"  # 2-byte floats: float32 accumulators and values on a GPU
COMPLEX = "FD"

MAPS = {"cast", "truth", "index", "sqdev", "sq", "nanzero", "nanone", "notnan"}
ACCS = {"sum", "value", "truth", "index", "sqdev"}
AUXES = {"-", "mean"}
# combine steps that the host loops stop early for (ca_red_stop_<combine>_<acc>)
ABSORBING = {"or", "and"}
# finish steps whose result is not the accumulator type
FINISH_TYPE = {"index": "int64", "nanindex": "int64"}
# combine steps of the arg kernels whose GPU fast path (reduce_impl.cuh, vec_comb)
# holds: a NaN beats every value, so a held NaN is final
FAST_ARG = {"argmax", "argmin"}
FLAGS = {"sqrt", "nomethod"}
RULES = ["sum", "mean", "var", "same", "index", "bool"]
SIGS = {
    "sum": "(a, axis=None, dtype=None, out=None, keepdims=False)",
    "max": "(a, axis=None, out=None, keepdims=False)",
    # dtype= (keyword only, after NumPy's parameters): CuPy's type of the indices
    "arg": "(a, axis=None, out=None, *, keepdims=False, dtype=None)",
    "var": "(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, correction=None)",
    "scan": "(a, axis=None, dtype=None, out=None)",
}
EMPTIES = ["0", "1", "nan", "nanwarn", "noidentity", "noseq", "-"]
DIVISORS = {"1": "ONE", "n": "N", "n-ddof": "NDDOF"}
N_GPU_FILES = 4


def die(msg):
    sys.exit(f"gen_reductions.py: {msg}")


class Kernel:
    def __init__(self, cols, where):
        (self.name, self.identity, self.map, self.combine, self.finish, self.acc,
         self.aux, pairs, scans) = cols
        self.where = where
        if not self.name.isupper():
            die(f"{where}: kernel names are upper case")
        for what, val, allowed in (("map", self.map, MAPS), ("acc", self.acc, ACCS),
                                   ("aux", self.aux, AUXES)):
            if val not in allowed:
                die(f"{where}: unknown {what} {val!r}")
        self.pairs = bf16_pairs(parse_pairs(pairs, where))
        self.scans = [] if scans == "-" else parse_pairs(scans, where)
        if self.aux != "-" and self.scans:
            die(f"{where}: a kernel with an aux pass has no scans")


class Fn:
    def __init__(self, cols, where):
        (self.name, self.kernel, self.bool_kernel, self.rule, self.result, empty,
         self.divisor, flags, self.sig, aliases, self.doc) = cols
        self.where = where
        self.empty, _, self.empty_arg = empty.partition(":")
        if self.rule not in RULES:
            die(f"{where}: unknown rule {self.rule!r}")
        if self.sig not in SIGS:
            die(f"{where}: unknown sig {self.sig!r}")
        if self.empty not in EMPTIES:
            die(f"{where}: unknown empty {empty!r}")
        if self.empty == "noidentity" and not self.empty_arg:
            die(f"{where}: noidentity needs the ufunc's name (noidentity:maximum)")
        if self.divisor not in DIVISORS:
            die(f"{where}: unknown divisor {self.divisor!r}")
        fl = set() if flags == "-" else set(flags.split(","))
        if not fl <= FLAGS:
            die(f"{where}: unknown flags {flags!r}")
        self.sqrt = "sqrt" in fl
        # nomethod: a module function only (NumPy's ndarray has no nansum method)
        self.method = "nomethod" not in fl
        if len(self.result) != 14 or any(c not in DT for c in self.result):
            die(f"{where}: result needs one type character per dtype {CHARS}")
        self.aliases = [] if aliases == "-" else aliases.split(",")
        self.scan = self.sig == "scan"
        if self.scan != (self.empty == "-"):
            die(f"{where}: scans (and only scans) have empty '-'")

    def full_doc(self, name=None):
        """The C docstring: the signature line (under `name`) and the body."""
        return f"{name or self.name}{SIGS[self.sig]}\\n--\\n\\n{self.doc}"


def bf16_pairs(pairs):
    """The pairs plus a bfloat16 twin of each float16 one (e->f: E->f)."""
    return pairs + [("E", "E" if o == "e" else o) for i, o in pairs if i == "e"]


def bf16_result(f):
    """A function's result dtype for bfloat16 input: float16's, bfloat16 for float16."""
    r = f.result[CHARS.index("e")]
    return "E" if r == "e" else r


def parse_pairs(spec, where):
    pairs = []
    for item in spec.split(","):
        if item.startswith("*"):
            chars, _, out = item[1:].partition("->")
            for c in chars:
                pairs.append((c, out or c))
        else:
            i, sep, o = item.partition("->")
            if not sep or len(i) != 1 or len(o) != 1:
                die(f"{where}: bad pair {item!r}")
            pairs.append((i, o))
    for i, o in pairs:
        if i not in DT or o not in DT:
            die(f"{where}: unknown type character in {spec!r}")
    if len(set(pairs)) != len(pairs):
        die(f"{where}: duplicate pairs")
    return pairs


def parse(path):
    kernels, fns = [], []
    for lineno, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{path.name}:{lineno}"
        cols = shlex.split(line)
        if cols[0] == "kernel":
            if len(cols) != 10:
                die(f"{where}: a kernel row has 9 columns after 'kernel'")
            kernels.append(Kernel(cols[1:], where))
        elif cols[0] == "fn":
            if len(cols) != 12:
                die(f"{where}: an fn row has 11 columns after 'fn'")
            fns.append(Fn(cols[1:], where))
        else:
            die(f"{where}: a row starts with 'kernel' or 'fn'")
    names = {k.name for k in kernels}
    if len(names) != len(kernels):
        die("duplicate kernel names")
    if len({f.name for f in fns}) != len(fns):
        die("duplicate function names")
    for f in fns:
        for k in (f.kernel, f.bool_kernel):
            if k != "-" and k not in names:
                die(f"{f.where}: unknown kernel {k!r}")
        if f.kernel == "-":
            die(f"{f.where}: a function needs a kernel")
    return kernels, fns


# ---- types per device -------------------------------------------------------------

def value_type(c, gpu):
    """The type max/min/arg compare in."""
    if gpu:
        return "float32" if c in HALVES else NAME[c]
    if c in SIGNED:
        return "int64"
    if c in UNSIGNED:
        return "uint64"
    if c in FLOATS:
        return "float64"
    return "complex128"


def aux_dtype(c):
    """The dtype of the aux array (the mean) for an input dtype."""
    return "complex128" if c in COMPLEX else "float32" if c in HALVES else "float64"


def types(k, i, o, gpu):
    """(accumulator, the map's conversion type) of triple (k, i, o) on one device."""
    if k.acc == "sum":
        if o in "lL":
            acc = NAME[o]
        elif o in HALVES:
            acc = "float32" if gpu else "float64"
        elif o in "fd":
            acc = "float64"
        elif o in COMPLEX:
            acc = "complex128"
        else:
            die(f"{k.where}: no sum accumulator for output {o!r}")
    elif k.acc == "value":
        acc = value_type(i, gpu)
    elif k.acc == "truth":
        acc = "truth"
    elif k.acc == "index":
        acc = "arg_" + value_type(i, gpu)
    else:  # sqdev (also the accumulator of the sq map)
        acc = "float32" if gpu and i in HALVES else "float64"
    if k.map in ("cast", "nanzero", "nanone"):
        conv = acc
    elif k.map == "notnan":
        conv = value_type(i, gpu)
    elif k.map == "truth":
        conv = "bool"
    elif k.map == "index":
        conv = value_type(i, gpu)
    else:  # sqdev: the mean's type; sq: the same, with nothing subtracted
        conv = "complex128" if i in COMPLEX else aux_dtype(i) if gpu else "float64"
    return acc, conv


def sfx(acc):
    return acc[4:] if acc.startswith("arg_") else acc


def ctype(t):
    return "ca_red_" + t if t.startswith("arg_") else CTYPE[t]


def map_expr(k, i, conv, x, r, m):
    xin = NAME[i]
    if k.map == "cast":
        return f"ca_cast_{conv}_{xin}({x})"
    if k.map in ("nanzero", "nanone", "notnan"):
        return f"ca_red_{k.map}_{conv}(ca_cast_{conv}_{xin}({x}))"
    if k.map == "truth":
        return f"(ca_red_truth)(ca_cast_bool_{xin}({x}) != 0)"
    if k.map == "index":
        return f"ca_red_argat_{conv}(ca_cast_{conv}_{xin}({x}), {r})"
    if k.map == "sq":
        return f"ca_red_abs2_{conv}(ca_cast_{conv}_{xin}({x}))"
    return f"ca_red_sqdev_{conv}(ca_cast_{conv}_{xin}({x}), {m})"


def finish_expr(k, acc, o, a):
    """The output value from accumulator `a` (divisor and flags in scope)."""
    if k.finish == "-":
        fin, ft = a, acc
    else:
        fin = f"ca_red_fin_{k.finish}_{sfx(acc)}({a}, divisor, flags)"
        ft = FINISH_TYPE.get(k.finish, acc)
    return f"ca_cast_{NAME[o]}_{ft}({fin})"


def triples(kernels):
    return [(k, i, o) for k in kernels for i, o in k.pairs]


def scan_pairs(kernels):
    return [(k, i, o) for k in kernels for i, o in k.scans]


def tname(k, i, o):
    return f"{k.name}_{NAME[i]}_{NAME[o]}"


# ---- files ------------------------------------------------------------------------

HEADER = "/* Generated by tools/gen_reductions.py from kernels/reductions.def: do not edit. */\n"


def gen_table_h(kernels, fns):
    out = [HEADER, "#ifndef CA_RED_TABLE_H", "#define CA_RED_TABLE_H", "",
           '#include "kernels.h"', "", "#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
    out.append("/* Kernel ops: the `op` of kernels.h's ca_reduce_* and ca_scan_* calls. */")
    out.append("enum {")
    for n, k in enumerate(kernels):
        out.append(f"    CA_RED_{k.name} = {n},")
    out.append(f"    CA_RED_NOPS = {len(kernels)}")
    out.append("};")
    out.append("")
    out.append("/* The functions of csrc/ops/reduction.c, in table order. */")
    out.append("enum {")
    for n, f in enumerate(fns):
        out.append(f"    CA_RF_{f.name.upper()} = {n},")
    out.append(f"    CA_RF_N = {len(fns)}")
    out.append("};")
    out.append("")
    out.append("/* The columns of an fn row (kernels/reductions.def says what they mean). */")
    out.append("enum { " + ", ".join(f"CA_RR_{r.upper()}" for r in RULES) + " };")
    out.append("enum { " + ", ".join(f"CA_RSIG_{s.upper()}" for s in SIGS) + " };")
    out.append("enum { CA_REMPTY_ZERO, CA_REMPTY_ONE, CA_REMPTY_NAN, CA_REMPTY_NANWARN,")
    out.append("       CA_REMPTY_NOIDENTITY, CA_REMPTY_NOSEQ, CA_REMPTY_NONE };")
    out.append("enum { " + ", ".join(f"CA_RDIV_{v}" for v in DIVISORS.values()) + " };")
    out.append("")
    out.append("typedef struct {")
    out.append("    const char *name;")
    out.append("    int8_t kernel;          /* CA_RED_* */")
    out.append("    int8_t bool_kernel;     /* CA_RED_* for a bool computation, -1: kernel */")
    out.append("    int8_t rule;            /* CA_RR_* */")
    out.append("    int8_t sig;             /* CA_RSIG_*; CA_RSIG_SCAN: a scan */")
    out.append("    int8_t empty;           /* CA_REMPTY_* */")
    out.append("    int8_t divisor;         /* CA_RDIV_* */")
    out.append("    int8_t flags;           /* CA_RED_SQRT */")
    out.append("    const char *empty_arg;  /* noidentity: the ufunc's name */")
    out.append("    int8_t result[CA_NTYPES]; /* NumPy's result dtype per input dtype */")
    out.append("} ca_red_fn;")
    out.append("")
    out.append("extern const ca_red_fn ca_red_fns[CA_RF_N];")
    out.append("")
    out.append("/* A signature (the `sig` column): parameter names, `a` first, NULL-terminated;")
    out.append(" * npos positional ones; the index of each argument, -1 where absent. */")
    out.append("typedef struct {")
    out.append("    const char *const *names;")
    out.append("    int npos;")
    out.append("    int axis, dtype, out, keepdims, ddof, correction;")
    out.append("} ca_red_sig;")
    out.append("extern const ca_red_sig ca_red_sigs[];")
    out.append("/* The kernel op of each op's first pass (its aux operand), -1: none. */")
    out.append("extern const int8_t ca_red_aux_op[CA_RED_NOPS];")
    out.append("/* The dtype of that aux operand per input dtype, -1: no aux pass. */")
    out.append("extern const int8_t ca_red_aux_dtype[CA_RED_NOPS][CA_NTYPES];")
    out.append("/* 1 for the ops whose map step reads positions (C order of the reduced")
    out.append(" * dims matters to them: the merge keeps it). */")
    out.append("extern const uint8_t ca_red_positional[CA_RED_NOPS];")
    out.append("/* 1 where a kernel exists, on both devices. */")
    out.append("extern const uint8_t ca_red_has[CA_RED_NOPS][CA_NTYPES][CA_NTYPES];")
    out.append("extern const uint8_t ca_red_scan_has[CA_RED_NOPS][CA_NTYPES][CA_NTYPES];")
    out.append("")
    out.append("/* X(name, CA_RF_<NAME>, docstring) per function; X(alias, CA_RF_<NAME>,")
    out.append(" * docstring) per alias. */")
    out += x_macro("CA_RED_FOR_EACH_FN(X)",
                   [f'X({f.name}, CA_RF_{f.name.upper()}, "{f.full_doc()}")' for f in fns])
    out.append("/* X(name, CA_RF_<NAME>, docstring) per function that is an ndarray method. */")
    out += x_macro("CA_RED_FOR_EACH_METHOD(X)",
                   [f'X({f.name}, CA_RF_{f.name.upper()}, "{f.full_doc()}")'
                    for f in fns if f.method])
    out += x_macro("CA_RED_FOR_EACH_ALIAS(X)",
                   [f'X({a}, {f.name}, CA_RF_{f.name.upper()}, "{f.full_doc(a)}")'
                    for f in fns for a in f.aliases])
    out += ["#ifdef __cplusplus", "}", "#endif", "#endif"]
    return "\n".join(out) + "\n"


def gen_table_c(kernels, fns):
    out = [HEADER, '#include "red_table.h"', ""]
    rows = []
    for f in fns:
        # NumPy's 14, bfloat16, and -1 for the float8 types (no reductions)
        res = ", ".join([DT[c][1] for c in f.result + bf16_result(f)] + ["-1", "-1"])
        bk = "-1" if f.bool_kernel == "-" else f"CA_RED_{f.bool_kernel}"
        ea = f'"{f.empty_arg}"' if f.empty_arg else "NULL"
        empty = "NONE" if f.empty == "-" else {"0": "ZERO", "1": "ONE"}.get(f.empty,
                                                                      f.empty.upper())
        rows.append(f'{{"{f.name}", CA_RED_{f.kernel}, {bk}, CA_RR_{f.rule.upper()}, '
                    f"CA_RSIG_{f.sig.upper()}, CA_REMPTY_{empty}, "
                    f"CA_RDIV_{DIVISORS[f.divisor]}, {'CA_RED_SQRT' if f.sqrt else 0}, "
                    f"{ea},")
        rows.append(f" {{{res}}}}},")
    out += c_array("const ca_red_fn ca_red_fns[CA_RF_N]", rows)
    out.append("")
    rows = []
    for name, text in SIGS.items():
        params = [p.split("=")[0] for p in text.strip("()").split(", ")]
        names = ", ".join(f'"{p}"' for p in params if p != "*")
        out.append(f"static const char *const sig_{name}[] = {{{names}, NULL}};")
        npos = params.index("*") if "*" in params else len(params)
        named = [p for p in params if p != "*"]
        slots = ", ".join(str(named.index(a)) if a in named else "-1"
                          for a in ("axis", "dtype", "out", "keepdims", "ddof",
                                    "correction"))
        rows.append(f"[CA_RSIG_{name.upper()}] = {{sig_{name}, {npos}, {slots}}},")
    out += c_array("const ca_red_sig ca_red_sigs[]", rows)
    out.append("")
    out += c_array("const int8_t ca_red_aux_op[CA_RED_NOPS]",
                   [f"{'CA_RED_SUM' if k.aux == 'mean' else -1}, /* {k.name} */"
                    for k in kernels])
    out.append("")
    rows = []
    for k in kernels:
        if k.aux == "-":
            row = ", ".join("-1" for _ in CHARS + "E")
        else:
            row = ", ".join(DT[c][1] for c in (next(x for x, v in DT.items()
                                                    if v[0] == aux_dtype(i))
                                               for i in CHARS + "E"))
        rows.append(f"{{{row}}}, /* {k.name} */")
    out += c_array("const int8_t ca_red_aux_dtype[CA_RED_NOPS][CA_NTYPES]", rows)
    out.append("")
    out += c_array("const uint8_t ca_red_positional[CA_RED_NOPS]",
                   [", ".join("1" if k.map == "index" else "0" for k in kernels) + ","])
    out.append("")
    for var, get in (("ca_red_has", triples), ("ca_red_scan_has", scan_pairs)):
        out += c_array(f"const uint8_t {var}[CA_RED_NOPS][CA_NTYPES][CA_NTYPES]",
                       [f"[CA_RED_{k.name}][{DT[i][1]}][{DT[o][1]}] = 1,"
                        for k, i, o in get(kernels)])
        out.append("")
    return "\n".join(out)


# ---- host -------------------------------------------------------------------------
# Per triple: init / ctx / run / store for one output (the run: a strided run of the
# innermost reduced dim), and the column forms (hvi/hv/hvs) that fold rows of the
# input into a vector of accumulators, one per adjacent output, for reductions whose
# innermost kept dim has the smaller stride. Each loop has a copy with the element
# size as the stride (the contiguous case), which gcc vectorises.

INL = "static inline __attribute__((always_inline))"


def host_comb(k, s):
    """The combine step; max/min of doubles in host_reduce.h's branch-free form."""
    if k.combine in ("max", "min") and s == "float64":
        return f"ca_hr_{k.combine}_float64"
    return f"ca_red_{k.combine}_{s}"


def host_step(k, i, conv, s, x, r, m, accv):
    """The combine of accumulator `accv` with element x (position r)."""
    if k.map == "index":
        # positions grow along the walk: the combine's `later` form
        return f"ca_red_{k.combine}_later_{s}({accv}, ca_cast_{conv}_{NAME[i]}({x}), {r})"
    return f"{host_comb(k, s)}({accv}, {map_expr(k, i, conv, x, r, m)})"


def host_pairwise(k, i, o, t, acc, conv, ic, at, m):
    out = [f"static inline {at}\nhm_{t}(const char *q, const ca_hctx *c)\n{{",
           "    (void)c;",
           f"    return {map_expr(k, i, conv, f'*(const {ic} *)q', '0', m)};",
           "}"]
    kind = "REAL" if acc == "float64" else "COMPLEX"
    out.append(f"CA_HR_PAIRWISE_{kind}(hp_{t}, hm_{t}, (int64_t)sizeof({ic}))")
    return out, [f"    (void)r0;",
                 f"    a->{acc} = ca_red_{k.combine}_{sfx(acc)}(a->{acc}, hp_{t}(p, n, s, c));"]


def host_run_plain(k, i, t, acc, conv, ic, at, m):
    """The sequential loop (and its contiguous copy); or/and stop early."""
    s = sfx(acc)
    x = f"*(const {ic} *)(p + i * s)"
    stop = f" && !ca_red_stop_{k.combine}_{s}(acc)" if k.combine in ABSORBING else ""
    out = [f"{INL} {at}\nhl_{t}({at} acc, const char *p, int64_t n, int64_t s, int64_t r0,"
           f"\n{' ' * (len(t) + 4)}const ca_hctx *c)\n{{"]
    if k.map != "index":
        out.append("    (void)r0;")
    if k.aux == "-":
        out.append("    (void)c;")
    out += [f"    for (int64_t i = 0; i < n{stop}; i++) {{",
            f"        acc = {host_step(k, i, conv, s, x, 'r0 + i', m, 'acc')};",
            "    }",
            "    return acc;",
            "}"]
    return out


# any / all: the run through host_truth.c's block loops (named by the element's
# words, host_reduce.h), which vectorise, instead of a per-element compare and
# early-exit branch, which does not
TRUTH_RUN = {"or": "any", "and": "all"}
TRUTH_WORDS = {"?": "w8", "b": "w8", "B": "w8", "h": "w16", "H": "w16", "i": "w32",
               "I": "w32", "l": "w64", "L": "w64", "e": "f16", "E": "f16", "f": "f32", "d": "f64",
               "F": "c64", "D": "c128"}


def host_run_truth(k, i):
    """The run body of a truth map with or/and (once absorbing, it stays)."""
    fn = f"ca_hr_{TRUTH_RUN[k.combine]}_{TRUTH_WORDS[i]}"
    return ["    (void)r0;",
            "    (void)c;",
            f"    if (!ca_red_stop_{k.combine}_truth(a->truth)) {{",
            f"        a->truth = ca_red_{k.combine}_truth(a->truth, {fn}(p, n, s));",
            "    }"]


def int_sum(k, acc):
    """Integer sums (wrapping adds: exact in any order)."""
    return k.combine == "add" and acc in ("int64", "uint64") and k.map != "index"


def host_run_isum(k, i, t, acc, conv, ic, at, m):
    """An integer sum of a strided run in four accumulators: four independent add
    chains instead of one (the adds wrap, so the order does not matter)."""
    s = sfx(acc)
    x = f"*(const {ic} *)(q + {{}} * s)"
    out = [f"static {at}\nhl4_{t}({at} acc, const char *p, int64_t n, int64_t s, int64_t r0,"
           f"\n{' ' * (len(t) + 5)}const ca_hctx *c)\n{{",
           f"    {at} a1 = ca_red_{k.identity}_{s}(), a2 = a1, a3 = a1;",
           "    int64_t i = 0;",
           "    for (; i + 4 <= n; i += 4) {",
           "        const char *q = p + i * s;"]
    for r, a in enumerate(("acc", "a1", "a2", "a3")):
        out.append(f"        {a} = ca_red_add_{s}({a}, {map_expr(k, i, conv, x.format(r), '0', m)});")
    out += ["    }",
            f"    acc = ca_red_add_{s}(ca_red_add_{s}(acc, a1), ca_red_add_{s}(a2, a3));",
            f"    return hl_{t}(acc, p + i * s, n - i, s, r0, c);",
            "}"]
    return out


LANE_OPS = ("max", "min", "argmax", "argmin", "fmax", "fmin")
LANE_TYPES = "?bBhHiIlLfd"


def lane_fn(k, i):
    """host_minmax.c's strided lane loop for op k of input type i, and its element
    type."""
    name = "uint8" if i == "?" else NAME[i]
    op = {"argmax": "max", "argmin": "min"}.get(k.combine, k.combine)
    if i not in "fd" and op in ("fmax", "fmin"):
        op = op[1:]  # integers have no NaN
    return f"ca_hr_mms_{op}_{name}", DT["B" if i == "?" else i][2]


def host_run_lanes(k, i, t, acc, conv, ic):
    """max/min/argmax/argmin/fmax/fmin of a run (s bytes apart; s = the element size
    is the contiguous loop) through the lane loops of host_minmax.c (host_reduce.h):
    integer max/min in one call; floats and the arg forms in blocks of
    CA_HR_MM_BLOCK bytes of memory, a float block with a NaN walked by the exact
    loop, an arg block with a new best searched for its first position; float
    fmax/fmin in one call that skips NaNs."""
    vt = conv if k.map == "index" else acc
    s = sfx(acc)
    isarg = k.map == "index"
    want_max = k.combine in ("max", "argmax", "fmax")
    fn, lt = lane_fn(k, i)
    cast = f"ca_cast_{vt}_{NAME[i]}"
    beats = f"ca_red_gt_{vt}(b, acc.v)" if want_max else f"ca_red_gt_{vt}(acc.v, b)"
    pad = ' ' * (len(t) + 4)
    out = [f"static {ctype(acc)}\nhb_{t}({ctype(acc)} acc, const char *p, int64_t n, "
           f"int64_t s,\n{pad}int64_t r0, const ca_hctx *c)\n{{"]
    done = f"(acc.i >= 0 && ca_red_isnan_{vt}(acc.v))" if isarg else f"ca_red_isnan_{vt}(acc)"
    if i not in "fd":
        done = "0"
    if not isarg and (i not in "fd" or k.combine in ("fmax", "fmin")):
        # one call: no NaN to stop at (integers) or NaNs skipped (fmax, fmin)
        out += ["    (void)r0;",
                "    (void)c;",
                "    if (n <= 0) {",
                "        return acc;",
                "    }",
                "    int none;",
                f"    const {ic} bx = ({ic}){fn}(p, n, s, &none);"]
        if k.combine in ("fmax", "fmin") and i in "fd":
            out.append(f"    return none ? acc : {host_comb(k, s)}(acc, {cast}(bx));")
        else:
            out += ["    (void)none;", f"    return {host_comb(k, s)}(acc, {cast}(bx));"]
        out.append("}")
        return out
    if isarg and i not in "fd":
        # a contiguous integer run: one pass that gives the first position too
        out += [f"    if (s == (int64_t)sizeof({ic})) {{",
                "        if (n <= 0) {",
                "            return acc;",
                "        }",
                "        int64_t j;",
                f"        const {ic} bx = ({ic}){fn.replace('_mms_', '_am_')}((const {ic} *)(const void *)p, n, &j);",
                f"        const {CTYPE[vt]} b = {cast}(bx);",
                f"        if (acc.i < 0 || {beats}) {{",
                f"            acc = ca_red_argat_{vt}(b, r0 + j);",
                "        }",
                "        return acc;",
                "    }"]
    # blocks of CA_HR_MM_BLOCK bytes of memory (at least 512 elements when strided):
    # an arg block with a new best is searched again, in cache
    out += [f"    const int64_t as = s < 0 ? -s : s, es = (int64_t)sizeof({ic});",
            "    const int64_t B0 = CA_HR_MM_BLOCK / (as > es ? as : es);"]
    if isarg:
        # elements more than 64 bytes apart (each a cache line of its own): blocks of
        # CA_HR_MM_GATHER elements are gathered into g_ first (a simple loop that
        # prefetches ahead), so the value pass and the search of a block with a new
        # best are contiguous loops
        out += [f"    {ic} g_[CA_HR_MM_GATHER];",
                "    const int gather = as > 64;",
                "    const int64_t B = gather ? CA_HR_MM_GATHER : as == es || B0 >= 512 ? B0 : 512;"]
        # a block that is not gathered and holds a new best is searched for its
        # first position once, at the end (or before an exact walk), not each time
        # the best grows: the best's first position is in the first block whose
        # maximum is the final best (a later block must beat it to be kept)
        out += ["    const char *pq = NULL; /* the block with the best, not yet searched */",
                "    int64_t pqs = 0, pnb = 0, pi = 0;",
                f"    {ic} pbx = 0;"]
    else:
        out.append("    const int64_t B = as == es || B0 >= 512 ? B0 : 512;")
    resolve = []
    if isarg:
        fnd = fn.replace('_mms_max_', '_find_').replace('_mms_min_', '_find_')
        resolve = ["if (pq != NULL) {",
                   f"    int64_t j = pqs == es ? {fnd}((const {ic} *)(const void *)pq, pnb, pbx) : 0;",
                   f"    for ({ic} v;; j++) {{",
                   "        memcpy(&v, pq + j * pqs, sizeof v);",
                   "        if (v == pbx) {",
                   "            break;",
                   "        }",
                   "    }",
                   "    acc.i = r0 + pi + j;",
                   "    pq = NULL;",
                   "}"]
    out += ["    for (int64_t i = 0; i < n; i += B) {"]
    if done != "0":
        out += [f"        if ({done}) {{",
                "            return acc; /* a NaN: nothing later changes it */",
                "        }"]
    out += ["        const int64_t nb = n - i < B ? n - i : B;",
            "        int bad;"]
    if isarg:
        out += ["        const char *q = p + i * s;",
                "        int64_t qs = s;",
                "        if (gather) {",
                "            for (int64_t j = 0; j < nb; j++) {",
                "                __builtin_prefetch(q + (j + 16) * s);",
                "                memcpy(&g_[j], q + j * s, sizeof *g_);",
                "            }",
                "            q = (const char *)g_;",
                "            qs = es;",
                "        }",
                f"        const {ic} bx = ({ic}){fn}(q, nb, qs, &bad);"]
    else:
        out.append(f"        const {ic} bx = ({ic}){fn}(p + i * s, nb, s, &bad);")
    out.append(f"        const {CTYPE[vt]} b = {cast}(bx);")
    if i in "fd":
        out += ["        if (bad) { /* a NaN: the exact loop */"]
        out += ["            " + ln for ln in resolve]
        out += [f"            acc = hl_{t}(acc, p + i * s, nb, s, r0 + i, c);",
                "            continue;",
                "        }"]
    else:
        out.append("        (void)bad;")
    if isarg:
        out += [f"        if (acc.i < 0 || {beats}) {{",
                "            if (gather) { /* g_ is the next block's: search it now */",
                f"                int64_t j = {fnd}(g_, nb, bx);",
                "                for (; g_[j] != bx; j++) {",
                "                }",
                f"                acc = ca_red_argat_{vt}(b, r0 + i + j);",
                "            }",
                "            else {",
                "                pq = q;",
                "                pqs = qs;",
                "                pnb = nb;",
                "                pi = i;",
                "                pbx = bx;",
                f"                acc = ca_red_argat_{vt}(b, r0 + i);",
                "            }",
                "        }"]
    else:
        out.append(f"        acc = {host_comb(k, s)}(acc, b);")
    out += ["    }"]
    out += ["    " + ln for ln in resolve]
    out += ["    return acc;", "}"]
    return out


def host_column(k, i, o, t, acc, conv, ic, at):
    s = sfx(acc)
    group = k.map != "index" and (k.combine != "mul")
    es = f"(int64_t)sizeof({ic})"
    m = f"cv[j].{conv}" if k.aux != "-" else "0"
    pad = ' ' * (len(t) + 5)
    out = [f"{INL} void\nhvk_{t}({at} *restrict A, const char *p, int64_t nb, int64_t ks, "
           f"int64_t nrows,\n{pad}int64_t rs, int64_t r0, const ca_hctx *cv)\n{{",
           "    (void)r0;",
           "    (void)cv;",
           "    int64_t i = 0;"]
    if group:
        # eight rows at a time, combined pairwise before they meet the accumulator
        # (float sums stay pairwise; max, min, or, and and integer sums are exact)
        comb = host_comb(k, s)
        # float32/float64 max/min: the eight rows compare in the input type (exact:
        # widening keeps the order) without NaN tests, which one mask test for
        # the eight then restores (a NaN among them makes their result NaN)
        narrow = k.combine in ("max", "min") and i in "fd"
        # a float32 sum adds its eight rows in float32 before the float64
        # accumulator: a quarter of the converts, and the three roundings of
        # the little tree keep it more accurate than a pairwise float32 sum
        # of the whole column (NumPy adds the rows one by one in float32)
        narrow_sum = k.combine == "add" and k.map == "cast" and i == "f" and s == "float64"
        gt = DT[i][2] if narrow or narrow_sum else at
        op = ">" if k.combine == "max" else "<"

        def gc(a, b):
            if narrow_sum:
                return f"({a} + {b})"
            return f"({b} {op} {a} ? {b} : {a})" if narrow else f"{comb}({a}, {b})"

        out.append("    for (; i + 8 <= nrows; i += 8) {")
        out.append("        const char *q = p + i * rs;")
        out.append("        for (int64_t j = 0; j < nb; j++) {")
        out.append("            const char *e = q + j * ks;")
        for r in range(8):
            x = f"*(const {ic} *)(e + {r} * rs)"
            xv = x if narrow or narrow_sum else map_expr(k, i, conv, x, '0', m)
            out.append(f"            const {gt} x{r} = {xv};")
        out.append(f"            const {gt} t01 = {gc('x0', 'x1')}, t23 = {gc('x2', 'x3')};")
        out.append(f"            const {gt} t45 = {gc('x4', 'x5')}, t67 = {gc('x6', 'x7')};")
        out.append(f"            const {gt} t03 = {gc('t01', 't23')}, t47 = {gc('t45', 't67')};")
        g = gc("t03", "t47")
        if narrow:
            out.append("            const int ok = ((x0 == x0) & (x1 == x1)) & ((x2 == x2) & (x3 == x3)) &")
            out.append("                           ((x4 == x4) & (x5 == x5)) & ((x6 == x6) & (x7 == x7));")
            out.append(f"            const {gt} g = ok ? {g} : ({gt})NAN;")
            g = f"ca_cast_float64_{NAME[i]}(g)"
        if narrow_sum:
            g = f"ca_cast_float64_float32({g})"
        out.append(f"            A[j] = {comb}(A[j], {g});")
        out.append("        }")
        out.append("    }")
    out += ["    for (; i < nrows; i++) {",
            "        const char *q = p + i * rs;",
            "        for (int64_t j = 0; j < nb; j++) {",
            f"            A[j] = {host_step(k, i, conv, s, f'*(const {ic} *)(q + j * ks)', 'r0 + i', m, 'A[j]')};",
            "        }",
            "    }",
            "}"]
    # sums are bound by their converts and adds, not by memory, so they are
    # built for AVX2 / AVX-512 as well (host_clones.h; the same bits in each)
    clones = "CA_HOST_CLONES " if k.combine == "add" else ""
    out += [f"{clones}static void\nhv_{t}(void *av, const char *p, int64_t nb, int64_t ks, "
            f"int64_t nrows, int64_t rs,\n{' ' * (len(t) + 4)}int64_t r0, const ca_hctx *cv)\n{{"]
    if k.combine in ("max", "min") and i in LANE_TYPES:
        # contiguous columns: rows folded into accumulators of the input type by
        # host_minmax.c's lane loops, CA_HR_COLBUF columns at a time
        name = "uint8" if i == "?" else NAME[i]
        lt = DT["B" if i == "?" else i][2]
        out += [f"    if (ks == {es} && nrows > 0) {{",
                f"        {at} *A = ({at} *)av;",
                f"        {lt} buf[CA_HR_COLBUF];",
                "        for (int64_t j0 = 0; j0 < nb; j0 += CA_HR_COLBUF) {",
                "            const int64_t m = nb - j0 < CA_HR_COLBUF ? nb - j0 : CA_HR_COLBUF;",
                f"            memcpy(buf, p + j0 * {es}, (size_t)m * sizeof(*buf));",
                f"            ca_hr_mmcol_{k.combine}_{name}(buf, p + rs + j0 * {es}, m, nrows - 1, rs);",
                "            for (int64_t j = 0; j < m; j++) {",
                f"                A[j0 + j] = {host_comb(k, s)}(A[j0 + j], ca_cast_{s}_{NAME[i]}(({ic})buf[j]));",
                "            }",
                "        }",
                "        return;",
                "    }"]
    out += [f"    if (ks == {es}) {{",
            f"        hvk_{t}(({at} *)av, p, nb, {es}, nrows, rs, r0, cv);",
            "    }",
            "    else {",
            f"        hvk_{t}(({at} *)av, p, nb, ks, nrows, rs, r0, cv);",
            "    }",
            "}"]
    out += [f"static void\nhvi_{t}(void *av, int64_t nb)\n{{",
            f"    {at} *A = ({at} *)av;",
            "    for (int64_t j = 0; j < nb; j++) {",
            f"        A[j] = ca_red_{k.identity}_{s}();",
            "    }",
            "}"]
    out += [f"static void\nhvs_{t}(char *out, int64_t os, const void *av, int64_t nb, "
            f"double divisor, int flags)\n{{",
            f"    const {at} *A = (const {at} *)av;"]
    if k.finish == "-":
        out += ["    (void)divisor;", "    (void)flags;"]
    out += ["    for (int64_t j = 0; j < nb; j++) {",
            f"        const {DT[o][2]} v = {finish_expr(k, acc, o, 'A[j]')};",
            "        memcpy(out + j * os, &v, sizeof v);",
            "    }",
            "}"]
    return out


def order_free(k, acc):
    """Whether accumulators of any pieces of the rows combine to the same bits in any
    grouping (the vector combine, hvc_, that lets host_reduce.c split a column
    reduction's rows between threads): max / min and their NaN-skipping forms,
    or / and, and integer sums (exact modulo 2^64). Not float sums or products
    (their rounding depends on the grouping), nor arg reductions (positions)."""
    if k.aux != "-" or k.map == "index":
        return False
    if k.combine in ("max", "min", "fmax", "fmin", "or", "and"):
        return True
    return k.combine == "add" and acc in ("int64", "uint64")


def c_func(head, body):
    """The lines of a static void C function: its name and parameters `head`, then
    the `body` lines in braces."""
    return [f"static void\n{head}\n{{"] + body + ["}"]


def host_triple(k, i, o):
    acc, conv = types(k, i, o, gpu=False)
    t = tname(k, i, o)
    ic, at = DT[i][2], ctype(acc)
    s = sfx(acc)
    es = f"(int64_t)sizeof({ic})"
    out = [f"/* {k.name} {i}->{o}: accumulator {acc} */"]
    out.append(f"static void\nhi_{t}(ca_hacc *a)\n{{\n    a->{acc} = "
               f"ca_red_{k.identity}_{s}();\n}}")
    if k.aux != "-":
        ad = aux_dtype(i)
        out += c_func(f"hc_{t}(ca_hctx *c, const char *aux)",
                      [f"    {CTYPE[ad]} m;", "    memcpy(&m, aux, sizeof m);",
                       f"    c->{conv} = ca_cast_{conv}_{ad}(m);"])
    m = f"c->{conv}" if k.aux != "-" else "0"
    pairwise = k.combine == "add" and acc in ("float64", "complex128")
    if k.map == "truth" and k.combine in TRUTH_RUN:
        body = host_run_truth(k, i)
    elif pairwise:
        # float sums are pairwise along each run, as NumPy's
        code, body = host_pairwise(k, i, o, t, acc, conv, ic, at, m)
        out += code
        if i == "?" and k.map == "cast" and acc == "float64":
            # a bool mean: the pairwise sum of 0s and 1s is the exact count (below
            # 2^53), which a contiguous run counts eight bytes a word
            body = ["    if (s == 1) {",
                    "        a->float64 += (double)ca_host_count_true((const uint8_t *)p, n);",
                    "        return;", "    }"] + body
    else:
        out += host_run_plain(k, i, t, acc, conv, ic, at, m)
        vt = conv if k.map == "index" else acc
        # bool arg forms stay exact: a bool byte other than 0/1 is true, and the
        # lane loops would look for the raw byte's first position
        lanes = (k.combine in LANE_OPS and i in LANE_TYPES
                 and not (k.map == "index" and i == "?"))
        if lanes:
            out += host_run_lanes(k, i, t, acc, conv, ic)
        isum = int_sum(k, acc)
        if isum:
            out += host_run_isum(k, i, t, acc, conv, ic, at, m)
        body = [f"    if (s == {es}) {{"]
        if lanes:
            body.append(f"        a->{acc} = hb_{t}(a->{acc}, p, n, {es}, r0, c);")
        elif isum and i == "?" and k.map == "cast":
            # a bool sum (count_nonzero, mask.sum()) counts eight bytes a word,
            # not one byte widened to 64 bits an element (3.4x slower)
            body.append(f"        a->{acc} = ca_red_add_{sfx(acc)}(a->{acc}, "
                        f"({at})ca_host_count_true((const uint8_t *)p, n));")
        else:
            body.append(f"        a->{acc} = hl_{t}(a->{acc}, p, n, {es}, r0, c);")
        body += ["    }"]
        if isum:
            # a[::2] .. a[::4]: the stride a constant, gcc vectorises the loop; other
            # strides under 64 bytes: four add chains (elements a cache line or more
            # apart keep the one chain: four were slower there, memory-bound)
            for kk in (2, 3, 4):
                body += [f"    else if (s == {kk} * {es}) {{",
                         f"        a->{acc} = hl_{t}(a->{acc}, p, n, {kk} * {es}, r0, c);",
                         "    }"]
            body += ["    else if (s > -64 && s < 64) {",
                     f"        a->{acc} = hl4_{t}(a->{acc}, p, n, s, r0, c);",
                     "    }",
                     "    else {",
                     f"        a->{acc} = hl_{t}(a->{acc}, p, n, s, r0, c);",
                     "    }"]
        if lanes:
            # short strided runs (a few elements per output) stay on the plain loop
            body += ["    else if (n >= 32) {",
                     f"        a->{acc} = hb_{t}(a->{acc}, p, n, s, r0, c);",
                     "    }"]
        if not isum:
            body += ["    else {",
                     f"        a->{acc} = hl_{t}(a->{acc}, p, n, s, r0, c);",
                     "    }"]
    out.append(f"static void\nhr_{t}(ca_hacc *a, const char *p, int64_t n, int64_t s, "
               f"int64_t r0,\n{' ' * (len(t) + 4)}const ca_hctx *c)\n{{")
    out += body
    out.append("}")
    out += host_column(k, i, o, t, acc, conv, ic, at)
    if order_free(k, acc):
        out += c_func(f"hvc_{t}(void *av, const void *bv, int64_t nb)",
                      [f"    {at} *A = ({at} *)av;", f"    const {at} *B = (const {at} *)bv;",
                       "    for (int64_t j = 0; j < nb; j++) {",
                       f"        A[j] = {host_comb(k, s)}(A[j], B[j]);", "    }"])
    if k.combine != "mul":
        out += c_func(f"hk_{t}(ca_hacc *a, const ca_hacc *b)",
                      [f"    a->{acc} = ca_red_{k.combine}_{s}(a->{acc}, b->{acc});"])
    unused = ["    (void)divisor;", "    (void)flags;"] if k.finish == "-" else []
    out += c_func(f"hs_{t}(char *out, const ca_hacc *a, double divisor, int flags)",
                  unused + [f"    const {DT[o][2]} v = {finish_expr(k, acc, o, 'a->' + acc)};",
                            "    memcpy(out, &v, sizeof v);"])
    return "\n".join(out) + "\n"


def host_scan(k, i, o):
    acc, conv = types(k, i, o, gpu=False)
    t = tname(k, i, o)
    x = f"*(const {DT[i][2]} *)(p + i * s)"
    return "\n".join([
        f"/* scan {k.name} {i}->{o}: accumulator {acc} */",
        f"static void\nhsc_{t}(const char *p, int64_t n, int64_t s, char *q, int64_t qs)\n{{",
        f"    {ctype(acc)} acc = ca_red_{k.identity}_{sfx(acc)}();",
        "    for (int64_t i = 0; i < n; i++) {",
        f"        acc = ca_red_{k.combine}_{sfx(acc)}(acc, {map_expr(k, i, conv, x, 'i', '0')});",
        f"        *({DT[o][2]} *)(q + i * qs) = ca_cast_{NAME[o]}_{acc}(acc);",
        "    }",
        "}"]) + "\n"


def gen_host(kernels, stamp):
    out = [HEADER, f"/* inputs: {stamp} */", "#include <string.h>", "",
           '#include "host_clones.h"', '#include "host_reduce.h"', ""]
    for k, i, o in triples(kernels):
        out.append(host_triple(k, i, o))
    for k, i, o in scan_pairs(kernels):
        out.append(host_scan(k, i, o))
    out.append("const ca_red_host_fns ca_red_host[CA_RED_NOPS][CA_NTYPES][CA_NTYPES] = {")
    for k, i, o in triples(kernels):
        t = tname(k, i, o)
        hc = f"hc_{t}" if k.aux != "-" else "NULL"
        out.append(f"    [CA_RED_{k.name}][{DT[i][1]}][{DT[o][1]}] = "
                   f"{{hi_{t}, {hc}, hr_{t}, hs_{t}, hvi_{t}, hv_{t}, hvs_{t}, "
                   f"{'NULL' if k.combine == 'mul' else 'hk_' + t}, "
                   f"{'hvc_' + t if order_free(k, types(k, i, o, gpu=False)[0]) else 'NULL'}}},")
    out.append("};")
    out.append("")
    out.append("const ca_red_host_scan_fn "
               "ca_red_host_scan[CA_RED_NOPS][CA_NTYPES][CA_NTYPES] = {")
    for k, i, o in scan_pairs(kernels):
        out.append(f"    [CA_RED_{k.name}][{DT[i][1]}][{DT[o][1]}] = hsc_{tname(k, i, o)},")
    out.append("};")
    return "\n".join(out) + "\n"


# ---- GPU --------------------------------------------------------------------------

def dev_method(F, sig, body):
    """The lines of a member function of a kernel's struct: the qualifiers `F`, its
    signature `sig`, then the `body` statements in braces."""
    return [f"    {F} {sig}", "    {"] + [f"        {b}" for b in body] + ["    }"]


def gpu_struct(k, i, o):
    acc, conv = types(k, i, o, gpu=True)
    t = tname(k, i, o)
    s = sfx(acc)
    F = "static __device__ __forceinline__"
    out = [f"/* {k.name} {i}->{o}: accumulator {acc} */", f"struct RK_{t} {{"]
    out.append(f"    typedef {DT[i][2]} In;")
    out.append(f"    typedef {DT[o][2]} Out;")
    out.append(f"    typedef {ctype(acc)} Acc;")
    if k.aux != "-":
        ad = aux_dtype(i)
        out.append(f"    struct Ctx {{")
        out.append(f"        {CTYPE[conv]} m;")
        out.append("    };")
        out += dev_method(F, "Ctx ctx(const char *aux)",
                          ["Ctx c;", f"c.m = ca_cast_{conv}_{ad}(*(const {CTYPE[ad]} *)aux);",
                           "return c;"])
        m = "c.m"
        cparam = "const Ctx &c"
    else:
        out.append("    typedef NoCtx Ctx;")
        out.append(f"    {F} Ctx ctx(const char *) {{ return Ctx(); }}")
        m = "0"
        cparam = "const Ctx &"
    rparam = "int64_t r" if k.map == "index" else "int64_t"
    out.append(f"    {F} Acc init() {{ return ca_red_{k.identity}_{s}(); }}")
    out += dev_method(F, f"Acc load(In x, {rparam}, {cparam})",
                      [f"return {map_expr(k, i, conv, 'x', 'r', m)};"])
    out.append(f"    {F} Acc comb(Acc a, Acc b) {{ return ca_red_{k.combine}_{s}(a, b); }}")
    dp = "double divisor, int flags" if k.finish != "-" else "double, int"
    out += dev_method(F, f"Out fin(Acc a, {dp})", [f"return {finish_expr(k, acc, o, 'a')};"])
    if k.map == "index" and k.combine in FAST_ARG:
        # what the arg kernels' fast path needs (reduce_impl.cuh, vec_comb)
        out.append("    static constexpr bool is_arg = true;")
        out.append(f"    typedef {CTYPE[conv]} Val;")
        out.append(f"    {F} Val value(In x) {{ return ca_cast_{conv}_{NAME[i]}(x); }}")
        out.append(f"    {F} bool isnan_v(Val v) {{ return ca_red_isnan_{conv}(v) != 0; }}")
        out += dev_method(F, "bool better(Val a, Val b)",
                          [f"return ca_red_{k.combine}_better_{conv}(a, b) != 0;"])
    out.append("};")
    return "\n".join(out) + "\n"


def gpu_cost(k, i, o):
    # the arg kernels and complex types compile longest
    return (3 if k.map == "index" else 2 if k.aux != "-" else 1) * (2 if i in COMPLEX else 1)


def gpu_split(kernels):
    items = triples(kernels)
    chunks = [[] for _ in range(N_GPU_FILES)]
    cost = [0] * N_GPU_FILES
    for it in sorted(items, key=lambda t: -gpu_cost(*t)):
        j = cost.index(min(cost))
        chunks[j].append(it)
        cost[j] += gpu_cost(*it)
    order = {id(t): n for n, t in enumerate(items)}
    return [sorted(c, key=lambda t: order[id(t)]) for c in chunks]


def gen_gpu_ops(kernels, stamp):
    seen, structs = set(), []
    for k, i, o in triples(kernels) + scan_pairs(kernels):
        if (k.name, i, o) not in seen:
            seen.add((k.name, i, o))
            structs.append(gpu_struct(k, i, o))
    out = [HEADER, f"/* inputs: {stamp} */",
           "/* C++ for nvcc only: included at the end of kernels/gpu/reduce_impl.cuh. */",
           "#ifndef CA_RED_GPU_OPS_H", "#define CA_RED_GPU_OPS_H", "",
           '#include "reduce_math.h"', '#include "red_table.h"', "",
           "namespace ca_red {", "",
           "/* Each generated file adds its triples (red_gpu_<k>.cu). */"]
    for n in range(N_GPU_FILES):
        out.append(f"void register_{n}(Table &t);")
    out.append("#define CA_RED_GPU_REGISTER_ALL(t) \\")
    out.append("    " + " ".join(f"register_{n}(t);" for n in range(N_GPU_FILES)))
    out.append("")
    out.append("namespace {")
    out.append("")
    out.append("/* One struct per (op, input, output): the types and the four steps the")
    out.append(" * kernel templates call (init, load, comb, fin). */")
    out += structs
    out.append("} /* namespace */")
    out.append("")
    out.append("/* X(op, in, out, struct) per scan pair (reduce_scan.cu). */")
    out.append("#define CA_RED_GPU_SCANS(X) \\")
    for k, i, o in scan_pairs(kernels):
        out.append(f"    X(CA_RED_{k.name}, {DT[i][1]}, {DT[o][1]}, RK_{tname(k, i, o)}) \\")
    out.append("")
    out.append("} /* namespace ca_red */")
    out.append("")
    out.append("#endif")
    return "\n".join(out) + "\n"


def gen_gpu(n, chunk, stamp):
    out = [HEADER, f"/* inputs: {stamp} */", '#include "reduce_impl.cuh"', "",
           "namespace ca_red {", "", f"void register_{n}(Table &t)", "{"]
    for k, i, o in chunk:
        out.append(f"    add_entry<RK_{tname(k, i, o)}>(t, CA_RED_{k.name}, {DT[i][1]}, "
                   f"{DT[o][1]});")
    out += ["}", "", "} /* namespace ca_red */"]
    return "\n".join(out) + "\n"


# ---- Python -----------------------------------------------------------------------

def gen_py(kernels, fns):
    out = ['"""Generated by tools/gen_reductions.py from kernels/reductions.def: do not edit."""',
           ""]
    out.append("# (name, identity, map, combine, finish, acc, aux, [pairs 'f->d'], [scan pairs])")
    out.append("KERNELS = [")
    for k in kernels:
        pairs = [f"{i}->{o}" for i, o in k.pairs]
        scans = [f"{i}->{o}" for i, o in k.scans]
        out.append(f"    ({k.name!r}, {k.identity!r}, {k.map!r}, {k.combine!r}, {k.finish!r}, "
                   f"{k.acc!r}, {k.aux!r},")
        out.append(f"     {pairs!r},")
        out.append(f"     {scans!r}),")
    out.append("]")
    out.append("")
    out.append("# (name, kernel, bool kernel, rule, result dtypes per '?bBhHiIlLefdFD', empty,")
    out.append("#  divisor, sqrt, sig, aliases, docstring)")
    out.append("FUNCTIONS = [")
    for f in fns:
        doc = f.doc.replace("\\n", "\n")
        out.append(f"    ({f.name!r}, {f.kernel!r}, {f.bool_kernel!r}, {f.rule!r}, "
                   f"{f.result!r}, {(f.empty + ':' + f.empty_arg) if f.empty_arg else f.empty!r},")
        out.append(f"     {f.divisor!r}, {f.sqrt!r}, {f.sig!r}, {f.aliases!r},")
        out.append(f"     {doc!r}),")
    out.append("]")
    out.append("")
    out.append(f"TYPE_CHARS = {CHARS!r}")
    out.append("NAMES = [f[0] for f in FUNCTIONS]")
    out.append("ALIASES = {a: f[0] for f in FUNCTIONS for a in f[9]}")
    out.append("# functions that are not ndarray methods (flag nomethod)")
    out.append(f"NOMETHOD = {sorted(f.name for f in fns if not f.method)!r}")
    return "\n".join(out) + "\n"


def main(argv=None):
    args = parse_args(argv, __doc__, "--table", KERNELS / "reductions.def")

    kernels, fns = parse(args.table)
    stamp = inputs_stamp(args.table, __file__)

    written = []
    out = args.out
    write_if_changed(out / "red_table.h", gen_table_h(kernels, fns), written)
    write_if_changed(out / "red_table.c", gen_table_c(kernels, fns), written)
    write_if_changed(out / "red_host.c", gen_host(kernels, stamp), written)
    write_if_changed(out / "red_gpu_ops.h", gen_gpu_ops(kernels, stamp), written)
    for n, chunk in enumerate(gpu_split(kernels)):
        write_if_changed(out / f"red_gpu_{n}.cu", gen_gpu(n, chunk, stamp), written)
    if args.py_out:
        write_if_changed(args.py_out, gen_py(kernels, fns), written)
    print(f"gen_reductions.py: {len(kernels)} kernels ({len(triples(kernels))} triples, "
          f"{len(scan_pairs(kernels))} scans), {len(fns)} functions; "
          f"{len(written)} file(s) rewritten")


if __name__ == "__main__":
    main()
