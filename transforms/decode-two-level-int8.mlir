// Decode (M = 1) with int8 activations, on the two-level form of llama.cpp's
// K-quants (examples/gen_gguf_kernel.py q4_K; docs/gguf.md): the activation
// quantized to int8 per sub-block of 32, once per call; per weight row and
// sub-block, the 32 nibbles times the 32 activation bytes as one 256-bit
// vpdpbusd (8 i32 lanes x 4 bytes), then amax/127 · (s·p − o·Σxq) into the
// row's 8-lane accumulator, the sub-block's scale and offset decoded from
// its block where they are read. One weight row per iteration of the
// threads' scf.forall.
// Steps: lib/decode.mlir, lib/after-bufferization.mlir; docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @fuse_with_its_fill(%producer: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed}, %loop: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @vectorize_and_hoist(%func: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @x86_int8_dot_products_and_reductions(%module: !transform.any_op {transform.readonly}) -> !transform.any_op

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    // Loops: amax and xq (m, b, c, h, l); xs (b, c, h, j, m, l, byte);
    // p (n, b, c, h, j, m, l, byte); acc (n, b, c, h, m, l); rows (n, m, l).
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.factor_two_level_contraction %func {lanes = 8, int8_activations}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    // The activation's maximum, quantization and sums, one sub-block at a
    // time.
    %max, %quantized = transform.split_handle %quantization : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %max_block, %max_loops:4 = transform.structured.tile_using_for %max tile_sizes [1, 1, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %q_block, %q_loops:4 = transform.structured.tile_using_for %quantized tile_sizes [1, 1, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %sum_block, %sum_loops:3 = transform.structured.tile_using_for %sums tile_sizes [1, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
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
        // One sub-block (b, c, h) per iteration, its dot product fused in; both
    // nibble halves of a chunk unrolled (the same bytes), and the four
    // chunks: q5_K's fifth bit is then shifted by a constant (1,355 -> 791-
    // 820 us hot at 4096x4096; q4_K 683-713 either way, Zen 5).
    %sub_block, %block_loop, %chunk_loop, %half_loop = transform.structured.tile_using_for %row tile_sizes [0, 1, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %partials_in_block, %pf_in_block, %l2 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials_in_row, %pf_in_row, %half_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
        transform.loop.unroll %half_loop {factor = 2} : !transform.any_op
    transform.loop.unroll %chunk_loop {factor = 4} : !transform.any_op
    %sum_row, %sum_loop = transform.structured.tile_using_forall %rows tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %vectorized = transform.include @vectorize_and_hoist failures(propagate) (%func)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // The dot products as vpdpbusd. No software prefetch: the row's
  // prefetch of the int8 decode issued one per read of the block, the
  // scale bytes' included (32 per super-block).
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %func = transform.include @x86_int8_dot_products_and_reductions failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
