// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// A block of 3 activation rows read as one vector and only extracted: one
// scalar read per row (LLVM then broadcasts each from memory).
// CHECK-LABEL: func.func @three_rows
// CHECK-SAME:    (%[[A:.+]]: memref<128x3xf32>, %[[K:.+]]: index)
// CHECK-NOT:     vector.transfer_read
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[R0:.+]] = memref.load %[[A]][%[[K]], %[[C0]]]
// CHECK-DAG:     %[[R1:.+]] = memref.load %[[A]][%[[K]], %[[C1]]]
// CHECK-DAG:     %[[R2:.+]] = memref.load %[[A]][%[[K]], %[[C2]]]
// CHECK:         return %[[R0]], %[[R1]], %[[R2]]
func.func @three_rows(%a: memref<128x3xf32>, %k: index) -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %rows = vector.transfer_read %a[%k, %c0], %pad {in_bounds = [true]}
      : memref<128x3xf32>, vector<3xf32>
  %r0 = vector.extract %rows[0] : f32 from vector<3xf32>
  %r1 = vector.extract %rows[1] : f32 from vector<3xf32>
  %r2 = vector.extract %rows[2] : f32 from vector<3xf32>
  return %r0, %r1, %r2 : f32, f32, f32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.scalarize_extracted_reads
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A read with a vector use stays a vector read.
// CHECK-LABEL: func.func @vector_use
// CHECK:         vector.transfer_read
// CHECK-NOT:     memref.load
func.func @vector_use(%a: memref<128x16xf32>, %k: index) -> (vector<16xf32>, f32) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %row = vector.transfer_read %a[%k, %c0], %pad {in_bounds = [true]}
      : memref<128x16xf32>, vector<16xf32>
  %first = vector.extract %row[0] : f32 from vector<16xf32>
  return %row, %first : vector<16xf32>, f32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.scalarize_extracted_reads
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Not in bounds (the padding value may be read), and a write of one element:
// both stay as they are (upstream's write pattern, which ignores in_bounds,
// is not part of the set).
// CHECK-LABEL: func.func @out_of_bounds_and_write
// CHECK:         vector.transfer_read {{.*}} : memref<?xf32>, vector<3xf32>
// CHECK:         vector.transfer_write {{.*}} : vector<1xf32>, memref<?xf32>
// CHECK-NOT:     memref.load
// CHECK-NOT:     memref.store
func.func @out_of_bounds_and_write(%a: memref<?xf32>, %k: index, %v: vector<1xf32>) -> f32 {
  %pad = arith.constant 0.0 : f32
  %rows = vector.transfer_read %a[%k], %pad {in_bounds = [false]} : memref<?xf32>, vector<3xf32>
  %r0 = vector.extract %rows[0] : f32 from vector<3xf32>
  vector.transfer_write %v, %a[%k] {in_bounds = [false]} : vector<1xf32>, memref<?xf32>
  return %r0 : f32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.scalarize_extracted_reads
    } : !transform.any_op
    transform.yield
  }
}
