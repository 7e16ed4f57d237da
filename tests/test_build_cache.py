"""The build's object cache (tools/objcache.py): a compile is reused exactly when its
compiler, flags, source and project headers are the same, from any clone."""

import pathlib
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
import objcache  # noqa: E402

CC = shutil.which("gcc") or shutil.which("cc")
pytestmark = pytest.mark.skipif(CC is None, reason="no C compiler on this machine")


def tree(root, value):
    root.mkdir(parents=True, exist_ok=True)
    (root / "v.h").write_text(f"#define V {value}\n")
    (root / "a.c").write_text('#include "v.h"\nint a(void) { return V; }\n')
    return root


def build(root, obj, flags=("-O2",)):
    cmd = [CC, *flags, "-c"]
    deps = [root / "a.c", root / "v.h"]

    def compile_one():
        subprocess.run([*cmd, str(root / "a.c"), "-o", str(obj)], check=True)
    return objcache.cached_compile(cmd, deps, root, obj, compile_one)


def test_hits_misses_and_other_clones(tmp_path, monkeypatch):
    monkeypatch.setenv("CUARRAY_OBJECT_CACHE", str(tmp_path / "cache"))
    one = tree(tmp_path / "clone1", 1)
    assert build(one, tmp_path / "o1.o") is True          # first time: compiled
    assert build(one, tmp_path / "o2.o") is False         # same inputs: from the cache
    assert (tmp_path / "o1.o").read_bytes() == (tmp_path / "o2.o").read_bytes()
    two = tree(tmp_path / "clone2", 1)                    # another folder, same files
    assert build(two, tmp_path / "o3.o") is False
    assert build(one, tmp_path / "o4.o", flags=("-O1",)) is True   # other flags
    (one / "v.h").write_text("#define V 2\n")             # a header changed
    assert build(one, tmp_path / "o5.o") is True
    assert (tmp_path / "o5.o").read_bytes() != (tmp_path / "o1.o").read_bytes()


def test_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv("CUARRAY_OBJECT_CACHE", "0")
    one = tree(tmp_path / "c", 3)
    assert build(one, tmp_path / "a.o") is True
    assert build(one, tmp_path / "b.o") is True
