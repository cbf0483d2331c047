// RUN: qforge-opt %s --split-input-file --qforge-store-int4-as-byte-pairs --verify-diagnostics

// Two nibbles per byte need an even innermost dim.
// expected-error @below {{argument #0 has type 'tensor<4x7xi4>'; qforge stores i4 two per byte along the innermost dim, which must be static and even}}
func.func @odd(%w: tensor<4x7xi4>) -> tensor<4x7xf32> {
  %init = tensor.empty() : tensor<4x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<4x7xi4>) outs(%init : tensor<4x7xf32>) {
  ^bb0(%in: i4, %out: f32):
    %f = arith.sitofp %in : i4 to f32
    linalg.yield %f : f32
  } -> tensor<4x7xf32>
  return %r : tensor<4x7xf32>
}

// -----

// Only generics reading the argument know the byte pairs.
// expected-error @below {{argument #0 ('tensor<4x8xi4>') is used by 'tensor.extract_slice'; qforge reads i4 arguments only as linalg.generic inputs (e.g. the dequantization), directly or through a tensor.expand_shape that keeps the innermost dim even}}
func.func @sliced(%w: tensor<4x8xi4>) -> tensor<2x8xi4> {
  %s = tensor.extract_slice %w[0, 0] [2, 8] [1, 1] : tensor<4x8xi4> to tensor<2x8xi4>
  return %s : tensor<2x8xi4>
}

// -----

// Written by a generic (its init), not read.
// expected-error @below {{argument #0 ('tensor<4x8xi4>') is used by 'linalg.generic'; qforge reads i4 arguments only as linalg.generic inputs (e.g. the dequantization), directly or through a tensor.expand_shape that keeps the innermost dim even}}
func.func @written(%w: tensor<4x8xi4>, %x: tensor<4x8xi8>) -> tensor<4x8xi4> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xi8>) outs(%w : tensor<4x8xi4>) {
  ^bb0(%in: i8, %out: i4):
    %t = arith.trunci %in : i8 to i4
    linalg.yield %t : i4
  } -> tensor<4x8xi4>
  return %r : tensor<4x8xi4>
}

// -----

// Two i4 tensors in one generic: the second's innermost dim would be split
// twice.
func.func @two(%a: tensor<4x8xi4>, %b: tensor<4x8xi4>) -> tensor<4x8xf32> {
  %init = tensor.empty() : tensor<4x8xf32>
  // expected-error @below {{reads more than one i4 tensor; qforge splits one per generic}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xi4>, tensor<4x8xi4>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%x: i4, %y: i4, %out: f32):
    %s = arith.addi %x, %y : i4
    %f = arith.sitofp %s : i4 to f32
    linalg.yield %f : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// The innermost dim read through a constant: not a loop that can be split.
func.func @broadcast_nibble(%w: tensor<4x2xi4>) -> tensor<4x2xf32> {
  %init = tensor.empty() : tensor<4x2xf32>
  // expected-error @below {{reads an i4 tensor whose innermost dim is not a loop dim (affine_map<(d0, d1) -> (d0, 0)>); qforge stores i4 as byte pairs along it}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<4x2xi4>) outs(%init : tensor<4x2xf32>) {
  ^bb0(%x: i4, %out: f32):
    %f = arith.sitofp %x : i4 to f32
    linalg.yield %f : f32
  } -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
