//===- LowerQuant.cpp - exact quant.qcast / quant.dcast lowering ----------===//
//
// docs/quantization.md states the semantics implemented here.
//
//===----------------------------------------------------------------------===//

#include "Quant/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

namespace qforge {
#define GEN_PASS_DEF_LOWERQUANT
#include "Quant/Passes.h.inc"
} // namespace qforge

using namespace mlir;

namespace {
/// The quantized element type of a ranked tensor, or null.
quant::QuantizedType quantizedElementType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? dyn_cast<quant::QuantizedType>(tensor.getElementType())
                : nullptr;
}

/// The tensor of storage integers (signless) holding values of `type`.
RankedTensorType storageTensorType(RankedTensorType type) {
  auto quantized = cast<quant::QuantizedType>(type.getElementType());
  unsigned width = quantized.getStorageTypeIntegralWidth();
  return RankedTensorType::get(type.getShape(),
                               IntegerType::get(type.getContext(), width));
}

/// Checks that qforge can lower values of the tensor type `type`; emits an
/// error at `op` naming the type otherwise.
LogicalResult checkSupported(Operation *op, RankedTensorType type,
                             Type floatType) {
  auto quantized = cast<quant::QuantizedType>(type.getElementType());
  if (!type.hasStaticShape())
    return op->emitError() << "cannot lower " << type
                           << ": only static shapes are supported";
  if (quantized.getStorageTypeIntegralWidth() > 32)
    return op->emitError() << "cannot lower " << type
                           << ": storage wider than 32 bits";
  if (floatType && quantized.getExpressedType() != floatType)
    return op->emitError() << "cannot lower " << type << ": its expressed type "
                           << quantized.getExpressedType()
                           << " does not match the float type " << floatType;
  if (isa<quant::UniformQuantizedSubChannelType>(quantized) &&
      isa<quant::QuantizeCastOp>(op))
    return op->emitError() << "cannot lower " << type
                           << ": quantizing to sub-channel types is not "
                              "supported yet (dequantizing is)";
  if (!isa<quant::UniformQuantizedType, quant::UniformQuantizedPerAxisType,
           quant::UniformQuantizedSubChannelType>(quantized))
    return op->emitError() << "cannot lower " << type
                           << ": not a uniform quantized type";
  return success();
}

/// `value` as a float of `type`, rounded toward zero (so that a clamp bound
/// never lies outside the integer range it stands for).
Value floatConstantTowardZero(OpBuilder &b, Location loc, FloatType type,
                              int64_t value) {
  llvm::APFloat bound(type.getFloatSemantics());
  bound.convertFromAPInt(llvm::APInt(64, value, /*isSigned=*/true),
                         /*IsSigned=*/true, llvm::APFloat::rmTowardZero);
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, bound));
}

/// Per-tensor: one scalar constant. Per-axis: a dense tensor along the
/// quantized dimension, read through (d_axis).
struct QuantParams {
  Value scale, zeroPoint; // scalars (per-tensor) or 1-D tensors (per-axis)
  int32_t axis = -1;      // quantized dimension, -1 per-tensor
};

QuantParams buildParams(OpBuilder &b, Location loc, quant::QuantizedType type,
                        FloatType floatType) {
  QuantParams params;
  if (auto uniform = dyn_cast<quant::UniformQuantizedType>(type)) {
    params.scale = arith::ConstantOp::create(
        b, loc, floatType, b.getFloatAttr(floatType, uniform.getScale()));
    params.zeroPoint = arith::ConstantOp::create(
        b, loc, floatType,
        b.getFloatAttr(floatType, double(uniform.getZeroPoint())));
    return params;
  }
  auto perAxis = cast<quant::UniformQuantizedPerAxisType>(type);
  params.axis = perAxis.getQuantizedDimension();
  int64_t count = perAxis.getScales().size();
  auto tensorType = RankedTensorType::get({count}, floatType);
  SmallVector<Attribute> scales, zeroPoints;
  for (double scale : perAxis.getScales())
    scales.push_back(b.getFloatAttr(floatType, scale));
  for (int64_t zeroPoint : perAxis.getZeroPoints())
    zeroPoints.push_back(b.getFloatAttr(floatType, double(zeroPoint)));
  params.scale = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(tensorType, scales));
  params.zeroPoint = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(tensorType, zeroPoints));
  return params;
}

