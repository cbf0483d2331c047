// The instruction mix of the integer prefill's inner loop at M = 17 on an
// AVX-512 Zen 5 core (--mcpu=znver5; compiled only, so it runs on any host),
// from scripts/loop-mix.py. M = 17 is two blocks of 9 tokens
// (pack_balanced with a tile overhead: not three of 6); each k step reads
// two 64-byte weight lines (for 4-bit weights: one line, its nibbles split
// by a mask or an affine shift) and multiplies them with 9 broadcast
// activation words -- 18 vpdpbusd into registers per iteration (LLVM
// unrolled the k loop twice before the byte work around the dot products
// was flattened to 1-D, lib/after-bufferization.mlir; the same mix per
// vpdpbusd but for the loop's 4 scalar ops), and no accumulator stored or
// reloaded (with the token loop left rolled,
// every vpdpbusd was followed by a vmovdqa64 to memory: half the speed).
// RUN: %gen_kernel 64 4 128 --batch 17 > %t.mlir
// RUN: qforge-compile %t.mlir --mcpu=znver5 --int8-activations --emit=asm -o %t.int8.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int8.s | FileCheck %s --check-prefix=INT8
// 17 tokens in blocks of 9: the activation's packs of the last, partial
// block are vector code too (masked reads), no loop of byte moves or copy
// calls (transform.qforge.vectorize_padded_packs); the weights' one-time
// pack function aside.
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int8.s | grep -v _pack_weights | FileCheck %s --check-prefix=INT8-PACKS
// INT8-PACKS-NOT: {{movzbl|movb|callq}}
// INT8-PACKS:     vpdpbusd
// INT8-PACKS-NOT: {{movzbl|movb|callq}}
// INT8: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 1, cmpq 1, jne 1, prefetcht0 2, subq 1, vmovdqu64 2, vpbroadcastd 9, vpdpbusd 18{{$}}
// On Intel AVX-512 cores (prefill-int8.mlir) the same
// loop prefetches the next group's weight lines into L2 (prefetcht1), not
// into L1 as on Zen.
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --int8-activations --emit=asm -o %t.int8-intel.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int8-intel.s | FileCheck %s --check-prefix=INT8-INTEL
// INT8-INTEL: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 1, cmpq 1, jne 1, prefetcht1 2, subq 1, vmovdqu64 2, vpbroadcastd 9, vpdpbusd 18{{$}}
// One group per row (per-channel scales): the same loop, prefetching too.
// The group loop of one iteration folds away; the k steps go in chunks of
// 4 KiB of the row tile's weights, tagged as the groups' loop, so the next
// chunk is prefetched (without, the cold call at M = 17 took 1.7x longer).
// RUN: %gen_kernel 64 1 1024 --batch 17 > %t.pc.mlir
// RUN: qforge-compile %t.pc.mlir --mcpu=sapphirerapids --int8-activations --emit=asm -o %t.int8-pc.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int8-pc.s | FileCheck %s --check-prefix=INT8-INTEL
// RUN: %gen_kernel 64 1 1024 --batch 17 --int4 > %t.pc4.mlir
// RUN: qforge-compile %t.pc4.mlir --mcpu=znver5 --int8-activations --emit=asm -o %t.int4-pc.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4-pc.s | FileCheck %s --check-prefix=INT4-PER-CHANNEL
// INT4-PER-CHANNEL: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 1, cmpq 1, jne 1, prefetcht0 2, subq 1, vpandq 2, vpbroadcastd 9, vpdpbusd 18{{$}}
// INT4-PER-CHANNEL: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 1, cmpq 1, jne 1, prefetcht0 2, subq 1, vgf2p8affineqb 2, vmovdqu64 2, vpbroadcastd 9, vpdpbusd 18{{$}}
// The group epilogue takes each token's activation scale as a broadcast
// load into the multiply by s / 127, not as a lane of a vector permuted out
// (amax / 127 per token was one vpermps each for Sapphire Rapids' blocks of
// 8 tokens).
// RUN: %gen_kernel 64 4 128 --batch 16 > %t.16.mlir
// RUN: qforge-compile %t.16.mlir --mcpu=sapphirerapids --int8-activations --emit=asm -o %t.int8-spr.s
// RUN: FileCheck %s --check-prefix=INT8-EPILOGUE < %t.int8-spr.s
// INT8-EPILOGUE: vpdpbusd
// INT8-EPILOGUE: vcvtdq2ps
// INT8-EPILOGUE-NOT: vpermps

// RUN: %gen_kernel 64 4 128 --batch 17 --int4 > %t.int4.mlir
// RUN: qforge-compile %t.int4.mlir --mcpu=znver5 --int8-activations --emit=asm -o %t.int4.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4.s | FileCheck %s --check-prefix=INT4
// INT4: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 1, cmpq 1, jne 1, prefetcht0 2, subq 1, vpandq 2, vpbroadcastd 9, vpdpbusd 18{{$}}
// INT4: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 1, cmpq 1, jne 1, prefetcht0 2, subq 1, vgf2p8affineqb 2, vmovdqu64 2, vpbroadcastd 9, vpdpbusd 18{{$}}

