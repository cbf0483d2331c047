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
           ", not a quantized weight (qforge compiles q4_0, q8_0, q4_K, q5_K "
           "and q6_K blocks)";
  if (type->name != "q4_0" && type->name != "q8_0" && type->name != "q4_K" &&
      type->name != "q5_K" && type->name != "q6_K")
    return name + " is " + type->name.str() +
           ": qforge does not compile that type yet (q4_0, q8_0, q4_K, q5_K "
           "and q6_K, docs/gguf.md)";
  if (tensor.shape.size() != 2)
    return name + " has " + std::to_string(tensor.shape.size()) +
           " dims; a weight matrix has 2 (ne[0] = K, ne[1] = N)";
  if (tensor.shape[0] < 1 || tensor.shape[1] < 1)
    return name + " has an empty dim (" + std::to_string(tensor.shape[0]) +
           " x " + std::to_string(tensor.shape[1]) + ")";
  return std::nullopt;
}

namespace {
/// `text` (from the file) for an MLIR string attribute or a comment: bytes
/// other than printable ASCII, quotes and backslashes as \XX.
std::string escape(llvm::StringRef text) {
  std::string escaped;
  for (unsigned char c : text) {
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
      escaped += llvm::formatv("\\{0:X-2}", unsigned(c)).str();
    else
      escaped += char(c);
  }
  return escaped;
}

/// Writes MLIR text: the shared attribute aliases, one matmul's ops, and
/// elementwise ops, naming values by a prefix.
class KernelWriter {
public:
  explicit KernelWriter(llvm::raw_ostream &os) : os(os) {}

  void writeMaps() {
    os << "#map_q = affine_map<(n, g, e) -> (n, g, e)>\n"
          "#map_d = affine_map<(n, g, e) -> (n, g)>\n"
          "#map_x = affine_map<(m, n, g, e) -> (m, g, e)>\n"
          "#map_w = affine_map<(m, n, g, e) -> (n, g, e)>\n"
          "#map_y = affine_map<(m, n, g, e) -> (m, n)>\n"
          "#map_mn = affine_map<(m, n) -> (m, n)>\n";
  }

  static std::string blocksType(const TensorInfo &tensor) {
    TensorType type = *lookupType(tensor.typeId);
    return llvm::formatv("tensor<{0}x{1}x{2}xi8>", tensor.shape[1],
                         tensor.shape[0] / type.blockElements, type.blockBytes);
  }

  /// The argument declaration of `tensor`'s blocks, named `%name`.
  static std::string blocksArgument(const TensorInfo &tensor,
                                    llvm::StringRef name) {
    TensorType type = *lookupType(tensor.typeId);
    // Escaped for an MLIR string attribute (the name comes from the file).
    std::string escaped = escape(tensor.name);
    return llvm::formatv("%{0}: {1} {{qforge.gguf_type = \"{2}\", "
                         "qforge.gguf_tensor = \"{3}\"}",
                         name, blocksType(tensor), type.name, escaped);
  }

  /// y = x . W^T with W the blocks `%blocks` of `tensor`, x the value `x`
  /// of `m` rows (`mValue`: "?" rows are `%m`); returns y's name.
  std::string writeMatmul(const TensorInfo &tensor, llvm::StringRef blocks,
                          llvm::StringRef x, llvm::StringRef m,
                          llvm::StringRef prefix) {
    TensorType type = *lookupType(tensor.typeId);
    const int64_t k = tensor.shape[0], n = tensor.shape[1];
    const int64_t qk = type.blockElements, g = k / qk;
    std::string blocksT = blocksType(tensor);
    std::string quants = llvm::formatv("tensor<{0}x{1}x{2}xi8>", n, g, qk);
    std::string scales = llvm::formatv("tensor<{0}x{1}xf16>", n, g);
    std::string weights = llvm::formatv("tensor<{0}x{1}x{2}xf32>", n, g, qk);
    std::string xT = llvm::formatv("tensor<{0}x{1}xf32>", m, k);
    std::string xgT = llvm::formatv("tensor<{0}x{1}x{2}xf32>", m, g, qk);
    std::string yT = llvm::formatv("tensor<{0}x{1}xf32>", m, n);
    std::string outputM = m == "?" ? "%m" : m.str();
    auto v = [&](llvm::StringRef name) { return ("%" + prefix + name).str(); };
    os << llvm::formatv("  // {0}: y = x . W^T, W = '{1}' ({2}, {3} x {4}) "
                        "read in place.\n",
                        prefix, escape(tensor.name), type.name, n, k);
    os << llvm::formatv("  {0} = tensor.extract_slice %{1}[0, 0, 2] [{2}, "
                        "{3}, {4}] [1, 1, 1] : {5} to {6}\n",
                        v("qs"), blocks, n, g, qk, blocksT, quants);
    os << "  // d: the f16 in the block's first two bytes, little endian.\n";
    writeHalfFromBytes(v("d"), tensor, blocks, /*lowByte=*/0);
    os << llvm::formatv("  {0} = tensor.empty() : {1}\n", v("w_init"), weights);
    os << llvm::formatv(
        "  {0} = linalg.generic {{indexing_maps = [#map_q, #map_d, #map_q], "
        "iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}\n",
        v("w"));
    os << llvm::formatv("      ins({0}, {1} : {2}, {3}) outs({4} : {5}) {{\n",
                        v("qs"), v("d"), quants, scales, v("w_init"), weights);
    os << "  ^bb0(%q: i8, %scale: f16, %unused: f32):\n"
          "    %qf = arith.sitofp %q : i8 to f32\n"
          "    %s = arith.extf %scale : f16 to f32\n"
          "    %value = arith.mulf %qf, %s : f32\n"
          "    linalg.yield %value : f32\n";
    os << llvm::formatv("  } -> {0}\n", weights);
    os << llvm::formatv("  {0} = tensor.expand_shape {1} [[0], [1, 2]] "
                        "output_shape [{2}, {3}, {4}] : {5} into {6}\n",
                        v("xg"), x, outputM, g, qk, xT, xgT);
    return writeContraction(v, "#map_x, #map_w, #map_y", /*reductions=*/2,
                            v("xg"), xgT, v("w"), weights, yT, m);
  }

