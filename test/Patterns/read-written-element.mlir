// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.apply_patterns.qforge.read_written_element
// (lib/Patterns/ReadWrittenElement.cpp): a point read at constant indices
// of a tensor a vector.transfer_write produced is the written vector's
// element; anything else is left as it is.

// A super-block's eight decoded scales (vector<2x2x2>) written into a
// 1x1x2x2x2 tensor, sub-block (1, 0, 1) read back as one element and as a
// broadcast to 8 lanes: both are extracts of the written vector, and the
// tensor is no longer read.

// CHECK-LABEL: func.func @point_reads
// CHECK-SAME:    (%{{.+}}: tensor<1x1x2x2x2xf32>, %[[V:.+]]: vector<2x2x2xf32>)
// CHECK-NOT:     vector.transfer_read
// CHECK:         %[[E1:.+]] = vector.extract %[[V]][1, 0, 1] : f32 from vector<2x2x2xf32>
// CHECK-NEXT:    %[[ONE:.+]] = vector.broadcast %[[E1]] : f32 to vector<1xf32>
// CHECK-NEXT:    %[[E2:.+]] = vector.extract %[[V]][1, 0, 1] : f32 from vector<2x2x2xf32>
// CHECK-NEXT:    %[[LANES:.+]] = vector.broadcast %[[E2]] : f32 to vector<8xf32>
// CHECK-NEXT:    return %[[ONE]], %[[LANES]]
func.func @point_reads(%t: tensor<1x1x2x2x2xf32>, %v: vector<2x2x2xf32>) -> (vector<1xf32>, vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %v, %t[%c0, %c0, %c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x2x2xf32>, tensor<1x1x2x2x2xf32>
  %one = vector.transfer_read %w[%c0, %c0, %c1, %c0, %c1], %pad {in_bounds = [true]} : tensor<1x1x2x2x2xf32>, vector<1xf32>
  %lanes = vector.transfer_read %w[%c0, %c0, %c1, %c0, %c1], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3, d4) -> (0)>} : tensor<1x1x2x2x2xf32>, vector<8xf32>
  return %one, %lanes : vector<1xf32>, vector<8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.read_written_element
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Left alone: an index only known at run time; an element outside the
// written box (the write covers row 0 of 2, the read is of row 1); a read
// of more than one element; a masked write.

// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: vector.transfer_read
// CHECK-NOT:     vector.extract
func.func @left_alone(%t: tensor<2x4xf32>, %v: vector<4xf32>, %i: index, %m: vector<4xi1>)
    -> (vector<1xf32>, vector<1xf32>, vector<2xf32>, vector<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %v, %t[%c0, %c0] {in_bounds = [true]} : vector<4xf32>, tensor<2x4xf32>
  %dynamic = vector.transfer_read %w[%c0, %i], %pad {in_bounds = [true]} : tensor<2x4xf32>, vector<1xf32>
  %outside = vector.transfer_read %w[%c1, %c1], %pad {in_bounds = [true]} : tensor<2x4xf32>, vector<1xf32>
  %two = vector.transfer_read %w[%c0, %c1], %pad {in_bounds = [true]} : tensor<2x4xf32>, vector<2xf32>
  %masked = vector.transfer_write %v, %t[%c0, %c0], %m {in_bounds = [true]} : vector<4xf32>, tensor<2x4xf32>
  %under_mask = vector.transfer_read %masked[%c0, %c1], %pad {in_bounds = [true]} : tensor<2x4xf32>, vector<1xf32>
  return %dynamic, %outside, %two, %under_mask : vector<1xf32>, vector<1xf32>, vector<2xf32>, vector<1xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.read_written_element
    } : !transform.any_op
    transform.yield
  }
}

// -----

// With max_elements: a lane group's two scales (sub-blocks (c, 1) for c = 0,
// 1 of the written vector<2x2x2>, read as vector<2x1>) are two extracts and
// a from_elements. Left alone even so: a read of more elements than asked
// (4 > 2), and a read through a permutation (the two elements transposed).

// CHECK-LABEL: func.func @several_elements
// CHECK-SAME:    (%{{.+}}: tensor<1x2x2x2xf32>, %[[V:.+]]: vector<2x2x2xf32>)
// CHECK:         %[[E0:.+]] = vector.extract %[[V]][1, 0, 1] : f32 from vector<2x2x2xf32>
// CHECK-NEXT:    %[[E1:.+]] = vector.extract %[[V]][1, 1, 1] : f32 from vector<2x2x2xf32>
// CHECK-NEXT:    %[[PAIR:.+]] = vector.from_elements %[[E0]], %[[E1]] : vector<2x1xf32>
// CHECK-COUNT-2: vector.transfer_read
// CHECK:         return %[[PAIR]]
func.func @several_elements(%t: tensor<1x2x2x2xf32>, %v: vector<2x2x2xf32>) -> (vector<2x1xf32>, vector<2x2xf32>, vector<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %v, %t[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x2x2xf32>, tensor<1x2x2x2xf32>
  %pair = vector.transfer_read %w[%c0, %c1, %c0, %c1], %pad {in_bounds = [true, true]} : tensor<1x2x2x2xf32>, vector<2x1xf32>
  %four = vector.transfer_read %w[%c0, %c1, %c0, %c0], %pad {in_bounds = [true, true]} : tensor<1x2x2x2xf32>, vector<2x2xf32>
  %swapped = vector.transfer_read %w[%c0, %c1, %c0, %c1], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d2)>} : tensor<1x2x2x2xf32>, vector<2xf32>
  return %pair, %four, %swapped : vector<2x1xf32>, vector<2x2xf32>, vector<2xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.read_written_element {max_elements = 2}
    } : !transform.any_op
    transform.yield
  }
}
