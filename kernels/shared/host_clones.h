/*
 * host_clones.h: CA_HOST_CLONES, the attribute that builds a host loop three
 * times on x86-64 (target_clones, the copy picked at load time): AVX-512
 * (x86-64-v4), AVX2 and the baseline. A wheel's baseline is x86-64, where gcc
 * vectorises with SSE2 only; the AVX2 and AVX-512 copies run the same C at 2-4x
 * the width, on NumPy's SIMD footing. -std=c11 keeps floating-point contraction
 * off and every copy folds in the same order, so every copy gives the same bits.
 * -DCA_NO_TARGET_CLONES builds one copy; nvcc (which compiles some of these
 * headers for the GPU) never sees the attribute.
 */
#ifndef CA_HOST_CLONES_H
#define CA_HOST_CLONES_H

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) &&                \
    !defined(CA_NO_TARGET_CLONES) && !defined(__CUDACC__)
#define CA_HOST_CLONES                                                                 \
    __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define CA_HOST_CLONES
#endif

/* A loop body specialised by its caller's constants (item sizes, strides): forced
 * inline, so each call site gets its own copy. */
#if defined(__GNUC__)
#define CA_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define CA_ALWAYS_INLINE inline
#endif

#endif /* CA_HOST_CLONES_H */
