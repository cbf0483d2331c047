// Decode (M = 1) with f32 activations, on the two-level form of llama.cpp's
// K-quants (examples/gen_gguf_kernel.py q4_K|q5_K|q6_K; docs/gguf.md): each
// weight is s·q − o of its sub-block, a super-block's sub-blocks its group
// dims (q4_K: hs, cc, h; q6_K: h, k1, k0, l1 -- tile_two_level_loops tiles
// them by role, whatever their number). Factored (transform.qforge.factor_two_level_contraction): one row
// per iteration of the threads' scf.forall, one super-block per step, its
// eight scales and eight offsets decoded from the block as one vector each;
// per sub-block Σ x·q into 16 lanes, then s·p into the row's accumulator
// (four partial sums); −o·xs into a vector of the eight sub-blocks carried
// across the row; the activation's sub-block sums once per call.
// Steps: lib/decode.mlir (the vectorization); docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_per_super_block(%decode: !transform.any_op {transform.consumed}, %row_loop: !transform.any_op {transform.readonly}, %super_block_loop: !transform.any_op {transform.readonly})
  transform.named_sequence @tile_two_level_offset_sums(%offset_sums: !transform.any_op {transform.readonly}, %row_loop: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @fuse_with_its_fill(%producer: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed}, %loop: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @vectorize_f32_decode(%module: !transform.any_op {transform.readonly})

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    // Loops: xs (b, hs, cc, h, j, m, l); p (n, b, hs, cc, h, j, m, l);
    // acc (n, b, hs, cc, h, m, l); offsets (n, b, hs, cc, h, m); rows
    // (n, m, l). A sub-block is (b, hs, cc, h), a super-block b.
    %quantization, %sums, %partials, %groups, %offsets, %rows = transform.qforge.factor_two_level_contraction %func {lanes = 16, dividing_lanes}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %scale = transform.get_producer_of_operand %groups[0] : (!transform.any_op) -> !transform.any_op
    // The activation's sums, one sub-block at a time.
    %sum_block, %sum_loops, %sum_inner = transform.qforge.tile_two_level_loops %sums dims = "leading_groups"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
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
    // One super-block per iteration, its eight scales decoded as one vector
    // (@decode_per_super_block, lib/decode.mlir).
    %super_block, %super_block_loop = transform.structured.tile_using_for %row tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %super_block_loop "qforge.super_blocks" : !transform.any_op
    %partials_in_super_block, %pf_in_super_block, %l2 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials_in_row, %pf_in_row, %super_block_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @decode_per_super_block failures(propagate) (%scale, %row_loop, %super_block_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> ()
    // One sub-block per iteration, its partial sums fused in; one vector of
    // 16 lanes per step, both steps of a sub-block of 32 unrolled, and both
    // nibble halves of a chunk (the same bytes).
    %sub_block, %sub_block_loops, %innermost = transform.qforge.tile_two_level_loops %super_block dims = "sub_blocks"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %partials_in_sub_block, %pf_in_sub_block, %l3 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials_in_super_block, %pf_in_super_block, %innermost)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %step, %step_loops, %step_loop = transform.qforge.tile_two_level_loops %partials_in_sub_block dims = "step"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // Unrolled whole, the inner loops first (each sub-block dim has two
    // iterations; q6_K's sub-block of 16 is one step).
    transform.qforge.unroll_dividing %step_loop {at_most = 2} : !transform.any_op
    transform.qforge.unroll_dividing %sub_block_loops {at_most = 2} : !transform.any_op
    %rows_and_offsets = transform.include @tile_two_level_offset_sums failures(propagate) (%offsets, %row_loop)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %sum_row, %sum_loop = transform.structured.tile_using_forall %rows tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @vectorize_f32_decode failures(propagate) (%module) : (!transform.any_op) -> ()
    // The row's accumulator as four partial sums: its eight adds per
    // super-block are otherwise one chain of dependent FMAs.
    %super_blocks = transform.structured.match ops{["scf.for"]} attributes{qforge.super_blocks} in %module
      : (!transform.any_op) -> !transform.any_op
    %chains = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.qforge.split_loop_carried_sums %super_blocks chains = %chains : !transform.any_op, !transform.param<i64>
    transform.yield
  }

  // The kernel's vector work on 1-D vectors, the loop-carried ones too: the
  // super-block's decode of vector<2x2x2> (q6_K: vector<2x2x2x2>) scales
  // and offsets as one 8- or 16-lane vector rather than one small vector
  // per innermost row (q4_K's loop: 160 -> 129 instructions per super-block,
  // q6_K's 236 -> 164 on Zen 5).
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    transform.qforge.flatten_contiguous_vectors %func {loop_carried} : !transform.any_op
    transform.yield
  }
}
