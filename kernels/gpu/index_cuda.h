/*
 * index_cuda.h: the GPU launchers of index.cu, which dispatch_index.c calls for a
 * GPU device (kernels.h's ca_index_* pick host or GPU).
 */
#ifndef CA_INDEX_CUDA_H
#define CA_INDEX_CUDA_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

int ca_cuda_index_take(const ca_index_pass *p, int itemsize, int64_t *flag,
                       ca_stream_t stream);
int ca_cuda_index_put(const ca_index_pass *p, int itemsize, int64_t *flag,
                      ca_stream_t stream);
int ca_cuda_index_offsets(const ca_index_pass *p, int accumulate, int64_t *flag,
                          ca_stream_t stream);
int64_t ca_cuda_mask_scratch_size(int64_t n);
int ca_cuda_mask_count(const uint8_t *mask, int64_t n, int64_t *scratch,
                       ca_stream_t stream);
int ca_cuda_mask_offsets(const uint8_t *mask, int64_t n, const int64_t *scratch,
                         int ndim, const int64_t *shape, const int64_t *strides,
                         int64_t *out, ca_stream_t stream);
int ca_cuda_masked_fill(const ca_strided *s, int itemsize, const void *value,
                        ca_stream_t stream);
int ca_cuda_tri_copy(const ca_strided *s, int itemsize, int64_t k, int lower,
                     ca_stream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* CA_INDEX_CUDA_H */
