//===- ProducerForms.cpp - how front ends spell the quantized matmul ------===//

#include "Analysis/ProducerForms.h"
#include "Analysis/DequantContraction.h"
#include "Analysis/NibblePairs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using qforge::MatmulRole;

namespace {

const char *roleName(MatmulRole role) {
  switch (role) {
  case MatmulRole::Token:
    return "token (M)";
  case MatmulRole::Row:
    return "row (N)";
  case MatmulRole::Group:
    return "group (G)";
  case MatmulRole::Element:
    return "element (K)";
  }
  return "";
}

/// An all-parallel generic with one float result whose body converts an
/// integer input to float: what makes a contraction input "a
/// dequantization". (A body that converts integers it computes otherwise,
/// e.g. with tensor.extract, is a custom form qforge leaves alone.)
bool looksLikeDequant(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !isa<FloatType>(getElementTypeOrSelf(generic.getResult(0).getType())))
    return false;
  Block *body = generic.getBody();
  return llvm::any_of(body->getOperations(), [&](Operation &op) {
    if (!isa<arith::UIToFPOp, arith::SIToFPOp>(op))
      return false;
    bool isSigned;
    std::optional<unsigned> nibbleDim;
    BlockArgument arg =
        qforge::traceIntToFloat(op.getResult(0), isSigned, nibbleDim);
    return arg && arg.getOwner() == body &&
           generic.isDpsInput(generic.getMatchingOpOperand(arg));
  });
}

/// The contraction input produced by a dequantization, if any.
OpOperand *dequantInputOf(linalg::GenericOp contraction) {
  if (contraction.getNumDpsInputs() != 2 || contraction.getNumDpsInits() != 1)
    return nullptr;
  for (OpOperand *input : contraction.getDpsInputOperands())
    if (looksLikeDequant(input->get().getDefiningOp()) &&
        qforge::isMultiReductionContractionOf(contraction, input->get(),
                                              /*allowWidening=*/true))
      return input;
  return nullptr;
}

/// The storage dims of an operand, by the role of the loop reading each,
/// without the dims of size 1 (a reshape moves them freely). Fails on a
/// result that is not a loop dim or a constant 0 over a unit dim.
FailureOr<SmallVector<MatmulRole>>
storageRoles(AffineMap map, ArrayRef<int64_t> shape,
             ArrayRef<MatmulRole> loopRoles) {
  SmallVector<MatmulRole> roles;
  for (auto [result, size] : llvm::zip_equal(map.getResults(), shape)) {
    if (auto constant = dyn_cast<AffineConstantExpr>(result)) {
      if (constant.getValue() != 0 || size != 1)
        return failure();
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim)
      return failure();
    if (size != 1)
      roles.push_back(loopRoles[dim.getPosition()]);
  }
  return roles;
}

std::string describe(ArrayRef<MatmulRole> roles) {
  SmallVector<std::string> names;
  for (MatmulRole role : roles)
    names.push_back(roleName(role));
  return "(" + llvm::join(names, ", ") + ")";
}

/// A float constant, scalar or splat, wherever it is defined.
std::optional<APFloat> asFloatConstant(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return std::nullopt;
  if (auto attr = dyn_cast<FloatAttr>(constant.getValue()))
    return attr.getValue();
  return std::nullopt;
}

/// Reads the dequantization body: which inputs are weights, scale and
/// zero-point, in any of the spellings the producers use:
///   (tofp(w) - z) * s,  s * (tofp(w) - z),  tofp(w) * s  (symmetric),
///   tofp(w) * s - z * s  (the scale distributed),
/// with z an input or a float constant.
struct BodyReading {
  OpOperand *weights = nullptr;
  Value weightsAsFloat;
  OpOperand *scales = nullptr;
  OpOperand *zeroPoints = nullptr;
  std::optional<APFloat> zeroPointConstant;
};

