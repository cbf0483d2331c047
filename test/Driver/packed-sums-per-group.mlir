// The packed f32 decode strategies compute the activation's group sums
// xs[g] = sum_k x[g, k] one group at a time, in a loop: vectorized whole
// they were one G x K vector, and with groups of 32 at K = 14336 (G = 448,
// llama.cpp's block size on LLaMA's down projection) LLVM took 20-30 s over
// its shuffles -- the compile guard's limit (found by the kernel fuzzer:
// N = 17, G = 512, groups of 17). Checked on the IR after the script: the
// sums read a vector<32xf32> per group inside an scf.for over the groups,
// never the whole vector<448x32xf32>.
// RUN: %gen_kernel 64 448 32 > %t.mlir
// RUN: qforge-compile %t.mlir --strategy-row=decode-packed-f32/avx2 --emit=mlir | FileCheck %s
// RUN: qforge-compile %t.mlir --strategy-row=decode-packed-f32/avx512 --emit=mlir | FileCheck %s
// CHECK-LABEL: func.func @quantized_matmul(
// CHECK-NOT: vector<448x32xf32>
// CHECK: scf.for %[[G:.*]] = %{{.*}} to %{{.*}} step
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}, %[[G]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<1x1x448x32xf32>, vector<32xf32>
// CHECK: vector.reduction <add>, %{{.*}} : vector<32xf32> into f32
// CHECK-NOT: vector<448x32xf32>
// CHECK-LABEL: func.func @quantized_matmul_pack_weights(

// And the kernel verifies against the reference on this machine's strategy.
// REQUIRES: avx2
// RUN: qforge-bench %t.mlir --packed-weights --verify --time=false | FileCheck %s --check-prefix=VERIFY
// VERIFY: verify: {{.*}}: PASS
