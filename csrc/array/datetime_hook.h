/*
 * datetime_hook.h (dtype.c): datetime64 and timedelta64 arrays are
 * cuarray/_datetime.py's, int64 arrays of a Python subclass of ndarray that keeps
 * NumPy's dtype. The C layer only recognises them: a datetime dtype, typestr or
 * array where an int64-backed one cannot be made here raises
 * _core._DatetimeDtypeError (a TypeError), and the creation functions then hand
 * the whole call to the Python function of the same name.
 */
#ifndef CA_DATETIME_HOOK_H
#define CA_DATETIME_HOOK_H

#include "cuarray.h"

/* Raise _DatetimeDtypeError about `what` (a dtype, typestr or array); -1. */
int ca_dt_raise(PyObject *what);
/* Whether o is an array of cuarray._datetime's subclass (0 before it loads). */
int ca_dt_is(PyObject *o);
/* `r` unless it is NULL with _DatetimeDtypeError set: then the result of
 * cuarray._datetime.<fname>(*args, **kwargs), the call's own arguments. */
PyObject *ca_dt_retry(PyObject *r, const char *fname, PyObject *const *args,
                      Py_ssize_t nargs, PyObject *kwnames);

/* The same for a method of `self`: cuarray._datetime.<fname>(self, *args, **kw). */
PyObject *ca_dt_retry_self(PyObject *r, const char *fname, PyObject *self,
                           PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
/* The same for a METH_VARARGS | METH_KEYWORDS function: fname(*args, **kwargs). */
PyObject *ca_dt_retry_tuple(PyObject *r, const char *fname, PyObject *args,
                            PyObject *kwargs);

#endif
