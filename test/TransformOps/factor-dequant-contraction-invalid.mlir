// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// Negative tests for transform.qforge.factor_dequant_contraction. A pair
// that does not meet the requirements is a silenceable failure (reported as
// an error at the top level of the interpreter, with a note at the
// contraction or at both candidates); mismatched handle lengths are a
// definite failure. FileCheck checks, where the failure is suppressed, that
// the payload is left exactly as it was.

// The group size (20) is not a multiple of lanes (16).

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @group_size_not_multiple_of_lanes(%weights: tensor<8x4x20xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x20xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x20xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x20xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x20xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x20xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x20xf32>, tensor<8x4x20xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: the group size (20) is not a multiple of lanes (16)}}
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The same with lanes = 8: 20 is not a multiple of 8 either (the default is
// not the only value checked).

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @group_size_not_multiple_of_lanes_8(%weights: tensor<8x4x20xi8>, %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x20xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x20xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x20xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x20xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x20xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x20xf32>, tensor<8x4x20xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: the group size (20) is not a multiple of lanes (8)}}
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction {lanes = 8}
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Handles of different lengths (two dequants, one contraction): a definite
// failure, whatever the payload.

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @first(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x32xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

func.func @second(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x32xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %c0, %c1 = transform.split_handle %contraction
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{expected as many dequant ops (2) as contractions (1)}}
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %c0
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The dequant handle points to an op that is not a dequantization (the fill
// of the accumulator).

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @not_a_dequant(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x1x8xf32>
  // expected-note @below {{dequant candidate}}
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x32xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  // expected-note @below {{contraction candidate}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
      : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a dequantization generic feeding a multi-reduction contraction (see transform.qforge.match_dequant_contraction)}}
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %fill, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Each dequant handed with the other's contraction: each is a valid
// dequant and a valid contraction, but they are not a pair.

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @pair_a(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  // expected-note @below {{dequant candidate}}
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x32xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

func.func @pair_b(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x32xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  // expected-note @below {{contraction candidate}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %d:2 = transform.split_handle %dequant
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %c:2 = transform.split_handle %contraction
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{expected a dequantization generic feeding a multi-reduction contraction}}
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %d#0, %c#1
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Scales that vary along k, read through (d0, 0, d2) (one scale per row
// and element, shared by the groups). The matcher accepts the map (it
// broadcasts along d1), but the factoring needs one scale per (n, g) and
// refuses it.

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#per_element = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @scale_varies_along_k(%weights: tensor<8x4x32xi8>, %scales: tensor<8x1x32xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  // expected-remark @below {{matched dequant}}
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_element, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x32xi8>, tensor<8x1x32xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %dequant, "matched dequant" : !transform.any_op
    // expected-error @below {{cannot factor: scales and zero-points must be read once per (n, g), e.g. through (d0, d1, 0)}}
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Weights stored groups-first (4x8x32) and read through (d1, d0, d2): the
// matcher accepts any permutation, the factoring needs the identity.

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#transposed = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @permuted_weights(%weights: tensor<4x8x32xi8>, %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#transposed, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x8x32xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: the dequantization must be an identity-indexed (n, g, k) generic}}
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A dynamic number of rows: only static shapes are supported.

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @dynamic_rows(%weights: tensor<?x4x32xi8>, %scales: tensor<?x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x?xf32>) -> tensor<1x1x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %weights, %c0 : tensor<?x4x32xi8>
  %dequant_init = tensor.empty(%n) : tensor<?x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<?x4x32xi8>, tensor<?x4x1xf32>)
      outs(%dequant_init : tensor<?x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<?x4x32xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<?x4x32xf32>)
      outs(%acc : tensor<1x1x?xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x?xf32>
  return %matvec : tensor<1x1x?xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: only static shapes on tensors are supported}}
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The op consumes the contraction handle: reading it afterwards is an error.
// (The dequant handle is only read: one dequant may feed several
// contractions.)

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @consumed_handles(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x32xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  // expected-note @below {{ancestor payload op}}
  // expected-note @below {{nested payload op}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-note @below {{handle to invalidated ops}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-note @below {{invalidated by this transform op that consumes its operand #1}}
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    // expected-error @below {{uses a handle invalidated by a previously executed transform op}}
    transform.debug.emit_remark_at %contraction, "contraction" : !transform.any_op
    transform.yield
  }
}

// -----

// Suppressed inside a transform.sequence, the failure leaves the payload as
// it was and the script goes on.

// CHECK-LABEL: func.func @unchanged_after_failure
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<8x4x20xi8>, %[[S:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[Z:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[X:[a-z0-9_]+]]: tensor<1x1x4x20xf32>, %[[ACC:[a-z0-9_]+]]: tensor<1x1x8xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[W]], %[[S]], %[[Z]] :
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[X]], %[[D]] : tensor<1x1x4x20xf32>, tensor<8x4x20xf32>) outs(%[[ACC]] : tensor<1x1x8xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return %[[R]] : tensor<1x1x8xf32>

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// expected-remark @below {{after the suppressed failure}}
func.func @unchanged_after_failure(%weights: tensor<8x4x20xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x20xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x20xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x20xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x20xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x20xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x20xf32>, tensor<8x4x20xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%arg0: !transform.any_op):
      %dequant, %contraction = transform.qforge.match_dequant_contraction %arg0
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
          %dequant, %contraction
        : (!transform.any_op, !transform.any_op)
          -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    }
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %f, "after the suppressed failure" : !transform.any_op
    transform.yield
  }
}

