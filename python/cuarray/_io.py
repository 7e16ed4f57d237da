"""Printing and I/O: NumPy's text formatting and file formats for cuarray arrays.

Every function goes through NumPy on the host. Output: the array's host copy
(`cuarray.asnumpy`) handed to NumPy's function. Input: NumPy's reader, then one
`cuarray.asarray(h, device=device)` (``device=None``: the current device); except
`load` of a .npy file by name, which parses NumPy's header and reads the data
straight into the result (cpu device) or into pinned staging copied once to the
GPU, with no pageable copy in between.

cuarray's repr and str print through NumPy's own formatting (csrc/array/format.c calls
``cuarray._creation._format``), so NumPy's print options are cuarray's:
`set_printoptions`, `get_printoptions` and `printoptions` forward to NumPy's.
"""

import collections.abc
import contextlib
import os

import numpy as np

from . import _core

__all__ = [
    "array2string", "array_repr", "array_str", "set_printoptions",
    "get_printoptions", "printoptions", "format_float_positional",
    "format_float_scientific", "base_repr", "binary_repr",
    "save", "load", "savez", "savez_compressed", "savetxt", "loadtxt",
    "genfromtxt", "fromfile", "frombuffer", "fromiter", "fromstring", "fromfunction",
]


def _host(a):
    """The host (NumPy) copy of `a`: cuarray arrays through asnumpy, others as-is."""
    if isinstance(a, _core.ndarray):
        return _core.asnumpy(a)
    return a


def _dev(h, device):
    """One transfer of host array `h` to `device` (None: the current device)."""
    return _core.asarray(h, device=device)


# --------------------------------------------------------------------------------
# Printing

def set_printoptions(*args, **kwargs):
    """Set the print options of NumPy and cuarray (they are shared).

    Parameters are NumPy's `numpy.set_printoptions` (precision, threshold,
    edgeitems, linewidth, suppress, nanstr, infstr, formatter, sign,
    floatmode, legacy, override_repr).
    """
    return np.set_printoptions(*args, **kwargs)


def get_printoptions():
    """The current print options, as `numpy.get_printoptions` returns them.

    Returns
    -------
    dict
        The options, shared by NumPy and cuarray.
    """
    return np.get_printoptions()


@contextlib.contextmanager
def printoptions(*args, **kwargs):
    """Context manager: set print options for the ``with`` block, then restore.

    Parameters are `set_printoptions`'s.

    Yields
    ------
    dict
        The print options in force inside the block.
    """
    with np.printoptions(*args, **kwargs) as opts:
        yield opts


def array2string(a, max_line_width=None, precision=None, suppress_small=None,
                 separator=" ", prefix="", *, formatter=None, threshold=None,
                 edgeitems=None, sign=None, floatmode=None, suffix="",
                 legacy=None):
    """The text of an array's elements, as `numpy.array2string` writes it.

    Parameters
    ----------
    a : array_like
        The array (a cuarray array is copied to the host once).
    max_line_width, precision, suppress_small, separator, prefix, formatter,
    threshold, edgeitems, sign, floatmode, suffix, legacy
        As `numpy.array2string`.

    Returns
    -------
    str
    """
    return np.array2string(
        _host(a), max_line_width, precision, suppress_small, separator, prefix,
        formatter=formatter, threshold=threshold, edgeitems=edgeitems, sign=sign,
        floatmode=floatmode, suffix=suffix, legacy=legacy)


