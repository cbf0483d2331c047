// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// The pattern declines, with a remark, where it cannot show the packed
// dequant's padded lanes are harmless. Here the pack pads rows (12 in tiles
// of 8) and the dequant divides by the scale: a zero-padded scale would make
// the padded lanes infinite.
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @divides(%w: tensor<12x2x8xi8>, %s: tensor<12x2x1xf32>) -> tensor<2x2x1x8x1x8xf32> {
  %poison = ub.poison : f32
  %dq_init = tensor.empty() : tensor<12x2x8xf32>
  // expected-remark @below {{the packed dequant would pad dim 0, and its body holds an op that may turn zero padding into a non-finite value; the pack is not moved}}
  %dq = linalg.generic {indexing_maps = [#identity, #per_group, #identity],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<12x2x8xi8>, tensor<12x2x1xf32>) outs(%dq_init : tensor<12x2x8xf32>) {
  ^bb0(%q: i8, %scale: f32, %out: f32):
    %f = arith.sitofp %q : i8 to f32
    %scaled = arith.divf %f, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<12x2x8xf32>
  %dest = tensor.empty() : tensor<2x2x1x8x1x8xf32>
  %packed = linalg.pack %dq padding_value(%poison : f32) inner_dims_pos = [0, 1, 2] inner_tiles = [8, 1, 8]
      into %dest : tensor<12x2x8xf32> -> tensor<2x2x1x8x1x8xf32>
  return %packed : tensor<2x2x1x8x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.bubble_pack_through_dequant
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The pack pads k (12 in tiles of 8) with zero and its result is returned:
// no contraction multiplies the padded lanes by zero, and the dequant of a
// zero weight is -z * s, not zero.
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @visible_padding(%w: tensor<8x2x12xi8>, %s: tensor<8x2x1xf32>, %z: tensor<8x2x1xf32>)
    -> tensor<1x2x2x8x1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %dq_init = tensor.empty() : tensor<8x2x12xf32>
  %dq = linalg.generic {indexing_maps = [#identity, #per_group, #per_group, #identity],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %z : tensor<8x2x12xi8>, tensor<8x2x1xf32>, tensor<8x2x1xf32>)
      outs(%dq_init : tensor<8x2x12xf32>) {
  ^bb0(%q: i8, %scale: f32, %zp: f32, %out: f32):
    %f = arith.uitofp %q : i8 to f32
    %shifted = arith.subf %f, %zp : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x2x12xf32>
  %dest = tensor.empty() : tensor<1x2x2x8x1x8xf32>
  // expected-remark @below {{the pack pads dim 2 with zero, but the dequant of zero-padded inputs is not provably zero there; the pack is not moved}}
  %packed = linalg.pack %dq padding_value(%zero : f32) inner_dims_pos = [0, 1, 2] inner_tiles = [8, 1, 8]
      into %dest : tensor<8x2x12xf32> -> tensor<1x2x2x8x1x8xf32>
  return %packed : tensor<1x2x2x8x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.bubble_pack_through_dequant
    } : !transform.any_op
    transform.yield
  }
}
