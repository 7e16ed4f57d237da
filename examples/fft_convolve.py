"""cuFFT through cupy.fft: a convolution by FFT, and a round trip."""

import numpy

import cuarray as cupy


def fft_convolve(a, b):
    n = a.size + b.size - 1
    size = 1 << (n - 1).bit_length()
    fa = cupy.fft.rfft(a, size)
    fb = cupy.fft.rfft(b, size)
    return cupy.fft.irfft(fa * fb, size)[:n]


def main(n=4096, m=129, seed=0):
    rng = numpy.random.default_rng(seed)
    a, b = rng.standard_normal(n), rng.standard_normal(m)
    conv = fft_convolve(cupy.asarray(a), cupy.asarray(b))
    z = rng.standard_normal((64, 32)) + 1j * rng.standard_normal((64, 32))
    back = cupy.fft.ifft2(cupy.fft.fft2(cupy.asarray(z)))
    return {"conv": cupy.asnumpy(conv), "conv_expected": numpy.convolve(a, b),
            "round_trip": cupy.asnumpy(back), "z": z}


if __name__ == "__main__":
    r = main(1 << 22, 1025)
    print(f"fft: max error {abs(r['conv'] - r['conv_expected']).max():.2e}")
