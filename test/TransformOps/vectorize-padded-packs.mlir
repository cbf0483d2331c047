// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.qforge.vectorize_padded_packs: a pack of a partial
// tile (dynamic source, static destination) becomes a masked read whose
// lanes past the source take the padding value, a transpose and one write
// of the whole tile.

// CHECK-LABEL: func.func @partial_tile
// CHECK-SAME:    (%[[SRC:[^:]+]]: tensor<1x?x16xi32>, %[[DST:[^:]+]]: tensor<1x1x16x6xi32>)
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-DAG:     %[[ROWS:.+]] = tensor.dim %[[SRC]], %{{.+}} : tensor<1x?x16xi32>
// CHECK:         %[[MASK:.+]] = vector.create_mask %{{.+}}, %[[ROWS]], %{{.+}} : vector<1x6x16xi1>
// CHECK:         %[[READ:.+]] = vector.mask %[[MASK]] { vector.transfer_read %[[SRC]][%{{.+}}, %{{.+}}, %{{.+}}], %[[ZERO]] {in_bounds = [true, true, true]} : tensor<1x?x16xi32>, vector<1x6x16xi32> }
// CHECK:         %[[T:.+]] = vector.transpose %{{.+}}, [0, 1, 3, 2] : vector<1x1x6x16xi32> to vector<1x1x16x6xi32>
// CHECK:         vector.transfer_write %[[T]], %[[DST]]{{.*}} : vector<1x1x16x6xi32>, tensor<1x1x16x6xi32>
// CHECK-NOT:     linalg.pack %
func.func @partial_tile(%src: tensor<1x?x16xi32>, %dst: tensor<1x1x16x6xi32>) -> tensor<1x1x16x6xi32> {
  %zero = arith.constant 0 : i32
  %p = linalg.pack %src padding_value(%zero : i32) inner_dims_pos = [1] inner_tiles = [6] into %dst
    : tensor<1x?x16xi32> -> tensor<1x1x16x6xi32>
  return %p : tensor<1x1x16x6xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.pack"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.vectorize_padded_packs %p : !transform.any_op
    transform.yield
  }
}

// -----

// Left as they are: a dynamic destination, and a dynamic source without a
// padding value (no value for the lanes past its end).
// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.pack
// CHECK:         linalg.pack
// CHECK-NOT:     vector.transfer_read
func.func @left_alone(%src: tensor<1x?x16xi32>, %dst: tensor<1x?x16x6xi32>,
                      %full: tensor<1x?x16xi32>, %dst2: tensor<1x1x16x6xi32>)
    -> (tensor<1x?x16x6xi32>, tensor<1x1x16x6xi32>) {
  %zero = arith.constant 0 : i32
  %p = linalg.pack %src padding_value(%zero : i32) inner_dims_pos = [1] inner_tiles = [6] into %dst
    : tensor<1x?x16xi32> -> tensor<1x?x16x6xi32>
  %q = linalg.pack %full inner_dims_pos = [1] inner_tiles = [6] into %dst2
    : tensor<1x?x16xi32> -> tensor<1x1x16x6xi32>
  return %p, %q : tensor<1x?x16x6xi32>, tensor<1x1x16x6xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.pack"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.vectorize_padded_packs %p : !transform.any_op
    transform.yield
  }
}
