//===- ParallelCodegen.h - -O3 and machine code on every core ---*- C++ -*-===//
//
// LLVM optimizes and generates machine code one function after another; a
// whole layer's or model's kernels are independent, so qforge-compile
// splits the translated module into partitions -- each public function with
// the local functions and data that only it reaches (a kernel with its
// OpenMP bodies) -- and runs LLVM's -O3 pipeline and code generation on each
// partition on a thread of its own, with its own LLVMContext and
// TargetMachine (neither is thread-safe), then joins the objects into one
// with `ld.lld -r`. There may be more partitions than threads: the threads
// take them largest first, and the small ones fill the gaps the large ones
// leave (a dynamic-M layer's pack functions beside its kernels). A kernel calls
// no other partition's function, so its -O3 and its machine code are those of
// the module in one piece; the code around the kernels no longer sees its
// callees' bodies (a dynamic-M layer's public function: 8,400 instructions
// instead of 7,700). The loop-free glue that LLVM leaves unoptimized (optnone:
// a model's chain of layer calls, thousands of descriptor arguments) gets its
// own partitions at -O0
// -- FastISel and the fast register allocator, which is what optnone asks
// for and what the module-wide -O3 pipeline does not give it (greedy
// allocation of 5,000 values live across one call took most of a 32-layer
// model's code generation).
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_PARALLELCODEGEN_H
#define QFORGE_DRIVER_PARALLELCODEGEN_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace qforge {

struct TargetChoice;

/// Modules with fewer instructions (before -O3) are optimized and generated
/// in one piece: splitting and joining (bitcode, one more target machine
/// per part, `ld.lld -r`) costs about 25 ms, which one kernel and its C
/// wrapper do not win back (the seed kernel, 969 instructions: 0.065 s in
/// one piece, 0.089 in two; Zen 1, 2 cores). A layer's kernels do, since
/// each part also runs its own -O3: a static decoder layer, 3,798
/// instructions, 0.21 -> 0.16 s; 32 layers, 6,695, 0.30 -> 0.18 s; a 4-bit
/// integer prefill and its pack function, 2,910, 0.28 -> 0.21 s. (The
/// threshold was 10,000 when the module was optimized whole before the
/// split, which then only parallelized code generation.)
inline constexpr unsigned kSmallestSplitModule = 2000;

/// Generates the relocatable object of `module` (LLVM IR whose functions
/// carry their target-cpu and target-features; with `optimize`, not yet
/// optimized: each part runs LLVM's -O3 pipeline, optimizeModule, on its
/// thread -- a kernel's IPO sees only its own part, whose functions call no
/// other part's but through declarations) into `object`, on
/// up to `threads` threads (0: one per core). A module of fewer than
/// `smallestSplit` instructions (a layer), a single kernel or one thread is
/// generated in one piece, in this thread. False,
/// with `error`, when a target machine cannot be made or the partitions
/// cannot be joined.
/// `partitions`, when given, receives the number of partitions generated
/// (1: in one piece).
bool emitObjectInParallel(llvm::Module &module, const TargetChoice &target,
                          unsigned threads, unsigned smallestSplit,
                          bool optimize, llvm::SmallVectorImpl<char> &object,
                          std::string &error, unsigned *partitions = nullptr);

} // namespace qforge

#endif // QFORGE_DRIVER_PARALLELCODEGEN_H
