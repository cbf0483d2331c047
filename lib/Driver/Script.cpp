//===- Script.cpp - a transform script and the library it includes --------===//

#include "Driver/Script.h"

#include "Driver/Options.h"

#include "mlir/Dialect/Linalg/TransformOps/LinalgTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/IR/Utils.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir;

namespace {
llvm::cl::list<std::string> transformLibrary(
    "transform-library",
    llvm::cl::desc("more named-sequence libraries (folders or .mlir files) a "
                   "script may include, after transforms/lib"),
    llvm::cl::CommaSeparated, llvm::cl::cat(qforge::optionCategory()));

/// Whether the script declares a sequence it does not define: it includes
/// from the library.
bool declaresExternalSequences(ModuleOp script) {
  WalkResult walk = script.walk([](transform::NamedSequenceOp sequence) {
    return sequence.isExternal() ? WalkResult::interrupt()
                                 : WalkResult::advance();
  });
  return walk.wasInterrupted();
}
} // namespace

std::string qforge::getTransformsDir() {
  if (const char *dir = std::getenv("QFORGE_TRANSFORMS_DIR"))
    return dir;
  // An installed tool (cmake --install, the .deb) reads the strategies
  // installed beside it, <prefix>/bin/../share/qforge/transforms; a tool in
  // the build tree, the source tree's.
  std::string executable = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&qforge::getTransformsDir));
  if (!executable.empty()) {
    llvm::SmallString<256> installed(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(executable)));
    llvm::sys::path::append(installed, "share", "qforge", "transforms");
    if (llvm::sys::fs::is_directory(installed))
      return std::string(installed);
  }
  return QFORGE_TRANSFORMS_DIR;
}

std::vector<std::string> qforge::getTransformLibraryPaths() {
  std::vector<std::string> paths = {getTransformsDir() + "/lib"};
  paths.insert(paths.end(), transformLibrary.begin(), transformLibrary.end());
  return paths;
}

LogicalResult qforge::assembleTransformLibrary(MLIRContext *context,
                                               ArrayRef<std::string> paths,
                                               OwningOpRef<ModuleOp> &library) {
  SmallVector<std::string> files;
  if (failed(transform::detail::expandPathsToMLIRFiles(paths, context, files)))
    return failure();
  library = ModuleOp::create(
      FileLineColLoc::get(context, "<transform-library>", 0, 0));
  library->getOperation()->setAttr(
      transform::TransformDialect::kWithNamedSequenceAttrName,
      UnitAttr::get(context));
  for (const std::string &file : files) {
    OwningOpRef<ModuleOp> parsed;
    if (failed(transform::detail::parseTransformModuleFromFile(context, file,
                                                               parsed)))
      return failure();
    // mergeSymbolsInto has said what clashes (a sequence defined twice, or
    // declared with another signature), at both places.
    if (failed(transform::detail::mergeSymbolsInto(
            *library, OwningOpRef<Operation *>(parsed.release()))))
      return failure();
  }
  return success();
}

FailureOr<qforge::TransformScript>
qforge::TransformScript::load(MLIRContext *context, StringRef path,
                              OwningOpRef<ModuleOp> *libraryCache) {
  TransformScript script;
  script.path = path.str();
  script.module = std::make_shared<OwningOpRef<ModuleOp>>();
  if (failed(transform::detail::parseTransformModuleFromFile(context, path,
                                                             *script.module)))
    return failure();
  ModuleOp entry = **script.module;
  if (declaresExternalSequences(entry)) {
    // The library's definitions replace the declarations. A script that
    // defines everything itself (as before the library) is left alone, so a
    // name it shares with a library sequence does not clash.
    OwningOpRef<ModuleOp> library;
    if (libraryCache && *libraryCache) {
      library = (*libraryCache)->clone();
    } else {
      if (failed(assembleTransformLibrary(context, getTransformLibraryPaths(),
                                          library)))
        return failure();
      if (libraryCache)
        *libraryCache = library->clone();
    }
    if (failed(transform::detail::mergeSymbolsInto(
            entry, OwningOpRef<Operation *>(library.release()))))
      return failure();
    WalkResult undefined = entry.walk([](transform::NamedSequenceOp sequence) {
      if (!sequence.isExternal())
        return WalkResult::advance();
      sequence.emitError() << "the script declares @" << sequence.getSymName()
                           << ", which neither it nor the script library "
                              "(transforms/lib, --transform-library) defines";
      return WalkResult::interrupt();
    });
    if (undefined.wasInterrupted())
      return failure();
  }
  if (!script.defines(kMainEntry)) {
    emitError(entry.getLoc())
        << "the transform script defines no named sequence @" << kMainEntry;
    return failure();
  }
  // MLIR 22's tile_using_forall dereferences a null loop when every tile
  // size is 0 (nothing tiled): refuse it here rather than crash. Sizes given
  // by handles or params are known only when the script runs.
  WalkResult zeroTiles = entry.walk([](transform::TileUsingForallOp op) {
    if (!op.getMixedNumThreads().empty() || op.getPackedNumThreads() ||
        op.getPackedTileSizes() || op.getMixedTileSizes().empty())
      return WalkResult::advance();
    for (OpFoldResult size : op.getMixedTileSizes())
      if (!isConstantIntValue(size, 0))
        return WalkResult::advance();
    op.emitOpError() << "with every tile size 0 tiles nothing (and crashes "
                        "MLIR 22's implementation); drop it";
    return WalkResult::interrupt();
  });
  if (zeroTiles.wasInterrupted())
    return failure();
  return script;
}

bool qforge::TransformScript::defines(StringRef entry) const {
  return SymbolTable::lookupSymbolIn(**module, entry) != nullptr;
}

LogicalResult qforge::TransformScript::apply(ModuleOp payload,
                                             StringRef entry) const {
  Operation *sequence = SymbolTable::lookupSymbolIn(**module, entry);
  if (!sequence)
    return emitError((**module).getLoc())
           << "the transform script defines no named sequence @" << entry;
  return transform::applyTransformNamedSequence(payload, sequence, **module,
                                                transform::TransformOptions());
}

std::optional<int64_t>
qforge::TransformScript::getIntegerAttribute(StringRef name) const {
  if (auto attr = (**module)->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return std::nullopt;
}

bool qforge::TransformScript::hasAttribute(StringRef name) const {
  return (**module)->hasAttr(name);
}

std::optional<SmallVector<int64_t>>
qforge::TransformScript::getIntegerArrayAttribute(StringRef name) const {
  if (auto attr = (**module)->getAttrOfType<DenseI64ArrayAttr>(name))
    return SmallVector<int64_t>(attr.asArrayRef());
  return std::nullopt;
}
