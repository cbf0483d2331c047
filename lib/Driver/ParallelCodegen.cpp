//===- ParallelCodegen.cpp - machine code on every core -------------------===//

#include "Driver/ParallelCodegen.h"
#include "Driver/Target.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

using namespace llvm;

namespace {

/// What a partition holds, and so how its machine code is generated.
enum class PartKind {
  /// Kernels (and whatever else a group holds): -O3.
  Optimized,
  /// Only functions optimized for size (the code around the kernels: a
  /// dynamic M's token dispatch and the elementwise ops between the
  /// matmuls, the pack functions): -O3's IR pipeline, then machine code at
  /// CodeGenOptLevel::Less.
  SizeOptimized,
  /// Only optnone functions (glue: a model's chain of calls): -O0.
  Glue,
};

/// Functions whose machine code one thread generates.
struct Partition {
  SmallVector<const Function *> functions;
  uint64_t instructions = 0;
  PartKind kind = PartKind::Optimized;
};

} // namespace

/// Visits each constant reachable from `work` through constant operands,
/// once, without entering global values and block addresses (whose operands
/// are not constants); stops, returning false, when `visit` does.
static bool walkConstants(SmallVector<const Constant *> work,
                          function_ref<bool(const Constant *)> visit) {
  SmallPtrSet<const Constant *, 32> seen;
  while (!work.empty()) {
    const Constant *constant = work.pop_back_val();
    if (!seen.insert(constant).second)
      continue;
    if (!visit(constant))
      return false;
    if (isa<GlobalValue, BlockAddress>(constant))
      continue;
    for (const Use &operand : constant->operands())
      work.push_back(cast<Constant>(operand.get()));
  }
  return true;
}

/// The global values `function` references, through constant expressions;
/// false when it takes a block's address (which a split cannot keep apart
/// from its function).
static bool collectReferences(const Function &function,
                              SmallPtrSetImpl<const GlobalValue *> &result) {
  SmallVector<const Constant *> operands;
  for (const BasicBlock &block : function)
    for (const Instruction &instruction : block)
      for (const Use &operand : instruction.operands())
        if (auto *constant = dyn_cast<Constant>(operand.get()))
          operands.push_back(constant);
  return walkConstants(std::move(operands), [&](const Constant *constant) {
    if (isa<BlockAddress>(constant))
      return false;
    if (auto *global = dyn_cast<GlobalValue>(constant))
      result.insert(global);
    return true;
  });
}

/// Whether a global initializer reaches a function (a table of function
/// pointers), a local variable that is written (its users would have to be
/// found through the initializer) or a block's address: the module is then
/// not split.
static bool initializerReachesCode(const GlobalVariable &variable) {
  if (!variable.hasInitializer())
    return false;
  return !walkConstants(
      {variable.getInitializer()}, [&](const Constant *constant) {
        if (isa<Function, BlockAddress>(constant))
          return false;
        auto *other = dyn_cast<GlobalVariable>(constant);
        return !other || other == &variable || !other->hasLocalLinkage() ||
               other->isConstant();
      });
}

/// Cost of a partition's optimization and code generation, in units of an
/// optnone glue instruction at -O0 (GlobalISel): an instruction before -O3
/// costs about 5.5 of those (Zen 5: a decoder layer's kernels, ~3,800
/// instructions, 0.15 s; a 32-layer model's public function, ~12,000, 0.09
/// s).
static uint64_t estimateCost(const Partition &part) {
  // Code optimized for size costs about what kernels do per instruction: a
  // dynamic-M layer's token dispatch, ~2,000 instructions, 0.27 s at
  // CodeGenOptLevel::Less (0.39 s at -O3).
  constexpr uint64_t kOptimizedCost = 11, kGlueCost = 2;
  return part.instructions *
         (part.kind == PartKind::Glue ? kGlueCost : kOptimizedCost);
}

/// What a partition costs whatever it holds, in the units of estimateCost:
/// its thread reads the module's bitcode (lazily), makes a target machine
/// and writes an object that the join reads (Zen 1: a partition of one
/// small function, ~10 ms).
constexpr uint64_t kPartitionCost = 2000;

/// The -O3 partitions tried are at most this many per thread: more, smaller
/// ones fill the threads evenly around the partitions kept apart (a
/// dynamic-M layer: two -O3 halves of 0.45 s and the pack functions' 0.29 s
/// took 0.74 s on two threads, for 1.2 s of work).
constexpr size_t kMostPartitionsPerThread = 4;

