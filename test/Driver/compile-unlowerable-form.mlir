// An op the fixed lowering cannot turn into LLVM (math.erf has no LLVM
// intrinsic and no conversion here) gets a diagnostic at the op and a
// non-zero exit, not a translation failure on an unrealized cast.
// RUN: not qforge-compile %s --script=%transforms/loops.mlir -o %t.o 2>&1 | FileCheck %s

// CHECK: compile-unlowerable-form.mlir:[[# @LINE + 8]]:10: error: the fixed lowering cannot lower 'math.erf' to LLVM (docs/lowering.md lists what it handles); rewrite it in the input or the script
// CHECK: qforge-compile: error: lowering to the LLVM dialect failed (see above)

func.func @erf(%x: tensor<16xf32>) -> tensor<16xf32> {
  %init = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.erf %a : f32
    linalg.yield %e : f32
  } -> tensor<16xf32>
  return %y : tensor<16xf32>
}
