"""The build's object cache and its stage lines (used by setup.py; tested by
tests/test_build_cache.py).

Compiled objects are kept by the hash of what made them (the compiler, its flags, the
source and the project headers it includes), so a build reuses every object whose
inputs did not change: a second clone, `pip install .` after an in-place build, a
rebuild after switching branches and back. Nothing in the key is a timestamp.
"""

import functools
import hashlib
import json
import os
import shutil
import subprocess
import time
from pathlib import Path


def object_cache_dir():
    """Where compiled objects are kept by the hash of what made them, so that a second
    build (another clone, a pip install after an in-place build, a rebuild after a
    branch switch) reuses every object whose inputs did not change. CUARRAY_OBJECT_CACHE
    names the folder; "0" turns the cache off."""
    spec = os.environ.get("CUARRAY_OBJECT_CACHE", "")
    if spec.strip() == "0":
        return None
    if spec:
        return Path(spec)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cuarray" / "objects"


@functools.lru_cache(maxsize=None)
def tool_version(exe):
    try:
        return subprocess.run([exe, "--version"], capture_output=True, text=True,
                              timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return exe


def object_key(cmd, deps, root):
    """The hash of one compile: its command line (flags and compiler; the output name
    is not in it) and the bytes of the source and of every project header it includes
    (deps, the source first). System headers (CUDA, Python, NumPy) enter through the
    compiler's version and the include paths in the command. The clone's own folder
    (root) is left out, so that another clone of the same sources shares the objects."""
    h = hashlib.sha256()
    h.update(tool_version(cmd[0]).encode())
    h.update(repr(list(cmd[1:])).replace(str(root), "<root>").encode())
    for dep in deps:
        dep = Path(dep).resolve()
        h.update(str(dep.relative_to(root) if dep.is_relative_to(root) else dep).encode())
        h.update(dep.read_bytes())
    return h.hexdigest()[:40]


def cached_compile(cmd, deps, root, obj, compile_one):
    """Compile into obj (compile_one()) unless the cache has an object of the same
    key; store new objects in the cache (through a temporary name: builds run in
    parallel). Returns True when it compiled, False when the cache served it."""
    cache = object_cache_dir()
    key = object_key(cmd, deps, root) if cache is not None else None
    hit = cache / key[:2] / (key + ".o") if key else None
    if hit is not None and hit.exists():
        Path(obj).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(hit, obj)
        return False
    compile_one()
    if hit is not None:
        try:
            hit.parent.mkdir(parents=True, exist_ok=True)
            tmp = hit.with_suffix(f".{os.getpid()}.tmp")
            shutil.copyfile(obj, tmp)
            os.replace(tmp, hit)
        except OSError:
            pass  # a read-only or full cache only costs the reuse
    return True


def load_compile_seconds():
    """The seconds each file took to compile last time (by file name), from the object
    cache folder; {} where there is none. Only an order: the longest go first."""
    d = object_cache_dir()
    try:
        return json.loads((d / "compile_seconds.json").read_text()) if d else {}
    except (OSError, ValueError):
        return {}


def save_compile_seconds(seconds):
    d = object_cache_dir()
    if d is None or not seconds:
        return
    try:
        d.mkdir(parents=True, exist_ok=True)
        old = load_compile_seconds()
        old.update(seconds)
        tmp = d / f"compile_seconds.json.{os.getpid()}"
        tmp.write_text(json.dumps(old, sort_keys=True))
        os.replace(tmp, d / "compile_seconds.json")
    except OSError:
        pass            # a read-only cache: the order stays the default one


class Stage:
    """Prints which stage of the build runs and how long it took (pip -v shows it;
    plain `pip install .` shows it on failure)."""

    def __init__(self, name, total=None):
        self.name, self.total, self.done, self.reused = name, total, 0, 0
        self.t0 = time.time()
        print(f"cuarray: stage {name}" + (f" ({total} files)" if total else "") + " ...",
              flush=True)

    def step(self, compiled):
        self.done += 1
        self.reused += 0 if compiled else 1

    def end(self):
        extra = (f", {self.reused} of {self.done} objects reused (up to date, or from the cache)"
                 if self.done else "")
        print(f"cuarray: stage {self.name} took {time.time() - self.t0:.1f} s{extra}",
              flush=True)
