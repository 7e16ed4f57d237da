"""Rewrite the fused element-wise kernels (kernels/gpu/ew_kernels.cuh, ew_fuse.cuh
and build/generated/ew_fuse.cu) into plain C++ for the CPU emulation: a launch
`k<<<grid, block, smem, stream>>>(args)` becomes `emu_launch_v(k, grid, block,
smem, args)`, and the dynamic shared memory the emulator's buffer."""
import pathlib
import re
import sys

here = pathlib.Path(__file__).resolve().parent
src = here.parents[2] / "kernels" / "gpu"
out = pathlib.Path(sys.argv[1])
generated = pathlib.Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
pat = re.compile(r"([A-Za-z_][\w:]*(?:<[^<>;]*>)?)\s*<<<(.*?),\s*([^,]+?),\s*([^,]+?),\s*"
                 r"([^<>]+?)>>>\(([^;]*)\);", re.S)
for f in (src / "ew_kernels.cuh", src / "ew_fuse.cuh", generated / "ew_fuse.cu"):
    s = f.read_text()
    s = pat.sub(lambda m: f"emu_launch_v({m.group(1)}, (unsigned)({m.group(2)}), "
                          f"(unsigned)({m.group(3)}), (size_t)({m.group(4)}), {m.group(6)});", s)
    s = s.replace("extern __shared__ unsigned char ca_fuse_smem[];",
                  "unsigned char *ca_fuse_smem = emu_dyn_smem;")
    s = s.replace("__shared__ alignas(16)", "alignas(16) __shared__")
    assert "<<<" not in s, f
    (out / (f.stem + (".cpp" if f.suffix == ".cu" else f.suffix))).write_text(s)
