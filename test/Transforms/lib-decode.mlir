// Each sequence of transforms/lib/decode.mlir run alone, through an entry
// point of this file (--transform-interpreter=entry-point=test_NAME), with
// the library preloaded; what runs before it in an entry point only builds
// its input. A loop a sequence returns is tagged {returned}.
// RUN: %python %examples/gen_subchannel_kernel.py 8 256 128 \
// RUN:   | qforge-opt --qforge-normalize-quant-storage --qforge-lower-quant > %t.sub.mlir
// RUN: %gen_kernel 64 2 128 > %t.decode.mlir
// RUN: %gen_kernel 64 86 128 > %t.groups86.mlir
// RUN: qforge-opt %t.sub.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_generalize_and_match_dequant | FileCheck %s --check-prefix=GEN
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_activation_sums_per_chunk | FileCheck %s --check-prefix=SUMS
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_quantize_activation_per_group | FileCheck %s --check-prefix=QUANT
// RUN: qforge-opt %t.groups86.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_f32_rows_in_group_blocks | FileCheck %s --check-prefix=BLOCKS
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_int8_rows_and_groups | FileCheck %s --check-prefix=ROWS8
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_decode_f32_16_lanes \
// RUN:   | FileCheck %s --check-prefix=F16 --implicit-check-not=linalg.
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_decode_f32_8_lanes \
// RUN:   | FileCheck %s --check-prefix=F8 --implicit-check-not=linalg.
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_decode_int8_16_lanes \
// RUN:   | FileCheck %s --check-prefix=I16 --implicit-check-not=linalg.
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_decode_int8_8_lanes \
// RUN:   | FileCheck %s --check-prefix=I8 --implicit-check-not=linalg.
// RUN: qforge-opt %t.groups86.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_split_group_sums | FileCheck %s --check-prefix=SPLIT
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_vectorize_f32_decode | FileCheck %s --check-prefix=VF

// @generalize_and_match_dequant: the sub-channel matvec (a linalg.matmul on
// NxK weights reshaped from NxGxB) is a generic contraction over (groups,
// elements), and the dequant's extsi + sitofp one sitofp.
// GEN-LABEL: func.func @subchannel_matvec
// GEN-NOT:   linalg.matmul
// GEN:       linalg.generic
// GEN-SAME:    ins(%{{.+}}, %{{.+}}, %{{.+}} : tensor<8x2x128xi8>, tensor<8x2x1xf32>, tensor<8x2x1xf32>)
// GEN-NEXT:  ^bb0(%[[W:.+]]: i8,
// GEN-NEXT:    arith.sitofp %[[W]] : i8 to f32
// GEN:       linalg.generic
// GEN-SAME:    iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// GEN-SAME:    ins(%{{.+}}, %{{.+}} : tensor<1x2x128xf32>, tensor<8x2x128xf32>)

// @tile_activation_sums_per_chunk: xs one group and one 16-lane chunk at a
// time; the chunk loop (8 of a group) returned.
// SUMS-LABEL: func.func @quantized_matmul
// SUMS:       scf.for %{{.+}} = %c0 to %c2 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (tensor<1x1x2x16xf32>)
// SUMS-NEXT:    scf.for %{{.+}} = %{{.+}} to %c8 step %{{.+}} iter_args
// SUMS:           linalg.generic
// SUMS-SAME:        ins(%{{.+}} : tensor<1x1x1x1x16xf32>) outs(%{{.+}} : tensor<1x1x1x16xf32>)
// SUMS:         } {returned}

// @quantize_activation_per_group: the activation's maximum and its int8
// quantization one group of 128 at a time, then its sums (16 lanes x 4
// bytes per step), the step loop returned.
// QUANT-LABEL: func.func @quantized_matmul
// QUANT:       scf.for {{.*}} -> (tensor<1x1x2xi32>)
// QUANT:         linalg.generic
// QUANT-SAME:      ins(%{{.+}} : tensor<1x1x1x128xf32>) outs(%{{.+}} : tensor<1x1x1xi32>)
// QUANT:       scf.for {{.*}} -> (tensor<1x1x2x128xi8>)
// QUANT:         linalg.generic
// QUANT-SAME:      ins(%{{.+}}, %{{.+}} : tensor<1x1x1x128xf32>, tensor<1x1x1xi32>) outs(%{{.+}} : tensor<1x1x1x128xi8>)
// QUANT:       scf.for {{.*}} -> (tensor<1x1x2x16xf32>)
// QUANT-NEXT:    scf.for
// QUANT:           linalg.generic
// QUANT-SAME:        ins(%{{.+}} : tensor<1x1x1x1x16x4xi8>) outs(%{{.+}} : tensor<1x1x1x16xf32>)
// QUANT:         } {returned}

