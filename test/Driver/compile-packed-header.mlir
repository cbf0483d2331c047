// With the packed decode strategy, the object exports two C interfaces and
// --header declares both (docs/abi.md): the kernel on the packed parameters
// (4-d: N/64 x G x K x 64 i8 weights, N/64 x G x 1 x 64 f32 scales and
// zero-points; the activation and result unchanged), and its packing
// function, which takes the raw 3-d parameters and returns the packed ones
// in caller-allocated result0..2. N = 100 pads to two row tiles of 64.
// RUN: %gen_kernel 100 5 64 > %t.mlir
// RUN: rm -f %t.o %t.h
// RUN: qforge-compile %t.mlir --strategy-row=decode-packed-f32/avx512 --mcpu=skylake-avx512 --emit=obj -o %t.o --header=%t.h
// RUN: llvm-nm --defined-only %t.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: FileCheck %s --check-prefix=HEADER < %t.h

// SYMBOLS-DAG: T _mlir_ciface_quantized_matmul{{$}}
// SYMBOLS-DAG: T _mlir_ciface_quantized_matmul_pack_weights{{$}}

// HEADER:      typedef struct {
// HEADER-NEXT:   int8_t *allocated;
// HEADER-NEXT:   int8_t *aligned;
// HEADER-NEXT:   int64_t offset;
// HEADER-NEXT:   int64_t sizes[4];
// HEADER-NEXT:   int64_t strides[4];
// HEADER-NEXT: } qforge_memref_4d_i8;
// HEADER:      void _mlir_ciface_quantized_matmul(
// HEADER-NEXT:     qforge_memref_4d_i8 *arg0 /* tensor<2x5x64x64xi8> */,
// HEADER-NEXT:     qforge_memref_4d_f32 *arg1 /* tensor<2x5x1x64xf32> */,
// HEADER-NEXT:     qforge_memref_4d_f32 *arg2 /* tensor<2x5x1x64xf32> */,
// HEADER-NEXT:     qforge_memref_4d_f32 *arg3 /* tensor<1x1x5x64xf32> */,
// HEADER-NEXT:     qforge_memref_3d_f32 *result0 /* tensor<1x1x100xf32> */);
// HEADER:      /* Packs the raw parameters that _mlir_ciface_quantized_matmul takes packed (arg0, arg1, arg2) into result0..: result0 is its arg0, result1 its arg1, result2 its arg2. */
// HEADER-NEXT: void _mlir_ciface_quantized_matmul_pack_weights(
// HEADER-NEXT:     qforge_memref_3d_i8 *arg0 /* tensor<100x5x64xi8> */,
// HEADER-NEXT:     qforge_memref_3d_f32 *arg1 /* tensor<100x5x1xf32> */,
// HEADER-NEXT:     qforge_memref_3d_f32 *arg2 /* tensor<100x5x1xf32> */,
// HEADER-NEXT:     qforge_memref_4d_i8 *result0 /* tensor<2x5x64x64xi8> */,
// HEADER-NEXT:     qforge_memref_4d_f32 *result1 /* tensor<2x5x1x64xf32> */,
// HEADER-NEXT:     qforge_memref_4d_f32 *result2 /* tensor<2x5x1x64xf32> */);
