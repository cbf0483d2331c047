//===- TokenDispatch.cpp - a quantized matmul with a run-time token count -===//

#include "Driver/TokenDispatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

/// The only dynamic dim of `type`: -1 when it has none, -2 when several.
static int64_t onlyDynamicDim(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return -1;
  int64_t found = -1;
  for (auto [dim, size] : llvm::enumerate(tensor.getShape()))
    if (ShapedType::isDynamic(size)) {
      if (found >= 0)
        return -2;
      found = dim;
    }
  return found;
}

FailureOr<qforge::TokenDims> qforge::findTokenDims(func::FuncOp function) {
  TokenDims dims;
  auto collect = [&](TypeRange types, SmallVector<int64_t> &into,
                     StringRef what) -> LogicalResult {
    for (auto [index, type] : llvm::enumerate(types)) {
      int64_t dim = onlyDynamicDim(type);
      if (dim == -2)
        return function.emitError()
               << what << " #" << index << " (" << type
               << ") has more than one dynamic dim; only the token count "
                  "of a quantized matmul may be dynamic";
      into.push_back(dim);
    }
    return success();
  };
  if (failed(
          collect(function.getArgumentTypes(), dims.arguments, "argument")) ||
      failed(collect(function.getResultTypes(), dims.results, "result")))
    return failure();
  if (llvm::all_of(dims.arguments, [](int64_t dim) { return dim < 0; }))
    return function.emitError()
           << "no argument has a dynamic token count to read it from";
  // An expand_shape whose output_shape gives a number for a dynamic dim of
  // its result passes the verifier, but folding specializeTokenCount's
  // casts into it crashes upstream's canonicalization: refuse it, located.
  WalkResult inconsistent = function.walk([](tensor::ExpandShapeOp expand) {
    for (auto [dim, size] : llvm::enumerate(expand.getMixedOutputShape()))
      if (expand.getResultType().isDynamicDim(dim) && isa<Attribute>(size)) {
        expand.emitError() << "output_shape gives "
                           << *getConstantIntValue(size) << " for dynamic dim "
                           << dim << " of the result " << expand.getResultType()
                           << "; a dynamic dim takes an SSA size";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (inconsistent.wasInterrupted())
    return failure();
  return dims;
}

SmallVector<bool> qforge::findTokenCountArguments(func::CallOp call) {
  SmallVector<bool> tokenCountArguments;
  for (Value operand : call.getOperands()) {
    auto dim = operand.getDefiningOp<tensor::DimOp>();
    std::optional<int64_t> index =
        dim ? dim.getConstantIndex() : std::optional<int64_t>();
    auto source =
        dim ? dyn_cast<RankedTensorType>(dim.getSource().getType()) : nullptr;
    tokenCountArguments.push_back(source && index &&
                                  source.isDynamicDim(*index));
  }
  return tokenCountArguments;
}

bool qforge::hasDynamicShape(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && !shaped.hasStaticShape();
}

Type qforge::withTokenCount(Type type, int64_t tokens) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  SmallVector<int64_t> shape(tensor.getShape());
  for (int64_t &size : shape)
    if (ShapedType::isDynamic(size))
      size = tokens;
  return tensor.clone(shape);
}

FailureOr<func::FuncOp>
qforge::specializeTokenCount(func::FuncOp function, int64_t tokens,
                             StringRef name,
                             ArrayRef<bool> tokenCountArguments) {
  MLIRContext *context = function.getContext();
  Location loc = function.getLoc();
  auto mapTypes = [&](TypeRange types) {
    return llvm::map_to_vector(
        types, [&](Type type) { return withTokenCount(type, tokens); });
  };
  OpBuilder builder(function);
  builder.setInsertionPointAfter(function);
  auto specialized = func::FuncOp::create(
      builder, loc, name,
      builder.getFunctionType(mapTypes(function.getArgumentTypes()),
                              mapTypes(function.getResultTypes())));
  specialized.setPrivate();
  Block *body = specialized.addEntryBlock();
  builder.setInsertionPointToStart(body);
  IRMapping mapping;
  for (auto [index, original, argument] :
       llvm::enumerate(function.getArguments(), body->getArguments())) {
    Value value = argument;
    if (argument.getType() != original.getType())
      value = tensor::CastOp::create(builder, loc, original.getType(), value);
    else if (index < tokenCountArguments.size() && tokenCountArguments[index])
      value = arith::ConstantIndexOp::create(builder, loc, tokens);
    mapping.map(original, value);
  }
  Block &originalBody = function.getBody().front();
  for (Operation &op : originalBody.without_terminator())
    builder.clone(op, mapping);
  SmallVector<Value> results;
  for (auto [value, type] :
       llvm::zip(originalBody.getTerminator()->getOperands(),
                 specialized.getResultTypes())) {
    Value result = mapping.lookup(value);
    if (result.getType() != type)
      result = tensor::CastOp::create(builder, loc, type, result);
    results.push_back(result);
  }
  func::ReturnOp::create(builder, loc, results);

  // The casts fold into their users (dims become constants, ops take the
  // static types) until no dynamic shape is left.
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  (void)applyPatternsGreedily(specialized, std::move(patterns));
  WalkResult dynamic = specialized.walk([](Operation *op) {
    return llvm::any_of(op->getResultTypes(), hasDynamicShape)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (dynamic.wasInterrupted()) {
    specialized.erase();
    return function.emitError()
           << "setting the dynamic dims to " << tokens
           << " leaves dynamic shapes: only the token count of a quantized "
              "matmul may be dynamic (N, G and K must be static)";
  }
  return specialized;
}

namespace {
/// Builds the dispatcher's IR: slices of `dims`' token dims, calls, and the
/// result's row chunks inserted into an accumulator.
struct DispatchBuilder {
  OpBuilder &builder;
  Location loc;
  const qforge::TokenDims &dims;
  ValueRange arguments;

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }

  /// Rows [offset, offset + size) of `value` along `dim`.
  Value slice(Value value, int64_t dim, Value offset, OpFoldResult size) {
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<OpFoldResult> offsets(type.getRank(), builder.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes,
        strides(type.getRank(), builder.getIndexAttr(1));
    for (auto [d, extent] : llvm::enumerate(type.getShape()))
      sizes.push_back(builder.getIndexAttr(extent));
    offsets[dim] = offset;
    sizes[dim] = size;
    return tensor::ExtractSliceOp::create(builder, loc, value, offsets, sizes,
                                          strides);
  }

  /// Rows [offset, offset + size) of every token-dim argument, padded with
  /// zero rows to `tokens` when `size` is smaller; the others whole.
  SmallVector<Value> callArguments(Value offset, OpFoldResult size,
                                   int64_t tokens) {
    SmallVector<Value> values;
    for (auto [argument, dim] : llvm::zip(arguments, dims.arguments)) {
      if (dim < 0) {
        values.push_back(argument);
        continue;
      }
      Value rows = slice(argument, dim, offset, size);
      auto type = cast<RankedTensorType>(rows.getType());
      if (!type.hasStaticShape()) {
        auto padded =
            cast<RankedTensorType>(qforge::withTokenCount(type, tokens));
        Value zero = arith::ConstantOp::create(
            builder, loc, builder.getZeroAttr(type.getElementType()));
        rows = tensor::createPadHighOp(padded, rows, zero, /*nofold=*/false,
                                       loc, builder);
      }
      values.push_back(rows);
    }
    // Packed parameters after the raw arguments (docs/abi.md), whole.
    llvm::append_range(values,
                       llvm::drop_begin(arguments, dims.arguments.size()));
    return values;
  }

  /// Calls `path` on rows [offset, offset + size) and inserts the first
  /// `size` rows of each result into `accumulators`.
  SmallVector<Value> callAndInsert(qforge::TokenPath path, Value offset,
                                   OpFoldResult size, ValueRange accumulators) {
    auto call = func::CallOp::create(builder, loc, path.function,
                                     callArguments(offset, size, path.tokens));
    SmallVector<Value> updated;
    for (auto [result, accumulator, dim] :
         llvm::zip(call.getResults(), accumulators, dims.results)) {
      if (dim < 0) {
        updated.push_back(result);
        continue;
      }
      Value rows = result;
      if (!getConstantIntValue(size))
        rows = slice(result, dim, index(0), size);
      auto type = cast<RankedTensorType>(accumulator.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        builder.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes,
          strides(type.getRank(), builder.getIndexAttr(1));
      for (int64_t d = 0; d < type.getRank(); ++d)
        sizes.push_back(
            d == dim ? size
                     : tensor::getMixedSize(builder, loc, accumulator, d));
      offsets[dim] = offset;
      updated.push_back(tensor::InsertSliceOp::create(
          builder, loc, rows, accumulator, offsets, sizes, strides));
    }
    return updated;
  }

  /// for (i = start; i < end; i += path.tokens) acc = call(rows i..).
  SmallVector<Value> loop(qforge::TokenPath path, Value start, Value end,
                          ValueRange accumulators) {
    auto forOp = scf::ForOp::create(
        builder, loc, start, end, index(path.tokens), accumulators,
        [&](OpBuilder &nested, Location, Value row, ValueRange iterArgs) {
          OpBuilder::InsertionGuard guard(builder);
          builder.setInsertionPointToStart(nested.getInsertionBlock());
          SmallVector<Value> updated = callAndInsert(
              path, row, builder.getIndexAttr(path.tokens), iterArgs);
          scf::YieldOp::create(builder, loc, updated);
        });
    return forOp.getResults();
  }
};
} // namespace

/// The rows left after the whole chunks (`left` of them, from `start`):
/// if (left <= rowsBySingle) one at a time through `single`, else if (left
/// <= the smallest remainder) that one padded, else if ..., else padded into
/// `smallest`: each test in the previous one's else block. Returns the
/// chain's results.
static SmallVector<Value>
buildRowsLeftChain(OpBuilder &builder, DispatchBuilder &dispatch,
                   ArrayRef<qforge::TokenPath> remainders,
                   qforge::TokenPath smallest, qforge::TokenPath single,
                   int64_t rowsBySingle, Value start, Value left, Value tokens,
                   ArrayRef<Value> accumulators) {
  Location loc = dispatch.loc;
  SmallVector<qforge::TokenPath> padded(remainders);
  llvm::sort(padded,
             [](const qforge::TokenPath &a, const qforge::TokenPath &b) {
               return a.tokens < b.tokens;
             });
  SmallVector<Value> results;
  OpBuilder::InsertionGuard guard(builder);
  TypeRange types = ValueRange(accumulators).getTypes();
  for (size_t option = 0; option <= padded.size(); ++option) {
    int64_t bound = option == 0 ? rowsBySingle : padded[option - 1].tokens;
    Value fits = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule,
                                       left, dispatch.index(bound));
    auto ifOp = scf::IfOp::create(builder, loc, types, fits,
                                  /*withElseRegion=*/true);
    if (option == 0)
      results = ifOp.getResults();
    else
      scf::YieldOp::create(builder, loc, ifOp.getResults());
    builder.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(
        builder, loc,
        option == 0 ? dispatch.loop(single, start, tokens, accumulators)
                    : dispatch.callAndInsert(padded[option - 1], start, left,
                                             accumulators));
    builder.setInsertionPointToStart(ifOp.elseBlock());
  }
  scf::YieldOp::create(
      builder, loc,
      dispatch.callAndInsert(smallest, start, left, accumulators));
  return results;
}

/// M, read off the first operand of `operands` that has it (by `dims`).
static Value readTokenCount(OpBuilder &builder, Location loc,
                            const qforge::TokenDims &dims,
                            ValueRange operands) {
  unsigned first =
      llvm::find_if(dims.arguments, [](int64_t dim) { return dim >= 0; }) -
      dims.arguments.begin();
  return tensor::DimOp::create(builder, loc, operands[first],
                               dims.arguments[first]);
}

/// An empty tensor of `type`, `tokens` rows along `dim` when it is dynamic.
static Value createEmptyResult(OpBuilder &builder, Location loc, Type type,
                               int64_t dim, Value tokens) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor::EmptyOp::create(builder, loc, tensor.getShape(),
                                 tensor.getElementType(),
                                 dim >= 0 ? ValueRange{tokens} : ValueRange{});
}

/// M, read off the first argument of `function` that has it, and per result
/// in `accumulators` its destination argument (from `destinations` on, in
/// result order, for the results with the token dim) or an empty tensor.
static Value buildTokenCountAndResults(OpBuilder &builder,
                                       func::FuncOp function,
                                       const qforge::TokenDims &dims,
                                       std::optional<unsigned> destinations,
                                       SmallVectorImpl<Value> &accumulators) {
  Location loc = function.getLoc();
  Block &body = function.getBody().front();
  Value tokens = readTokenCount(builder, loc, dims, body.getArguments());
  unsigned next = destinations.value_or(0);
  for (auto [type, dim] : llvm::zip(function.getResultTypes(), dims.results))
    accumulators.push_back(
        destinations && dim >= 0
            ? Value(body.getArgument(next++))
            : createEmptyResult(builder, loc, type, dim, tokens));
  return tokens;
}

void qforge::passDestinations(func::CallOp call, const TokenDims &dims) {
  OpBuilder builder(call);
  Location loc = call.getLoc();
  Value tokens = readTokenCount(builder, loc, dims, call.getOperands());
  SmallVector<Value> destinations;
  for (auto [type, dim] : llvm::zip(call.getResultTypes(), dims.results))
    if (dim >= 0)
      destinations.push_back(
          createEmptyResult(builder, loc, type, dim, tokens));
  call->insertOperands(call.getNumOperands(), destinations);
}

void qforge::buildTokenDispatch(func::FuncOp function, const TokenDims &dims,
                                ArrayRef<TokenPath> chunks,
                                ArrayRef<TokenPath> remainders,
                                TokenPath single, int64_t rowsBySingle,
                                bool padNearlyFullChunks,
                                ArrayRef<Type> argumentTypes,
                                bool intoDestinations) {
  Location loc = function.getLoc();
  Block &body = function.getBody().front();
  body.clear();
  for (auto [argument, type] : llvm::zip(body.getArguments(), argumentTypes))
    argument.setType(type);
  // Packed parameters a path takes after the raw ones (a block format's
  // quants and scales packed apart, docs/abi.md).
  for (Type type : llvm::drop_begin(argumentTypes, body.getNumArguments()))
    (void)function.insertArgument(body.getNumArguments(), type,
                                  DictionaryAttr(), loc);
  // Then the destinations: written in place (bufferization may write into
  // them, the lowering then drops the results they are equivalent to).
  std::optional<unsigned> destinations;
  if (intoDestinations) {
    destinations = body.getNumArguments();
    auto writable = BoolAttr::get(function.getContext(), true);
    for (auto [type, dim] : llvm::zip(function.getResultTypes(), dims.results))
      if (dim >= 0) {
        unsigned index = body.getNumArguments();
        (void)function.insertArgument(index, type, DictionaryAttr(), loc);
        function.setArgAttr(
            index, bufferization::BufferizationDialect::kWritableAttrName,
            writable);
      }
  }
  function.setFunctionType(FunctionType::get(function.getContext(),
                                             body.getArgumentTypes(),
                                             function.getResultTypes()));
  OpBuilder builder = OpBuilder::atBlockEnd(&body);
  DispatchBuilder dispatch{
      builder, loc, dims, body.getArguments().take_front(argumentTypes.size())};

  SmallVector<Value> accumulators;
  Value tokens = buildTokenCountAndResults(builder, function, dims,
                                           destinations, accumulators);

  // Whole chunks, the largest first. With padNearlyFullChunks, after those
  // of a size that is not the smallest, rows left that fill one more to
  // within both the smallest chunk and an eighth of its size go padded into
  // it, one call: M = 31 with chunks of 32 and 8 is one padded 32, not
  // three 8s and a fourth call for the 7 left (10-15% faster on an Intel
  // Xeon; 25-26 rows padded into 32 were 2-5% slower, hence the eighth;
  // docs/benchmarks.md). The rest of the dispatch runs in the else block of
  // that test.
  SmallVector<TokenPath> bySize(chunks);
  llvm::sort(bySize, [](const TokenPath &a, const TokenPath &b) {
    return a.tokens > b.tokens;
  });
  // Rows [start, M) are still to do; `left` is their count.
  Value start = dispatch.index(0);
  Value left = arith::SubIOp::create(builder, loc, tokens, start);
  SmallVector<scf::IfOp> paddedIntoLarger;
  for (const TokenPath &chunk : bySize) {
    Value size = dispatch.index(chunk.tokens);
    Value count = arith::DivUIOp::create(builder, loc, left, size);
    Value end = arith::AddIOp::create(
        builder, loc, start, arith::MulIOp::create(builder, loc, count, size));
    accumulators = dispatch.loop(chunk, start, end, accumulators);
    start = end;
    left = arith::SubIOp::create(builder, loc, tokens, start);
    int64_t mostPadding = std::min(bySize.back().tokens - 1, chunk.tokens / 8);
    if (!padNearlyFullChunks || chunk.tokens == bySize.back().tokens ||
        mostPadding < 1)
      continue;
    Value nearlyFull =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::uge, left,
                              dispatch.index(chunk.tokens - mostPadding));
    auto ifOp =
        scf::IfOp::create(builder, loc, ValueRange(accumulators).getTypes(),
                          nearlyFull, /*withElseRegion=*/true);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(
        builder, loc, dispatch.callAndInsert(chunk, start, left, accumulators));
    builder.setInsertionPointToStart(ifOp.elseBlock());
    paddedIntoLarger.push_back(ifOp);
  }

  // The rows left: one at a time, or padded into the smallest chunk or
  // remainder that holds them, as a chain of ifs on their count (the
  // smallest bound first).
  if (bySize.empty()) {
    accumulators = dispatch.loop(single, start, tokens, accumulators);
  } else {
    accumulators =
        buildRowsLeftChain(builder, dispatch, remainders, bySize.back(), single,
                           rowsBySingle, start, left, tokens, accumulators);
  }
  // Close the tests for the nearly full chunks, the innermost first.
  for (scf::IfOp ifOp : llvm::reverse(paddedIntoLarger)) {
    scf::YieldOp::create(builder, loc, accumulators);
    builder.setInsertionPointAfter(ifOp);
    accumulators = ifOp.getResults();
  }
  func::ReturnOp::create(builder, loc, accumulators);
}
