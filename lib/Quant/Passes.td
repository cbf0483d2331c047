//===- Passes.td - qforge's quantization passes ----------------------------===//

#ifndef QFORGE_QUANT_PASSES
#define QFORGE_QUANT_PASSES

include "mlir/Pass/PassBase.td"

def NormalizeQuantStorage : Pass<"qforge-normalize-quant-storage", "mlir::ModuleOp"> {
  let summary = "Signed quantized storage (si8, si4, ...) becomes signless";
  let description = [{
    Rewrites every quantized type with a signed storage type (`si8`, `si4`,
    ...) to the same type with signless storage (`i8`, `i4`, ...) and the
    `Signed` flag -- the convention StableHLO settled on: signless storage
    means signed. Unsigned storage (`u8`) is kept. Applies to every place a
    type can occur: function signatures, block arguments, op results,
    attributes (e.g. `TypeAttr`s) and nested regions. Idempotent.

    The textual form prints both the same (`i8`), but the types differ, so
    bytecode written before normalization does not read back equal; after
    it, text and bytecode round-trip to identical IR.
  }];
  let dependentDialects = ["mlir::quant::QuantDialect"];
}

def LowerQuant : Pass<"qforge-lower-quant", "mlir::ModuleOp"> {
  let summary = "Exact lowering of quant.qcast and quant.dcast";
  let description = [{
    Lowers `quant.qcast` and `quant.dcast` on static tensors of per-tensor
    and per-axis `!quant.uniform` types to elementwise `linalg.generic`s on
    the storage integers (signless, after
    `qforge-normalize-quant-storage`):

    ```
    qcast: q = clamp(roundeven(x / scale) + zero_point, storage_min, storage_max)
           (NaN quantizes to the zero point)
    dcast: x = (q - zero_point) * scale
    ```

    with `storage_min`/`storage_max` the type's range (narrow ranges such
    as `i8<-127:127>` included), computed in the expressed float type;
    per-axis scales and zero-points become dense constants read along the
    quantized dimension. A sub-channel (block) dequantize becomes the seed's
    form: each blocked dim of the storage is split into (blocks, block)
    (weights NxK in groups of B: NxGxB), the scales and zero-points dense
    NxGx1 constants read through (d0, d1, 0), and the result is collapsed
    back -- `transform.apply_patterns.qforge.fold_reshapes_by_expansion`
    then carries the split into the consuming contraction, which gets the
    two reduction dims the decode strategies expect. Quantized values at
    function boundaries become their storage tensors (signatures are
    rewritten; callers see integers; `func.call`s with quantized operands
    are refused -- inline first).

    A `dcast(qcast(x))` pair is kept -- it is the quantization a
    fake-quantized graph exists to simulate -- unless
    `allow-folding-round-trips` says the user accepts losing it.

    Unsupported forms (dynamic shapes, storage wider than 32 bits, an
    expressed type that does not match the float operand, quantizing to a
    sub-channel type) get an error naming the type.
  }];
  let options = [
    Option<"allowFoldingRoundTrips", "allow-folding-round-trips", "bool",
           /*default=*/"false",
           "fold dcast(qcast(x)) to x (drops the simulated quantization)">
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::math::MathDialect",
                           "mlir::tensor::TensorDialect"];
}