  /// The f16 at bytes `lowByte` (low) and `lowByte` + 1 of each block of
  /// `tensor` (the value `blocks`), joined as `name`: both bytes
  /// zero-extended (sign extension would spill a low byte >= 0x80 into the
  /// high one), hi << 8 | lo, bitcast.
  void writeHalfFromBytes(llvm::StringRef name, const TensorInfo &tensor,
                          llvm::StringRef blocks, int lowByte) {
    TensorType type = *lookupType(tensor.typeId);
    std::string halfT = llvm::formatv("tensor<{0}x{1}xf16>", tensor.shape[1],
                                      tensor.shape[0] / type.blockElements);
    os << llvm::formatv("  {0}_init = tensor.empty() : {1}\n", name, halfT);
    os << llvm::formatv(
        "  {0} = linalg.generic {{indexing_maps = [affine_map<(n, g) -> (n, "
        "g, {1})>, affine_map<(n, g) -> (n, g, {2})>, affine_map<(n, g) -> "
        "(n, g)>], iterator_types = [\"parallel\", \"parallel\"]}\n",
        name, lowByte, lowByte + 1);
    os << llvm::formatv(
        "      ins(%{0}, %{0} : {1}, {1}) outs({2}_init : {3}) {{\n", blocks,
        blocksType(tensor), name, halfT);
    os << "  ^bb0(%lo: i8, %hi: i8, %unused: f16):\n"
          "    %lo16 = arith.extui %lo : i8 to i16\n"
          "    %hi16 = arith.extui %hi : i8 to i16\n"
          "    %c8 = arith.constant 8 : i16\n"
          "    %high = arith.shli %hi16, %c8 : i16\n"
          "    %bits = arith.ori %high, %lo16 : i16\n"
          "    %half = arith.bitcast %bits : i16 to f16\n"
          "    linalg.yield %half : f16\n";
    os << llvm::formatv("  } -> {0}\n", halfT);
  }

  /// Writes `name` (with `name_bytes` before it): bytes [offset, offset +
  /// product of `shape`) of each block of `blocks`, expanded into `shape`
  /// after the block dims (n, b).
  void writeBlockBytes(llvm::StringRef name, const TensorInfo &tensor,
                       llvm::StringRef blocks, int64_t offset,
                       llvm::ArrayRef<int64_t> shape) {
    TensorType type = *lookupType(tensor.typeId);
    const int64_t n = tensor.shape[1], b = tensor.shape[0] / type.blockElements;
    int64_t length = 1;
    std::string sizes, typeSizes, reassociation;
    for (auto [index, size] : llvm::enumerate(shape)) {
      length *= size;
      sizes += ", " + std::to_string(size);
      typeSizes += "x" + std::to_string(size);
      reassociation += (index ? ", " : "") + std::to_string(index + 2);
    }
    std::string bytesT = llvm::formatv("tensor<{0}x{1}x{2}xi8>", n, b, length);
    std::string fieldT =
        llvm::formatv("tensor<{0}x{1}{2}xi8>", n, b, typeSizes);
    os << llvm::formatv("  {0}_bytes = tensor.extract_slice %{1}[0, 0, {2}] "
                        "[{3}, {4}, {5}] [1, 1, 1] : {6} to {7}\n",
                        name, blocks, offset, n, b, length, blocksType(tensor),
                        bytesT);
    os << llvm::formatv("  {0} = tensor.expand_shape {0}_bytes [[0], [1], "
                        "[{1}]] output_shape [{2}, {3}{4}] : {5} into {6}\n",
                        name, reassociation, n, b, sizes, bytesT, fieldT);
  }

  /// y = Σ x · w into a zero-filled `yT` (m rows): the contraction generic
  /// of `maps` with two parallel loops and `reductions` reduction loops,
  /// body out + x * w; returns y's name (`v` prefixes names).
  std::string
  writeContraction(llvm::function_ref<std::string(llvm::StringRef)> v,
                   llvm::StringRef maps, int reductions, llvm::StringRef x,
                   llvm::StringRef xT, llvm::StringRef w, llvm::StringRef wT,
                   llvm::StringRef yT, llvm::StringRef m) {
    std::string dims = m == "?" ? "(%m)" : "()";
    std::string iterators = "\"parallel\", \"parallel\"";
    for (int i = 0; i < reductions; ++i)
      iterators += ", \"reduction\"";
    os << llvm::formatv("  {0} = arith.constant 0.0 : f32\n", v("zero"));
    os << llvm::formatv("  {0} = tensor.empty{1} : {2}\n", v("y_init"), dims,
                        yT);
    os << llvm::formatv("  {0} = linalg.fill ins({1} : f32) outs({2} : {3}) "
                        "-> {3}\n",
                        v("acc"), v("zero"), v("y_init"), yT);
    os << llvm::formatv("  {0} = linalg.generic {{indexing_maps = [{1}], "
                        "iterator_types = [{2}]}\n",
                        v("y"), maps, iterators);
    os << llvm::formatv("      ins({0}, {1} : {2}, {3}) outs({4} : {5}) {{\n",
                        x, w, xT, wT, v("acc"), yT);
    os << "  ^bb0(%a: f32, %b: f32, %out: f32):\n"
          "    %product = arith.mulf %a, %b : f32\n"
          "    %sum = arith.addf %out, %product : f32\n"
          "    linalg.yield %sum : f32\n";
    os << llvm::formatv("  } -> {0}\n", yT);
    return v("y");
  }

