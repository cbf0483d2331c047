// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// Negative tests for transform.qforge.factor_two_level_contraction: a
// contraction that is not a two-level one is a silenceable failure (an
// error at the top level of the interpreter, with a note at the contraction)
// and changes nothing.

// The offset varies along the sub-block's elements: not one per sub-block.

#bytes = affine_map<(n, b, c, h, l) -> (n, b, c, l)>
#param = affine_map<(n, b, c, h, l) -> (n, b, c, h)>
#per_element = affine_map<(n, b, c, h, l) -> (n, b, c, l)>
#elem = affine_map<(n, b, c, h, l) -> (n, b, c, h, l)>
#x = affine_map<(m, n, b, c, h, l) -> (m, b, c, h, l)>
#w = affine_map<(m, n, b, c, h, l) -> (n, b, c, h, l)>
#y = affine_map<(m, n, b, c, h, l) -> (m, n)>
func.func @offset_per_element(%qs: tensor<2x1x4x32xi8>, %scale: tensor<2x1x4x2xf32>, %offset: tensor<2x1x4x32xf32>,
                     %x: tensor<1x1x4x2x32xf32>) -> tensor<1x2xf32> {
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %init = tensor.empty() : tensor<2x1x4x2x32xf32>
  %w = linalg.generic {indexing_maps = [#bytes, #param, #per_element, #elem],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<2x1x4x32xi8>, tensor<2x1x4x2xf32>, tensor<2x1x4x32xf32>)
      outs(%init : tensor<2x1x4x2x32xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %half = linalg.index 3 : index
    %half8 = arith.index_cast %half : index to i8
    %shift = arith.muli %half8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<2x1x4x2x32xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x2xf32>) -> tensor<1x2xf32>
  // expected-note @below {{contraction}}
  %y = linalg.generic {indexing_maps = [#x, #w, #y],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x4x2x32xf32>, tensor<2x1x4x2x32xf32>) outs(%acc : tensor<1x2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}


module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot factor: the scale and the offset must be read through one projected permutation (one value per row and sub-block)}}
    %quantization, %sums, %partials, %groups, %offsets, %rows = transform.qforge.factor_two_level_contraction %func {lanes = 16}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
// -----

// A sub-block of 24 elements is not a whole number of 16-lane vectors.

#bytes = affine_map<(n, b, c, h, l) -> (n, b, c, l)>
#param = affine_map<(n, b, c, h, l) -> (n, b, c, h)>
#elem = affine_map<(n, b, c, h, l) -> (n, b, c, h, l)>
#x = affine_map<(m, n, b, c, h, l) -> (m, b, c, h, l)>
#w = affine_map<(m, n, b, c, h, l) -> (n, b, c, h, l)>
#y = affine_map<(m, n, b, c, h, l) -> (m, n)>
func.func @sub_block_of_24(%qs: tensor<2x1x4x24xi8>, %scale: tensor<2x1x4x2xf32>, %offset: tensor<2x1x4x2xf32>,
                     %x: tensor<1x1x4x2x24xf32>) -> tensor<1x2xf32> {
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %init = tensor.empty() : tensor<2x1x4x2x24xf32>
  %w = linalg.generic {indexing_maps = [#bytes, #param, #param, #elem],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<2x1x4x24xi8>, tensor<2x1x4x2xf32>, tensor<2x1x4x2xf32>)
      outs(%init : tensor<2x1x4x2x24xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %half = linalg.index 3 : index
    %half8 = arith.index_cast %half : index to i8
    %shift = arith.muli %half8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<2x1x4x2x24xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x2xf32>) -> tensor<1x2xf32>
  // expected-note @below {{contraction}}
  %y = linalg.generic {indexing_maps = [#x, #w, #y],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x4x2x24xf32>, tensor<2x1x4x2x24xf32>) outs(%acc : tensor<1x2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}


module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot factor: the sub-block (24 elements) is not a multiple of 16 lanes}}
    %quantization, %sums, %partials, %groups, %offsets, %rows = transform.qforge.factor_two_level_contraction %func {lanes = 16}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
// -----

// s·q + o: not the form (the rewrite would drop the offset's sign).

#bytes = affine_map<(n, b, c, h, l) -> (n, b, c, l)>
#param = affine_map<(n, b, c, h, l) -> (n, b, c, h)>
#elem = affine_map<(n, b, c, h, l) -> (n, b, c, h, l)>
#x = affine_map<(m, n, b, c, h, l) -> (m, b, c, h, l)>
#w = affine_map<(m, n, b, c, h, l) -> (n, b, c, h, l)>
#y = affine_map<(m, n, b, c, h, l) -> (m, n)>
func.func @offset_added(%qs: tensor<2x1x4x32xi8>, %scale: tensor<2x1x4x2xf32>, %offset: tensor<2x1x4x2xf32>,
                     %x: tensor<1x1x4x2x32xf32>) -> tensor<1x2xf32> {
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %init = tensor.empty() : tensor<2x1x4x2x32xf32>
  %w = linalg.generic {indexing_maps = [#bytes, #param, #param, #elem],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<2x1x4x32xi8>, tensor<2x1x4x2xf32>, tensor<2x1x4x2xf32>)
      outs(%init : tensor<2x1x4x2x32xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %half = linalg.index 3 : index
    %half8 = arith.index_cast %half : index to i8
    %shift = arith.muli %half8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.addf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<2x1x4x2x32xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x2xf32>) -> tensor<1x2xf32>
  // expected-note @below {{contraction}}
  %y = linalg.generic {indexing_maps = [#x, #w, #y],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x4x2x32xf32>, tensor<2x1x4x2x32xf32>) outs(%acc : tensor<1x2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}


module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot factor: the dequantization does not end in s·q or s·q − o}}
    %quantization, %sums, %partials, %groups, %offsets, %rows = transform.qforge.factor_two_level_contraction %func {lanes = 16}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
// -----

// Nothing to factor.

func.func @no_contraction(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{found no contraction of a two-level dequantization}}
    %quantization, %sums, %partials, %groups, %offsets, %rows = transform.qforge.factor_two_level_contraction %func {lanes = 16}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A negative number of lane groups is refused by the op's verifier.

func.func @negative_lane_groups(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{lane_groups must not be negative}}
    %quantization, %sums, %partials, %groups, %offsets, %rows = transform.qforge.factor_two_level_contraction %func {lanes = 16, lane_groups = -1}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