def StoreInt4AsBytePairs : Pass<"qforge-store-int4-as-byte-pairs", "mlir::ModuleOp"> {
  let summary = "i4 tensor arguments become bytes holding two nibbles";
  let description = [{
    LLVM addresses an `i4` memref one byte per element but loads its vectors
    bit-packed, so a kernel taking `i4` tensors cannot be compiled as is.
    This pass gives every `i4` tensor argument of shape `S x K` (K static and
    even) the storage 4-bit weights ship in: `S x K/2 x i8`, element `2i` in
    the low nibble of byte `i` and element `2i+1` in the high nibble (the
    function's signature changes; docs/abi.md).

    Each `linalg.generic` reading the argument (the dequantization) has the
    loop over the innermost dim split into (pairs, 2): the byte tensor is
    read without the nibble dim, its other operands walking that loop get a
    free `tensor.expand_shape`, and the body takes its nibble with a shift by
    `4 * (k % 2)` and a truncation to `i4` -- the body's own `extsi`/`extui`
    then says whether the weights are signed. The result is collapsed back
    and the collapse carried into the consumers
    (`linalg::populateFoldReshapeOpsByExpansionPatterns`): the contraction
    gets the split too, with two element dims (pairs, nibble) per group.
    The function gets `qforge.int4_byte_pairs = array<i64: ...>` (the
    indices of the paired arguments), from which the driver picks a
    strategy that knows byte pairs.

    Other uses of an `i4` argument, an odd or dynamic innermost dim, or a
    generic reading two `i4` tensors get an error at the argument or the
    generic.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def TwoLevelAsSeedInt4 : Pass<"qforge-two-level-as-seed-int4", "mlir::ModuleOp"> {
  let summary = "q4_0's blocks read in place become the 4-bit seed form "
                "(for the packed 4-bit strategies)";
  let description = [{
    A two-level pair of q4_0's shape (`examples/gen_gguf_kernel.py q4_0`,
    `qforge-gguf`): loops (m, n, block, nibble half, byte), the weight
    nibble h of byte (n, b, l) of an i8 view of an argument, its scale d
    and its offset c·d both broadcast from one f16 or bf16 value d per
    block, c a whole number of at most 255 in magnitude. Those weights are
    (q − c)·d, the 4-bit seed form with the constant zero-point c
    (docs/forms.md), bit for bit (both forms are exact in f32 for such d
    and c): the pass rebuilds the pair in that form
    on the same bytes -- the dequantization over (n, b, byte, half), the
    activation read through a transpose of its two innermost dims, the
    canonical leading unit dim -- and names the bytes' argument in the
    function's `qforge.int4_byte_pairs`, so that the 4-bit strategies pack
    its byte pairs once (`<f>_pack_weights`, docs/abi.md; the strategy
    selection takes a matmul as 4-bit when its weights read a named
    argument). Nothing is copied per call.

    The driver runs it with `--packed-weights` only: read in place, the
    two-level strategies need no packing. Other pairs are left as they
    are.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def TwoLevelAsSeedBytes
    : Pass<"qforge-two-level-as-seed-bytes", "mlir::ModuleOp"> {
  let summary = "Two-level pairs whose q is a byte (the K-quants' blocks "
                "read in place) become the 8-bit seed form (for the packed "
                "8-bit strategies)";
  let description = [{
    A two-level pair over (m, n, sub-blocks.., element) in the activation's
    order (`examples/gen_gguf_kernel.py q6_K`, `qforge-gguf`): the weight
    s·q − o with q an unsigned byte the dequantization computes from the
    blocks' bytes (q6_K: a nibble of ql and two bits of qh), the scale s
    per sub-block, and the offset o = c·s -- the same computation as the
    scale times a whole c of at most 255 in magnitude (q6_K's 32). Those
    weights are (q − c)·s, ggml's own formula with one rounding: the 8-bit
    seed form with the constant zero-point c (docs/forms.md). The pass
    rebuilds the pair in that form: q computed into a byte per weight by a
    generic of the dequantization's integer ops, N x G x E; the scale's
    generic reshaped to N x G; a splat zero-point; the M x K activation
    reshaped to 1 x M x G x E. Each of those is computed from the blocks'
    argument alone, so the packed strategies take it into
    `<f>_pack_weights` (docs/abi.md): nothing per call.

    An offset that is no such multiple (q4_K's and q5_K's dmin·m: z = o/s
    would be inexact, and undefined where sc = 0) stays an offset: the
    seed's offset form q·s − o, its generic reshaped to N x G beside the
    scale's, which the packed factorings take (o·Σx subtracted per group,
    FactorPackedDequantContraction.h).

    The driver runs it with `--packed-weights` only, after
    `qforge-two-level-as-seed-int4` (q4_0 keeps its nibble pairs). Pairs
    whose parameters read more than one argument (fields apart) are left
    as they are.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def NormalizeDequantContraction
    : Pass<"qforge-normalize-dequant-contraction", "mlir::ModuleOp"> {
  let summary = "Group-quantized matmuls as producers spell them become the "
                "canonical (seed) form";
  let description = [{
    Finds every dequantization generic feeding a contraction with two
    reduction dims, whatever the producer's ranks, loop order and maps
    (IREE's global-opt `N x G` parameters with a `G x K` activation and an
    `N` result, batched `M x G x K` activations, torch-mlir's `1 x M x K`
    reshaped to groups, ...), and rebuilds it in the form every strategy
    takes (docs/forms.md): weights `N x G x K` through the identity,
    scales and zero-points `N x G x 1` through `(d0, d1, 0)`, the body
    `(tofp(w) - z) * s`, activation `1 x M x G x K`, result `1 x M x N`,
    iterators `[p, p, p, r, r]`.

    The weights are never copied: the other operands reach their shapes
    through `tensor.expand_shape` / `collapse_shape`, views once
    bufferized; only parameters stored `G x N` are transposed. A constant
    zero-point (llama.cpp's 8) becomes a splat `N x G x 1` constant; a
    distributed scale (`tofp(w) * s - z * s`) becomes `(tofp(w) - z) * s`.
    Forms already canonical are left untouched. A recognised matmul spelled
    in a way that cannot be brought to the canonical form without copying
    the weights or the activation gets an error at its contraction naming
    what is missing.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def BlockReductionsForCache
    : Pass<"qforge-block-reductions-for-cache", "mlir::ModuleOp"> {
  let summary = "Tiles contractions' parallel dims by 8 and runs their "
                "reductions outside the last one (the oracle's loop order)";
  let description = [{
    The step the reference (the scalar oracle `qforge-bench --verify`
    compares against) takes before bufferization. Every linalg op on
    tensors with a reduction dim is tiled by 8 along each parallel dim
    (scf.for), and the tile's loops are interchanged: the parallel dims but
    the last, the reduction dims in their order, the last parallel dim
    innermost. Lowered to scalar loops, a weight tile then stays in cache
    across the tile's rows and the innermost loop updates 8 independent
    outputs, where the op's own order re-reads every weight once per token
    through one serial chain. No reduction dim moves relative to another,
    so each output adds its terms in the same order: the values are the
    same, bit for bit. Only ops whose every output is indexed by every
    parallel dim are taken (otherwise a parallel dim accumulates into some
    output too, and moving the reductions would reorder its terms). Named
    ops are generalized first; an op the tiling then fails on stays
    untiled.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect"];
}

#endif // QFORGE_QUANT_PASSES
