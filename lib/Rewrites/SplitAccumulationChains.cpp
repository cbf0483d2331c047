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

/// `value` through a reshape that keeps its element count and order
/// (elementwise sums do not see it), toward the value it was made from: an
/// extract at position 0 dropping unit dims (fromStart), a broadcast adding
/// unit dims (toward the chain's end), or either way a shape_cast or a
/// transpose that moves unit dims only. Null when `value` is not such a
/// reshape.
static Value sizePreservingReshapeSource(Value value, bool fromStart) {
  Operation *op = value.getDefiningOp();
  if (!op || !isa<VectorType>(value.getType()))
    return {};
  Value source;
  if (auto cast = dyn_cast<vector::ShapeCastOp>(op))
    source = cast.getSource();
  else if (auto transpose = dyn_cast<vector::TransposeOp>(op)) {
    // A transpose that moves unit dims only: the elements keep their order.
    ArrayRef<int64_t> sourceShape = transpose.getSourceVectorType().getShape();
    int64_t lastMoved = -1;
    bool inOrder = true;
    for (int64_t dim : transpose.getPermutation()) {
      if (sourceShape[dim] == 1)
        continue;
      inOrder &= dim > lastMoved;
      lastMoved = dim;
    }
    if (inOrder)
      source = transpose.getVector();
  } else if (auto extract = dyn_cast<vector::ExtractOp>(op);
             extract && fromStart) {
    if (!extract.getDynamicPosition().empty() ||
        llvm::any_of(extract.getStaticPosition(),
                     [](int64_t position) { return position != 0; }))
      return {};
    source = extract.getSource();
  } else if (auto broadcast = dyn_cast<vector::BroadcastOp>(op);
             broadcast && !fromStart) {
    source = broadcast.getSource();
  }
  auto sourceType = source ? dyn_cast<VectorType>(source.getType()) : nullptr;
  if (!sourceType || sourceType.getNumElements() !=
                         cast<VectorType>(value.getType()).getNumElements())
    return {};
  return source;
}

/// The only user of `value`, or null when it has none or several.
static Operation *soleUser(Value value) {
  return value.hasOneUse() ? *value.getUsers().begin() : nullptr;
}

/// Moves `value` forward through the reshapes that are its sole users (see
/// sizePreservingReshapeSource), `user` to the sole user of the last.
static void followReshapes(Value &value, Operation *&user, bool fromStart) {
  while (user && user->getNumResults() == 1 &&
         sizePreservingReshapeSource(user->getResult(0), fromStart) == value) {
    value = user->getResult(0);
    user = soleUser(value);
  }
}

