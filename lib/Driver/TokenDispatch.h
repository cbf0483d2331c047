//===- TokenDispatch.h - a quantized matmul with a run-time token count -*-===//
//
// Exported prefill graphs leave the token count M dynamic
// (`tensor<1x?x4096xf32>`). The strategies tile and vectorize static
// shapes, so a matmul whose M is dynamic is compiled as several static
// specializations of its outlined function -- M = 1 (the decode path) and
// a few batched chunk sizes -- and the function itself becomes a dispatcher
// that runs, at run time, row chunks of the activation through them: the
// largest chunks first, the last rows one at a time through the decode path
// or padded with zero rows into the smallest chunk, or the smaller chunk for
// the last rows only, that holds them (docs/scripts.md).
// Rows are independent in a matmul, so any split gives the same result.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_TOKENDISPATCH_H
#define QFORGE_DRIVER_TOKENDISPATCH_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace qforge {

/// Which dim of each argument and result of `function` is the token count:
/// the only dynamic dim of a tensor type (-1 for a fully static one).
/// Fails, with a diagnostic at `function`, when a tensor has more than one
/// dynamic dim or no argument has one; and at the op, when a
/// tensor.expand_shape gives a number for a dynamic dim of its result (the
/// verifier accepts it, but specializing it crashes upstream's folding).
struct TokenDims {
  llvm::SmallVector<int64_t> arguments, results;
};
mlir::FailureOr<TokenDims> findTokenDims(mlir::func::FuncOp function);

/// For each operand of `call`, whether it passes the token count: a
/// tensor.dim of a dynamic dim (the only kind there is) that other ops of
/// the caller share, so it stayed there when the matmul was outlined.
llvm::SmallVector<bool> findTokenCountArguments(mlir::func::CallOp call);

/// Whether `type` is a shaped type with a dynamic dim.
bool hasDynamicShape(mlir::Type type);

/// `type` with every dynamic dim (the token count) set to `tokens`; other
/// types as they are.
mlir::Type withTokenCount(mlir::Type type, int64_t tokens);

/// A private copy `name` of `function` with every dynamic dim set to
/// `tokens`: the body reads the arguments through tensor.casts to the
/// original types, and the index arguments marked in `tokenCountArguments`
/// (the caller passes the token count there, e.g. a tensor.dim it shares
/// with other ops) as the constant `tokens`, and is canonicalized until its
/// shapes are static. Fails, with a diagnostic, when a dynamic shape is
/// left (a dynamic dim that is not the token count).
mlir::FailureOr<mlir::func::FuncOp>
specializeTokenCount(mlir::func::FuncOp function, int64_t tokens,
                     llvm::StringRef name,
                     llvm::ArrayRef<bool> tokenCountArguments);

/// One static specialization the dispatcher can call.
struct TokenPath {
  int64_t tokens;
  mlir::func::FuncOp function;
};

/// Replaces the body of `function` by the dispatch over `chunks` (batched
/// specializations, any order; may be empty), `remainders` (smaller batched
/// specializations, any order, only for the rows the chunks leave; may be
/// empty) and `single` (M = 1): rows in chunks of the largest size while
/// they last -- and, with `padNearlyFullChunks`, when the rows left fill
/// one more to within both the smallest chunk and an eighth of its size,
/// those padded into it, which ends the dispatch -- then of the next; then
/// the remaining rows one at a time through `single` when there are at most
/// `rowsBySingle` of them, else padded with zero rows into the smallest
/// chunk or remainder that holds them. The function takes `argumentTypes`
/// (the specializations' types where they are static, e.g. packed
/// parameters; the token dims stay dynamic). With `intoDestinations`, it
/// also takes, after those, one writable destination per result with the
/// token dim, writes that result into it and returns it (a function that
/// stays a function, called from several sites: passDestinations at each
/// call); without, it creates its results.
void buildTokenDispatch(mlir::func::FuncOp function, const TokenDims &dims,
                        llvm::ArrayRef<TokenPath> chunks,
                        llvm::ArrayRef<TokenPath> remainders, TokenPath single,
                        int64_t rowsBySingle, bool padNearlyFullChunks,
                        llvm::ArrayRef<mlir::Type> argumentTypes,
                        bool intoDestinations = false);

/// Appends to `call` of a dispatcher built `intoDestinations` (its other
/// operands in place) an empty tensor per result with the token dim, its
/// rows the token count of the call's operands (`dims`, the dispatcher's).
void passDestinations(mlir::func::CallOp call, const TokenDims &dims);

} // namespace qforge

#endif // QFORGE_DRIVER_TOKENDISPATCH_H
