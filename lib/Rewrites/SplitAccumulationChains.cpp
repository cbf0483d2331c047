//===- SplitAccumulationChains.cpp - independent partial sums -------------===//

#include "Rewrites/SplitAccumulationChains.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

/// The partial sums added pairwise, level by level (((0 + 1) + (2 + 3))
/// for four): log2 of their count deep.
static Value sumAsBalancedTree(SmallVector<Value> partials,
                               function_ref<Value(Value, Value)> add) {
  while (partials.size() > 1) {
    SmallVector<Value> sums;
    for (unsigned i = 0; i + 1 < partials.size(); i += 2)
      sums.push_back(add(partials[i], partials[i + 1]));
    if (partials.size() % 2)
      sums.push_back(partials.back());
    partials = std::move(sums);
  }
  return partials.front();
}

/// The operand of `add` that is the previous link of its chain: a vector add
/// in the same block whose only use is `add` (the left one if both are).
static Value previousLink(arith::AddFOp add) {
  for (Value operand : {add.getLhs(), add.getRhs()}) {
    auto producer = operand.getDefiningOp<arith::AddFOp>();
    if (producer && producer->getBlock() == add->getBlock() &&
        operand.hasOneUse() && isa<VectorType>(operand.getType()))
      return operand;
  }
  return {};
}

/// Whether `add` is the last link of its chain: its result is not the
/// previous link of another add.
static bool isLastLink(arith::AddFOp add) {
  if (!add.getResult().hasOneUse())
    return true;
  auto user = dyn_cast<arith::AddFOp>(*add->getUsers().begin());
  return !user || previousLink(user) != add.getResult();
}

SmallVector<qforge::AccumulationChain>
qforge::findVectorAccumulationChains(Operation *root) {
  SmallVector<AccumulationChain> chains;
  root->walk([&](arith::AddFOp last) {
    if (!isa<VectorType>(last.getType()) || !isLastLink(last))
      return;
    AccumulationChain chain;
    arith::AddFOp link = last;
    while (Value previous = previousLink(link)) {
      chain.links.push_back(link);
      link = previous.getDefiningOp<arith::AddFOp>();
    }
    chain.links.push_back(link);
    std::reverse(chain.links.begin(), chain.links.end());
    if (chain.links.size() > 1)
      chains.push_back(std::move(chain));
  });
  return chains;
}

unsigned qforge::splitAccumulationChain(RewriterBase &rewriter,
                                        const AccumulationChain &chain,
                                        unsigned chains) {
  unsigned count = std::min<unsigned>(chains, chain.links.size() / 2);
  if (count < 2)
    return 1;
  arith::AddFOp last = chain.links.back();
  arith::FastMathFlagsAttr flags = last.getFastmathAttr();
  Location loc = last.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(last);
  // Partial sum 0 starts from the first link; term i goes to partial sum
  // (i + 1) mod count, so the first count - 1 terms start the others.
  SmallVector<Value> terms;
  for (auto [previous, link] :
       llvm::zip(chain.links, ArrayRef(chain.links).drop_front())) {
    Value accumulator = arith::AddFOp(previous).getResult();
    arith::AddFOp add = link;
    terms.push_back(add.getLhs() == accumulator ? add.getRhs() : add.getLhs());
  }
  SmallVector<Value> partials(count);
  partials[0] = arith::AddFOp(chain.links.front()).getResult();
  for (auto [index, term] : llvm::enumerate(terms)) {
    Value &partial = partials[(index + 1) % count];
    partial = partial
                  ? arith::AddFOp::create(rewriter, loc, partial, term, flags)
                  : term;
  }
  Value sum = sumAsBalancedTree(partials, [&](Value lhs, Value rhs) -> Value {
    return arith::AddFOp::create(rewriter, loc, lhs, rhs, flags);
  });
  rewriter.replaceAllUsesWith(last.getResult(), sum);
  // The old links, last first (each was the only user of the one before).
  for (arith::AddFOp link : llvm::reverse(ArrayRef(chain.links).drop_front()))
    rewriter.eraseOp(link);
  return count;
}

/// Whether `reduction` may be a link of an integer chain: an unmasked sum
/// on integers.
static bool isIntegerSum(vector::MultiDimReductionOp reduction) {
  return reduction.getKind() == vector::CombiningKind::ADD &&
         isa<IntegerType>(getElementTypeOrSelf(reduction.getDestType())) &&
         !isa<vector::MaskOp>(reduction->getParentOp());
}

/// The link before `reduction`: its accumulator, when that is an integer
/// sum in the same block whose only use is `reduction`.
static vector::MultiDimReductionOp
previousReduction(vector::MultiDimReductionOp reduction) {
  Value acc = reduction.getAcc();
  auto producer = acc.getDefiningOp<vector::MultiDimReductionOp>();
  if (producer && isIntegerSum(producer) &&
      producer->getBlock() == reduction->getBlock() && acc.hasOneUse())
    return producer;
  return {};
}

SmallVector<qforge::ReductionChain>
qforge::findIntegerReductionChains(Operation *root) {
  SmallVector<ReductionChain> chains;
  root->walk([&](vector::MultiDimReductionOp last) {
    if (!isIntegerSum(last))
      return;
    // Not the last link when its only user continues the chain.
    if (last.getResult().hasOneUse())
      if (auto user =
              dyn_cast<vector::MultiDimReductionOp>(*last->getUsers().begin()))
        if (isIntegerSum(user) && previousReduction(user) == last)
          return;
    ReductionChain chain;
    for (vector::MultiDimReductionOp link = last; link;
         link = previousReduction(link))
      chain.links.push_back(link);
    std::reverse(chain.links.begin(), chain.links.end());
    if (chain.links.size() > 1)
      chains.push_back(std::move(chain));
  });
  return chains;
}

unsigned qforge::splitIntegerReductionChain(RewriterBase &rewriter,
                                            const ReductionChain &chain,
                                            unsigned chains) {
  unsigned count = std::min<unsigned>(chains, chain.links.size() / 2);
  if (count < 2)
    return 1;
  vector::MultiDimReductionOp last = chain.links.back();
  Location loc = last.getLoc();
  Type accType = last.getDestType();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(last);
  Value zero = arith::ConstantOp::create(
      rewriter, loc, cast<TypedAttr>(rewriter.getZeroAttr(accType)));
  // Partial sum 0 keeps the first link; link i goes to partial sum
  // i mod count, the others starting from zero.
  SmallVector<Value> partials(count);
  partials[0] = chain.links.front()->getResult(0);
  for (size_t index = 1; index < chain.links.size(); ++index) {
    vector::MultiDimReductionOp link = chain.links[index];
    Value &partial = partials[index % count];
    partial = vector::MultiDimReductionOp::create(
        rewriter, link.getLoc(), vector::CombiningKind::ADD, link.getSource(),
        partial ? partial : zero, link.getReductionDims());
  }
  Value sum = sumAsBalancedTree(partials, [&](Value lhs, Value rhs) -> Value {
    return arith::AddIOp::create(rewriter, loc, lhs, rhs);
  });
  rewriter.replaceAllUsesWith(last.getResult(), sum);
  for (vector::MultiDimReductionOp link :
       llvm::reverse(ArrayRef(chain.links).drop_front()))
    rewriter.eraseOp(link);
  return count;
}
