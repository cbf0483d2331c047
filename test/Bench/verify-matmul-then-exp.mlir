// A matmul followed by exp(y / 12) (outputs up to e^80): exp turns the few
// ulps by which a correct kernel's sums differ from the reference's into a
// relative error of their size (y near 980: 1.5e-5 on Zen 5, over the f32
// tolerance). Verified matmul by matmul (Bench/SiteReplay.h), the matmul's
// result is judged against its own magnitude and the exp then starts from
// the kernel's values in both: PASS at the f32 tolerance; the distance of
// the plain reference is reported, not judged.
// RUN: qforge-bench %s --verify --time=false 2>&1 | FileCheck %s
// CHECK: verifying matmul by matmul: the reference takes the activations of 0 int8-activated matmul(s), rounded as the kernel rounds them, and the results of 1 from the kernel
// CHECK: verify: the results of 1 matmul call(s): normalized {{.*}} from the reference's (each against its own magnitude; tolerance 1e-05)
// CHECK: verify: the plain reference (nothing from the kernel): normalized {{.*}} (not judged)
// CHECK: verify: max_abs_err {{.*}}, tolerance 1e-05): PASS

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
#elementwise = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @matmul_exp(%weights: tensor<64x2x32xi8>,
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
  %exp_init = tensor.empty() : tensor<1x1x64xf32>
  %twelfth = arith.constant 0.0833333358 : f32
  %exp = linalg.generic {
      indexing_maps = [#elementwise, #elementwise],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%matvec : tensor<1x1x64xf32>) outs(%exp_init : tensor<1x1x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %scaled = arith.mulf %in, %twelfth : f32
    %e = math.exp %scaled : f32
    linalg.yield %e : f32
  } -> tensor<1x1x64xf32>
  return %exp : tensor<1x1x64xf32>
}
