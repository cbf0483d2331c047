// Every producer's form (examples/gen_producer_kernel.py, docs/forms.md)
// compiles with the shipped strategies and matches the scalar reference
// (random inputs; normalized error tolerance 1e-5 for f32 activations, 1e-2
// for int8, docs/numerics.md). An odd N (37) and 3 groups of 64.
// REQUIRES: avx512vnni

// IREE's global-opt form: the default strategy, packed weights, and the
// integer strategy (which crashed on a null map before normalization).
// RUN: %python %examples/gen_producer_kernel.py iree 37 3 64 > %t.iree.mlir
// RUN: qforge-bench %t.iree.mlir --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: qforge-bench %t.iree.mlir --packed-weights --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: qforge-bench %t.iree.mlir --int8-activations --verify --tolerance=1e-2 --time=false | FileCheck %s
// RUN: qforge-bench %t.iree.mlir --packed-weights --int8-activations --verify --tolerance=1e-2 --time=false | FileCheck %s
// With 4-bit weights (IREE's test uses i4): the packed int4 strategies.
// RUN: %python %examples/gen_producer_kernel.py iree 37 3 64 --int4 > %t.iree4.mlir
// RUN: qforge-bench %t.iree4.mlir --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: qforge-bench %t.iree4.mlir --int8-activations --verify --tolerance=1e-2 --time=false | FileCheck %s

// torch-mlir's form (expand_shape on weights and activation, cast result).
// RUN: %python %examples/gen_producer_kernel.py torch 37 3 64 > %t.torch.mlir
// RUN: qforge-bench %t.torch.mlir --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: qforge-bench %t.torch.mlir --packed-weights --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: qforge-bench %t.torch.mlir --int8-activations --verify --tolerance=1e-2 --time=false | FileCheck %s

// Batched: torch-mlir's 1xMxK and IREE's MxGxK with M = 16; without flags
// the f32 prefill strategy, with --int8-activations the integer one.
// RUN: %python %examples/gen_producer_kernel.py torch 37 3 64 --batch 16 > %t.torch16.mlir
// RUN: qforge-bench %t.torch16.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PREFILL
// RUN: qforge-bench %t.torch16.mlir --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s --check-prefix=PREFILL-INT8
// RUN: %python %examples/gen_producer_kernel.py iree 37 3 64 --batch 16 > %t.iree16.mlir
// RUN: qforge-bench %t.iree16.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PREFILL
// RUN: qforge-bench %t.iree16.mlir --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s --check-prefix=PREFILL-INT8
// RUN: %python %examples/gen_producer_kernel.py iree 37 3 64 --batch 16 --int4 > %t.iree16i4.mlir
// RUN: qforge-bench %t.iree16i4.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PREFILL-INT4
// Symmetric weights (no zero-point, so no activation sums) in the f32
// prefill: a hole the random-shape sweep found (docs/reliability.md).
// RUN: %python %examples/gen_producer_kernel.py iree 37 3 64 --batch 16 --zero-point none > %t.sym16.mlir
// RUN: qforge-bench %t.sym16.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PREFILL

// Parameter layouts and dequantization bodies.
// G x N parameters with N x G > 32768 (once transposed whole per call, a
// vector too long for LLVM): read in place through (d1, d0, 0).
// RUN: %python %examples/gen_producer_kernel.py iree 1100 32 64 --params gn > %t.gnbig.mlir
// RUN: qforge-bench %t.gnbig.mlir --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: qforge-bench %t.gnbig.mlir --packed-weights --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: %python %examples/gen_producer_kernel.py iree 37 3 64 --params gn > %t.gn.mlir
// RUN: qforge-bench %t.gn.mlir --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: qforge-bench %t.gn.mlir --packed-weights --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: %python %examples/gen_producer_kernel.py iree 37 3 64 --zero-point const --int4 --no-i32 > %t.q40.mlir
// RUN: qforge-bench %t.q40.mlir --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: %python %examples/gen_producer_kernel.py iree 37 3 64 --scale-form distributed --signed > %t.dist.mlir
// RUN: qforge-bench %t.dist.mlir --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: %python %examples/gen_producer_kernel.py torch 37 3 64 --zero-point none --scale-form mul-sub --no-i32 > %t.sym.mlir
// RUN: qforge-bench %t.sym.mlir --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: qforge-bench %t.sym.mlir --int8-activations --verify --tolerance=1e-2 --time=false | FileCheck %s

// CHECK: verify: {{.*}}: PASS
// PREFILL: compiling @quantized_matmul with {{.*}}prefill-f32.mlir
// PREFILL: verify: {{.*}}: PASS
// PREFILL-INT8: compiling @quantized_matmul with {{.*}}prefill-int8.mlir
// PREFILL-INT8: verify: {{.*}}: PASS
// PREFILL-INT4: compiling @quantized_matmul with {{.*}}prefill-int4-f32.mlir
// PREFILL-INT4: verify: {{.*}}: PASS