  /// The end of a two-level dequantization whose body has computed %q, %s
  /// and %o (s * q - o, the generic's result `weightsT`), then x read as
  /// M x B x `shape` (the sub-block dims `dims` and the elements, after the
  /// super-block b) and the contraction over b and those; returns y's
  /// name.
  std::string finishTwoLevel(llvm::function_ref<std::string(llvm::StringRef)> v,
                             const TensorInfo &tensor, llvm::StringRef x,
                             llvm::StringRef m, llvm::StringRef weightsT,
                             llvm::ArrayRef<llvm::StringRef> dims,
                             llvm::ArrayRef<int64_t> shape) {
    TensorType type = *lookupType(tensor.typeId);
    const int64_t k = tensor.shape[0], n = tensor.shape[1];
    const int64_t b = k / type.blockElements;
    std::string outputM = m == "?" ? "%m" : m.str();
    std::string shapeText, shapeX, reassociation = "[1", xDims = "b",
                                   wDims = "b";
    for (auto [index, size] : llvm::enumerate(shape)) {
      shapeText += llvm::formatv(", {0}", size).str();
      shapeX += (index ? "x" : "") + std::to_string(size);
      reassociation += llvm::formatv(", {0}", index + 2).str();
    }
    for (llvm::StringRef dim : dims) {
      xDims += (", " + dim).str();
      wDims += (", " + dim).str();
    }
    std::string xT = llvm::formatv("tensor<{0}x{1}xf32>", m, k);
    std::string xeT = llvm::formatv("tensor<{0}x{1}x{2}xf32>", m, b, shapeX);
    std::string yT = llvm::formatv("tensor<{0}x{1}xf32>", m, n);
    os << "    %sq = arith.mulf %q, %s : f32\n"
          "    %value = arith.subf %sq, %o : f32\n"
          "    linalg.yield %value : f32\n";
    os << llvm::formatv("  } -> {0}\n", weightsT);
    os << llvm::formatv("  {0} = tensor.expand_shape {1} [[0], {2}]] "
                        "output_shape [{3}, {4}{5}] : {6} into {7}\n",
                        v("xe"), x, reassociation, outputM, b, shapeText, xT,
                        xeT);
    std::string loops = "(m, n, " + xDims + ")";
    std::string maps = llvm::formatv("affine_map<{0} -> (m, {1})>, "
                                     "affine_map<{0} -> (n, {2})>, "
                                     "affine_map<{0} -> (m, n)>",
                                     loops, xDims, wDims);
    return writeContraction(v, maps, /*reductions=*/dims.size() + 1, v("xe"),
                            xeT, v("w"), weightsT, yT, m);
  }

  /// The comment that opens a two-level matmul's ops.
  void writeTwoLevelHeading(const TensorInfo &tensor, llvm::StringRef prefix) {
    os << llvm::formatv("  // {0}: y = x . W^T, W = '{1}' ({2}, {3} x {4}) "
                        "read in place (two-level form).\n",
                        prefix, escape(tensor.name),
                        lookupType(tensor.typeId)->name, tensor.shape[1],
                        tensor.shape[0]);
  }

