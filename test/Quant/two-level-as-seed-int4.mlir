// RUN: qforge-opt %s --split-input-file --qforge-two-level-as-seed-int4 | FileCheck %s

// q4_0's blocks read in place (examples/gen_gguf_kernel.py q4_0 8 64): a
// two-level pair whose offset 8d is a constant multiple of its scale d
// becomes the 4-bit seed form on the same bytes -- the dequantization
// (q - 8) * d over (n, b, byte, half), the pair innermost, from the
// blocks' slice, d (N x B x 1) and a splat zero-point of 8; the activation
// one reshape of x then a transpose of its two innermost dims; the
// canonical 1 x M x N result -- and the function names the blocks'
// argument as byte pairs. No two-level generic is left.

// CHECK-DAG: #[[BYTES:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[BLOCK:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0)>
// CHECK-DAG: #[[ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[ACT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4, d5)>
// CHECK-DAG: #[[WTS:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d4, d5)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @q4_0_blocks(
// CHECK-SAME:    %[[BLOCKS:.+]]: tensor<8x2x18xi8> {qforge.gguf_type = "q4_0"}, %[[X:.+]]: tensor<1x64xf32>)
// CHECK-SAME:    qforge.int4_byte_pairs = array<i64: 0>
// CHECK:         %[[D:.+]] = linalg.generic {{.*}} ins(%[[BLOCKS]], %[[BLOCKS]] : {{.*}}) outs(%{{.+}} : tensor<8x2xf16>)
// CHECK:         %[[QS:.+]] = tensor.extract_slice %[[BLOCKS]][0, 0, 2] [8, 2, 16] [1, 1, 1]
// CHECK:         %[[D1:.+]] = tensor.expand_shape %[[D]] {{\[\[}}0], [1, 2]] output_shape [8, 2, 1]
// CHECK:         %[[ZP:.+]] = arith.constant dense<8.000000e+00> : tensor<8x2x1xf32>
// CHECK:         %[[W:.+]] = linalg.generic {indexing_maps = [#[[BYTES]], #[[BLOCK]], #[[BLOCK]], #[[ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME:      ins(%[[QS]], %[[D1]], %[[ZP]] : tensor<8x2x16xi8>, tensor<8x2x1xf16>, tensor<8x2x1xf32>) outs(%{{.+}} : tensor<8x2x16x2xf32>)
// CHECK-NEXT:    ^bb0(%[[BYTE:.+]]: i8, %[[SCALE:.+]]: f16, %[[Z:.+]]: f32,
// CHECK-NEXT:      %[[HALF:.+]] = linalg.index 3 : index
// CHECK-NEXT:      %[[HALF8:.+]] = arith.index_cast %[[HALF]] : index to i8
// CHECK-NEXT:      %[[SHIFT:.+]] = arith.muli %[[HALF8]], %{{.+}} : i8
// CHECK-NEXT:      %[[SHIFTED:.+]] = arith.shrui %[[BYTE]], %[[SHIFT]] : i8
// CHECK-NEXT:      %[[NIBBLE:.+]] = arith.trunci %[[SHIFTED]] : i8 to i4
// CHECK-NEXT:      %[[WIDE:.+]] = arith.extui %[[NIBBLE]] : i4 to i32
// CHECK-NEXT:      %[[Q:.+]] = arith.uitofp %[[WIDE]] : i32 to f32
// CHECK-NEXT:      %[[CENTERED:.+]] = arith.subf %[[Q]], %[[Z]] : f32
// CHECK-NEXT:      %[[S:.+]] = arith.extf %[[SCALE]] : f16 to f32
// CHECK-NEXT:      %[[VALUE:.+]] = arith.mulf %[[CENTERED]], %[[S]] : f32
// CHECK-NEXT:      linalg.yield %[[VALUE]] : f32
// CHECK:         %[[XE:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1], [2, 3, 4]] output_shape [1, 1, 2, 2, 16] : tensor<1x64xf32> into tensor<1x1x2x2x16xf32>
// CHECK:         %[[XT:.+]] = linalg.transpose ins(%[[XE]] : tensor<1x1x2x2x16xf32>) outs(%{{.+}} : tensor<1x1x2x16x2xf32>) permutation = [0, 1, 2, 4, 3]
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x1x8xf32>)
// CHECK:         %[[Y:.+]] = linalg.generic {indexing_maps = [#[[ACT]], #[[WTS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[XT]], %[[W]] : tensor<1x1x2x16x2xf32>, tensor<8x2x16x2xf32>) outs(%[[ACC]] : tensor<1x1x8xf32>)
// CHECK:         %[[YC:.+]] = tensor.collapse_shape %[[Y]] {{\[\[}}0, 1], [2]] : tensor<1x1x8xf32> into tensor<1x8xf32>
// CHECK-NEXT:    return %[[YC]]
// CHECK-NOT:     linalg.generic

