// The 4-bit integer prefill's activation pack reads a block of 8 tokens,
// each 4 k steps of byte pairs: vector<8x1x16x2xi8> from rows K bytes
// apart, 32 contiguous bytes per token. The fixed lowering reads each
// token's 32 bytes as one row (Rewrites/FlattenContiguousVectors.h), not
// 16 2-byte loads put together with shuffles: 8 loads of 32 bytes per
// block and no 2-byte load (before: 128 of them, 0.4 s of LLVM's time per
// kernel on Zen 1). The block is then a transpose of 4-byte words
// (Patterns/TransposeAsShuffle.cpp): each token's row shuffled once (its
// byte pairs split by nibble), 24 two-source shuffles of 8 words (3 rounds
// of 8), the rows joined and stored as one 256-byte block -- not one
// shuffle of 256 bytes (0.3 s of LLVM's time per kernel on Zen 1), and not
// the block put together 4 bytes at a time.
//
// RUN: %gen_kernel 64 2 128 --int4 --batch 8 > %t.mlir
// RUN: qforge-compile %t.mlir --mcpu=znver3 --int8-activations --emit=lowered -o - | FileCheck %s
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --int8-activations --emit=lowered -o - | FileCheck %s
//
// CHECK-LABEL: llvm.func @quantized_matmul(
// CHECK-NOT: -> vector<2xi8>
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr -> vector<32xi8>
// CHECK-NOT: -> vector<2xi8>
// CHECK-COUNT-8: llvm.shufflevector {{.*}} : vector<32xi8>
// CHECK-COUNT-24: llvm.shufflevector {{.*}} : vector<8xi32>
// CHECK-NOT: vector<4xi8>
// CHECK-NOT: llvm.shufflevector {{.*}} : vector<256xi8>
// CHECK: llvm.store {{.*}} : vector<256xi8>, !llvm.ptr
// CHECK-NOT: -> vector<2xi8>
// CHECK-LABEL: llvm.func @_mlir_ciface_quantized_matmul(
