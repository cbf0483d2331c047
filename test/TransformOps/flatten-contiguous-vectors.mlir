// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.qforge.flatten_contiguous_vectors: n-D transfers on
// contiguous memrefs become 1-D ones, the elementwise ops between them 1-D
// ops; what needs the n-D shape gets it through a shape cast.

// A group's quantization in a packed activation's shape (32 x 4 floats): one
// 128-element read, 128-element ops (constants and the broadcast scale
// too), one 128-byte write; no 32x4 vector is left.
// CHECK-LABEL: func.func @quantize_group
// CHECK:         %[[X:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1, 2]] : memref<4x32x4xf32> into memref<4x128xf32>
// CHECK:         %[[V:.+]] = vector.transfer_read %[[X]][%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : memref<4x128xf32>, vector<128xf32>
// CHECK:         %[[S:.+]] = vector.broadcast %{{.+}} : f32 to vector<128xf32>
// CHECK:         arith.mulf %[[V]], %[[S]] : vector<128xf32>
// CHECK:         math.roundeven %{{.+}} : vector<128xf32>
// CHECK:         arith.minimumf %{{.+}} : vector<128xf32>
// CHECK:         arith.maximumf %{{.+}} : vector<128xf32>
// CHECK:         %[[I:.+]] = arith.fptosi %{{.+}} : vector<128xf32> to vector<128xi8>
// CHECK:         %[[Q:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1, 2]] : memref<4x32x4xi8> into memref<4x128xi8>
// CHECK:         vector.transfer_write %[[I]], %[[Q]][%{{.+}}, %{{.+}}] {in_bounds = [true]} : vector<128xi8>, memref<4x128xi8>
// CHECK-NOT:     vector<32x4x
func.func @quantize_group(%x: memref<4x32x4xf32>, %q: memref<4x32x4xi8>, %g: index, %inv: f32) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %lo = arith.constant dense<-127.0> : vector<32x4xf32>
  %hi = arith.constant dense<127.0> : vector<32x4xf32>
  %v = vector.transfer_read %x[%g, %c0, %c0], %pad {in_bounds = [true, true]} : memref<4x32x4xf32>, vector<32x4xf32>
  %s = vector.broadcast %inv : f32 to vector<32x4xf32>
  %m = arith.mulf %v, %s : vector<32x4xf32>
  %r = math.roundeven %m : vector<32x4xf32>
  %c1 = arith.minimumf %r, %hi : vector<32x4xf32>
  %c2 = arith.maximumf %c1, %lo : vector<32x4xf32>
  %i = arith.fptosi %c2 : vector<32x4xf32> to vector<32x4xi8>
  vector.transfer_write %i, %q[%g, %c0, %c0] {in_bounds = [true, true]} : vector<32x4xi8>, memref<4x32x4xi8>
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.flatten_contiguous_vectors %f : !transform.any_op
    transform.yield
  }
}

// -----

// A group maximum: the read and the sign clearing 1-D; the reduction keeps
// its 2-D operand through a shape cast (the reduction lowering flattens it
// again, without inserts).
// CHECK-LABEL: func.func @group_maximum
// CHECK:         %[[V:.+]] = vector.transfer_read %{{.+}} : memref<4x128xf32>, vector<128xf32>
// CHECK:         %[[B:.+]] = arith.bitcast %[[V]] : vector<128xf32> to vector<128xi32>
// CHECK:         %[[A:.+]] = arith.andi %[[B]], %{{.+}} : vector<128xi32>
// CHECK:         %[[C:.+]] = vector.shape_cast %[[A]] : vector<128xi32> to vector<32x4xi32>
// CHECK:         vector.multi_reduction <maxui>, %[[C]], %{{.+}} [0, 1] : vector<32x4xi32> to i32
func.func @group_maximum(%x: memref<4x32x4xf32>, %g: index) -> i32 {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant 0 : i32
  %mask = arith.constant dense<2147483647> : vector<32x4xi32>
  %v = vector.transfer_read %x[%g, %c0, %c0], %pad {in_bounds = [true, true]} : memref<4x32x4xf32>, vector<32x4xf32>
  %b = arith.bitcast %v : vector<32x4xf32> to vector<32x4xi32>
  %a = arith.andi %b, %mask : vector<32x4xi32>
  %m = vector.multi_reduction <maxui>, %a, %zero [0, 1] : vector<32x4xi32> to i32
  return %m : i32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.flatten_contiguous_vectors %f : !transform.any_op
    transform.yield
  }
}

// -----

