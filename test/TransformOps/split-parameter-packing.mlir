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

// -----

// A block format read in place (GGUF's q8_0: 34-byte blocks, an f16 scale
// in the first two bytes, 32 quants after): both inputs of the dequant are
// computed from the one block argument -- the quants sliced out, the scale
// joined from two bytes by a generic whose body reads a constant from
// outside. Both computations move with their packs; the block argument
// gives two packed tensors, the first in its place, the second after the
// raw arguments, and @blocks_pack_weights lists position 0 for both.

// CHECK-LABEL: func.func @blocks(
// CHECK-SAME: %[[Q:.*]]: tensor<2x4x32x32xi8>, %[[X:.*]]: tensor<4x32xf32>, %[[D:.*]]: tensor<2x4x1x32xf16>)
// CHECK-SAME: attributes {qforge.pack_weights = @blocks_pack_weights}
// CHECK-NOT: tensor.extract_slice
// CHECK-NOT: arith.shli
// CHECK: linalg.generic {{.*}} ins(%[[Q]], %[[D]] :
// CHECK-LABEL: func.func @blocks_pack_weights(
// CHECK-SAME: %[[B:.*]]: tensor<64x4x34xi8>) -> (tensor<2x4x32x32xi8>, tensor<2x4x1x32xf16>)
// CHECK-SAME: attributes {qforge.prepacked_arguments = array<i64: 0, 0>}
// CHECK-DAG: %[[QS:.*]] = tensor.extract_slice %[[B]][0, 0, 2] [64, 4, 32] [1, 1, 1]
// CHECK-DAG: %[[PQ:.*]] = linalg.pack %[[QS]] inner_dims_pos = [0] inner_tiles = [32]
// CHECK-DAG: %[[SCALE:.*]] = linalg.generic {{.*}} ins(%[[B]], %[[B]] :
// CHECK-DAG: %[[SCALE3:.*]] = tensor.expand_shape %[[SCALE]]
// CHECK-DAG: %[[PD:.*]] = linalg.pack %[[SCALE3]] inner_dims_pos = [0] inner_tiles = [32]
// CHECK: return %[[PQ]], %[[PD]]
func.func @blocks(%blocks: tensor<64x4x34xi8>, %x: tensor<4x32xf32>) -> tensor<2x4x32x32xf32> {
  %c8 = arith.constant 8 : i16
  %qs = tensor.extract_slice %blocks[0, 0, 2] [64, 4, 32] [1, 1, 1] : tensor<64x4x34xi8> to tensor<64x4x32xi8>
  %d_init = tensor.empty() : tensor<64x4xf16>
  %d = linalg.generic {indexing_maps = [affine_map<(n, g) -> (n, g, 0)>, affine_map<(n, g) -> (n, g, 1)>, affine_map<(n, g) -> (n, g)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%blocks, %blocks : tensor<64x4x34xi8>, tensor<64x4x34xi8>) outs(%d_init : tensor<64x4xf16>) {
  ^bb0(%lo: i8, %hi: i8, %unused: f16):
    %lo16 = arith.extui %lo : i8 to i16
    %hi16 = arith.extui %hi : i8 to i16
    %high = arith.shli %hi16, %c8 : i16
    %bits = arith.ori %high, %lo16 : i16
    %half = arith.bitcast %bits : i16 to f16
    linalg.yield %half : f16
  } -> tensor<64x4xf16>
  %d3 = tensor.expand_shape %d [[0], [1, 2]] output_shape [64, 4, 1] : tensor<64x4xf16> into tensor<64x4x1xf16>
  %qd = tensor.empty() : tensor<2x4x32x32xi8>
  %pq = linalg.pack %qs inner_dims_pos = [0] inner_tiles = [32] into %qd
      : tensor<64x4x32xi8> -> tensor<2x4x32x32xi8>
  %dd = tensor.empty() : tensor<2x4x1x32xf16>
  %pd = linalg.pack %d3 inner_dims_pos = [0] inner_tiles = [32] into %dd
      : tensor<64x4x1xf16> -> tensor<2x4x1x32xf16>
  %init = tensor.empty() : tensor<2x4x32x32xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(n, g, e, r) -> (n, g, e, r)>, affine_map<(n, g, e, r) -> (n, g, 0, r)>, affine_map<(n, g, e, r) -> (n, g, e, r)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      {dequant} ins(%pq, %pd : tensor<2x4x32x32xi8>, tensor<2x4x1x32xf16>) outs(%init : tensor<2x4x32x32xf32>) {
  ^bb0(%q: i8, %scale: f16, %out: f32):
    %qf = arith.sitofp %q : i8 to f32
    %s = arith.extf %scale : f16 to f32
    %value = arith.mulf %qf, %s : f32
    linalg.yield %value : f32
  } -> tensor<2x4x32x32xf32>
  return %dq : tensor<2x4x32x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant = transform.structured.match ops{["linalg.generic"]} attributes {dequant} in %module
      : (!transform.any_op) -> !transform.any_op
    %pack_functions = transform.qforge.split_parameter_packing %dequant
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The decoded scales are also returned: the per-call function still needs
// the computation, so nothing moves.
// expected-note @below {{function}}
func.func @scale_still_used(%blocks: tensor<64x4x34xi8>) -> (tensor<2x4x1x32xf16>, tensor<64x4xf16>) {
  %d_init = tensor.empty() : tensor<64x4xf16>
  %d = linalg.generic {indexing_maps = [affine_map<(n, g) -> (n, g, 0)>, affine_map<(n, g) -> (n, g)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%blocks : tensor<64x4x34xi8>) outs(%d_init : tensor<64x4xf16>) {
  ^bb0(%lo: i8, %unused: f16):
    %lo16 = arith.extui %lo : i8 to i16
    %half = arith.bitcast %lo16 : i16 to f16
    linalg.yield %half : f16
  } -> tensor<64x4xf16>
  %d3 = tensor.expand_shape %d [[0], [1, 2]] output_shape [64, 4, 1] : tensor<64x4xf16> into tensor<64x4x1xf16>
  %dd = tensor.empty() : tensor<2x4x1x32xf16>
  %pd = linalg.pack %d3 inner_dims_pos = [0] inner_tiles = [32] into %dd
      : tensor<64x4x1xf16> -> tensor<2x4x1x32xf16>
  %copy = linalg.copy ins(%pd : tensor<2x4x1x32xf16>) outs(%dd : tensor<2x4x1x32xf16>) -> tensor<2x4x1x32xf16>
  return %copy, %d : tensor<2x4x1x32xf16>, tensor<64x4xf16>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %copy = transform.structured.match ops{["linalg.copy"]} in %module
      : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot split the parameter packing: a value computed from a packed argument has users other than its pack; the raw tensor is still needed}}
    %pack_functions = transform.qforge.split_parameter_packing %copy
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
