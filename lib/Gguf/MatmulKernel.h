//===- MatmulKernel.h - a GGUF tensor's matmul as MLIR ----------*- C++ -*-===//
//
// y = x . W^T for a weight tensor of a GGUF file, W's blocks read in place
// (docs/gguf.md): the MLIR that examples/gen_gguf_kernel.py writes, with the
// weight argument naming its tensor ({qforge.gguf_type, qforge.gguf_tensor}),
// so that `qforge-bench --weights=FILE.gguf` binds it to the file's bytes.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_GGUF_MATMULKERNEL_H
#define QFORGE_GGUF_MATMULKERNEL_H

#include "Gguf/GgufFile.h"

#include <string>

namespace qforge::gguf {

/// The argument attribute naming the tensor a weight argument holds.
inline constexpr llvm::StringLiteral kGgufTensorAttr = "qforge.gguf_tensor";

/// Whether qforge compiles a matmul whose weights are `tensor` read in
/// place; std::nullopt when it does, else why not (a sentence naming the
/// tensor and its type).
std::optional<std::string> whyNotCompiled(const TensorInfo &tensor);

/// The module of one function `name`: y = x . W^T with W the 2-D `tensor`
/// (ne[0] = K, ne[1] = N) read in place, x of `tokens` rows (0: a dynamic
/// token count). `tensor` must pass whyNotCompiled.
std::string writeMatmulKernel(const TensorInfo &tensor, int64_t tokens,
                              llvm::StringRef name);

/// The seven tensors of LLaMA layer `layer` (attn_q, attn_k, attn_v,
/// attn_output, ffn_gate, ffn_up, ffn_down), or an error naming the first
/// missing one or one qforge does not compile (whyNotCompiled), or shapes
/// that do not chain.
std::optional<llvm::SmallVector<const TensorInfo *, 7>>
findLayerTensors(const File &file, int64_t layer, std::string &error);

/// One function `name`: the quantized part of a LLaMA decoder layer with
/// `tensors` (findLayerTensors) read in place, x and the attention's output
/// a of `tokens` rows (0: dynamic):
///   q, k, v = Wq x, Wk x, Wv x;  h = x + Wo a;
///   out = h + Wdown (silu(Wgate h) * Wup h);  returns (q, k, v, out).
std::string writeLayerKernel(llvm::ArrayRef<const TensorInfo *> tensors,
                             int64_t tokens, llvm::StringRef name);

} // namespace qforge::gguf

#endif // QFORGE_GGUF_MATMULKERNEL_H