def _printed(a, np_fn, fn, max_line_width, precision, suppress_small):
    """fn(a) (repr or str) under the given print options for a cuarray array,
    else NumPy's np_fn's."""
    if not isinstance(a, _core.ndarray):
        return np_fn(a, max_line_width, precision, suppress_small)
    opts = {}
    if max_line_width is not None:
        opts["linewidth"] = max_line_width
    if precision is not None:
        opts["precision"] = precision
    if suppress_small is not None:
        opts["suppress"] = suppress_small
    with np.printoptions(**opts):
        return fn(a)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """The repr of an array: ``repr(arr)`` under the given print options.

    For a cuarray array this is cuarray's repr (NumPy's, with the device);
    for anything else, `numpy.array_repr`'s.

    Parameters
    ----------
    arr : ndarray
    max_line_width : int, optional
        Lines longer than this are wrapped (default: the print options').
    precision : int, optional
        Digits of floating-point numbers (default: the print options').
    suppress_small : bool, optional
        Print numbers very close to zero as zero (default: the print options').

    Returns
    -------
    str
    """
    return _printed(arr, np.array_repr, repr, max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """The str of an array, as `numpy.array_str` writes it.

    Parameters
    ----------
    a : ndarray
    max_line_width, precision, suppress_small
        As `array_repr`.

    Returns
    -------
    str
    """
    return _printed(a, np.array_str, str, max_line_width, precision, suppress_small)


def _host_value(x):
    """A cuarray array on the host (0-d: its scalar); anything else as it is."""
    if isinstance(x, _core.ndarray):
        return _host(x)[()] if x.ndim == 0 else _host(x)
    return x


def format_float_positional(x, precision=None, unique=True, fractional=True,
                            trim="k", sign=False, pad_left=None, pad_right=None,
                            min_digits=None):
    """A floating-point scalar in positional notation: `numpy.format_float_positional`.

    A 0-d or one-element cuarray array is read as its scalar.

    Returns
    -------
    str
    """
    x = _host_value(x)
    return np.format_float_positional(x, precision, unique, fractional, trim, sign,
                                      pad_left, pad_right, min_digits)


def format_float_scientific(x, precision=None, unique=True, trim="k", sign=False,
                            pad_left=None, exp_digits=None, min_digits=None):
    """A floating-point scalar in scientific notation: `numpy.format_float_scientific`.

    A 0-d cuarray array is read as its scalar.

    Returns
    -------
    str
    """
    x = _host_value(x)
    return np.format_float_scientific(x, precision, unique, trim, sign, pad_left,
                                      exp_digits, min_digits)


def base_repr(number, base=2, padding=0):
    """The text of an integer in a base up to 36, as `numpy.base_repr`.

    Returns
    -------
    str
    """
    return np.base_repr(number, base, padding)


def binary_repr(num, width=None):
    """The binary text of an integer (two's complement given `width`): NumPy's.

    Returns
    -------
    str
    """
    return np.binary_repr(num, width)


# --------------------------------------------------------------------------------
# Files: .npy and .npz

def save(file, arr, allow_pickle=True, fix_imports=np._NoValue):
    """Save an array to a .npy file, as `numpy.save`.

    Parameters
    ----------
    file : file, str or pathlib.Path
        Where to write (".npy" is appended to a name without it).
    arr : array_like
        The array (a cuarray array is copied to the host once).
    allow_pickle : bool, optional
        Allow object arrays to be pickled (NumPy's default, True).
    """
    kwargs = {} if fix_imports is np._NoValue else {"fix_imports": fix_imports}
    np.save(file, _host(arr), allow_pickle=allow_pickle, **kwargs)


def savez(file, *args, allow_pickle=True, **kwds):
    """Save several arrays into one uncompressed .npz archive, as `numpy.savez`.

    Positional arrays are stored as ``arr_0``, ``arr_1``, ...; keyword arrays
    under their names.
    """
    np.savez(file, *[_host(a) for a in args], allow_pickle=allow_pickle,
             **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """Save several arrays into one compressed .npz archive: `numpy.savez_compressed`.

    Names as `savez`.
    """
    np.savez_compressed(file, *[_host(a) for a in args], allow_pickle=allow_pickle,
                        **{k: _host(v) for k, v in kwds.items()})


class NpzFile(collections.abc.Mapping):
    """A lazy mapping over an .npz archive whose items are cuarray arrays.

    Each item is read by NumPy (on first access, every access) and moved to
    the device once. Use it as a context manager or call `close`.
    """

    def __init__(self, npz, device):
        self._npz = npz
        self._device = device

    @property
    def files(self):
        """The names of the arrays in the archive."""
        return self._npz.files

    def __getitem__(self, key):
        return _dev(self._npz[key], self._device)

    def __iter__(self):
        return iter(self._npz.files)

    def __len__(self):
        return len(self._npz.files)

    def __contains__(self, key):
        return key in self._npz.files

    def close(self):
        """Close the archive."""
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        return f"<cuarray NpzFile {self._npz.files!r}, device={self._device!r}>"


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True,
         encoding="ASCII", *, max_header_size=None, device=None):
    """Load arrays or pickled objects from .npy, .npz or pickled files, as `numpy.load`.

    Parameters
    ----------
    file : file, str or pathlib.Path
    mmap_mode, allow_pickle, fix_imports, encoding, max_header_size
        As `numpy.load` (``allow_pickle`` defaults to False: loading an object
        array or a pickle raises ValueError).
    device : str, optional
        Where the arrays go (default: the current device).

    Returns
    -------
    ndarray, NpzFile or object
        A .npy file: a cuarray array. A .npz file: a lazy mapping of its arrays
        (`NpzFile`). A pickle: the unpickled object, as NumPy gives it.

    Notes
    -----
    With `mmap_mode` on the CPU device the array shares the mapped file's memory
    (read-only for "r", as NumPy's memmap); on a GPU it is copied once. A .npy file
    given by name (no mmap_mode, a dtype cuarray holds) is read straight into the
    result's memory on the cpu device, or into pinned memory that one copy takes to
    the GPU (the load returns when that copy is done).
    """
    kwargs = {}
    if max_header_size is not None:
        kwargs["max_header_size"] = max_header_size
    if mmap_mode is None and isinstance(file, (str, os.PathLike)):
        with open(file, "rb") as fp:
            direct = _read_npy(fp, device, kwargs)
        if direct is not None:
            return direct
    out = np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle,
                  fix_imports=fix_imports, encoding=encoding, **kwargs)
    if isinstance(out, np.lib.npyio.NpzFile):
        return NpzFile(out, device)
    if isinstance(out, np.ndarray) and out.dtype != object:
        return _dev(out, device)
    return out


