/* dtypes.c: the per-dtype facts kernels/ and csrc/ share. */
#include "kernels.h"

const int ca_dtype_size[CA_NTYPES] = { 1, 1, 1, 2, 2,  4, 4, 8, 8,
                                       2, 4, 8, 8, 16, 2, 1, 1 };

const char *const ca_dtype_name[CA_NTYPES] = {
    "bool",      "int8",       "uint8",    "int16",         "uint16",      "int32",
    "uint32",    "int64",      "uint64",   "float16",       "float32",     "float64",
    "complex64", "complex128", "bfloat16", "float8_e4m3fn", "float8_e5m2",
};
