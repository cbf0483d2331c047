//===- MatmulKernel.cpp - a GGUF tensor's matmul as MLIR ------------------===//

#include "Gguf/MatmulKernel.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace qforge::gguf;

std::optional<std::string>
qforge::gguf::whyNotCompiled(const TensorInfo &tensor) {
  std::optional<TensorType> type = lookupType(tensor.typeId);
  std::string name = "tensor '" + tensor.name + "'";
  if (!type)
    return name + " has ggml type " + std::to_string(tensor.typeId) +
           ", unknown to qforge";
  if (type->blockElements == 1)
    return name + " is " + type->name.str() +
           ", not a quantized weight (qforge compiles q8_0 blocks)";
  if (type->name != "q8_0")
    return name + " is " + type->name.str() +
           ": qforge does not compile that type yet (q8_0 only, docs/gguf.md)";
  if (tensor.shape.size() != 2)
    return name + " has " + std::to_string(tensor.shape.size()) +
           " dims; a weight matrix has 2 (ne[0] = K, ne[1] = N)";
  return std::nullopt;
}

std::string qforge::gguf::writeMatmulKernel(const TensorInfo &tensor,
                                            int64_t tokens,
                                            llvm::StringRef name) {
  TensorType type = *lookupType(tensor.typeId);
  const int64_t k = tensor.shape[0], n = tensor.shape[1];
  const int64_t qk = type.blockElements, bytes = type.blockBytes, g = k / qk;
  std::string m = tokens ? std::to_string(tokens) : "?";
  std::string out;
  llvm::raw_string_ostream os(out);
  // The same IR as examples/gen_gguf_kernel.py (q8_0, blocks in place).
  os << llvm::formatv(
      "// y = x . W^T, W = GGUF tensor '{0}' ({1}, {2} x {3}) read in "
      "place; written by qforge-gguf --tensor.\n",
      tensor.name, type.name, n, k);
  os << "#map_q = affine_map<(n, g, e) -> (n, g, e)>\n"
        "#map_d = affine_map<(n, g, e) -> (n, g)>\n"
        "#map_lo = affine_map<(n, g) -> (n, g, 0)>\n"
        "#map_hi = affine_map<(n, g) -> (n, g, 1)>\n"
        "#map_ng = affine_map<(n, g) -> (n, g)>\n"
        "#map_x = affine_map<(m, n, g, e) -> (m, g, e)>\n"
        "#map_w = affine_map<(m, n, g, e) -> (n, g, e)>\n"
        "#map_y = affine_map<(m, n, g, e) -> (m, n)>\n";
  std::string blocks = llvm::formatv("tensor<{0}x{1}x{2}xi8>", n, g, bytes);
  std::string quants = llvm::formatv("tensor<{0}x{1}x{2}xi8>", n, g, qk);
  std::string scales = llvm::formatv("tensor<{0}x{1}xf16>", n, g);
  std::string weights = llvm::formatv("tensor<{0}x{1}x{2}xf32>", n, g, qk);
  std::string x = llvm::formatv("tensor<{0}x{1}xf32>", m, k);
  std::string xg = llvm::formatv("tensor<{0}x{1}x{2}xf32>", m, g, qk);
  std::string y = llvm::formatv("tensor<{0}x{1}xf32>", m, n);
  std::string tensorName = tensor.name;
  // Escape for an MLIR string attribute.
  std::string escaped;
  for (unsigned char c : tensorName) {
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
      escaped += llvm::formatv("\\{0:X-2}", unsigned(c)).str();
    else
      escaped += char(c);
  }
  os << llvm::formatv("func.func @{0}(%blocks: {1} {{qforge.gguf_type = "
                      "\"{2}\", qforge.gguf_tensor = \"{3}\"}, %x: {4}) -> "
                      "{5} {{\n",
                      name, blocks, type.name, escaped, x, y);
  std::string dims = "()", outputM = m;
  if (!tokens) {
    os << "  %c0 = arith.constant 0 : index\n";
    os << llvm::formatv("  %m = tensor.dim %x, %c0 : {0}\n", x);
    dims = "(%m)";
    outputM = "%m";
  }
  os << llvm::formatv("  %qs = tensor.extract_slice %blocks[0, 0, 2] [{0}, "
                      "{1}, {2}] [1, 1, 1] : {3} to {4}\n",
                      n, g, qk, blocks, quants);
  os << llvm::formatv("  %d_init = tensor.empty() : {0}\n", scales);
  os << "  // d: the f16 in the block's first two bytes, little endian.\n";
  os << "  %d = linalg.generic {indexing_maps = [#map_lo, #map_hi, #map_ng], "
        "iterator_types = [\"parallel\", \"parallel\"]}\n";
  os << llvm::formatv("      ins(%blocks, %blocks : {0}, {0}) outs(%d_init : "
                      "{1}) {{\n",
                      blocks, scales);
  os << "  ^bb0(%lo: i8, %hi: i8, %unused: f16):\n"
        "    %lo16 = arith.extui %lo : i8 to i16\n"
        "    %hi16 = arith.extui %hi : i8 to i16\n"
        "    %c8 = arith.constant 8 : i16\n"
        "    %high = arith.shli %hi16, %c8 : i16\n"
        "    %bits = arith.ori %high, %lo16 : i16\n"
        "    %half = arith.bitcast %bits : i16 to f16\n"
        "    linalg.yield %half : f16\n";
  os << llvm::formatv("  } -> {0}\n", scales);
  os << llvm::formatv("  %w_init = tensor.empty() : {0}\n", weights);
  os << "  %w = linalg.generic {indexing_maps = [#map_q, #map_d, #map_q], "
        "iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}\n";
  os << llvm::formatv("      ins(%qs, %d : {0}, {1}) outs(%w_init : {2}) {{\n",
                      quants, scales, weights);
  os << "  ^bb0(%q: i8, %scale: f16, %unused: f32):\n"
        "    %qf = arith.sitofp %q : i8 to f32\n"
        "    %s = arith.extf %scale : f16 to f32\n"
        "    %value = arith.mulf %qf, %s : f32\n"
        "    linalg.yield %value : f32\n";
  os << llvm::formatv("  } -> {0}\n", weights);
  os << llvm::formatv("  %xg = tensor.expand_shape %x [[0], [1, 2]] "
                      "output_shape [{0}, {1}, {2}] : {3} into {4}\n",
                      outputM, g, qk, x, xg);
  os << "  %zero = arith.constant 0.0 : f32\n";
  os << llvm::formatv("  %y_init = tensor.empty{0} : {1}\n", dims, y);
  os << llvm::formatv("  %acc = linalg.fill ins(%zero : f32) outs(%y_init : "
                      "{0}) -> {0}\n",
                      y);
  os << "  %y = linalg.generic {indexing_maps = [#map_x, #map_w, #map_y], "
        "iterator_types = [\"parallel\", \"parallel\", \"reduction\", "
        "\"reduction\"]}\n";
  os << llvm::formatv("      ins(%xg, %w : {0}, {1}) outs(%acc : {2}) {{\n", xg,
                      weights, y);
  os << "  ^bb0(%a: f32, %b: f32, %out: f32):\n"
        "    %product = arith.mulf %a, %b : f32\n"
        "    %sum = arith.addf %out, %product : f32\n"
        "    linalg.yield %sum : f32\n";
  os << llvm::formatv("  } -> {0}\n", y);
  os << llvm::formatv("  return %y : {0}\n}\n", y);
  return out;
}