// The f32-activation prefills at M = 128: 6 tokens x 64 rows (8-bit
// weights) and 5 x 64 (4-bit), per k step the converted weight lines and
// one broadcast per token; 8 k steps per iteration, 24 (20) accumulators
// in registers -- no vmovups / vmovaps. With 8 tokens (32 accumulators)
// LLVM spilled: 206 vmovups per 256 FMAs, 0.63 of the f32 peak against
// 0.86 (docs/benchmarks.md).
// RUN: %gen_kernel 128 4 128 --batch 128 > %t.f32.mlir
// RUN: qforge-compile %t.f32.mlir --mcpu=znver5 --emit=asm -o %t.f32.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.f32.s | FileCheck %s --check-prefix=F32
// Each token's activation a broadcast from memory (a load port), not pairs
// of them read as one vmovsd and taken apart by shuffles
// (apply_patterns.qforge.scalarize_extracted_reads).
// F32: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 3, cmpq 1, jb 1, prefetcht0 8, vbroadcastss 48, vcvtdq2ps 32, vfmaddps 192, vpmovzxbd 32{{$}}
// A block of 3 tokens (M = 3 on an Intel core): 3 broadcasts from memory
// per k step; read as a vector<3xf32>, two of them were one vmovsd, a
// register broadcast and a vpermps -- two shuffles on the ports the
// conversions and multiply-adds share.
// RUN: %gen_kernel 128 4 128 --batch 3 > %t.m3.mlir
// RUN: qforge-compile %t.m3.mlir --mcpu=sapphirerapids --emit=asm -o %t.m3.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.m3.s | FileCheck %s --check-prefix=F32-M3
// F32-M3: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 3, cmpq 1, jb 1, prefetcht0 8, vbroadcastss 24, vcvtdq2ps 32, vfmaddps 96, vpmovzxbd 32{{$}}
// 4-bit weights at M = 3 on an Intel core: the same 64-row tiles, their
// nibbles looked up in tables (prefill-int4-f32.mlir):
// 16 lookups, 8 widenings and 8 shifts per 48 FMAs, no conversion or
// extract (the generic script's mix: INT4F32 below).
// RUN: %gen_kernel 128 4 128 --batch 3 --int4 > %t.int4-m3.mlir
// RUN: qforge-compile %t.int4-m3.mlir --mcpu=sapphirerapids --emit=asm -o %t.int4-m3.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4-m3.s | FileCheck %s --check-prefix=INT4F32-M3
// INT4F32-M3: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 3, cmpq 1, jb 1, prefetcht0 4, vbroadcastss 24, vfmaddps 96, vpermd 32, vpmovzxbd 16, vpsrld 16{{(, vpxord? [0-9]+)*}}{{$}}
// M = 7 on an Intel core: one block of 7 tokens on 32 rows (the 12 x 32
// scripts from M = 6), not two tiles of 64 rows each converting the weights
// again: per 112 FMAs 16 conversions (8-bit), 16 lookups (4-bit).
// RUN: %gen_kernel 128 4 128 --batch 7 > %t.m7.mlir
// RUN: qforge-compile %t.m7.mlir --mcpu=sapphirerapids --emit=asm -o %t.m7.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.m7.s | FileCheck %s --check-prefix=F32-M7
// F32-M7: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 3, cmpq 1, jb 1, prefetcht0 8, vbroadcastss 56, vcvtdq2ps 16, vfmaddps 112, vpmovzxbd 16{{$}}
// RUN: %gen_kernel 128 4 128 --batch 7 --int4 > %t.int4-m7.mlir
// RUN: qforge-compile %t.int4-m7.mlir --mcpu=sapphirerapids --emit=asm -o %t.int4-m7.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4-m7.s | FileCheck %s --check-prefix=INT4F32-M7
// INT4F32-M7: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 2, cmpq 1, jb 1, prefetcht0 4, subq 1, vbroadcastss 56, vfmaddps 112, vpermd 16, vpmovzxbd 8, vpsrld 8{{(, vpxord? [0-9]+)*}}{{$}}
// RUN: %gen_kernel 128 4 128 --batch 128 --int4 > %t.int4f32.mlir
// RUN: qforge-compile %t.int4f32.mlir --mcpu=znver5 --emit=asm -o %t.int4f32.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4f32.s | FileCheck %s --check-prefix=INT4F32
// INT4F32: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 3, cmpq 1, jb 1, prefetcht0 4, vbroadcastss 40, vcvtdq2ps 32, vextracti128 {{[0-9]+}}, vextracti32x4 {{[0-9]+}}, vextracti64x4 8, vfmaddps 160, vgf2p8affineqb 4, vmovdqu64 4, vpandq 4, vpmovzxbd 32{{$}}

