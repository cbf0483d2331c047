// The decode strategy, stopped after the script (--emit=mlir): the dequant
// is fused into the row loop (an scf.forall, for threads) across the
// transposed map, one group per iteration with a 16-lane vector accumulator
// carried across groups, and no NxGxK f32 tensor is left. 4 groups are one
// block of groups (at most 48): no block loop around the rows.
// RUN: %gen_kernel 64 4 128 > %t.mlir
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s

// CHECK-LABEL: func.func @quantized_matmul
// CHECK-NOT:     tensor<64x4x128xf32>
// The rows' 16-lane accumulators start at zero, a row per iteration.
// CHECK:         %[[ZEROED:.+]] = scf.forall (%{{.+}}) in (64) shared_outs({{.*}}) -> (tensor<1x1x64x16xf32>)
// CHECK:           vector.transfer_write %{{.+}}, %{{.+}} : vector<16xf32>, tensor<1x1x1x16xf32>
// One row per iteration of the parallel loop over the 64 rows ...
// CHECK:         %[[ACCS:.+]] = scf.forall (%[[ROW:.+]]) in (64) shared_outs(%{{.+}} = %[[ZEROED]]) -> (tensor<1x1x64x16xf32>)
// ... one group per iteration, the 16-lane accumulator carried as a vector.
// CHECK:           %[[ACC:.+]] = scf.for %[[GROUP:.+]] = %c0 to %c4 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (vector<1x1x1x16xf32>)
// The weights of this row and group, 16 at a time, converted in the loop.
// CHECK:             %[[X:.+]] = vector.transfer_read %{{.+}}[%c0, %c0, %[[GROUP]], %c0, %c0]{{.*}} : tensor<1x1x4x8x16xf32>, vector<16xf32>
// CHECK:             %[[W:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %[[GROUP]], %c0, %c0]{{.*}} : tensor<64x4x8x16xi8>, vector<16xi8>
// CHECK:             %[[WF:.+]] = arith.uitofp %[[W]] : vector<16xi8> to vector<16xf32>
// CHECK:             %[[P:.+]] = arith.mulf %[[X]], %[[WF]] : vector<16xf32>
// CHECK:             arith.addf %[[P]], %{{.+}} : vector<16xf32>
// CHECK:             scf.yield %{{.+}} : vector<1x1x1x16xf32>
// CHECK:         } {qforge.weight_rows}
// One horizontal sum per row, allowed to reassociate.
// CHECK:         scf.forall (%[[SUMROW:.+]]) in (64) shared_outs({{.*}}) -> (tensor<1x1x64xf32>)
// CHECK:           %[[LANES:.+]] = vector.transfer_read %[[ACCS]][%c0, %c0, %[[SUMROW]], %c0]{{.*}} : tensor<1x1x64x16xf32>, vector<16xf32>
// CHECK:           vector.reduction <add>, %[[LANES]], %{{.+}} fastmath<reassoc> : vector<16xf32> into f32
// CHECK-NOT:     tensor<64x4x128xf32>
// CHECK-NOT:     vector.contract
