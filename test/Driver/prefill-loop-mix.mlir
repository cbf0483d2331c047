// The instruction mix of the integer prefill's inner loop at M = 17 on an
// AVX-512 Zen 5 core (--mcpu=znver5; compiled only, so it runs on any host),
// from scripts/loop-mix.py. M = 17 is three blocks of 6 tokens
// (pack_balanced); each k step reads two 64-byte weight lines (for 4-bit
// weights: one line, its nibbles split by a mask or an affine shift) and
// multiplies them with 6 broadcast activation words -- 12 vpdpbusd into
// registers, twice per iteration, and no accumulator stored or reloaded
// (with the 6-token loop left rolled, every vpdpbusd was followed by a
// vmovdqa64 to memory: 72 instructions, half the speed).
// RUN: %gen_kernel 64 4 128 --batch 17 > %t.mlir
// RUN: qforge-compile %t.mlir --mcpu=znver5 --int8-activations --emit=asm -o %t.int8.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int8.s | FileCheck %s --check-prefix=INT8
// INT8: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 2, cmpq 1, jne 1, prefetcht0 4, vmovdqu64 4, vpbroadcastd 12, vpdpbusd 24{{$}}

// RUN: %gen_kernel 64 4 128 --batch 17 --int4 > %t.int4.mlir
// RUN: qforge-compile %t.int4.mlir --mcpu=znver5 --int8-activations --emit=asm -o %t.int4.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4.s | FileCheck %s --check-prefix=INT4
// INT4: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 2, cmpq 1, jne 1, prefetcht0 4, vpandq 4, vpbroadcastd 12, vpdpbusd 24{{$}}
// INT4: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 2, cmpq 1, jne 1, prefetcht0 4, vgf2p8affineqb 4, vmovdqu64 4, vpbroadcastd 12, vpdpbusd 24{{$}}
