"""Build cuarray._core: csrc/**/*.c (the Python layer) + kernels/ (CUDA and host kernels).

Sources are found in every folder under csrc/ and kernels/ (docs/ARCHITECTURE.md
names the folders); every folder holding a header is on the include path, so an
`#include "x.h"` names a header by its file name (tests/test_layers.py checks that
the names are unique and that no file includes one of a higher layer).

Environment:
  CUARRAY_CUDA=0            build the host-only extension even when a toolkit exists
  CUDA_HOME / CUDA_PATH     where the CUDA toolkit lives (else nvcc on PATH, else /usr/local/cuda)
  CUARRAY_CUDA_ARCH         e.g. "80;90"; "native" is not supported: name the SMs. Default:
                            the architecture of the GPUs present at build time (nvidia-smi),
                            else "80;90". PTX for the highest one is always embedded.
  CUARRAY_WERROR=1          warnings are errors (C and nvcc); CI sets it
  CUARRAY_SANITIZE=1        AddressSanitizer + UBSan on the C code, at -O1 -g
  CUARRAY_DEBUG=1           -O0 -g
  CUARRAY_BUILD_JOBS=N      parallel compile jobs (default: all cores)
  CUARRAY_OBJECT_CACHE=DIR  where compiled objects are kept by the hash of their inputs
                            (default ~/.cache/cuarray/objects; "0": no cache)
"""

import functools
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
GEN_DIR = ROOT / "build" / "generated"
sys.path.insert(0, str(ROOT / "tools"))
from objcache import (Stage, cached_compile, load_compile_seconds,  # noqa: E402
                      save_compile_seconds)


def env_flag(name, default="0"):
    return os.environ.get(name, default).strip().lower() in ("1", "true", "yes", "on")


def find_cuda_home():
    if os.environ.get("CUARRAY_CUDA", "1").strip() == "0":
        return None
    for var in ("CUDA_HOME", "CUDA_PATH"):
        home = os.environ.get(var)
        if home and (Path(home) / "bin" / "nvcc").exists():
            return Path(home)
    nvcc = shutil.which("nvcc")
    if nvcc:
        return Path(nvcc).resolve().parent.parent
    if Path("/usr/local/cuda/bin/nvcc").exists():
        return Path("/usr/local/cuda")
    return None


def cuda_lib_dir(home):
    for sub in ("lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"):
        if (home / sub / "libcudart_static.a").exists():
            return home / sub
    return home / "lib64"


