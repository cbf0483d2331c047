// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// Negative tests for transform.qforge.factor_packed_dequant_contraction. A
// pair that does not meet the requirements is a silenceable failure
// (reported as an error at the top level of the interpreter, with a note at
// the contraction or at both candidates); mismatched handle lengths are a
// definite failure. FileCheck checks, where the failure is suppressed, that
// the payload is left exactly as it was.
//
// The payloads are the packed form of factor-packed-dequant-contraction.mlir
// -- weights (no, g, ki, ni), contraction d0 = no, d1 = g, d2 = ni, d3 = ki --
// each changed in one respect.

// A dynamic number of row tiles: only static shapes are supported.

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @dynamic_rows(%weights: tensor<?x3x8x16xi8>, %scales: tensor<?x3x16xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %no = tensor.dim %weights, %c0 : tensor<?x3x8x16xi8>
  %dequant_init = tensor.empty(%no) : tensor<?x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<?x3x8x16xi8>, tensor<?x3x16xf32>)
      outs(%dequant_init : tensor<?x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<?x3x8x16xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<?x3x8x16xf32>)
      outs(%acc : tensor<?x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<?x16xf32>
  return %matvec : tensor<?x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: only static shapes on tensors are supported}}
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Weights stored (no, g, ni, ki) and read through (d0, d1, d3, d2): the
// matcher accepts any permutation, the factoring needs the identity (the
// form bubble_pack_through_dequant leaves).

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#transposed = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @transposed_weights(%weights: tensor<4x3x16x8xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#transposed, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x16x8xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: the dequantization must read its weights (or their byte pairs) and write its result through identity maps}}
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The same on the result side: weights read through the identity, the
// dequantized weights written transposed, as (no, g, ni, ki).

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#transposed = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @transposed_result(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x16x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #transposed],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x16x8xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x16x8xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x16x8xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: the dequantization must read its weights (or their byte pairs) and write its result through identity maps}}
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Scales that vary along both reduction dims, one per (no, g, ki) read
// through (d0, d1, d2) (constant only along the lanes ni): no reduction dim
// is left to sum before scaling.

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_element = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @scale_varies_along_every_reduction(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x8xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  // expected-remark @below {{matched dequant}}
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_element, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x8xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %dequant, "matched dequant" : !transform.any_op
    // expected-error @below {{cannot factor: no reduction dim along which the scale and zero-point are constant: nothing to factor out}}
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The zero-points alone vary along ki (one per (no, g, ki)), the scales are
// one per (no, g, ni): ki is a group dim for the zero-point, so again no
// element dim is left.

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#per_element = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @zero_point_varies_along_elements(%weights: tensor<4x3x8x16xi8>,
    %scales: tensor<4x3x16xf32>, %zero_points: tensor<4x3x8xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_element, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>, tensor<4x3x8xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: no reduction dim along which the scale and zero-point are constant: nothing to factor out}}
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// An element dim (ki) that the activation does not index: one activation
// value per group, x read through (d1).

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @element_dim_not_in_activation(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: every element dim must index the activation}}
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The activation read through (d1, d1 + d3), not a projected permutation.

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d1 + d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @sliding_activation(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3x10xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x10xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: the contraction's maps must be projected permutations}}
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// An f16 activation extended in the contraction's body: the body is not
// exactly out + in0 * in1, so the matcher does not take it (the factoring
// would drop the cast).

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @f16_activation(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3x8xf16>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf16>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f16, %w: f32, %out: f32):
    %in32 = arith.extf %in : f16 to f32
    %product = arith.mulf %in32, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{found no dequantization generic}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A negated product (out - x * w): not exactly out + in0 * in1, so the
// matcher does not take it -- the factoring would drop the negation.

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @negated_product(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %negated = arith.negf %product : f32
    %sum = arith.addf %negated, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{found no dequantization generic}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A result indexed by an element (reduction) dim: not a sum over it, so
// nothing to factor; refused rather than written through a constant index.

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
func.func @result_indexes_element_dim(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x8xf32>
  return %matvec : tensor<4x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: the result must be indexed by parallel dims only}}
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A contraction that reads the dequantized weights twice (w * w) has no
// activation. The matcher returns the pair once per use, so the script
// keeps one copy of each handle.

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @no_activation(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  // expected-note @below {{contraction}}
  %square = linalg.generic {
      indexing_maps = [#weights, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%dequant, %dequant : tensor<4x3x8x16xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %square : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %d0, %d1 = transform.split_handle %dequant
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %c0, %c1 = transform.split_handle %contraction
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: the contraction must read the dequantized weights and one activation}}
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %d0, %c0
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The dequant handle points to an op that is not a dequantization (the fill
// of the accumulator).

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @not_a_dequant(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<4x16xf32>
  // expected-note @below {{dequant candidate}}
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  // expected-note @below {{contraction candidate}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
      : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a dequantization generic feeding a multi-reduction contraction (see transform.qforge.match_dequant_contraction)}}
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %fill, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Handles of different lengths (two dequants, one contraction): a definite
// failure, whatever the payload.

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @first(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

func.func @second(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %c0, %c1 = transform.split_handle %contraction
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{expected as many dequant ops (2) as contractions (1)}}
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %c0
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The op consumes the contraction handle: reading it afterwards is an error.
// (The dequant handle is only read: one dequant may feed several
// contractions.)

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @consumed_handle(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  // expected-note @below {{ancestor payload op}}
  // expected-note @below {{nested payload op}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-note @below {{handle to invalidated ops}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-note @below {{invalidated by this transform op that consumes its operand #1}}
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // expected-error @below {{uses a handle invalidated by a previously executed transform op}}
    transform.debug.emit_remark_at %contraction, "contraction" : !transform.any_op
    transform.yield
  }
}

// -----

// Nothing changes when any pair fails, not only the failing one: the handles
// hold two pairs, the first factorable, the second not (its scales vary
// along every reduction dim). Suppressed inside a transform.sequence, the
// failure leaves both functions as they were and the script goes on.

// CHECK-LABEL: func.func @first_factorable
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<4x3x8x16xi8>, %[[S:[a-z0-9_]+]]: tensor<4x3x16xf32>, %[[X:[a-z0-9_]+]]: tensor<3x8xf32>, %[[ACC:[a-z0-9_]+]]: tensor<4x16xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[W]], %[[S]] : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]], %[[D]] : tensor<3x8xf32>, tensor<4x3x8x16xf32>) outs(%[[ACC]] : tensor<4x16xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]] : tensor<4x16xf32>

