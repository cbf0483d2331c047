// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.apply_patterns.qforge.fold_whole_insert_slice
// (lib/Patterns/WholeInsertSlice.cpp): a rank-reducing insert_slice that
// covers its whole destination is an expand_shape of its source.

// CHECK-LABEL: func.func @whole
// CHECK-SAME:    (%[[S:.+]]: tensor<32x8x4xi8>, %{{.+}}: tensor<1x1x32x8x4xi8>)
// CHECK-NOT:     tensor.insert_slice
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[S]] {{\[}}[0, 1, 2], [3], [4]] output_shape [1, 1, 32, 8, 4] : tensor<32x8x4xi8> into tensor<1x1x32x8x4xi8>
// CHECK:         return %[[E]]
func.func @whole(%s: tensor<32x8x4xi8>, %d: tensor<1x1x32x8x4xi8>) -> tensor<1x1x32x8x4xi8> {
  %r = tensor.insert_slice %s into %d[0, 0, 0, 0, 0] [1, 1, 32, 8, 4] [1, 1, 1, 1, 1]
      : tensor<32x8x4xi8> into tensor<1x1x32x8x4xi8>
  return %r : tensor<1x1x32x8x4xi8>
}

// A unit dim between the source's dims.
// CHECK-LABEL: func.func @inner_unit_dim
// CHECK:         tensor.expand_shape %{{.+}} {{.+}} output_shape [32, 1, 8] : tensor<32x8xf32> into tensor<32x1x8xf32>
func.func @inner_unit_dim(%s: tensor<32x8xf32>, %d: tensor<32x1x8xf32>) -> tensor<32x1x8xf32> {
  %r = tensor.insert_slice %s into %d[0, 0, 0] [32, 1, 8] [1, 1, 1]
      : tensor<32x8xf32> into tensor<32x1x8xf32>
  return %r : tensor<32x1x8xf32>
}

// Part of the destination: not a reshape.
// CHECK-LABEL: func.func @part
// CHECK:         tensor.insert_slice
// CHECK-NOT:     tensor.expand_shape
func.func @part(%s: tensor<32x8xf32>, %d: tensor<2x32x8xf32>) -> tensor<2x32x8xf32> {
  %r = tensor.insert_slice %s into %d[1, 0, 0] [1, 32, 8] [1, 1, 1]
      : tensor<32x8xf32> into tensor<2x32x8xf32>
  return %r : tensor<2x32x8xf32>
}

// A dynamic offset: not provably the whole.
// CHECK-LABEL: func.func @dynamic_offset
// CHECK:         tensor.insert_slice
func.func @dynamic_offset(%s: tensor<32x8xf32>, %d: tensor<1x32x8xf32>, %i: index) -> tensor<1x32x8xf32> {
  %r = tensor.insert_slice %s into %d[%i, 0, 0] [1, 32, 8] [1, 1, 1]
      : tensor<32x8xf32> into tensor<1x32x8xf32>
  return %r : tensor<1x32x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_whole_insert_slice
    } : !transform.any_op
    transform.yield
  }
}