func.func @q4_0_blocks(%blocks: tensor<8x2x18xi8> {qforge.gguf_type = "q4_0"}, %x: tensor<1x64xf32>) -> tensor<1x8xf32> {
  %d_init = tensor.empty() : tensor<8x2xf16>
  %d = linalg.generic {indexing_maps = [affine_map<(n, g) -> (n, g, 0)>, affine_map<(n, g) -> (n, g, 1)>, affine_map<(n, g) -> (n, g)>], iterator_types = ["parallel", "parallel"]}
      ins(%blocks, %blocks : tensor<8x2x18xi8>, tensor<8x2x18xi8>) outs(%d_init : tensor<8x2xf16>) {
  ^bb0(%lo: i8, %hi: i8, %unused: f16):
    %lo16 = arith.extui %lo : i8 to i16
    %hi16 = arith.extui %hi : i8 to i16
    %c8 = arith.constant 8 : i16
    %high = arith.shli %hi16, %c8 : i16
    %bits = arith.ori %high, %lo16 : i16
    %half = arith.bitcast %bits : i16 to f16
    linalg.yield %half : f16
  } -> tensor<8x2xf16>
  %scale_init = tensor.empty() : tensor<8x2x2xf32>
  %scale = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf16>) outs(%scale_init : tensor<8x2x2xf32>) {
  ^bb0(%super: f16, %unused: f32):
    %superf = arith.extf %super : f16 to f32
    linalg.yield %superf : f32
  } -> tensor<8x2x2xf32>
  %offset_init = tensor.empty() : tensor<8x2x2xf32>
  %offset = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf16>) outs(%offset_init : tensor<8x2x2xf32>) {
  ^bb0(%super: f16, %unused: f32):
    %superf = arith.extf %super : f16 to f32
    %c8f = arith.constant 8.0 : f32
    %value = arith.mulf %superf, %c8f : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2xf32>
  %qs = tensor.extract_slice %blocks[0, 0, 2] [8, 2, 16] [1, 1, 1] : tensor<8x2x18xi8> to tensor<8x2x16xi8>
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %w_init = tensor.empty() : tensor<8x2x2x16xf32>
  // Element (h, l): nibble h of qs[l], s * q - o of its half-block.
  %w = linalg.generic {indexing_maps = [affine_map<(n, b, h, l) -> (n, b, l)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<8x2x16xi8>, tensor<8x2x2xf32>, tensor<8x2x2xf32>) outs(%w_init : tensor<8x2x2x16xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %h = linalg.index 2 : index
    %h8 = arith.index_cast %h : index to i8
    %shift = arith.muli %h8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2x16xf32>
  %xe = tensor.expand_shape %x [[0], [1, 2, 3]] output_shape [1, 2, 2, 16] : tensor<1x64xf32> into tensor<1x2x2x16xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x8xf32>) -> tensor<1x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, b, h, l) -> (m, b, h, l)>, affine_map<(m, n, b, h, l) -> (n, b, h, l)>, affine_map<(m, n, b, h, l) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xe, %w : tensor<1x2x2x16xf32>, tensor<8x2x2x16xf32>) outs(%acc : tensor<1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

// -----

// A dynamic token count: the activation's reshape and the result's empty
// tensor take M from x.

// CHECK-LABEL: func.func @q4_0_blocks_dynamic(
// CHECK-SAME:    %{{.+}}: tensor<8x2x18xi8> {qforge.gguf_type = "q4_0"}, %[[X:.+]]: tensor<?x64xf32>)
// CHECK-SAME:    qforge.int4_byte_pairs = array<i64: 0>
// CHECK:         %[[XE:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1], [2, 3, 4]] output_shape [1, %{{.+}}, 2, 2, 16] : tensor<?x64xf32> into tensor<1x?x2x2x16xf32>
// CHECK:         %[[XT:.+]] = linalg.transpose ins(%[[XE]] : tensor<1x?x2x2x16xf32>) outs(%{{.+}} : tensor<1x?x2x16x2xf32>) permutation = [0, 1, 2, 4, 3]
// CHECK:         %[[M:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x64xf32>
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%[[M]]) : tensor<1x?x8xf32>
// CHECK-NOT:     tensor<?x2x2x16xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[XT]], %{{.+}} : tensor<1x?x2x16x2xf32>, tensor<8x2x16x2xf32>) outs(%{{.+}} : tensor<1x?x8xf32>)
// CHECK:         tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2]] : tensor<1x?x8xf32> into tensor<?x8xf32>

