// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// Negative tests for transform.qforge.quantize_activations_and_factor. A
// pair that the integer form cannot express is a silenceable failure
// (reported as an error at the top level of the interpreter, with a note at
// the contraction); mismatched handle lengths are a definite failure and
// lanes < 1 is rejected by the verifier. FileCheck checks, where the failure
// is suppressed, that the payload is left exactly as it was.

// i4 weights (zero-extended, so unsigned): not bytes, nothing for vpdpbusd
// to read.

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @i4_weights(%weights: tensor<8x4x128xi4>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x128xi4>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i4, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i4 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
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
    // expected-error @below {{cannot factor: int8 dot products take 8-bit weights and f32 activations}}
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// i16 weights: wider than a byte.

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @i16_weights(%weights: tensor<8x4x128xi16>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x128xi16>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i16, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i16 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
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
    // expected-error @below {{cannot factor: int8 dot products take 8-bit weights and f32 activations}}
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// f16 activations and result (the float op takes any float type; the
// integer form quantizes f32 only).

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @f16_activations(%weights: tensor<8x4x128xi8>, %scales: tensor<8x4x1xf16>,
    %zero_points: tensor<8x4x1xf16>,
    %x: tensor<1x1x4x128xf16>, %acc: tensor<1x1x8xf16>) -> tensor<1x1x8xf16> {
  %dequant_init = tensor.empty() : tensor<8x4x128xf16>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x128xi8>, tensor<8x4x1xf16>, tensor<8x4x1xf16>)
      outs(%dequant_init : tensor<8x4x128xf16>) {
  ^bb0(%w: i8, %scale: f16, %zero_point: f16, %out: f16):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f16
    %shifted = arith.subf %wf, %zero_point : f16
    %scaled = arith.mulf %shifted, %scale : f16
    linalg.yield %scaled : f16
  } -> tensor<8x4x128xf16>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf16>, tensor<8x4x128xf16>)
      outs(%acc : tensor<1x1x8xf16>) {
  ^bb0(%in: f16, %a: f16, %out: f16):
    %product = arith.mulf %in, %a : f16
    %sum = arith.addf %product, %out : f16
    linalg.yield %sum : f16
  } -> tensor<1x1x8xf16>
  return %matvec : tensor<1x1x8xf16>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot factor: int8 dot products take 8-bit weights and f32 activations}}
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// K = 96 with 16 lanes: a multiple of 16 (the float op would split it as
// 6 x 16) but not of 16 lanes x 4 bytes = 64.

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @group_size_96(%weights: tensor<8x4x96xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x96xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x96xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x96xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x96xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x96xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x96xf32>, tensor<8x4x96xf32>)
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
    // expected-error @below {{cannot factor: the group size (96) is not a multiple of lanes (16) x 4 bytes per lane}}
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// K = 32 with the default lanes = 16: a multiple of 16 (and of 8 x 4 = 32,
// which lanes = 8 would accept), but not of 16 x 4 = 64 -- the attribute's
// default is the one checked.

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @group_size_32_default_lanes(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x32xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
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
    // expected-error @below {{cannot factor: the group size (32) is not a multiple of lanes (16) x 4 bytes per lane}}
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// lanes = 8 does not lift the 4-byte requirement: K = 48 is a multiple of 8
// and of 16 but not of 8 x 4 = 32.

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @group_size_48_lanes_8(%weights: tensor<8x4x48xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x48xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x48xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x48xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x48xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x48xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x48xf32>, tensor<8x4x48xf32>)
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
    // expected-error @below {{cannot factor: the group size (48) is not a multiple of lanes (8) x 4 bytes per lane}}
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction {lanes = 8}
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// lanes = 0 is rejected by the verifier (it would divide by zero).

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{'transform.qforge.quantize_activations_and_factor' op lanes must be at least 1}}
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction {lanes = 0}
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// lanes = -16 likewise.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{'transform.qforge.quantize_activations_and_factor' op lanes must be at least 1}}
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction {lanes = -16}
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
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
func.func @first(%weights: tensor<8x4x128xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x128xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

func.func @second(%weights: tensor<8x4x128xi8>, %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x128xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
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
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %c0
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Suppressed inside a transform.sequence, the failure (groups of 96, not a multiple of
// 16 lanes x 4 bytes) leaves
// the payload as it was: no activation quantization, no reshape, the dequant
// and the contraction untouched.

// CHECK-LABEL: func.func @unchanged_after_failure
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<8x4x96xi8>, %[[S:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[Z:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[X:[a-z0-9_]+]]: tensor<1x1x4x96xf32>, %[[ACC:[a-z0-9_]+]]: tensor<1x1x8xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     math.absf
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[W]], %[[S]], %[[Z]] :
// CHECK:           arith.extsi %{{.+}} : i8 to i32
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[X]], %[[D]] : tensor<1x1x4x96xf32>, tensor<8x4x96xf32>) outs(%[[ACC]] : tensor<1x1x8xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     math.absf
// CHECK:         return %[[R]] : tensor<1x1x8xf32>

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// expected-remark @below {{after the suppressed failure}}
func.func @unchanged_after_failure(%weights: tensor<8x4x96xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x96xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x96xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x96xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x96xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extsi %w : i8 to i32
    %wf = arith.sitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x96xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x96xf32>, tensor<8x4x96xf32>)
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
      %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
          %dequant, %contraction
        : (!transform.any_op, !transform.any_op)
          -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    }
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %f, "after the suppressed failure" : !transform.any_op
    transform.yield
  }
}

// -----

// Nothing changes when any pair fails, not only the failing one: the handles
// hold two pairs, the first quantizable (unsigned, K = 128), the second not
// (groups of 96). The op must not leave the first pair rewritten (with its
// activation quantized) behind a silenceable failure.

// CHECK-LABEL: func.func @first_quantizable
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<8x4x128xi8>, %[[S:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[Z:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[X:[a-z0-9_]+]]: tensor<1x1x4x128xf32>, %[[ACC:[a-z0-9_]+]]: tensor<1x1x8xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     math.absf
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[W]], %[[S]], %[[Z]] :
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[X]], %[[D]] : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>) outs(%[[ACC]] : tensor<1x1x8xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     math.absf
// CHECK:         return %[[R]] : tensor<1x1x8xf32>

// CHECK-LABEL: func.func @second_not_quantizable
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return %[[R]] : tensor<1x1x8xf32>

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// expected-remark @below {{after the suppressed failure}}
func.func @first_quantizable(%weights: tensor<8x4x128xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x128xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %product = arith.mulf %in, %a : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

// expected-remark @below {{after the suppressed failure}}
func.func @second_not_quantizable(%weights: tensor<8x4x96xi8>, %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x96xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x96xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x96xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x96xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extsi %w : i8 to i32
    %wf = arith.sitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x96xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x96xf32>, tensor<8x4x96xf32>)
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
      %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
          %dequant, %contraction
        : (!transform.any_op, !transform.any_op)
          -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    }
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %f, "after the suppressed failure" : !transform.any_op
    transform.yield
  }
}

// -----

// magnitude_times_sign takes a param of 0 or 1.
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @magnitude_times_sign_of_two(%weights: tensor<8x4x128xi8>,
    %scales: tensor<8x4x1xf32>, %x: tensor<1x1x4x128xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x128xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.sitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %two = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{expected the magnitude_times_sign param to hold one integer, 0 or 1}}
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction magnitude_times_sign = %two {lanes = 8}
      : (!transform.any_op, !transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
