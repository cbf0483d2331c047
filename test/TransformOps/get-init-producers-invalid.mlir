// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// Negative tests for transform.qforge.get_init_producers: silenceable
// failures, reported as errors at the top level of the interpreter with a
// note at the offending target.

// A func.func is not destination-style.

// expected-note @below {{target}}
func.func @not_dps(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a destination-style op}}
    %p = transform.qforge.get_init_producers %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Neither is an arith op on tensors.

func.func @arith_op(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // expected-note @below {{target}}
  %s = arith.addf %x, %y : tensor<8xf32>
  return %s : tensor<8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a destination-style op}}
    %p = transform.qforge.get_init_producers %a : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// One bad target among good ones fails the whole op.

#id = affine_map<(d0) -> (d0)>
func.func @mixed_targets(%x: tensor<8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  // expected-note @below {{target}}
  %s = arith.addf %r, %x : tensor<8xf32>
  return %s : tensor<8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.generic", "arith.addf"]} in %root
      : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a destination-style op}}
    %p = transform.qforge.get_init_producers %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The init is a function argument (a block argument): it has no producer.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @init_is_block_argument(%x: tensor<8x16xf32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  // expected-note @below {{target}}
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%a: f32, %s: f32):
    %s2 = arith.addf %a, %s : f32
    linalg.yield %s2 : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{an init is a block argument}}
    %p = transform.qforge.get_init_producers %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The same for a loop-carried accumulator (an scf.for iter_arg), the form a
// tiled reduction takes. Suppressed in a sequence, the failure lets the
// script go on.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @init_is_iter_arg(%x: tensor<8x16xf32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-remark @below {{after the suppressed failure}}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%it = %acc) -> tensor<8xf32> {
    %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<8x16xf32>) outs(%it : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %o2 = arith.addf %a, %o : f32
      linalg.yield %o2 : f32
    } -> tensor<8xf32>
    scf.yield %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%arg0: !transform.any_op):
      %g = transform.structured.match ops{["linalg.generic"]} in %arg0 : (!transform.any_op) -> !transform.any_op
      %p = transform.qforge.get_init_producers %g : (!transform.any_op) -> !transform.any_op
      transform.debug.emit_remark_at %p, "not reached" : !transform.any_op
    }
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %loop, "after the suppressed failure" : !transform.any_op
    transform.yield
  }
}