def local_gpu_archs():
    """The compute capabilities of the GPUs on this machine, e.g. ["90"]; [] if none."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return []
    try:
        out = subprocess.run([smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    caps = {line.strip().replace(".", "") for line in out.splitlines()}
    return sorted(c for c in caps if c.isdigit())


@functools.lru_cache(maxsize=None)
def cuda_archs():
    spec = os.environ.get("CUARRAY_CUDA_ARCH") or ";".join(local_gpu_archs()) or "80;90"
    archs = [a.strip().replace("sm_", "").replace(".", "") for a in spec.replace(",", ";").split(";")]
    return [a for a in archs if a]


def nvcc_version(nvcc):
    out = subprocess.run([str(nvcc), "--version"], capture_output=True, text=True).stdout
    for tok in out.split():
        if tok.startswith("V") and tok[1:2].isdigit():
            return tok[1:]
    return "unknown"


def run_generators():
    """Generated sources (from kernels/ops.def and kernels/reductions.def) go to
    build/generated; return them."""
    GEN_DIR.mkdir(parents=True, exist_ok=True)
    gen = ROOT / "tools" / "gen_ops.py"
    if gen.exists():
        subprocess.run([sys.executable, str(gen), "--out", str(GEN_DIR),
                        "--py-out", str(ROOT / "python" / "cuarray" / "_generated_ops.py")],
                       check=True)
    gen = ROOT / "tools" / "gen_reductions.py"
    if gen.exists():
        subprocess.run([sys.executable, str(gen), "--out", str(GEN_DIR), "--py-out",
                        str(ROOT / "python" / "cuarray" / "_generated_reductions.py")],
                       check=True)
    return sorted(GEN_DIR.glob("*.c")), sorted(GEN_DIR.glob("*.cu"))


SOURCE_ROOTS = (ROOT / "csrc", ROOT / "kernels")


def project_files(*patterns):
    """The files under csrc/ and kernels/ (any depth) matching the glob patterns."""
    return sorted(p for r in SOURCE_ROOTS for pat in patterns for p in r.rglob(pat))


@functools.lru_cache(maxsize=None)
def header_dirs():
    """Every folder of csrc/ and kernels/ that holds a header, parents first."""
    dirs = {p.parent for p in project_files("*.h", "*.cuh")} | set(SOURCE_ROOTS)
    return tuple(sorted(dirs))


INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
_includes_cache = {}


def local_includes(path):
    """The project headers `path` includes, transitively ("..." includes found
    beside it, in a header folder of csrc/ or kernels/, or the generated folder)."""
    path = Path(path).resolve()
    if path not in _includes_cache:
        found, todo = set(), [path]
        while todo:  # a walk, not a recursion: an include cycle just ends it
            p = todo.pop()
            for name in INCLUDE_RE.findall(p.read_text(errors="replace")):
                for d in (p.parent, *header_dirs(), GEN_DIR):
                    h = (d / name).resolve()
                    if h.is_file():
                        if h not in found:
                            found.add(h)
                            todo.append(h)
                        break
        _includes_cache[path] = found
    return _includes_cache[path]


def up_to_date(obj, src):
    """An object is current when it is newer than its source and every project
    header the source includes (a header change rebuilds only its includers)."""
    obj = Path(obj)
    if not obj.exists():
        return False
    deps = [Path(src)] + sorted(local_includes(src))
    return obj.stat().st_mtime > max(d.stat().st_mtime for d in deps)


class BuildExt(build_ext):
    def build_extensions(self):
        if self.parallel is None:
            self.parallel = int(os.environ.get("CUARRAY_BUILD_JOBS", os.cpu_count() or 1))
        ext = self.extensions[0]
        cuda = self.distribution.cuda_home
        # setuptools rebuilds only when a source is newer than the output: a switch
        # between CUDA and host-only (or a flag change) must force a full rebuild.
        stamp = Path(self.build_temp) / "config.stamp"
        config = repr((ext.define_macros, ext.extra_compile_args, ext.libraries))
        if not stamp.exists() or stamp.read_text() != config:
            self.force = True
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text(config)
        stage = Stage("generate the op tables")
        gen_c, gen_cu = run_generators()
        stage.end()
        if not self.inplace:
            # build_py ran before us: put the generated Python module beside it.
            dst = Path(self.build_lib) / "cuarray"
            dst.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / "python" / "cuarray" / "_generated_ops.py", dst)
            shutil.copy2(ROOT / "python" / "cuarray" / "_generated_reductions.py", dst)
        ext.sources += [str(p.relative_to(ROOT)) for p in gen_c]
        # one pool for nvcc and the C compiler: the C files fill the cores while the
        # longest kernel files (50 s each on the H100 host's CPU) are still compiling
        self.pool = ThreadPoolExecutor(max_workers=self.parallel)
        self.cuda_jobs = []
        if cuda is not None:
            objs = self.compile_cuda(cuda, gen_cu)
            ext.extra_objects += objs
            ext.depends += objs  # a rebuilt kernel object must trigger a relink
        t0 = time.time()
        self.compile_c_in_parallel()
        try:
            super().build_extensions()  # compiles through compile_c_in_parallel, then links
            self.finish_cuda()          # where setuptools found nothing to compile
        finally:
            self.pool.shutdown()
        print(f"cuarray: C build and link took {time.time() - t0:.1f} s", flush=True)

    def compile_c_in_parallel(self):
        """setuptools compiles one extension's sources one after another (its
        parallel option runs whole extensions at once, and there is one): ours go
        on self.parallel threads (2-core machine: 105 s of C became about half)."""
        cc = self.compiler

        def compile(sources, output_dir=None, macros=None, include_dirs=None, debug=0,
                    extra_preargs=None, extra_postargs=None, depends=None):
            macros, objects, extra_postargs, pp_opts, todo = cc._setup_compile(
                output_dir, macros, include_dirs, sources, depends, extra_postargs)
            cc_args = cc._get_cc_args(pp_opts, debug, extra_preargs)

            stage = Stage("C sources", len(todo))

            def one(obj):
                if obj in todo:  # absent: up to date
                    src, ext = todo[obj]
                    cmd = [*cc.compiler_so, *cc_args, *pp_opts, *extra_postargs]
                    deps = [src] + sorted(local_includes(src))
                    compiled = cached_compile(cmd, deps, ROOT, obj, lambda: cc._compile(
                        obj, src, ext, cc_args, extra_postargs, pp_opts))
                    stage.step(compiled)

            for job in [self.pool.submit(one, obj) for obj in objects]:
                job.result()
            stage.end()
            self.finish_cuda()   # the link that follows needs the kernel objects
            return objects

        cc.compile = compile

    def compile_cuda(self, cuda, gen_cu):
        """Starts nvcc on every kernel file, the longest first (last build's times
        in the object cache; else the generated tables first); finish_cuda waits."""
        took = load_compile_seconds()
        sources = sorted(list(gen_cu) + project_files("*.cu"),
                         key=lambda f: -took.get(Path(f).name, 0.0))
        objdir = Path(self.build_temp) / "cuda"
        objdir.mkdir(parents=True, exist_ok=True)
        archs = cuda_archs()
        flags = ["-O3", "-std=c++17", "-Xcompiler", "-fPIC", "-DCA_HAVE_CUDA=1",
                 "--expt-relaxed-constexpr", "-lineinfo",
                 *(f"-I{d}" for d in header_dirs() if d.is_relative_to(ROOT / "kernels")),
                 f"-I{GEN_DIR}"]
        for a in archs:
            flags += ["-gencode", f"arch=compute_{a},code=sm_{a}"]
        flags += ["-gencode", f"arch=compute_{archs[-1]},code=compute_{archs[-1]}"]
        if env_flag("CUARRAY_WERROR"):
            flags += ["-Werror", "all-warnings", "-Xcompiler", "-Wall"]
        nvcc = str(cuda / "bin" / "nvcc")

        stage = Stage(f"nvcc for sm_{','.join(archs)}", len(sources))

        def run_nvcc(src, obj):
            t = time.time()
            r = subprocess.run([nvcc, *flags, "-c", str(src), "-o", str(obj)],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"nvcc failed on {src.name}:\n{r.stdout}\n{r.stderr}")
            if r.stderr.strip():
                print(r.stderr)
            self.cuda_seconds[src.name] = round(time.time() - t, 1)
            print(f"nvcc {src.name}: {time.time() - t:.1f} s "
                  f"[{stage.done + 1}/{len(sources)}]", flush=True)

        def one(src):
            obj = objdir / (src.stem + ".o")
            if not self.force and up_to_date(obj, src):
                stage.step(False)
                return str(obj)
            deps = [src] + sorted(local_includes(src))
            stage.step(cached_compile([nvcc, *flags], deps, ROOT, obj,
                                      lambda: run_nvcc(src, obj)))
            return str(obj)

        self.cuda_seconds = {}
        self.cuda_jobs = [self.pool.submit(one, src) for src in sources]
        self.cuda_stage = stage
        return [str(objdir / (Path(src).stem + ".o")) for src in sources]

    def finish_cuda(self):
        if not self.cuda_jobs:
            return
        for job in self.cuda_jobs:
            job.result()
        self.cuda_jobs = []
        self.cuda_stage.end()
        save_compile_seconds(self.cuda_seconds)
        print(f"cuarray: nvcc: {self.cuda_stage.total} files, {self.parallel} jobs "
              "shared with the C compiler")


def make_extension():
    import numpy

    cuda = find_cuda_home()
    sources = [str(p.relative_to(ROOT)) for p in project_files("*.c")]
    include_dirs = [str(d) for d in header_dirs()] + [str(GEN_DIR), numpy.get_include()]
    # -fno-trapping-math: nothing reads the floating-point exception flags, and it
    # lets gcc vectorise the host loops' compare-and-select steps (max, min, NaN
    # tests); results are unchanged (no fast-math).
    cflags = ["-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter",
              "-Wno-missing-field-initializers", "-fvisibility=hidden", "-fno-trapping-math", "-fno-math-errno"]
    ldflags = []
    libraries = []
    library_dirs = []
    macros = [("CA_VERSION", '"0.1.0"')]
    if env_flag("CUARRAY_DEBUG"):
        cflags += ["-O0", "-g"]
    elif env_flag("CUARRAY_SANITIZE"):
        # -O1, as ASan's authors advise: the instrumented 1 MB generated host-loop
        # files compile several times faster than at -O3, and the reports keep
        # every frame
        cflags += ["-O1", "-g"]
    else:
        cflags += ["-O3"]
    if env_flag("CUARRAY_WERROR"):
        cflags += ["-Werror"]
    if env_flag("CUARRAY_SANITIZE"):
        san = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined"]
        cflags += san
        ldflags += san
    if cuda is not None:
        archs = cuda_archs()
        macros += [("CA_HAVE_CUDA", "1"),
                   ("CA_BUILD_CUDA_VERSION", f'"{nvcc_version(cuda / "bin" / "nvcc")}"'),
                   ("CA_BUILD_CUDA_ARCHS", '"' + ";".join(f"sm_{a}" for a in archs) + f';compute_{archs[-1]}"'),
                   ("CA_CUDA_LIB_DIR", f'"{cuda_lib_dir(cuda)}"')]
        include_dirs.append(str(cuda / "include"))
        library_dirs.append(str(cuda_lib_dir(cuda)))
        # cudart is linked statically (no runtime search for libcudart); cuBLAS and
        # cuRAND are dlopen'ed on first use (csrc/runtime/dynlib.c) to keep import cheap.
        libraries += ["cudart_static", "rt", "pthread", "dl", "stdc++"]
        print(f"cuarray: building with CUDA from {cuda} for sm_{', sm_'.join(archs)}")
    else:
        macros += [("CA_HAVE_CUDA", "0")]
        libraries += ["dl", "pthread", "m"]
        print("cuarray: no CUDA toolkit found (or CUARRAY_CUDA=0): building the host-only extension")
    if sys.platform.startswith("linux"):
        # export PyInit__core and the torch allocator only: CCCL's symbols must not
        # meet CuPy's or PyTorch's, and gcc 12 exports every target_clones function
        # (and its .resolver) of the host loops despite -fvisibility=hidden
        ldflags += [f"-Wl,--version-script={ROOT / 'tools' / 'core.map'}"]
    # the .def tables the C sources include count too (csrc/runtime/dynlib_fns.def):
    # an edit of one must rebuild, as a header's does
    headers = [str(p) for p in project_files("*.h", "*.def")]
    ext = Extension("cuarray._core", sources=sources, include_dirs=include_dirs, depends=headers,
                    define_macros=macros, extra_compile_args=cflags, extra_link_args=ldflags,
                    libraries=libraries, library_dirs=library_dirs)
    return ext, cuda


ext, cuda_home = make_extension()


from setuptools.dist import Distribution as _Dist  # noqa: E402


class CaDistribution(_Dist):
    cuda_home = cuda_home


setup(ext_modules=[ext], cmdclass={"build_ext": BuildExt}, distclass=CaDistribution)
