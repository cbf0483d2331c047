// qforge-normalize-dequant-contraction on f16 and bf16 kernels (the floats
// lowering of quant.matmul_rhs_group_quant emits f16; IREE's tests carry an
// f16 twin of each quantized matmul): the canonical form computes in f32 --
// the activation converted by an elementwise generic, scales and
// zero-points kept narrow and widened (arith.extf) as the dequantization
// reads them, the integers converted straight to f32 -- and rounds the
// result once, in a generic marked qforge.result_rounding
// (docs/numerics.md). Inputs: examples/gen_producer_kernel.py --float.
// RUN: %python %examples/gen_producer_kernel.py torch 8 2 4 --float f16 --name torch_f16 | qforge-opt --qforge-normalize-dequant-contraction | FileCheck %s --check-prefix=TORCH
// RUN: %python %examples/gen_producer_kernel.py iree 8 2 4 --float bf16 --name iree_bf16 | qforge-opt --qforge-normalize-dequant-contraction | FileCheck %s --check-prefix=IREE
// RUN: qforge-opt --qforge-normalize-dequant-contraction %s | FileCheck %s

// TORCH-LABEL: func.func @torch_f16(
// TORCH-SAME: %{{.+}}: tensor<8x8xi8>, %[[S:.+]]: tensor<8x2x1xf16>, %[[Z:.+]]: tensor<8x2x1xf16>, %[[X:.+]]: tensor<1x1x8xf16>) -> tensor<1x1x8xf16>
// TORCH: %[[DQ:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %[[S]], %[[Z]] : tensor<8x2x4xi8>, tensor<8x2x1xf16>, tensor<8x2x1xf16>) outs(%{{.+}} : tensor<8x2x4xf32>)
// TORCH-NEXT: ^bb0(%[[WI:.+]]: i8, %[[SI:.+]]: f16, %[[ZI:.+]]: f16, %{{.+}}: f32):
// TORCH-NEXT: %[[W32:.+]] = arith.extui %[[WI]] : i8 to i32
// TORCH-NEXT: %[[WF:.+]] = arith.uitofp %[[W32]] : i32 to f32
// TORCH-NEXT: %[[ZF:.+]] = arith.extf %[[ZI]] : f16 to f32
// TORCH-NEXT: %[[SH:.+]] = arith.subf %[[WF]], %[[ZF]] : f32
// TORCH-NEXT: %[[SF:.+]] = arith.extf %[[SI]] : f16 to f32
// TORCH-NEXT: arith.mulf %[[SH]], %[[SF]] : f32
// TORCH: %[[XF:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<1x1x2x4xf16>) outs(%{{.+}} : tensor<1x1x2x4xf32>)
// TORCH: arith.extf %{{.+}} : f16 to f32
// The f16 fill value is widened by folding, to a constant as the strategies
// expect (an extf left for run time made the batched strategies vectorize
// the result's fill whole: vector<524288xf32> for 128 tokens of 4096).
// TORCH: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// TORCH: %[[ACC:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<1x1x8xf32>)
// TORCH: %[[MM:.+]] = linalg.generic {{.*}} ins(%[[XF]], %[[DQ]] : tensor<1x1x2x4xf32>, tensor<8x2x4xf32>) outs(%[[ACC]] : tensor<1x1x8xf32>)
// TORCH: %[[R:.+]] = linalg.generic {{.*}} ins(%[[MM]] : tensor<1x1x8xf32>) outs(%{{.+}} : tensor<1x1x8xf16>) attrs = {qforge.result_rounding}
// TORCH-NEXT: ^bb0
// TORCH-NEXT: arith.truncf %{{.+}} : f32 to f16
// TORCH: return

// IREE-LABEL: func.func @iree_bf16(
// IREE-SAME: %{{.+}}: tensor<8x2x4xi8>, %{{.+}}: tensor<8x2xbf16>, %{{.+}}: tensor<8x2xbf16>, %{{.+}}: tensor<2x4xbf16>) -> tensor<8xbf16>
// IREE: arith.uitofp %{{.+}} : i32 to f32
// IREE: arith.extf %{{.+}} : bf16 to f32
// IREE: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x8xf32>)
// IREE: arith.truncf %{{.+}} : f32 to bf16
// IREE: tensor.collapse_shape %{{.+}} {{\[\[}}0, 1, 2]] : tensor<1x1x8xbf16> into tensor<8xbf16>

// Mixed precision: f16 activation and parameters summed in f32 (the
// contraction widens its operands with arith.extf); the result is f32, so
// nothing is rounded at the end.
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pg = affine_map<(d0, d1, d2) -> (d0, d1)>
#act = affine_map<(d0, d1, d2) -> (d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0)>
func.func @mixed(%w: tensor<8x2x4xi8>, %s: tensor<8x2xf16>, %x: tensor<2x4xf16>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x2x4xf16>
  %dq = linalg.generic {indexing_maps = [#id, #pg, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x2x4xi8>, tensor<8x2xf16>) outs(%e : tensor<8x2x4xf16>) {
  ^bb0(%wi: i8, %si: f16, %o: f16):
    %wf = arith.sitofp %wi : i8 to f16
    %v = arith.mulf %wf, %si : f16
    linalg.yield %v : f16
  } -> tensor<8x2x4xf16>
  %init = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<8xf32>) -> tensor<8xf32>
  %mm = linalg.generic {indexing_maps = [#act, #id, #out], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %dq : tensor<2x4xf16>, tensor<8x2x4xf16>) outs(%acc : tensor<8xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<8xf32>
  return %mm : tensor<8xf32>
}
// CHECK-LABEL: func.func @mixed(
// CHECK: arith.sitofp %{{.+}} : i8 to f32
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: %[[MMX:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x8xf32>)
// CHECK-NOT: qforge.result_rounding
// CHECK: tensor.collapse_shape %[[MMX]]
