// A sub-channel (group) quantized weight dequantized for a matmul reaches
// the seed's form: qforge-lower-quant splits the NxK storage into NxGxB
// (groups of B = 128) with NxGx1 scale and zero-point constants read through
// (d0, d1, 0); generalizing the matmul and fold_reshapes_by_expansion carry
// the split into it, a contraction over (groups, elements); and the matcher
// recognizes the pair.
// RUN: %python %examples/gen_subchannel_kernel.py 8 256 128 > %t.mlir
// RUN: qforge-opt %t.mlir --qforge-normalize-quant-storage --qforge-lower-quant \
// RUN:   --transform-preload-library=transform-library-paths=%s --transform-interpreter \
// RUN:   2>&1 | FileCheck %s

// The remark comes first (stderr is unbuffered).
// CHECK:       remark: matched the dequant and the two-reduction contraction
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[GROUP:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-DAG:   #[[X:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG:   #[[W:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func.func @subchannel_matvec
// CHECK-SAME:    (%[[XA:.+]]: tensor<1x256xf32>, %[[WA:.+]]: tensor<8x256xi8>) -> tensor<1x8xf32>
// CHECK:         %[[WS:.+]] = tensor.expand_shape %[[WA]] {{\[}}[0], [1, 2]] output_shape [8, 2, 128] : tensor<8x256xi8> into tensor<8x2x128xi8>
// CHECK:         %[[DQ:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[GROUP]], #[[GROUP]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:      ins(%[[WS]], %{{.+}}, %{{.+}} : tensor<8x2x128xi8>, tensor<8x2x1xf32>, tensor<8x2x1xf32>)
// CHECK:           arith.sitofp %{{.+}} : i8 to f32
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         %[[XS:.+]] = tensor.expand_shape %[[XA]] {{\[}}[0], [1, 2]] output_shape [1, 2, 128] : tensor<1x256xf32> into tensor<1x2x128xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[XS]], %[[DQ]] : tensor<1x2x128xf32>, tensor<8x2x128xf32>)

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %named = transform.structured.match ops{["linalg.matmul"]} in %module : (!transform.any_op) -> !transform.any_op
    %generic = transform.structured.generalize %named : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.fold_reshapes_by_expansion
    } : !transform.any_op
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %contraction, "matched the dequant and the two-reduction contraction" : !transform.any_op
    transform.yield
  }
}