// CHECK-LABEL: func.func @second_not_factorable
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<4x3x8x16xi8>, %[[S:[a-z0-9_]+]]: tensor<4x3x8xf32>, %[[X:[a-z0-9_]+]]: tensor<3x8xf32>, %[[ACC:[a-z0-9_]+]]: tensor<4x16xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[W]], %[[S]] : tensor<4x3x8x16xi8>, tensor<4x3x8xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]], %[[D]] : tensor<3x8xf32>, tensor<4x3x8x16xf32>) outs(%[[ACC]] : tensor<4x16xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]] : tensor<4x16xf32>

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#per_element = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
// expected-remark @below {{after the suppressed failure}}
func.func @first_factorable(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

// expected-remark @below {{after the suppressed failure}}
func.func @second_not_factorable(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x8xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_element, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x8xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%arg0: !transform.any_op):
      %dequant, %contraction = transform.qforge.match_dequant_contraction %arg0
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
          %dequant, %contraction
        : (!transform.any_op, !transform.any_op)
          -> (!transform.any_op, !transform.any_op, !transform.any_op)
    }
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %f, "after the suppressed failure" : !transform.any_op
    transform.yield
  }
}

// -----

// Integer mode: vpdpbusd multiplies bytes; wider weights are refused (signed
// bytes are summed with their sign bit flipped, see the execution tests).

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @int8_wide_weights(%weights: tensor<4x3x8x16xi16>, %scales: tensor<4x3x16xf32>,
    %zero_points: tensor<4x3x16xf32>, %x: tensor<3x8xf32>,
    %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<4x3x8x16xi16>, tensor<4x3x16xf32>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i16, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extsi %w : i16 to i32
    %wf = arith.sitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %scale, %shifted : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: int8 dot products take 8-bit weights (or byte pairs of 4-bit ones) and f32 activations}}
    %q, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// magnitude_times_sign takes a param of 0 or 1 (checked before anything is
// matched or rewritten).
func.func @magnitude_times_sign_of_two() {
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %two = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{expected the magnitude_times_sign param to hold one integer, 0 or 1}}
    %q, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed
        %a, %b magnitude_times_sign = %two
      : (!transform.any_op, !transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
