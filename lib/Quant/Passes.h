//===- Passes.h - qforge's quantization passes ------------------*- C++ -*-===//
#ifndef QFORGE_QUANT_PASSES_H
#define QFORGE_QUANT_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace qforge {

#define GEN_PASS_DECL
#include "Quant/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Quant/Passes.h.inc"
} // namespace qforge

#endif // QFORGE_QUANT_PASSES_H
