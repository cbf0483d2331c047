// Tests for transform.qforge.fold_unit_extent_dims on the factored packed
// contraction (lib/Rewrites/FactorPackedDequantContraction.cpp names the
// dims it lets fold).

// After the integer prefill's fold, a batch of 2 tokens (one block of
// 8) keeps its block dim in the partial and the group sums (M <= 8 used to
// lose it, and the script found no partial sums to tile).
// RUN: %gen_kernel 64 2 128 --batch 2 > %t.m2.mlir
// RUN: qforge-opt %t.m2.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_fold_of_factored | FileCheck %s --check-prefix=FACTORED
// FACTORED-LABEL: func.func @quantized_matmul(
// FACTORED:         scf.forall (%{{.+}}) in (2)
// FACTORED:           linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel", "reduction"]{{.*}}outs(%{{.+}} : tensor<2x1x8x32xi32>)
// FACTORED:           linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel", "parallel"]{{.*}}outs(%{{.+}} : tensor<1x8x32xf32>)
// FACTORED:         } {qforge.weight_rows}
// FACTORED-NOT:     qforge.foldable_unit_dims
module attributes {transform.with_named_sequence} {
  transform.named_sequence @prefill_int8_prepack_and_fold(%module: !transform.any_op {transform.readonly},
      %packed: !transform.any_op {transform.readonly}, %xq_steps: !transform.param<i64> {transform.readonly},
      %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
      -> !transform.any_op
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @test_fold_of_factored(%module: !transform.any_op {transform.readonly}) {
    %xq_steps = transform.param.constant 4 : i64 -> !transform.param<i64>
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows, %k_tile = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, 8, 32, 0, 4] balance_dims = []
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %folded = transform.include @prefill_int8_prepack_and_fold failures(propagate)
        (%module, %packed, %xq_steps, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
        -> !transform.any_op
    transform.yield
  }
}