/// When the last of `parts` would finish on `threads` threads that take
/// them largest first, each the next free thread.
static uint64_t estimateTime(const std::vector<Partition> &parts,
                             unsigned threads) {
  SmallVector<uint64_t> costs;
  for (const Partition &part : parts)
    costs.push_back(estimateCost(part) + kPartitionCost);
  llvm::sort(costs, std::greater<uint64_t>());
  SmallVector<uint64_t> busyUntil(std::max(1u, threads), 0);
  for (uint64_t cost : costs)
    *std::min_element(busyUntil.begin(), busyUntil.end()) += cost;
  return *std::max_element(busyUntil.begin(), busyUntil.end());
}

/// The partitions of `module`'s functions: at most `threads` at -O3, each
/// group of optnone glue apart, and what is optimized for size in one; a single
/// partition for a module of fewer than `smallestSplit` instructions, or one
/// that holds what a split would have to rewrite (aliases, comdats, appending
/// globals such as llvm.global_ctors, function pointers in data).
static std::vector<Partition> partitionFunctions(const Module &module,
                                                 unsigned threads,
                                                 unsigned smallestSplit) {
  std::vector<Partition> whole(1);
  for (const Function &function : module)
    if (!function.isDeclaration())
      whole.front().functions.push_back(&function);
  if (!module.alias_empty() || !module.ifunc_empty() ||
      !module.getComdatSymbolTable().empty() || threads < 2 ||
      module.getInstructionCount() < smallestSplit ||
      !sys::fs::can_execute(QFORGE_LLD_PATH))
    return whole;
  for (const GlobalVariable &variable : module.globals())
    if (variable.hasAppendingLinkage() || initializerReachesCode(variable))
      return whole;

  // A function, the local functions it references (a kernel's OpenMP
  // bodies) and the functions that share a local variable with it are one
  // group; local constants are copied into each partition that reads them.
  EquivalenceClasses<const Function *> groups;
  DenseMap<const GlobalVariable *, const Function *> firstWriter;
  for (const Function *function : whole.front().functions) {
    groups.insert(function);
    SmallPtrSet<const GlobalValue *, 16> references;
    if (!collectReferences(*function, references))
      return whole;
    for (const GlobalValue *global : references) {
      if (!global->hasLocalLinkage())
        continue;
      if (auto *callee = dyn_cast<Function>(global)) {
        if (!callee->isDeclaration())
          groups.unionSets(function, callee);
      } else if (auto *variable = dyn_cast<GlobalVariable>(global)) {
        if (variable->isConstant())
          continue;
        auto [entry, inserted] = firstWriter.try_emplace(variable, function);
        if (!inserted)
          groups.unionSets(function, entry->second);
      }
    }
  }
  // Groups in module order (deterministic output), with their sizes.
  std::vector<Partition> grouped;
  DenseMap<const Function *, size_t> groupOfLeader;
  for (const Function *function : whole.front().functions) {
    const Function *leader = groups.getLeaderValue(function);
    auto [entry, inserted] = groupOfLeader.try_emplace(leader, grouped.size());
    if (inserted)
      grouped.emplace_back();
    Partition &group = grouped[entry->second];
    PartKind kind = function->hasOptNone()   ? PartKind::Glue
                    : function->hasOptSize() ? PartKind::SizeOptimized
                                             : PartKind::Optimized;
    // A group is glue if all its functions are, optimized for size if all
    // are that or glue, otherwise optimized.
    group.kind = group.functions.empty() ? kind : std::min(group.kind, kind);
    group.functions.push_back(function);
    group.instructions += function->getInstructionCount();
  }

  // Each glue group its own partition (a model's public function and its
  // C-interface wrapper: each a few thousand descriptor arguments); the
  // groups optimized for size together in one; the rest by size, each
  // group to the partition with the fewest instructions so far.
  std::vector<Partition> apart;
  Partition sizeOptimized;
  sizeOptimized.kind = PartKind::SizeOptimized;
  std::vector<Partition *> rest;
  for (Partition &group : grouped) {
    if (group.kind == PartKind::Glue) {
      apart.push_back(group);
    } else if (group.kind == PartKind::SizeOptimized) {
      sizeOptimized.functions.append(group.functions);
      sizeOptimized.instructions += group.instructions;
    } else {
      rest.push_back(&group);
    }
  }
  if (!sizeOptimized.functions.empty())
    apart.push_back(std::move(sizeOptimized));
  // Largest first; equal sizes in module order (`grouped` is).
  llvm::sort(rest, [](Partition *a, Partition *b) {
    return a->instructions != b->instructions
               ? a->instructions > b->instructions
               : a < b;
  });
  // As many -O3 partitions as give the shortest estimated time with those
  // apart, fewer on a tie (each costs a target machine and its share of
  // the join): a 32-layer model's glue takes a thread of its own about as
  // long as its kernels take together. There may be more partitions than
  // threads: the threads take them largest first (below), so that smaller
  // ones fill the gaps the others leave.
  auto splitKernels = [&](size_t count) {
    std::vector<Partition> parts(count);
    for (Partition *group : rest) {
      Partition &smallest =
          *std::min_element(parts.begin(), parts.end(),
                            [](const Partition &a, const Partition &b) {
                              return a.instructions < b.instructions;
                            });
      smallest.functions.append(group->functions);
      smallest.instructions += group->instructions;
    }
    return parts;
  };
  std::vector<Partition> result;
  uint64_t bestTime = std::numeric_limits<uint64_t>::max();
  for (size_t count = 1;
       count <=
       std::min<size_t>(kMostPartitionsPerThread * threads, rest.size());
       ++count) {
    std::vector<Partition> parts = splitKernels(count);
    parts.insert(parts.end(), apart.begin(), apart.end());
    uint64_t time = estimateTime(parts, threads);
    if (time < bestTime) {
      bestTime = time;
      result = std::move(parts);
    }
  }
  if (result.empty())
    result = apart;
  if (result.size() < 2)
    return whole;
  // Largest first, as estimateTime assumes: the thread pool starts them in
  // this order, each on the next free thread. Equal costs keep their order.
  SmallVector<std::pair<uint64_t, size_t>> order;
  for (auto [index, part] : llvm::enumerate(result))
    order.push_back({estimateCost(part), index});
  llvm::sort(order, [](auto a, auto b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<Partition> sorted;
  for (auto [cost, index] : order)
    sorted.push_back(std::move(result[index]));
  return sorted;
}

/// Keeps in `module` (a copy of the whole, read lazily from bitcode, with
/// the bodies of the functions named in `own` read) the definitions of
/// those functions only: the others become declarations without their
/// bodies ever being read, global variables not local are defined by the
/// first partition only, and local data nobody reads any more is dropped.
/// The copy keeps the order of its values' uses (the bitcode preserved it):
/// code generation reads it, and a partition's kernels are then compiled
/// exactly as in one piece (the objects of the shipped strategies' kernels
/// and models compared equal, before and after reading lazily).
static void keepOnly(Module &module, const StringSet<> &own, bool first) {
  for (Function &function : module)
    if (!function.isDeclaration() && !own.contains(function.getName()))
      function.deleteBody();
  if (!first)
    for (GlobalVariable &variable : module.globals())
      if (!variable.hasLocalLinkage() && variable.hasInitializer()) {
        variable.setInitializer(nullptr);
        variable.setLinkage(GlobalValue::ExternalLinkage);
      }
  for (bool erased = true; erased;) {
    erased = false;
    for (GlobalVariable &variable : make_early_inc_range(module.globals())) {
      if (variable.hasLocalLinkage() && variable.use_empty()) {
        variable.eraseFromParent();
        erased = true;
      }
    }
  }
}

/// Runs `ld.lld -r` on `objects`, into `joined`.
static bool joinObjects(ArrayRef<SmallVector<char, 0>> objects,
                        SmallVectorImpl<char> &joined, std::string &error) {
  std::vector<std::string> paths;
  std::vector<FileRemover> removers;
  removers.reserve(objects.size() + 1);
  auto temporary = [&](std::string &path) {
    SmallString<128> name;
    if (sys::fs::createTemporaryFile("qforge-part", "o", name)) {
      error = "cannot create a temporary object file";
      return false;
    }
    path = name.str().str();
    removers.emplace_back(path);
    return true;
  };
  for (const SmallVector<char, 0> &object : objects) {
    std::string path;
    if (!temporary(path))
      return false;
    std::error_code code;
    raw_fd_ostream out(path, code);
    if (code) {
      error = "cannot write " + path + ": " + code.message();
      return false;
    }
    out.write(object.data(), object.size());
    out.close();
    if (out.has_error()) {
      error = "cannot write " + path + ": " + out.error().message();
      out.clear_error();
      return false;
    }
    paths.push_back(path);
  }
  std::string output;
  if (!temporary(output))
    return false;
  std::string lld = QFORGE_LLD_PATH;
  SmallVector<StringRef> arguments = {lld, "-r", "-o", output};
  arguments.append(paths.begin(), paths.end());
  std::string message;
  int status =
      sys::ExecuteAndWait(lld, arguments, std::nullopt, {}, 0, 0, &message);
  if (status != 0) {
    error = "joining the partitions' objects with " + lld + " failed" +
            (message.empty() ? "" : ": " + message);
    return false;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(output, /*IsText=*/false);
  if (!buffer) {
    error = "cannot read " + output + ": " + buffer.getError().message();
    return false;
  }
  joined.assign((*buffer)->getBufferStart(), (*buffer)->getBufferEnd());
  return true;
}

bool qforge::emitObjectInParallel(Module &module, const TargetChoice &target,
                                  unsigned threads, unsigned smallestSplit,
                                  bool optimize, SmallVectorImpl<char> &object,
                                  std::string &error, unsigned *partitions) {
  std::vector<Partition> parts = partitionFunctions(
      module, hardware_concurrency(threads).compute_thread_count(),
      smallestSplit);
  if (partitions)
    *partitions = parts.size();
  if (parts.size() == 1) {
    std::unique_ptr<TargetMachine> machine = createTargetMachine(target, error);
    if (!machine)
      return false;
    if (optimize)
      optimizeModule(module, *machine);
    raw_svector_ostream out(object);
    return emitMachineCode(module, *machine, /*assembly=*/false, out, error);
  }

  // The machines and the bitcode here (the module's context is this
  // thread's); each thread reads the whole module into its own context and
  // keeps its partition.
  SmallVector<char, 0> bitcode;
  {
    raw_svector_ostream out(bitcode);
    WriteBitcodeToFile(module, out, /*ShouldPreserveUseListOrder=*/true);
  }
  struct Job {
    std::unique_ptr<TargetMachine> machine;
    StringSet<> functions;
    bool first = false;
    SmallVector<char, 0> object;
    std::string error;
  };
  std::vector<Job> jobs(parts.size());
  for (auto [index, part] : llvm::enumerate(parts)) {
    Job &job = jobs[index];
    job.machine = createTargetMachine(target, error);
    if (!job.machine)
      return false;
    if (part.kind == PartKind::SizeOptimized)
      job.machine->setOptLevel(CodeGenOptLevel::Less);
    if (part.kind == PartKind::Glue) {
      job.machine->setOptLevel(CodeGenOptLevel::None);
      // The glue of a whole model is one block of thousands of calls and
      // descriptor fields: SelectionDAG builds and schedules it as one DAG
      // (0.50 s for a 32-layer model's public function), GlobalISel
      // translates it in one pass (0.21 s). A function GlobalISel cannot
      // translate falls back to SelectionDAG.
      job.machine->setGlobalISel(true);
      job.machine->setGlobalISelAbort(GlobalISelAbortMode::Disable);
    }
    for (const Function *function : part.functions)
      job.functions.insert(function->getName());
    job.first = index == 0;
  }
  {
    DefaultThreadPool pool(hardware_concurrency(threads));
    for (Job &job : jobs) {
      pool.async([&job, &bitcode, optimize] {
        LLVMContext context;
        // Lazily: only the partition's function bodies are read.
        Expected<std::unique_ptr<Module>> partModule = getLazyBitcodeModule(
            MemoryBufferRef(StringRef(bitcode.data(), bitcode.size()),
                            "module"),
            context);
        if (!partModule) {
          job.error = toString(partModule.takeError());
          return;
        }
        for (Function &function : **partModule)
          if (job.functions.contains(function.getName()))
            if (Error error = function.materialize()) {
              job.error = toString(std::move(error));
              return;
            }
        keepOnly(**partModule, job.functions, job.first);
        if (Error error = (*partModule)->materializeAll()) {
          job.error = toString(std::move(error));
          return;
        }
        if (optimize)
          optimizeModule(**partModule, *job.machine);
        raw_svector_ostream out(job.object);
        legacy::PassManager passes;
        if (job.machine->addPassesToEmitFile(passes, out, nullptr,
                                             CodeGenFileType::ObjectFile)) {
          job.error = "the target cannot emit an object file";
          return;
        }
        passes.run(**partModule);
      });
    }
    pool.wait();
  }
  SmallVector<SmallVector<char, 0>> objects;
  for (Job &job : jobs) {
    if (!job.error.empty()) {
      error = "generating a partition's machine code failed: " + job.error;
      return false;
    }
    objects.push_back(std::move(job.object));
  }
  return joinObjects(objects, object, error);
}
