//===- AbiAttributes.h - attributes of the ABI ------------------*- C++ -*-===//
//
// Attributes the rewrites put on a compiled module's functions and the
// driver, the header writer and the bench read back: what a caller of the
// shared library must know (docs/abi.md). One header, below every layer
// that sets or reads them.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_ABI_ABIATTRIBUTES_H
#define QFORGE_ABI_ABIATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

namespace qforge {

/// `<f>` carries this attribute: the symbol of its `<f>_pack_weights`, the
/// function that packs its parameters once (split_parameter_packing).
inline constexpr llvm::StringLiteral kPackWeightsAttr = "qforge.pack_weights";

/// `<f>_pack_weights` carries this attribute: the argument positions of
/// `<f>` it takes raw and returns packed, in order. `<f>` takes the packed
/// tensors at the same positions.
inline constexpr llvm::StringLiteral kPrepackedArgumentsAttr =
    "qforge.prepacked_arguments";

/// A function whose i4 arguments are stored two per byte (byte pairs along
/// the innermost dim, low nibble first) carries this attribute
/// (qforge-store-int4-as-byte-pairs).
inline constexpr llvm::StringLiteral kInt4BytePairsAttrName =
    "qforge.int4_byte_pairs";

/// A kernel argument that holds a weight matrix's blocks exactly as a GGUF
/// file stores them (`N x K/QK x BYTES` bytes, docs/gguf.md) carries this
/// string attribute: the ggml type name ("q8_0"). The bench fills such an
/// argument with valid blocks (finite f16 scales).
inline constexpr llvm::StringLiteral kGgufTypeAttr = "qforge.gguf_type";

/// The arguments of a kernel that takes a GGUF type's fields apart (the
/// quants and the f16 scales of `N x K/QK` blocks, what a producer that
/// splits the blocks passes; examples/gen_gguf_kernel.py --fields) carry
/// this string attribute: "<type>.qs" and "<type>.d". The bench's
/// --oracle=ggml joins them into blocks.
inline constexpr llvm::StringLiteral kGgufFieldAttr = "qforge.gguf_field";

} // namespace qforge

#endif // QFORGE_ABI_ABIATTRIBUTES_H
