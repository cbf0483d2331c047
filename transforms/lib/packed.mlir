// Script library: the packed strategies (data tiling: decode-packed-*,
// prefill-*.mlir): pack the contraction, move the packs up to the
// quantized parameters and pack those once per model (docs/abi.md), factor
// scale and zero-point out of the k sum on the packed layout, tile row
// tiles (scf.forall, the threads), groups and k steps, vectorize. Tile
// and pack sizes come as params; unroll factors are attributes, so the
// integer prefill, whose pack fixes its unrolls, is specialised whole.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @fuse_with_its_fill(%producer: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed}, %loop: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @tile_one_group_per_iteration(%row: !transform.any_op {transform.consumed}, %partials: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @vectorize_children(%func: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @hoist_loop_invariants(%vectorized: !transform.any_op {transform.readonly})
  transform.named_sequence @vectorize_and_hoist(%func: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @lower_reductions_as_trees(%vectorized: !transform.any_op {transform.readonly})
  transform.named_sequence @lower_broadcasts(%vectorized: !transform.any_op {transform.readonly})

  // After the contraction's pack: the weights' pack moves up through the
  // dequant to the quantized weights, scales and zero-points (padding with
  // zeros, never poison: they dequantize to zero, and the unpack cuts padded
  // rows; an unpack that only drops dims becomes a reshape); those packs
  // read only parameters, so they move into @<f>_pack_weights, run once per
  // model. Returns the kernel function.
  transform.named_sequence @bubble_and_prepack(%module: !transform.any_op {transform.readonly},
                                               %packed: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %funcs = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
      transform.apply_patterns.qforge.bubble_pack_through_dequant
      transform.apply_patterns.qforge.fold_into_packs
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %packed_dequant = transform.get_producer_of_operand %packed[1] : (!transform.any_op) -> !transform.any_op
    %pack_functions = transform.qforge.split_parameter_packing %packed_dequant : (!transform.any_op) -> !transform.any_op
    %kernel = transform.get_parent_op %packed {op_name = "func.func"} : (!transform.any_op) -> !transform.any_op
    transform.yield %kernel : !transform.any_op
  }

  // Each per-call op on the activation (its pack, its sums; none without a
  // zero-point) %k_block along its fourth dim at a time, 1 along the others:
  // the pack's transposes stay in registers (whole, they grow with G x K).
  transform.named_sequence @tile_in_k_blocks(%op: !transform.any_op {transform.consumed},
                                             %k_block: !transform.param<i64> {transform.readonly}) {
    transform.foreach %op : !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %tiles, %loops:4 = transform.structured.tile_using_for %one tile_sizes [1, 1, 1, %k_block] : (!transform.any_op,
          !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  // @bubble_and_prepack, then, for f32 activations, scale and zero-point
  // out of the k sum, the rows as the lanes (no split of k):
  //   xs[g] = Σ_k x[g, k], once per call;
  //   p[tile, g, lanes] = Σ_k x[g, k] · w[tile, g, k, lanes];
  //   out[tile, lanes] += Σ_g s · (p − z · xs).
  // No unit dim is folded, so N <= one row tile tiles the same way.
  // Returns the kernel function, xs, the partial sums and the group sums.
  transform.named_sequence @prepack_and_factor_f32(%module: !transform.any_op {transform.readonly},
                                                   %packed: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) {
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %dequant, %contraction = transform.qforge.match_dequant_contraction %kernel
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %kernel, %sums, %partials, %groups
      : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
  }

  // One group at a time (an op whose first three dims are unit or
  // per-group): over the whole activation, a reduction of its (k/2, k%2)
  // dims lowers to shuffles of a G x K vector that LLVM takes minutes over.
  // For the same reason a long group (one per row: per-channel scales) goes
  // a block of at most 256 activation elements (its first in-group dim,
  // dividing) at a time; a group of 128 is one block. Returns the group
  // loop.
  transform.named_sequence @tile_one_group_at_a_time(%op: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    %tiles, %loops:3 = transform.structured.tile_using_for %op tile_sizes [1, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.foreach %tiles : !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %block = transform.qforge.dividing_tile_size %one {dim = 3, at_most = 256, at_least = 1, footprint_operand = 0}
        : (!transform.any_op) -> !transform.param<i64>
      %block_tile, %block_loop = transform.structured.tile_using_for %one tile_sizes [0, 0, 0, %block]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield %loops#2 : !transform.any_op
  }

  // Decode with int8 activations: the activation quantized per group to
  // int8 (amax, xq: once per call, one group at a time, in loops tagged
  // qforge.activation_groups, whose reductions are lowered early), and
  // scale, zero-point and activation scale out of the k sum:
  //   xs[g] = Σ_k xq[g, k];  p[tile, g, row] = Σ_k w · xq  (i32, exact);
  //   out[tile, row] += Σ_g s · amax[g] / 127 · (p − z · xs).
  transform.named_sequence @quantize_and_factor_packed_decode(%kernel: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %kernel
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %magnitude_times_sign = transform.qforge.strategy_param "magnitude_times_sign" in %kernel default 0
      : (!transform.any_op) -> !transform.param<i64>
    %quantization, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed
        %dequant, %contraction magnitude_times_sign = %magnitude_times_sign
        : (!transform.any_op, !transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %per_call = transform.merge_handles %quantization, %sums : !transform.any_op
    %group_loops = transform.include @tile_one_group_at_a_time failures(propagate) (%per_call)
      : (!transform.any_op) -> !transform.any_op
    transform.annotate %group_loops "qforge.activation_groups" : !transform.any_op
    transform.yield %partials, %groups : !transform.any_op, !transform.any_op
  }

  // Prefill with int8 activations: the factoring quantizes the activation
  // before its pack (amax, xq and xs per row and group on the unpacked
  // rows, where a group's values are contiguous) and packs the results,
  // tagged by role. All of it in scf.foralls over rows and blocks of rows
  // (the threads share it), one group at a time; the int8 pack (a
  // transpose of bytes) %xq_steps k steps x the block's rows at a time.
  //   xs[m, g] = Σ_k xq[m, g, k];  p[tile, g, m, row] = Σ_k w · xq  (i32);
  //   out[m, tile, row] += Σ_g s · amax[m, g] / 127 · (p − z · xs).
  transform.named_sequence @quantize_activation_rows_and_factor(%kernel: !transform.any_op {transform.readonly},
      %xq_steps: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.any_op) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %kernel
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %magnitude_times_sign = transform.qforge.strategy_param "magnitude_times_sign" in %kernel default 0
      : (!transform.any_op) -> !transform.param<i64>
    %quantization, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed
        %dequant, %contraction magnitude_times_sign = %magnitude_times_sign
        : (!transform.any_op, !transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    // The maximum fused into the quantization's forall: each float row is
    // read from memory once, not twice (a prompt's activation does not fit
    // L2). The sums, absent without a zero-point, read the int8 rows after.
    %amax, %xq = transform.split_handle %quantization : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Their zero fills (M x G each) a row at a time: vectorized whole, M =
    // 512 with 344 groups of 32 is one block of 11000 stores of a splat.
    %amax_fill = transform.qforge.get_init_producers %amax : (!transform.any_op) -> !transform.any_op
    %sums_fill = transform.qforge.get_init_producers %sums : (!transform.any_op) -> !transform.any_op
    %row_fills = transform.merge_handles %amax_fill, %sums_fill : !transform.any_op
    %row_fill_tiles, %row_fill_loops = transform.structured.tile_using_for %row_fills tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %xq_rows, %row_forall = transform.structured.tile_using_forall %xq tile_sizes [1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %amax_rows, %fused_forall = transform.structured.fuse_into_containing_op %amax into %row_forall
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %xs_rows, %xs_forall = transform.structured.tile_using_forall %sums tile_sizes [1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %rows = transform.merge_handles %amax_rows, %xq_rows, %xs_rows : !transform.any_op
    %groups_tiles, %group_loops = transform.structured.tile_using_for %rows tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %group_loops "qforge.activation_groups" : !transform.any_op
    // A long group (one per row: per-channel scales) a block of at most 256
    // activation elements at a time, as in the decode, and tagged too: the
    // group loop of one iteration folds away with its tag, and the whole
    // row left unflattened (4-bit: a vector<2048x2xf32>) became 2048 ops
    // per op that LLVM did not compile within 30 s. Groups of up to 256 get
    // no block loop.
    %block_loops = transform.foreach %groups_tiles : !transform.any_op -> !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %block = transform.qforge.dividing_tile_size %one {dim = 3, at_most = 256, at_least = 1, footprint_operand = 0, zero_for_one_tile}
        : (!transform.any_op) -> !transform.param<i64>
      %block_tile, %block_loop = transform.structured.tile_using_for %one tile_sizes [0, 0, 0, %block]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
      transform.yield %block_loop : !transform.any_op
    }
    transform.annotate %block_loops "qforge.activation_groups" : !transform.any_op
    // No xs pack without a zero-point and with unsigned weights.
    %xq_pack = transform.structured.match ops{["linalg.pack"]} attributes{qforge.activation_pack = "xq"} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %max_pack = transform.structured.match ops{["linalg.pack"]} attributes{qforge.activation_pack = "amax"} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %sums_pack = transform.structured.match ops{["linalg.pack"]} attributes{qforge.activation_pack = "xs"} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %xq_blocks, %xq_forall = transform.structured.tile_using_forall %xq_pack tile_sizes [1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %xq_tiles, %xq_loops:2 = transform.structured.tile_using_for %xq_blocks tile_sizes [0, 0, 1, %xq_steps]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %group_packs = transform.merge_handles %max_pack, %sums_pack : !transform.any_op
    %group_pack_tiles, %group_pack_forall = transform.structured.tile_using_forall %group_packs tile_sizes [1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // 16 groups at a time: whole, a block's G x 8 transposes took LLVM
    // minutes with groups of 32 at K = 14336 (G = 448).
    %group_pack_steps, %group_pack_loop = transform.structured.tile_using_for %group_pack_tiles tile_sizes [0, 0, 16]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // A block that M does not fill (17 tokens in blocks of 6) has a source
    // tile of dynamic size: vectorized here at the tile's static shape (a
    // masked read, zero padding), not left to bufferize into scalar loops.
    // Canonicalized first: a tile loop of one iteration (16 groups of G < 16)
    // leaves a tile whose size is known only then.
    // Patterns applied to a forall rewrite only inside it: its dims of one
    // iteration never fold, so the affine.min of its index that size its
    // tiles fold here from the loop bounds. Left dynamic, the unit-dim fold
    // left a rank-reduced slice whose dropped dim MLIR 22's extract_slice
    // canonicalization re-picked: with one group per row (G = 1) and a
    // padded k step, a crash in the tensor.cast folding.
    %pack_foralls = transform.merge_handles %xq_forall, %group_pack_forall : !transform.any_op
    transform.apply_patterns to %pack_foralls {
      transform.apply_patterns.scf.for_loop_canonicalization
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %xq_pack_tiles = transform.structured.match ops{["linalg.pack"]} attributes{qforge.activation_pack = "xq"} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %max_pack_tiles = transform.structured.match ops{["linalg.pack"]} attributes{qforge.activation_pack = "amax"} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %sums_pack_tiles = transform.structured.match ops{["linalg.pack"]} attributes{qforge.activation_pack = "xs"} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %pack_tiles = transform.merge_handles %xq_pack_tiles, %max_pack_tiles, %sums_pack_tiles : !transform.any_op
    transform.qforge.vectorize_padded_packs %pack_tiles : !transform.any_op
    // The masked reads as reads with a mask operand (no vector.mask region,
    // which later rewrites of the read would fill with more than one op).
    transform.apply_patterns to %kernel {
      transform.apply_patterns.vector.lower_masked_transfers
    } : !transform.any_op
    transform.yield %partials, %groups : !transform.any_op, !transform.any_op
  }

  // %tiles row tiles per iteration of an scf.forall (OpenMP: each thread
  // streams a contiguous range of tiles, in an order independent of the
  // thread count), tagged qforge.weight_rows, the partial sums and both
  // zero fills fused in. Returns the group sums, partial sums, their fill
  // and the group sums' fill.
  transform.named_sequence @tile_row_tiles(%partials: !transform.any_op {transform.consumed},
                                           %groups: !transform.any_op {transform.consumed},
                                           %tiles: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) {
    %groups_fill = transform.qforge.get_init_producers %groups : (!transform.any_op) -> !transform.any_op
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %row_tile, %row_loop = transform.structured.tile_using_forall %groups tile_sizes [%tiles]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.annotate %row_loop "qforge.weight_rows" : !transform.any_op
    %partials_in_row, %pf_in_row, %l2 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials, %partials_fill, %row_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %gf_in_row, %l3 = transform.structured.fuse_into_containing_op %groups_fill into %l2
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %row_tile, %partials_in_row, %pf_in_row, %gf_in_row
      : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
  }

  // Int8 activations: one row tile per iteration, then the unit dims
  // folded: inside the forall the row tile is 1, so every N folds alike,
  // and the packed scale's trailing unit dim goes (read through a broadcast
  // as vector<rows x 1>, a form the fixed lowering cannot reduce). The
  // factored sums keep the dims later steps tile even when the kernel has
  // one of them (token blocks, groups, k steps, rows). Returns the folded
  // kernel function (earlier handles to it are invalidated).
  transform.named_sequence @tile_row_tiles_and_fold(%partials: !transform.any_op {transform.consumed},
                                                    %groups: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    %kernel = transform.get_parent_op %groups {op_name = "func.func"} : (!transform.any_op) -> !transform.any_op
    %row_tile, %partials_in_row, %pf_in_row, %gf_in_row = transform.include @tile_row_tiles failures(propagate)
        (%partials, %groups, %one) : (!transform.any_op, !transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %folded = transform.qforge.fold_unit_extent_dims %kernel : (!transform.any_op) -> !transform.any_op
    transform.yield %folded : !transform.any_op
  }

  // f32 activations: one row tile per iteration, then one group per
  // iteration inside it, tagged qforge.weight_groups (for the prefetch),
  // the group's partial sums fused in. Returns the group's group sums,
  // partial sums and fill, and the row tile's group sums' fill.
  transform.named_sequence @tile_row_tiles_and_groups(%partials: !transform.any_op {transform.consumed},
                                                      %groups: !transform.any_op {transform.consumed})
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) {
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    %row_tile, %partials_in_row, %pf_in_row, %gf_in_row = transform.include @tile_row_tiles failures(propagate)
        (%partials, %groups, %one) : (!transform.any_op, !transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %group_tile, %group_loop = transform.structured.tile_using_for %row_tile tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %group_loop "qforge.weight_groups" : !transform.any_op
    %partials_in_group, %pf_in_group, %g2 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials_in_row, %pf_in_row, %group_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %group_tile, %partials_in_group, %pf_in_group, %gf_in_row
      : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
  }

  // f32 prefill from the pack to the blocks of tokens: the parameters
  // packed once, the result's unpack tiled, the activation's pack and sums
  // %k_block k at a time; row tiles, groups, and in each group one block of
  // tokens (the m tile) per iteration, the partial sums fused in, so the
  // group's weight tile stays in L1 while every block reads it. The zero
  // fills that span every block of tokens (the activation sums', blocks x
  // groups x tokens; a row tile's group sums', blocks x tokens x rows) one
  // block at a time: vectorized whole they grow with M, past what LLVM
  // takes (M = 516 with 86 groups). Returns the kernel function and the
  // block's partial sums (of a chunk of a long group).
  transform.named_sequence @prefill_f32_prepack_factor_and_tile(%module: !transform.any_op {transform.readonly},
      %packed: !transform.any_op {transform.readonly}, %k_block: !transform.param<i64> {transform.readonly},
      %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %activation_pack = transform.get_producer_of_operand %packed[0] : (!transform.any_op) -> !transform.any_op
    %kernel, %sums, %partials, %groups = transform.include @prepack_and_factor_f32 failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @tile_result_unpack failures(propagate) (%kernel, %tokens, %rows)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    %sums_fill = transform.qforge.get_init_producers %sums : (!transform.any_op) -> !transform.any_op
    %per_call = transform.merge_handles %activation_pack, %sums : !transform.any_op
    transform.include @tile_in_k_blocks failures(propagate) (%per_call, %k_block)
      : (!transform.any_op, !transform.param<i64>) -> ()
    %sums_fill_tile, %sums_fill_loops:2 = transform.structured.tile_using_for %sums_fill tile_sizes [0, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %group_tile, %partials_in_group, %pf_in_group, %groups_fill = transform.include @tile_row_tiles_and_groups
        failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %groups_fill_tile, %groups_fill_loop = transform.structured.tile_using_for %groups_fill tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %block_tile, %block_loop = transform.structured.tile_using_for %group_tile tile_sizes [0, 0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %partials_in_block, %pf_in_block, %b2 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials_in_group, %pf_in_group, %block_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // A long group (one per row: per-channel scales) in chunks of 128 k
    // steps (128 8-bit weights, 256 4-bit ones), the chunk loop tagged as
    // the groups' one, as in the integer prefill: the group loop of one
    // iteration folds away, and with it the prefetch of the next group. A
    // group of one chunk gets no loop. Counted in steps, not in bytes of a
    // row tile: pack_balanced's row tile varies with M and the target.
    %chunk = transform.qforge.dividing_tile_size %partials_in_block {dim = 2, at_most = 128, zero_for_one_tile}
      : (!transform.any_op) -> !transform.param<i64>
    %partials_in_chunk, %chunk_loop = transform.structured.tile_using_for %partials_in_block tile_sizes [0, 0, %chunk]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.annotate %chunk_loop "qforge.weight_groups" : !transform.any_op
    transform.yield %kernel, %partials_in_chunk : !transform.any_op, !transform.any_op
  }

  // A group's byte steps (dim 2 of its partial sums) in chunks of at most
  // 64, a group of 128 4-bit weights, in a loop tagged qforge.weight_groups.
  // For one group per row (per-channel, K = 4096: 2048 bytes): its group
  // loop has one iteration and folds away, and with it what
  // @prefetch_next_group acts on; the chunk loop takes its place, one chunk
  // ahead the distance one group of 128 gives. A group of at most 64 bytes
  // is one chunk: no loop (zero_for_one_tile), the kernel is as without
  // this step. Longer groups in a real group loop (256: two chunks) keep
  // the group loop's prefetch: prefetch_reads_ahead leaves a target inside
  // another one alone. Returns the chunk loop (none for one chunk) and the
  // chunk's partial sums.
  transform.named_sequence @tile_long_groups_in_chunks(%partials: !transform.any_op {transform.consumed})
      -> (!transform.any_op, !transform.any_op) {
    %chunk = transform.qforge.dividing_tile_size %partials {dim = 2, at_most = 64, zero_for_one_tile}
      : (!transform.any_op) -> !transform.param<i64>
    %in_chunk, %chunk_loop = transform.structured.tile_using_for %partials tile_sizes [0, 0, %chunk]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.annotate %chunk_loop "qforge.weight_groups" : !transform.any_op
    transform.yield %chunk_loop, %in_chunk : !transform.any_op, !transform.any_op
  }

  // 4-bit weights (byte pairs), f32 activations: the partial sums' byte
  // steps (one 64-byte line each) one at a time, and inside each its two
  // nibbles, unrolled: the shift (0 or 4) becomes a constant. Returns the
  // byte loop.
  transform.named_sequence @tile_byte_steps_and_nibbles(%partials: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    %k_step, %byte_loop, %nibble_loop = transform.structured.tile_using_for %partials
        tile_sizes [0, 0, 1, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.loop.unroll %nibble_loop {factor = 2} : !transform.any_op
    transform.yield %byte_loop : !transform.any_op
  }

  // Up to 5 row tiles per iteration (the largest divisor of the tiles up
  // to 5: a partial iteration would make shapes dynamic; 5 so that N =
  // 4100, 65 tiles, streams 5 at a time, not 1), a group per iteration,
  // the k steps one at a time with each tile's step inside, unrolled whole
  // (unroll_dividing by the same bound), so each k step reads a line of
  // each tile. Returns the k loop, tagged qforge.weight_k for the prefetch.
  transform.named_sequence @tile_up_to_5_row_tiles_interleaved(%partials: !transform.any_op {transform.consumed},
                                                               %groups: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    %tiles = transform.qforge.dividing_tile_size %groups {dim = 0, at_most = 5, at_least = 1}
      : (!transform.any_op) -> !transform.param<i64>
    %row_tile, %partials_in_row, %pf_in_row, %gf_in_row = transform.include @tile_row_tiles failures(propagate)
        (%partials, %groups, %tiles) : (!transform.any_op, !transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %partials_in_group = transform.include @tile_one_group_per_iteration failures(propagate)
        (%row_tile, %partials_in_row, %pf_in_row)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    %k_step, %k_loop, %tile_loop = transform.structured.tile_using_for %partials_in_group
        tile_sizes [1, 0, 1] interchange = [2, 1, 0]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.qforge.unroll_dividing %tile_loop {at_most = 5} : !transform.any_op
    transform.annotate %k_loop "qforge.weight_k" : !transform.any_op
    transform.yield %k_loop : !transform.any_op
  }

  // Int8 activations, after the fold: one group per iteration (the first
  // dim of the group sums %groups), tagged qforge.weight_groups, the
  // partial sums and their fill fused in (none when %partials is empty).
  // Returns the group's group sums, partial sums and fill.
  transform.named_sequence @tile_int8_groups(%groups: !transform.any_op {transform.consumed},
                                             %partials: !transform.any_op {transform.consumed})
      -> (!transform.any_op, !transform.any_op, !transform.any_op) {
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %group_tile, %group_loop = transform.structured.tile_using_for %groups tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %group_loop "qforge.weight_groups" : !transform.any_op
    %partials_in_group, %pf_in_group, %g2 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials, %partials_fill, %group_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %group_tile, %partials_in_group, %pf_in_group : !transform.any_op, !transform.any_op, !transform.any_op
  }

  // Int8 decode, 8-bit weights: the partial sums, matched by their dims
  // after the fold, (g, k/4, row, 4) (a batched kernel's do not match: the
  // script fails); each group's k steps (32 rows x 4 bytes: lines of
  // line_rows rows, one vpdpbusd each, unrolled) one at a time. Returns the
  // k loop.
  transform.named_sequence @tile_int8_decode_k_steps(%kernel: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    // The group sums (g, row) are matched in the rows, not found from the
    // partial sums: with a group of one k step the fold removes the partial
    // sums' k dim, they match no pattern below and stay whole.
    %rows = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %groups = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>]} in %rows
      : (!transform.any_op) -> !transform.any_op
    %partials = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>]} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %group_tile, %partials_in_group, %pf_in_group = transform.include @tile_int8_groups failures(propagate) (%groups, %partials)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // Lines of line_rows rows (16: one 512-bit vpdpbusd; 8 on AVX2: one
    // 256-bit register, where a 16-row line is split in halves and the
    // split's shuffles stay: vperm2i128 + vpblendd per line on Zen 1).
    %line_rows = transform.qforge.strategy_param "line_rows" in %kernel default 16
      : (!transform.any_op) -> !transform.param<i64>
    %k_step, %k_loop, %line_loop = transform.structured.tile_using_for %partials_in_group tile_sizes [0, 1, %line_rows]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.qforge.unroll_dividing %line_loop {at_most = 32} : !transform.any_op
    transform.yield %k_loop : !transform.any_op
  }

  // Int8 decode, 4-bit weights: the partial sums (g, k/8, k%2, row, 4);
  // each group's byte steps (32 rows x 4 byte pairs: two lines of 16 rows,
  // unrolled) one at a time, each split into its two nibbles (unrolled: one
  // vpdpbusd each, the nibble picked by a constant shift and a mask).
  // Returns the byte loop.
  transform.named_sequence @tile_int8_decode_byte_steps(%kernel: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    // The group sums (g, row) are matched in the rows, not found from the
    // partial sums: with a group of one k step the fold removes the partial
    // sums' k dim, they match no pattern below and stay whole.
    %rows = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %groups = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>]} in %rows
      : (!transform.any_op) -> !transform.any_op
    %partials = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>]} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %group_tile, %partials_in_group, %pf_in_group = transform.include @tile_int8_groups failures(propagate) (%groups, %partials)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // A per-channel group in chunks of 32 byte steps (a group of 256, the
    // longest the entry script unrolls whole: shorter groups are one chunk
    // and compile as before), for the prefetch, as
    // @tile_long_groups_in_chunks.
    %chunk = transform.qforge.dividing_tile_size %partials_in_group {dim = 1, at_most = 32, zero_for_one_tile}
      : (!transform.any_op) -> !transform.param<i64>
    %partials_in_chunk, %chunk_loop = transform.structured.tile_using_for %partials_in_group tile_sizes [0, %chunk]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.annotate %chunk_loop "qforge.weight_groups" : !transform.any_op
    %k_step, %byte_loop, %nibble_loop, %line_loop = transform.structured.tile_using_for %partials_in_chunk tile_sizes [0, 1, 1, 16]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.loop.unroll %line_loop {factor = 2} : !transform.any_op
    transform.loop.unroll %nibble_loop {factor = 2} : !transform.any_op
    transform.yield %byte_loop : !transform.any_op
  }

  // Int8 prefill: inside each group, one block of activation rows per
  // iteration (the group sums' second dim), the partial sums fused in.
  // Returns the block's partial sums (of a chunk of a long group).
  transform.named_sequence @tile_int8_prefill_blocks(%kernel: !transform.any_op {transform.readonly},
                                                     %partials: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    // Matched in the rows, not found from the partial sums, which a unit
    // dim folded away leaves unmatched (then they stay whole).
    %rows = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %groups = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>]} in %rows
      : (!transform.any_op) -> !transform.any_op
    %group_tile, %partials_in_group, %pf_in_group = transform.include @tile_int8_groups failures(propagate) (%groups, %partials)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %block_tile, %block_loop = transform.structured.tile_using_for %group_tile tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %partials_in_block, %pf_in_block, %b2 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials_in_group, %pf_in_group, %block_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // A long group (one per row: per-channel scales) in chunks of 4 KiB of
    // the row tile's weights (operand 1: 32 k steps of 8-bit weights, 32
    // byte steps of 4-bit ones), the chunk loop tagged as the groups' one:
    // the group loop of one iteration folds away, and with it the prefetch
    // of the next group. A group of one chunk (up to 128 8-bit weights, 256
    // 4-bit ones) gets no loop.
    %chunk = transform.qforge.dividing_tile_size %partials_in_block {dim = 1, at_most = 4096, footprint_operand = 1, zero_for_one_tile}
      : (!transform.any_op) -> !transform.param<i64>
    %partials_in_chunk, %chunk_loop = transform.structured.tile_using_for %partials_in_block tile_sizes [0, %chunk]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.annotate %chunk_loop "qforge.weight_groups" : !transform.any_op
    transform.yield %partials_in_chunk : !transform.any_op
  }

  // The prefill result's unpack (the padded rows cut), one tokens x rows
  // tile at a time: vectorized whole, it would be one M x N vector.
  transform.named_sequence @tile_result_unpack(%kernel: !transform.any_op {transform.readonly},
                                               %tokens: !transform.param<i64> {transform.readonly},
                                               %rows: !transform.param<i64> {transform.readonly}) {
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %unpack_tile, %unpack_loops:2 = transform.structured.tile_using_for %unpack tile_sizes [0, %tokens, %rows]
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }

  // f32 packed vectorization: vectorize and hoist, then the cross-lane
  // sums (only the per-group activation sums) as trees.
  transform.named_sequence @vectorize_packed_f32(%kernel: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    %vectorized = transform.include @vectorize_and_hoist failures(propagate) (%kernel)
      : (!transform.any_op) -> !transform.any_op
    transform.include @lower_reductions_as_trees failures(propagate) (%vectorized) : (!transform.any_op) -> ()
    transform.yield %vectorized : !transform.any_op
  }

  // Interleaved row tiles: each tile's read of the partial sums goes
  // through the writes of the tiles before it (unrolling); reading past
  // them lets every tile's sums be hoisted, and after the hoisting the sums
  // are forwarded to the group epilogue instead of a heap buffer.
  transform.named_sequence @vectorize_interleaved_tiles(%kernel: !transform.any_op {transform.consumed}) {
    %vectorized = transform.include @vectorize_children failures(propagate) (%kernel)
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.read_past_disjoint_writes
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.include @hoist_loop_invariants failures(propagate) (%vectorized) : (!transform.any_op) -> ()
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.read_past_disjoint_writes
      transform.apply_patterns.qforge.fold_broadcast_transpose
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.include @lower_reductions_as_trees failures(propagate) (%vectorized) : (!transform.any_op) -> ()
    transform.yield
  }

  // Int8 packed vectorization: each k step a vector<rows x 4 x i32> product
  // of weight and activation bytes summed over the 4 bytes, left as a
  // multi_reduction for @x86_int8_dot_products_and_reductions after
  // bufferization, as are the per-group activation reductions (amax, xs, in
  // the loops tagged qforge.activation_groups), once their vectors are
  // flattened there. The group
  // epilogue's read of the sums is forwarded from the k loop's results
  // (read_past_disjoint_writes): read whole, the sums' tensor became a
  // buffer stored to in every group and never loaded from. A decode's
  // unrolled k steps sum into one accumulator per row tile, a chain of
  // vpdpbusd each waiting for the one before: it becomes 4 independent
  // sums (exact), enough for two ports at vpdpbusd's latency of 5 cycles
  // with the next group's chains in flight. A prefill's accumulators are
  // one product each per k step, no chain.
  transform.named_sequence @vectorize_packed_int8(%kernel: !transform.any_op {transform.consumed}) {
    %vectorized = transform.include @vectorize_and_hoist failures(propagate) (%kernel)
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.read_past_disjoint_writes
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.qforge.split_integer_reduction_chains %vectorized {chains = 4} : !transform.any_op
    transform.yield
  }

  // Int8 prefill up to the fold: the parameters packed once, the activation
  // quantized and packed, the result's unpack tiled, the row tiles folded.
  transform.named_sequence @prefill_int8_prepack_and_fold(%module: !transform.any_op {transform.readonly},
      %packed: !transform.any_op {transform.readonly}, %xq_steps: !transform.param<i64> {transform.readonly},
      %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
      -> !transform.any_op {
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %partials, %groups = transform.include @quantize_activation_rows_and_factor failures(propagate)
        (%kernel, %xq_steps) : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.include @tile_result_unpack failures(propagate) (%kernel, %tokens, %rows)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    %folded = transform.include @tile_row_tiles_and_fold failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield %folded : !transform.any_op
  }

  // Int8 prefill, 8-bit weights: weight rows packed by 32 and k by 4 (two
  // 64-byte lines of 16 rows x 4 bytes per k step), activation rows by up
  // to %max_tokens tokens, balanced to M with one product's worth of other
  // work per token block and line (pack_balanced's tile_overhead: up to 9
  // tokens, M = 2 -> 2, 17 -> two blocks of 9, 128 -> sixteen of 8), the
  // block unrolled whole by unroll_dividing (the tile as its bound:
  // loop.unroll by 8 left a 6-token loop rolled and its accumulators in
  // memory). In each block the k steps one at a time, not unrolled (a
  // second k step in the body would leave the accumulators in memory), in
  // each the tokens and 2 lines unrolled: up to 18 accumulators. A single
  // block (M <= %max_tokens) keeps its dim through the fold (the factored
  // sums name what may fold).
  transform.named_sequence @prefill_int8_32_rows(%module: !transform.any_op {transform.readonly},
      %xq_steps: !transform.param<i64> {transform.readonly},
      %max_tokens: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows, %k_tile = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, %max_tokens, 32, 0, 4] balance_dims = [1] {tile_overhead = 1}
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %folded = transform.include @prefill_int8_prepack_and_fold failures(propagate)
        (%module, %packed, %xq_steps, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
        -> !transform.any_op
    %partials = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>]} in %folded
      : (!transform.any_op) -> !transform.any_op
    %partials_in_chunk = transform.include @tile_int8_prefill_blocks failures(propagate) (%folded, %partials)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %k_step, %k_loop, %token_loop, %line_loop = transform.structured.tile_using_for %partials_in_chunk tile_sizes [0, 1, 0, 1, 16]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.loop.unroll %line_loop {factor = 2} : !transform.any_op
    transform.qforge.unroll_dividing %token_loop at_most = %tokens : !transform.any_op, !transform.param<i64>
    transform.yield %folded : !transform.any_op
  }

  // Int8 prefill, 4-bit weights: rows by 32 and byte pairs by 4, tokens by
  // up to %max_tokens (the nibble extraction is the other work per block
  // and line); the nibble loop outside the byte loop (interchange) and
  // unrolled, so each byte loop updates its accumulators once per step and
  // they stay in registers; tokens and lines as for 8-bit weights.
  transform.named_sequence @prefill_int4_32_rows(%module: !transform.any_op {transform.readonly},
      %xq_steps: !transform.param<i64> {transform.readonly},
      %max_tokens: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows, %k_tile = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, %max_tokens, 32, 0, 4, 0] balance_dims = [1] {tile_overhead = 1}
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %folded = transform.include @prefill_int8_prepack_and_fold failures(propagate)
        (%module, %packed, %xq_steps, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
        -> !transform.any_op
    %partials = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>]} in %folded
      : (!transform.any_op) -> !transform.any_op
    %partials_in_chunk = transform.include @tile_int8_prefill_blocks failures(propagate) (%folded, %partials)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %k_step, %nibble_loop, %byte_loop, %token_loop, %line_loop = transform.structured.tile_using_for %partials_in_chunk
        tile_sizes [0, 1, 1, 0, 1, 16] interchange = [0, 2, 1, 3, 4, 5]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.loop.unroll %line_loop {factor = 2} : !transform.any_op
    transform.qforge.unroll_dividing %token_loop at_most = %tokens : !transform.any_op, !transform.param<i64>
    transform.loop.unroll %nibble_loop {factor = 2} : !transform.any_op
    transform.yield %folded : !transform.any_op
  }

  // The f32 packed strategies whole (prefill: from its pack, balanced as
  // the target wants); an entry script gives its target's numbers. %rows
  // (the lanes) is the weights' pack size; %unpack_rows the decode result's
  // unpack tile (left when %rows does not divide N; 0: vectorized whole).
  // The decode's activation sums a group at a time: whole, with groups of
  // 32 at K = 14336, LLVM took 20-30 s over their G x K vector.
  transform.named_sequence @decode_packed_f32(%module: !transform.any_op {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly}, %unpack_rows: !transform.param<i64> {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %n_tile = transform.qforge.pack_balanced %contraction packed_sizes = [0, 0, %rows, 0, 0] balance_dims = []
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>)
    %kernel, %sums, %partials, %groups = transform.include @prepack_and_factor_f32 failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %sum_groups = transform.include @tile_one_group_at_a_time failures(propagate) (%sums)
      : (!transform.any_op) -> !transform.any_op
    %k_loop = transform.include @tile_up_to_5_row_tiles_interleaved failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %k_loop {factor = 8} : !transform.any_op
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %kernel : (!transform.any_op) -> !transform.any_op
    transform.foreach %unpack : !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %tile, %loop = transform.structured.tile_using_for %one tile_sizes [0, 0, %unpack_rows] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    }
    transform.include @vectorize_interleaved_tiles failures(propagate) (%kernel) : (!transform.any_op) -> ()
    transform.yield
  }

  // 4-bit weights (byte pairs): a group of the sums at a time, row tiles,
  // groups, byte steps (4 per iteration) and their nibbles.
  transform.named_sequence @decode_packed_int4_f32(%module: !transform.any_op {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly}, %unpack_rows: !transform.param<i64> {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %n_tile = transform.qforge.pack_balanced %contraction packed_sizes = [0, 0, %rows, 0, 0, 0] balance_dims = []
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>)
    %kernel, %sums, %partials, %groups = transform.include @prepack_and_factor_f32 failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %sum_groups = transform.include @tile_one_group_at_a_time failures(propagate) (%sums)
      : (!transform.any_op) -> !transform.any_op
    %group, %partials_in_group, %fill_in_group, %groups_fill = transform.include @tile_row_tiles_and_groups failures(propagate)
        (%partials, %groups) : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %chunk_loop, %partials_in_chunk = transform.include @tile_long_groups_in_chunks failures(propagate) (%partials_in_group)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %byte_loop = transform.include @tile_byte_steps_and_nibbles failures(propagate) (%partials_in_chunk)
      : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %byte_loop {factor = 4} : !transform.any_op
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %kernel : (!transform.any_op) -> !transform.any_op
    transform.foreach %unpack : !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %tile, %loop = transform.structured.tile_using_for %one tile_sizes [0, 0, %unpack_rows] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    }
    %transposes = transform.structured.match ops{["linalg.transpose"]} in %kernel : (!transform.any_op) -> !transform.any_op
    transform.foreach %transposes : !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %tile, %loop = transform.structured.tile_using_for %one tile_sizes [0, 0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    %vectorized = transform.include @vectorize_packed_f32 failures(propagate) (%kernel)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // Prefill after pack_balanced (whose balance is the target's): the
  // activation's pack and sums 16 k at a time, blocks of tokens, the k steps
  // (8 per iteration; 4-bit: 8 byte pairs, byte steps 4 per iteration, and
  // nibbles), vectorized; each token's activation read as a scalar (a
  // broadcast from memory, not a vector<2|3xf32> taken apart by shuffles).
  transform.named_sequence @prefill_packed_f32(%module: !transform.any_op {transform.readonly},
      %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly}) {
    %kernel, %partials_in_chunk = transform.include @prefill_f32_tiles failures(propagate)
        (%module, %packed, %tokens, %rows) : (!transform.any_op, !transform.any_op, !transform.param<i64>,
        !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.include @prefill_f32_k_steps failures(propagate) (%partials_in_chunk) : (!transform.any_op) -> ()
    transform.include @vectorize_prefill_f32 failures(propagate) (%kernel) : (!transform.any_op) -> ()
    transform.yield
  }

  // @prefill_packed_f32 with each row tile's weights of a group converted
  // to f32 once, before its blocks of tokens, when there are at least 8
  // blocks (@convert_weights_once_per_group): for cores whose FMAs share
  // their ports with the widening and the conversion (Intel).
  transform.named_sequence @prefill_packed_f32_converting_weights_ahead(%module: !transform.any_op {transform.readonly},
      %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly}) {
    %kernel, %partials_in_chunk = transform.include @prefill_f32_tiles failures(propagate)
        (%module, %packed, %tokens, %rows) : (!transform.any_op, !transform.any_op, !transform.param<i64>,
        !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %partials_f32 = transform.include @convert_weights_once_per_group failures(propagate) (%partials_in_chunk)
      : (!transform.any_op) -> !transform.any_op
    transform.include @prefill_f32_k_steps failures(propagate) (%partials_f32) : (!transform.any_op) -> ()
    transform.include @vectorize_prefill_f32 failures(propagate) (%kernel) : (!transform.any_op) -> ()
    transform.yield
  }

  // The packed integer decode whole (decode-packed-int8.mlir): packs of 32
  // rows x 4 k (two vpdpbusd's 64-byte lines; the int8 prefill's packing, so
  // that a dynamic M packs once for both, and faster than one line of 16:
  // docs/measurements/2026-12-05-zen5-int8-decode-32-rows.md), the
  // activation quantized per group, the row tiles and groups folded, the
  // group's k steps unrolled (up to 32) and vectorized.
  transform.named_sequence @decode_packed_int8(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 32, 0, 4]
      : (!transform.any_op) -> !transform.any_op
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    // The result's unpack (32 does not divide N: padded rows cut) one row
    // tile at a time: vectorized whole, it is one N-wide vector the
    // lowering takes over a minute on (N = 4100).
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %kernel : (!transform.any_op) -> !transform.any_op
    transform.foreach %unpack : !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %tile, %loop = transform.structured.tile_using_for %one tile_sizes [0, 0, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    %partials, %groups = transform.include @quantize_and_factor_packed_decode failures(propagate) (%kernel)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %folded = transform.include @tile_row_tiles_and_fold failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %k_loop = transform.include @tile_int8_decode_k_steps failures(propagate) (%folded)
      : (!transform.any_op) -> !transform.any_op
    // k_unroll k steps per iteration of the group's k loop (32: the whole
    // group). Fewer keep a loop whose next-group prefetches are spread over
    // the group, not 64 in a row at its top (Zen 1: 1.6x,
    // docs/measurements/2026-12-07-zen1-packed-int8-avx2.md).
    %k_unroll = transform.qforge.strategy_param "k_unroll" in %folded default 32
      : (!transform.any_op) -> !transform.param<i64>
    transform.qforge.unroll_dividing %k_loop at_most = %k_unroll : !transform.any_op, !transform.param<i64>
    transform.include @vectorize_packed_int8 failures(propagate) (%folded) : (!transform.any_op) -> ()
    transform.yield
  }

  // The same for 4-bit weights (decode-packed-int4-int8.mlir): byte pairs,
  // the activation's pack tiled in k blocks of 4 steps, byte steps unrolled.
  transform.named_sequence @decode_packed_int4_int8(%module: !transform.any_op {transform.readonly}) {
    %activation_tiles = transform.param.constant 4 : i64 -> !transform.param<i64>
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 32, 0, 4, 0]
      : (!transform.any_op) -> !transform.any_op
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %activation_pack = transform.get_producer_of_operand %packed[0] : (!transform.any_op) -> !transform.any_op
    transform.include @tile_in_k_blocks failures(propagate) (%activation_pack, %activation_tiles)
      : (!transform.any_op, !transform.param<i64>) -> ()
    // The result's unpack (32 does not divide N: padded rows cut) one row
    // tile at a time: vectorized whole, it is one N-wide vector the
    // lowering takes over a minute on (N = 4100).
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %kernel : (!transform.any_op) -> !transform.any_op
    transform.foreach %unpack : !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %tile, %loop = transform.structured.tile_using_for %one tile_sizes [0, 0, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    %partials, %groups = transform.include @quantize_and_factor_packed_decode failures(propagate) (%kernel)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %folded = transform.include @tile_row_tiles_and_fold failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %byte_loop = transform.include @tile_int8_decode_byte_steps failures(propagate) (%folded)
      : (!transform.any_op) -> !transform.any_op
    // byte_unroll byte steps per iteration of the chunk's byte loop (32:
    // the whole chunk).
    %byte_unroll = transform.qforge.strategy_param "byte_unroll" in %folded default 32
      : (!transform.any_op) -> !transform.param<i64>
    transform.qforge.unroll_dividing %byte_loop at_most = %byte_unroll : !transform.any_op, !transform.param<i64>
    transform.include @vectorize_packed_int8 failures(propagate) (%folded) : (!transform.any_op) -> ()
    transform.yield
  }

  // The prefill's pack, balanced to M, for an entry script that reads its
  // row's numbers (transform.qforge.strategy_param): %overhead 0 packs
  // with as many token tiles as %tokens gives, 1 with
  // {tile_overhead = 1} (transform.qforge.pack_balanced); 8-bit weights
  // (5 loops) and 4-bit byte pairs (6 loops).
  transform.named_sequence @pack_prefill(%contraction: !transform.any_op {transform.readonly},
      %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly},
      %overhead: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>) {
    %packed, %t, %r = transform.tune.alternatives<"tile_overhead"> selected_region = %overhead : !transform.param<i64>
        -> !transform.any_op, !transform.param<i64>, !transform.param<i64> {
      %p0, %t0, %r0 = transform.qforge.pack_balanced %contraction packed_sizes = [0, %tokens, %rows, 0, 0] balance_dims = [1]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
      transform.yield %p0, %t0, %r0 : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    }, {
      %p1, %t1, %r1 = transform.qforge.pack_balanced %contraction packed_sizes = [0, %tokens, %rows, 0, 0] balance_dims = [1] {tile_overhead = 1}
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
      transform.yield %p1, %t1, %r1 : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    }
    transform.yield %packed, %t, %r : !transform.any_op, !transform.param<i64>, !transform.param<i64>
  }
  transform.named_sequence @pack_prefill_int4(%contraction: !transform.any_op {transform.readonly},
      %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly},
      %overhead: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>) {
    %packed, %t, %r = transform.tune.alternatives<"tile_overhead"> selected_region = %overhead : !transform.param<i64>
        -> !transform.any_op, !transform.param<i64>, !transform.param<i64> {
      %p0, %t0, %r0 = transform.qforge.pack_balanced %contraction packed_sizes = [0, %tokens, %rows, 0, 0, 0] balance_dims = [1]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
      transform.yield %p0, %t0, %r0 : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    }, {
      %p1, %t1, %r1 = transform.qforge.pack_balanced %contraction packed_sizes = [0, %tokens, %rows, 0, 0, 0] balance_dims = [1] {tile_overhead = 1}
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
      transform.yield %p1, %t1, %r1 : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    }
    transform.yield %packed, %t, %r : !transform.any_op, !transform.param<i64>, !transform.param<i64>
  }

  // The f32 prefill whole, %ahead 1 converting the weights ahead
  // (@prefill_packed_f32_converting_weights_ahead), 0 not
  // (@prefill_packed_f32); 4-bit weights likewise.
  transform.named_sequence @prefill_packed_f32_choosing(%module: !transform.any_op {transform.readonly},
      %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly}, %ahead: !transform.param<i64> {transform.readonly}) {
    transform.tune.alternatives<"convert_ahead"> selected_region = %ahead : !transform.param<i64> {
      transform.include @prefill_packed_f32 failures(propagate) (%module, %packed, %tokens, %rows)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    }, {
      transform.include @prefill_packed_f32_converting_weights_ahead failures(propagate) (%module, %packed, %tokens, %rows)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    transform.yield
  }
  transform.named_sequence @prefill_packed_int4_f32_choosing(%module: !transform.any_op {transform.readonly},
      %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly}, %ahead: !transform.param<i64> {transform.readonly}) {
    transform.tune.alternatives<"convert_ahead"> selected_region = %ahead : !transform.param<i64> {
      transform.include @prefill_packed_int4_f32 failures(propagate) (%module, %packed, %tokens, %rows)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    }, {
      transform.include @prefill_packed_int4_f32_converting_weights_ahead failures(propagate) (%module, %packed, %tokens, %rows)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    transform.yield
  }

  // The f32 prefill's packs, factoring and tiles, k blocks of 16
  // (@prefill_f32_prepack_factor_and_tile): returns the kernel and the
  // partial sums of a block of tokens and a chunk of its group.
  transform.named_sequence @prefill_f32_tiles(%module: !transform.any_op {transform.readonly},
      %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.any_op) {
    %k_block = transform.param.constant 16 : i64 -> !transform.param<i64>
    %kernel, %partials_in_chunk = transform.include @prefill_f32_prepack_factor_and_tile failures(propagate)
        (%module, %packed, %k_block, %tokens, %rows) : (!transform.any_op, !transform.any_op, !transform.param<i64>,
        !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield %kernel, %partials_in_chunk : !transform.any_op, !transform.any_op
  }

  // The weights' widening and conversion (8-bit: arith.uitofp) of a row
  // tile and group, once before its blocks of tokens
  // (@hoist_weight_conversion): the blocks' k steps then read f32 weights,
  // and each converted vector feeds the FMAs of every block, not of one.
  // The conversion one k step at a time, 8 per iteration, as the partial
  // sums' steps (@prefill_f32_k_steps). Returns the partial sums.
  transform.named_sequence @convert_weights_once_per_group(%partials: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    %conversions, %partials_f32 = transform.include @hoist_weight_conversion failures(propagate) (%partials)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @prefill_f32_k_steps failures(propagate) (%conversions) : (!transform.any_op) -> ()
    transform.yield %partials_f32 : !transform.any_op
  }

  // A prefill's weight conversion out of the partial sums, before the loop
  // over blocks of tokens when it has at least 8 iterations
  // (transform.qforge.hoist_operand_conversion). Fewer blocks (M < 85 with
  // 12-token tiles) gained nothing cold: the tile's weights then arrive in
  // one burst, not spread over a block's FMAs (docs/benchmarks.md). The
  // partial sums' body is canonicalized first: tiling left a 4-bit nibble's
  // index an affine.apply of every loop's index and tile offset; simplified,
  // it reads the nibble loop's index alone, not the blocks' offset. Returns
  // the conversions and the partial sums.
  transform.named_sequence @hoist_weight_conversion(%partials: !transform.any_op {transform.consumed})
      -> (!transform.any_op, !transform.any_op) {
    transform.apply_patterns to %partials {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %conversions, %partials_f32 = transform.qforge.hoist_operand_conversion %partials {input = 1, min_iterations = 8}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %conversions, %partials_f32 : !transform.any_op, !transform.any_op
  }

  // The k steps of a block's partial sums, 8 per iteration.
  transform.named_sequence @prefill_f32_k_steps(%partials_in_chunk: !transform.any_op {transform.consumed}) {
    %k_step, %k_loop = transform.structured.tile_using_for %partials_in_chunk tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.loop.unroll %k_loop {factor = 8} : !transform.any_op
    transform.yield
  }

  // The f32 prefill vectorized, each token's activation read as a scalar.
  transform.named_sequence @vectorize_prefill_f32(%kernel: !transform.any_op {transform.consumed}) {
    %vectorized = transform.include @vectorize_packed_f32 failures(propagate) (%kernel)
      : (!transform.any_op) -> !transform.any_op
    transform.include @lower_broadcasts failures(propagate) (%vectorized) : (!transform.any_op) -> ()
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.scalarize_extracted_reads
    } : !transform.any_op
    transform.yield
  }

  transform.named_sequence @prefill_packed_int4_f32(%module: !transform.any_op {transform.readonly},
      %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly}) {
    %kernel, %partials_in_chunk = transform.include @prefill_int4_f32_tiles failures(propagate)
        (%module, %packed, %tokens, %rows) : (!transform.any_op, !transform.any_op, !transform.param<i64>,
        !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.include @prefill_int4_f32_byte_steps failures(propagate) (%partials_in_chunk) : (!transform.any_op) -> ()
    transform.include @vectorize_prefill_f32 failures(propagate) (%kernel) : (!transform.any_op) -> ()
    transform.yield
  }

  // @prefill_packed_int4_f32 with each row tile's nibbles of a group
  // converted to f32 once, before its blocks of tokens, when there are at
  // least 8 blocks (@convert_nibbles_once_per_group): Intel cores.
  transform.named_sequence @prefill_packed_int4_f32_converting_weights_ahead(%module: !transform.any_op {transform.readonly},
      %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly}) {
    %kernel, %partials_in_chunk = transform.include @prefill_int4_f32_tiles failures(propagate)
        (%module, %packed, %tokens, %rows) : (!transform.any_op, !transform.any_op, !transform.param<i64>,
        !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %partials_f32 = transform.include @convert_nibbles_once_per_group failures(propagate) (%partials_in_chunk)
      : (!transform.any_op) -> !transform.any_op
    transform.include @prefill_int4_f32_byte_steps failures(propagate) (%partials_f32) : (!transform.any_op) -> ()
    transform.include @vectorize_prefill_f32 failures(propagate) (%kernel) : (!transform.any_op) -> ()
    transform.yield
  }

  // The 4-bit f32 prefill's packs, factoring and tiles, k blocks of 8 byte
  // pairs (@prefill_f32_prepack_factor_and_tile).
  transform.named_sequence @prefill_int4_f32_tiles(%module: !transform.any_op {transform.readonly},
      %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.any_op) {
    %k_block = transform.param.constant 8 : i64 -> !transform.param<i64>
    %kernel, %partials_in_chunk = transform.include @prefill_f32_prepack_factor_and_tile failures(propagate)
        (%module, %packed, %k_block, %tokens, %rows) : (!transform.any_op, !transform.any_op, !transform.param<i64>,
        !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield %kernel, %partials_in_chunk : !transform.any_op, !transform.any_op
  }

  // A 4-bit generic's byte steps and nibbles (@tile_byte_steps_and_nibbles),
  // 4 byte steps per iteration.
  transform.named_sequence @prefill_int4_f32_byte_steps(%generic: !transform.any_op {transform.consumed}) {
    %byte_loop = transform.include @tile_byte_steps_and_nibbles failures(propagate) (%generic)
      : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %byte_loop {factor = 4} : !transform.any_op
    transform.yield
  }

  // As @convert_weights_once_per_group for 4-bit weights: the byte pairs'
  // nibbles (the nibble picked by its loop's index) become a tensor of f32
  // with a dim of their own (byte step, nibble, rows), converted as the
  // partial sums' steps are (@prefill_int4_f32_byte_steps). Returns the
  // partial sums.
  transform.named_sequence @convert_nibbles_once_per_group(%partials: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    %conversions, %partials_f32 = transform.include @hoist_weight_conversion failures(propagate) (%partials)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @prefill_int4_f32_byte_steps failures(propagate) (%conversions) : (!transform.any_op) -> ()
    transform.yield %partials_f32 : !transform.any_op
  }
}
