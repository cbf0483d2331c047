// The packed prefill strategy after the script (--emit=mlir) on 13
// activation rows and 100 weight rows (neither tile divides): the kernel
// takes the pre-packed weights (2 tiles of 64 rows, zero-padded by
// @quantized_matmul_pack_weights) and packs only the activation per call,
// in 3 blocks of 5 rows (the 6-token tile balanced to M: 6 would pad 5
// rows) with two rows of zeros; the k loop carries a 5 x 64 register block
// (5 activation rows x 64 weight rows), and the result's unpack cuts the
// padding. M = 2 is one block of 2 rows: no padded rows computed.
// RUN: %gen_kernel 100 5 64 --batch 13 > %t.mlir
// RUN: qforge-compile %t.mlir --strategy-row=prefill-f32/avx512 --emit=mlir -o - | FileCheck %s
// RUN: %gen_kernel 100 5 64 --batch 2 > %t.2.mlir
// RUN: qforge-compile %t.2.mlir --strategy-row=prefill-f32/avx512 --emit=mlir -o - | FileCheck %s --check-prefix=M2

// CHECK-LABEL: func.func @quantized_matmul(
// CHECK-SAME:    tensor<2x5x64x64xi8>
// CHECK-SAME:    tensor<1x13x5x64xf32>) -> tensor<1x13x100xf32> attributes {qforge.pack_weights = @quantized_matmul_pack_weights, qforge.strategy_params = {{{[^}]*}}}}
// CHECK:         linalg.pack %{{.*}} padding_value(%{{.*}} : f32) inner_dims_pos = [1] inner_tiles = [5]
// CHECK:         scf.forall
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<1x1x1x1x5x64xf32>)
// CHECK:             vector.transfer_read {{.*}} : tensor<2x5x64x64xi8>, vector<64xi8>
// CHECK:             arith.uitofp {{.*}} : vector<64xi8> to vector<64xf32>
// CHECK:         linalg.unpack
// CHECK-LABEL: func.func @quantized_matmul_pack_weights(
// CHECK-COUNT-3: linalg.pack %arg{{[0-2]}} padding_value

// M2-LABEL: func.func @quantized_matmul(
// M2:         scf.for {{.*}} -> (tensor<1x1x5x64x2xf32>)
// M2:         scf.forall (%{{.*}}) in (2)
// M2:         scf.for {{.*}} -> (vector<1x1x1x1x2x64xf32>)

// The driver's choice by CPU, static M = 17: Intel AVX-512 cores take
// prefill-f32.mlir, 12 tokens x 32 rows balanced to two
// tiles of 9 (their conversions share the FMA ports: a weight vector must
// feed more tokens); AMD Zen keeps 6 x 64 (three tiles of 6), as does a
// dynamic M on any CPU (test/Driver/dynamic-tokens.mlir: its chunks read the
// weights packed like the 64-row decode). 4-bit weights alike (Zen: 5 x 64).
// RUN: %gen_kernel 100 5 64 --batch 17 > %t.17.mlir
// RUN: qforge-compile %t.17.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=INTEL
// RUN: qforge-compile %t.17.mlir --mcpu=znver5 --emit=mlir -o - | FileCheck %s --check-prefix=ZEN
// RUN: %gen_kernel 100 5 64 --batch 17 --int4 > %t.17-int4.mlir
// RUN: qforge-compile %t.17-int4.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=INTEL
// RUN: qforge-compile %t.17-int4.mlir --mcpu=znver5 --emit=mlir -o - | FileCheck %s --check-prefix=ZEN-INT4
// INTEL: linalg.unpack {{.*}} inner_dims_pos = [1, 2] inner_tiles = [9, 32]
// ZEN: linalg.unpack {{.*}} inner_dims_pos = [1, 2] inner_tiles = [6, 64]
// ZEN-INT4: linalg.unpack {{.*}} inner_dims_pos = [1, 2] inner_tiles = [5, 64]
// Below 6 tokens Intel keeps 64 rows (M = 4: one tile of 4 x 64; M = 5:
// 5 x 64), from 6 on it takes 32 (M = 6: 6 x 32), where Zen keeps 64.
// RUN: %gen_kernel 100 5 64 --batch 4 > %t.4.mlir
// RUN: qforge-compile %t.4.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=INTEL-M4
// INTEL-M4: linalg.unpack {{.*}} inner_dims_pos = [1, 2] inner_tiles = [4, 64]
// RUN: %gen_kernel 100 5 64 --batch 5 > %t.5.mlir
// RUN: qforge-compile %t.5.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=INTEL-M5
// INTEL-M5: linalg.unpack {{.*}} inner_dims_pos = [1, 2] inner_tiles = [5, 64]
// RUN: %gen_kernel 100 5 64 --batch 6 > %t.6.mlir
// RUN: qforge-compile %t.6.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=INTEL-M6
// RUN: qforge-compile %t.6.mlir --mcpu=znver4 --emit=mlir -o - | FileCheck %s --check-prefix=ZEN-M6
// INTEL-M6: linalg.unpack {{.*}} inner_dims_pos = [1, 2] inner_tiles = [6, 32]
// ZEN-M6: linalg.unpack {{.*}} inner_dims_pos = [1, 2] inner_tiles = [6, 64]
