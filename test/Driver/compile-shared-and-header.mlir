// --emit=shared links a shared library exporting the C interface, and
// --header writes its declaration with the memref descriptor structs.
// RUN: %gen_kernel 16 2 128 > %t.mlir
// RUN: rm -f %t.so %t.h
// RUN: qforge-compile %t.mlir --emit=shared -o %t.so --header=%t.h
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=SYMBOLS
// RUN: FileCheck %s --check-prefix=HEADER < %t.h

// SYMBOLS: T _mlir_ciface_quantized_matmul
// SYMBOLS: T quantized_matmul

// HEADER:      #include <stdint.h>
// HEADER:      typedef struct {
// HEADER-NEXT:   int8_t *allocated;
// HEADER-NEXT:   int8_t *aligned;
// HEADER-NEXT:   int64_t offset;
// HEADER-NEXT:   int64_t sizes[3];
// HEADER-NEXT:   int64_t strides[3];
// HEADER-NEXT: } qforge_memref_3d_i8;
// HEADER:      void _mlir_ciface_quantized_matmul(
// HEADER-NEXT:     qforge_memref_3d_i8 *arg0 /* tensor<16x2x128xi8> */,
// HEADER-NEXT:     qforge_memref_3d_f32 *arg1 /* tensor<16x2x1xf32> */,
// HEADER-NEXT:     qforge_memref_3d_f32 *arg2 /* tensor<16x2x1xf32> */,
// HEADER-NEXT:     qforge_memref_4d_f32 *arg3 /* tensor<1x1x2x128xf32> */,
// HEADER-NEXT:     qforge_memref_3d_f32 *result0 /* tensor<1x1x16xf32> */);
