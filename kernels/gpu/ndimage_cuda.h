/*
 * ndimage_cuda.h: the GPU launchers of ndimage.cu, which dispatch_ndimage.c calls
 * for a GPU device (kernels.h's ca_ndi_* pick host or GPU; arguments checked
 * there).
 */
#ifndef CA_NDIMAGE_CUDA_H
#define CA_NDIMAGE_CUDA_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

int ca_cuda_ndi_filter(const ca_ndi_filter_args *a, const double *in, double *out,
                       const int64_t *offs, const int64_t *loffs, const double *w,
                       double *scratch, int64_t nthreads, ca_stream_t stream);
int ca_cuda_ndi_spline(double *c, int64_t outer, int64_t n, int64_t inner, int order,
                       int mode, ca_stream_t stream);
int ca_cuda_ndi_map(const ca_ndi_map_args *a, const double *in, const double *coords,
                    const double *matrix, double *out, ca_stream_t stream);
int ca_cuda_ndi_label(const ca_ndi_shape *s, const uint8_t *mask, const int64_t *offs,
                      int64_t nk, int64_t *p, ca_stream_t stream);
int ca_cuda_ndi_edt(double *f, int64_t outer, int64_t n, int64_t inner, double h,
                    int64_t *arg, double *scratch, ca_stream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* CA_NDIMAGE_CUDA_H */