std::optional<BodyReading> readDequantBody(linalg::GenericOp dequant) {
  Block &body = *dequant.getBody();
  Value yielded = cast<linalg::YieldOp>(body.getTerminator()).getOperand(0);
  auto inputOf = [&](Value value) -> OpOperand * {
    // A parameter stored narrower than the arithmetic (f16 scales of an
    // f32 dequantization) is read through arith.extf.
    if (auto ext = value.getDefiningOp<arith::ExtFOp>())
      value = ext.getIn();
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg || arg.getOwner() != &body)
      return nullptr;
    OpOperand *operand = dequant.getMatchingOpOperand(arg);
    return dequant.isDpsInput(operand) ? operand : nullptr;
  };
  auto asWeights = [&](Value value, BodyReading &reading) {
    bool isSigned;
    std::optional<unsigned> nibbleDim;
    BlockArgument arg = qforge::traceIntToFloat(value, isSigned, nibbleDim);
    // Byte pairs are the canonical form's own i4 storage: nothing to do.
    if (!arg || nibbleDim)
      return false;
    reading.weights = inputOf(arg);
    reading.weightsAsFloat = value;
    return reading.weights &&
           isa<IntegerType>(getElementTypeOrSelf(reading.weights->get()));
  };
  auto asZeroPoint = [&](Value value, BodyReading &reading) {
    if ((reading.zeroPoints = inputOf(value)))
      return true;
    reading.zeroPointConstant = asFloatConstant(value);
    return reading.zeroPointConstant.has_value();
  };
  // (tofp(w) - z) or tofp(w).
  auto asShifted = [&](Value value, BodyReading &reading) {
    if (asWeights(value, reading))
      return true;
    auto sub = value.getDefiningOp<arith::SubFOp>();
    return sub && asWeights(sub.getLhs(), reading) &&
           asZeroPoint(sub.getRhs(), reading);
  };

  if (auto mul = yielded.getDefiningOp<arith::MulFOp>()) {
    for (auto [shifted, scale] : {std::pair(mul.getLhs(), mul.getRhs()),
                                  std::pair(mul.getRhs(), mul.getLhs())}) {
      BodyReading reading;
      reading.scales = inputOf(scale);
      if (reading.scales && asShifted(shifted, reading))
        return reading;
    }
  }
  if (auto sub = yielded.getDefiningOp<arith::SubFOp>()) {
    auto scaledWeights = sub.getLhs().getDefiningOp<arith::MulFOp>();
    auto scaledZero = sub.getRhs().getDefiningOp<arith::MulFOp>();
    if (!scaledWeights || !scaledZero)
      return std::nullopt;
    for (auto [weights, scale] :
         {std::pair(scaledWeights.getLhs(), scaledWeights.getRhs()),
          std::pair(scaledWeights.getRhs(), scaledWeights.getLhs())}) {
      BodyReading reading;
      reading.scales = inputOf(scale);
      if (!reading.scales || !asWeights(weights, reading))
        continue;
      for (auto [zero, sameScale] :
           {std::pair(scaledZero.getLhs(), scaledZero.getRhs()),
            std::pair(scaledZero.getRhs(), scaledZero.getLhs())})
        if (sameScale == scale && asZeroPoint(zero, reading))
          return reading;
    }
  }
  return std::nullopt;
}

bool isCanonical(const qforge::ProducerForm &form) {
  linalg::GenericOp contraction = form.contraction, dequant = form.dequant;
  MLIRContext *context = contraction.getContext();
  auto map = [&](unsigned numDims, ArrayRef<int64_t> results) {
    SmallVector<AffineExpr> exprs;
    for (int64_t r : results)
      exprs.push_back(r < 0 ? getAffineConstantExpr(0, context)
                            : getAffineDimExpr(r, context));
    return AffineMap::get(numDims, 0, exprs, context);
  };
  using It = utils::IteratorType;
  SmallVector<It> iterators = {It::parallel, It::parallel, It::parallel,
                               It::reduction, It::reduction};
  if (contraction.getIteratorTypesArray() != iterators ||
      form.activation->getOperandNumber() != 0 ||
      contraction.getIndexingMapsArray() !=
          SmallVector<AffineMap>{map(5, {0, 1, 3, 4}), map(5, {2, 3, 4}),
                                 map(5, {0, 1, 2})})
    return false;
  auto activationType =
      cast<RankedTensorType>(form.activation->get().getType());
  if (activationType.getDimSize(0) != 1)
    return false;
  // The dequantization as the factoring reads it, parameters through
  // (d0, d1, 0) from N x G x 1 tensors.
  std::optional<qforge::DequantParts> parts = qforge::matchDequant(dequant);
  if (!parts || parts->weights != form.weights || form.zeroPoints.constant ||
      form.scales.transposed || form.zeroPoints.transposed)
    return false;
  AffineMap identity = AffineMap::getMultiDimIdentityMap(3, context);
  AffineMap perGroup = map(3, {0, 1, -1});
  auto isPerGroup = [&](OpOperand *operand) {
    auto type = cast<RankedTensorType>(operand->get().getType());
    return dequant.getMatchingIndexingMap(operand) == perGroup &&
           type.getRank() == 3 && type.getDimSize(2) == 1;
  };
  return dequant.getMatchingIndexingMap(form.weights) == identity &&
         dequant.getIndexingMapsArray().back() == identity &&
         isPerGroup(form.scales.operand) &&
         (!form.zeroPoints.operand || isPerGroup(form.zeroPoints.operand));
}

} // namespace

