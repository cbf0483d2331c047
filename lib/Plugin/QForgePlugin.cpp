//===- QForgePlugin.cpp - qforge as an mlir-opt dialect plugin ------------===//
//
//   mlir-opt --load-dialect-plugin=build/lib/QForgePlugin.so \
//            --transform-interpreter input.mlir
//
// adds the transform.qforge.* ops to stock mlir-opt. The extension itself is
// in libQForgeTransformOps.so, shared with qforge-opt, so loading the plugin
// into qforge-opt registers the same TypeID and is a no-op.
//
//===----------------------------------------------------------------------===//

#include "TransformOps/QForgeTransformOps.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "QForge", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            qforge::registerTransformExtension(*registry);
          }};
}
