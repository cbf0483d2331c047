// RUN: qforge-opt %s --transform-interpreter --split-input-file --verify-diagnostics | FileCheck %s

// transform.qforge.split_parameter_packing: the packs of the weights and the
// scales (inputs of the packed dequant, read from arguments) move to
// @f_pack_weights; @f takes the packed tensors at the same positions. The
// activation's pack stays: it is not an input of the dequant.

// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[W:.*]]: tensor<2x4x1x32x1x16xi8>, %[[S:.*]]: tensor<2x4x1x32x1x1xf32>, %[[X:.*]]: tensor<4x16xf32>)
// CHECK-SAME: attributes {qforge.pack_weights = @f_pack_weights}
// No pack of a parameter is left in the per-call function.
// CHECK-NOT: linalg.pack %[[W]]
// CHECK-NOT: linalg.pack %[[S]]
// CHECK: linalg.pack %[[X]]
// CHECK: linalg.generic {{.*}} ins(%[[W]], %[[S]] :
// CHECK-LABEL: func.func @f_pack_weights(
// CHECK-SAME: %[[RW:.*]]: tensor<64x4x16xi8>, %[[RS:.*]]: tensor<64x4x1xf32>) -> (tensor<2x4x1x32x1x16xi8>, tensor<2x4x1x32x1x1xf32>)
// CHECK-SAME: attributes {qforge.prepacked_arguments = array<i64: 0, 1>}
// CHECK-DAG: %[[PW:.*]] = linalg.pack %[[RW]] inner_dims_pos = [0, 1, 2] inner_tiles = [32, 1, 16]
// CHECK-DAG: %[[PS:.*]] = linalg.pack %[[RS]] inner_dims_pos = [0, 1, 2] inner_tiles = [32, 1, 1]
// CHECK: return %[[PW]], %[[PS]]
#identity = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
#per_group = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, 0, d3, d4, 0)>
func.func @f(%w: tensor<64x4x16xi8>, %s: tensor<64x4x1xf32>, %x: tensor<4x16xf32>)
    -> (tensor<2x4x1x32x1x16xf32>, tensor<4x1x1x16xf32>) {
  %wd = tensor.empty() : tensor<2x4x1x32x1x16xi8>
  %pw = linalg.pack %w inner_dims_pos = [0, 1, 2] inner_tiles = [32, 1, 16] into %wd
      : tensor<64x4x16xi8> -> tensor<2x4x1x32x1x16xi8>
  %sd = tensor.empty() : tensor<2x4x1x32x1x1xf32>
  %ps = linalg.pack %s inner_dims_pos = [0, 1, 2] inner_tiles = [32, 1, 1] into %sd
      : tensor<64x4x1xf32> -> tensor<2x4x1x32x1x1xf32>
  %xd = tensor.empty() : tensor<4x1x1x16xf32>
  %px = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [1, 16] into %xd
      : tensor<4x16xf32> -> tensor<4x1x1x16xf32>
  %init = tensor.empty() : tensor<2x4x1x32x1x16xf32>
  %dq = linalg.generic {indexing_maps = [#identity, #per_group, #identity],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%pw, %ps : tensor<2x4x1x32x1x16xi8>, tensor<2x4x1x32x1x1xf32>)
      outs(%init : tensor<2x4x1x32x1x16xf32>) {
  ^bb0(%q: i8, %scale: f32, %out: f32):
    %f = arith.sitofp %q : i8 to f32
    %scaled = arith.mulf %f, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<2x4x1x32x1x16xf32>
  return %dq, %px : tensor<2x4x1x32x1x16xf32>, tensor<4x1x1x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant = transform.structured.match ops{["linalg.generic"]} in %module
      : (!transform.any_op) -> !transform.any_op
    %pack_functions = transform.qforge.split_parameter_packing %dequant
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The raw weights are still read after the pack: moving the pack would not
// spare the per-call function the unpacked tensor. Nothing changes.
// expected-note @below {{function}}
func.func @still_used(%w: tensor<64x16xi8>) -> (tensor<2x1x32x16xi8>, tensor<64x16xi8>) {
  %wd = tensor.empty() : tensor<2x1x32x16xi8>
  %pw = linalg.pack %w inner_dims_pos = [0, 1] inner_tiles = [32, 16] into %wd
      : tensor<64x16xi8> -> tensor<2x1x32x16xi8>
  %copy = linalg.copy ins(%pw : tensor<2x1x32x16xi8>) outs(%wd : tensor<2x1x32x16xi8>) -> tensor<2x1x32x16xi8>
  return %copy, %w : tensor<2x1x32x16xi8>, tensor<64x16xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %copy = transform.structured.match ops{["linalg.copy"]} in %module
      : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot split the parameter packing: argument #0 has users other than its pack; the raw tensor is still needed}}
    %pack_functions = transform.qforge.split_parameter_packing %copy
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