// -----

// Nothing changes when any pair fails, not only the failing one: the handles
// hold two pairs, the first factorable (K = 32), the second not (K = 20).
// The op must not leave the first pair factored behind a silenceable
// failure.

// CHECK-LABEL: func.func @first_factorable
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<8x4x32xi8>, %[[S:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[X:[a-z0-9_]+]]: tensor<1x1x4x32xf32>, %[[ACC:[a-z0-9_]+]]: tensor<1x1x8xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[W]], %[[S]] :
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[X]], %[[D]] : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>) outs(%[[ACC]] : tensor<1x1x8xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return %[[R]] : tensor<1x1x8xf32>

// CHECK-LABEL: func.func @second_not_factorable
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<8x4x20xi8>, %[[S:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[X:[a-z0-9_]+]]: tensor<1x1x4x20xf32>, %[[ACC:[a-z0-9_]+]]: tensor<1x1x8xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[W]], %[[S]] :
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[X]], %[[D]] : tensor<1x1x4x20xf32>, tensor<8x4x20xf32>) outs(%[[ACC]] : tensor<1x1x8xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return %[[R]] : tensor<1x1x8xf32>

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// expected-remark @below {{after the suppressed failure}}
func.func @first_factorable(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x32xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

// expected-remark @below {{after the suppressed failure}}
func.func @second_not_factorable(%weights: tensor<8x4x20xi8>, %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x20xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x20xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x20xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x20xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x20xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x20xf32>, tensor<8x4x20xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%arg0: !transform.any_op):
      %dequant, %contraction = transform.qforge.match_dequant_contraction %arg0
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
          %dequant, %contraction
        : (!transform.any_op, !transform.any_op)
          -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    }
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %f, "after the suppressed failure" : !transform.any_op
    transform.yield
  }
}

// -----

// uitofp(extsi(w)) is not uitofp(w): for w = -1 (i8) it is 4294967295.0,
// not 255.0. Whatever the op does with this body (refuse it, or keep the
// extension in the partial sums), the i8 must never reach a bare uitofp.

// CHECK-LABEL: func.func @uitofp_of_extsi
// CHECK-NOT:     arith.uitofp %{{.+}} : i8 to f32
// CHECK:         arith.extsi %{{.+}} : i8 to i32
// CHECK-NOT:     arith.uitofp %{{.+}} : i8 to f32
// CHECK:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// expected-remark @below {{after the suppressed failure}}
func.func @uitofp_of_extsi(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x32xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %w32 = arith.extsi %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%arg0: !transform.any_op):
      %dequant, %contraction = transform.qforge.match_dequant_contraction %arg0
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
          %dequant, %contraction
        : (!transform.any_op, !transform.any_op)
          -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    }
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %f, "after the suppressed failure" : !transform.any_op
    transform.yield
  }
}

// -----

// sitofp(extui(extsi(w))) with i8 -> i16 -> i32: for w = -1 it is 65535.0,
// neither uitofp(w) = 255.0 nor sitofp(w) = -1.0. The i8 must not reach a
// bare int-to-float cast.

// CHECK-LABEL: func.func @sitofp_of_extui_of_extsi
// CHECK-NOT:     tofp %{{.+}} : i8 to f32
// CHECK:         arith.extsi %{{.+}} : i8 to i16
// CHECK-NOT:     tofp %{{.+}} : i8 to f32
// CHECK:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// expected-remark @below {{after the suppressed failure}}
func.func @sitofp_of_extui_of_extsi(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x32xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %w16 = arith.extsi %w : i8 to i16
    %w32 = arith.extui %w16 : i16 to i32
    %wf = arith.sitofp %w32 : i32 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%arg0: !transform.any_op):
      %dequant, %contraction = transform.qforge.match_dequant_contraction %arg0
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
          %dequant, %contraction
        : (!transform.any_op, !transform.any_op)
          -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    }
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %f, "after the suppressed failure" : !transform.any_op
    transform.yield
  }
}

// -----

// The offset form w·s − o is factored on the packed layout only: the
// unpacked factoring says so, rather than dropping the offset.
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @offset_form(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %offsets: tensor<8x4x1xf32>, %x: tensor<1x1x4x32xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %offsets : tensor<8x4x32xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %offset: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    %shifted = arith.subf %scaled, %offset : f32
    linalg.yield %shifted : f32
  } -> tensor<8x4x32xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: an offset form (tofp(w) * scale - offset) is factored on the packed layout only (factor_packed_dequant_contraction)}}
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