qforge::ProducerFormMatch
qforge::analyzeProducerForm(linalg::GenericOp contraction) {
  ProducerFormMatch match;
  OpOperand *dequantInput = dequantInputOf(contraction);
  if (!dequantInput)
    return match;
  // i4 weights already stored as byte pairs (qforge-store-int4-as-byte-pairs)
  // are the canonical form's own: nothing to read.
  auto dequant = dequantInput->get().getDefiningOp<linalg::GenericOp>();
  bool readsNibbles =
      llvm::any_of(dequant.getBody()->getOperations(), [](Operation &op) {
        return op.getNumResults() == 1 &&
               qforge::matchNibbleOfBytePair(op.getResult(0));
      });
  if (readsNibbles)
    return match;

  // From here on the contraction is a quantized matmul: every refusal says
  // what is missing.
  auto refuse = [&](const Twine &why) {
    match.unsupported = why.str();
    return match;
  };
  ProducerForm form;
  form.contraction = contraction;
  form.dequant = dequant;
  form.activation =
      contraction.getDpsInputOperand(1 - dequantInput->getOperandNumber());
  if (dequant.getNumDpsInits() != 1)
    return refuse("the dequantization has several outputs");
  // f16, bf16 and f32 in any mix: the canonical form computes in f32 and
  // rounds the result once, at the end (docs/numerics.md).
  auto isSupportedFloat = [](Value value) {
    Type type = getElementTypeOrSelf(value.getType());
    return type.isF16() || type.isBF16() || type.isF32();
  };
  if (!isSupportedFloat(form.activation->get()) ||
      !isSupportedFloat(dequant.getResult(0)) ||
      !isSupportedFloat(contraction.getResult(0)))
    return refuse("an element type other than f16, bf16 or f32 for the "
                  "activation, the dequantized weights or the result");

  SmallVector<int64_t> loopSizes = contraction.getStaticLoopRanges();
  SmallVector<int64_t> dequantSizes = dequant.getStaticLoopRanges();
  if (llvm::any_of(dequantSizes, ShapedType::isDynamic))
    return refuse("a dequantization of dynamic size: only the token count "
                  "may be dynamic (N, G and K must be static)");
  if (dequant.getNumLoops() != 3)
    return refuse("a dequantization of rank " + Twine(dequant.getNumLoops()) +
                  "; the strategies take weights N x G x K (rows, groups, "
                  "elements of a group)");

  std::optional<BodyReading> body = readDequantBody(dequant);
  if (!body)
    return refuse("a dequantization body other than (tofp(w) - z) * s, "
                  "s * (tofp(w) - z), tofp(w) * s or tofp(w) * s - z * s "
                  "(tofp: uitofp/sitofp after extui/extsi)");
  form.weights = body->weights;
  form.weightsAsFloat = body->weightsAsFloat;
  form.scales.operand = body->scales;
  form.zeroPoints.operand = body->zeroPoints;
  form.zeroPoints.constant = body->zeroPointConstant;

  // Each dequantization loop is the contraction loop that reads the same
  // dim of the dequantized tensor.
  AffineMap readMap = contraction.getMatchingIndexingMap(dequantInput);
  AffineMap writeMap = dequant.getIndexingMapsArray().back();
  if (!readMap.isProjectedPermutation() || !writeMap.isPermutation())
    return refuse("the dequantized weights are not read and written "
                  "through permutations of the loops");
  SmallVector<unsigned> dequantToContraction(3);
  for (unsigned dim = 0; dim < 3; ++dim)
    dequantToContraction[writeMap.getDimPosition(dim)] =
        readMap.getDimPosition(dim);

  // Roles: the parallel loop of the weights is the row, their two reduction
  // loops are the group (the one the scales read) and the element; every
  // other parallel loop is a token.
  unsigned numLoops = contraction.getNumLoops();
  form.loopRoles.assign(numLoops, MatmulRole::Token);
  SmallVector<MatmulRole> dequantRoles(3);
  AffineMap scaleMap = dequant.getMatchingIndexingMap(form.scales.operand);
  unsigned numRows = 0, numReductions = 0;
  for (unsigned dim = 0; dim < 3; ++dim) {
    unsigned loop = dequantToContraction[dim];
    MatmulRole role;
    if (linalg::isParallelIterator(contraction.getIteratorTypesArray()[loop])) {
      role = MatmulRole::Row;
      ++numRows;
    } else {
      ++numReductions;
      role = scaleMap.isFunctionOfDim(dim) ? MatmulRole::Group
                                           : MatmulRole::Element;
    }
    dequantRoles[dim] = role;
    form.loopRoles[loop] = role;
  }
  if (numRows != 1 || numReductions != 2)
    return refuse("the weights are not walked by one parallel (rows) and "
                  "two reduction (groups, elements) loops");
  if (llvm::count(dequantRoles, MatmulRole::Group) != 1)
    return refuse("the scales are not read once per group (they must "
                  "depend on exactly one of the two reduction dims)");
  // The group is the reduction dim the scales read; the weights' innermost
  // dim must be the other one (a group's consecutive elements). Scales
  // that vary along the innermost dim are not per group: said so here,
  // not later as an activation stored in the wrong order.
  AffineMap weightsMap = dequant.getMatchingIndexingMap(form.weights);
  if (auto innermost = dyn_cast<AffineDimExpr>(
          weightsMap.getResult(weightsMap.getNumResults() - 1));
      innermost && dequantRoles[innermost.getPosition()] == MatmulRole::Group)
    return refuse("the scales vary along the weights' innermost dim (d" +
                  Twine(innermost.getPosition()) +
                  " of the dequantization): qforge reads one scale per "
                  "group of consecutive weights, constant along that dim "
                  "(e.g. scales read through (d0, d1), not (d0, d2))");
  for (unsigned loop = 0; loop < numLoops; ++loop)
    if (!llvm::is_contained(dequantToContraction, loop) &&
        !linalg::isParallelIterator(contraction.getIteratorTypesArray()[loop]))
      return refuse("a reduction loop that does not walk the weights");

  // Only the token count may be known at run time (one dim of it: the
  // driver dispatches its rows to static specializations).
  unsigned dynamicTokenLoops = 0;
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    if (!ShapedType::isDynamic(loopSizes[loop]))
      continue;
    if (form.loopRoles[loop] != MatmulRole::Token)
      return refuse(Twine("a dynamic ") + roleName(form.loopRoles[loop]) +
                    " loop: only the token count may be dynamic (N, G and "
                    "K must be static)");
    ++dynamicTokenLoops;
  }
  if (dynamicTokenLoops > 1)
    return refuse("several dynamic token loops (e.g. batch and sequence); "
                  "one may be dynamic");
  form.tokens = 1;
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    if (ShapedType::isDynamic(loopSizes[loop])) {
      form.tokens = ShapedType::kDynamic;
      continue;
    }
    switch (form.loopRoles[loop]) {
    case MatmulRole::Token:
      if (!ShapedType::isDynamic(form.tokens))
        form.tokens *= loopSizes[loop];
      break;
    case MatmulRole::Row:
      form.rows = loopSizes[loop];
      break;
    case MatmulRole::Group:
      form.groups = loopSizes[loop];
      break;
    case MatmulRole::Element:
      form.groupSize = loopSizes[loop];
      break;
    }
  }

  // Every operand's storage, by role, must be a free reshape (or, for the
  // small scales and zero-points, a transpose) of the canonical one.
  auto shapeOf = [](OpOperand *operand) {
    return cast<RankedTensorType>(operand->get().getType()).getShape();
  };
  auto rolesOf = [&](linalg::GenericOp op, OpOperand *operand,
                     ArrayRef<MatmulRole> roles) {
    return storageRoles(op.getMatchingIndexingMap(operand), shapeOf(operand),
                        roles);
  };
  auto checkOrder = [&](StringRef what, FailureOr<SmallVector<MatmulRole>> got,
                        ArrayRef<MatmulRole> want) -> bool {
    if (failed(got)) {
      refuse(what + " is read through a map qforge cannot reshape (only "
                    "loop dims, and constant 0 for a unit dim)");
      return false;
    }
    if (*got != want) {
      refuse(what + " is stored as " + describe(*got) + " but must be " +
             describe(want) +
             " up to unit dims: any other order would copy it");
      return false;
    }
    return true;
  };
  // Several token loops (batch x sequence) become one M: they must be
  // adjacent, in the same order, in the activation and the result.
  SmallVector<MatmulRole> tokens;
  for (unsigned loop = 0; loop < numLoops; ++loop)
    if (form.loopRoles[loop] == MatmulRole::Token && loopSizes[loop] != 1)
      tokens.push_back(MatmulRole::Token);
  SmallVector<MatmulRole> activationWant = tokens;
  if (form.groups != 1)
    activationWant.push_back(MatmulRole::Group);
  if (form.groupSize != 1)
    activationWant.push_back(MatmulRole::Element);
  if (!checkOrder("the activation",
                  rolesOf(contraction, form.activation, form.loopRoles),
                  activationWant))
    return match;
  // The activation's token loops must appear in the result in the same
  // order: compare the loop positions, not only the roles.
  auto tokenLoopsOf = [&](OpOperand *operand) {
    SmallVector<unsigned> loops;
    for (AffineExpr result :
         contraction.getMatchingIndexingMap(operand).getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(result))
        if (form.loopRoles[dim.getPosition()] == MatmulRole::Token &&
            loopSizes[dim.getPosition()] != 1)
          loops.push_back(dim.getPosition());
    return loops;
  };
  OpOperand *init = contraction.getDpsInitOperand(0);
  SmallVector<MatmulRole> resultWant = tokens;
  if (form.rows != 1)
    resultWant.push_back(MatmulRole::Row);
  if (!checkOrder("the result", rolesOf(contraction, init, form.loopRoles),
                  resultWant))
    return match;
  if (tokenLoopsOf(form.activation) != tokenLoopsOf(init))
    return refuse("the activation and the result store the token dims in "
                  "different orders");

  SmallVector<MatmulRole> weightsWant;
  for (auto [role, size] : {std::pair(MatmulRole::Row, form.rows),
                            std::pair(MatmulRole::Group, form.groups),
                            std::pair(MatmulRole::Element, form.groupSize)})
    if (size != 1)
      weightsWant.push_back(role);
  if (!checkOrder("the weights", rolesOf(dequant, form.weights, dequantRoles),
                  weightsWant))
    return match;

  // Parameters: N x G (plus unit dims), or G x N, transposed on the way.
  auto checkParameter = [&](StringRef what, GroupParameter &parameter) {
    if (!parameter.operand)
      return true;
    FailureOr<SmallVector<MatmulRole>> roles =
        rolesOf(dequant, parameter.operand, dequantRoles);
    SmallVector<MatmulRole> want, transposedWant;
    if (form.rows != 1)
      want.push_back(MatmulRole::Row);
    if (form.groups != 1)
      want.push_back(MatmulRole::Group);
    transposedWant.assign(want.rbegin(), want.rend());
    if (succeeded(roles) && *roles == transposedWant && want.size() == 2) {
      parameter.transposed = true;
      return true;
    }
    return checkOrder(what, roles, want);
  };
  if (!checkParameter("the scales", form.scales) ||
      !checkParameter("the zero-points", form.zeroPoints))
    return match;
  for (OpOperand *parameter : {form.scales.operand, form.zeroPoints.operand})
    if (parameter && !isSupportedFloat(parameter->get()))
      return refuse("scales or zero-points of an element type other than "
                    "f16, bf16 or f32");

  // Arithmetic narrower than f32 is done in f32 (parameters stored
  // narrower stay so, widened as the dequantization reads them).
  for (Value value :
       {form.activation->get(), dequant.getResult(0), contraction.getResult(0)})
    if (!getElementTypeOrSelf(value.getType()).isF32())
      form.narrowFloats = true;
  form.isCanonical = !form.narrowFloats && isCanonical(form);
  match.form = std::move(form);
  return match;
}

std::optional<int64_t> qforge::countTokens(linalg::GenericOp contraction) {
  OpOperand *dequantInput = dequantInputOf(contraction);
  if (!dequantInput)
    return std::nullopt;
  AffineMap weightsMap = contraction.getMatchingIndexingMap(dequantInput);
  SmallVector<int64_t> sizes = contraction.getStaticLoopRanges();
  int64_t tokens = 1;
  for (auto [loop, iterator] :
       llvm::enumerate(contraction.getIteratorTypesArray()))
    if (linalg::isParallelIterator(iterator) &&
        !weightsMap.isFunctionOfDim(loop)) {
      if (ShapedType::isDynamic(sizes[loop]))
        return ShapedType::kDynamic;
      tokens *= sizes[loop];
    }
  return tokens;
}