/// An elementwise generic over `input`'s shape producing `resultType`,
/// with the quantization parameters as extra inputs (scalars captured,
/// per-axis tensors read through (d_axis)). `body` gets (element, scale,
/// zero point) and returns the result element.
Value buildElementwise(
    OpBuilder &b, Location loc, Value input, RankedTensorType resultType,
    const QuantParams &params,
    function_ref<Value(OpBuilder &, Location, Value, Value, Value)> body) {
  MLIRContext *ctx = b.getContext();
  unsigned rank = resultType.getRank();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  SmallVector<Value> inputs = {input};
  SmallVector<AffineMap> maps = {identity};
  if (params.axis >= 0) {
    AffineMap alongAxis =
        AffineMap::get(rank, 0, getAffineDimExpr(params.axis, ctx));
    inputs.append({params.scale, params.zeroPoint});
    maps.append({alongAxis, alongAxis});
  }
  maps.push_back(identity);
  Value init = tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                       resultType.getElementType());
  bool perAxis = params.axis >= 0;
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nested, Location l, ValueRange args) {
               Value scale = perAxis ? args[1] : params.scale;
               Value zeroPoint = perAxis ? args[2] : params.zeroPoint;
               linalg::YieldOp::create(
                   nested, l, body(nested, l, args[0], scale, zeroPoint));
             })
      .getResult(0);
}

/// qcast: clamp(roundeven(x / scale) + zero_point, min, max); NaN -> zero
/// point. The storage integer is produced from an in-range integral float.
Value lowerQuantize(OpBuilder &b, Location loc, Value input,
                    RankedTensorType quantizedTensor) {
  auto quantized = cast<quant::QuantizedType>(quantizedTensor.getElementType());
  auto floatType = cast<FloatType>(quantized.getExpressedType());
  QuantParams params = buildParams(b, loc, quantized, floatType);
  Value low =
      floatConstantTowardZero(b, loc, floatType, quantized.getStorageTypeMin());
  Value high =
      floatConstantTowardZero(b, loc, floatType, quantized.getStorageTypeMax());
  RankedTensorType storage = storageTensorType(quantizedTensor);
  Type storageElement = storage.getElementType();
  bool isSigned = quantized.isSigned();
  return buildElementwise(
      b, loc, input, storage, params,
      [&](OpBuilder &nb, Location l, Value x, Value scale, Value zeroPoint) {
        Value scaled = arith::DivFOp::create(nb, l, x, scale);
        Value rounded = math::RoundEvenOp::create(nb, l, scaled);
        Value shifted = arith::AddFOp::create(nb, l, rounded, zeroPoint);
        Value clamped = arith::MinimumFOp::create(
            nb, l, arith::MaximumFOp::create(nb, l, shifted, low), high);
        Value isNaN =
            arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO, x, x);
        Value value = arith::SelectOp::create(nb, l, isNaN, zeroPoint, clamped);
        if (isSigned)
          return arith::FPToSIOp::create(nb, l, storageElement, value)
              .getResult();
        return arith::FPToUIOp::create(nb, l, storageElement, value)
            .getResult();
      });
}

/// dcast of a sub-channel type: every blocked dim (1 < block < size) of
/// the storage is split into (blocks, block) with a free tensor.expand_shape,
/// the scales and zero-points become dense constants with a unit dim where
/// the block is, read through constant-0 results -- for weights NxK in
/// groups of B along K: an NxGxB generic reading NxGx1 scales through
/// (d0, d1, 0), the seed's form -- and the result is collapsed back.
Value lowerSubChannelDequantize(OpBuilder &b, Location loc, Value storageValue,
                                RankedTensorType quantizedTensor) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<quant::UniformQuantizedSubChannelType>(
      quantizedTensor.getElementType());
  auto floatType = cast<FloatType>(type.getExpressedType());
  ArrayRef<int64_t> shape = quantizedTensor.getShape();
  SmallVector<int64_t> blocks(shape);
  for (auto [dim, size] :
       llvm::zip(type.getQuantizedDimensions(), type.getBlockSizes()))
    blocks[dim] = size;

  SmallVector<int64_t> expandedShape, paramShape;
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<AffineExpr> paramExprs;
  for (auto [dim, size] : llvm::enumerate(shape)) {
    int64_t block = blocks[dim], count = size / block;
    unsigned first = expandedShape.size();
    if (block > 1 && block < size) {
      expandedShape.append({count, block});
      paramShape.append({count, 1});
      reassociation.push_back({first, first + 1});
      paramExprs.push_back(getAffineDimExpr(first, ctx));
      paramExprs.push_back(getAffineConstantExpr(0, ctx));
      continue;
    }
    expandedShape.push_back(size);
    paramShape.push_back(count);
    reassociation.push_back({first});
    paramExprs.push_back(count == 1 ? getAffineConstantExpr(0, ctx)
                                    : getAffineDimExpr(first, ctx));
  }
  unsigned rank = expandedShape.size();
  auto storageElement = getElementTypeOrSelf(storageValue.getType());
  Value expanded = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(expandedShape, storageElement),
      storageValue, reassociation);

  auto paramType = RankedTensorType::get(paramShape, floatType);
  SmallVector<Attribute> scales, zeroPoints;
  for (APFloat scale : type.getScales().getValues<APFloat>()) {
    bool lostInfo;
    scale.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &lostInfo);
    scales.push_back(b.getFloatAttr(floatType, scale));
  }
  // The zero-points are stored with the storage type's width: read them
  // as unsigned for unsigned storage (u8 200 is 200, not -56).
  for (APInt zeroPoint : type.getZeroPoints().getValues<APInt>())
    zeroPoints.push_back(b.getFloatAttr(
        floatType,
        double(type.isSigned() ? zeroPoint.getSExtValue()
                               : int64_t(zeroPoint.getZExtValue()))));
  Value scaleTensor = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(paramType, scales));
  Value zeroPointTensor = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(paramType, zeroPoints));

  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap paramMap = AffineMap::get(rank, 0, paramExprs, ctx);
  Value init = tensor::EmptyOp::create(b, loc, expandedShape, floatType);
  bool isSigned = type.isSigned();
  Value dequantized =
      linalg::GenericOp::create(
          b, loc, TypeRange{RankedTensorType::get(expandedShape, floatType)},
          ValueRange{expanded, scaleTensor, zeroPointTensor}, ValueRange{init},
          ArrayRef<AffineMap>{identity, paramMap, paramMap, identity},
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value asFloat =
                isSigned ? arith::SIToFPOp::create(nb, l, floatType, args[0])
                               .getResult()
                         : arith::UIToFPOp::create(nb, l, floatType, args[0])
                               .getResult();
            Value shifted = arith::SubFOp::create(nb, l, asFloat, args[2]);
            linalg::YieldOp::create(
                nb, l,
                arith::MulFOp::create(nb, l, shifted, args[1]).getResult());
          })
          .getResult(0);
  return tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get(shape, floatType), dequantized,
      reassociation);
}

