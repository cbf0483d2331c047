//===- QForgeTransformOps.td - qforge transform dialect extension ---------===//
//
// Transform ops for compiling group-quantized matmuls. Every op lives in the
// `transform.qforge.*` namespace (or `transform.apply_patterns.qforge.*` for
// pattern descriptors) and is registered through QForgeTransformExtension.
//
//===----------------------------------------------------------------------===//

#ifndef QFORGE_TRANSFORM_OPS
#define QFORGE_TRANSFORM_OPS

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

//===----------------------------------------------------------------------===//
// Pattern descriptors (one per PDLL pattern set in patterns/)
//===----------------------------------------------------------------------===//

def ApplyFoldIntToFloatCastsPatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.fold_int_to_float_casts",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Fold an integer extension feeding an int-to-float cast";
  let description = [{
    Collects the PDLL patterns of `patterns/FoldIntToFloatCasts.pdll`:

    * `arith.uitofp(arith.extui(x))` becomes `arith.uitofp(x)`;
    * `arith.sitofp(arith.extsi(x))` becomes `arith.sitofp(x)`;
    * `arith.sitofp(arith.extui(x))` becomes `arith.uitofp(x)`.

    The integer value is unchanged by the extension, so the float result is
    bit-identical; dequantization bodies become one instruction shorter per
    element once vectorized. `arith.uitofp(arith.extsi(x))` is left alone: it
    is a different number for negative `x`.

    Example:

    ```mlir
    transform.apply_patterns to %dequant {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyTransposeAsShufflePatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.transpose_as_shuffle",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "A small vector.transpose as one shuffle of the flattened vector";
  let description = [{
    Rewrites a `vector.transpose` of a static vector of at most 4096 bits
    (8 512-bit registers) with more than two dims that are not unit into a
    `vector.shape_cast` to 1-D, one `vector.shuffle` that moves each
    element where the permutation puts it, and a `vector.shape_cast` to the
    result's shape.

    Why: the fixed lowering turns such a transpose into one extract and
    insert per element, which LLVM keeps as scalar moves where it cannot
    see the pattern: the 4-bit integer prefill's activation pack (8 tokens
    x 4 k steps x 4 byte pairs per tile, split by nibble) was a loop of
    mostly single-byte moves. From one shuffle LLVM picks the target's
    permutes. Longer transposes are left alone (a longer shuffle costs the
    backend time and registers and is not a tile's), and so are 2-D ones,
    whose lowering to row shuffles LLVM already turns into permutes.

    Where the permutation is a shuffle of each row (the source's first dim
    that is not unit: a token) and a square transpose of 32-bit words (T
    rows of T words, T a power of two), it becomes that instead: one
    shuffle per row (none where the row keeps its order), the rows bitcast
    to words, log2(T) rounds of two-source shuffles of T words (round j:
    rows i and i + j, i & j = 0, exchange their blocks of j words), and the
    columns bitcast back and joined into one 1-D vector; users that only
    drop leading unit dims (`vector.extract` at zeros) take it by a shape
    cast. The 4-bit integer prefill's pack (8 tokens x 32 bytes) was one
    shuffle of 256 bytes, 0.3 s of LLVM's time per kernel on Zen 1; as rows
    and words, 8 + 24 + 7 short shuffles (a dynamic 4-bit layer with int8
    activations compiles in 1.9 s instead of 2.5).

    Example:

    ```mlir
    %t = vector.transpose %v, [1, 0, 2] : vector<2x3x2xf32> to vector<3x2x2xf32>
    // becomes
    %f = vector.shape_cast %v : vector<2x3x2xf32> to vector<12xf32>
    %s = vector.shuffle %f, %f [0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11]
        : vector<12xf32>, vector<12xf32>
    %t = vector.shape_cast %s : vector<12xf32> to vector<3x2x2xf32>
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyReadWrittenElementPatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.read_written_element",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Take a point read of a just-written tensor from the written vector";
  let description = [{
    A `vector.transfer_read` of one element (0-d, a broadcast of one
    element, or a vector of one element; unmasked) at constant indices, of
    a static tensor that an unmasked `vector.transfer_write` with a minor
    identity map and constant indices produced, whose box holds that
    element, becomes `vector.extract` of the written vector (then
    `vector.broadcast` to the read's type). Upstream folding forwards a
    write only to a read of the same box.

    Why: a strategy that decodes a super-block's eight sub-block scales as
    one vector (transforms/decode-two-level-*.mlir) writes it into a small
    tensor, and each unrolled sub-block reads one element back; left alone,
    that tensor bufferizes into a buffer per super-block. The fixed
    lowering applies these patterns before bufferization.

    With `max_elements` = k > 1, a read of up to k elements through a
    minor identity map (no broadcast, no permutation) whose box the write
    holds becomes one `vector.extract` per element and a
    `vector.from_elements`: a lane group's scales (two sub-blocks of one
    64-byte slice, `lane_groups` of `factor_two_level_contraction`).
  }];
  let arguments = (ins DefaultValuedAttr<I64Attr, "1">:$max_elements);
  let assemblyFormat = "attr-dict";
}

def ApplyReadPastDisjointWritesPatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.read_past_disjoint_writes",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Forward tensor transfer reads from the writes of their elements";
  let description = [{
    Four rewrites of `vector.transfer_read` on tensors (unmasked, minor
    identity maps), which upstream folding does only when a read matches
    one write exactly:

    - a read of a tensor produced by `vector.transfer_write` ops that
      provably cover other elements (constant or bounded indices far enough
      apart, same vector type, in the read's block) reads the first such
      write's destination instead, and moves above that write (when its
      indices are computed before it; otherwise nothing changes);
    - a read whose elements all lie in a write of a splat constant (e.g. one
      tile's accumulators out of a zero fill of two tiles) is that splat;
    - a read of 2 to 8 rows (its leading vector dim) from a tensor produced
      by a write becomes one read per row, which the rules above and
      upstream folding can then forward;
    - a read (constant indices, in bounds) whose every piece -- a write's
      vector type, smaller than a row, tiling the read's box -- some write
      wrote in place becomes one read per piece, forwarded likewise (up to
      64 pieces).

    Why: unrolling a loop over row tiles leaves each tile's read of the
    loop-carried accumulators behind the writes of the tiles before it
    (here two tiles):

    ```mlir
    %w0 = vector.transfer_write %acc0, %iter[%c0, %c0] : vector<64xf32>, tensor<2x64xf32>
    %r1 = vector.transfer_read %w0[%c1, %c0], %pad : tensor<2x64xf32>, vector<64xf32>
    ```

    `%r1` becomes a read of `%iter`, placed above `%w0`, and
    `transform.loop.hoist_loop_invariant_subsets` can keep every tile's
    accumulators in registers across the loop. After hoisting, the epilogue
    that reads the tiles back (`vector<2x64xf32>`) gets the hoisted values
    themselves, and the accumulator tensor -- a heap buffer per iteration
    of the enclosing loop once bufferized, stored to on every iteration of
    the inner one -- is gone. Likewise the integer prefill's group
    epilogue reads its 8 x 32 int32 sums, written 16 lanes at a time after
    the k loop, as one vector: split into the pieces, the sums' tensor (a
    buffer stored to in every group, never loaded from) is gone.

    The read moves above the writes it skips because a read of a tensor as
    it was before a write, placed after that write, makes bufferization
    copy the tensor (one-shot bufferize does not see that the two are
    disjoint), which a loop-carried tensor cannot take ("Yield operand is
    not equivalent"); read first, the write can still happen in place,
    whatever else reads it.
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyFoldBroadcastTransposePatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.fold_broadcast_transpose",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Fold a transpose that only moves broadcast dims";
  let description = [{
    Collects the PDLL patterns of `patterns/FoldBroadcastTranspose.pdll`.
    A `vector.broadcast` is constant along its broadcast dims (new leading
    dims and stretched unit dims). A `vector.transpose` of it that keeps the
    dims along which it varies in their relative order only moves constant
    dims, so it becomes a `vector.shape_cast` of the source (moving its unit
    dims into place) followed by a `vector.broadcast` to the transposed type;
    a transpose of a broadcast scalar becomes the broadcast alone.

    Upstream's vectorizer emits the broadcast + transpose pair for per-row
    scales and zero-points read through maps like `(d0, d1, 0)`; lowered as
    is, the transpose is one scalar element move per lane.

    Example:

    ```mlir
    %b = vector.broadcast %s : vector<16x32x1xf32> to vector<1x16x32x1xf32>
    %t = vector.transpose %b, [0, 3, 1, 2]
        : vector<1x16x32x1xf32> to vector<1x1x16x32xf32>
    // becomes
    %t = vector.shape_cast %s : vector<16x32x1xf32> to vector<1x1x16x32xf32>
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyFoldWholeInsertSlicePatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.fold_whole_insert_slice",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "An insert_slice that covers its destination is a reshape";
  let description = [{
    A `tensor.insert_slice` at offset 0 with unit strides whose static
    source fills its static destination up to the destination's unit dims
    (a rank-reducing insert of the whole) overwrites every element: it
    becomes a `tensor.expand_shape` of its source. Upstream folds only the
    insert whose source and destination types are equal.

    Why: canonicalizing an `scf.forall` of a single iteration (a batch of
    at most 8 tokens is one block of the integer prefill) leaves its
    `parallel_insert_slice` as such an insert; vectorized, it copies the
    whole tensor through one vector.

    Example:

    ```mlir
    %r = tensor.insert_slice %s into %d[0, 0, 0] [1, 32, 8] [1, 1, 1]
        : tensor<32x8xi8> into tensor<1x32x8xi8>
    // becomes
    %r = tensor.expand_shape %s [[0, 1], [2]] output_shape [1, 32, 8]
        : tensor<32x8xi8> into tensor<1x32x8xi8>
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyX86Int8DotProductsPatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.x86_int8_dot_products",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Unsigned x signed byte products summed per 32-bit lane -> vpdpbusd";
  let description = [{
    Collects the PDLL patterns of `patterns/X86Int8DotProducts.pdll`: a
    `vector.multi_reduction <add>` over the inner dim of 4 of
    `arith.muli(arith.extui(u8 bytes), arith.extsi(s8 bytes))`
    (`vector<Lx4xi32>`, L = 16, 8 or 4) into an `vector<Lxi32>` accumulator
    becomes `llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.{512,256,128}"`
    on the bytes reshaped to `vector<4Lxi8>`. Exact: both compute the same
    32-bit integer sums. The L lanes may span several dims (a two-level
    accumulator's lane groups, e.g. `vector<2x8x4xi32>` into `vector<2x8>`),
    flattened row-major as the bytes are, with unit dims (reduced or not)
    anywhere and the vectorizer's shape casts that keep the 4 innermost.

    A sum of signed bytes alone, `arith.extsi(s8 bytes)` into i32 lanes, is
    the same instruction with unsigned bytes of 1 (exact). In f32,
    `arith.sitofp(s8 bytes)` into `vector<Lxf32>` (the integer decode's
    activation sums, for its zero-point term), it becomes
    `acc + sitofp(vpdpbusd(0, 1, bytes))`: the 4 bytes' sum is exact, so
    the result equals the reduction's whenever the accumulator and its
    partial sums are f32 integers below 2^24 (as sums of quantized
    activations are); otherwise it is the reassociation that
    `lower_multi_reduction` and `reassociate_fp_reductions` make anyway.
    Without it, that sum lowered to one scalar add per byte.

    The set also rewrites a 4-bit weight of a byte pair zero-extended,
    `arith.extui(arith.trunci %b : i8 to i4)`, to `arith.extui(%b & 15)`, so
    that the products of nibbles (the 4-bit strategies) are products of
    unsigned bytes too.

    For targets with AVX512-VNNI (and AVX512VL below 512 bits) only: the
    intrinsic does not exist elsewhere.
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyX86NibbleTablesPatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.x86_nibble_tables",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "4-bit weights converted to f32 -> vpermps on a 16-entry table";
  let description = [{
    Collects the PDLL patterns of `patterns/X86NibbleTables.pdll`: a 4-bit
    weight of a byte pair converted to f32,
    `arith.uitofp(arith.trunci(%b : i8 to i4))` (or `arith.sitofp`) on a
    vector of a multiple of 16 elements, becomes a lookup in the table of the
    nibble's values -- [0.0, ..., 15.0], or [0.0, ..., 7.0, -8.0, ..., -1.0]
    when signed -- with `llvm.x86.avx512.permvar.sf.512` (vpermps), 16 lanes
    at a time, on the bytes zero-extended to 32 bits. vpermps reads the low
    4 bits of each index lane, so no mask is needed; for the high nibble
    (`%b` a right shift of `%bytes` by 4) the widened bytes are shifted
    instead, so that both nibbles of a byte read one widening (once CSE has
    merged the two). Exact: the table holds each nibble's value.

    Why: the generic lowering widens and converts every 16 weights
    (vpmovzxbd, vcvtdq2ps) after masking or shifting the bytes and
    extracting them 16 at a time, on the ports the multiply-adds need on
    Intel cores; a lookup takes one op per 16 weights, plus a widening (and
    a shift) per 16 bytes.

    For AVX-512F targets: the intrinsic is the 512-bit one (the 256-bit
    vpermps has an 8-entry table). Compiled for a target without it, the
    driver turns each lookup back into the conversion it stands for
    (`qforge::expandNibbleTableLookup`).
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyFoldReshapesByExpansionPatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.fold_reshapes_by_expansion",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Carry a tensor.collapse_shape into the generic that reads it";
  let description = [{
    Upstream's reshape-by-expansion fusion
    (`linalg::populateFoldReshapeOpsByExpansionPatterns`), restricted to a
    `tensor.collapse_shape` producing an input of a `linalg.generic`: the
    generic is rewritten over the expanded iteration space and its other
    operands are expanded to match (free reshapes), so the collapse
    disappears. For a sub-channel dequantize lowered by `qforge-lower-quant`
    (NxGxB weights collapsed to NxK) feeding a matmul over K (generalized
    first), the matmul becomes a contraction over (G, B) -- the seed's form
    that `transform.qforge.match_dequant_contraction` and the decode
    strategies work on.
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyBubblePackThroughDequantPatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.bubble_pack_through_dequant",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Pack a dequant's quantized inputs instead of its result";
  let description = [{
    Rewrites `linalg.pack(dequant(w, s, z))` -- typically the pack that
    `transform.structured.pack` puts on a contraction's dequantized weight
    operand -- into a dequant over the packed iteration space that reads
    `linalg.pack(w)`, `linalg.pack(s)`, `linalg.pack(z)`. Then the packs read
    the model's parameters directly, and
    `transform.qforge.split_parameter_packing` can move them out of the
    per-call function.

    The dequant is an elementwise `linalg.generic` (one result, identity
    output map) whose inputs are read through projections of the iteration
    dims with constant-0 results on unit dims (broadcasts). Each packed input
    follows the pack's tiling, including `outer_dims_perm` and the order of
    the inner tiles; a broadcast dim keeps its place in both the outer and
    the inner part: tiled by 1 and read through 0 in both. On the seed
    kernel, with the weight operand packed by `[32, 1, 128]` on (n, g, k):

    ```mlir
    // weights      4096x32x128xi8 (d0, d1, d2) -> 128x32x1x32x1x128xi8
    //              read through (d0, d1, d2, d3, d4, d5)
    // scales, zps  4096x32x1xf32  (d0, d1, 0)  -> 128x32x1x32x1x1xf32
    //              read through (d0, d1, 0, d3, d4, 0)
    ```

    The second map stays correct when the broadcast dim's outer range is
    larger than 1 (a k tile smaller than the group).

    Padding: inputs whose packing pads are padded with zero. The original
    pack's padded lanes held its padding value; when that is `ub.poison`, any
    concrete value refines it, and the pattern checks that the dequant body
    of finite and zero inputs is finite (casts, add, sub, mul; no division).
    When it is zero, the pattern checks that every input follows each padded
    dim and that the body maps zeros to zero (e.g. `(w - z) * s` with all
    three padded by 0). Anything else is declined with a remark on the op.
    With the contraction's other operands zero-padded too
    (`apply_patterns.qforge.pad_packs_with_zeros`), every padded lane of the
    contraction adds exactly zero.
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyPadPacksWithZerosPatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.pad_packs_with_zeros",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Replace ub.poison padding of linalg.pack by zero";
  let description = [{
    `transform.structured.pack` pads non-dividing tiles with `ub.poison`, which
    reaches the contraction's result through the padded reduction lanes.
    Zero is a legal refinement of poison; with every operand of a
    multiply-accumulate contraction zero-padded (or dequantized from
    zero-padded inputs into finite values, see `bubble_pack_through_dequant`),
    the padded lanes add exactly zero.
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyFoldIntoPacksPatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.fold_into_packs",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Fold fills and slices into packs, and packs that only reshape";
  let description = [{
    Upstream's `linalg::populateFoldIntoPackAndUnpackPatterns` and
    `linalg::populateSimplifyPackAndUnpackPatterns`, which MLIR 22.1 has no
    descriptor op for: `linalg.pack(linalg.fill)` becomes a fill of the
    packed tensor (the zeroed accumulator of a packed contraction), a slice
    of an unpack or a pad before a pack folds into it, and a pack or unpack
    that only adds or drops unit dims (e.g. an activation 1x1x32x128 tiled
    by [1, 128]) becomes a `tensor.expand_shape` / `collapse_shape`.
    An unpack of a pack with the same tiling (or the reverse) cancels under
    `transform.apply_patterns.canonicalization`.
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyScalarizeExtractedReadsPatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.scalarize_extracted_reads",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Read elements that are only extracted as scalars";
  let description = [{
    The read patterns of upstream's
    `vector::populateScalarVectorTransferLoweringPatterns` (with reads of
    several uses), which MLIR 22.1 has no descriptor op for: a
    `vector.transfer_read` in bounds and without a mask whose every use is
    a `vector.extract` gets one scalar read (`memref.load` or
    `tensor.extract`) per scalar extracted (an extract of a sub-vector
    keeps the vector read alive). Upstream's write pattern is
    left out: it turns a one-element `vector.transfer_write` into a plain
    store without checking `in_bounds`.

    Why: a block of 2 or 3 activation rows read as `vector<2xf32>` or
    `vector<3xf32>` and extracted to be broadcast, one row per multiply-add,
    is a vector load LLVM then takes apart with shuffles (on x86 a
    `vmovsd`, a register `vbroadcastss` and a `vpermps`, two of the ports
    the conversions and multiply-adds need); a scalar read per row becomes
    a `vbroadcastss` from memory, which only uses a load port.
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Matchers
//===----------------------------------------------------------------------===//

def MatchDequantContractionOp : Op<Transform_Dialect,
    "qforge.match_dequant_contraction",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Find dequantization generics feeding multi-reduction contractions";
  let description = [{
    Walks the payload ops of `root` (and everything nested in them) for pairs
    of linalg ops recognized structurally, not by name:

    * the **dequantization**: a `linalg.generic` with only parallel iterators
      and one output whose body yields `(tofp(w) - zp) * scale` (`mulf`
      operands in either order; `zp - tofp(w)` is a different value and does
      not match; the zero-point is optional), where `w` is
      the one integer input (possibly widened by `extui`/`extsi` first, read
      through a permutation map) and `scale`/`zp` are float inputs read
      through broadcasting maps such as `(d0, d1, d2) -> (d0, d1, 0)`;
    * the **contraction**: a linalg op taking the dequantized tensor as an
      input, with at least two reduction iterators (groups x elements) and a
      multiply-accumulate body.

    `dequant` and `contraction` are mapped to the matched ops, pair by pair in
    walk order (the i-th dequant feeds the i-th contraction).

    Emits a silenceable failure when no pair is found (so it composes with
    `transform.foreach_match`-style alternatives); the handle `root` is only
    read.
  }];
  let arguments = (ins TransformHandleTypeInterface:$root);
  let results = (outs TransformHandleTypeInterface:$dequant,
                      TransformHandleTypeInterface:$contraction);
  let assemblyFormat =
      "$root attr-dict `:` functional-type(operands, results)";
}

def GetInitProducersOp : Op<Transform_Dialect, "qforge.get_init_producers",
    [NavigationTransformOpTrait, MemoryEffectsOpInterface,
     DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "The ops producing the outputs' initial values";
  let description = [{
    For every destination-style payload op of `target` (e.g. a linalg op),
    returns the op defining each of its `outs` operands, in order -- the
    `linalg.fill` that zeroes an accumulator, typically. Unlike
    `transform.get_producer_of_operand` it needs no operand index, so a
    script does not depend on how many inputs an op has.

    Fails silenceably when a target is not destination-style or an init is a
    block argument.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$producers);
  let assemblyFormat =
      "$target attr-dict `:` functional-type(operands, results)";
}

def StrategyParamOp : Op<Transform_Dialect, "qforge.strategy_param",
    [NavigationTransformOpTrait, MemoryEffectsOpInterface,
     DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "A number of the strategy table's row, as a param";
  let description = [{
    Returns as a `!transform.param<i64>` the integer `name` of the
    `qforge.strategy_params` dictionary that strategy selection records on
    the function a quantized matmul lives in (the row's `params` in
    `transforms/strategy-table.json`; `qforge-compile` records it before a
    script runs, `qforge-select-strategy` for `qforge-opt`). One entry
    script per family then reads its target's numbers -- lanes, token
    tile, prefetch distance, which library sequence -- from the row that
    chose it, instead of one twin script per target.

    The dictionary is looked up on each payload op of `root`, then its
    ancestors, then the ops nested in it; every dictionary found must agree
    on `name`. A script run by hand on IR without one writes the number
    with `transform.param.constant` instead.

    With `default N`, a number most rows leave at N (a switch only some
    targets turn on) is N where no dictionary names it: rows state only
    where they differ.

    Fails definitely when no dictionary names `name` and there is no
    default, when its value is not an integer, or when two dictionaries
    disagree.
  }];
  let arguments = (ins TransformHandleTypeInterface:$root, StrAttr:$name,
                       OptionalAttr<I64Attr>:$default_value);
  let results = (outs TransformParamTypeInterface:$param);
  let assemblyFormat =
      "$name `in` $root (`default` $default_value^)? attr-dict `:` "
      "functional-type(operands, results)";
}

def DividingTileSizeOp : Op<Transform_Dialect, "qforge.dividing_tile_size",
    [TransformOpInterface, TransformEachOpTrait,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "A tile size that divides a loop, at most a given size";
  let description = [{
    For each linalg payload op of `target`, returns as a param the largest
    divisor of its static loop range along `dim` that is at most `at_most`
    -- a tile size for `transform.structured.tile_using_for` or
    `tile_using_forall` that leaves no partial tile, so every tile keeps
    static shapes (with a partial tile the tiled ops take dynamic shapes in
    every iteration, which the fusions and the vectorization of the decode
    strategies handle poorly or not at all). When that divisor is less than
    `at_least` (by default half of `at_most`, rounded up), tiles that small
    would cost more than they save, and the whole range is returned
    instead: one tile. A range of at most `at_most` is one tile too.

    E.g. blocks of groups of the unpacked decode strategy, `at_most = 48`:
    32 groups (4096 x 4096 weights) -> 32, one block; 86 groups (4096 x
    11008) -> 43, two blocks; 97 groups -> 97 (1 is the only smaller
    divisor). Row tiles per iteration of the packed one, `at_most = 4,
    at_least = 1`: 64 tiles -> 4, 66 -> 3, 38 -> 2, 65 -> 1.

    With `footprint_operand = i`, `at_most` and `at_least` count elements
    of the op's operand `i`, not iterations: one iteration along `dim`
    covers the product of the static ranges of the other loops that operand
    is indexed by (e.g. a group's activation elements), so the bounds are
    divided by it (at least 1). A block of groups then holds the same bytes
    of activation whatever the group size or the kernel's form: `at_most =
    6144` is 48 groups of 128 and 96 groups of 64.

    With `zero_for_one_tile`, one tile (the whole range) is returned as 0:
    `tile_using_for` then leaves the dim untiled instead of building a loop
    of one iteration, and the code is exactly as without the step (a loop
    of one iteration folds away only after other steps have seen it, e.g.
    the split of accumulation chains).

    Fails silenceably when a payload op is not a linalg op, has fewer than
    `dim + 1` loops, a dynamic range along `dim` or along a loop of the
    footprint, or fewer operands than `footprint_operand + 1`.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       I64Attr:$dim, I64Attr:$at_most,
                       OptionalAttr<I64Attr>:$at_least,
                       OptionalAttr<I64Attr>:$footprint_operand,
                       UnitAttr:$zero_for_one_tile);
  let results = (outs TransformParamTypeInterface:$tile_size);
  let assemblyFormat =
      "$target attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Rewrites
//===----------------------------------------------------------------------===//

def PackBalancedOp : Op<Transform_Dialect, "qforge.pack_balanced",
    [TransformOpInterface,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Pack a linalg op, with tiles of some dims balanced to its sizes";
  let description = [{
    `transform.structured.pack` with `packed_sizes` (one per loop, 0 for a
    loop not packed), except along the loops listed in `balance_dims`:
    there a size `s` is lowered, for the payload's static range `r`, to
    `ceil(r / ceil(r / s))` -- as many tiles as `s` gives, each as small as
    covers `r`. A batched micro-kernel's token tile then follows M instead
    of padding it: a 6-token tile computes 2 rows for M = 2 (not 6), two
    tiles of 4 for M = 8 (not 12), three of 6 for M = 17. A balanced size
    is never lowered to 1 (M = 1 gets a tile of 2): the pack
    canonicalizations fold a unit tile into a reshape, which the handle to
    the packed op does not follow. The other sizes (e.g. the rows, which
    are vector lanes) are kept.

    With `tile_overhead = c`, the tile count `n` along a balanced loop is,
    among the counts `ceil(r / t)` that tiles `t` from 2 to `s` give, the
    one that minimizes `n * (ceil(r / n) + c)` (ties: fewer tiles), and the
    tile is `ceil(r / n)`: a micro-kernel whose tile of `t` rows costs
    `t + c` (say `t` dot products per weight vector and `c` other operations
    on the same ports) may then take more, smaller tiles where the largest
    pads. Up to 9 tokens and `c = 1`: M = 17 takes two tiles of 9, M = 128
    sixteen of 8 (not fifteen of 9, 135 rows), M = 9 one of 9. Without it,
    `n = ceil(r / s)`. Fails definitely (verifier) on a negative `c`.

    An entry of `packed_sizes` may be a param (`[0, 8, %rows, 0, 0]`, as
    in `transform.structured.tile_using_for`), holding one positive
    integer: a script library sequence then takes a target's lane count as
    a param and carries it to the pack and to whatever else it fixes.

    Returns the packed op, and one param per nonzero (or param) entry of
    `packed_sizes`, in order, with the size used (for the tiling of the
    result's unpack, which must agree). MLIR 22's `structured.pack` takes
    no params, hence this op.

    Fails definitely when a size param does not hold exactly one positive
    integer; silenceably when a payload op is not a linalg op with one loop
    per entry, or has a dynamic range along a balanced loop, or when
    `linalg::pack` fails; consumes the target handle.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       Variadic<TransformParamTypeInterface>:$dynamic_packed_sizes,
                       DenseI64ArrayAttr:$packed_sizes,
                       DenseI64ArrayAttr:$balance_dims,
                       OptionalAttr<I64Attr>:$tile_overhead);
  let results = (outs TransformHandleTypeInterface:$packed,
                      Variadic<TransformParamTypeInterface>:$sizes);
  let assemblyFormat = [{
    $target `packed_sizes` `=`
    custom<DynamicIndexList>($dynamic_packed_sizes, $packed_sizes)
    `balance_dims` `=` $balance_dims
    attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure apply(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::transform::TransformResults &results,
        ::mlir::transform::TransformState &state);
  }];
  let hasVerifier = 1;
}

def FoldUnitExtentDimsOp : Op<Transform_Dialect,
    "qforge.fold_unit_extent_dims",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
     DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "Fold unit dims, keeping those a kernel names";
  let description = [{
    Upstream's `linalg-fold-unit-extent-dims` on each payload op of
    `target` (a function, typically), with one difference: a
    `linalg.generic` carrying `qforge.foldable_unit_dims = array<i64: ...>`
    has only those of its unit loop dims folded; its other dims stay, even
    of extent one. Every other generic (and `tensor.pad`) has all its unit
    dims folded, as by the pass. The attribute is removed afterwards.

    Why: after a strategy tiles its row tiles by one, folding their unit
    dims lets every N lower alike, but the pass folds every unit dim, also
    the kernel's own: the token blocks of a batch of at most 8 tokens, the
    group dim of a row with one group, the k steps of a group that fills
    one step. The factored packed contraction
    (`transform.qforge.quantize_activations_and_factor_packed`) names the
    dims it lets go (its row tiles and the activation's unit dims), so a
    micro-kernel's dims survive the fold and the script's later tiling
    finds them whatever the kernel's shape.

    Consumes `target` (ops in it are replaced, handles to them would
    dangle) and returns the same ops. Does not fail.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$transformed);
  let assemblyFormat =
      "$target attr-dict `:` functional-type(operands, results)";
}

def HoistOperandConversionOp : Op<Transform_Dialect,
    "qforge.hoist_operand_conversion",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
     DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "Convert a generic's input once, before the loops it does not change in";
  let description = [{
    For each payload op of `target` (a `linalg.generic` on tensors, the
    input's map a projected permutation): the part of its body that depends
    on input `input` alone -- with constants, loop indices (`linalg.index`)
    and values from above -- yielding one scalar the rest of the body uses,
    moves into a new generic that converts the input into a tensor; the
    generic reads that tensor instead. The tensor's dims are the generic's
    loop dims of the input's map and of the conversion's indices, in loop
    order: the nibble of a 4-bit byte pair, picked by the index of a loop
    dim the bytes do not have, becomes a dim of its own.

    The new generic goes before the outermost of the generic's directly
    enclosing `scf.for` loops in which neither the input nor a value the
    conversion captures changes. Ops inside those loops that compute the
    input or a captured value move with it when they are pure and have no
    regions (slices of loop-invariant tensors, index arithmetic); any other
    producer inside a loop ends the walk there, as do an op other than
    `scf.for` (an `scf.forall`: each thread converts its own tiles; an
    `scf.if`) and a loop the input depends on. For example, the partial sums
    of an f32 prefill, `acc + x * uitofp(w)` inside the loop over token
    blocks:

    ```mlir
    %w = tensor.extract_slice %weights[...] : ... to tensor<1x1x128x32xi8>
    %wf = linalg.generic ins(%w) outs(%empty : tensor<1x1x128x32xf32>) {
      arith.uitofp ...
    }
    scf.for %block = ... {
      linalg.generic ins(%x, %wf) ... { acc + x * wf }
    }
    ```

    Why: a converted weight vector feeds as many FMAs as the register tile
    has tokens; where the conversion shares the FMAs' ports (the widening
    and `vcvtdq2ps` on an Intel core), converting once per row tile and
    group for all token blocks leaves those ports to the FMAs. The tensor
    is materialized (one tile of converted weights, in L1 for a group of
    128 x 32 rows); bufferization allocates it in the loop it lands in.

    The converted tensor is written once and read by every iteration of
    the loops it left, so it pays off only when they run the generic often
    enough: their trip counts' product must be at least `min_iterations`
    (2 when smaller; a count that is not static is taken as enough). The
    conversion then runs even if such a loop runs no iteration; its ops
    (and the moved ones) must be pure -- speculatable, so no division by a
    value that may be zero.

    Returns the conversion generics and the updated generics (all of
    `target`'s ops, in order). A generic is left as it is, contributing no
    conversion (so the two results are not parallel), when: no part of its
    body converts the input by itself, or more than one converted value is
    used, or the element is also used unconverted; the conversion reads the
    index of a dynamic loop dim the input does not have; the input's map is
    not a projected permutation; it has buffer semantics; or its loops that
    keep the input unchanged run it fewer than `min_iterations` times
    (none: an `scf.if` or `scf.forall` around it). A script can so apply
    this step to kernels of any token count. Fails definitely, before
    rewriting any, when a payload op is not a `linalg.generic` or `input`
    is out of range.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$input,
                       DefaultValuedAttr<I64Attr, "2">:$min_iterations);
  let results = (outs TransformHandleTypeInterface:$conversions,
                      TransformHandleTypeInterface:$updated);
  let assemblyFormat =
      "$target attr-dict `:` functional-type(operands, results)";
}

def SplitParameterPackingOp : Op<Transform_Dialect,
    "qforge.split_parameter_packing",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Pack the weights once: move parameter packs to <f>_pack_weights";
  let description = [{
    For every payload op of `consumers` (the packed dequant, typically), the
    `linalg.pack` ops producing its inputs from arguments of the enclosing
    function `@f` are the packing of model parameters (weights, scales,
    zero-points). They move into a new public function placed after `@f`:

    ```mlir
    func.func @f_pack_weights(%w: tensor<4096x32x128xi8>, %s: ..., %z: ...)
        -> (tensor<128x32x1x32x1x128xi8>, ...)
        attributes {qforge.prepacked_arguments = array<i64: 0, 1, 2>}
    ```

    and `@f` takes the packed tensors at the same argument positions
    (`qforge.pack_weights = @f_pack_weights` on `@f`). The C interface of
    both is in docs/abi.md; `qforge-bench` runs `@f_pack_weights` once per
    set of weights and times only `@f`. Packs of other values (the
    activation) stay in `@f`.

    A pack may read its argument through tensor views (reshapes, a slice)
    and side-effect-free `linalg.generic`s on that argument alone; they move
    with it. So a weight format's blocks read in place (GGUF's q8_0: the
    quants sliced from each 34-byte block, the f16 scale joined from its
    first two bytes) give two packs of one argument: the first packed tensor
    takes the argument's place in `@f`, the second follows `@f`'s arguments,
    and `qforge.prepacked_arguments` lists the argument once per result
    (`array<i64: 0, 0>`).

    Returns the new functions. Fails silenceably, changing nothing, when a
    packed argument, or a value computed from it on the way to a pack, has
    other users (the raw tensor would still be needed),
    a pack pads with a non-constant value, `@f` is private, referenced in
    its module (its signature changes), or already split, or when no input
    of a consumer is such a pack.
  }];
  let arguments = (ins TransformHandleTypeInterface:$consumers);
  let results = (outs TransformHandleTypeInterface:$pack_functions);
  let assemblyFormat =
      "$consumers attr-dict `:` functional-type(operands, results)";
}

def FactorDequantContractionOp : Op<Transform_Dialect,
    "qforge.factor_dequant_contraction",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Move scale and zero-point out of the inner reduction";
  let description = [{
    Rewrites each (dequant, contraction) pair, as returned by
    `transform.qforge.match_dequant_contraction`, into the factored form

    ```
    xs[.., g, l]   = Σ_j x[.., g, j, l]                       (activation_sums)
    p[.., n, g, l] = Σ_j x[.., g, j, l] · tofp(w[n, g, j, l]) (partial_sums)
    acc[.., n, l]  = Σ_g s[n, g] · (p[.., n, g, l] − z[n, g] · xs[.., g, l])
                                                              (group_sums)
    out[.., n]    += Σ_l acc[.., n, l]                        (row_sums)
    ```

    where the element dim k of each group is split as (j, l) with `lanes`
    innermost elements (one vector register: 16 for f32 on AVX-512, 8 on
    AVX2). This equals the original contraction in real arithmetic
    (Σ x·(w − z)·s = s·(Σ x·w − z·Σ x)); in floating point the summation order
    changes: 1.9e-6 of the result's magnitude on the seed kernel
    (docs/numerics.md).

    Tiled one row and one group at a time, the inner loop is only
    int-to-float and multiply-add into an `lanes`-wide accumulator, the scale
    and zero-point cost one multiply-add per group, and the only cross-lane
    reduction is one per output element.

    Requirements (otherwise a silenceable failure says which one failed and
    nothing changes): static shapes on tensors; the dequant is an
    identity-indexed (n, g, k) generic with scales/zero-points read once per
    (n, g); the contraction reads the weights as (n, g, k), the activation as
    (.., g, k), has exactly those two reductions, and the group size is a
    multiple of `lanes`. Without a zero-point, `activation_sums` is empty.

    Consumes the contraction handle and only reads the dequant handle (one
    dequant may feed several contractions; it is erased once the last one is
    rewritten). All pairs are checked before any is rewritten. The results
    point to the new generics (each
    reduction's init is a `linalg.fill`, reachable with
    `transform.qforge.get_init_producers`).
  }];
  let arguments = (ins TransformHandleTypeInterface:$dequant,
                       TransformHandleTypeInterface:$contraction,
                       DefaultValuedAttr<I64Attr, "16">:$lanes);
  let results = (outs TransformHandleTypeInterface:$activation_sums,
                      TransformHandleTypeInterface:$partial_sums,
                      TransformHandleTypeInterface:$group_sums,
                      TransformHandleTypeInterface:$row_sums);
  let assemblyFormat = [{
    $dequant `,` $contraction attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def FactorTwoLevelContractionOp : Op<Transform_Dialect,
    "qforge.factor_two_level_contraction",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Move a two-level dequantization's s and o out of the inner sum";
  let description = [{
    Rewrites each contraction under `target` whose weights are a two-level
    dequantization -- s·q − o (or s·q) per sub-block, the sub-block's
    groups read by the scale and offset through (n, g_1, .., g_r), one
    element dim innermost: llama.cpp's K-quants in the form of
    `examples/gen_gguf_kernel.py q4_K` (docs/gguf.md) -- into

    ```
    xs[.., g..]       = Σ_l Σ_j x[.., g.., j, l]               (activation_sums)
    p[.., n, g.., l]  = Σ_j x[.., g.., j, l] · q(n, g.., j, l) (partial_sums)
    acc[.., n, l]     = Σ_g.. s[n, g..] · p                    (group_sums)
    off[.., n, g_2..] = Σ_g_1 −o[n, g..] · xs                  (offset_sums)
    out[.., n]        = out + Σ_g_2.. off                      (offset_sums)
    out[.., n]       += Σ_l acc[.., n, l]                      (row_sums)
    ```

    the element dim split as (j, l) with `lanes` innermost. q is the
    dequantization's own computation from the weights' bytes and loop
    indices (a nibble half stays the group dim it is). Exact in real
    arithmetic; the offset stays an offset, one product per row and
    sub-block, carried across the first group dim g_1 as a vector of the
    inner groups (no reduction per step). Loops: xs per lane as the
    activation with the element dim split (j reduced), then [g.., tokens..,
    l]; p [n, g.., j, tokens.., l]; acc [n, g.., tokens.., l]; offset sums
    [n, tokens.., g..], then [n, tokens.., g_2..]; row sums [n, tokens.., l].
    activation_sums and offset_sums hold two generics each, empty without an
    offset (s·q).

    With `int8_activations`, the activation is quantized to int8 per
    sub-block (its maximum and quantization generics are the first result,
    empty otherwise), the element dim is split as (j, l, 4 bytes), p sums
    u8 q x s8 x products in i32 (vpdpbusd once vectorized), s·amax/127 is
    an elementwise generic of its own (sa, read by the group sums, the
    producer of their first operand), `acc += sa·p`, and xs sums the
    quantized activation times amax/127.

    With `dividing_lanes`, `lanes` is a bound: each contraction takes the
    largest lane count at most `lanes` that divides its sub-block (in
    4-byte lanes with `int8_activations`) -- q4_K's sub-block of 32 and
    q6_K's of 16 under one script. Every generic made records the number
    of its contraction's group dims as `qforge.two_level_groups`
    (`transform.qforge.tile_two_level_loops` reads it).

    With `lane_groups` = k > 0, the group sums keep up to k group dims as
    lanes of their accumulator (acc [.., n, w.., l], summed over w and l by
    the row sums) instead of reducing them: the group dims directly outside
    the element dim in the weights' bytes, while the accumulator stays
    within 16 lanes. For q4_K (k = 1) that is cc: the two 32-byte chunks of
    a 64-byte slice of nibbles, one 512-bit vpdpbusd and one 16-lane
    multiply-add instead of two of 8 lanes. The group sums record them as
    `qforge.two_level_lane_groups` (positions among the group dims), which
    `tile_two_level_loops` leaves untiled.

    Every candidate (a generic with two or more reductions) under `target`
    is checked before any is rewritten; a silenceable failure names the
    first that does not fit and why, and changes nothing; so does a target
    with no candidate.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<I64Attr, "16">:$lanes,
                       UnitAttr:$dividing_lanes,
                       UnitAttr:$int8_activations,
                       DefaultValuedAttr<I64Attr, "0">:$lane_groups);
  let results = (outs TransformHandleTypeInterface:$activation_quantization,
                      TransformHandleTypeInterface:$activation_sums,
                      TransformHandleTypeInterface:$partial_sums,
                      TransformHandleTypeInterface:$group_sums,
                      TransformHandleTypeInterface:$offset_sums,
                      TransformHandleTypeInterface:$row_sums);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TileTwoLevelLoopsOp : Op<Transform_Dialect,
    "qforge.tile_two_level_loops",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Tile a factored two-level generic's sub-block loops to one";
  let description = [{
    Tiles each payload op of `target` -- a generic that
    `transform.qforge.factor_two_level_contraction` made, which records the
    number r of its contraction's group dims as `qforge.two_level_groups` --
    by 1 along the loops `dims` names, with `scf.for` loops (as
    `transform.structured.tile_using_for` with those sizes):

    - `leading_groups`: loops [0, r) -- the activation's sums
      (b, g_2.., j, ..): one sub-block per iteration;
    - `tokens_and_groups`: loops [0, r] -- the activation's maximum and
      quantization (m, b, g_2.., l): one token's sub-block per iteration;
    - `sub_blocks`: loops [2, r + 1) -- the group sums (n, b, g_2.., m, l)
      within one super-block (b tiled before): one sub-block per iteration
      (the lane groups the op records as `qforge.two_level_lane_groups`
      untiled: one slice of sub-blocks);
    - `step`: loop r + 1 -- the partial sums (n, b, g_2.., j, m, l): one
      chunk of lanes per iteration.

    Why: the K-quants differ in their number of sub-block dims (q4_K:
    b, hs, cc, h; q6_K: b, h, k1, k0, l1), and a script's
    `tile_using_for` returns one handle per loop; this op lets one script
    take every type. Returns the tiled ops, all the loops innermost first
    (an `unroll_dividing` of that handle unrolls the inner before the
    outer), and the innermost loops (to fuse a producer into).

    Fails silenceably when a payload op is not a tileable op carrying
    `qforge.two_level_groups`, or tiling fails.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$dims);
  let results = (outs TransformHandleTypeInterface:$tiled,
                      TransformHandleTypeInterface:$loops,
                      TransformHandleTypeInterface:$innermost);
  let assemblyFormat = [{
    $target `dims` `=` $dims attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def FactorPackedDequantContractionOp : Op<Transform_Dialect,
    "qforge.factor_packed_dequant_contraction",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Move scale and zero-point out of a packed contraction's inner sum";
  let description = [{
    The factoring of `transform.qforge.factor_dequant_contraction` for a
    packed contraction whose vector lanes are its own parallel dims: after
    packing the weights with a tile of rows innermost (inner tiles ordered
    `(k, n)`, see `transform.structured.pack_transpose`), each step of the
    element loop multiplies one activation value by a row of lanes, so no
    split of k is needed and no cross-lane sum remains. With P the
    contraction's parallel dims, g its reduction dims along which the scale
    or zero-point varies and K those along which both are constant:

    ```
    xs[.., g]   = Σ_K x[.., g, K]                                 (activation_sums)
    p[.., P, g] = Σ_K x[.., g, K] · tofp(w[P, g, K])              (partial_sums)
    out[.., P] += Σ_g s[P, g] · (p[.., P, g] − z[P, g] · xs[.., g]) (group_sums)
    ```

    Exact in real arithmetic; in floating point the summation order changes
    as for the unpacked factoring. `partial_sums` iterates in the weights'
    storage order, with the dims the weights do not index (the activation's
    rows of a batched kernel) placed just before the weights' innermost
    parallel dim (the lanes), so the element dims are reduced outside a rows
    x lanes tile (element dims inside a lane, such as 4 bytes of k, stay
    innermost): vectorized, each step is one int-to-float conversion per weight
    vector and one multiply-add per row and vector, with the activation
    value broadcast. `p` holds the non-element dims in that order;
    `group_sums` iterates in the same order, replaces the contraction and
    accumulates into its init.

    Requirements (otherwise a silenceable failure says which one failed and
    nothing changes): static shapes on tensors; a dequant reading its
    integer weights and writing its result through identity maps (the form
    `bubble_pack_through_dequant` and `linalg-fold-unit-extent-dims` leave),
    or reading 4-bit weights as byte pairs (`qforge-store-int4-as-byte-pairs`:
    the identity without the nibble dim; `p` then takes each nibble with the
    dequant's shift and truncation);
    a contraction whose body is exactly `out + in0 * in1`, with
    projected-permutation maps and a result indexed by parallel dims only;
    activation, dequantized weights and result of one float type; at least
    one reduction dim along which the scale and zero-point are constant,
    each indexing the activation. Handles are treated as by `factor_dequant_contraction`.
  }];
  let arguments = (ins TransformHandleTypeInterface:$dequant,
                       TransformHandleTypeInterface:$contraction);
  let results = (outs TransformHandleTypeInterface:$activation_sums,
                      TransformHandleTypeInterface:$partial_sums,
                      TransformHandleTypeInterface:$group_sums);
  let assemblyFormat = [{
    $dequant `,` $contraction attr-dict `:` functional-type(operands, results)
  }];
}

def QuantizeActivationsAndFactorPackedOp : Op<Transform_Dialect,
    "qforge.quantize_activations_and_factor_packed",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Integer reassociation of a packed contraction: int8 activations";
  let description = [{
    The integer variant of `transform.qforge.factor_packed_dequant_contraction`
    (as `quantize_activations_and_factor` is of `factor_dequant_contraction`):
    the activation is quantized per group to int8 over the element dims K,
    once per call (`amax`, as its f32's bits like
    `quantize_activations_and_factor`'s, then `xq = clamp(roundeven(x · 127
    / amax), -127, 127)`, 0 when amax = 0), and

    ```
    xs[.., g]   = Σ_K xq[.., g, K]                          (f32, exact)
    p[.., P, g] = Σ_K w[P, g, K] · xq[.., g, K]             (i32, exact)
    out[.., P] += Σ_g s[P, g] · amax[.., g] / 127 · (p − z[P, g] · xs)
    ```

    When the activation has tokens (dims of more than one the weights do
    not index), `group_sums` computes `(s / 127) · amax`: `s / 127` does not
    depend on the token, so a prefill computes it outside its token loop;
    otherwise `s · (amax / 127)`, one scalar per group.

    With weights packed as rows x 4 bytes of k innermost (e.g. inner tiles
    `[16, 4]` on (n, k)), a tile of `p` per k step is a 16 x 4 byte product
    summed over the 4 bytes: one `vpdpbusd` after
    `apply_patterns.qforge.x86_int8_dot_products`.

    Requirements as for `factor_packed_dequant_contraction`, plus: 8-bit
    weights or byte pairs of 4-bit ones, and f32 activations. Signed weights
    (`extsi`/`sitofp`) are summed with their sign bit flipped (`w + 128`, or
    `w + 8` per nibble: unsigned for `vpdpbusd`), and `group_sums` takes the
    offset back with the zero-point: `s · (p − (z + o) · xs)`, `xs` computed
    even without a zero-point.
    `activation_quantization` holds the amax and xq generics; the other
    results are as for the float op.

    `magnitude_times_sign = %p`, a param holding 1, asks for the form of
    `quantize_activations_and_factor` with it: 8-bit weights summed signed
    (unsigned ones as `w - 128`) times the activation clamped again to at
    least -127 in the ops, one `vpmaddubsw` per pair of products on AVX2
    without VNNI. Byte pairs of 4-bit weights keep the form above: their
    nibbles already take one.

    An activation that reaches the contraction through a `linalg.pack`
    (e.g. the activation rows of a batched kernel packed by 8) with a static
    source, zero or no padding, static tiles, and inner tiles on element
    dims only where the source dim is one, is quantized before its pack:
    amax, xq and xs are computed on the pack's source (at its rank), where
    a group's elements are innermost and contiguous, and their results are
    packed like the activation (padding 0: what a zero row quantizes to).
    The float activation's pack is erased once unused. The new packs --
    amax, xq, and xs when it exists -- carry `qforge.activation_pack =
    "amax"`, `"xq"` or `"xs"`, for the script to match and tile. Otherwise
    (a decode kernel, whose activation pack folds into a reshape, or a pack
    that fails these conditions) the quantization reads the activation as
    the contraction does.
  }];
  let arguments = (ins TransformHandleTypeInterface:$dequant,
                       TransformHandleTypeInterface:$contraction,
                       Optional<TransformParamTypeInterface>:$magnitude_times_sign);
  let results = (outs TransformHandleTypeInterface:$activation_quantization,
                      TransformHandleTypeInterface:$activation_sums,
                      TransformHandleTypeInterface:$partial_sums,
                      TransformHandleTypeInterface:$group_sums);
  let assemblyFormat = [{
    $dequant `,` $contraction
    (`magnitude_times_sign` `=` $magnitude_times_sign^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def PrefetchReadsAheadOp : Op<Transform_Dialect,
    "qforge.prefetch_reads_ahead",
    [TransformOpInterface,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Software-prefetch what a loop will read some iterations ahead";
  let description = [{
    For every `vector.transfer_read`, `vector.load` or `memref.load` on a
    memref nested in the target loop -- an `scf.for`, or a one-dimensional
    `scf.forall` whose iterations each thread runs in order -- with an index
    that is the loop's
    induction variable `iv` or a pure op of it (`affine.apply`,
    `arith.addi`, ... as tiling produces), inserts before it a
    `memref.prefetch` (read, data cache, `locality`) of the same element with
    `iv` replaced by `min(iv + iterations * step, ub - 1)` (such indices are
    recomputed from it): the clamp keeps the address inside the loop's
    range, so the last iterations prefetch themselves again rather than past
    the end.

    Reads at the same dynamic indices whose constant indices are less than
    `line_bytes` apart share one prefetch: a read is kept only when its
    constant byte offset (from the static strides) is a multiple of
    `line_bytes`. A vector read wider than a line along the memref's
    contiguous innermost dim (e.g. 64 f32 scales, 256 bytes) gets one
    prefetch per line it covers. Reads of fewer than `min_read_bytes` bytes are not
    prefetched: e.g. the scalar activation reads of a loop that streams
    64-byte weight lines, which stay in L1 and would only cost a load slot
    each, or a group's scale broadcast into every lane (a `transfer_read`
    loads only its permutation map's non-broadcast dims).

    Why: a kernel streaming one weight row per iteration from DRAM keeps the
    core's miss buffers busy only as far as the hardware prefetcher runs
    ahead; asking for the next row while converting and multiplying this one
    overlaps memory and compute (measured in docs/benchmarks.md).

    With `into_parent_loop`, the target's parent is an `scf.for` or a
    one-dimensional `scf.forall` too, and the iterations whose `iv +
    iterations * step` reaches `ub` prefetch, instead of themselves, the
    first iterations of the parent's next iteration, if it has one: `iv`
    becomes `iv + iterations * step - ceildiv(ub - lb, step) * step` (the
    same distance past the target's first iteration; clamped to `ub - 1`)
    and the parent's induction variable its next value; indices computed
    directly from it (e.g. `affine.apply` of a row tile) are recomputed.
    In the parent's last iteration the clamp holds as without the option.
    E.g. a group loop inside a forall over row tiles: the last group of a
    tile prefetches the first group of the next tile, which otherwise would
    be read with no prefetch at all. A target with no such parent (e.g. its
    forall had one iteration and was folded away) has no next parent
    iteration: it is prefetched as without the option.

    `ahead_bytes` (when positive) sets the distance in bytes rather than
    iterations: as many iterations as take the read whose address advances
    most per iteration at least `ahead_bytes` ahead, and no fewer than
    `iterations`. E.g. a group loop over a 32-row weight tile advances
    32 x 128 bytes per group of 128 and 32 x 64 per group of 64:
    `ahead_bytes = 4096` prefetches one group ahead for the first, two for
    the second, so that the distance the memory system needs does not
    depend on the group size. A read's advance counts when the memref's
    strides and the loop's step are static and each index is the induction
    variable, it plus a value not computed from it, it times a constant or
    an `affine.apply` linear in it; with no such read, `iterations` stands.

    A target nested in another target is left alone: the outer loop's
    prefetches already cover its reads, and its own would duplicate them
    (e.g. a long group's chunks, tagged like groups for kernels whose one
    group per row leaves no group loop, inside a group loop).

    Runs on memrefs, i.e. in a script's `@qforge_after_bufferization`
    sequence (docs/lowering.md). Fails silenceably when the target is not
    such a loop on memrefs or nothing in it is indexed by its induction
    variable. Prefetches never change results.

    `min_read_bytes = %param` (a param holding one positive integer, e.g. a
    target's lane count in bytes) replaces the attribute: a script library
    sequence then takes the number as an argument. Fails definitely when
    the param does not hold exactly one positive integer.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       Optional<TransformParamTypeInterface>:$min_read_bytes_param,
                       DefaultValuedAttr<I64Attr, "1">:$iterations,
                       DefaultValuedAttr<I64Attr, "0">:$ahead_bytes,
                       DefaultValuedAttr<I64Attr, "64">:$line_bytes,
                       DefaultValuedAttr<I64Attr, "3">:$locality,
                       DefaultValuedAttr<I64Attr, "1">:$min_read_bytes,
                       UnitAttr:$into_parent_loop);
  let results = (outs);
  let assemblyFormat = [{
    $target (`min_read_bytes` `=` $min_read_bytes_param^)? attr-dict `:`
    type($target) (`,` type($min_read_bytes_param)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure apply(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::transform::TransformResults &results,
        ::mlir::transform::TransformState &state);
  }];
  let hasVerifier = 1;
}

def QuantizeActivationsAndFactorOp : Op<Transform_Dialect,
    "qforge.quantize_activations_and_factor",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Integer reassociation: int8 activations, i32 dot products";
  let description = [{
    The opt-in integer variant of `transform.qforge.factor_dequant_contraction`
    (the scheme of llama.cpp's q8 activations and IREE's
    quantized-matmul-reassociation). Per call, the activation is quantized
    per group to int8 with a per-group scale:

    ```
    amax[.., g]    = max_k |x[.., g, k]|
    xq[.., g, k]   = clamp(roundeven(x · 127 / amax), -127, 127)  (0 when amax = 0)
    ```

    then, with k split as (j, l, q) -- `lanes` 32-bit lanes of 4 adjacent
    bytes q, one `vpdpbusd` per 64 weight bytes:

    ```
    xs[.., g, l]   = Σ_j Σ_q xq[.., g, j, l, q]                           (f32, exact)
    p[.., n, g, l] = Σ_j Σ_q w[n, g, j, l, q] · xq[.., g, j, l, q]        (i32, exact)
    acc[.., n, l]  = Σ_g s[n, g] · amax[.., g] / 127 · (p − z[n, g] · xs)
    out[.., n]    += Σ_l acc[.., n, l]
    ```

    Weights are read as unsigned bytes (the seed's `extui`/`uitofp`) and the
    activation as signed bytes, the operand kinds of AVX-512 VNNI's
    `vpdpbusd`; `transform.apply_patterns.qforge.x86_int8_dot_products` turns
    the vectorized byte products into that instruction. The only rounding
    beyond the f32 path is the activation's: each quantized activation is
    within amax / 254 of its value (docs/numerics.md gives the error this
    makes).

    The amax generic yields each maximum as the bits of its f32 (an i32
    tensor): the unsigned maximum of the sign-cleared bit patterns, which
    order as the magnitudes do, with a NaN's above infinity's, so a NaN in
    the activation still makes its scale, and the result, NaN. Its
    consumers bitcast it back; on x86 this is an and and a max per vector
    where `arith.maximumf` lowers to about seven instructions.

    With `magnitude_times_sign = %p`, a param holding 1 (the strategy
    table's rows for AVX2 without VNNI; 0 or no param: the form above), the
    partial sums are
    of signed weight bytes (unsigned ones with their sign bit flipped,
    w - 128, which the group sums take back with the zero-point) times the
    quantized activation clamped again to at least -127 in the ops; the
    dot-product patterns then compute each product as |w| times x with w's
    sign, whose pairs one `vpmaddubsw` sums without saturating
    (`transform.apply_patterns.qforge.x86_int8_dot_products`).

    Requirements as for `factor_dequant_contraction`, plus: 8-bit weights
    (signed ones summed with their sign bit flipped, as the packed op
    does), f32 activations, group size a multiple of 4 x `lanes`.
    `activation_quantization` holds the amax and xq generics (tile them per
    group); the other results are as for the float op.
  }];
  let arguments = (ins TransformHandleTypeInterface:$dequant,
                       TransformHandleTypeInterface:$contraction,
                       Optional<TransformParamTypeInterface>:$magnitude_times_sign,
                       DefaultValuedAttr<I64Attr, "16">:$lanes);
  let results = (outs TransformHandleTypeInterface:$activation_quantization,
                      TransformHandleTypeInterface:$activation_sums,
                      TransformHandleTypeInterface:$partial_sums,
                      TransformHandleTypeInterface:$group_sums,
                      TransformHandleTypeInterface:$row_sums);
  let assemblyFormat = [{
    $dequant `,` $contraction
    (`magnitude_times_sign` `=` $magnitude_times_sign^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def UnrollDividingOp : Op<Transform_Dialect, "qforge.unroll_dividing",
    [TransformOpInterface,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Unroll a loop by a factor that divides it, at most a given one";
  let description = [{
    Unrolls each `scf.for` of `target`, whose trip count must be constant,
    by the largest divisor of that trip count that is at most `at_most`: a
    loop of at most `at_most` iterations is unrolled whole, a longer one
    with no remainder loop (12 iterations, `at_most = 8`: by 6).

    Why: `transform.loop.unroll {factor = 8}` on a loop of 6 iterations
    unrolls nothing -- the 6 iterations go to its remainder loop, which
    stays rolled. A micro-kernel's token loop, whose trip count the
    balanced token tile (`transform.qforge.pack_balanced`) sets from M,
    then indexes its accumulators by the loop's induction variable, and
    they live in memory instead of registers. This op unrolls the tile
    the pack chose, whatever M is.

    Consumes `target`; returns nothing. Fails silenceably when a payload op
    is not an `scf.for` with a constant trip count or the unrolling fails;
    `at_most` must be positive.

    `at_most = %param` (a param holding one positive integer) replaces the
    attribute, so that a library sequence takes the number from the entry
    script, where another op may have to agree with it (e.g. the partial
    sums of `split_loop_carried_sums`). Exactly one of the two is given;
    fails definitely when the param does not hold one positive integer.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       Optional<TransformParamTypeInterface>:$at_most_param,
                       OptionalAttr<I64Attr>:$at_most);
  let results = (outs);
  let assemblyFormat = [{
    $target (`at_most` `=` $at_most_param^)? attr-dict `:` type($target)
    (`,` type($at_most_param)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure apply(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::transform::TransformResults &results,
        ::mlir::transform::TransformState &state);
  }];
  let hasVerifier = 1;
}

def SplitAccumulationChainsOp : Op<Transform_Dialect,
    "qforge.split_accumulation_chains",
    [TransformOpInterface,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Sum a chain of vector adds as independent partial sums";
  let description = [{
    In each payload op of `target`, every chain of `arith.addf` on vectors
    (each link adds one term to the link before it, whose result has no
    other use: `((a + t1) + t2) + ... + tn`, what unrolling and vectorizing
    a reduction loop leaves) of at least 2 x `chains` links becomes
    `chains` interleaved chains (partial sum i adds the terms i, i + chains,
    ...) summed by a balanced tree of adds. Shorter chains of at least 4
    links are split in as many chains as half their links; others stay.
    The new adds carry the last link's fastmath flags.

    Why: a link waits for the one before, so a group of 8 unrolled
    multiply-adds (LLVM contracts each product and add into an FMA) is 32
    cycles of latency; on a core with FMA units to spare, as many groups
    as its scheduler holds run at once, not as many as the units could
    take. Independent partial sums shorten the chain `chains` times for
    `chains - 1` extra adds. The sum is reassociated (its rounding
    changes), so a script applies this only where that is acceptable.

    Example (`chains = 2`):

    ```mlir
    %1 = arith.addf %p0, %zero : vector<16xf32>
    %2 = arith.addf %1, %p1 : vector<16xf32>
    %3 = arith.addf %2, %p2 : vector<16xf32>
    %4 = arith.addf %3, %p3 : vector<16xf32>
    // becomes
    %1 = arith.addf %p0, %zero : vector<16xf32>
    %2 = arith.addf %1, %p2 : vector<16xf32>
    %3 = arith.addf %p1, %p3 : vector<16xf32>
    %4 = arith.addf %2, %3 : vector<16xf32>
    ```

    Does not consume `target`; returns nothing. Does not fail on payload;
    `chains` must be at least 2.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<I64Attr, "4">:$chains);
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure apply(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::transform::TransformResults &results,
        ::mlir::transform::TransformState &state);
  }];
  let hasVerifier = 1;
}

def FlattenContiguousVectorsOp : Op<Transform_Dialect,
    "qforge.flatten_contiguous_vectors",
    [TransformOpInterface, TransformEachOpTrait,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Row-wise vector work on contiguous memory as 1-D vectors";
  let description = [{
    In each payload op of `target` (after bufferization): every n-D
    `vector.transfer_read` and `vector.transfer_write` whose memref is
    contiguous in the transferred dims becomes a 1-D transfer of the
    collapsed memref and a `vector.shape_cast` (upstream's
    `populateFlattenVectorTransferPatterns`); then constants, elementwise
    ops and `vector.bitcast` on n-D vectors become 1-D ops (upstream's
    vector linearization). Other ops (a `vector.multi_reduction`, a
    transfer that is not contiguous) keep their n-D vectors, given and
    taken through shape casts; the shape casts that cancel are folded.

    Why: the fixed lowering unrolls an n-D vector op into one op per
    innermost row. The integer strategies quantize the activation in its
    packed shape, e.g. `vector<32x4xf32>` per group of 128 (rows of 4 bytes
    of k), which became 32 128-bit ops per step where 8 512-bit ones do,
    plus the inserts that reassemble the rows for a reduction.

    Example:

    ```mlir
    %v = vector.transfer_read %x[%g, %c0, %c0], %pad {in_bounds = [true, true]}
        : memref<4x32x4xf32>, vector<32x4xf32>
    %n = arith.negf %v : vector<32x4xf32>
    // becomes
    %c = memref.collapse_shape %x [[0], [1, 2]] : memref<4x32x4xf32> into memref<4x128xf32>
    %v = vector.transfer_read %c[%g, %c0], %pad {in_bounds = [true]}
        : memref<4x128xf32>, vector<128xf32>
    %n = arith.negf %v : vector<128xf32>
    ```

    With `loop_carried`, the vectors `scf.for` loops carry (and the results
    of `scf.if` and `scf.while`) are linearized too (upstream's SCF
    structural type conversion): a two-level accumulator of
    lane groups (`vector<1x1x2x8xf32>`) stays one 16-lane register across
    iterations instead of two halves taken apart and put together in each.

    With `bytes_only`, only transfers and ops on vectors of 8-bit integers
    are flattened (the byte work around int8 dot products: a 4-bit weight's
    nibble masks on its `vector<16x4xi8>` rows); everything else keeps its
    shape -- a block of tokens' result tile of whole-register rows, which
    linearized becomes a `vector<160xf32>` LLVM assembles lane by lane. It
    does not combine with `loop_carried`, whose loops carry vectors of any
    element type.

    Does not consume `target`; returns nothing. Fails silenceably, naming
    the payload op, when the rewriting does not converge or an op that the
    linearization rewrites cannot be rewritten.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       UnitAttr:$loop_carried, UnitAttr:$bytes_only);
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def VectorizePaddedPacksOp : Op<Transform_Dialect,
    "qforge.vectorize_padded_packs",
    [TransformOpInterface, TransformEachOpTrait,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Vectorize a pack of a partial tile: a masked read, a whole write";
  let description = [{
    Vectorizes each `linalg.pack` in `target` with its destination's static
    shape as the vector sizes: upstream's vectorizer then reads the source
    under a mask, the lanes past its end taking the pack's padding value,
    transposes, and writes the whole destination tile.

    Why: a pack tiled by a size that does not divide its source (a prompt of
    17 tokens in blocks of 6: the last block holds 5) has a source tile of
    dynamic size. Vectorized without vector sizes (as
    `vectorize_children_and_apply_patterns` does) it is skipped, and after
    bufferization it was a loop of scalar moves and a copy call per tile.

    A pack whose destination is not static, whose source is dynamic while
    it has no padding value, or which the vectorizer's precondition refuses
    at those sizes is left as it is (for the later vectorization or
    bufferization, as without this op).

    Return modes: consumes `target` (the packs it vectorizes are replaced).
    Does not fail on a pack it leaves; fails definitely when a payload op is
    not a `linalg.pack`, or when the vectorizer fails on sizes its
    precondition accepted.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def SplitLoopCarriedSumsOp : Op<Transform_Dialect,
    "qforge.split_loop_carried_sums",
    [TransformOpInterface,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Carry a loop's float sum as independent partial sums";
  let description = [{
    In each `scf.for` of `target`: every vector float iter_arg whose
    yielded value is a chain of `arith.addf` starting from it,
    `((acc + t1) + t2) + ... + tn` with n >= 2 (what unrolling a loop that
    adds one term per iteration leaves; the chain may pass reshapes that
    keep the element count, e.g. the unit dims vectorization leaves),
    becomes min(`chains`, n) interleaved partial sums, each carried by its
    own iter_arg (partial i adds the terms i, i + chains, ...; the new ones
    start at -0.0, the identity of addition), added by a balanced tree of
    adds after the loop.

    Why: an accumulator carried from one iteration to the next is a chain
    of dependent adds through the whole loop (4 cycles each as FMAs). When
    an iteration's other work is shorter than that (the integer decode's
    groups of 32 or 64: one `vpdpbusd` and a float epilogue per group), the
    loop runs at the chain's latency; `chains` partial sums let as many
    iterations overlap. The sum is reassociated (its rounding changes), so
    a script applies this only where that is acceptable, after unrolling
    the loop by at least `chains`.

    Example (`chains = 2`, a loop unrolled by 2):

    ```mlir
    %r = scf.for %i = %c0 to %n step %c2 iter_args(%acc = %init) -> (vector<16xf32>) {
      %1 = arith.addf %acc, %t1 : vector<16xf32>
      %2 = arith.addf %1, %t2 : vector<16xf32>
      scf.yield %2 : vector<16xf32>
    }
    // becomes
    %r:2 = scf.for %i = %c0 to %n step %c2
        iter_args(%acc = %init, %acc1 = %minus_zero) -> (vector<16xf32>, vector<16xf32>) {
      %1 = arith.addf %acc, %t1 : vector<16xf32>
      %2 = arith.addf %acc1, %t2 : vector<16xf32>
      scf.yield %1, %2 : vector<16xf32>, vector<16xf32>
    }
    %sum = arith.addf %r#0, %r#1 : vector<16xf32>
    ```

    The split reassociates whatever the adds' fastmath flags say (applying
    the op is the script's statement that this is acceptable); the adds
    after the loop carry the flags all links share.

    Loops are replaced (the handle follows them); loops without such a sum
    (e.g. whose total is also read in the body) are left as they are.
    Returns nothing; fails definitely on a payload op that is not an
    `scf.for`. `chains` (default 2) must be at least 2; `chains = %param`
    (a param holding one integer of at least 2) replaces the attribute,
    e.g. to agree with the `unroll_dividing` before it; not both.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       Optional<TransformParamTypeInterface>:$chains_param,
                       OptionalAttr<I64Attr>:$chains);
  let results = (outs);
  let assemblyFormat = [{
    $target (`chains` `=` $chains_param^)? attr-dict `:` type($target)
    (`,` type($chains_param)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure apply(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::transform::TransformResults &results,
        ::mlir::transform::TransformState &state);
  }];
  let hasVerifier = 1;
}

def SplitIntegerReductionChainsOp : Op<Transform_Dialect,
    "qforge.split_integer_reduction_chains",
    [TransformOpInterface,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Sum a chain of integer vector reductions as independent partial sums";
  let description = [{
    In each payload op of `target`, every chain of integer
    `vector.multi_reduction <add>` ops linked through their accumulator
    (each link's accumulator is the link before it, in the same block and
    used only there: what unrolling a k loop of byte dot products leaves) of
    at least 2 x `chains` links becomes `chains` interleaved chains summed
    by a balanced tree of `arith.addi`: partial sum 0 keeps the first link
    and its accumulator, partial sum i > 0 starts from zero and takes the
    links i, i + `chains`, .... Shorter chains of at least 4 links are split
    in as many chains as half their links; others, and masked reductions,
    stay.

    Why: after `apply_patterns.qforge.x86_int8_dot_products` each link is
    one `vpdpbusd`, which waits for the one before (5 cycles on an Intel
    core, with two ports that could each start one per cycle): a packed
    decode with one accumulator per row tile runs at the latency, not at
    the ports' rate. Integer addition is associative (also when it wraps),
    so unlike `split_accumulation_chains` this is exact and a script may
    apply it to any integer dot product.

    Example (`chains = 2`):

    ```mlir
    %1 = vector.multi_reduction <add>, %p0, %acc [1] : vector<16x4xi32> to vector<16xi32>
    %2 = vector.multi_reduction <add>, %p1, %1 [1] : vector<16x4xi32> to vector<16xi32>
    %3 = vector.multi_reduction <add>, %p2, %2 [1] : vector<16x4xi32> to vector<16xi32>
    %4 = vector.multi_reduction <add>, %p3, %3 [1] : vector<16x4xi32> to vector<16xi32>
    // becomes
    %1 = vector.multi_reduction <add>, %p0, %acc [1] : vector<16x4xi32> to vector<16xi32>
    %2 = vector.multi_reduction <add>, %p1, %zero [1] : vector<16x4xi32> to vector<16xi32>
    %3 = vector.multi_reduction <add>, %p2, %1 [1] : vector<16x4xi32> to vector<16xi32>
    %4 = vector.multi_reduction <add>, %p3, %2 [1] : vector<16x4xi32> to vector<16xi32>
    %5 = arith.addi %3, %4 : vector<16xi32>
    ```

    Does not consume `target`; returns nothing. Does not fail on payload;
    `chains` must be at least 2.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<I64Attr, "4">:$chains);
  let results = (outs);
  let assemblyFormat = "$target attr-dict `:` type($target)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure apply(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::transform::TransformResults &results,
        ::mlir::transform::TransformState &state);
  }];
  let hasVerifier = 1;
}

def ApplyReassociateFPReductionsPatternsOp : Op<Transform_Dialect,
    "apply_patterns.qforge.reassociate_fp_reductions",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Allow reassociation of floating-point vector.reduction ops";
  let description = [{
    Collects the PDLL pattern of `patterns/ReassociateFPReductions.pdll`: adds
    `reassoc` to the fastmath flags of every floating-point `vector.reduction`
    in scope, so that LLVM reduces the lanes as a log2(lanes)-deep tree of
    shuffles and adds instead of a chain of one scalar add per lane. This
    changes the rounding of the sum; a script applies it only where that is
    acceptable (e.g. the one horizontal reduction per output row of the
    factored decode kernel).
  }];
  let assemblyFormat = "attr-dict";
}

#endif // QFORGE_TRANSFORM_OPS
