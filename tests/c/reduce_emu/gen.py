"""Rewrite kernels/reduce*.cu into plain C++ for the CPU emulation: launches
`k<<<grid, BLOCK, 0, stream>>>(args)` become `emu_launch(k, grid, BLOCK, args)`."""
import pathlib
import re
import sys

here = pathlib.Path(__file__).resolve().parent
src = here.parents[2] / "kernels"
out = pathlib.Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
# the instantiations generated from kernels/reductions.def (tools/gen_reductions.py)
generated = sorted(pathlib.Path(sys.argv[2]).glob("red_gpu_*.cu")) if len(sys.argv) > 2 else []
pat = re.compile(r'([A-Za-z_][\w:]*(?:<[^<>;]*>)?)<<<(.*), (BLOCK), 0, stream>>>\((\w+)\)')
for f in sorted(src.glob("reduce*.cu")) + generated + [src / "reduce_impl.cuh"]:
    s = f.read_text()
    s = pat.sub(lambda m: f"emu_launch({m.group(1)}, (unsigned)({m.group(2)}), "
                          f"{m.group(3)}, {m.group(4)})", s)
    s = s.replace("__shared__ alignas(16)", "alignas(16) __shared__")
    s = s.replace("constexpr int BLOCK = 256;", "constexpr int BLOCK = EMU_BLOCK;")
    assert "<<<" not in s, f
    (out / (f.stem + (".cpp" if f.suffix == ".cu" else f.suffix))).write_text(s)
