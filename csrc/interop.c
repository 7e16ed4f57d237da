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

/* Stand-ins until interop.c lands: report "no interface found". */
CaArray *
ca_from_cai(PyObject *obj, int *found)
{
    *found = 0;
    return NULL;
}

CaArray *
ca_from_dlpack_obj(PyObject *obj, int device, int copy, int *found)
{
    *found = 0;
    return NULL;
}