  /// y = x . W^T for W in q4_K or q5_K (the two-level form of
  /// examples/gen_gguf_kernel.py: the nibble half a group dim, each
  /// sub-block's scale and offset decoded from the block, s * q - o);
  /// returns y's name.
  std::string writeTwoLevelMatmul(const TensorInfo &tensor,
                                  llvm::StringRef blocks, llvm::StringRef x,
                                  llvm::StringRef m, llvm::StringRef prefix) {
    TensorType type = *lookupType(tensor.typeId);
    const bool fifthBit = type.name == "q5_K";
    const int64_t k = tensor.shape[0], n = tensor.shape[1];
    const int64_t b = k / type.blockElements;
    const int64_t qsOffset = fifthBit ? 48 : 16;
    std::string blocksT = blocksType(tensor);
    auto v = [&](llvm::StringRef name) { return ("%" + prefix + name).str(); };
    std::string halfT = llvm::formatv("tensor<{0}x{1}xf16>", n, b);
    std::string paramT = llvm::formatv("tensor<{0}x{1}x2x2x2xf32>", n, b);
    std::string rowT = llvm::formatv("tensor<{0}x{1}x2x2xi8>", n, b);
    std::string bytesT = llvm::formatv("tensor<{0}x{1}x2x2x32xi8>", n, b);
    std::string highT = llvm::formatv("tensor<{0}x{1}x32xi8>", n, b);
    std::string weightsT = llvm::formatv("tensor<{0}x{1}x2x2x2x32xf32>", n, b);
    writeTwoLevelHeading(tensor, prefix);
    // d and dmin: the f16s in bytes 0-1 and 2-3, little endian.
    writeHalfFromBytes(v("d"), tensor, blocks, /*lowByte=*/0);
    writeHalfFromBytes(v("dmin"), tensor, blocks, /*lowByte=*/2);
    // The 12 scale bytes as three rows of four (t = 2cc + h expanded to
    // (cc, h)); sub-block 4hs + t's 6-bit scale and min from rows 0 and 2,
    // and 1 and 2 (docs/gguf.md), times d and dmin.
    for (int row = 0; row < 3; ++row)
      writeBlockBytes(v("row" + std::to_string(row)), tensor, blocks,
                      4 + 4 * row, {2, 2});
    os << llvm::formatv("  {0} = arith.constant 0 : index\n"
                        "  {1} = arith.constant 63 : i8\n"
                        "  {2} = arith.constant 15 : i8\n"
                        "  {3} = arith.constant 6 : i8\n"
                        "  {4} = arith.constant 4 : i8\n",
                        v("c0_index"), v("c63"), v("c15"), v("c6"), v("c4"));
    const char *scaleMaps = "affine_map<(n, b, hs, cc, h) -> (n, b, cc, h)>, "
                            "affine_map<(n, b, hs, cc, h) -> (n, b, cc, h)>, "
                            "affine_map<(n, b, hs, cc, h) -> (n, b)>, "
                            "affine_map<(n, b, hs, cc, h) -> (n, b, hs, cc, "
                            "h)>";
    for (auto [name, super, lowRow] :
         {std::tuple<const char *, const char *, const char *>{"scale", "d",
                                                               "row0"},
          std::tuple<const char *, const char *, const char *>{"offset", "dmin",
                                                               "row1"}}) {
      bool isScale = llvm::StringRef(name) == "scale";
      os << llvm::formatv("  {0}_init = tensor.empty() : {1}\n", v(name),
                          paramT);
      os << llvm::formatv("  {0} = linalg.generic {{indexing_maps = [{1}], "
                          "iterator_types = [\"parallel\", \"parallel\", "
                          "\"parallel\", \"parallel\", \"parallel\"]}\n",
                          v(name), scaleMaps);
      os << llvm::formatv("      ins({0}, {1}, {2} : {3}, {3}, {4}) "
                          "outs({5}_init : {6}) {{\n",
                          v(lowRow), v("row2"), v(super), rowT, halfT, v(name),
                          paramT);
      os << "  ^bb0(%low: i8, %high: i8, %super: f16, %unused: f32):\n"
            "    %hs = linalg.index 2 : index\n";
      os << llvm::formatv("    %first = arith.cmpi eq, %hs, {0} : index\n"
                          "    %low63 = arith.andi %low, {1} : i8\n"
                          "    %low_top = arith.shrui %low, {2} : i8\n"
                          "    %low_top4 = arith.shli %low_top, {3} : i8\n",
                          v("c0_index"), v("c63"), v("c6"), v("c4"));
      if (isScale)
        os << llvm::formatv("    %high_bits = arith.andi %high, {0} : i8\n",
                            v("c15"));
      else
        os << llvm::formatv("    %high_bits = arith.shrui %high, {0} : i8\n",
                            v("c4"));
      os << "    %six_hi = arith.ori %high_bits, %low_top4 : i8\n"
            "    %six = arith.select %first, %low63, %six_hi : i8\n"
            "    %sixf = arith.uitofp %six : i8 to f32\n"
            "    %superf = arith.extf %super : f16 to f32\n"
            "    %value = arith.mulf %superf, %sixf : f32\n"
            "    linalg.yield %value : f32\n";
      os << llvm::formatv("  } -> {0}\n", paramT);
    }
    os << llvm::formatv("  {0} = tensor.extract_slice %{1}[0, 0, {2}] [{3}, "
                        "{4}, 128] [1, 1, 1] : {5} to tensor<{3}x{4}x128xi8>\n",
                        v("qs"), blocks, qsOffset, n, b, blocksT);
    if (fifthBit)
      os << llvm::formatv("  {0} = tensor.extract_slice %{1}[0, 0, 16] [{2}, "
                          "{3}, 32] [1, 1, 1] : {4} to {5}\n",
                          v("qh"), blocks, n, b, blocksT, highT);
    os << llvm::formatv("  {0} = tensor.expand_shape {1} [[0], [1], [2, 3, "
                        "4]] output_shape [{2}, {3}, 2, 2, 32] : "
                        "tensor<{2}x{3}x128xi8> into {4}\n",
                        v("qc"), v("qs"), n, b, bytesT);
    os << llvm::formatv("  {0}_init = tensor.empty() : {1}\n", v("w"),
                        weightsT);
    os << "  // Element (hs, cc, h, l): nibble h of byte 64hs + 32cc + l "
          "(q5_K: plus 16 for bit 4hs + 2cc + h of qh[l]), s * q - o of "
          "sub-block 4hs + 2cc + h.\n";
    os << llvm::formatv(
        "  {0} = linalg.generic {{indexing_maps = [affine_map<(n, b, hs, cc, "
        "h, l) -> (n, b, hs, cc, l)>, {1}affine_map<(n, b, hs, cc, h, l) -> "
        "(n, b, hs, cc, h)>, affine_map<(n, b, hs, cc, h, l) -> (n, b, hs, "
        "cc, h)>, affine_map<(n, b, hs, cc, h, l) -> (n, b, hs, cc, h, l)>], "
        "iterator_types = [\"parallel\", \"parallel\", \"parallel\", "
        "\"parallel\", \"parallel\", \"parallel\"]}\n",
        v("w"),
        fifthBit ? "affine_map<(n, b, hs, cc, h, l) -> (n, b, l)>, " : "");
    os << llvm::formatv("      ins({0}, {1}{2}, {3} : {4}, {5}{6}, {6}) "
                        "outs({7}_init : {8}) {{\n",
                        v("qc"), fifthBit ? v("qh") + ", " : "", v("scale"),
                        v("offset"), bytesT, fifthBit ? highT + ", " : "",
                        paramT, v("w"), weightsT);
    os << llvm::formatv("  ^bb0(%byte: i8, {0}%s: f32, %o: f32, %unused: "
                        "f32):\n",
                        fifthBit ? "%high: i8, " : "");
    os << "    %half = linalg.index 4 : index\n"
          "    %half8 = arith.index_cast %half : index to i8\n";
    os << llvm::formatv("    %shift = arith.muli %half8, {0} : i8\n"
                        "    %shifted = arith.shrui %byte, %shift : i8\n"
                        "    %nibble = arith.andi %shifted, {1} : i8\n",
                        v("c4"), v("c15"));
    if (fifthBit)
      os << llvm::formatv("    %hs = linalg.index 2 : index\n"
                          "    %cc = linalg.index 3 : index\n"
                          "    %hs8 = arith.index_cast %hs : index to i8\n"
                          "    %cc8 = arith.index_cast %cc : index to i8\n"
                          "    %one = arith.constant 1 : i8\n"
                          "    %two = arith.constant 2 : i8\n"
                          "    %hs4 = arith.shli %hs8, %two : i8\n"
                          "    %cc2 = arith.shli %cc8, %one : i8\n"
                          "    %chunk_bit = arith.addi %hs4, %cc2 : i8\n"
                          "    %bit_index = arith.addi %chunk_bit, %half8 : "
                          "i8\n"
                          "    %high_shifted = arith.shrui %high, %bit_index "
                          ": i8\n"
                          "    %bit = arith.andi %high_shifted, %one : i8\n"
                          "    %sixteen = arith.shli %bit, {0} : i8\n"
                          "    %q5 = arith.ori %nibble, %sixteen : i8\n"
                          "    %q = arith.uitofp %q5 : i8 to f32\n",
                          v("c4"));
    else
      os << "    %q = arith.uitofp %nibble : i8 to f32\n";
    return finishTwoLevel(v, tensor, x, m, weightsT, {"hs", "cc", "h", "l"},
                          {2, 2, 2, 32});
  }

