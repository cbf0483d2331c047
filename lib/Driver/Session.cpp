//===- Session.cpp - what every qforge tool sets up -----------------------===//

#include "Driver/Session.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;

qforge::Session::Session() {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  diagnostics =
      std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr, context.get());
}

OwningOpRef<ModuleOp> qforge::Session::parseInput(StringRef path,
                                                  std::string &error) {
  auto input = openInputFile(path, &error);
  if (!input)
    return nullptr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, context.get());
  // Quantized types and ops (docs/quantization.md): signed storage becomes
  // signless, and quant.qcast/dcast their exact integer arithmetic; i4
  // arguments become bytes of two nibbles (docs/abi.md); group-quantized
  // matmuls as producers spell them take the canonical form the strategies
  // read (docs/forms.md). Before anything else sees the kernel.
  if (module) {
    PassManager pm(context.get(), ModuleOp::getOperationName());
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    if (failed(parsePassPipeline(
            "qforge-normalize-quant-storage,qforge-lower-quant,"
            "qforge-normalize-dequant-contraction,"
            "qforge-store-int4-as-byte-pairs",
            pm, errorStream)) ||
        failed(pm.run(*module)))
      return nullptr;
  }
  return module;
}

std::string qforge::chooseStrategy(const StrategyOptions &options,
                                   std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(options.target, error);
  if (!machine)
    return "";
  const llvm::MCSubtargetInfo *features = machine->getMCSubtargetInfo();
  auto has = [&](llvm::StringRef feature) {
    return features->checkFeatures(feature);
  };
  std::string folder = getTransformsDir() + "/";
  std::string cpu = machine->getTargetCPU().str();
  std::string targetName = describeTarget(options.target, cpu);
  // `script` when the CPU has what it needs, else "" and an error saying
  // what is missing and how to do without.
  auto pick = [&](bool supported, StringRef script, StringRef strategy,
                  StringRef needs, StringRef fix) -> std::string {
    if (supported)
      return folder + script.str();
    error = ("the " + strategy + " needs " + needs + ", which the target (" +
             targetName + ") lacks; " + fix)
                .str();
    return "";
  };
  bool vnni = has("+avx512vnni") && has("+avx512bw");
  // The int8 strategies' vpdpbusd calls are legalized for the target: split
  // to 256 bits for AVX-VNNI, expanded exactly to vpmaddubsw + vpmaddwd on
  // AVX2 (legalizeIntrinsics), so they run on any of these CPUs.
  bool int8DotProducts = vnni || has("+avxvnni") || has("+avx2");
  bool avx512 = has("+avx512f");
  bool avx2 = has("+avx2") && has("+fma");
  // A packed strategy with f32 activations: its AVX-512 script, or on AVX2
  // + FMA CPUs without AVX-512 its AVX2 twin (16-row tiles of 8-lane ymm).
  auto pickPacked = [&](StringRef avx512Script, StringRef avx2Script,
                        StringRef strategy, StringRef fix) -> std::string {
    if (!avx512 && avx2)
      return folder + avx2Script.str();
    return pick(avx512, avx512Script, strategy, "AVX-512F, or AVX2 and FMA",
                fix);
  };
  StringRef vnniNeeds = "AVX512-VNNI and AVX512BW, AVX-VNNI or AVX2";
  StringRef dropInt8 = "drop --int8-activations or pass --script";
  // 4-bit integer prefill: a group of 2 weights is one byte, less than the
  // 4-byte step of its partial sums (bufferization then fails).
  if (options.int4Weights && options.int8Activations && options.tokens > 1 &&
      options.groupSize > 0 && options.groupSize < 4) {
    error = "the 4-bit integer prefill strategy needs groups of at least 4 "
            "weights (the kernel's have " +
            std::to_string(options.groupSize) + "); " + dropInt8.str();
    return "";
  }
  // Several activation rows at once (prefill): the batched micro-kernels,
  // which pack the weights once like the packed decode strategies.
  if (options.tokens > 1) {
    // Intel AVX-512 cores: 12 tokens x 32 rows, not 6 (5) x 64 -- the
    // weights' conversions share the two FMA ports there (AMD Zen has more
    // vector pipes). From 6 tokens: with fewer, 32 rows leave fewer
    // accumulators than the FMA latency needs (M = 4: 8, against 16 on 64
    // rows; 16% slower), while from M = 6 for 4-bit weights (5 tokens per
    // 64-row tile) and M = 7 for 8-bit ones (6) one block of tokens converts
    // each weight once where the 64-row tiles take two blocks (4-bit M = 6
    // 13-15% faster, M = 7 14-20%; 8-bit M = 6 equal; docs/benchmarks.md).
    // Static M only: a dynamic M's chunks read the weights packed in 64-row
    // tiles, as its M = 1 decode path does.
    constexpr int64_t kIntelPrefillMinTokens = 6;
    bool intelAvx512 = avx512 && !StringRef(cpu).starts_with("znver");
    bool intelPrefill = intelAvx512 &&
                        options.tokens >= kIntelPrefillMinTokens &&
                        !options.dynamicTokens;
    if (options.int4Weights && options.int8Activations)
      return pick(int8DotProducts, "prefill-packed-int4-vnni.mlir",
                  "int4 prefill strategy with int8 activations", vnniNeeds,
                  dropInt8);
    if (options.int4Weights && intelPrefill)
      return folder + "prefill-packed-int4-avx512-intel.mlir";
    // The 64-row tiles on Intel, their nibbles through vpermps tables (not
    // on Zen 5: there the tables made these tiles spill) and, from 8 blocks
    // of tokens, converted once for all blocks.
    if (options.int4Weights && intelAvx512)
      return folder + "prefill-packed-int4-avx512-intel-64-rows.mlir";
    if (options.int4Weights)
      return pickPacked("prefill-packed-int4-avx512.mlir",
                        "prefill-packed-int4-avx2.mlir",
                        "int4 prefill strategy", "pass --script");
    // Intel AVX-512: the next group's weights prefetched into L2, not L1
    // (M = 17, which streams the weights: 11% faster; docs/benchmarks.md).
    // Same tiles and packing as on Zen, so any M, dynamic too.
    if (options.int8Activations)
      return pick(int8DotProducts,
                  intelAvx512 ? "prefill-packed-int8-vnni-intel.mlir"
                              : "prefill-packed-int8-vnni.mlir",
                  "integer prefill strategy", vnniNeeds, dropInt8);
    if (intelPrefill)
      return folder + "prefill-packed-avx512-intel.mlir";
    // The 64-row tiles on Intel: from 8 blocks of tokens (a dynamic M's
    // chunks of 32 and 128) each weight converted once, not once per block.
    if (intelAvx512)
      return folder + "prefill-packed-avx512-intel-64-rows.mlir";
    return pickPacked("prefill-packed-avx512.mlir", "prefill-packed-avx2.mlir",
                      "prefill strategy", "pass --script");
  }
  // Byte pairs are read only by the packed strategies (with or without
  // --packed-weights): rows are the lanes, a byte's two nibbles two k.
  if (options.int4Weights && options.int8Activations)
    return pick(int8DotProducts, "decode-packed-int4-vnni.mlir",
                "int4 decode strategy with int8 activations", vnniNeeds,
                dropInt8);
  if (options.int4Weights)
    return pickPacked("decode-packed-int4-avx512.mlir",
                      "decode-packed-int4-avx2.mlir", "int4 decode strategy",
                      "pass --script");
  if (options.int8Activations && options.packedWeights)
    return pick(int8DotProducts, "decode-packed-int8-vnni.mlir",
                "packed int8 decode strategy", vnniNeeds, dropInt8);
  if (options.packedWeights)
    return pickPacked("decode-packed-avx512.mlir", "decode-packed-avx2.mlir",
                      "packed decode strategy",
                      "drop --packed-weights or pass --script");
  // 8 lanes of 256 bits: without AVX512-VNNI, AVX-VNNI's VEX-encoded
  // vpdpbusd or on AVX2 its expansion; with it, for groups of 32 (llama.cpp's
  // block), which a 512-bit step of 64 bytes does not divide but the 8-lane
  // strategy's 32-byte steps do (AVX512-VNNI has the 256-bit form).
  bool groupsOf32 = options.groupSize > 0 && options.groupSize % 64 != 0 &&
                    options.groupSize % 32 == 0;
  if (options.int8Activations &&
      ((!vnni && has("+avx2")) || (vnni && groupsOf32)))
    return folder + "decode-int8-avxvnni.mlir";
  // AMD Zen 5: the next row prefetched into L1, not L2 (docs/benchmarks.md).
  if (options.int8Activations && vnni && cpu == "znver5")
    return folder + "decode-int8-vnni-zen.mlir";
  if (options.int8Activations)
    return pick(vnni, "decode-int8-vnni.mlir", "int8 decode strategy",
                vnniNeeds, dropInt8);
  // AMD Zen 4: without the software prefetch while a row is one block of
  // groups (at most 6144 activation elements, @tile_f32_rows_in_group_blocks
  // in transforms/lib/decode.mlir, which must agree): the hardware
  // prefetcher follows one stream per row, and the prefetches cost issue
  // slots in a loop that is compute-bound there. Rows split into group
  // blocks keep them (without, 4096x86x128 is 25-50% slower;
  // docs/benchmarks.md). On Zen 5, with the group's multiply-adds as four
  // partial sums, the prefetch pays on every shape measured (groups of 32:
  // 0.43 -> 0.68 of the read bandwidth).
  constexpr int64_t kElementsPerBlock = 6144;
  if (avx512 && cpu == "znver4" && options.groups > 0 &&
      options.groupSize > 0 &&
      options.groups * options.groupSize <= kElementsPerBlock)
    return folder + "decode-factored-avx512-zen.mlir";
  if (avx512)
    return folder + "decode-factored-avx512.mlir";
  if (avx2)
    return folder + "decode-factored-avx2.mlir";
  error = "no shipped decode strategy for the target (" + targetName +
          "): they need AVX2 and FMA; pass --script";
  return "";
}

FailureOr<qforge::TransformScript>
qforge::Session::loadStrategy(const StrategyOptions &options,
                              std::string &error) {
  std::string script = options.script;
  if (!script.empty() && (options.int8Activations || options.packedWeights)) {
    error = std::string("--") +
            (options.int8Activations ? "int8-activations" : "packed-weights") +
            " picks a shipped strategy; with --script the script decides "
            "(drop one of them)";
    return failure();
  }
  if (script.empty()) {
    script = chooseStrategy(options, error);
    if (script.empty())
      return failure();
  }
  if (!llvm::sys::fs::exists(script)) {
    error = "transform script '" + script + "' not found";
    return failure();
  }
  FailureOr<TransformScript> strategy =
      TransformScript::load(context.get(), script);
  if (failed(strategy))
    error = "cannot load the transform script '" + script + "'";
  return strategy;
}
