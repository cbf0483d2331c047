//===- FoldUnitDims.h - fold unit dims, keeping a kernel's ------*- C++ -*-===//
//
// Upstream's linalg-fold-unit-extent-dims, except that a linalg.generic may
// name the loop dims it lets go (kFoldableUnitDimsAttrName): only those of
// its unit dims are folded, the others stay whatever their extent. The
// factored packed contraction (FactorPackedDequantContraction.h) names its
// row tiles (tiled by one) and the activation's unit dims (a decode's one
// token, a batch of one) but not the dims a micro-kernel tiles: its token
// blocks, groups, k steps and rows. Folding every unit dim, as the pass
// does, took those along when the kernel itself has only one of them (M <= 8
// tokens, one group, groups of <= 8 nibbles, one weight row), and the
// scripts' later steps found nothing to tile.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_FOLDUNITDIMS_H
#define QFORGE_REWRITES_FOLDUNITDIMS_H

#include "mlir/IR/PatternMatch.h"

namespace qforge {

/// A linalg.generic's loop dims (array<i64>) that the unit-dim fold may
/// drop; consumed (removed) by foldUnitExtentDims.
inline constexpr llvm::StringLiteral kFoldableUnitDimsAttrName =
    "qforge.foldable_unit_dims";

/// Folds the unit dims of the linalg.generics in `root` (all of them, or
/// those its kFoldableUnitDimsAttrName names) and of tensor.pads, with
/// reshapes at their boundaries, then simplifies those as the upstream pass
/// does; removes kFoldableUnitDimsAttrName from every op it was on. Ops in
/// `root` are replaced: no listener is told (handles to them must go).
void foldUnitExtentDims(mlir::Operation *root);

} // namespace qforge

#endif // QFORGE_REWRITES_FOLDUNITDIMS_H