/// dcast: (q - zero_point) * scale.
Value lowerDequantize(OpBuilder &b, Location loc, Value storageValue,
                      RankedTensorType quantizedTensor) {
  if (isa<quant::UniformQuantizedSubChannelType>(
          quantizedTensor.getElementType()))
    return lowerSubChannelDequantize(b, loc, storageValue, quantizedTensor);
  auto quantized = cast<quant::QuantizedType>(quantizedTensor.getElementType());
  auto floatType = cast<FloatType>(quantized.getExpressedType());
  QuantParams params = buildParams(b, loc, quantized, floatType);
  auto resultType =
      RankedTensorType::get(quantizedTensor.getShape(), floatType);
  bool isSigned = quantized.isSigned();
  return buildElementwise(
      b, loc, storageValue, resultType, params,
      [&](OpBuilder &nb, Location l, Value q, Value scale, Value zeroPoint) {
        Value asFloat =
            isSigned ? arith::SIToFPOp::create(nb, l, floatType, q).getResult()
                     : arith::UIToFPOp::create(nb, l, floatType, q).getResult();
        Value shifted = arith::SubFOp::create(nb, l, asFloat, zeroPoint);
        return arith::MulFOp::create(nb, l, shifted, scale).getResult();
      });
}

struct LowerQuant : qforge::impl::LowerQuantBase<LowerQuant> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (allowFoldingRoundTrips)
      foldRoundTrips(module);
    if (failed(checkAll(module)))
      return signalPassFailure();
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>()))
      rewriteSignature(func);
    SmallVector<Operation *> casts;
    module.walk([&](Operation *op) {
      if (isa<quant::QuantizeCastOp, quant::DequantizeCastOp>(op))
        casts.push_back(op);
    });
    for (Operation *op : casts)
      lowerCast(op);
    foldStorageCastPairs(module);
  }

  /// dcast(qcast(x)) -> x, only when the user accepts losing the simulated
  /// quantization.
  void foldRoundTrips(ModuleOp module) {
    SmallVector<quant::DequantizeCastOp> dcasts;
    module.walk(
        [&](quant::DequantizeCastOp dcast) { dcasts.push_back(dcast); });
    for (quant::DequantizeCastOp dcast : dcasts) {
      auto qcast = dcast.getInput().getDefiningOp<quant::QuantizeCastOp>();
      if (!qcast || qcast.getInput().getType() != dcast.getType())
        continue;
      dcast.replaceAllUsesWith(qcast.getInput());
      dcast.erase();
      if (qcast->use_empty())
        qcast.erase();
    }
  }

  LogicalResult checkAll(ModuleOp module) {
    WalkResult result = module.walk([&](Operation *op) {
      if (auto call = dyn_cast<func::CallOp>(op)) {
        for (Type type : llvm::concat<const Type>(call.getOperandTypes(),
                                                  call.getResultTypes()))
          if (quantizedElementType(type))
            return call.emitError()
                       << "cannot lower a call passing " << type
                       << ": calls with quantized operands or results are "
                          "not supported (inline the callee first)",
                   WalkResult::interrupt();
      }
      for (Value value :
           llvm::concat<Value>(op->getOperands(), op->getResults())) {
        if (!quantizedElementType(value.getType()) &&
            isa<quant::QuantizedType>(getElementTypeOrSelf(value.getType())))
          return op->emitError() << "cannot lower " << value.getType()
                                 << ": only ranked tensors of quantized "
                                    "values are supported",
                 WalkResult::interrupt();
      }
      Type floatType;
      RankedTensorType quantizedTensor;
      if (auto qcast = dyn_cast<quant::QuantizeCastOp>(op)) {
        floatType = getElementTypeOrSelf(qcast.getInput().getType());
        quantizedTensor = dyn_cast<RankedTensorType>(qcast.getType());
      } else if (auto dcast = dyn_cast<quant::DequantizeCastOp>(op)) {
        floatType = getElementTypeOrSelf(dcast.getType());
        quantizedTensor =
            dyn_cast<RankedTensorType>(dcast.getInput().getType());
      } else {
        return WalkResult::advance();
      }
      if (!quantizedTensor || !quantizedElementType(quantizedTensor))
        return WalkResult::advance();
      return failed(checkSupported(op, quantizedTensor, floatType))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  /// Quantized tensors in the signature become storage tensors; a
  /// quant.scast at the entry (and before each return) keeps the body's
  /// types, and folds away against the lowered casts.
  void rewriteSignature(func::FuncOp func) {
    FunctionType type = func.getFunctionType();
    auto convert = [](Type t) -> Type {
      if (quantizedElementType(t))
        return storageTensorType(cast<RankedTensorType>(t));
      return t;
    };
    SmallVector<Type> inputs = llvm::map_to_vector(type.getInputs(), convert);
    SmallVector<Type> results = llvm::map_to_vector(type.getResults(), convert);
    if (inputs == SmallVector<Type>(type.getInputs()) &&
        results == SmallVector<Type>(type.getResults()))
      return;
    if (!func.isExternal()) {
      Block &entry = func.getBody().front();
      OpBuilder b = OpBuilder::atBlockBegin(&entry);
      for (BlockArgument argument : entry.getArguments()) {
        Type original = argument.getType();
        if (!quantizedElementType(original))
          continue;
        argument.setType(convert(original));
        auto cast = quant::StorageCastOp::create(b, argument.getLoc(), original,
                                                 argument);
        argument.replaceAllUsesExcept(cast.getResult(), cast);
      }
      func.walk([&](func::ReturnOp ret) {
        OpBuilder rb(ret);
        for (OpOperand &operand : ret->getOpOperands())
          if (quantizedElementType(operand.get().getType()))
            operand.set(quant::StorageCastOp::create(
                rb, ret.getLoc(), convert(operand.get().getType()),
                operand.get()));
      });
    }
    func.setFunctionType(FunctionType::get(func.getContext(), inputs, results));
  }

  void lowerCast(Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto qcast = dyn_cast<quant::QuantizeCastOp>(op)) {
      auto quantizedTensor = cast<RankedTensorType>(qcast.getType());
      Value storage = lowerQuantize(b, loc, qcast.getInput(), quantizedTensor);
      qcast.replaceAllUsesWith(
          quant::StorageCastOp::create(b, loc, quantizedTensor, storage)
              .getResult());
      qcast.erase();
      return;
    }
    auto dcast = cast<quant::DequantizeCastOp>(op);
    auto quantizedTensor = cast<RankedTensorType>(dcast.getInput().getType());
    Value storage = quant::StorageCastOp::create(
        b, loc, storageTensorType(quantizedTensor), dcast.getInput());
    dcast.replaceAllUsesWith(lowerDequantize(b, loc, storage, quantizedTensor));
    dcast.erase();
  }

  /// scast(scast(x)) with the types of x -> x; unused scasts go.
  void foldStorageCastPairs(ModuleOp module) {
    SmallVector<quant::StorageCastOp> casts;
    module.walk([&](quant::StorageCastOp cast) { casts.push_back(cast); });
    for (quant::StorageCastOp cast : casts) {
      auto inner = cast.getInput().getDefiningOp<quant::StorageCastOp>();
      if (inner && inner.getInput().getType() == cast.getType())
        cast.replaceAllUsesWith(inner.getInput());
    }
    bool changed = true;
    while (changed) {
      changed = false;
      module.walk([&](quant::StorageCastOp cast) {
        if (cast->use_empty()) {
          cast.erase();
          changed = true;
        }
      });
    }
  }
};
} // namespace
