// qforge-reduce: upstream's mlir-reduce with qforge's dialects and passes.
// A kernel that qforge refuses (K-major weights) shrinks while a script
// says the refusal still holds: the dead bias add goes, the refused pair
// stays (README, "Reducing a failure").
// RUN: split-file %s %t
// RUN: chmod +x %t/interesting.sh
// RUN: env PATH=%qforge_tools_dir:$PATH qforge-reduce %t/input.mlir --reduction-tree='traversal-mode=0 test=%t/interesting.sh' -o %t/reduced.mlir
// RUN: FileCheck %s < %t/reduced.mlir
// RUN: env PATH=%qforge_tools_dir:$PATH not %t/interesting.sh %t/reduced.mlir
// CHECK-LABEL: func.func @f(
// CHECK: linalg.generic
// CHECK: arith.uitofp
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
// CHECK: return

//--- interesting.sh
#!/bin/sh
# Interesting (status 1) while qforge-compile still refuses the K-major weights.
qforge-compile "$1" --emit=mlir -o /dev/null 2>&1 | grep -q "is stored as (group (G), element (K), row (N))" && exit 1
exit 0
//--- input.mlir
func.func @f(%w: tensor<2x4x8xi8>, %s: tensor<8x2xf32>, %x: tensor<2x4xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x8xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<2x4x8xi8>, tensor<8x2xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%wi: i8, %si: f32, %o: f32):
    %wf = arith.uitofp %wi : i8 to f32
    %v = arith.mulf %wf, %si : f32
    linalg.yield %v : f32
  } -> tensor<2x4x8xf32>
  %init = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<8xf32>) -> tensor<8xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %dq : tensor<2x4xf32>, tensor<2x4x8xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %p = arith.mulf %a, %bb : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%mm, %b : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %r = arith.addf %u, %v : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %mm : tensor<8xf32>
}
