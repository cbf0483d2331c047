// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// pad_packs_with_zeros: poison padding becomes zero; a concrete padding
// value is left alone.
// CHECK-LABEL: func.func @pads
// CHECK-NOT: ub.poison
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: linalg.pack %{{.*}} padding_value(%[[ZERO]] : f32)
// CHECK: linalg.pack %{{.*}} padding_value(%[[ONE]] : f32)
func.func @pads(%x: tensor<12xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %poison = ub.poison : f32
  %d0 = tensor.empty() : tensor<2x8xf32>
  %p0 = linalg.pack %x padding_value(%poison : f32) inner_dims_pos = [0] inner_tiles = [8]
      into %d0 : tensor<12xf32> -> tensor<2x8xf32>
  %one = arith.constant 1.0 : f32
  %d1 = tensor.empty() : tensor<2x8xf32>
  %p1 = linalg.pack %x padding_value(%one : f32) inner_dims_pos = [0] inner_tiles = [8]
      into %d1 : tensor<12xf32> -> tensor<2x8xf32>
  return %p0, %p1 : tensor<2x8xf32>, tensor<2x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
    } : !transform.any_op
    transform.yield
  }
}

// -----

// fold_into_packs: the decode activation 1x1x32x128 tiled by [1, 128] on
// (g, k) moves no data and becomes a reshape; a pack that interleaves rows
// (tiles of 8 rows x 16) moves data and stays.
// CHECK-LABEL: func.func @activation
// CHECK-NOT: linalg.pack
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} : tensor<1x1x32x128xf32> into tensor<32x128xf32>
// CHECK: tensor.expand_shape %[[FLAT]] {{.*}} : tensor<32x128xf32> into tensor<1x1x32x1x1x128xf32>
// CHECK-LABEL: func.func @rows
// CHECK: linalg.pack %{{.*}} inner_dims_pos = [0, 1] inner_tiles = [8, 16]
func.func @activation(%x: tensor<1x1x32x128xf32>) -> tensor<1x1x32x1x1x128xf32> {
  %d = tensor.empty() : tensor<1x1x32x1x1x128xf32>
  %p = linalg.pack %x inner_dims_pos = [2, 3] inner_tiles = [1, 128]
      into %d : tensor<1x1x32x128xf32> -> tensor<1x1x32x1x1x128xf32>
  return %p : tensor<1x1x32x1x1x128xf32>
}

func.func @rows(%w: tensor<16x32xi8>) -> tensor<2x2x8x16xi8> {
  %d = tensor.empty() : tensor<2x2x8x16xi8>
  %p = linalg.pack %w inner_dims_pos = [0, 1] inner_tiles = [8, 16]
      into %d : tensor<16x32xi8> -> tensor<2x2x8x16xi8>
  return %p : tensor<2x2x8x16xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.fold_into_packs
    } : !transform.any_op
    transform.yield
  }
}
