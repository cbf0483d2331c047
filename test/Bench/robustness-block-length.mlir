// The script fuzzer's finding of stop 36: the int8 decode with its chains
// param (the group loop unrolled by up to that many groups, one partial sum
// each) raised from 2 to 257 -- here by a tuning file over the strategy
// table, Inputs/chains-257.json -- on a kernel of 257 groups: the
// whole group loop unrolled into one block of about 61000 register
// operations, 7 s of code generation (over 60 s under the sanitizers).
// Refused before the lowering, at the contraction, in a fraction of that.
// RUN: %gen_kernel 64 257 128 > %t.mlir
// RUN: not qforge-compile %t.mlir --strategy-table=%S/Inputs/chains-257.json --strategy-row=decode-int8/16-lanes --mcpu=sapphirerapids -o %t.o 2>&1 | FileCheck %s
// CHECK: .mlir:27:13: error: a block of straight-line code would be about {{[0-9]+}} register operations, more than 32768 (--max-block-ops); a script that unrolls without bound, or an op vectorized whole?
// CHECK: .mlir:7:1: note: in @quantized_matmul
// CHECK: qforge-compile: error: lowering to the LLVM dialect failed
// RUN: not ls %t.o
// Its 2 chains, as shipped, stay within the bound.
// RUN: qforge-compile %t.mlir --strategy-row=decode-int8/16-lanes --mcpu=sapphirerapids -o %t.o