// Intel AVX-512 cores (prefill-f32.mlir,
// prefill-int4-f32.mlir): 12 tokens x 32 rows, per 8 k
// steps 16 conversions (half the 6 x 64 tile's) for the same 192 FMAs into
// 24 accumulators, one broadcast per token and k step, no spill. That is
// the loop of fewer than 8 blocks of tokens (M = 48: 4).
// RUN: %gen_kernel 128 4 128 --batch 48 > %t.f32-48.mlir
// RUN: qforge-compile %t.f32-48.mlir --mcpu=sapphirerapids --emit=asm -o %t.f32-48-intel.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.f32-48-intel.s | FileCheck %s --check-prefix=F32-INTEL
// F32-INTEL: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 3, cmpq 1, jb 1, prefetcht0 {{[0-9]+}}, vbroadcastss 96, vcvtdq2ps 16, vfmaddps 192, vpmovzxbd 16{{$}}
// With 8 blocks or more (M = 128: 11), a row tile's weights of a group are
// converted once, before its blocks (@convert_weights_once_per_group): a
// loop of conversions into an f32 tile (the next group prefetched there),
// then the blocks' loop of FMAs reading it -- 2 loads per 24 FMAs, no
// widening or conversion.
// RUN: qforge-compile %t.f32.mlir --mcpu=sapphirerapids --emit=asm -o %t.f32-intel.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.f32-intel.s | FileCheck %s --check-prefix=F32-INTEL-AHEAD
// F32-INTEL-AHEAD: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 2, cmpq 1, jb 1, prefetcht0 8, vcvtdq2ps 16, vmovaps 16, vpmovzxbd 16{{$}}
// F32-INTEL-AHEAD-NEXT: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 3, cmpq 1, jb 1, vbroadcastss 96, vfmaddps 192, vmovaps 16{{$}}
// One group per row: the same loops, prefetching too (the k steps in chunks
// of 128 tagged as the groups' loop; without, M = 17 took 1.15x longer cold).
// RUN: %gen_kernel 128 1 1024 --batch 128 > %t.f32-pc.mlir
// RUN: qforge-compile %t.f32-pc.mlir --mcpu=sapphirerapids --emit=asm -o %t.f32-pc-intel.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.f32-pc-intel.s | FileCheck %s --check-prefix=F32-INTEL
// RUN: %gen_kernel 128 1 1024 --batch 128 --int4 > %t.int4f32-pc.mlir
// RUN: qforge-compile %t.int4f32-pc.mlir --mcpu=sapphirerapids --emit=asm -o %t.int4f32-pc-intel.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4f32-pc-intel.s | FileCheck %s --check-prefix=INT4F32-INTEL
// RUN: %gen_kernel 128 4 128 --batch 48 --int4 > %t.int4f32-48.mlir
// RUN: qforge-compile %t.int4f32-48.mlir --mcpu=sapphirerapids --emit=asm -o %t.int4f32-48-intel.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4f32-48-intel.s | FileCheck %s --check-prefix=INT4F32-INTEL
// 4-bit: the nibbles looked up in a table of their 16 values (vpermd) on
// the bytes widened once, no conversion and no extract
// (apply_patterns.qforge.x86_nibble_tables); the register moves and zeroing
// idioms LLVM adds for vpermd's dependency on its destination are left free.
// INT4F32-INTEL: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 2, cmpq 1, jb 1, prefetcht0 {{[0-9]+}}, subq 1, vbroadcastss 96, vfmaddps 192, {{(vmovdqa64 [0-9]+, )?}}vpermd 16, vpmovzxbd 8, vpsrld 8{{(, vpxord? [0-9]+)*}}{{$}}
// M = 128 (11 blocks): the nibbles of a row tile's group converted once
// (@convert_nibbles_once_per_group), the blocks' FMAs as the 8-bit ones.
// RUN: qforge-compile %t.int4f32.mlir --mcpu=sapphirerapids --emit=asm -o %t.int4f32-intel.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4f32-intel.s | FileCheck %s --check-prefix=INT4F32-INTEL-AHEAD
// INT4F32-INTEL-AHEAD: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 1, cmpq 1, jb 1, prefetcht0 4, subq 1, vmovdqa64 16, vpermd 16, vpmovzxbd 8, vpsrld 8{{(, vpxord? [0-9]+)*}}{{$}}
// INT4F32-INTEL-AHEAD-NEXT: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 3, cmpq 1, jb 1, vbroadcastss 96, vfmaddps 192, vmovaps 16{{$}}

// M = 10: two blocks of 5 tokens. A block's 5 x 32 result tile stays 5 rows
// of 32 lanes through the lowering (rows of a whole register are not
// flattened): flattened, it was a <160 x float> that LLVM rebuilt lane by
// lane through the stack -- 240 vinsertps, 2.2x the time of M = 8.
// RUN: %gen_kernel 64 4 128 --batch 10 > %t.10.mlir
// RUN: qforge-compile %t.10.mlir --mcpu=sapphirerapids --int8-activations --emit=asm -o %t.int8-10.s
// RUN: FileCheck %s --check-prefix=TEN < %t.int8-10.s
// TEN: vpdpbusd
// TEN-NOT: vinsertps
