// Each sequence of transforms/lib/common.mlir run alone, through an entry
// point of this file (--transform-interpreter=entry-point=test_NAME), with
// the library preloaded; what runs before it in an entry point only builds
// its input.
// RUN: %gen_kernel 64 2 128 > %t.decode.mlir
// RUN: %gen_kernel 64 2 128 --batch 16 > %t.prefill.mlir
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_match_and_simplify_dequant | FileCheck %s --check-prefix=MATCH
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_fuse_with_its_fill | FileCheck %s --check-prefix=FUSE
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_one_group_per_iteration | FileCheck %s --check-prefix=GROUP
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_vectorize_children | FileCheck %s --check-prefix=VEC
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_hoist_loop_invariants | FileCheck %s --check-prefix=HOIST
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_vectorize_and_hoist | FileCheck %s --check-prefix=VH
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_lower_reductions_as_trees | FileCheck %s --check-prefix=TREES
// RUN: qforge-opt %t.prefill.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_lower_broadcasts \
// RUN:   | FileCheck %s --check-prefix=LB --implicit-check-not=vector.shape_cast --implicit-check-not="x8x1xf32> to"

// @match_and_simplify_dequant: the dequant's extui + uitofp is one uitofp.
// MATCH-LABEL: func.func @quantized_matmul
// MATCH:       linalg.generic
// MATCH-SAME:    iterator_types = ["parallel", "parallel", "parallel"]
// MATCH-NEXT:  ^bb0(%[[W:.+]]: i8,
// MATCH-NEXT:    arith.uitofp %[[W]] : i8 to f32
// MATCH-NOT:   arith.extui

// @fuse_with_its_fill: inside the row loop, the partial sums' zero fill and
// the partial sums on one row's slices.
// FUSE-LABEL: func.func @quantized_matmul
// FUSE:       scf.forall (%[[ROW:.+]]) in (64)
// FUSE:         %[[FILL:.+]] = linalg.fill {{.*}} -> tensor<1x1x1x2x16xf32>
// FUSE-NEXT:    %[[P:.+]] = linalg.generic
// FUSE-SAME:      ins(%{{.+}}, %{{.+}} : tensor<1x1x2x8x16xf32>, tensor<1x2x8x16xi8>) outs(%[[FILL]] : tensor<1x1x1x2x16xf32>)
// FUSE:         linalg.generic
// FUSE-SAME:      %[[P]] : {{.*}}) outs(%{{.+}} : tensor<1x1x1x16xf32>)
// FUSE:         scf.forall.in_parallel

// @tile_one_group_per_iteration: a loop over the 2 groups carrying the
// accumulators; the partial sums and their fill fused in, one group each.
// GROUP-LABEL: func.func @quantized_matmul
// GROUP:       scf.for %{{.+}} = %c0 to %c2 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (tensor<1x1x64x16xf32>)
// GROUP:         %[[FILL:.+]] = linalg.fill {{.*}} -> tensor<1x1x64x1x16xf32>
// GROUP-NEXT:    linalg.generic
// GROUP-SAME:      ins(%{{.+}}, %{{.+}} : tensor<1x1x1x8x16xf32>, tensor<64x1x8x16xi8>) outs(%[[FILL]] : tensor<1x1x64x1x16xf32>)
// GROUP:         linalg.generic
// GROUP-SAME:      outs(%{{.+}} : tensor<1x1x64x16xf32>)
// GROUP:         scf.yield

// @vectorize_children: no linalg op is left; the contraction is a product
// and a multi_reduction, not a vector.contract.
// VEC-LABEL: func.func @quantized_matmul
// VEC-NOT:   linalg.
// VEC:       scf.forall
// VEC:         vector.multi_reduction <add>, %{{.+}}, %{{.+}} [3, 4] : vector<1x1x1x2x128xf32> to vector<1x1x1xf32>
// VEC-NOT:   vector.contract

// @hoist_loop_invariants: the row's accumulator is a vector iter_arg of the
// group loop (next to the tensor it is written to after the loop).
// HOIST-LABEL: func.func @quantized_matmul
// HOIST:       scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<1x1x1x16xf32>, vector<1x1x1x16xf32>)

// @vectorize_and_hoist: the same, the tensor gone, the unit-dim reductions
// folded: only the rows' sums of 16 lanes remain.
// VH-LABEL: func.func @quantized_matmul
// VH:       scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}) -> (vector<1x1x1x16xf32>)
// VH-NOT:   vector.multi_reduction <add>, %{{.+}}, %{{.+}} [1]
// VH:       vector.multi_reduction <add>, %{{.+}}, %{{.+}} [3] : vector<1x1x1x16xf32> to vector<1x1x1xf32>

// @lower_reductions_as_trees: the rows' sums are reassociable reductions.
// TREES-LABEL: func.func @quantized_matmul
// TREES-NOT:   vector.multi_reduction
// TREES:       vector.reduction <add>, %{{.+}}, %{{.+}} fastmath<reassoc> : vector<16xf32> into f32
// TREES-NOT:   vector.multi_reduction