# the dtypes cuarray holds, native byte order (others go through NumPy's reader)
_DIRECT = frozenset(np.dtype(c) for c in "?bBhHiIlLqQefdFD")


def _read_npy(fp, device, kwargs):
    """The array of a .npy file read straight into its final host memory (cpu
    device), or into pinned staging that one copy takes to the GPU: no pageable
    copy in between. None (with fp rewound) for what NumPy's reader must do:
    other files (.npz, pickles), format 3.0, object and non-native dtypes."""
    fmt = np.lib.format
    if fp.read(len(fmt.MAGIC_PREFIX)) != fmt.MAGIC_PREFIX:
        return None
    fp.seek(0)
    version = fmt.read_magic(fp)
    if version == (1, 0):
        shape, fortran, dtype = fmt.read_array_header_1_0(fp, **kwargs)
    elif version == (2, 0):
        shape, fortran, dtype = fmt.read_array_header_2_0(fp, **kwargs)
    else:
        return None
    if dtype not in _DIRECT:
        return None
    order = "F" if fortran else "C"
    dev = _core.empty(0, device=device).device  # allocates nothing
    gpu = dev != "cpu"
    stage = _core.empty(shape, dtype=dtype, order=order, device=dev,
                        memory="pinned" if gpu else None)
    buf = np.asarray(stage).reshape(-1, order=order).view(np.uint8)
    total, got = buf.nbytes, 0
    mv = memoryview(buf)
    while got < total:
        k = fp.readinto(mv[got:])
        if not k:
            raise ValueError(f"EOF: reading array data, expected {total} bytes got {got}")
        got += k
    if not gpu:
        return stage
    out = _core.asarray(stage, memory="device")
    # the staging block goes back to the pool when this returns: the copy must be
    # done before the host may write into it again
    dev.synchronize()
    return out


# --------------------------------------------------------------------------------
# Text files

def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="",
            footer="", comments="# ", encoding=None):
    """Save a 1-D or 2-D array to a text file, as `numpy.savetxt`."""
    np.savetxt(fname, _host(X), fmt=fmt, delimiter=delimiter, newline=newline,
               header=header, footer=footer, comments=comments, encoding=encoding)


