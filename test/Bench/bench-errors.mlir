// qforge-bench refuses what it cannot do, with a message and exit 1.
// RUN: split-file %s %t
// RUN: %gen_kernel 16 2 128 > %t/kernel.mlir

// Verification that fails (a tolerance no float sum meets) exits 1 and says FAIL.
// RUN: not qforge-bench %t/kernel.mlir --verify --tolerance=1e-30 --time=false | FileCheck %s --check-prefix=TOLERANCE
// TOLERANCE: verify: max_abs_err {{.*}}, normalized {{.*}} tolerance 1e-30): FAIL

// A thread count must be a positive number.
// RUN: not qforge-bench %t/kernel.mlir --threads=0 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: qforge-bench: error: --threads takes a number from 1 to 1024, not '0'
// RUN: not qforge-bench %t/kernel.mlir --threads=two 2>&1 | FileCheck %s --check-prefix=THREADS-WORD
// THREADS-WORD: qforge-bench: error: --threads takes a number from 1 to 1024, not 'two'

// "--threads N" (with a space) is taken as well, not left to libLLVM's own
// --threads option.
// RUN: qforge-bench %t/kernel.mlir --threads 2 --time=false --json | FileCheck %s --check-prefix=THREADS-SPACE
// THREADS-SPACE: "threads":2

// Element types the bench cannot generate and compare are refused.
// RUN: not qforge-bench %t/fp8.mlir --script=%transforms/loops.mlir --time=false 2>&1 | FileCheck %s --check-prefix=FP8
// FP8: qforge-bench: error: argument #0 is not a static tensor of f16, bf16, f32, f64 or 8/16/32/64-bit integers; qforge-bench cannot generate and compare it
// f16 and bf16 are generated (uniform in [-1, 1), rounded) and compared.
// RUN: qforge-bench %t/half.mlir --script=%transforms/loops.mlir --verify --time=false 2>&1 | FileCheck %s --check-prefix=HALF
// HALF: verify: max_abs_err 0, normalized 0 {{.*}}: PASS

// Scalars cannot be generated.
// RUN: not qforge-bench %t/scalar.mlir --time=false 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: qforge-bench: error: argument #1 is not a static tensor of f16, bf16, f32, f64 or 8/16/32/64-bit integers; qforge-bench cannot generate and compare it

// The strategy refuses a group size that is not a multiple of its 16 lanes.
// RUN: %gen_kernel 16 2 100 > %t/k100.mlir
// RUN: not qforge-bench %t/k100.mlir --time=false 2>&1 | FileCheck %s --check-prefix=LANES
// LANES: error: cannot factor: the group size (100) is not a multiple of lanes ({{16|8}})
// LANES: qforge-bench: error: the transform script '{{.*}}' failed (see above)

// The bench runs what it compiles: a target with instruction-set features
// this machine lacks is refused before the kernel could stop on an illegal
// instruction (Diamond Rapids' AVX10.2 and APX, absent from the project's
// machines), and so is a host CPU given one by --mattr.
// RUN: not qforge-bench %t/kernel.mlir --mcpu=diamondrapids --time=false 2>&1 | FileCheck %s --check-prefix=NOT-HERE
// NOT-HERE: qforge-bench: error: the target (CPU 'diamondrapids') uses features this machine lacks ({{.*}}avx10.2{{.*}}): the kernel cannot run here; compile it with qforge-compile, or choose --mcpu=native
// RUN: not qforge-bench %t/kernel.mlir --mattr=+avx10.2-512 --time=false 2>&1 | FileCheck %s --check-prefix=NOT-HERE-MATTR
// NOT-HERE-MATTR: qforge-bench: error: the target (CPU '{{.+}}' with --mattr=+avx10.2-512) uses features this machine lacks ({{.*}}avx10.2{{.*}})
// An older CPU than the host runs.
// RUN: qforge-bench %t/kernel.mlir --mcpu=haswell --verify --time=false | FileCheck %s --check-prefix=OLDER
// OLDER: verify: {{.*}}: PASS

//--- half.mlir
func.func @half(%x: tensor<4xf16>, %y: tensor<4xbf16>) -> (tensor<4xf16>, tensor<4xbf16>) {
  return %x, %y : tensor<4xf16>, tensor<4xbf16>
}
//--- fp8.mlir
func.func @fp8(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  return %x : tensor<4xf8E4M3FN>
}
//--- scalar.mlir
func.func @scaled(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
