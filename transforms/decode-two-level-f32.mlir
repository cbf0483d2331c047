// Decode (M = 1) with f32 activations, on the two-level form of llama.cpp's
// K-quants (examples/gen_gguf_kernel.py q4_K; docs/gguf.md): each weight is
// s·q − o of its sub-block, a super-block's sub-blocks (chunk c, nibble half
// h) its group dims. Factored (transform.qforge.factor_two_level_contraction):
// per sub-block, one row at a time, Σ x·q into 16 lanes, then s·p − o·xs,
// the sub-block's scale and offset decoded from its block where they are
// read (lib/Patterns/ComputeElementwiseAtReads.cpp), the activation's
// sub-block sums once per call. One weight row per iteration of the
// threads' scf.forall.
// Steps: lib/decode.mlir (the vectorization); docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @fuse_with_its_fill(%producer: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed}, %loop: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @vectorize_f32_decode(%module: !transform.any_op {transform.readonly})

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    // Loops: xs (b, c, h, j, m, l); p (n, b, c, h, j, m, l);
    // acc (n, b, c, h, m, l); rows (n, m, l).
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.factor_two_level_contraction %func {lanes = 16}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    // The activation's sums, one sub-block at a time.
    %sum_block, %sum_loops:3 = transform.structured.tile_using_for %sums tile_sizes [1, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %groups_fill = transform.qforge.get_init_producers %groups : (!transform.any_op) -> !transform.any_op
    // The accumulators' fill (m, n, l) a row at a time.
    %fill_row, %fill_loop = transform.structured.tile_using_forall %groups_fill tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // One weight row per iteration of the threads' loop, its partial sums
    // fused in.
    %row, %row_loop = transform.structured.tile_using_forall %groups tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %row_loop "qforge.weight_rows" : !transform.any_op
    %partials_in_row, %pf_in_row, %l1 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials, %partials_fill, %row_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // One sub-block (b, c, h) per iteration, its partial sums fused in.
    %sub_block, %block_loop, %chunk_loop, %half_loop = transform.structured.tile_using_for %row tile_sizes [0, 1, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %partials_in_block, %pf_in_block, %l2 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials_in_row, %pf_in_row, %half_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // One vector of 16 lanes per step, both steps of a sub-block of 32
        // unrolled, and both nibble halves of a chunk (the same bytes). The
    // chunks unrolled too made q4_K 8-12% slower (786-807 against 880-905
    // us hot, 4096x4096, Zen 5) and q5_K 30% faster (1,458 -> 988 us: its
    // fifth bit shifted by a constant); q4_K's row is kept.
    %step, %step_loop = transform.structured.tile_using_for %partials_in_block tile_sizes [0, 0, 0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.loop.unroll %step_loop {factor = 2} : !transform.any_op
    transform.loop.unroll %half_loop {factor = 2} : !transform.any_op
    %sum_row, %sum_loop = transform.structured.tile_using_forall %rows tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @vectorize_f32_decode failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