// @tile_f32_rows_in_group_blocks, 86 groups: xs one group and one chunk at
// a time; the fill a row at a time; two blocks of 43 groups; in each, a row
// per iteration of the tagged forall, the block's partial sums fused in; a
// group per iteration; a 16-lane chunk per step; both chunk loops returned;
// the rows' sums in their own forall.
// BLOCKS-LABEL: func.func @quantized_matmul
// BLOCKS:       scf.for {{.*}} -> (tensor<1x1x86x16xf32>)
// BLOCKS-NEXT:    scf.for {{.*}} -> (tensor<1x1x86x16xf32>)
// BLOCKS:             ins(%{{.+}} : tensor<1x1x1x1x16xf32>) outs(%{{.+}} : tensor<1x1x1x16xf32>)
// BLOCKS:         } {returned}
// BLOCKS:       scf.forall (%{{.+}}) in (64)
// BLOCKS:         linalg.fill {{.*}} -> tensor<1x1x1x16xf32>
// BLOCKS:       scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (tensor<1x1x64x16xf32>)
// BLOCKS:         linalg.generic
// BLOCKS-SAME:      ins(%{{.+}}, %{{.+}} : tensor<1x1x43x8x16xf32>, tensor<64x43x8x16xi8>)
// BLOCKS:         scf.forall (%{{.+}}) in (64)
// BLOCKS:           linalg.generic
// BLOCKS-SAME:        ins(%{{.+}}, %{{.+}} : tensor<1x1x43x8x16xf32>, tensor<1x43x8x16xi8>)
// BLOCKS:           scf.for {{.*}} -> (tensor<1x1x1x16xf32>)
// BLOCKS:             scf.for {{.*}} -> (tensor<1x1x1x1x16xf32>)
// BLOCKS:               linalg.generic
// BLOCKS-SAME:            ins(%{{.+}}, %{{.+}} : tensor<1x1x1x1x16xf32>, tensor<1x1x1x16xi8>)
// BLOCKS:             } {returned}
// BLOCKS:         } {qforge.weight_rows}
// BLOCKS:       scf.forall (%{{.+}}) in (64)
// BLOCKS:         linalg.generic
// BLOCKS-SAME:      ins(%{{.+}} : tensor<1x1x1x16xf32>) outs(%{{.+}} : tensor<1x1x1xf32>)

// @tile_int8_rows_and_groups: the activation quantized and summed as in
// @quantize_activation_per_group; a row per iteration of the tagged forall
// (group sums, partial sums and fills fused in), a group per iteration, a
// step of 16 lanes x 4 bytes at a time; both step loops returned.
// ROWS8-LABEL: func.func @quantized_matmul
// ROWS8:       scf.for {{.*}} -> (tensor<1x1x2x16xf32>)
// ROWS8-NEXT:    scf.for {{.*}} -> (tensor<1x1x2x16xf32>)
// ROWS8:         } {returned}
// ROWS8:       scf.forall (%{{.+}}) in (64)
// ROWS8:         linalg.fill {{.*}} -> tensor<1x1x1x2x16xi32>
// ROWS8:         scf.for {{.*}} -> (tensor<1x1x1x16xf32>)
// ROWS8:           linalg.fill {{.*}} -> tensor<1x1x1x1x16xi32>
// ROWS8:           scf.for {{.*}} -> (tensor<1x1x1x1x16xi32>)
// ROWS8:             linalg.generic
// ROWS8-SAME:          ins(%{{.+}}, %{{.+}} : tensor<1x1x1x1x16x4xi8>, tensor<1x1x1x16x4xi8>)
// ROWS8:           } {returned}
// ROWS8:         } {qforge.weight_groups}
// ROWS8:       } {qforge.weight_rows}

// @decode_f32_16_lanes, the whole f32 strategy: no linalg op left; both j
// loops unrolled by 8 (8 chunks of the activation sums; 8 converts and
// FMAs per group of a row, into a vector iter_arg); the rows' sums
// reassociable reductions.
// F16-LABEL:   func.func @quantized_matmul
// F16:         scf.for {{.*}} -> (tensor<1x1x2x16xf32>)
// F16-COUNT-8:   vector.transfer_read {{.*}} : tensor<1x1x2x8x16xf32>, vector<16xf32>
// F16:         scf.forall (%{{.+}}) in (64)
// F16:           scf.for {{.*}} -> (vector<1x1x1x16xf32>)
// F16-COUNT-8:     arith.uitofp %{{.+}} : vector<16xi8> to vector<16xf32>
// F16-NOT:         arith.uitofp
// F16:         } {qforge.weight_rows}
// F16:         vector.reduction <add>, %{{.+}}, %{{.+}} fastmath<reassoc> : vector<16xf32> into f32

