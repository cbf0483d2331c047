// The decode strategy on 86 groups (the LLaMA-7B down-projection's K =
// 11008 = 86 x 128; here 64 rows): a row's f32 activation is 44 KiB, too
// much to stay in L1 next to the weight stream, so the groups run in two
// blocks of 43 (transform.qforge.dividing_tile_size, at most 6144 activation
// elements: 48 groups of 128) around the
// parallel row loop, the rows' 16-lane accumulators carried from one block
// to the next; inside a block, each row reads its 43 groups, and the
// activation at the block's groups.
// RUN: %gen_kernel 64 86 128 > %t.mlir
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s

// CHECK-DAG:   #[[GROUP_IN_BLOCK:.+]] = affine_map<()[s0, s1] -> (s0 + s1)>
// CHECK-LABEL: func.func @quantized_matmul
// CHECK:         %[[ZEROED:.+]] = scf.forall (%{{.+}}) in (64) shared_outs({{.*}}) -> (tensor<1x1x64x16xf32>)
// CHECK:         %[[ACCS:.+]] = scf.for %[[BLOCK:.+]] = %c0 to %c86 step %c43 iter_args(%[[CARRIED:.+]] = %[[ZEROED]]) -> (tensor<1x1x64x16xf32>)
// CHECK:           scf.forall (%[[ROW:.+]]) in (64) shared_outs(%{{.+}} = %[[CARRIED]]) -> (tensor<1x1x64x16xf32>)
// CHECK:             scf.for %[[G:.+]] = %c0 to %c43 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (vector<1x1x1x16xf32>)
// CHECK:               %[[GROUP:.+]] = affine.apply #[[GROUP_IN_BLOCK]]()[%[[BLOCK]], %[[G]]]
// CHECK:               vector.transfer_read %{{.+}}[%c0, %c0, %[[GROUP]], %c0, %c0]{{.*}} : tensor<1x1x86x8x16xf32>, vector<16xf32>
// CHECK:               vector.transfer_read %{{.+}}[%[[ROW]], %[[GROUP]], %c0, %c0]{{.*}} : tensor<64x86x8x16xi8>, vector<16xi8>
// CHECK:           } {qforge.weight_rows}
// CHECK:         scf.forall (%[[SUMROW:.+]]) in (64) shared_outs({{.*}}) -> (tensor<1x1x64xf32>)
// CHECK:           vector.transfer_read %[[ACCS]][%c0, %c0, %[[SUMROW]], %c0]{{.*}} : tensor<1x1x64x16xf32>, vector<16xf32>
// CHECK:           vector.reduction <add>

// Blocks hold activation elements, not groups: 64 groups of 64 (4096
// elements) are one block (counted in groups, two blocks of 32 read each
// row as two pieces, at half the read rate), 172 groups of 64 (K = 11008)
// two blocks of 86, the bytes of 43 x 128.
// RUN: %gen_kernel 64 64 64 > %t.g64.mlir
// RUN: qforge-compile %t.g64.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=ONE-BLOCK
// ONE-BLOCK-LABEL: func.func @quantized_matmul
// ONE-BLOCK-NOT:     scf.for %{{.+}} = %c0 to %c64 step %c32
// ONE-BLOCK:         scf.forall (%{{.+}}) in (64) shared_outs({{.*}}) -> (tensor<1x1x64x16xf32>)
// ONE-BLOCK:           scf.for %{{.+}} = %c0 to %c64 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (vector<1x1x1x16xf32>)
// ONE-BLOCK:         } {qforge.weight_rows}
// RUN: %gen_kernel 64 172 64 > %t.g172.mlir
// RUN: qforge-compile %t.g172.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=TWO-BLOCKS
// TWO-BLOCKS: scf.for %{{.+}} = %c0 to %c172 step %c86 iter_args(%{{.+}} = %{{.+}}) -> (tensor<1x1x64x16xf32>)
