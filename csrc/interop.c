/* interop.c: placeholder until its owner lands it. */
#include "cuarray.h"

int
ca_interop_init(PyObject *m)
{
    return 0;
}
