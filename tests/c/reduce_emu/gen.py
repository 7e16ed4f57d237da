"""Rewrite kernels/reduce*.cu into plain C++ for the CPU emulation: launches
`k<<<grid, BLOCK, 0, stream>>>(args)` become `emu_launch(k, grid, BLOCK, args)`."""
import pathlib
import re
import sys

here = pathlib.Path(__file__).resolve().parent
src = here.parents[2] / "kernels" / "gpu"
out = pathlib.Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
# the instantiations generated from kernels/reductions.def (tools/gen_reductions.py)
generated = sorted(pathlib.Path(sys.argv[2]).glob("red_gpu_*.cu")) if len(sys.argv) > 2 else []
pat = re.compile(r'([A-Za-z_][\w:]*(?:<[^<>;]*>)?)\s*<<<(.*), (BLOCK), 0, stream>>>\((\w+)\)')
# CUB's scans (reduce_scan_cub*.cu) are not emulated: emu_rt.cpp stands in for them
cub = "reduce_scan_cub"
for f in [p for p in sorted(src.glob("reduce*.cu")) if cub not in p.name] + generated + \
        [src / "reduce_impl.cuh"]:
    s = f.read_text()
    s = pat.sub(lambda m: f"emu_launch({m.group(1)}, (unsigned)({m.group(2)}), "
                          f"{m.group(3)}, {m.group(4)})", s)
    s = s.replace("__shared__ alignas(16)", "alignas(16) __shared__")
    s = s.replace("constexpr int BLOCK = 256;", "constexpr int BLOCK = EMU_BLOCK;")
    assert "<<<" not in s, f
    (out / (f.stem + (".cpp" if f.suffix == ".cu" else f.suffix))).write_text(s)
