// A constant zero-point with one group per row (G = 1) on the packed
// strategies: the splat zero-point is packed per call (93 rows into 96
// lanes), and the masked read of that splat used to send the vector
// lowering into an endless unrolling (stopped only by --compile-timeout).
// The read now folds to the constant it reads before bufferization.
// REQUIRES: avx2
// RUN: %python %examples/gen_producer_kernel.py torch 93 1 256 --zero-point const > %t.mlir
// RUN: qforge-bench %t.mlir --packed-weights --verify --time=false --compile-timeout=20 | FileCheck %s
// CHECK: verify: {{.*}}: PASS
// RUN: qforge-compile %t.mlir --packed-weights --mcpu=sapphirerapids --compile-timeout=20 --emit=obj -o %t.o
// RUN: qforge-compile %t.mlir --packed-weights --mcpu=haswell --compile-timeout=20 --emit=lowered -o - | FileCheck %s --check-prefix=LOWERED
// The zero-points are a constant of the packed rows (8.0, and 0.0 in the 3
// padded lanes of the last 16-row tile), not a read of a global.
// LOWERED-NOT: llvm.mlir.global
// LOWERED: llvm.mlir.constant(dense<[8.000000e+00, {{.*}}, 8.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : vector<16xf32>)

// The packed int8 strategy with several groups: the packed zero-points are
// that constant transposed into the weights' layout (100 rows into 4 tiles
// of 32, 4 groups). The transpose of the constant folds too: unfolded, the
// vector lowering moved its 448 lanes (7 tiles of 16 then) one at a time (> 60 s, stopped by the
// compile guard).
// RUN: %python %examples/gen_producer_kernel.py iree 100 4 256 --zero-point const > %t.g4.mlir
// RUN: qforge-bench %t.g4.mlir --packed-weights --int8-activations --verify --time=false --compile-timeout=20 | FileCheck %s
// RUN: qforge-compile %t.g4.mlir --packed-weights --int8-activations --mcpu=sapphirerapids --compile-timeout=20 --emit=lowered -o - | FileCheck %s --check-prefix=INT8-LOWERED
// INT8-LOWERED:     llvm.mlir.constant(dense<"0x{{[0-9A-F]+}}"> : vector<512xf32>)
// The integer prefill strategy packs the constant alike.
// RUN: %python %examples/gen_producer_kernel.py iree 24 4 256 --zero-point const --batch 9 > %t.prefill.mlir
// RUN: qforge-bench %t.prefill.mlir --int8-activations --verify --time=false --compile-timeout=20 | FileCheck %s
