// A batched kernel (2 activation rows, the prefill form): the unpacked decode
// strategy leaves n-D vectors that the fixed lowering cannot reduce to rank 1
// and says so -- a diagnostic and a non-zero exit, not an out-of-memory crash
// (its patterns used to rewrite each other's output without end). The
// packed strategy, whose tiles are rows x lanes, compiles it and matches
// the reference.
// RUN: %gen_kernel 32 2 32 --batch 2 > %t.mlir
// RUN: not qforge-compile %t.mlir --mcpu=sapphirerapids --emit=obj -o %t.o 2>&1 | FileCheck %s --check-prefix=UNPACKED
// UNPACKED: error: vector lowering did not converge
// UNPACKED: qforge-compile: error: lowering to the LLVM dialect failed

// RUN: qforge-bench %t.mlir --script=%transforms/decode-packed-avx512.mlir --verify --tolerance=1e-5 --time=false | FileCheck %s --check-prefix=PACKED
// PACKED: verify: {{.*}}: PASS
