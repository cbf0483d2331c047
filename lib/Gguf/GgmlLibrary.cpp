//===- GgmlLibrary.cpp - ggml's own library, loaded at run time -----------===//

#include "Gguf/GgmlLibrary.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <dlfcn.h>

using namespace qforge;

namespace {
// ggml.h (ggml 0.5.0, the version of @node-llama-cpp/linux-x64 3.22.1):
//   typedef void (*ggml_to_float_t)(const void *x, float *y, int64_t k);
//   struct ggml_type_traits {
//     const char *type_name; int64_t blck_size; int64_t blck_size_interleave;
//     size_t type_size; bool is_quantized; ggml_to_float_t to_float;
//     ggml_from_float_t from_float_ref; };
// `enum ggml_type` is passed as an int.
using ToFloat = void (*)(const void *, float *, int64_t);
struct TypeTraits {
  const char *typeName;
  int64_t blockSize;
  int64_t blockSizeInterleave;
  size_t typeSize;
  bool isQuantized;
  ToFloat toFloat;
  void (*fromFloatRef)(const float *, void *, int64_t);
};
} // namespace

// struct ggml_init_params { size_t mem_size; void *mem_buffer; bool
// no_alloc; }, passed by value; tensors, graphs and contexts are opaque
// here (their data through ggml_get_data).
struct InitParams {
  size_t memSize;
  void *memBuffer;
  bool noAlloc;
};

struct GgmlLibrary::Functions {
  const TypeTraits *(*getTypeTraits)(int);
  size_t (*typeSize)(int);
  int64_t (*blockSize)(int);
  const char *(*typeName)(int);
  // The graph API, for GgmlMatmul.
  void *(*init)(InitParams);
  void (*free)(void *);
  void *(*newTensor2d)(void *, int, int64_t, int64_t);
  void *(*getData)(const void *);
  void *(*mulMat)(void *, void *, void *);
  void *(*newGraph)(void *);
  void (*buildForwardExpand)(void *, void *);
  size_t (*graphOverhead)();
  size_t (*tensorOverhead)();
  size_t (*rowSize)(int, int64_t);
  int (*backendGraphCompute)(void *, void *);
  void (*backendFree)(void *);
  // From the CPU backend (loadCpuBackend).
  void *(*cpuBackendInit)() = nullptr;
  void (*cpuBackendSetThreads)(void *, int) = nullptr;
};

llvm::StringRef qforge::defaultGgmlDirectory() {
#ifdef QFORGE_GGML_DIR
  return QFORGE_GGML_DIR;
#else
  return "";
#endif
}

std::optional<GgmlLibrary> GgmlLibrary::load(llvm::StringRef directory,
                                             std::string &error) {
  std::string path = (directory + "/libggml-base.so").str();
  void *raw = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!raw) {
    const char *reason = dlerror();
    error = "cannot load ggml's library '" + path +
            "': " + (reason ? reason : "unknown error") +
            " (scripts/setup.sh installs it into the build folder)";
    return std::nullopt;
  }
  GgmlLibrary library;
  library.handle = std::shared_ptr<void>(raw, [](void *h) { dlclose(h); });
  auto functions = std::make_shared<Functions>();
  auto find = [&](const char *name, auto &slot) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
        dlsym(raw, name));
    if (!slot)
      error = path + " defines no '" + name + "'";
    return slot != nullptr;
  };
  if (!find("ggml_get_type_traits", functions->getTypeTraits) ||
      !find("ggml_type_size", functions->typeSize) ||
      !find("ggml_blck_size", functions->blockSize) ||
      !find("ggml_type_name", functions->typeName) ||
      !find("ggml_init", functions->init) ||
      !find("ggml_free", functions->free) ||
      !find("ggml_new_tensor_2d", functions->newTensor2d) ||
      !find("ggml_get_data", functions->getData) ||
      !find("ggml_mul_mat", functions->mulMat) ||
      !find("ggml_new_graph", functions->newGraph) ||
      !find("ggml_build_forward_expand", functions->buildForwardExpand) ||
      !find("ggml_graph_overhead", functions->graphOverhead) ||
      !find("ggml_tensor_overhead", functions->tensorOverhead) ||
      !find("ggml_row_size", functions->rowSize) ||
      !find("ggml_backend_graph_compute", functions->backendGraphCompute) ||
      !find("ggml_backend_free", functions->backendFree))
    return std::nullopt;
  library.functions = std::move(functions);
  library.directory = directory.str();
  return library;
}

GgmlLibrary::TypeReport GgmlLibrary::describe(uint32_t typeId) const {
  TypeReport report;
  int type = int(typeId);
  // ggml_type_name checks the id (it says "NONE" past its last type); the
  // others index ggml's table, or assert.
  const char *name = functions->typeName(type);
  report.accessorName = name ? name : "";
  if (report.accessorName == "NONE")
    return report;
  if (const TypeTraits *traits = functions->getTypeTraits(type)) {
    report.traitsName = traits->typeName ? traits->typeName : "";
    report.traitsBlockElements = traits->blockSize;
    report.traitsBlockBytes = traits->typeSize;
    report.hasToFloat = traits->toFloat != nullptr;
  }
  report.accessorBlockElements = functions->blockSize(type);
  report.accessorBlockBytes = functions->typeSize(type);
  return report;
}