def loadtxt(fname, dtype=float, comments="#", delimiter=None, converters=None,
            skiprows=0, usecols=None, unpack=False, ndmin=0, encoding=None,
            max_rows=None, *, quotechar=None, like=None, device=None):
    """Load an array from a text file, as `numpy.loadtxt`, onto `device`.

    With ``unpack=True`` the columns (or a structured array's fields) come back
    as a tuple of arrays, as NumPy returns them.
    """
    h = np.loadtxt(fname, dtype=dtype, comments=comments, delimiter=delimiter,
                   converters=converters, skiprows=skiprows, usecols=usecols,
                   unpack=False, ndmin=ndmin, encoding=encoding, max_rows=max_rows,
                   quotechar=quotechar)
    out = _dev(h, device)
    if unpack:
        return tuple(out.T) if out.ndim > 1 else out
    return out


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header=0,
               skip_footer=0, converters=None, missing_values=None,
               filling_values=None, usecols=None, names=None, excludelist=None,
               deletechars=" !#$%&'()*+,-./:;<=>?@[\\]^{|}~", replace_space="_",
               autostrip=False, case_sensitive=True, defaultfmt="f%i",
               unpack=None, usemask=False, loose=True, invalid_raise=True,
               max_rows=None, encoding=None, *, ndmin=0, like=None, device=None):
    """Load an array from a text file with missing values handled: `numpy.genfromtxt`.

    Missing values become ``filling_values`` (NaN by default for floats).
    ``usemask=True`` (a masked array) is not supported: NotImplementedError.
    """
    if usemask:
        raise NotImplementedError("cuarray.genfromtxt: usemask=True (masked arrays)")
    h = np.genfromtxt(
        fname, dtype=dtype, comments=comments, delimiter=delimiter,
        skip_header=skip_header, skip_footer=skip_footer, converters=converters,
        missing_values=missing_values, filling_values=filling_values,
        usecols=usecols, names=names, excludelist=excludelist,
        deletechars=deletechars, replace_space=replace_space, autostrip=autostrip,
        case_sensitive=case_sensitive, defaultfmt=defaultfmt, unpack=None,
        usemask=False, loose=loose, invalid_raise=invalid_raise, max_rows=max_rows,
        encoding=encoding, ndmin=ndmin)
    out = _dev(h, device)
    if unpack:
        return tuple(out.T) if out.ndim > 1 else out
    return out


# --------------------------------------------------------------------------------
# Arrays from buffers, files, iterables, strings and functions

def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None,
             device=None):
    """An array from a binary or text file's data, as `numpy.fromfile`, on `device`."""
    return _dev(np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset),
                device)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None, device=None):
    """A 1-D array from a buffer's bytes, as `numpy.frombuffer`, on `device`.

    Deviation from NumPy: the result is a copy, not a view of `buffer`.
    """
    h = np.frombuffer(buffer, dtype=dtype, count=count, offset=offset)
    return _core.asarray(h, device=device, copy=True)


def fromiter(iter, dtype, count=-1, *, like=None, device=None):
    """A 1-D array from an iterable, as `numpy.fromiter`, on `device`."""
    return _dev(np.fromiter(iter, dtype=dtype, count=count), device)


def fromstring(string, dtype=float, count=-1, *, sep="", like=None, device=None):
    """A 1-D array from text data, as `numpy.fromstring`. Give ``sep``: NumPy's
    binary mode (``sep=''``, the default) is removed and raises its ValueError;
    use `frombuffer`."""
    return _dev(np.fromstring(string, dtype=dtype, count=count, sep=sep), device)


def fromfunction(function, shape, *, dtype=float, like=None, device=None, **kwargs):
    """Construct an array by calling `function` once on coordinate arrays.

    As `numpy.fromfunction`: ``function(*coords, **kwargs)`` where ``coords``
    are the `cuarray.indices` arrays of `shape` in `dtype`, on `device`.

    Returns
    -------
    any
        What `function` returns.
    """
    coords = _core_indices(shape, dtype, device)
    return function(*coords, **kwargs)


def _core_indices(shape, dtype, device):
    from . import indices
    return indices(shape, dtype=dtype, device=device)