  /// y = x . W^T for W in q6_K (the two-level form of
  /// examples/gen_gguf_kernel.py q6_K: dims (n, b, h, k1, k0, l1, l0), q
  /// six bits from a nibble of ql and two bits of qh, s = d * sc per
  /// sub-block of 16, o = 32 s); returns y's name.
  std::string writeQ6KMatmul(const TensorInfo &tensor, llvm::StringRef blocks,
                             llvm::StringRef x, llvm::StringRef m,
                             llvm::StringRef prefix) {
    TensorType type = *lookupType(tensor.typeId);
    const int64_t k = tensor.shape[0], n = tensor.shape[1];
    const int64_t b = k / type.blockElements;
    auto v = [&](llvm::StringRef name) { return ("%" + prefix + name).str(); };
    std::string halfT = llvm::formatv("tensor<{0}x{1}xf16>", n, b);
    std::string scT = llvm::formatv("tensor<{0}x{1}x2x2x2x2xi8>", n, b);
    std::string paramT = llvm::formatv("tensor<{0}x{1}x2x2x2x2xf32>", n, b);
    std::string lowT = llvm::formatv("tensor<{0}x{1}x2x2x2x16xi8>", n, b);
    std::string highT = llvm::formatv("tensor<{0}x{1}x2x2x16xi8>", n, b);
    std::string weightsT =
        llvm::formatv("tensor<{0}x{1}x2x2x2x2x16xf32>", n, b);
    writeTwoLevelHeading(tensor, prefix);
    // d: the f16 in bytes 208-209; the sixteen signed scales at 192, sub-block
    // 8h + 4k1 + 2k0 + l1.
    writeHalfFromBytes(v("d"), tensor, blocks, /*lowByte=*/208);
    writeBlockBytes(v("sc"), tensor, blocks, 192, {2, 2, 2, 2});
    const char *paramMaps =
        "affine_map<(n, b, h, k1, k0, l1) -> (n, b, h, k1, k0, l1)>, "
        "affine_map<(n, b, h, k1, k0, l1) -> (n, b)>, "
        "affine_map<(n, b, h, k1, k0, l1) -> (n, b, h, k1, k0, l1)>";
    // Scale d * sc and offset 32 * d * sc (exact: a power of two).
    for (bool isScale : {true, false}) {
      std::string name = isScale ? "scale" : "offset";
      os << llvm::formatv("  {0}_init = tensor.empty() : {1}\n", v(name),
                          paramT);
      os << llvm::formatv("  {0} = linalg.generic {{indexing_maps = [{1}], "
                          "iterator_types = [\"parallel\", \"parallel\", "
                          "\"parallel\", \"parallel\", \"parallel\", "
                          "\"parallel\"]}\n",
                          v(name), paramMaps);
      os << llvm::formatv("      ins({0}, {1} : {2}, {3}) outs({4}_init : {5}) "
                          "{{\n",
                          v("sc"), v("d"), scT, halfT, v(name), paramT);
      os << "  ^bb0(%sub: i8, %super: f16, %unused: f32):\n"
            "    %subf = arith.sitofp %sub : i8 to f32\n"
            "    %superf = arith.extf %super : f16 to f32\n";
      if (isScale)
        os << "    %value = arith.mulf %superf, %subf : f32\n";
      else
        os << "    %s = arith.mulf %superf, %subf : f32\n"
              "    %c32f = arith.constant 32.0 : f32\n"
              "    %value = arith.mulf %s, %c32f : f32\n";
      os << "    linalg.yield %value : f32\n";
      os << llvm::formatv("  } -> {0}\n", paramT);
    }
    writeBlockBytes(v("ql"), tensor, blocks, 0, {2, 2, 2, 16});
    writeBlockBytes(v("qh"), tensor, blocks, 128, {2, 2, 16});
    os << llvm::formatv("  {0}_init = tensor.empty() : {1}\n", v("w"),
                        weightsT);
    os << "  // Element (h, k1, k0, l1, l0): nibble k1 of ql[h, k0, l1, l0], "
          "bits 4k1 + 2k0 of qh[h, l1, l0] above it, s * q - o of its "
          "sub-block.\n";
    const char *dims = "(n, b, h, k1, k0, l1, l0)";
    os << llvm::formatv(
        "  {0} = linalg.generic {{indexing_maps = [affine_map<{1} -> (n, b, "
        "h, k0, l1, l0)>, affine_map<{1} -> (n, b, h, l1, l0)>, "
        "affine_map<{1} -> (n, b, h, k1, k0, l1)>, affine_map<{1} -> (n, b, "
        "h, k1, k0, l1)>, affine_map<{1} -> (n, b, h, k1, k0, l1, l0)>], "
        "iterator_types = [\"parallel\", \"parallel\", \"parallel\", "
        "\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}\n",
        v("w"), dims);
    os << llvm::formatv("      ins({0}, {1}, {2}, {3} : {4}, {5}, {6}, {6}) "
                        "outs({7}_init : {8}) {{\n",
                        v("ql"), v("qh"), v("scale"), v("offset"), lowT, highT,
                        paramT, v("w"), weightsT);
    os << "  ^bb0(%low: i8, %high: i8, %s: f32, %o: f32, %unused: f32):\n"
          "    %c2 = arith.constant 2 : i8\n"
          "    %c3 = arith.constant 3 : i8\n"
          "    %c4 = arith.constant 4 : i8\n"
          "    %c15 = arith.constant 15 : i8\n"
          "    %k1 = linalg.index 3 : index\n"
          "    %k0 = linalg.index 4 : index\n"
          "    %k1_8 = arith.index_cast %k1 : index to i8\n"
          "    %k0_8 = arith.index_cast %k0 : index to i8\n"
          "    %nibble_shift = arith.muli %k1_8, %c4 : i8\n"
          "    %low_shifted = arith.shrui %low, %nibble_shift : i8\n"
          "    %nibble = arith.andi %low_shifted, %c15 : i8\n"
          "    %k0_2 = arith.muli %k0_8, %c2 : i8\n"
          "    %high_shift = arith.addi %nibble_shift, %k0_2 : i8\n"
          "    %high_shifted = arith.shrui %high, %high_shift : i8\n"
          "    %two_bits = arith.andi %high_shifted, %c3 : i8\n"
          "    %top = arith.shli %two_bits, %c4 : i8\n"
          "    %six = arith.ori %nibble, %top : i8\n"
          "    %q = arith.uitofp %six : i8 to f32\n";
    return finishTwoLevel(v, tensor, x, m, weightsT,
                          {"h", "k1", "k0", "l1", "l0"}, {2, 2, 2, 2, 16});
  }

