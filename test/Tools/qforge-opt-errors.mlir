// Malformed input: qforge-opt reports each error at file:line:col and exits
// non-zero (`not` fails the RUN line on a zero exit code). Every split is
// broken on its own; the checks are in split order.
// RUN: not qforge-opt %s --split-input-file 2>&1 | FileCheck %s

func.func @undeclared_value(%a: i32) -> i32 {
  // CHECK: {{.*}}qforge-opt-errors.mlir:[[@LINE+1]]:23: error: use of undeclared SSA value name
  %0 = arith.addi %a, %undefined : i32
  return %0 : i32
}

// -----

func.func @narrowing_extui(%a: i32) -> i8 {
  // CHECK: {{.*}}qforge-opt-errors.mlir:[[@LINE+1]]:8: error: 'arith.extui' op operand type 'i32' and result type 'i8' are cast incompatible
  %0 = arith.extui %a : i32 to i8
  return %0 : i8
}

// -----

func.func @unknown_dialect() {
  // CHECK: {{.*}}qforge-opt-errors.mlir:[[@LINE+1]]:3: error: Dialect `foo' not found for custom op 'foo.bar'
  foo.bar
  return
}

// -----

// CHECK: {{.*}}qforge-opt-errors.mlir:[[@LINE+1]]:32: error: use of undeclared identifier
#bad_map = affine_map<(d0) -> (d1)>

// -----

// The broadcast the fold_broadcast_transpose pattern must never create:
// source dims align with the trailing result dims (8 vs. 128).
func.func @invalid_broadcast(%s: vector<8x1xf32>) -> vector<8x128x1xf32> {
  // CHECK: {{.*}}qforge-opt-errors.mlir:[[@LINE+1]]:8: error: 'vector.broadcast' op dimension mismatch (8 vs. 128)
  %b = vector.broadcast %s : vector<8x1xf32> to vector<8x128x1xf32>
  return %b : vector<8x128x1xf32>
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @generic_missing_map(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>) -> tensor<8x4x16xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  // CHECK: {{.*}}qforge-opt-errors.mlir:[[@LINE+1]]:8: error: 'linalg.generic' op expected the number of indexing_map (2) to be equal to the number of input/output operands (3)
  %0 = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x4x16xi8>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %in : i8 to f32
    %r = arith.mulf %wf, %scale : f32
    linalg.yield %r : f32
  } -> tensor<8x4x16xf32>
  return %0 : tensor<8x4x16xf32>
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // CHECK: {{.*}}qforge-opt-errors.mlir:[[@LINE+1]]:14: error: custom op 'transform.qforge.match_dequant' is unknown
    %a, %b = transform.qforge.match_dequant %root : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
