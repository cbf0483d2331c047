// A batched kernel (2 activation rows, the prefill form). Without flags the
// driver picks the batched (prefill) strategy for M > 1, which compiles it
// and matches the reference.
// RUN: %gen_kernel 32 2 32 --batch 2 > %t.mlir
// RUN: qforge-bench %t.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: compiling @quantized_matmul with {{.*}}prefill-f32.mlir
// DEFAULT: verify: {{.*}}: PASS

// The unpacked decode strategy, forced with --script, leaves n-D vectors
// that the fixed lowering cannot reduce to rank 1 and says so -- a
// diagnostic and a non-zero exit, not an out-of-memory crash (its patterns
// used to rewrite each other's output without end).
// RUN: not qforge-compile %t.mlir --strategy-row=decode-f32/16-lanes --mcpu=sapphirerapids --emit=obj -o %t.o 2>&1 | FileCheck %s --check-prefix=UNPACKED
// UNPACKED: error: vector lowering did not converge
// UNPACKED: qforge-compile: error: lowering to the LLVM dialect failed

// RUN: qforge-bench %t.mlir --strategy-row=decode-packed-f32/avx512 --verify --tolerance=1e-5 --time=false | FileCheck %s --check-prefix=PACKED
// PACKED: verify: {{.*}}: PASS

// The integer prefill takes 2 rows as one block of 8 tokens (executed in
// Bench/verify-prefill-int8-strategy.mlir).
// RUN: qforge-compile %t.mlir --int8-activations --mcpu=sapphirerapids --emit=asm -o - 2>&1 | FileCheck %s --check-prefix=INT8
// INT8: vpdpbusd