  /// y = x . W^T for W in q4_0 (the two-level form of
  /// examples/gen_gguf_kernel.py q4_0: dims (n, b, h, l), element 16h + l of
  /// a block nibble h of qs[l], s = d and o = 8d per half-block, so that
  /// s * q - o = d * (q - 8)); returns y's name.
  std::string writeQ4_0Matmul(const TensorInfo &tensor, llvm::StringRef blocks,
                              llvm::StringRef x, llvm::StringRef m,
                              llvm::StringRef prefix) {
    TensorType type = *lookupType(tensor.typeId);
    const int64_t k = tensor.shape[0], n = tensor.shape[1];
    const int64_t b = k / type.blockElements;
    auto v = [&](llvm::StringRef name) { return ("%" + prefix + name).str(); };
    std::string halfT = llvm::formatv("tensor<{0}x{1}xf16>", n, b);
    std::string paramT = llvm::formatv("tensor<{0}x{1}x2xf32>", n, b);
    std::string quantsT = llvm::formatv("tensor<{0}x{1}x16xi8>", n, b);
    std::string weightsT = llvm::formatv("tensor<{0}x{1}x2x16xf32>", n, b);
    writeTwoLevelHeading(tensor, prefix);
    // d: the f16 in the block's first two bytes; scale d and offset 8d
    // (exact) per (n, b, h).
    writeHalfFromBytes(v("d"), tensor, blocks, /*lowByte=*/0);
    for (bool isScale : {true, false}) {
      std::string name = isScale ? "scale" : "offset";
      os << llvm::formatv("  {0}_init = tensor.empty() : {1}\n", v(name),
                          paramT);
      os << llvm::formatv(
          "  {0} = linalg.generic {{indexing_maps = [affine_map<(n, b, h) -> "
          "(n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = "
          "[\"parallel\", \"parallel\", \"parallel\"]}\n",
          v(name));
      os << llvm::formatv("      ins({0} : {1}) outs({2}_init : {3}) {{\n",
                          v("d"), halfT, v(name), paramT);
      os << "  ^bb0(%super: f16, %unused: f32):\n"
            "    %superf = arith.extf %super : f16 to f32\n";
      if (isScale)
        os << "    linalg.yield %superf : f32\n";
      else
        os << "    %c8f = arith.constant 8.0 : f32\n"
              "    %value = arith.mulf %superf, %c8f : f32\n"
              "    linalg.yield %value : f32\n";
      os << llvm::formatv("  } -> {0}\n", paramT);
    }
    os << llvm::formatv("  {0} = tensor.extract_slice %{1}[0, 0, 2] [{2}, "
                        "{3}, 16] [1, 1, 1] : {4} to {5}\n",
                        v("qs"), blocks, n, b, blocksType(tensor), quantsT);
    os << llvm::formatv("  {0} = arith.constant 4 : i8\n"
                        "  {1} = arith.constant 15 : i8\n",
                        v("c4"), v("c15"));
    os << llvm::formatv("  {0}_init = tensor.empty() : {1}\n", v("w"),
                        weightsT);
    os << "  // Element (h, l): nibble h of qs[l], s * q - o of its "
          "half-block.\n";
    const char *dims = "(n, b, h, l)";
    os << llvm::formatv(
        "  {0} = linalg.generic {{indexing_maps = [affine_map<{1} -> (n, b, "
        "l)>, affine_map<{1} -> (n, b, h)>, affine_map<{1} -> (n, b, h)>, "
        "affine_map<{1} -> (n, b, h, l)>], iterator_types = [\"parallel\", "
        "\"parallel\", \"parallel\", \"parallel\"]}\n",
        v("w"), dims);
    os << llvm::formatv("      ins({0}, {1}, {2} : {3}, {4}, {4}) "
                        "outs({5}_init : {6}) {{\n",
                        v("qs"), v("scale"), v("offset"), quantsT, paramT,
                        v("w"), weightsT);
    // Body names other than the layer's unprefixed ones defined before
    // this body (%h, %act; %out comes last): a generic's region sees the
    // function's values, and a name may not be defined twice.
    os << "  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):\n"
          "    %nibble_half = linalg.index 2 : index\n"
          "    %nibble_half8 = arith.index_cast %nibble_half : index to i8\n";
    os << llvm::formatv("    %shift = arith.muli %nibble_half8, {0} : i8\n"
                        "    %shifted = arith.shrui %byte, %shift : i8\n"
                        "    %nibble = arith.andi %shifted, {1} : i8\n",
                        v("c4"), v("c15"));
    os << "    %q = arith.uitofp %nibble : i8 to f32\n";
    return finishTwoLevel(v, tensor, x, m, weightsT, {"h", "l"}, {2, 16});
  }

