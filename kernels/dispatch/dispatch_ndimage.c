/* dispatch_ndimage.c: the ca_ndi_* launchers (kernels.h): argument checks, then
 * the host loops (host_ndimage.c) or the GPU's (ndimage.cu). */
#include "dispatch.h"

int ca_ndi_filter_host(const ca_ndi_filter_args *a, const double *in, double *out,
                       const int64_t *offs, const int64_t *loffs, const double *w);
int ca_ndi_spline_host(double *c, int64_t outer, int64_t n, int64_t inner, int order,
                       int mode);
int ca_ndi_map_host(const ca_ndi_map_args *a, const double *in, const double *coords,
                    const double *matrix, double *out);
int ca_ndi_label_host(const ca_ndi_shape *s, const uint8_t *mask, const int64_t *offs,
                      int64_t nk, int64_t *p);
int ca_ndi_edt_host(double *f, int64_t outer, int64_t n, int64_t inner, double h,
                    int64_t *arg, double *scratch);
#if CA_HAVE_CUDA
#include "ndimage_cuda.h"
#endif

static int
bad_dims(int ndim, const int64_t *shape)
{
    if (ndim < 1 || ndim > CA_MAX_DIMS) {
        return 1;
    }
    for (int d = 0; d < ndim; d++) {
        if (shape[d] < 1) {
            return 1;
        }
    }
    return 0;
}

int
ca_ndi_filter(int device, const ca_ndi_filter_args *a, const double *in, double *out,
              const int64_t *offs, const int64_t *loffs, const double *w,
              double *scratch, int64_t nthreads, ca_stream_t stream)
{
    if (bad_dims(a->ndim, a->shape) || a->nk < 1 || a->op < 0 || a->op > CA_NDI_RANK ||
        (a->op == CA_NDI_CORRELATE && w == NULL) ||
        (a->op == CA_NDI_RANK && (a->rank < 0 || a->rank >= a->nk || nthreads < 1 ||
                                  (device != CA_CPU && scratch == NULL))) ||
        a->mode < 0 || a->mode > CA_NDI_CONSTANT || a->vtype >= CA_NTYPES ||
        a->line_axis >= a->ndim ||
        (a->line_axis >= 0 && a->hi[a->line_axis] - a->lo[a->line_axis] + 1 != a->nk)) {
        return CA_KERR_UNSUPPORTED;
    }
    return CA_DISPATCH(
        device, ca_ndi_filter_host(a, in, out, offs, loffs, w),
        ca_cuda_ndi_filter(a, in, out, offs, loffs, w, scratch, nthreads, stream));
}

int
ca_ndi_spline(int device, double *c, int64_t outer, int64_t n, int64_t inner, int order,
              int mode, ca_stream_t stream)
{
    if (outer < 1 || inner < 1 || n < 2 || order < 2 || order > 5 || mode < 0 ||
        mode > CA_NDI_GRID_CONSTANT) {
        return CA_KERR_UNSUPPORTED;
    }
    return CA_DISPATCH(device, ca_ndi_spline_host(c, outer, n, inner, order, mode),
                       ca_cuda_ndi_spline(c, outer, n, inner, order, mode, stream));
}

int
ca_ndi_map(int device, const ca_ndi_map_args *a, const double *in, const double *coords,
           const double *matrix, double *out, ca_stream_t stream)
{
    if (bad_dims(a->ndim, a->shape) || a->ndim > CA_NDI_MAP_DIMS || a->order < 0 ||
        a->order > 5 || a->nout < 1 || a->mode < 0 || a->mode > CA_NDI_GRID_CONSTANT ||
        (coords == NULL &&
         (matrix == NULL || a->out_ndim < 1 || bad_dims(a->out_ndim, a->out_shape)))) {
        return CA_KERR_UNSUPPORTED;
    }
    return CA_DISPATCH(device, ca_ndi_map_host(a, in, coords, matrix, out),
                       ca_cuda_ndi_map(a, in, coords, matrix, out, stream));
}

int
ca_ndi_label(int device, const ca_ndi_shape *s, const uint8_t *mask,
             const int64_t *offs, int64_t nk, int64_t *p, ca_stream_t stream)
{
    if (bad_dims(s->ndim, s->shape) || nk < 0) {
        return CA_KERR_UNSUPPORTED;
    }
    return CA_DISPATCH(device, ca_ndi_label_host(s, mask, offs, nk, p),
                       ca_cuda_ndi_label(s, mask, offs, nk, p, stream));
}

int
ca_ndi_edt(int device, double *f, int64_t outer, int64_t n, int64_t inner, double h,
           int64_t *arg, double *scratch, ca_stream_t stream)
{
    if (outer < 1 || n < 1 || inner < 1 || scratch == NULL || !(h > 0.0)) {
        return CA_KERR_UNSUPPORTED;
    }
    return CA_DISPATCH(device, ca_ndi_edt_host(f, outer, n, inner, h, arg, scratch),
                       ca_cuda_ndi_edt(f, outer, n, inner, h, arg, scratch, stream));
}