// @decode_f32_8_lanes: 8 lanes, the j loops unrolled by 16.
// F8-LABEL:    func.func @quantized_matmul
// F8:          scf.for {{.*}} -> (tensor<1x1x2x8xf32>)
// F8-COUNT-16:   vector.transfer_read {{.*}} : tensor<1x1x2x16x8xf32>, vector<8xf32>
// F8:          scf.forall (%{{.+}}) in (64)
// F8:            scf.for {{.*}} -> (vector<1x1x1x8xf32>)
// F8-COUNT-16:     arith.uitofp %{{.+}} : vector<8xi8> to vector<8xf32>
// F8-NOT:          arith.uitofp
// F8:          } {qforge.weight_rows}
// F8:          vector.reduction <add>, %{{.+}}, %{{.+}} fastmath<reassoc> : vector<8xf32> into f32

// @decode_int8_16_lanes, the whole integer strategy up to bufferization:
// vectorized and hoisted; the step loops unrolled by 2; the byte products'
// sums (16 lanes x 4 bytes) left as multi_reductions for
// @x86_int8_dot_products_and_reductions.
// @split_group_sums with 4 chains on 86 groups: the group loop unrolled by
// 2 (the largest divisor of 86 up to 4), so 2 partial sums, each carried by
// its own iter_arg (the new one from -0.0), added after the loop before the
// row's sum over lanes.
// SPLIT-LABEL: func.func @quantized_matmul
// SPLIT:       scf.forall (%{{.+}}) in (64)
// SPLIT:         %[[NEG0:.+]] = arith.constant dense<-0.000000e+00> : vector<1x1x1x16xf32>
// SPLIT:         %[[PARTIAL:.+]]:2 = scf.for %{{.+}} = %c0 to %c86 step %c2 iter_args(%[[A0:.+]] = %{{.+}}, %[[A1:.+]] = %[[NEG0]]) -> (vector<1x1x1x16xf32>, vector<1x1x1x16xf32>)
// SPLIT:           %[[S1:.+]] = vector.shape_cast %[[A1]] : vector<1x1x1x16xf32> to vector<16xf32>
// SPLIT:           %[[E0:.+]] = vector.extract %[[A0]][0, 0, 0] : vector<16xf32> from vector<1x1x1x16xf32>
// SPLIT:           %[[L0:.+]] = arith.addf %[[E0]], %{{.+}} : vector<16xf32>
// SPLIT:           %[[L1:.+]] = arith.addf %[[S1]], %{{.+}} : vector<16xf32>
// SPLIT-DAG:       %[[Y0:.+]] = vector.broadcast %[[L0]] : vector<16xf32> to vector<1x1x1x16xf32>
// SPLIT-DAG:       %[[Y1:.+]] = vector.shape_cast %[[L1]] : vector<16xf32> to vector<1x1x1x16xf32>
// SPLIT:           scf.yield %[[Y0]], %[[Y1]]
// SPLIT:         } {qforge.weight_groups}
// SPLIT-NEXT:    %[[TOTAL:.+]] = arith.addf %[[PARTIAL]]#0, %[[PARTIAL]]#1 : vector<1x1x1x16xf32>
// SPLIT:         vector.multi_reduction <add>, %[[TOTAL]]
// SPLIT:       } {qforge.weight_rows}

// I16-LABEL:   func.func @quantized_matmul
// I16:         vector.multi_reduction <maxui>, %{{.+}}, %{{.+}} [3] : vector<1x1x1x128xi32> to vector<1x1x1xi32>
// I16:         scf.for {{.*}} -> (tensor<1x1x2x16xf32>)
// I16-COUNT-2:   vector.multi_reduction <add>, %{{.+}}, %{{.+}} [1, 5] : vector<1x1x1x1x16x4xf32> to vector<1x1x1x16xf32>
// I16:         scf.forall (%{{.+}}) in (64)
// I16:           scf.for {{.*}} -> (vector<1x1x1x16xf32>)
// I16-COUNT-2:     vector.multi_reduction <add>, %{{.+}}, %{{.+}} [2, 6] : vector<1x1x1x1x1x16x4xi32> to vector<1x1x1x1x16xi32>
// I16-NOT:         vector<1x1x1x1x1x16x4xi32>
// I16:         } {qforge.weight_rows}

// @decode_int8_8_lanes: 8 i32 lanes of 4 bytes, the step loops unrolled
// by 4.
// I8-LABEL:    func.func @quantized_matmul
// I8:          scf.for {{.*}} -> (tensor<1x1x2x8xf32>)
// I8-COUNT-4:    vector.multi_reduction <add>, %{{.+}}, %{{.+}} [1, 5] : vector<1x1x1x1x8x4xf32> to vector<1x1x1x8xf32>
// I8:          scf.forall (%{{.+}}) in (64)
// I8:            scf.for {{.*}} -> (vector<1x1x1x8xf32>)
// I8-COUNT-4:      vector.multi_reduction <add>, %{{.+}}, %{{.+}} [2, 6] : vector<1x1x1x1x1x8x4xi32> to vector<1x1x1x1x8xi32>
// I8-NOT:          vector<1x1x1x1x1x8x4xi32>
// I8:          } {qforge.weight_rows}

