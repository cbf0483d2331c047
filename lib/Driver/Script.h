//===- Script.h - a script and its library ----------------------*- C++ -*-===//
//
// A strategy is a transform script: an entry file (transforms/*.mlir or the
// user's --script) whose @__transform_main reads like a recipe, and the
// named sequences of the script library (transforms/lib/) it includes. The
// entry file declares what it includes (a body-less named_sequence, as
// upstream's preloaded libraries require); loading merges the library's
// definitions in, so a shipped script and a user's alike can include any
// library sequence. Stock mlir-opt gets the same with
// --transform-preload-library=transform-library-paths=transforms/lib,SCRIPT.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_SCRIPT_H
#define QFORGE_DRIVER_SCRIPT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace qforge {

/// The folder of the shipped scripts: $QFORGE_TRANSFORMS_DIR, else the
/// source tree's transforms/.
std::string getTransformsDir();

/// The script library every script may include: getTransformsDir()/lib,
/// then the folders or files of --transform-library.
std::vector<std::string> getTransformLibraryPaths();

/// Parses the named-sequence libraries at `paths` (folders or .mlir files)
/// and merges them into `library`, as upstream's
/// transform::detail::assembleTransformLibraryFromPaths does -- which in
/// MLIR 22 dereferences a moved-from module when two files clash (a
/// sequence defined twice, or declared with another signature). Here the
/// clash is a diagnostic at both places and a failure.
mlir::LogicalResult
assembleTransformLibrary(mlir::MLIRContext *context,
                         llvm::ArrayRef<std::string> paths,
                         mlir::OwningOpRef<mlir::ModuleOp> &library);

/// A transform script (strategy), parsed once and applied by entry point.
class TransformScript {
public:
  /// The sequence every script defines.
  static constexpr llvm::StringLiteral kMainEntry = "__transform_main";
  /// The sequence a script may define to run on the bufferized kernel,
  /// before vector lowering (e.g. to insert prefetches).
  static constexpr llvm::StringLiteral kAfterBufferizationEntry =
      "qforge_after_bufferization";

  /// Parses and verifies the script; when it declares sequences without
  /// defining them, merges in the library (getTransformLibraryPaths). With
  /// `libraryCache`, the library is read from its files only when the cache
  /// is empty, kept there, and copied into the script (several scripts of
  /// one session read it once). Diagnostics go to the context.
  static mlir::FailureOr<TransformScript>
  load(mlir::MLIRContext *context, llvm::StringRef path,
       mlir::OwningOpRef<mlir::ModuleOp> *libraryCache = nullptr);

  bool defines(llvm::StringRef entry) const;
  /// Applies the named sequence `entry` to `payload`.
  mlir::LogicalResult apply(mlir::ModuleOp payload,
                            llvm::StringRef entry = kMainEntry) const;
  llvm::StringRef getPath() const { return path; }

  /// An integer attribute of the script's module (e.g. qforge.token_tile,
  /// which the driver's dispatch on a dynamic token count reads), if set.
  std::optional<int64_t> getIntegerAttribute(llvm::StringRef name) const;
  /// Whether the script's module has the attribute (e.g. the unit attribute
  /// qforge.pad_nearly_full_chunks).
  bool hasAttribute(llvm::StringRef name) const;
  /// An array<i64: ...> attribute of the script's module (e.g.
  /// qforge.rows_left_chunks), if set.
  std::optional<llvm::SmallVector<int64_t>>
  getIntegerArrayAttribute(llvm::StringRef name) const;

private:
  std::string path;
  std::shared_ptr<mlir::OwningOpRef<mlir::ModuleOp>> module;
};

} // namespace qforge

#endif // QFORGE_DRIVER_SCRIPT_H
