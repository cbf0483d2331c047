// Script library: the two-level strategies (llama.cpp's K-quants, s·q − o
// per sub-block; docs/gguf.md), one weight row per iteration of the
// threads' scf.forall and one super-block per step. The decode scripts
// (decode-two-level-*.mlir) run them on M = 1; the batched ones
// (prefill-two-level-*.mlir) first cut the tokens into a loop of one token
// per iteration (@tile_tokens_one_at_a_time), inside which each is that
// decode.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_per_super_block(%decode: !transform.any_op {transform.consumed}, %row_loop: !transform.any_op {transform.readonly}, %super_block_loop: !transform.any_op {transform.readonly})
  transform.named_sequence @tile_two_level_offset_sums(%offset_sums: !transform.any_op {transform.readonly}, %row_loop: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @fuse_with_its_fill(%producer: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed}, %loop: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @vectorize_and_hoist(%func: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @vectorize_f32_decode(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @x86_int8_dot_products(%module: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @lower_int8_reductions(%func: !transform.any_op {transform.readonly})
  transform.named_sequence @has_two_reduction_dims(%op: !transform.any_op {transform.readonly}) -> !transform.any_op

  // Batches (a static M > 1 or a dynamic M's chunks): the two-level
  // contraction tiled one token per scf.for iteration and its producers
  // fused in (transform.structured.fuse: the weights' dequantization, whole,
  // and the output's fill, a token's row), so that each iteration holds an
  // M = 1 contraction which the strategies below factor and tile as they do
  // a decode's (the activation quantized per token). The super-blocks' f16
  // fields, read by the fused generics but not by the contraction, stay
  // before the loop: joined once per call.
  transform.named_sequence @tile_tokens_one_at_a_time(%module: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    %contraction = transform.collect_matching @has_two_reduction_dims in %func : (!transform.any_op) -> !transform.any_op
    %token, %token_loop = transform.structured.fuse %contraction tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %token_loop "qforge.tokens" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @two_level_int8_strategy(%module: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    // Loops: amax and xq (m, b, hs, cc, h, l); xs (b, hs, cc, h, j, m, l,
    // byte); p (n, b, hs, cc, h, j, m, l, byte); acc (n, b, hs, cc, h, m,
    // l); offsets (n, b, hs, cc, h, m); rows (n, m, l). A sub-block is
    // (b, hs, cc, h), a super-block b. One lane group: q4_K's cc (acc (n,
    // b, hs, cc, h, m, l) reduces all but cc; rows (n, m, cc, l)).
    %quantization, %sums, %partials, %groups, %offsets, %rows = transform.qforge.factor_two_level_contraction %func {lanes = 8, dividing_lanes, int8_activations, lane_groups = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    // s·amax/127 per sub-block, and the scales it reads.
    %scaled = transform.get_producer_of_operand %groups[0] : (!transform.any_op) -> !transform.any_op
    %scale = transform.get_producer_of_operand %scaled[0] : (!transform.any_op) -> !transform.any_op
    // The activation's maximum, quantization and sums, one sub-block at a
    // time.
    %max, %quantized = transform.split_handle %quantization : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %max_block, %max_loops, %max_inner = transform.qforge.tile_two_level_loops %max dims = "tokens_and_groups"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %q_block, %q_loops, %q_inner = transform.qforge.tile_two_level_loops %quantized dims = "tokens_and_groups"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %sum_block, %sum_loops, %sum_inner = transform.qforge.tile_two_level_loops %sums dims = "leading_groups"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %groups_fill = transform.qforge.get_init_producers %groups : (!transform.any_op) -> !transform.any_op
    %fill_row, %fill_loop = transform.structured.tile_using_forall %groups_fill tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // One weight row per iteration of the threads' loop.
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
    transform.include @decode_per_super_block failures(propagate) (%scaled, %row_loop, %super_block_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> ()
    transform.include @decode_per_super_block failures(propagate) (%scale, %row_loop, %super_block_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> ()
    // One slice of sub-blocks (the lane group) per iteration, its dot
    // product fused in, all unrolled: both nibble halves of a slice read the
    // same bytes, and q5_K's fifth bit is shifted by a constant.
    %sub_block, %sub_block_loops, %innermost = transform.qforge.tile_two_level_loops %super_block dims = "sub_blocks"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %partials_in_sub_block, %pf_in_sub_block, %l7 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials_in_super_block, %pf_in_super_block, %innermost)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // Unrolled whole, the inner loops first (each sub-block dim has two
    // iterations).
    transform.qforge.unroll_dividing %sub_block_loops {at_most = 2} : !transform.any_op
    %rows_and_offsets = transform.include @tile_two_level_offset_sums failures(propagate) (%offsets, %row_loop)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %sum_row, %sum_loop = transform.structured.tile_using_forall %rows tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %vectorized = transform.include @vectorize_and_hoist failures(propagate) (%func)
      : (!transform.any_op) -> !transform.any_op
    // The row's accumulator as four partial sums: its eight adds per
    // super-block are otherwise one chain of dependent FMAs.
    %super_blocks = transform.structured.match ops{["scf.for"]} attributes{qforge.super_blocks} in %module
      : (!transform.any_op) -> !transform.any_op
    %chains = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.qforge.split_loop_carried_sums %super_blocks chains = %chains : !transform.any_op, !transform.param<i64>
    // A lane group's scales (two of the super-block's eight) taken from
    // the decoded vector, not through a buffer per super-block.
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.read_written_element {max_elements = 2}
    } : !transform.any_op
    transform.yield
  }

  // The dot products as vpdpbusd, then the kernel's vector work on 1-D
  // vectors (a lane group's 2 x 8 lanes as one 16-lane register rather
  // than two halves; with one super-block per row its loop is gone, so
  // the whole function), then the reductions. No software prefetch: the row's
  // prefetch of the int8 decode issued one per read of the block, the
  // scale bytes' included (32 per super-block).
  transform.named_sequence @two_level_int8_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %func = transform.include @x86_int8_dot_products failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.flatten_contiguous_vectors %func {loop_carried} : !transform.any_op
    transform.include @lower_int8_reductions failures(propagate) (%func)
      : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @two_level_f32_strategy(%module: !transform.any_op {transform.readonly}) {
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
  transform.named_sequence @two_level_f32_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    transform.qforge.flatten_contiguous_vectors %func {loop_carried} : !transform.any_op
    transform.yield
  }
}
