//===- Surgery.h - the driver's IR surgery, as functions and passes -*- C++
//-*-===//
//
// What the driver does to a module around the strategies, each step a
// function the driver calls, one per file, and where the IR before and after
// verifies a pass that qforge-opt runs and lit tests: outline each quantized
// matmul into its own function, specialize a dynamic token count, build the
// token dispatch, vectorize
// the elementwise ops around the matmuls; and lift a strategy's parameter
// packing into the kernel's <f>_pack_weights (no pass: the IR between a
// script and it does not verify).
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_SURGERY_H
#define QFORGE_DRIVER_SURGERY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Pass/Pass.h"

#include <memory>
#include <optional>

namespace qforge {

/// A quantized matmul moved into its own function, and the call to it.
struct Outlined {
  mlir::func::FuncOp function;
  mlir::func::CallOp call;
};

/// Moves the contraction, its dequantization and the fills, empties, dims (a
/// dynamic token count's) and reshapes (a normalized form's N x G ->
/// N x G x 1) only they use into a private function `name` placed after the
/// parent; the contraction's result becomes the call's. Constants are cloned
/// in, every other value the ops read becomes an argument.
Outlined outlineQuantizedMatmul(mlir::linalg::GenericOp contraction,
                                llvm::StringRef name);

/// A strategy's parameter packing split off an outlined matmul
/// (split_parameter_packing): its `<matmul>_pack_weights` and the matmul's
/// argument positions it packs.
struct ParameterPacking {
  mlir::func::FuncOp function;
  llvm::SmallVector<int64_t> positions;
};

/// The packing a strategy split off `outlined`, if any, taken from it: the
/// pack function becomes private, an internal step of the parents' packing
/// (liftParameterPacking, once per call of `outlined`).
std::optional<ParameterPacking>
takeParameterPacking(mlir::func::FuncOp outlined);

/// For one call of a matmul whose packing is `packing`: the calling function
/// takes the packed tensors where it took the raw ones, and its own
/// `<parent>_pack_weights` (created on first use, public) calls the
/// matmul's. Each packed argument must be an argument of the parent that
/// only this matmul reads (a diagnostic at the call otherwise).
mlir::LogicalResult liftParameterPacking(const ParameterPacking &packing,
                                         mlir::func::CallOp call);

/// The default for what is not a quantized matmul: every all-parallel
/// linalg op (silu, products, fills, bias adds) whose innermost dim is
/// static is tiled to rows of at most 64 elements along it (a divisor, so
/// no partial tile) and 1 along the others -- a dynamic token count among
/// them -- and vectorized, instead of becoming scalar loops.
void vectorizeElementwiseOps(mlir::func::FuncOp function);

/// Whether `a` and `b` compute the same, their names aside: the same types,
/// attributes and bodies op by op (locations aside).
bool areIdenticalFunctions(mlir::func::FuncOp a, mlir::func::FuncOp b);

/// Keeps one of the private functions of `module` that are identical but
/// for their names (types, attributes, bodies op by op); the others' uses
/// name it (qforge-merge-identical-functions).
mlir::LogicalResult mergeIdenticalFunctions(mlir::ModuleOp module);
std::unique_ptr<mlir::Pass> createMergeIdenticalFunctionsPass();

/// qforge-convert-cf-to-llvm: convert-cf-to-llvm with the functions'
/// branches lowered in parallel (ConvertControlFlowToLLVM.cpp).
std::unique_ptr<mlir::Pass> createConvertControlFlowToLLVMPass();

/// qforge-outline-quantized-matmuls: each quantized matmul of a function
/// into `@<function>_qmm<i>`.
std::unique_ptr<mlir::Pass> createOutlineQuantizedMatmulsPass();
/// qforge-vectorize-elementwise: vectorizeElementwiseOps on every function
/// that holds no quantized matmul and packs no weights.
std::unique_ptr<mlir::Pass> createVectorizeElementwisePass();
/// qforge-specialize-token-count{sizes=1,8,32}: for each function with a
/// dynamic token count, private static copies `<function>_m<size>`.
std::unique_ptr<mlir::Pass> createSpecializeTokenCountPass();

/// qforge-build-token-dispatch{chunks=... remainders=... rows-by-decode=N
/// pad-nearly-full-chunks}: each such function's body replaced by the
/// dispatch to its specializations (Driver/TokenDispatch.h).
std::unique_ptr<mlir::Pass> createBuildTokenDispatchPass();

/// Registers the passes above (qforge-opt and the tools' pipelines).
void registerSurgeryPasses();

} // namespace qforge

#endif // QFORGE_DRIVER_SURGERY_H
