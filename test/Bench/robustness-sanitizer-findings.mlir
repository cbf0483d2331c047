// Findings of the sanitizer build (docs/reliability.md, scripts/sanitize.sh):
// inputs on which a release build happened to work but read memory it
// should not. Under ASan + UBSan (QFORGE_SANITIZE) each failed; in every
// build each must compile and verify.
// REQUIRES: avx2
// RUN: mkdir -p %t

// An f16 kernel with a constant zero-point: the lowering meets transfers of
// vector<1x1x1xf32>, a vector of unit dims only, on which MLIR 22's
// vector::isContiguousSlice (called by the flattening patterns) compared
// from one past an empty shape (ASan: negative-size-param in memcmp). The
// flattening is now tried only where that check is defined.
// RUN: %python %examples/gen_producer_kernel.py iree 127 4 128 --zero-point const --scale-form mul-sub --float f16 > %t/f16-const-zp.mlir
// RUN: qforge-compile %t/f16-const-zp.mlir --mcpu=znver3 --emit=lowered | FileCheck %s --check-prefix=UNIT-VECTOR
// RUN: qforge-compile %t/f16-const-zp.mlir --mcpu=sapphirerapids --emit=lowered | FileCheck %s --check-prefix=UNIT-VECTOR
// UNIT-VECTOR: llvm.func @quantized_matmul(
// UNIT-VECTOR-NOT: vector.transfer_read
// RUN: qforge-bench %t/f16-const-zp.mlir --verify --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: verify: {{.*}}: PASS
