// torch-mlir's f16 form at a LLaMA shape (4096 x 4096, groups of 128) with
// 128 tokens compiles with the batched strategies of both ISAs: the
// normalization's f32 fill value is a constant (it once was an extf left
// for run time, and the result's fill was vectorized whole:
// vector<524288xf32>, refused by the backend).
// RUN: %python %examples/gen_producer_kernel.py torch 4096 32 128 --batch 128 --float f16 > %t.mlir
// RUN: qforge-compile %t.mlir --mcpu=haswell --emit=obj -o %t.avx2.o 2>&1 | FileCheck %s --allow-empty
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --emit=obj -o %t.avx512.o 2>&1 | FileCheck %s --allow-empty
// CHECK-NOT: error