func.func @q4_0_blocks_dynamic(%blocks: tensor<8x2x18xi8> {qforge.gguf_type = "q4_0"}, %x: tensor<?x64xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x64xf32>
  %d_init = tensor.empty() : tensor<8x2xf16>
  %d = linalg.generic {indexing_maps = [affine_map<(n, g) -> (n, g, 0)>, affine_map<(n, g) -> (n, g, 1)>, affine_map<(n, g) -> (n, g)>], iterator_types = ["parallel", "parallel"]}
      ins(%blocks, %blocks : tensor<8x2x18xi8>, tensor<8x2x18xi8>) outs(%d_init : tensor<8x2xf16>) {
  ^bb0(%lo: i8, %hi: i8, %unused: f16):
    %lo16 = arith.extui %lo : i8 to i16
    %hi16 = arith.extui %hi : i8 to i16
    %c8 = arith.constant 8 : i16
    %high = arith.shli %hi16, %c8 : i16
    %bits = arith.ori %high, %lo16 : i16
    %half = arith.bitcast %bits : i16 to f16
    linalg.yield %half : f16
  } -> tensor<8x2xf16>
  %scale_init = tensor.empty() : tensor<8x2x2xf32>
  %scale = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf16>) outs(%scale_init : tensor<8x2x2xf32>) {
  ^bb0(%super: f16, %unused: f32):
    %superf = arith.extf %super : f16 to f32
    linalg.yield %superf : f32
  } -> tensor<8x2x2xf32>
  %offset_init = tensor.empty() : tensor<8x2x2xf32>
  %offset = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf16>) outs(%offset_init : tensor<8x2x2xf32>) {
  ^bb0(%super: f16, %unused: f32):
    %superf = arith.extf %super : f16 to f32
    %c8f = arith.constant 8.0 : f32
    %value = arith.mulf %superf, %c8f : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2xf32>
  %qs = tensor.extract_slice %blocks[0, 0, 2] [8, 2, 16] [1, 1, 1] : tensor<8x2x18xi8> to tensor<8x2x16xi8>
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %w_init = tensor.empty() : tensor<8x2x2x16xf32>
  // Element (h, l): nibble h of qs[l], s * q - o of its half-block.
  %w = linalg.generic {indexing_maps = [affine_map<(n, b, h, l) -> (n, b, l)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<8x2x16xi8>, tensor<8x2x2xf32>, tensor<8x2x2xf32>) outs(%w_init : tensor<8x2x2x16xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %h = linalg.index 2 : index
    %h8 = arith.index_cast %h : index to i8
    %shift = arith.muli %h8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2x16xf32>
  %xe = tensor.expand_shape %x [[0], [1, 2, 3]] output_shape [%m, 2, 2, 16] : tensor<?x64xf32> into tensor<?x2x2x16xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty(%m) : tensor<?x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<?x8xf32>) -> tensor<?x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, b, h, l) -> (m, b, h, l)>, affine_map<(m, n, b, h, l) -> (n, b, h, l)>, affine_map<(m, n, b, h, l) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xe, %w : tensor<?x2x2x16xf32>, tensor<8x2x2x16xf32>) outs(%acc : tensor<?x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

// An offset 8d' of another value per block than the scale's d is no
// zero-point: the pair is left as it is.

// CHECK-LABEL: func.func @offset_of_another_scale(
// CHECK-NOT:     qforge.int4_byte_pairs
// CHECK:         linalg.generic {indexing_maps = [{{.+}}], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-NOT:     linalg.transpose

func.func @offset_of_another_scale(%blocks: tensor<8x2x18xi8>, %x: tensor<1x64xf32>, %other: tensor<8x2xf16>) -> tensor<1x8xf32> {
  %d_init = tensor.empty() : tensor<8x2xf16>
  %d = linalg.generic {indexing_maps = [affine_map<(n, g) -> (n, g, 0)>, affine_map<(n, g) -> (n, g, 1)>, affine_map<(n, g) -> (n, g)>], iterator_types = ["parallel", "parallel"]}
      ins(%blocks, %blocks : tensor<8x2x18xi8>, tensor<8x2x18xi8>) outs(%d_init : tensor<8x2xf16>) {
  ^bb0(%lo: i8, %hi: i8, %unused: f16):
    %lo16 = arith.extui %lo : i8 to i16
    %hi16 = arith.extui %hi : i8 to i16
    %c8 = arith.constant 8 : i16
    %high = arith.shli %hi16, %c8 : i16
    %bits = arith.ori %high, %lo16 : i16
    %half = arith.bitcast %bits : i16 to f16
    linalg.yield %half : f16
  } -> tensor<8x2xf16>
  %scale_init = tensor.empty() : tensor<8x2x2xf32>
  %scale = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf16>) outs(%scale_init : tensor<8x2x2xf32>) {
  ^bb0(%super: f16, %unused: f32):
    %superf = arith.extf %super : f16 to f32
    linalg.yield %superf : f32
  } -> tensor<8x2x2xf32>
  %offset_init = tensor.empty() : tensor<8x2x2xf32>
  %offset = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%other : tensor<8x2xf16>) outs(%offset_init : tensor<8x2x2xf32>) {
  ^bb0(%super: f16, %unused: f32):
    %superf = arith.extf %super : f16 to f32
    %c8f = arith.constant 8.0 : f32
    %value = arith.mulf %superf, %c8f : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2xf32>
  %qs = tensor.extract_slice %blocks[0, 0, 2] [8, 2, 16] [1, 1, 1] : tensor<8x2x18xi8> to tensor<8x2x16xi8>
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %w_init = tensor.empty() : tensor<8x2x2x16xf32>
  // Element (h, l): nibble h of qs[l], s * q - o of its half-block.
  %w = linalg.generic {indexing_maps = [affine_map<(n, b, h, l) -> (n, b, l)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<8x2x16xi8>, tensor<8x2x2xf32>, tensor<8x2x2xf32>) outs(%w_init : tensor<8x2x2x16xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %h = linalg.index 2 : index
    %h8 = arith.index_cast %h : index to i8
    %shift = arith.muli %h8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2x16xf32>
  %xe = tensor.expand_shape %x [[0], [1, 2, 3]] output_shape [1, 2, 2, 16] : tensor<1x64xf32> into tensor<1x2x2x16xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x8xf32>) -> tensor<1x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, b, h, l) -> (m, b, h, l)>, affine_map<(m, n, b, h, l) -> (n, b, h, l)>, affine_map<(m, n, b, h, l) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xe, %w : tensor<1x2x2x16xf32>, tensor<8x2x2x16xf32>) outs(%acc : tensor<1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

// -----

// Nor is an offset d + 8.

// CHECK-LABEL: func.func @offset_not_a_multiple(
// CHECK-NOT:     qforge.int4_byte_pairs
// CHECK:         linalg.generic {indexing_maps = [{{.+}}], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-NOT:     linalg.transpose

func.func @offset_not_a_multiple(%blocks: tensor<8x2x18xi8> {qforge.gguf_type = "q4_0"}, %x: tensor<1x64xf32>) -> tensor<1x8xf32> {
  %d_init = tensor.empty() : tensor<8x2xf16>
  %d = linalg.generic {indexing_maps = [affine_map<(n, g) -> (n, g, 0)>, affine_map<(n, g) -> (n, g, 1)>, affine_map<(n, g) -> (n, g)>], iterator_types = ["parallel", "parallel"]}
      ins(%blocks, %blocks : tensor<8x2x18xi8>, tensor<8x2x18xi8>) outs(%d_init : tensor<8x2xf16>) {
  ^bb0(%lo: i8, %hi: i8, %unused: f16):
    %lo16 = arith.extui %lo : i8 to i16
    %hi16 = arith.extui %hi : i8 to i16
    %c8 = arith.constant 8 : i16
    %high = arith.shli %hi16, %c8 : i16
    %bits = arith.ori %high, %lo16 : i16
    %half = arith.bitcast %bits : i16 to f16
    linalg.yield %half : f16
  } -> tensor<8x2xf16>
  %scale_init = tensor.empty() : tensor<8x2x2xf32>
  %scale = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf16>) outs(%scale_init : tensor<8x2x2xf32>) {
  ^bb0(%super: f16, %unused: f32):
    %superf = arith.extf %super : f16 to f32
    linalg.yield %superf : f32
  } -> tensor<8x2x2xf32>
  %offset_init = tensor.empty() : tensor<8x2x2xf32>
  %offset = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf16>) outs(%offset_init : tensor<8x2x2xf32>) {
  ^bb0(%super: f16, %unused: f32):
    %superf = arith.extf %super : f16 to f32
    %c8f = arith.constant 8.0 : f32
    %value = arith.addf %superf, %c8f : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2xf32>
  %qs = tensor.extract_slice %blocks[0, 0, 2] [8, 2, 16] [1, 1, 1] : tensor<8x2x18xi8> to tensor<8x2x16xi8>
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %w_init = tensor.empty() : tensor<8x2x2x16xf32>
  // Element (h, l): nibble h of qs[l], s * q - o of its half-block.
  %w = linalg.generic {indexing_maps = [affine_map<(n, b, h, l) -> (n, b, l)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<8x2x16xi8>, tensor<8x2x2xf32>, tensor<8x2x2xf32>) outs(%w_init : tensor<8x2x2x16xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %h = linalg.index 2 : index
    %h8 = arith.index_cast %h : index to i8
    %shift = arith.muli %h8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2x16xf32>
  %xe = tensor.expand_shape %x [[0], [1, 2, 3]] output_shape [1, 2, 2, 16] : tensor<1x64xf32> into tensor<1x2x2x16xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x8xf32>) -> tensor<1x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, b, h, l) -> (m, b, h, l)>, affine_map<(m, n, b, h, l) -> (n, b, h, l)>, affine_map<(m, n, b, h, l) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xe, %w : tensor<1x2x2x16xf32>, tensor<8x2x2x16xf32>) outs(%acc : tensor<1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

// -----

// A scale of f32 is not taken: d·q - 8d and (q - 8)·d could then differ in
// their last bit.

// CHECK-LABEL: func.func @scale_of_f32(
// CHECK-NOT:     qforge.int4_byte_pairs
// CHECK-NOT:     linalg.transpose
// CHECK:         return

func.func @scale_of_f32(%blocks: tensor<8x2x18xi8> {qforge.gguf_type = "q4_0"}, %x: tensor<1x64xf32>) -> tensor<1x8xf32> {
  %d_init = tensor.empty() : tensor<8x2xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(n, g) -> (n, g, 0)>, affine_map<(n, g) -> (n, g, 1)>, affine_map<(n, g) -> (n, g)>], iterator_types = ["parallel", "parallel"]}
      ins(%blocks, %blocks : tensor<8x2x18xi8>, tensor<8x2x18xi8>) outs(%d_init : tensor<8x2xf32>) {
  ^bb0(%lo: i8, %hi: i8, %unused: f32):
    %lo16 = arith.extui %lo : i8 to i16
    %hi16 = arith.extui %hi : i8 to i16
    %c8 = arith.constant 8 : i16
    %high = arith.shli %hi16, %c8 : i16
    %bits = arith.ori %high, %lo16 : i16
    %half = arith.bitcast %bits : i16 to f16
    %wide = arith.extf %half : f16 to f32
    linalg.yield %wide : f32
  } -> tensor<8x2xf32>
  %scale_init = tensor.empty() : tensor<8x2x2xf32>
  %scale = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf32>) outs(%scale_init : tensor<8x2x2xf32>) {
  ^bb0(%superf: f32, %unused: f32):
    linalg.yield %superf : f32
  } -> tensor<8x2x2xf32>
  %offset_init = tensor.empty() : tensor<8x2x2xf32>
  %offset = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf32>) outs(%offset_init : tensor<8x2x2xf32>) {
  ^bb0(%superf: f32, %unused: f32):
    %c8f = arith.constant 8.0 : f32
    %value = arith.mulf %superf, %c8f : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2xf32>
  %qs = tensor.extract_slice %blocks[0, 0, 2] [8, 2, 16] [1, 1, 1] : tensor<8x2x18xi8> to tensor<8x2x16xi8>
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %w_init = tensor.empty() : tensor<8x2x2x16xf32>
  // Element (h, l): nibble h of qs[l], s * q - o of its half-block.
  %w = linalg.generic {indexing_maps = [affine_map<(n, b, h, l) -> (n, b, l)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<8x2x16xi8>, tensor<8x2x2xf32>, tensor<8x2x2xf32>) outs(%w_init : tensor<8x2x2x16xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %h = linalg.index 2 : index
    %h8 = arith.index_cast %h : index to i8
    %shift = arith.muli %h8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2x16xf32>
  %xe = tensor.expand_shape %x [[0], [1, 2, 3]] output_shape [1, 2, 2, 16] : tensor<1x64xf32> into tensor<1x2x2x16xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x8xf32>) -> tensor<1x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, b, h, l) -> (m, b, h, l)>, affine_map<(m, n, b, h, l) -> (n, b, h, l)>, affine_map<(m, n, b, h, l) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xe, %w : tensor<1x2x2x16xf32>, tensor<8x2x2x16xf32>) outs(%acc : tensor<1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

// -----

// Nor a zero-point that is not a whole number.

// CHECK-LABEL: func.func @zero_point_not_whole(
// CHECK-NOT:     qforge.int4_byte_pairs
// CHECK-NOT:     linalg.transpose
// CHECK:         return

func.func @zero_point_not_whole(%blocks: tensor<8x2x18xi8> {qforge.gguf_type = "q4_0"}, %x: tensor<1x64xf32>) -> tensor<1x8xf32> {
  %d_init = tensor.empty() : tensor<8x2xf16>
  %d = linalg.generic {indexing_maps = [affine_map<(n, g) -> (n, g, 0)>, affine_map<(n, g) -> (n, g, 1)>, affine_map<(n, g) -> (n, g)>], iterator_types = ["parallel", "parallel"]}
      ins(%blocks, %blocks : tensor<8x2x18xi8>, tensor<8x2x18xi8>) outs(%d_init : tensor<8x2xf16>) {
  ^bb0(%lo: i8, %hi: i8, %unused: f16):
    %lo16 = arith.extui %lo : i8 to i16
    %hi16 = arith.extui %hi : i8 to i16
    %c8 = arith.constant 8 : i16
    %high = arith.shli %hi16, %c8 : i16
    %bits = arith.ori %high, %lo16 : i16
    %half = arith.bitcast %bits : i16 to f16
    linalg.yield %half : f16
  } -> tensor<8x2xf16>
  %scale_init = tensor.empty() : tensor<8x2x2xf32>
  %scale = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf16>) outs(%scale_init : tensor<8x2x2xf32>) {
  ^bb0(%super: f16, %unused: f32):
    %superf = arith.extf %super : f16 to f32
    linalg.yield %superf : f32
  } -> tensor<8x2x2xf32>
  %offset_init = tensor.empty() : tensor<8x2x2xf32>
  %offset = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf16>) outs(%offset_init : tensor<8x2x2xf32>) {
  ^bb0(%super: f16, %unused: f32):
    %superf = arith.extf %super : f16 to f32
    %c8f = arith.constant 8.5 : f32
    %value = arith.mulf %superf, %c8f : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2xf32>
  %qs = tensor.extract_slice %blocks[0, 0, 2] [8, 2, 16] [1, 1, 1] : tensor<8x2x18xi8> to tensor<8x2x16xi8>
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %w_init = tensor.empty() : tensor<8x2x2x16xf32>
  // Element (h, l): nibble h of qs[l], s * q - o of its half-block.
  %w = linalg.generic {indexing_maps = [affine_map<(n, b, h, l) -> (n, b, l)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<8x2x16xi8>, tensor<8x2x2xf32>, tensor<8x2x2xf32>) outs(%w_init : tensor<8x2x2x16xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %h = linalg.index 2 : index
    %h8 = arith.index_cast %h : index to i8
    %shift = arith.muli %h8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2x16xf32>
  %xe = tensor.expand_shape %x [[0], [1, 2, 3]] output_shape [1, 2, 2, 16] : tensor<1x64xf32> into tensor<1x2x2x16xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x8xf32>) -> tensor<1x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, b, h, l) -> (m, b, h, l)>, affine_map<(m, n, b, h, l) -> (n, b, h, l)>, affine_map<(m, n, b, h, l) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xe, %w : tensor<1x2x2x16xf32>, tensor<8x2x2x16xf32>) outs(%acc : tensor<1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

// -----

// An offset that is the scale itself (c = 1, one generic read twice) gives
// a zero-point of 1, and that generic is erased once.

// CHECK-LABEL: func.func @offset_is_the_scale(
// CHECK-SAME:    qforge.int4_byte_pairs = array<i64: 0>
// CHECK:         arith.constant dense<1.000000e+00> : tensor<8x2x1xf32>
// CHECK:         linalg.transpose
// CHECK-NOT:     tensor<8x2x2xf32>
// CHECK:         return

func.func @offset_is_the_scale(%blocks: tensor<8x2x18xi8> {qforge.gguf_type = "q4_0"}, %x: tensor<1x64xf32>) -> tensor<1x8xf32> {
  %d_init = tensor.empty() : tensor<8x2xf16>
  %d = linalg.generic {indexing_maps = [affine_map<(n, g) -> (n, g, 0)>, affine_map<(n, g) -> (n, g, 1)>, affine_map<(n, g) -> (n, g)>], iterator_types = ["parallel", "parallel"]}
      ins(%blocks, %blocks : tensor<8x2x18xi8>, tensor<8x2x18xi8>) outs(%d_init : tensor<8x2xf16>) {
  ^bb0(%lo: i8, %hi: i8, %unused: f16):
    %lo16 = arith.extui %lo : i8 to i16
    %hi16 = arith.extui %hi : i8 to i16
    %c8 = arith.constant 8 : i16
    %high = arith.shli %hi16, %c8 : i16
    %bits = arith.ori %high, %lo16 : i16
    %half = arith.bitcast %bits : i16 to f16
    linalg.yield %half : f16
  } -> tensor<8x2xf16>
  %scale_init = tensor.empty() : tensor<8x2x2xf32>
  %scale = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf16>) outs(%scale_init : tensor<8x2x2xf32>) {
  ^bb0(%super: f16, %unused: f32):
    %superf = arith.extf %super : f16 to f32
    linalg.yield %superf : f32
  } -> tensor<8x2x2xf32>
  %offset_init = tensor.empty() : tensor<8x2x2xf32>
  %offset = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x2xf16>) outs(%offset_init : tensor<8x2x2xf32>) {
  ^bb0(%super: f16, %unused: f32):
    %superf = arith.extf %super : f16 to f32
    %c8f = arith.constant 8.0 : f32
    %value = arith.mulf %superf, %c8f : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2xf32>
  %qs = tensor.extract_slice %blocks[0, 0, 2] [8, 2, 16] [1, 1, 1] : tensor<8x2x18xi8> to tensor<8x2x16xi8>
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %w_init = tensor.empty() : tensor<8x2x2x16xf32>
  // Element (h, l): nibble h of qs[l], s * q - o of its half-block.
  %w = linalg.generic {indexing_maps = [affine_map<(n, b, h, l) -> (n, b, l)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %scale : tensor<8x2x16xi8>, tensor<8x2x2xf32>, tensor<8x2x2xf32>) outs(%w_init : tensor<8x2x2x16xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %h = linalg.index 2 : index
    %h8 = arith.index_cast %h : index to i8
    %shift = arith.muli %h8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<8x2x2x16xf32>
  %xe = tensor.expand_shape %x [[0], [1, 2, 3]] output_shape [1, 2, 2, 16] : tensor<1x64xf32> into tensor<1x2x2x16xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x8xf32>) -> tensor<1x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, b, h, l) -> (m, b, h, l)>, affine_map<(m, n, b, h, l) -> (n, b, h, l)>, affine_map<(m, n, b, h, l) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xe, %w : tensor<1x2x2x16xf32>, tensor<8x2x2x16xf32>) outs(%acc : tensor<1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}