// @lower_broadcasts: the prefill's n-D broadcasts of the group sums to the
// 8 x 64 tile and the shape casts are gone (implicit-check-not above).
// LB-LABEL: func.func @quantized_matmul(
// LB:       vector.broadcast %{{.+}} : vector<8x64xf32> to vector<1x1x1x1x8x64xf32>

module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @fuse_with_its_fill(%producer: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed}, %loop: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @tile_one_group_per_iteration(%row: !transform.any_op {transform.consumed}, %partials: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @vectorize_children(%func: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @hoist_loop_invariants(%vectorized: !transform.any_op {transform.readonly})
  transform.named_sequence @vectorize_and_hoist(%func: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @lower_reductions_as_trees(%vectorized: !transform.any_op {transform.readonly})
  transform.named_sequence @lower_broadcasts(%vectorized: !transform.any_op {transform.readonly})
  transform.named_sequence @tile_f32_rows_in_group_blocks(%sums: !transform.any_op {transform.consumed}, %partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}, %rows: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @prefill_f32_prepack_factor_and_tile(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %k_block: !transform.param<i64> {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @vectorize_packed_f32(%kernel: !transform.any_op {transform.consumed}) -> !transform.any_op

  // The f32 decode tiling with 16 lanes (lib/decode.mlir's
  // @decode_f32_16_lanes up to its vectorization).
  transform.named_sequence @tiled_f32_decode(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction %dequant, %contraction {lanes = 16}
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %chunks = transform.include @tile_f32_rows_in_group_blocks failures(propagate) (%sums, %partials, %groups, %rows)
      : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %chunks {factor = 8} : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_match_and_simplify_dequant(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  // The factored form's group sums tiled a row per iteration; the partial
  // sums and their zero fill fused into that loop.
  transform.named_sequence @test_fuse_with_its_fill(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction %dequant, %contraction {lanes = 16}
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %row, %row_loop = transform.structured.tile_using_forall %groups tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %fused_fill, %loop = transform.include @fuse_with_its_fill failures(propagate) (%partials, %fill, %row_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }

  transform.named_sequence @test_tile_one_group_per_iteration(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction %dequant, %contraction {lanes = 16}
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %fused = transform.include @tile_one_group_per_iteration failures(propagate) (%groups, %partials, %fill)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }

  // The kernel function vectorized whole (after the factoring and a row
  // tiling, so that the vectors stay small).
  transform.named_sequence @test_vectorize_children(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tiled, %loop = transform.structured.tile_using_forall %contraction tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %loop_1 = transform.structured.fuse_into_containing_op %dequant into %loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    %vectorized = transform.include @vectorize_children failures(propagate) (%func)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // The f32 decode tiling (lib/decode.mlir), then vectorize_children and
  // the hoisting alone: each row's accumulator becomes a vector iter_arg.
  transform.named_sequence @test_hoist_loop_invariants(%module: !transform.any_op {transform.readonly}) {
    transform.include @tiled_f32_decode failures(propagate) (%module) : (!transform.any_op) -> ()
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    %vectorized = transform.include @vectorize_children failures(propagate) (%func)
      : (!transform.any_op) -> !transform.any_op
    transform.include @hoist_loop_invariants failures(propagate) (%vectorized) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @test_vectorize_and_hoist(%module: !transform.any_op {transform.readonly}) {
    transform.include @tiled_f32_decode failures(propagate) (%module) : (!transform.any_op) -> ()
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    %vectorized = transform.include @vectorize_and_hoist failures(propagate) (%func)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_lower_reductions_as_trees(%module: !transform.any_op {transform.readonly}) {
    transform.include @tiled_f32_decode failures(propagate) (%module) : (!transform.any_op) -> ()
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    %vectorized = transform.include @vectorize_and_hoist failures(propagate) (%func)
      : (!transform.any_op) -> !transform.any_op
    transform.include @lower_reductions_as_trees failures(propagate) (%vectorized) : (!transform.any_op) -> ()
    transform.yield
  }

  // The f32 prefill up to its vectorization (lib/packed.mlir), then the
  // lowering of its n-D broadcasts (the group sums' 8-token broadcasts) and
  // shape casts.
  transform.named_sequence @test_lower_broadcasts(%module: !transform.any_op {transform.readonly}) {
    %k_block = transform.param.constant 16 : i64 -> !transform.param<i64>
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %m_tile, %n_tile = transform.qforge.pack_balanced %contraction packed_sizes = [0, 8, 64, 0, 0] balance_dims = []
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    %kernel, %partials_in_block = transform.include @prefill_f32_prepack_factor_and_tile failures(propagate)
        (%module, %packed, %k_block, %m_tile, %n_tile) : (!transform.any_op, !transform.any_op, !transform.param<i64>,
        !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %k_step, %k_loop = transform.structured.tile_using_for %partials_in_block tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %vectorized = transform.include @vectorize_packed_f32 failures(propagate) (%kernel)
      : (!transform.any_op) -> !transform.any_op
    transform.include @lower_broadcasts failures(propagate) (%vectorized) : (!transform.any_op) -> ()
    transform.yield
  }
}
