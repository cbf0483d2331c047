// q6_K's blocks read in place (examples/gen_gguf_kernel.py q6_K 4 256): a
// two-level pair whose offset 32·s is a whole multiple of its scale
// s = d·sc becomes the 8-bit seed form -- q computed into a byte per weight
// by a generic of the dequantization's own integer ops (no conversion to
// float), N x G x E; the scale's generic reshaped to N x G; a splat
// zero-point of 32; the seed's (q - 32)·s; x one reshape to 1 x M x G x E;
// the canonical 1 x M x N result. The offset's generic and the two-level
// dequantization are gone.
// RUN: %python %examples/gen_gguf_kernel.py q6_K 4 256 > %t.q6k.mlir
// RUN: qforge-opt %t.q6k.mlir --qforge-two-level-as-seed-bytes | FileCheck %s
// RUN: qforge-opt %t.q6k.mlir --qforge-two-level-as-seed-bytes | FileCheck %s --check-prefix=GONE
// Anywhere in the output: no two-level dequantization (its f32 result over
// the seven dims), no offset generic (its scalar 32).
// GONE-NOT: tensor<4x1x2x2x2x2x16xf32>
// GONE-NOT: arith.constant 3.200000e+01 : f32

// CHECK-DAG: #[[ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[GROUP:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ACT:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[WTS:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @gguf_matmul(
// CHECK-SAME:    %[[BLOCKS:.+]]: tensor<4x1x210xi8> {qforge.gguf_type = "q6_K"}, %[[X:.+]]: tensor<1x256xf32>)
// CHECK-NOT:     qforge.int4_byte_pairs
// CHECK:         %[[SCALE:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<4x1x2x2x2x2xf32>)
// CHECK:         %[[QL:.+]] = tensor.extract_slice %[[BLOCKS]][0, 0, 0] [4, 1, 128]
// CHECK:         %[[QH:.+]] = tensor.extract_slice %[[BLOCKS]][0, 0, 128] [4, 1, 64]
// CHECK:         %[[Q:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<4x1x2x2x2x16xi8>, tensor<4x1x2x2x16xi8>) outs(%{{.+}} : tensor<4x1x2x2x2x2x16xi8>)
// CHECK-NEXT:    ^bb0(%[[LOW:.+]]: i8, %[[HIGH:.+]]: i8, %{{.+}}: i8):
// CHECK-NOT:       tofp
// CHECK:           %[[SIX:.+]] = arith.ori %{{.+}}, %{{.+}} : i8
// CHECK-NEXT:      linalg.yield %[[SIX]] : i8
// CHECK:         %[[QC:.+]] = tensor.collapse_shape %[[Q]] {{\[\[}}0], [1, 2, 3, 4, 5], [6]] : tensor<4x1x2x2x2x2x16xi8> into tensor<4x16x16xi8>
// CHECK:         %[[SC:.+]] = tensor.collapse_shape %[[SCALE]] {{\[\[}}0], [1, 2, 3, 4, 5]] : tensor<4x1x2x2x2x2xf32> into tensor<4x16xf32>
// CHECK:         %[[ZP:.+]] = arith.constant dense<3.200000e+01> : tensor<4x16xf32>
// CHECK:         %[[W:.+]] = linalg.generic {indexing_maps = [#[[ID3]], #[[GROUP]], #[[GROUP]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:      ins(%[[QC]], %[[SC]], %[[ZP]] : tensor<4x16x16xi8>, tensor<4x16xf32>, tensor<4x16xf32>) outs(%{{.+}} : tensor<4x16x16xf32>)
// CHECK-NEXT:    ^bb0(%[[B:.+]]: i8, %[[S:.+]]: f32, %[[Z:.+]]: f32,
// CHECK-NEXT:      %[[WIDE:.+]] = arith.extui %[[B]] : i8 to i32
// CHECK-NEXT:      %[[QF:.+]] = arith.uitofp %[[WIDE]] : i32 to f32
// CHECK-NEXT:      %[[CENTERED:.+]] = arith.subf %[[QF]], %[[Z]] : f32
// CHECK-NEXT:      %[[VALUE:.+]] = arith.mulf %[[CENTERED]], %[[S]] : f32
// CHECK-NEXT:      linalg.yield %[[VALUE]] : f32
// CHECK:         %[[XE:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1], [2, 3]] output_shape [1, 1, 16, 16] : tensor<1x256xf32> into tensor<1x1x16x16xf32>
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x1x4xf32>)
// CHECK:         %[[Y:.+]] = linalg.generic {indexing_maps = [#[[ACT]], #[[WTS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[XE]], %[[W]] : tensor<1x1x16x16xf32>, tensor<4x16x16xf32>) outs(%[[ACC]] : tensor<1x1x4xf32>)
// CHECK:         %[[YC:.+]] = tensor.collapse_shape %[[Y]] {{\[\[}}0, 1], [2]] : tensor<1x1x4xf32> into tensor<1x4xf32>
// CHECK-NEXT:    return %[[YC]]

