"""What tools/gen_ops.py and tools/gen_reductions.py share: their command line, the
stamp of their inputs, writing a generated file only when its text changed and the
C tables they write."""

import argparse
import hashlib
from pathlib import Path


def parse_args(argv, doc, table_option, table_default):
    """--out (the generated C and CUDA), --py-out (the Python table) and the table."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--py-out", type=Path)
    ap.add_argument(table_option, type=Path, default=table_default)
    return ap.parse_args(argv)


def inputs_stamp(table, generator):
    """A digest of the table, the generator and this file: a change there rewrites
    every generated file. Headers are not in it: setup.py rebuilds an object when a
    header it includes (transitively) is newer, so a header edit rebuilds only its
    includers."""
    h = hashlib.sha1()
    for p in (Path(table), Path(generator), Path(__file__)):
        if p.exists():
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def c_array(decl, rows):
    """The lines of a C array definition: `decl = {`, a row a line, `};`."""
    return [f"{decl} = {{"] + [f"    {r}" for r in rows] + ["};"]


def x_macro(head, rows):
    """The lines of an X-macro `#define head`, a row a line, ended by an empty line
    (the last row's backslash continues onto it)."""
    return [f"#define {head} \\"] + [f"    {r} \\" for r in rows] + [""]


def write_if_changed(path, text, written):
    """Write text to path unless it holds it already (an unchanged file keeps its
    time, so nothing that includes it rebuilds); note what was written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
        written.append(path)
