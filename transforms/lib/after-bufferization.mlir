// Script library: the steps entry scripts' @qforge_after_bufferization
// run: prefetches (reads narrower than a target's lane count, a param, are
// not prefetched) and the int8-activation strategies' dot products.
module attributes {transform.with_named_sequence} {
  // First the activation's per-group work (its maximum, quantization and
  // sums, in the loops tagged qforge.activation_groups) on 1-D vectors: in
  // the packed activation's shape (e.g. 32 x 4 bytes of k per group) each
  // op lowered to 32 128-bit ones. Then u8 x s8 products summed 4 per i32
  // lane become one vpdpbusd each. It runs after bufferization: the
  // flattening needs contiguous memrefs, and the vpdpbusd is an LLVM
  // intrinsic call, which bufferization's analysis does not accept. Then
  // the reductions left (one f32 sum of the lanes per row, group sums,
  // activation maxima) are lowered one pattern set at a time and
  // reassociated into trees, as in the f32 strategies. Returns the kernel
  // function.
  transform.named_sequence @x86_int8_dot_products_and_reductions(%module: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %func = transform.include @x86_int8_dot_products failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.include @lower_int8_reductions failures(propagate) (%func)
      : (!transform.any_op) -> ()
    transform.yield %func : !transform.any_op
  }

  // The first half of @x86_int8_dot_products_and_reductions: the
  // activation's per-group work on 1-D vectors, its packs as shuffles, the
  // dot products as vpdpbusd. Returns the kernel function.
  transform.named_sequence @x86_int8_dot_products(%module: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    %activation_groups = transform.structured.match ops{["scf.for"]} attributes{qforge.activation_groups} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.flatten_contiguous_vectors %activation_groups : !transform.any_op
    // The activation's packs (a prefill's tokens x k steps) as shuffles,
    // not one scalar move per element.
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.transpose_as_shuffle
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    // The byte work left around the dot products (a 4-bit weight's nibble
    // masks and shifts on its vector<16x4xi8> rows, its constants) as 1-D
    // vectors, the shape casts into each vpdpbusd folded; only bytes: a
    // result tile of whole-register rows stays rows. Left n-D, each op
    // lowered to 16 ops of 4 bytes that LLVM put back together with two
    // shuffles each (Zen 1: the 4-bit int8 decode 1.5-1.6x faster and
    // quicker to compile, docs/measurements/2026-12-07-zen1-int8-byte-work.md).
    transform.qforge.flatten_contiguous_vectors %func {bytes_only} : !transform.any_op
    transform.yield %func : !transform.any_op
  }

  // The second half: the reductions left lowered one pattern set at a
  // time and reassociated into trees.
  transform.named_sequence @lower_int8_reductions(%func: !transform.any_op {transform.readonly}) {
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_shape_cast
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
    transform.yield
  }

  // The packed strategies' group loop: the next group's weight tile, for
  // reads of at least %min_read_bytes (a row tile's lanes, one per byte).
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly},
                                                %min_read_bytes: !transform.param<i64> {transform.readonly}) {
    %group_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_groups} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %group_loop min_read_bytes = %min_read_bytes {iterations = 1, line_bytes = 64}
      : !transform.any_op, !transform.param<i64>
    transform.yield
  }

  // The 4-bit strategies with f32 activations on AVX-512: each nibble's
  // conversion to f32 as a vpermps on a table of its 16 values
  // (apply_patterns.qforge.x86_nibble_tables, where the why is): fewer ops
  // on the ports the multiply-adds need than the generic widening and
  // conversion.
  transform.named_sequence @x86_nibble_tables(%module: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.x86_nibble_tables
    } : !transform.any_op
    transform.yield
  }

  // The int8 packed strategies (VNNI): the next group, then the dot
  // products (prefill entry scripts lower their broadcasts after them).
  transform.named_sequence @prefetch_next_group_int8(%module: !transform.any_op {transform.readonly},
                                                     %min_read_bytes: !transform.param<i64> {transform.readonly})
      -> !transform.any_op {
    transform.include @prefetch_next_group failures(propagate) (%module, %min_read_bytes)
      : (!transform.any_op, !transform.param<i64>) -> ()
    %func = transform.include @x86_int8_dot_products_and_reductions failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.yield %func : !transform.any_op
  }

  // As @prefetch_next_group_int8, into L2 only (locality 2), and 4 KiB
  // ahead rather than one group (one group of 128 of a 32-row tile; two of
  // 64): on an Intel Xeon the integer prefill at M = 17, which streams its
  // weights at the read bandwidth, spent 11% longer with the tile
  // prefetched into L1, and with groups of 64 one group ahead was too close
  // (docs/benchmarks.md).
  transform.named_sequence @prefetch_next_group_into_l2_int8(%module: !transform.any_op {transform.readonly},
                                                             %min_read_bytes: !transform.param<i64> {transform.readonly})
      -> !transform.any_op {
    %group_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_groups} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %group_loop min_read_bytes = %min_read_bytes
        {ahead_bytes = 4096, line_bytes = 64, locality = 2} : !transform.any_op, !transform.param<i64>
    %func = transform.include @x86_int8_dot_products_and_reductions failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.yield %func : !transform.any_op
  }

  // The int8 decode strategies (not packed): the next row, kept out of L1
  // (locality 2: into L2), for reads of at least %min_read_bytes (a weight
  // step: the row's scales and zero-points, one scalar per group, are left
  // to the hardware prefetcher, not prefetched 16 times per line), then the
  // dot products.
  transform.named_sequence @prefetch_next_row_int8(%module: !transform.any_op {transform.readonly},
                                                   %min_read_bytes: !transform.param<i64> {transform.readonly}) {
    %row_loop = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %row_loop min_read_bytes = %min_read_bytes
        {iterations = 1, line_bytes = 64, locality = 2} : !transform.any_op, !transform.param<i64>
    %func = transform.include @x86_int8_dot_products_and_reductions failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // As @prefetch_next_row_int8, into L1 (locality 3): on AMD Zen 5 the row
  // prefetched into L2 left the loop waiting on it (docs/benchmarks.md).
  transform.named_sequence @prefetch_next_row_int8_into_l1(%module: !transform.any_op {transform.readonly}) {
    %row_loop = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %row_loop {iterations = 1, line_bytes = 64, locality = 3} : !transform.any_op
    %func = transform.include @x86_int8_dot_products_and_reductions failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // Packed decode: 4 k-loop iterations ahead, into the next group near a
  // group's end, for reads of at least %min_read_bytes.
  transform.named_sequence @prefetch_k_steps_into_next_group(%module: !transform.any_op {transform.readonly},
      %min_read_bytes: !transform.param<i64> {transform.readonly}) {
    %k_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_k} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %k_loop min_read_bytes = %min_read_bytes
        {iterations = 4, line_bytes = 64, into_parent_loop} : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}
