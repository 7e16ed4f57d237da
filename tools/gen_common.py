"""What tools/gen_ops.py and tools/gen_reductions.py share: their command line, the
stamp of their inputs and writing a generated file only when its text changed."""

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


def write_if_changed(path, text, written):
    """Write text to path unless it holds it already (an unchanged file keeps its
    time, so nothing that includes it rebuilds); note what was written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
        written.append(path)