// Rows of 4 out of 8 are not contiguous: the transfers keep their shape,
// the op between them is 1-D through shape casts.
// CHECK-LABEL: func.func @strided
// CHECK:         %[[V:.+]] = vector.transfer_read %{{.+}} : memref<4x32x8xf32>, vector<32x4xf32>
// CHECK:         %[[F:.+]] = vector.shape_cast %[[V]] : vector<32x4xf32> to vector<128xf32>
// CHECK:         %[[N:.+]] = arith.negf %[[F]] : vector<128xf32>
// CHECK:         %[[B:.+]] = vector.shape_cast %[[N]] : vector<128xf32> to vector<32x4xf32>
// CHECK:         vector.transfer_write %[[B]], %{{.+}} : vector<32x4xf32>, memref<4x32x8xf32>
func.func @strided(%x: memref<4x32x8xf32>, %y: memref<4x32x8xf32>, %g: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %x[%g, %c0, %c0], %pad {in_bounds = [true, true]} : memref<4x32x8xf32>, vector<32x4xf32>
  %n = arith.negf %v : vector<32x4xf32>
  vector.transfer_write %n, %y[%g, %c0, %c0] {in_bounds = [true, true]} : vector<32x4xf32>, memref<4x32x8xf32>
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.flatten_contiguous_vectors %f : !transform.any_op
    transform.yield
  }
}

// -----

// A loop-carried accumulator of 2 x 8 lanes (a two-level kernel's lane
// group): with loop_carried the scf.for carries it as one vector<16xf32>
// and the multiply-add in the loop is 1-D; without, the loop keeps its
// vector<2x8xf32> (the fixed lowering then takes it apart and puts it
// together in each iteration).
// CHECK-LABEL: func.func @loop_carried
// CHECK:         scf.for {{.*}} -> (vector<16xf32>) {
// CHECK:           math.fma %{{.+}}, %{{.+}}, %{{.+}} : vector<16xf32>
// CHECK-LABEL: func.func @loop_carried_left
// CHECK:         scf.for {{.*}} -> (vector<2x8xf32>) {
func.func @loop_carried(%init: vector<2x8xf32>, %a: vector<2x8xf32>, %b: vector<2x8xf32>) -> vector<2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (vector<2x8xf32>) {
    %f = math.fma %a, %b, %acc : vector<2x8xf32>
    scf.yield %f : vector<2x8xf32>
  }
  return %r : vector<2x8xf32>
}
func.func @loop_carried_left(%init: vector<2x8xf32>, %a: vector<2x8xf32>, %b: vector<2x8xf32>) -> vector<2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (vector<2x8xf32>) {
    %f = math.fma %a, %b, %acc : vector<2x8xf32>
    scf.yield %f : vector<2x8xf32>
  }
  return %r : vector<2x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %with = transform.structured.match ops{["func.func"]} attributes{sym_name = "loop_carried"} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.flatten_contiguous_vectors %with {loop_carried} : !transform.any_op
    %without = transform.structured.match ops{["func.func"]} attributes{sym_name = "loop_carried_left"} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.flatten_contiguous_vectors %without : !transform.any_op
    transform.yield
  }
}

// -----

// bytes_only: a 4-bit weight's nibble mask on its 16 rows of 4 bytes
// becomes one 64-byte op whose shape casts fold into the byte vector the
// dot product reads; the f32 tile of 5 rows of 32 lanes beside it keeps its
// rows (linearized, it was a vector<160xf32> LLVM assembled lane by lane).
// CHECK-LABEL: func.func @bytes_only
// CHECK-SAME:    (%[[W:.+]]: vector<16x4xi8>, %[[T:.+]]: vector<5x32xf32>)
// CHECK-DAG:     %[[MASK:.+]] = arith.constant dense<15> : vector<64xi8>
// CHECK-DAG:     %[[FLAT:.+]] = vector.shape_cast %[[W]] : vector<16x4xi8> to vector<64xi8>
// CHECK:         %[[LOW:.+]] = arith.andi %[[FLAT]], %[[MASK]] : vector<64xi8>
// CHECK:         arith.mulf %[[T]], %[[T]] : vector<5x32xf32>
// CHECK:         return %[[LOW]], %{{.+}} : vector<64xi8>, vector<5x32xf32>
func.func @bytes_only(%w: vector<16x4xi8>, %t: vector<5x32xf32>) -> (vector<64xi8>, vector<5x32xf32>) {
  %mask = arith.constant dense<15> : vector<16x4xi8>
  %low = arith.andi %w, %mask : vector<16x4xi8>
  %bytes = vector.shape_cast %low : vector<16x4xi8> to vector<64xi8>
  %square = arith.mulf %t, %t : vector<5x32xf32>
  return %bytes, %square : vector<64xi8>, vector<5x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.flatten_contiguous_vectors %f {bytes_only} : !transform.any_op
    transform.yield
  }
}
