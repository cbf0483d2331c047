//===- QForgePlugin.cpp - qforge as an mlir-opt dialect and pass plugin ---===//
//
//   mlir-opt --load-dialect-plugin=build/lib/QForgePlugin.so \
//            --transform-interpreter input.mlir
//
// adds the transform.qforge.* ops to stock mlir-opt. The extension itself is
// in libQForgeTransformOps.so, shared with qforge-opt, so loading the plugin
// into qforge-opt registers the same TypeID and is a no-op.
//
//   mlir-opt --load-pass-plugin=build/lib/QForgePlugin.so \
//       --pass-pipeline="builtin.module(qforge-store-int4-as-byte-pairs)"
//       in.mlir
//
// adds qforge's input passes (lib/Quant: quant lowering, 4-bit storage) --
// what qforge-compile runs on its input before a strategy.
//
//===----------------------------------------------------------------------===//

#include "Quant/Passes.h"
#include "TransformOps/QForgeTransformOps.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "QForge", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            qforge::registerTransformExtension(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "QForgePasses", LLVM_VERSION_STRING,
          []() { qforge::registerQForgePasses(); }};
}
