// The script fuzzer's finding of stop 36: decode-int8-vnni.mlir with its
// %chains param (the group loop unrolled by up to that many groups, one
// partial sum each) raised from 2 to 257, on a kernel of 257 groups: the
// whole group loop unrolled into one block of about 61000 register
// operations, 7 s of code generation (over 60 s under the sanitizers).
// Refused before the lowering, at the contraction, in a fraction of that.
// RUN: %gen_kernel 64 257 128 > %t.mlir
// RUN: sed -e 's/%%chains = transform.param.constant 2 : i64/%%chains = transform.param.constant 257 : i64/' \
// RUN:   %transforms/decode-int8-vnni.mlir > %t.script.mlir
// RUN: grep -c "constant 257 : i64" %t.script.mlir
// RUN: not qforge-compile %t.mlir --script=%t.script.mlir --mcpu=sapphirerapids -o %t.o 2>&1 | FileCheck %s
// CHECK: .mlir:27:13: error: a block of straight-line code would be about {{[0-9]+}} register operations, more than 32768 (--max-block-ops); a script that unrolls without bound, or an op vectorized whole?
// CHECK: .mlir:7:1: note: in @quantized_matmul
// CHECK: qforge-compile: error: lowering to the LLVM dialect failed
// RUN: not ls %t.o
// Its 2 chains, as shipped, stay within the bound.
// RUN: qforge-compile %t.mlir --script=%transforms/decode-int8-vnni.mlir --mcpu=sapphirerapids -o %t.o