// @vectorize_f32_decode (on @decode_f32_16_lanes's tiled IR): no linalg op
// left; the row's accumulator a vector iter_arg of the group loop; the
// row's sum a reassociable reduction.
// VF-LABEL: func.func @quantized_matmul
// VF-NOT:   linalg.
// VF:       scf.forall
// VF:         scf.for {{.*}} -> (vector<1x1x1x16xf32>)
// VF:       } {qforge.weight_rows}
// VF:       vector.reduction <add>, %{{.+}}, %{{.+}} fastmath<reassoc> : vector<16xf32> into f32
// VF-NOT:   vector.multi_reduction

module attributes {transform.with_named_sequence} {
  transform.named_sequence @generalize_and_match_dequant(%module: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @tile_activation_sums_per_chunk(%sums: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @quantize_activation_per_group(%quantization: !transform.any_op {transform.readonly}, %sums: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @tile_f32_rows_in_group_blocks(%sums: !transform.any_op {transform.consumed}, %partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}, %rows: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @tile_int8_rows_and_groups(%quantization: !transform.any_op {transform.readonly}, %sums: !transform.any_op {transform.consumed}, %partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}, %rows: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @decode_f32_16_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @decode_f32_8_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @decode_int8_16_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @decode_int8_8_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @split_group_sums(%module: !transform.any_op {transform.readonly}, %chains: !transform.param<i64> {transform.readonly})
  transform.named_sequence @vectorize_f32_decode(%module: !transform.any_op {transform.readonly})

  transform.named_sequence @test_generalize_and_match_dequant(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @generalize_and_match_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  // The factoring with 16 lanes, as in @decode_f32_16_lanes.
  transform.named_sequence @factor_16_lanes(%module: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction %dequant, %contraction {lanes = 16}
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %sums, %partials, %groups, %rows : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
  }

  // The integer factoring with 16 lanes, as in @decode_int8_16_lanes.
  transform.named_sequence @quantize_and_factor_16_lanes(%module: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction {lanes = 16}
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %quantization, %sums, %partials, %groups, %rows
      : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
  }

  transform.named_sequence @test_tile_activation_sums_per_chunk(%module: !transform.any_op {transform.readonly}) {
    %sums, %partials, %groups, %rows = transform.include @factor_16_lanes failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %chunks = transform.include @tile_activation_sums_per_chunk failures(propagate) (%sums)
      : (!transform.any_op) -> !transform.any_op
    transform.annotate %chunks "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_quantize_activation_per_group(%module: !transform.any_op {transform.readonly}) {
    %quantization, %sums, %partials, %groups, %rows = transform.include @quantize_and_factor_16_lanes failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %steps = transform.include @quantize_activation_per_group failures(propagate) (%quantization, %sums)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.annotate %steps "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_tile_f32_rows_in_group_blocks(%module: !transform.any_op {transform.readonly}) {
    %sums, %partials, %groups, %rows = transform.include @factor_16_lanes failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %chunks = transform.include @tile_f32_rows_in_group_blocks failures(propagate) (%sums, %partials, %groups, %rows)
      : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.annotate %chunks "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_tile_int8_rows_and_groups(%module: !transform.any_op {transform.readonly}) {
    %quantization, %sums, %partials, %groups, %rows = transform.include @quantize_and_factor_16_lanes failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %steps = transform.include @tile_int8_rows_and_groups failures(propagate) (%quantization, %sums, %partials, %groups, %rows)
      : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.annotate %steps "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_decode_f32_16_lanes(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_f32_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @test_decode_f32_8_lanes(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_f32_8_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @test_decode_int8_16_lanes(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_int8_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @test_decode_int8_8_lanes(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_int8_8_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @test_split_group_sums(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_int8_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    %chains = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.include @split_group_sums failures(propagate) (%module, %chains)
      : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  // @decode_f32_16_lanes up to its vectorization.
  transform.named_sequence @test_vectorize_f32_decode(%module: !transform.any_op {transform.readonly}) {
    %sums, %partials, %groups, %rows = transform.include @factor_16_lanes failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %chunks = transform.include @tile_f32_rows_in_group_blocks failures(propagate) (%sums, %partials, %groups, %rows)
      : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %chunks {factor = 8} : !transform.any_op
    transform.include @vectorize_f32_decode failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