SmallVector<qforge::LoopCarriedSum>
qforge::findLoopCarriedSums(scf::ForOp loop) {
  SmallVector<LoopCarriedSum> sums;
  Block *body = loop.getBody();
  for (auto [index, iterArg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (!isa<VectorType>(iterArg.getType()) ||
        !isa<FloatType>(getElementTypeOrSelf(iterArg.getType())))
      continue;
    // Forward from the iter_arg (maybe reshaped first): each value of the
    // chain has one use, the next link's, until the yield takes the total
    // (maybe reshaped) as this iter_arg's next value. A total read anywhere
    // else would read one partial sum after the split.
    Value value = iterArg;
    Operation *user = soleUser(value);
    followReshapes(value, user, /*fromStart=*/true);
    LoopCarriedSum sum;
    sum.iterArgIndex = index;
    while (auto link = dyn_cast_or_null<arith::AddFOp>(user)) {
      if (link->getBlock() != body)
        break;
      sum.links.push_back(link);
      sum.accOperands.push_back(link.getLhs() == value ? 0 : 1);
      value = link.getResult();
      user = soleUser(value);
    }
    if (sum.links.size() < 2 || !user)
      continue;
    // The total, through reshapes, to this iter_arg's yield operand.
    followReshapes(value, user, /*fromStart=*/false);
    if (!user || user != body->getTerminator() ||
        body->getTerminator()->getOperand(index) != value)
      continue;
    sums.push_back(std::move(sum));
  }
  return sums;
}

scf::ForOp qforge::splitLoopCarriedSums(RewriterBase &rewriter, scf::ForOp loop,
                                        unsigned chains) {
  SmallVector<LoopCarriedSum> sums = findLoopCarriedSums(loop);
  if (sums.empty() || chains < 2)
    return loop;
  Location loc = loop.getLoc();
  auto partialCount = [&](const LoopCarriedSum &sum) {
    return std::min<unsigned>(chains, sum.links.size());
  };
  // One -0.0 init per new partial sum, in the accumulator's type.
  SmallVector<Value> inits;
  rewriter.setInsertionPoint(loop);
  for (const LoopCarriedSum &sum : sums) {
    unsigned count = partialCount(sum);
    Type type = loop.getRegionIterArgs()[sum.iterArgIndex].getType();
    auto vectorType = cast<VectorType>(type);
    Attribute negativeZero = rewriter.getFloatAttr(
        vectorType.getElementType(),
        APFloat::getZero(
            cast<FloatType>(vectorType.getElementType()).getFloatSemantics(),
            /*Negative=*/true));
    for (unsigned i = 1; i < count; ++i)
      inits.push_back(arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(vectorType, negativeZero)));
  }
  unsigned oldResults = loop.getNumResults();
  auto placeholders = [](OpBuilder &, Location,
                         ArrayRef<BlockArgument> newArgs) {
    return SmallVector<Value>(newArgs.begin(), newArgs.end());
  };
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false, placeholders);
  if (failed(replaced))
    return loop;
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  auto yield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
  unsigned nextArg = oldResults;
  for (const LoopCarriedSum &sum : sums) {
    unsigned count = partialCount(sum);
    Type linkType = sum.links.front()->getResult(0).getType();
    auto inLinkType = [&](Value value, Type type) -> Value {
      if (value.getType() == type)
        return value;
      return vector::ShapeCastOp::create(rewriter, loc, type, value);
    };
    // Partial c adds the links c, c + count, ...; partial 0 starts from the
    // old accumulator, the others from their new iter_args.
    SmallVector<Value> partials(count);
    rewriter.setInsertionPointToStart(newLoop.getBody());
    for (unsigned c = 1; c < count; ++c)
      partials[c] =
          inLinkType(newLoop.getRegionIterArgs()[nextArg + c - 1], linkType);
    for (unsigned position = 0; position < sum.links.size(); ++position) {
      arith::AddFOp link = sum.links[position];
      Value &partial = partials[position % count];
      if (position != 0)
        rewriter.modifyOpInPlace(link, [&] {
          link->setOperand(sum.accOperands[position], partial);
        });
      partial = link.getResult();
    }
    // The old result now yields partial 0 (through the reshapes it had:
    // the first one takes it).
    Operation *end = *sum.links.back()->getUsers().begin();
    if (end != yield.getOperation())
      rewriter.modifyOpInPlace(end, [&] { end->setOperand(0, partials[0]); });
    else
      rewriter.modifyOpInPlace(
          yield, [&] { yield->setOperand(sum.iterArgIndex, partials[0]); });
    rewriter.setInsertionPoint(yield);
    Type accType = newLoop.getRegionIterArgs()[sum.iterArgIndex].getType();
    for (unsigned c = 1; c < count; ++c) {
      Value carried = inLinkType(partials[c], accType);
      rewriter.modifyOpInPlace(
          yield, [&] { yield->setOperand(nextArg + c - 1, carried); });
    }
    // After the loop: the partial sums' tree replaces the old result.
    rewriter.setInsertionPointAfter(newLoop);
    SmallVector<Value> results = {newLoop.getResult(sum.iterArgIndex)};
    for (unsigned c = 1; c < count; ++c)
      results.push_back(newLoop.getResult(nextArg + c - 1));
    // The tree's adds promise only what every link did.
    // (`fast` is every flag.)
    arith::FastMathFlags common = arith::FastMathFlags::fast;
    for (arith::AddFOp link : sum.links)
      common = common & link.getFastmath();
    auto flags = arith::FastMathFlagsAttr::get(rewriter.getContext(), common);
    SmallPtrSet<Operation *, 4> tree;
    Value total =
        sumAsBalancedTree(results, [&](Value lhs, Value rhs) -> Value {
          auto add = arith::AddFOp::create(rewriter, loc, lhs, rhs, flags);
          tree.insert(add);
          return add;
        });
    rewriter.replaceUsesWithIf(
        newLoop.getResult(sum.iterArgIndex), total,
        [&](OpOperand &use) { return !tree.contains(use.getOwner()); });
    nextArg += count - 1;
  }
  return newLoop;
}
