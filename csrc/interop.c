/* interop.c: placeholder until its owner lands it. */
#include "cuarray.h"

int
ca_interop_init(PyObject *m)
{
    return 0;
}

PyMethodDef ca_interop_array_methods[] = {
    {NULL, NULL, 0, NULL},
};

PyGetSetDef ca_interop_array_getset[] = {
    {NULL, NULL, NULL, NULL, NULL},
};
