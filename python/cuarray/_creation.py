"""Python-level glue for cuarray's array object: printing and pickling.

The array type and every creation function are C (cuarray._core); this module
holds only what is easier to say with NumPy's Python API and is never on a hot
path.
"""

import numpy as np


def _print_params():
    """(threshold, edgeitems) of NumPy's current print options."""
    opts = np.get_printoptions()
    return opts["threshold"], opts["edgeitems"]


def _format(h, is_repr, summarized, device, memory, shape):
    """NumPy's repr/str of host array `h`, with the device appended to repr.

    `summarized`: h holds only the parts NumPy's summary shows (edge items
    plus one stand-in element per long axis), so it is printed with a zero
    threshold to get exactly the summary NumPy gives the full array.
    """
    if summarized:
        with np.printoptions(threshold=0):
            text = repr(h) if is_repr else str(h)
    else:
        text = repr(h) if is_repr else str(h)
    if not is_repr:
        return text
    if summarized:
        text = _fix_summary_shape(text, h.shape, tuple(shape))
    extra = f", device={device!r}"
    if memory is not None:
        extra += f", memory={memory!r}"
    assert text.endswith(")")
    return text[:-1] + extra + ")"


def _fix_summary_shape(text, small, shape):
    """NumPy names the shape of a summarised array in its repr: put the real
    shape in place of the printed part's, wrapping the line as NumPy would."""
    head, sep, tail = text.rpartition(f"shape={small}")
    if not sep:
        return text  # legacy print modes name no shape
    arr_str = head.rstrip(" \n")  # drop NumPy's spacer after the last ","
    extra_str = f"shape={shape}" + tail
    last_line_len = len(arr_str) - (arr_str.rfind("\n") + 1)
    spacer = " "
    if last_line_len + len(extra_str) + 1 > np.get_printoptions()["linewidth"]:
        spacer = "\n" + " " * len("array(")
    return arr_str + spacer + extra_str


def _unpickle(h, device, memory):
    """Rebuild a pickled array: the host copy back on its device."""
    from . import _core

    try:
        return _core.asarray(h, device=device, memory=memory, copy=True)
    except Exception:
        # The device (or the memory kind) is not available here: the default.
        return _core.asarray(h, copy=True)