// A dynamic token count: x and the result keep it, read off x.
// RUN: %python %examples/gen_gguf_kernel.py q6_K 4 256 --dynamic > %t.q6kdyn.mlir
// RUN: qforge-opt %t.q6kdyn.mlir --qforge-two-level-as-seed-bytes | FileCheck %s --check-prefix=DYN
// DYN-LABEL: func.func @gguf_matmul(
// DYN-SAME:    %[[X:[^:]+]]: tensor<?x256xf32>)
// DYN:         %[[M:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x256xf32>
// DYN:         tensor.expand_shape %[[X]] {{\[\[}}0, 1], [2, 3]] output_shape [1, %[[M]], 16, 16] : tensor<?x256xf32> into tensor<1x?x16x16xf32>
// DYN:         linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x?x4xf32>)
// DYN:         tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2]] : tensor<1x?x4xf32> into tensor<?x4xf32>

// An offset that is not a whole multiple of the scale (32.5 s; q4_K's
// dmin·m) stays an offset: the seed's offset form q·s − o, the offset's
// generic reshaped to N x G beside the scale's (the packed factorings
// subtract o · Σx per group). q4_K's q is a nibble: the byte generic
// clones its shift and mask, the nibble's loop index with them.
// RUN: sed 's/arith.constant 32.0 : f32/arith.constant 32.5 : f32/' %t.q6k.mlir > %t.half.mlir
// RUN: qforge-opt %t.half.mlir --qforge-two-level-as-seed-bytes | FileCheck %s --check-prefix=OFFSET
// RUN: %python %examples/gen_gguf_kernel.py q4_K 4 256 | qforge-opt --qforge-two-level-as-seed-bytes | FileCheck %s --check-prefixes=OFFSET,Q4K
// OFFSET-LABEL: func.func @gguf_matmul(
// Q4K:          %[[Q:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<4x1x2x2x2x32xi8>)
// Q4K:            linalg.index 4 : index
// Q4K:            arith.shrui
// Q4K:            arith.andi
// Q4K-NOT:        arith.uitofp
// Q4K:            linalg.yield %{{.+}} : i8
// Q4K:          tensor.collapse_shape %[[Q]] {{\[\[}}0], [1, 2, 3, 4], [5]] : tensor<4x1x2x2x2x32xi8> into tensor<4x8x32xi8>
// OFFSET:       %[[S:.+]] = tensor.collapse_shape %{{.+}} : tensor<{{.+}}xf32> into tensor<4x[[G:[0-9]+]]xf32>
// OFFSET-NEXT:  %[[O:.+]] = tensor.collapse_shape %{{.+}} : tensor<{{.+}}xf32> into tensor<4x[[G]]xf32>
// OFFSET:       linalg.generic {{.*}} ins(%{{.+}}, %[[S]], %[[O]] : tensor<4x[[G]]x{{[0-9]+}}xi8>, tensor<4x[[G]]xf32>, tensor<4x[[G]]xf32>)
// OFFSET-NEXT:  ^bb0(%[[W:[a-z0-9_]+]]: i8, %[[WS:[a-z0-9_]+]]: f32, %[[WO:[a-z0-9_]+]]: f32, %{{.+}}: f32):
// OFFSET-NEXT:    %[[WIDE:.+]] = arith.extui %[[W]] : i8 to i32
// OFFSET-NEXT:    %[[WF:.+]] = arith.uitofp %[[WIDE]] : i32 to f32
// OFFSET-NEXT:    %[[SQ:.+]] = arith.mulf %[[WF]], %[[WS]] : f32
// OFFSET-NEXT:    %[[V:.+]] = arith.subf %[[SQ]], %[[WO]] : f32
// OFFSET-NEXT:    linalg.yield %[[V]] : f32

// Left as they are: parameters that read several arguments (the fields
// apart: the packing takes a computation on one argument).
// RUN: %python %examples/gen_gguf_kernel.py q6_K 4 256 --fields | qforge-opt --qforge-two-level-as-seed-bytes | FileCheck %s --check-prefix=KEPT
// RUN: %python %examples/gen_gguf_kernel.py q4_K 4 256 --fields | qforge-opt --qforge-two-level-as-seed-bytes | FileCheck %s --check-prefix=KEPT
// KEPT-LABEL: func.func @gguf_matmul(
// KEPT-NOT:     linalg.generic {{.*}} -> tensor<1x1x4xf32>
// KEPT:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"
// KEPT-NOT:     tensor<{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}xi8> into
