// The 4-bit ABI (docs/abi.md) checked against a kernel written on bytes by
// hand: an i4 argument NxGxK is passed as NxGxK/2 bytes, element 2i in the
// low nibble of byte i. The hand-written kernel reads each weight with
// tensor.extract at byte k/2 and sign-extends its nibble by shifts (no i4
// type, no byte-pair pass); both run as scalar loops (transforms/loops.mlir)
// on the same random inputs (same signature, same seed), and their results
// must be identical bit for bit -- the loops sum k in the same order.
// RUN: split-file %s %t
// RUN: %gen_kernel 20 3 16 --int4 --signed > %t/nibbles.mlir
// RUN: qforge-bench %t/nibbles.mlir --script=%transforms/loops.mlir --time=false --save-results=%t/nibbles.out
// RUN: qforge-bench %t/bytes.mlir --script=%transforms/loops.mlir --time=false --save-results=%t/bytes.out
// RUN: cmp %t/nibbles.out %t/bytes.out
// RUN: %gen_kernel 20 3 16 --int4 > %t/unsigned-nibbles.mlir
// RUN: qforge-bench %t/unsigned-nibbles.mlir --script=%transforms/loops.mlir --time=false --save-results=%t/unsigned-nibbles.out
// RUN: qforge-bench %t/unsigned-bytes.mlir --script=%transforms/loops.mlir --time=false --save-results=%t/unsigned-bytes.out
// RUN: cmp %t/unsigned-nibbles.out %t/unsigned-bytes.out
// And the results differ when the nibble order is swapped (the comparison
// can fail).
// RUN: qforge-bench %t/swapped-bytes.mlir --script=%transforms/loops.mlir --time=false --save-results=%t/swapped.out
// RUN: not cmp -s %t/nibbles.out %t/swapped.out


//--- bytes.mlir
#per_group = affine_map<(n, g, k) -> (n, g, 0)>
#identity = affine_map<(n, g, k) -> (n, g, k)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @quantized_matmul(%bytes: tensor<20x3x8xi8>, %scales: tensor<20x3x1xf32>,
    %zero_points: tensor<20x3x1xf32>, %x: tensor<1x1x3x16xf32>) -> tensor<1x1x20xf32> {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %four = arith.constant 4 : i8
  %init = tensor.empty() : tensor<20x3x16xf32>
  %dequant = linalg.generic {indexing_maps = [#per_group, #per_group, #identity],
                             iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scales, %zero_points : tensor<20x3x1xf32>, tensor<20x3x1xf32>)
      outs(%init : tensor<20x3x16xf32>) {
  ^bb0(%scale: f32, %zero_point: f32, %out: f32):
    %n = linalg.index 0 : index
    %g = linalg.index 1 : index
    %k = linalg.index 2 : index
    %pair = arith.divui %k, %c2 : index
    %odd = arith.remui %k, %c2 : index
    %byte = tensor.extract %bytes[%n, %g, %pair] : tensor<20x3x8xi8>
    %shift_index = arith.muli %odd, %c4 : index
    %shift = arith.index_cast %shift_index : index to i8
    %low_first = arith.subi %four, %shift : i8
    // The wanted nibble into the high half, then an arithmetic shift back.
    %high = arith.shli %byte, %low_first : i8
    %w = arith.shrsi %high, %four : i8
    %wf = arith.sitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<20x3x16xf32>
  %acc_init = tensor.empty() : tensor<1x1x20xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc_init : tensor<1x1x20xf32>) -> tensor<1x1x20xf32>
  %matvec = linalg.generic {indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x3x16xf32>, tensor<20x3x16xf32>)
      outs(%acc : tensor<1x1x20xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x20xf32>
  return %matvec : tensor<1x1x20xf32>
}

//--- unsigned-bytes.mlir
#per_group = affine_map<(n, g, k) -> (n, g, 0)>
#identity = affine_map<(n, g, k) -> (n, g, k)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @quantized_matmul(%bytes: tensor<20x3x8xi8>, %scales: tensor<20x3x1xf32>,
    %zero_points: tensor<20x3x1xf32>, %x: tensor<1x1x3x16xf32>) -> tensor<1x1x20xf32> {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %four = arith.constant 4 : i8
  %init = tensor.empty() : tensor<20x3x16xf32>
  %dequant = linalg.generic {indexing_maps = [#per_group, #per_group, #identity],
                             iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scales, %zero_points : tensor<20x3x1xf32>, tensor<20x3x1xf32>)
      outs(%init : tensor<20x3x16xf32>) {
  ^bb0(%scale: f32, %zero_point: f32, %out: f32):
    %n = linalg.index 0 : index
    %g = linalg.index 1 : index
    %k = linalg.index 2 : index
    %pair = arith.divui %k, %c2 : index
    %odd = arith.remui %k, %c2 : index
    %byte = tensor.extract %bytes[%n, %g, %pair] : tensor<20x3x8xi8>
    %shift_index = arith.muli %odd, %c4 : index
    %shift = arith.index_cast %shift_index : index to i8
    %low_first = arith.subi %four, %shift : i8
    %down = arith.shrui %byte, %shift : i8
    %fifteen = arith.constant 15 : i8
    %w = arith.andi %down, %fifteen : i8
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<20x3x16xf32>
  %acc_init = tensor.empty() : tensor<1x1x20xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc_init : tensor<1x1x20xf32>) -> tensor<1x1x20xf32>
  %matvec = linalg.generic {indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x3x16xf32>, tensor<20x3x16xf32>)
      outs(%acc : tensor<1x1x20xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x20xf32>
  return %matvec : tensor<1x1x20xf32>
}

//--- swapped-bytes.mlir
// bytes.mlir reading the high nibble for even k.
#per_group = affine_map<(n, g, k) -> (n, g, 0)>
#identity = affine_map<(n, g, k) -> (n, g, k)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @quantized_matmul(%bytes: tensor<20x3x8xi8>, %scales: tensor<20x3x1xf32>,
    %zero_points: tensor<20x3x1xf32>, %x: tensor<1x1x3x16xf32>) -> tensor<1x1x20xf32> {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %four = arith.constant 4 : i8
  %c0_i8 = arith.constant 0 : i8
  %init = tensor.empty() : tensor<20x3x16xf32>
  %dequant = linalg.generic {indexing_maps = [#per_group, #per_group, #identity],
                             iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scales, %zero_points : tensor<20x3x1xf32>, tensor<20x3x1xf32>)
      outs(%init : tensor<20x3x16xf32>) {
  ^bb0(%scale: f32, %zero_point: f32, %out: f32):
    %n = linalg.index 0 : index
    %g = linalg.index 1 : index
    %k = linalg.index 2 : index
    %pair = arith.divui %k, %c2 : index
    %odd = arith.remui %k, %c2 : index
    %byte = tensor.extract %bytes[%n, %g, %pair] : tensor<20x3x8xi8>
    %shift_index = arith.muli %odd, %c4 : index
    %shift = arith.index_cast %shift_index : index to i8
    %low_first = arith.addi %shift, %c0_i8 : i8
    // The wanted nibble into the high half, then an arithmetic shift back.
    %high = arith.shli %byte, %low_first : i8
    %w = arith.shrsi %high, %four : i8
    %wf = arith.sitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<20x3x16xf32>
  %acc_init = tensor.empty() : tensor<1x1x20xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc_init : tensor<1x1x20xf32>) -> tensor<1x1x20xf32>
  %matvec = linalg.generic {indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x3x16xf32>, tensor<20x3x16xf32>)
      outs(%acc : tensor<1x1x20xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x20xf32>
  return %matvec : tensor<1x1x20xf32>
}
