// The f32 prefill's zero fills that span every block of tokens -- the
// activation sums' (blocks x groups x tokens) and a row tile's group sums'
// (blocks x tokens x rows) -- are filled one block at a time: vectorized
// whole, they grew with M x groups past the 32768 lanes LLVM takes, and
// M = 516 on K = 11008 or 14336 (a 512-token prompt on LLaMA's down
// projection) failed to compile. Here 80 tokens x 448 groups of 32 (7
// blocks of 12: 37632 lanes of sums), against the scalar reference within
// 1e-5, on the Intel and generic AVX-512 scripts (the driver's choice is
// the Intel one on this CPU), 2 threads, the 4-bit twin and AVX2; then the
// integer prefill's fills.
// RUN: %gen_kernel 32 448 32 --batch 80 > %t.many.mlir
// RUN: qforge-bench %t.many.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: qforge-bench %t.many.mlir --strategy-row=prefill-f32/avx512 --verify --tolerance=1e-5 --time=false --threads=2 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: qforge-bench %t.many.mlir --strategy-row=prefill-f32/avx2 --mcpu=haswell --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %gen_kernel 32 448 32 --batch 80 --int4 > %t.int4.mlir
// RUN: qforge-bench %t.int4.mlir --strategy-row=prefill-int4-f32/intel-12x32 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PASS
// In the IR, both fills are a 12-lane (a block's tokens) and a 12 x 32 (a
// block's tokens x a row tile) store inside loops over the blocks; no fill
// of every block remains.
// RUN: qforge-compile %t.many.mlir --strategy-row=prefill-f32/intel-12x32 --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=FILLS
// And the shape that first failed, to the LLVM dialect (no vector too long).
// RUN: %gen_kernel 4096 112 128 --batch 516 > %t.big.mlir
// RUN: qforge-compile %t.big.mlir --mcpu=sapphirerapids --emit=lowered -o /dev/null
// The integer prefill's M x G fills (the activation's per-group maximum
// and sums) a token row at a time too: vectorized whole, M = 512 with 344
// groups of 32 (K = 11008) was one block of about 46000 register
// operations, refused by the block-length bound (--max-block-ops).
// RUN: %gen_kernel 64 344 32 --batch 512 > %t.int8.mlir
// RUN: qforge-bench %t.int8.mlir --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: qforge-compile %t.int8.mlir --int8-activations --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=INT8-FILLS

// INT8-FILLS-LABEL: func.func @quantized_matmul(
// INT8-FILLS-NOT: vector<512x344x
// INT8-FILLS: scf.for {{.*}} -> (tensor<1x512x344x{{i32|f32}}>)
// INT8-FILLS-NEXT: vector.transfer_write %{{.*}} : vector<344x{{i32|f32}}>, tensor<1x512x344x{{i32|f32}}>

// PASS: verify: {{.*}}: PASS

// FILLS-LABEL: func.func @quantized_matmul(
// FILLS-NOT: vector<7x
// FILLS: scf.for %[[BLOCK:.*]] = %c0 to %c7 step %c1 iter_args({{.*}}) -> (tensor<1x7x448x12xf32>)
// FILLS-NEXT: scf.for %[[GROUP:.*]] = %c0 to %c448 step %c1 iter_args(%[[SUMS:.*]] = {{.*}}) -> (tensor<1x7x448x12xf32>)
// FILLS-NEXT: vector.transfer_write %{{.*}}, %[[SUMS]][%c0, %[[BLOCK]], %[[GROUP]], %c0] {{.*}} : vector<12xf32>, tensor<1x7x448x12xf32>
// FILLS: scf.for %[[BLOCK2:.*]] = %c0 to %c7 step %c1 iter_args(%[[ACC:.*]] = {{.*}}) -> (tensor<1x7x1x12x32xf32>)
// FILLS-NEXT: vector.transfer_write %{{.*}}, %[[ACC]][%c0, %[[BLOCK2]], %c0, %c0, %c0] {{.*}} : vector<12x32xf32>, tensor<1x7x1x12x32xf32>
