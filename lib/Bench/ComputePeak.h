//===- ComputePeak.h - the machine's arithmetic peak, measured --*- C++ -*-===//
//
// Compute-bound kernels (prefill) are reported against what the core can do
// at most, measured in the same run as the kernel (the clock of a shared VM
// is not the one printed on the box): a loop of independent multiply-adds on
// registers, no loads, nothing else.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_BENCH_COMPUTEPEAK_H
#define QFORGE_BENCH_COMPUTEPEAK_H

namespace qforge {

/// f32 multiply-adds (vfmadd on the widest vectors the CPU has: AVX-512,
/// else AVX2 + FMA) on `threads` threads, in GFLOP/s (2 per multiply-add);
/// 0 when the CPU has neither.
double measureFmaPeakGflops(unsigned threads);

/// u8 x s8 dot products summed into i32 lanes, in GOP/s (2 per byte
/// product): vpdpbusd on 512-bit vectors with AVX-512 VNNI, else on AVX2
/// one vpmaddubsw + vpmaddwd per 32 products (the multiplies of the int8
/// rows for AVX2, whose operands are bounded so that one suffices); 0
/// without either.
double measureInt8DotPeakGops(unsigned threads);

} // namespace qforge

#endif // QFORGE_BENCH_COMPUTEPEAK_H
