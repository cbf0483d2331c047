// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// transform.apply_patterns.qforge.bubble_pack_through_dequant on the seed
// kernel's form (4096 rows -> 64 here, 4 groups of 16): the contraction's
// weight operand packed by (n, g, k) = (32, 1, 16). The pack moves to the
// int8 weights, the scales and the zero-points; the broadcast unit dim of
// the scales keeps its place, tiled by 1, read through 0 in both parts.

// CHECK-DAG: #[[IDENTITY:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-DAG: #[[PER_GROUP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, 0, d3, d4, 0)>
// CHECK-LABEL: func.func @seed_form
// CHECK-SAME: (%[[W:.*]]: tensor<64x4x16xi8>, %[[S:.*]]: tensor<64x4x1xf32>, %[[Z:.*]]: tensor<64x4x1xf32>
// CHECK-NOT: ub.poison
// CHECK-DAG: %[[PW:.*]] = linalg.pack %[[W]] inner_dims_pos = [0, 1, 2] inner_tiles = [32, 1, 16] {{.*}} : tensor<64x4x16xi8> -> tensor<2x4x1x32x1x16xi8>
// CHECK-DAG: %[[PS:.*]] = linalg.pack %[[S]] inner_dims_pos = [0, 1, 2] inner_tiles = [32, 1, 1] {{.*}} : tensor<64x4x1xf32> -> tensor<2x4x1x32x1x1xf32>
// CHECK-DAG: %[[PZ:.*]] = linalg.pack %[[Z]] inner_dims_pos = [0, 1, 2] inner_tiles = [32, 1, 1] {{.*}} : tensor<64x4x1xf32> -> tensor<2x4x1x32x1x1xf32>
// CHECK: %[[DQ:.*]] = linalg.generic {indexing_maps = [#[[IDENTITY]], #[[PER_GROUP]], #[[PER_GROUP]], #[[IDENTITY]]]
// CHECK-SAME: ins(%[[PW]], %[[PS]], %[[PZ]] :
// CHECK: } -> tensor<2x4x1x32x1x16xf32>
// The f32 dequantized weights are never materialized unpacked.
// CHECK-NOT: tensor<64x4x16xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[DQ]] :
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @seed_form(%w: tensor<64x4x16xi8>, %s: tensor<64x4x1xf32>, %z: tensor<64x4x1xf32>,
                     %x: tensor<1x1x4x16xf32>) -> tensor<1x1x64xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1x1x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
  %dq_init = tensor.empty() : tensor<64x4x16xf32>
  %dq = linalg.generic {indexing_maps = [#identity, #per_group, #per_group, #identity],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %z : tensor<64x4x16xi8>, tensor<64x4x1xf32>, tensor<64x4x1xf32>)
      outs(%dq_init : tensor<64x4x16xf32>) {
  ^bb0(%q: i8, %scale: f32, %zp: f32, %out: f32):
    %f = arith.uitofp %q : i8 to f32
    %shifted = arith.subf %f, %zp : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<64x4x16xf32>
  %mv = linalg.generic {indexing_maps = [#activation, #weights, #result],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dq : tensor<1x1x4x16xf32>, tensor<64x4x16xf32>) outs(%acc : tensor<1x1x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %sum = arith.addf %p, %c : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x64xf32>
  return %mv : tensor<1x1x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 32, 1, 16]
      : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
      transform.apply_patterns.qforge.bubble_pack_through_dequant
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Any order of tiled dims: outer dims permuted (g, n, k) and inner tiles in
// the order (k, n). The scale follows the same permutation; its broadcast
// dim k is tiled by 1 and read through 0 in both parts.

// CHECK-DAG: #[[W_MAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[S_MAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, 0, d4)>
// CHECK-LABEL: func.func @permuted
// CHECK-SAME: (%[[W:.*]]: tensor<8x2x16xi4>, %[[S:.*]]: tensor<8x2x1xf32>)
// CHECK-DAG: %[[PW:.*]] = linalg.pack %[[W]] outer_dims_perm = [1, 0, 2] inner_dims_pos = [2, 0] inner_tiles = [8, 4] {{.*}} : tensor<8x2x16xi4> -> tensor<2x2x2x8x4xi4>
// CHECK-DAG: %[[PS:.*]] = linalg.pack %[[S]] outer_dims_perm = [1, 0, 2] inner_dims_pos = [2, 0] inner_tiles = [1, 4] {{.*}} : tensor<8x2x1xf32> -> tensor<2x2x1x1x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[W_MAP]], #[[S_MAP]], #[[W_MAP]]]
// CHECK-SAME: ins(%[[PW]], %[[PS]] :
// CHECK: } -> tensor<2x2x2x8x4xf32>
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @permuted(%w: tensor<8x2x16xi4>, %s: tensor<8x2x1xf32>) -> tensor<2x2x2x8x4xf32> {
  %dq_init = tensor.empty() : tensor<8x2x16xf32>
  %dq = linalg.generic {indexing_maps = [#identity, #per_group, #identity],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x2x16xi4>, tensor<8x2x1xf32>) outs(%dq_init : tensor<8x2x16xf32>) {
  ^bb0(%q: i4, %scale: f32, %out: f32):
    %f = arith.sitofp %q : i4 to f32
    %scaled = arith.mulf %f, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x2x16xf32>
  %dest = tensor.empty() : tensor<2x2x2x8x4xf32>
  %packed = linalg.pack %dq outer_dims_perm = [1, 0, 2] inner_dims_pos = [2, 0] inner_tiles = [8, 4]
      into %dest : tensor<8x2x16xf32> -> tensor<2x2x2x8x4xf32>
  return %packed : tensor<2x2x2x8x4xf32>
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