bool GgmlLibrary::dequantize(uint32_t typeId, const void *blocks, float *out,
                             int64_t elements, std::string &error) const {
  const char *name = functions->typeName(int(typeId));
  const TypeTraits *traits = name && llvm::StringRef(name) != "NONE"
                                 ? functions->getTypeTraits(int(typeId))
                                 : nullptr;
  if (!traits || !traits->toFloat || traits->blockSize <= 0 ||
      elements % traits->blockSize != 0) {
    error = "ggml has no dequantization of type " + std::to_string(typeId) +
            " for " + std::to_string(elements) + " elements";
    return false;
  }
  traits->toFloat(blocks, out, elements);
  return true;
}

bool GgmlLibrary::loadCpuBackend(llvm::StringRef variant, std::string &error) {
  std::string chosen = variant.str();
  if (chosen.empty()) {
    // Each variant of the package says how well this CPU runs it
    // (ggml_backend_score: 0 when it lacks an instruction the variant
    // uses), as ggml's own loader picks: the highest score wins.
    static const char *const kVariants[] = {
        "sapphirerapids", "zen4",       "icelake",     "cooperlake",
        "cascadelake",    "cannonlake", "skylakex",    "alderlake",
        "haswell",        "ivybridge",  "sandybridge", "piledriver",
        "sse42",          "x64"};
    int best = 0;
    for (const char *candidate : kVariants) {
      std::string path = directory + "/libggml-cpu-" + candidate + ".so";
      void *raw = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!raw)
        continue;
      auto score =
          reinterpret_cast<int (*)()>(dlsym(raw, "ggml_backend_score"));
      int value = score ? score() : 0;
      dlclose(raw);
      if (value > best) {
        best = value;
        chosen = candidate;
      }
    }
    if (chosen.empty()) {
      error = "no ggml CPU backend in '" + directory + "' runs on this CPU";
      return false;
    }
  }
  std::string path = directory + "/libggml-cpu-" + chosen + ".so";
  void *raw = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!raw) {
    const char *reason = dlerror();
    error = "cannot load ggml's CPU backend '" + path +
            "': " + (reason ? reason : "unknown error");
    return false;
  }
  cpuHandle = std::shared_ptr<void>(raw, [](void *h) { dlclose(h); });
  functions->cpuBackendInit =
      reinterpret_cast<void *(*)()>(dlsym(raw, "ggml_backend_cpu_init"));
  functions->cpuBackendSetThreads = reinterpret_cast<void (*)(void *, int)>(
      dlsym(raw, "ggml_backend_cpu_set_n_threads"));
  if (!functions->cpuBackendInit || !functions->cpuBackendSetThreads) {
    error =
        path +
        " defines no ggml_backend_cpu_init or ggml_backend_cpu_set_n_threads";
    return false;
  }
  cpuVariant = chosen;
  return true;
}

std::unique_ptr<GgmlMatmul> GgmlMatmul::create(const GgmlLibrary &library,
                                               uint32_t typeId, int64_t rows,
                                               int64_t depth, int64_t tokens,
                                               size_t copies, int threads,
                                               std::string &error) {
  const GgmlLibrary::Functions &f = *library.functions;
  if (!f.cpuBackendInit) {
    error = "ggml's CPU backend is not loaded";
    return nullptr;
  }
  std::unique_ptr<GgmlMatmul> matmul(new GgmlMatmul());
  matmul->library = &library;
  // The backend keeps its work buffer (x converted to the type's
  // dot-product partner) from call to call.
  matmul->backend = f.cpuBackendInit();
  if (!matmul->backend) {
    error = "ggml_backend_cpu_init failed";
    return nullptr;
  }
  f.cpuBackendSetThreads(matmul->backend, threads);
  matmul->weightBytes = f.rowSize(int(typeId), depth) * uint64_t(rows);
  // W, x, y and the graph.
  size_t memory =
      matmul->weightBytes +
      2 * sizeof(float) * size_t(tokens) * size_t(std::max(depth, rows)) +
      f.graphOverhead() + 8 * f.tensorOverhead() + (1 << 20);
  constexpr int kF32 = 0;
  for (size_t index = 0; index < copies; ++index) {
    Copy copy{};
    copy.context = f.init(InitParams{memory, nullptr, false});
    if (!copy.context) {
      error = "ggml_init could not allocate " + std::to_string(memory >> 20) +
              " MiB";
      return nullptr;
    }
    matmul->copies.push_back(copy);
    Copy &made = matmul->copies.back();
    made.weights = f.newTensor2d(made.context, int(typeId), depth, rows);
    made.activation = f.newTensor2d(made.context, kF32, depth, tokens);
    made.result = f.mulMat(made.context, made.weights, made.activation);
    made.graph = f.newGraph(made.context);
    f.buildForwardExpand(made.graph, made.result);
  }
  return matmul;
}

GgmlMatmul::~GgmlMatmul() {
  for (Copy &copy : copies)
    library->functions->free(copy.context);
  if (backend)
    library->functions->backendFree(backend);
}

void *GgmlMatmul::getWeights(size_t index) {
  return library->functions->getData(copies[index].weights);
}
float *GgmlMatmul::getActivation(size_t index) {
  return static_cast<float *>(
      library->functions->getData(copies[index].activation));
}
const float *GgmlMatmul::getResult(size_t index) const {
  return static_cast<const float *>(
      library->functions->getData(copies[index].result));
}
bool GgmlMatmul::run(size_t index) {
  // GGML_STATUS_SUCCESS is 0.
  return library->functions->backendGraphCompute(backend,
                                                 copies[index].graph) == 0;
}
