// A tensor carried through scf.for iter_args that an op in the body
// replaces (here the matmul's result through a silu, twice): bufferization
// lets the loop yield the new buffer (allow-return-allocs-from-loops; it
// failed with "Yield operand #0 is not equivalent to the corresponding iter
// bbArg"), and the kernel verifies against the reference.
// RUN: qforge-bench %s --verify --time=false 2>&1 | FileCheck %s
// CHECK: verify: {{.*}}tolerance 1e-05): PASS
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @quantized_matmul(%weights: tensor<64x2x32xi8>,
    %scales: tensor<64x2x1xf32>,
    %zero_points: tensor<64x2x1xf32>,
    %x: tensor<1x1x2x32xf32>) -> tensor<1x1x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x64xf32>
  %dequant_init = tensor.empty() : tensor<64x2x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<64x2x32xi8>, tensor<64x2x1xf32>, tensor<64x2x1xf32>)
      outs(%dequant_init : tensor<64x2x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<64x2x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x2x32xf32>, tensor<64x2x32xf32>)
      outs(%acc : tensor<1x1x64xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x64xf32>
  %lc0 = arith.constant 0 : index
  %lc1 = arith.constant 1 : index
  %lc2 = arith.constant 2 : index
  %looped = scf.for %i = %lc0 to %lc2 step %lc1 iter_args(%t = %matvec) -> (tensor<1x1x64xf32>) {
    %e0 = tensor.empty() : tensor<1x1x64xf32>
    %silu = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%t : tensor<1x1x64xf32>) outs(%e0 : tensor<1x1x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %n = arith.negf %v : f32
      %ex = math.exp %n : f32
      %one = arith.constant 1.0 : f32
      %d = arith.addf %ex, %one : f32
      %q = arith.divf %v, %d : f32
      linalg.yield %q : f32
    } -> tensor<1x1x64xf32>
    scf.yield %silu : tensor<1x1x64xf32>
  }
  return %looped : tensor<1x1x64xf32>
}