  /// y = x . W^T in the form of `tensor`'s type (q8_0 as a group-quantized
  /// matmul, q4_0 and the K-quants in the two-level form); returns y's name.
  std::string writeAnyMatmul(const TensorInfo &tensor, llvm::StringRef blocks,
                             llvm::StringRef x, llvm::StringRef m,
                             llvm::StringRef prefix) {
    llvm::StringRef type = lookupType(tensor.typeId)->name;
    if (type == "q6_K")
      return writeQ6KMatmul(tensor, blocks, x, m, prefix);
    if (type == "q4_K" || type == "q5_K")
      return writeTwoLevelMatmul(tensor, blocks, x, m, prefix);
    if (type == "q4_0")
      return writeQ4_0Matmul(tensor, blocks, x, m, prefix);
    return writeMatmul(tensor, blocks, x, m, prefix);
  }

  /// An elementwise generic over two m x n values: `body` computes %r from
  /// %a and %b.
  std::string writeElementwise(llvm::StringRef name, llvm::StringRef a,
                               llvm::StringRef b, int64_t n, llvm::StringRef m,
                               llvm::StringRef body) {
    std::string type = llvm::formatv("tensor<{0}x{1}xf32>", m, n);
    std::string dims = m == "?" ? "(%m)" : "()";
    os << llvm::formatv("  %{0}_init = tensor.empty{1} : {2}\n", name, dims,
                        type);
    os << llvm::formatv(
        "  %{0} = linalg.generic {{indexing_maps = [#map_mn, #map_mn, "
        "#map_mn], iterator_types = [\"parallel\", \"parallel\"]}\n",
        name);
    os << llvm::formatv("      ins({0}, {1} : {2}, {2}) outs(%{3}_init : {2}) "
                        "{{\n",
                        a, b, type, name);
    os << "  ^bb0(%a: f32, %b: f32, %unused: f32):\n" << body;
    os << "    linalg.yield %r : f32\n";
    os << llvm::formatv("  } -> {0}\n", type);
    return ("%" + name).str();
  }

private:
  llvm::raw_ostream &os;
};
} // namespace

std::string qforge::gguf::writeMatmulKernel(const TensorInfo &tensor,
                                            int64_t tokens,
                                            llvm::StringRef name) {
  TensorType type = *lookupType(tensor.typeId);
  const int64_t k = tensor.shape[0], n = tensor.shape[1];
  std::string m = tokens ? std::to_string(tokens) : "?";
  std::string out;
  llvm::raw_string_ostream os(out);
  KernelWriter writer(os);
  // The same IR as examples/gen_gguf_kernel.py (q8_0, blocks in place).
  os << llvm::formatv("// y = x . W^T, W = GGUF tensor '{0}' ({1}, {2} x "
                      "{3}) read in place; written by qforge-gguf --tensor.\n",
                      escape(tensor.name), type.name, n, k);
  writer.writeMaps();
  std::string x = llvm::formatv("tensor<{0}x{1}xf32>", m, k);
  std::string y = llvm::formatv("tensor<{0}x{1}xf32>", m, n);
  os << llvm::formatv("func.func @{0}({1}, %x: {2}) -> {3} {{\n", name,
                      KernelWriter::blocksArgument(tensor, "blocks"), x, y);
  if (!tokens)
    os << "  %c0 = arith.constant 0 : index\n"
       << llvm::formatv("  %m = tensor.dim %x, %c0 : {0}\n", x);
  std::string result = writer.writeAnyMatmul(tensor, "blocks", "%x", m, "");
  os << llvm::formatv("  return {0} : {1}\n}\n", result, y);
  return out;
}

