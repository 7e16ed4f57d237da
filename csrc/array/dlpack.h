/*
 * dlpack.h: the DLPack C ABI (version 1.x, with the legacy 0.x managed tensor),
 * declared here from the published specification for cuarray's interop.c.
 *
 * ABI rules (from the specification, enforced in interop.c):
 * - A producer hands out a PyCapsule named "dltensor" (a DLManagedTensor*) or,
 *   when the consumer asked for max_version >= (1, 0), "dltensor_versioned" (a
 *   DLManagedTensorVersioned*). A consumer that takes ownership renames the
 *   capsule to "used_dltensor" / "used_dltensor_versioned" and later calls the
 *   deleter exactly once; the capsule's own destructor calls the deleter only
 *   when the capsule was never consumed.
 * - The consumer reads `version.major` before anything else of a versioned
 *   tensor: a different major version means a different layout after it.
 * - shape/strides are in elements (not bytes); strides may be negative. A NULL
 *   strides (legacy producers) means compact row-major. ndim 0 is a scalar.
 * - The address of the first element is `data + byte_offset`.
 * - The structure layout uses fixed-width fields only, so the same bytes are
 *   read by every language binding; enums are int-sized as in C.
 */
#ifndef CA_DLPACK_H
#define CA_DLPACK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The DLPack version cuarray produces (and the newest major it reads). */
#define CA_DLPACK_MAJOR_VERSION 1
#define CA_DLPACK_MINOR_VERSION 0

/* Version of the versioned managed tensor ABI. */
typedef struct {
    uint32_t major; /* incompatible ABI changes bump this */
    uint32_t minor; /* compatible additions bump this */
} DLPackVersion;

/* Device types (DLDeviceType). Only those cuarray maps are listed; any other
 * value read from a foreign tensor is rejected. */
typedef enum {
    kDLCPU = 1,          /* host memory from malloc or similar */
    kDLCUDA = 2,         /* CUDA device memory (cudaMalloc) */
    kDLCUDAHost = 3,     /* pinned host memory (cudaMallocHost / registered) */
    kDLCUDAManaged = 13, /* CUDA managed (unified) memory (cudaMallocManaged) */
} DLDeviceType;

/* Where the data lives. */
typedef struct {
    int32_t device_type; /* a DLDeviceType value (the C enum is int-sized) */
    int32_t device_id;   /* device ordinal; 0 for kDLCPU/kDLCUDAHost/kDLCUDAManaged */
} DLDevice;

/* Type codes (DLDataTypeCode). */
typedef enum {
    kDLInt = 0,            /* signed integer */
    kDLUInt = 1,           /* unsigned integer */
    kDLFloat = 2,          /* IEEE floating point */
    kDLOpaqueHandle = 3,   /* opaque handle: never data cuarray can read */
    kDLBfloat = 4,         /* bfloat16 (ml_dtypes.bfloat16) */
    kDLComplex = 5,        /* complex: `bits` counts both parts */
    kDLBool = 6,           /* boolean, stored as 8 bits per element */
    kDLFloat8_e4m3fn = 10, /* DLPack 1.1: float8, no inf (ml_dtypes.float8_e4m3fn) */
    kDLFloat8_e5m2 = 12,   /* DLPack 1.1: float8 IEEE-like (ml_dtypes.float8_e5m2) */
} DLDataTypeCode;

/* Element type: `lanes` > 1 are vector types (never used by cuarray). */
typedef struct {
    uint8_t code;   /* a DLDataTypeCode value */
    uint8_t bits;   /* bits per lane: 8, 16, 32, 64, 128 */
    uint16_t lanes; /* lanes per element; 1 for scalars */
} DLDataType;

/* A strided tensor: plain metadata, owns nothing. */
typedef struct {
    void *data;           /* base address, in the address space of `device` */
    DLDevice device;      /* where `data` lives */
    int32_t ndim;         /* number of dimensions, 0 for a scalar */
    DLDataType dtype;     /* element type */
    int64_t *shape;       /* [ndim] extents */
    int64_t *strides;     /* [ndim] strides in elements, or NULL = compact C order */
    uint64_t byte_offset; /* first element is at (char *)data + byte_offset */
} DLTensor;

/* Legacy (pre-1.0) managed tensor, capsule name "dltensor". */
typedef struct DLManagedTensor {
    DLTensor dl_tensor; /* the tensor */
    void *manager_ctx;  /* the producer's context, for the deleter */
    /* Called once by the consumer when done; may be NULL (nothing to free). */
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

/* Flags of DLManagedTensorVersioned. */
#define DLPACK_FLAG_BITMASK_READ_ONLY              (UINT64_C(1) << 0) /* consumer must not write */
#define DLPACK_FLAG_BITMASK_IS_COPIED              (UINT64_C(1) << 1) /* data is a fresh copy */
/* Sub-byte types padded to a byte (DLPack 1.1); cuarray has none. */
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (UINT64_C(1) << 2)

/* Versioned (1.x) managed tensor, capsule name "dltensor_versioned". Note the
 * order: the version comes first so a consumer can check it before reading on. */
typedef struct DLManagedTensorVersioned {
    DLPackVersion version; /* ABI version of this structure */
    void *manager_ctx;     /* the producer's context, for the deleter */
    /* Called once by the consumer when done; may be NULL (nothing to free). */
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;     /* DLPACK_FLAG_BITMASK_* bits */
    DLTensor dl_tensor; /* the tensor */
} DLManagedTensorVersioned;

#ifdef __cplusplus
}
#endif
#endif /* CA_DLPACK_H */