std::string
qforge::gguf::writeLayerKernel(llvm::ArrayRef<const TensorInfo *> tensors,
                               int64_t tokens, llvm::StringRef name) {
  const TensorInfo &q = *tensors[0], &k = *tensors[1], &v = *tensors[2],
                   &o = *tensors[3], &gate = *tensors[4], &up = *tensors[5],
                   &down = *tensors[6];
  const int64_t hidden = q.shape[0], inter = gate.shape[1];
  std::string m = tokens ? std::to_string(tokens) : "?";
  std::string out;
  llvm::raw_string_ostream os(out);
  KernelWriter writer(os);
  os << "// One LLaMA decoder layer's quantized part, its GGUF weights read "
        "in place; written by qforge-gguf --layer:\n"
        "//   q, k, v = Wq x, Wk x, Wv x;  h = x + Wo a;\n"
        "//   out = h + Wdown (silu(Wgate h) * Wup h).\n";
  writer.writeMaps();
  auto rows = [&](const TensorInfo &t) {
    return llvm::formatv("tensor<{0}x{1}xf32>", m, t.shape[1]).str();
  };
  std::string xT = llvm::formatv("tensor<{0}x{1}xf32>", m, hidden);
  std::string aT = llvm::formatv("tensor<{0}x{1}xf32>", m, o.shape[0]);
  os << llvm::formatv("func.func @{0}({1},\n    {2},\n    {3},\n    {4},\n    "
                      "{5},\n    {6},\n    {7},\n    %x: {8}, %attn: {9})\n    "
                      "-> ({10}, {11}, {12}, {13}) {{\n",
                      name, KernelWriter::blocksArgument(q, "wq"),
                      KernelWriter::blocksArgument(k, "wk"),
                      KernelWriter::blocksArgument(v, "wv"),
                      KernelWriter::blocksArgument(o, "wo"),
                      KernelWriter::blocksArgument(gate, "wgate"),
                      KernelWriter::blocksArgument(up, "wup"),
                      KernelWriter::blocksArgument(down, "wdown"), xT, aT,
                      rows(q), rows(k), rows(v), xT);
  if (!tokens)
    os << "  %c0 = arith.constant 0 : index\n"
       << llvm::formatv("  %m = tensor.dim %x, %c0 : {0}\n", xT);
  std::string yq = writer.writeAnyMatmul(q, "wq", "%x", m, "q_");
  std::string yk = writer.writeAnyMatmul(k, "wk", "%x", m, "k_");
  std::string yv = writer.writeAnyMatmul(v, "wv", "%x", m, "v_");
  std::string yo = writer.writeAnyMatmul(o, "wo", "%attn", m, "o_");
  std::string h = writer.writeElementwise("h", "%x", yo, hidden, m,
                                          "    %r = arith.addf %a, %b : f32\n");
  std::string yg = writer.writeAnyMatmul(gate, "wgate", h, m, "gate_");
  std::string yu = writer.writeAnyMatmul(up, "wup", h, m, "up_");
  // silu(g) * u = g * u / (1 + exp(-g)).
  std::string act =
      writer.writeElementwise("act", yg, yu, inter, m,
                              "    %neg = arith.negf %a : f32\n"
                              "    %e = math.exp %neg : f32\n"
                              "    %one = arith.constant 1.0 : f32\n"
                              "    %den = arith.addf %one, %e : f32\n"
                              "    %gu = arith.mulf %a, %b : f32\n"
                              "    %r = arith.divf %gu, %den : f32\n");
  std::string yd = writer.writeAnyMatmul(down, "wdown", act, m, "down_");
  std::string result = writer.writeElementwise(
      "out", h, yd, hidden, m, "    %r = arith.addf %a, %b : f32\n");
  os << llvm::formatv("  return {0}, {1}, {2}, {3} : {4}, {5}, {6}, {7}\n}\n",
                      yq, yk, yv, result, rows(q), rows(k), rows(v), xT);
  return out;
}

std::optional<llvm::SmallVector<const TensorInfo *, 7>>
qforge::gguf::findLayerTensors(const File &file, int64_t layer,
                               std::string &error) {
  static const char *const kRoles[] = {"attn_q",      "attn_k",   "attn_v",
                                       "attn_output", "ffn_gate", "ffn_up",
                                       "ffn_down"};
  llvm::SmallVector<const TensorInfo *, 7> tensors;
  for (const char *role : kRoles) {
    std::string name = "blk." + std::to_string(layer) + "." + role + ".weight";
    const TensorInfo *tensor = file.findTensor(name);
    if (!tensor) {
      error =
          "layer " + std::to_string(layer) + " has no tensor '" + name + "'";
      return std::nullopt;
    }
    if (std::optional<std::string> why = whyNotCompiled(*tensor)) {
      error = *why;
      return std::nullopt;
    }
    tensors.push_back(tensor);
  }
  // ne[0] is K (what the matmul reads), ne[1] N (what it writes).
  auto k = [&](int i) { return tensors[i]->shape[0]; };
  auto n = [&](int i) { return tensors[i]->shape[1]; };
  const int64_t hidden = k(0);
  bool chains = k(1) == hidden && k(2) == hidden && n(3) == hidden &&
                k(4) == hidden && k(5) == hidden && n(4) == n(5) &&
                k(6) == n(4) && n(6) == hidden;
  if (!chains) {
    error = "the shapes of layer " + std::to_string(layer) +
            "'s tensors do not chain as a LLaMA layer's (attn_q/k/v and "
            "ffn_gate/up read the hidden size " +
            std::to_string(hidden) +
            ", attn_output and ffn_down write it, ffn_down reads what "
            "ffn_gate and ffn_up write)";
    return std::nullopt;
  }
  return tensors;
}
