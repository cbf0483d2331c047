// The instruction mix of each decode path's inner loop on an AVX-512 Zen 5
// core (--mcpu=znver5; compiled only, so it runs on any host), from
// scripts/loop-mix.py: the vector instructions per iteration are pinned, so
// a change that adds work per weight byte fails here (docs/benchmarks.md
// says what each path reaches with them).
// RUN: %gen_kernel 256 32 128 > %t.mlir
// RUN: %gen_kernel 256 32 128 --int4 > %t.int4.mlir

// f32 (default): per group of 128 weights and row, 8 x (widen 16 bytes,
// convert, multiply-add) as four partial sums (3 adds), then the group's
// zero-point and scale (one broadcast, two FMAs); a prefetch per 64-byte
// line of the row after next (decode-f32.mlir).
// RUN: qforge-compile %t.mlir --mcpu=znver5 --emit=asm -o %t.f32.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.f32.s | FileCheck %s --check-prefix=F32
// F32: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 2, cmpq 1, jne 1, prefetcht0 4, vaddps 3, vbroadcastss 1, vcvtdq2ps 8, vfmaddps 6, vfnmaddps 1, vmulps 3, vpmovzxbd 8{{$}}

// Packed f32: a k step of 16 x 4 row tiles per widen / convert / FMA, one
// broadcast activation per 16 of them, a prefetch per 64-byte line.
// RUN: qforge-compile %t.mlir --mcpu=znver5 --packed-weights --emit=asm -o %t.packed.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.packed.s | FileCheck %s --check-prefix=PACKED
// PACKED: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}prefetcht0 32, {{.*}}vbroadcastss 8, vcvtdq2ps 128, vfmaddps 128, vpmovzxbd 128{{$}}

// N = 320, five 64-row tiles (N = 4100's 65 is 13 x 5): five tiles
// interleaved per iteration (the largest count up to 5 that divides the
// tiles), not one at a time -- 5 x 32 widen / convert / FMA per iteration.
// RUN: %gen_kernel 320 32 128 > %t.320.mlir
// RUN: qforge-compile %t.320.mlir --mcpu=znver5 --packed-weights --emit=asm -o %t.packed5.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.packed5.s | FileCheck %s --check-prefix=PACKED5
// PACKED5: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}prefetcht0 40, {{.*}}vbroadcastss 8, vcvtdq2ps 160, vfmaddps 160, {{(vmovups [0-9]+, )?}}vpmovzxbd 160{{$}}

// int8: two vpdpbusd per group of 128 weight bytes, no widening of weights;
// the group's float epilogue; the next row prefetched into L1 on Zen
// (decode-int8.mlir), into L2 elsewhere, where only the weights'
// two lines are prefetched, not the group's scale and zero-point. The
// activation's per-lane sums (for the zero-point term) are vpdpbusd with
// bytes of 1, not a scalar add per byte (vaddss would sort between vaddps
// and vcvtdq2ps).
// RUN: qforge-compile %t.mlir --mcpu=znver5 --int8-activations --emit=asm -o %t.int8.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int8.s | FileCheck %s --check-prefix=INT8
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --int8-activations --emit=asm -o %t.int8-spr.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int8-spr.s | FileCheck %s --check-prefix=INT8-SPR
// INT8-SPR: {{^}}quantized_matmul .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}vaddps 8, vcvtdq2ps 8, {{(vmov[a-z0-9]+ [0-9]+, )?}}vpdpbusd 8,
// Elsewhere two groups per iteration, into two partial sums
// (@split_group_sums; test/Transforms/lib-decode.mlir checks they are two).
// INT8-SPR: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}prefetcht1 4, vbroadcastss 4, vcvtdq2ps 2, vfmaddps 2, vfnmaddps 2, vmovdqu64 4, vmulss 4, vpdpbusd 4, vpxor 1, vxorps 1{{$}}
// Groups of 32 (decode-int8.mlir, 8 lanes): four groups per
// iteration, one 256-bit vpdpbusd each.
// RUN: %gen_kernel 256 128 32 > %t.g32.mlir
// RUN: qforge-compile %t.g32.mlir --mcpu=sapphirerapids --int8-activations --emit=asm -o %t.int8-g32.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int8-g32.s | FileCheck %s --check-prefix=INT8-G32
// INT8-G32: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}prefetcht1 4, vbroadcastss 8, vcvtdq2ps 4, vfmaddps 4, vfnmaddps 4, vmovdqu 4, vmulss 8, {{.*}}{vex} 4{{$}}
// On Zen every read of the next row is prefetched (the group's scale and
// zero-point too), two groups per iteration as elsewhere.
// INT8: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}prefetcht0 8, vbroadcastss 4, vcvtdq2ps 2, vfmaddps 2, vfnmaddps 2, vmovdqu64 4, vmulss 4, vpdpbusd 4, vpxor 1, vxorps 1{{$}}

// int8 on AVX2 without VNNI (Haswell; Zen 1-3 and Skylake-X take the same
// row, decode-int8/8-lanes-avx2): each 32 weight bytes, flipped to signed
// (vpxor), as |w| (vpabsb) times the activation clamped to +-127
// (vpmaxsb) with w's sign (vpsignb), one vpmaddubsw + vpmaddwd -- the
// unsigned weights' exact expansion took two of each and two vpand.
// RUN: qforge-compile %t.mlir --mcpu=haswell --int8-activations --emit=asm -o %t.int8-avx2.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int8-avx2.s | FileCheck %s --check-prefix=INT8-AVX2
// (The list is the loop's whole mix, sorted: a vpand would sit between
// vpaddd and vpmaddubsw.)
// INT8-AVX2: {{^}}quantized_matmul..omp_par .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}vpabsb 16, vpaddd 12, vpmaddubsw 16, vpmaddwd 16, vpmaxsb 16, vpsignb 16, vpxor 16{{$}}
// The row for AVX-VNNI forced on the same target (its unsigned weight
// bytes, up to 255, times the activation): the exact split, two of each
// and two vpand per 32 bytes -- the range analysis must not take one
// vpmaddubsw there.
// RUN: qforge-compile %t.mlir --mcpu=haswell --strategy-row=decode-int8/8-lanes-no-avx512vnni --emit=asm -o %t.int8-avx2-unsigned.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int8-avx2-unsigned.s | FileCheck %s --check-prefix=INT8-AVX2-UNSIGNED
// INT8-AVX2-UNSIGNED: {{^}}quantized_matmul..omp_par .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}vpaddd 28, vpand 32, vpmaddubsw 32, vpmaddwd 32{{$}}

// Packed int8: one load and one vpdpbusd per 64 weight bytes, two lines of
// 16 rows per k step sharing its activation word (one broadcast load); the
// group's 32 k steps in 4 independent sums per line (6 adds).
// RUN: qforge-compile %t.mlir --mcpu=znver5 --packed-weights --int8-activations --emit=asm -o %t.packed-int8.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.packed-int8.s | FileCheck %s --check-prefix=PACKED-INT8
// Before it, the activation quantized a group of 128 at a time in 512-bit
// ops (8 per step; in the packed shape, 32 x 4 floats, it was 32 128-bit
// ones: transform.qforge.flatten_contiguous_vectors).
// PACKED-INT8: {{^}}quantized_matmul .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}vcvttps2dq 8, {{.*}}vmaxps 8, vminps 8, {{.*}}vmulps 8, vpmovdb 8, vrndscaleps 8{{$}}
// PACKED-INT8: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}vcvtdq2ps 2, vfmaddps 2, vfnmaddps 2, vmovdqu64 64, vmulps 2, vmulss 1, vpaddd 6, vpbroadcastd 32, vpdpbusd 64, vpxor 8{{$}}

// Packed int8 on AVX2 without VNNI (decode-packed-int8/avx2): lines of 8
// rows, one 256-bit register each -- a 16-row line split in halves kept
// its split's vperm2i128 + vpblendd per line, and the loop's 16 ymm
// accumulators spilled -- and 4 k steps per iteration, so that the next
// group's prefetches spread over the group (8 per iteration) instead of
// 64 in a row at its top: on Zen 1, 3.3 -> 1.8-2.0 ms cold on the seed
// (docs/measurements/2026-12-07-zen1-packed-int8-avx2.md). The whole mix:
// no permute, no blend, no spill (vmovdqu).
// RUN: qforge-compile %t.mlir --mcpu=haswell --packed-weights --int8-activations --emit=asm -o %t.packed-int8-avx2.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.packed-int8-avx2.s | FileCheck %s --check-prefix=PACKED-INT8-AVX2
// PACKED-INT8-AVX2: {{^}}quantized_matmul..omp_par .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; addq 1, cmpq 1, jb 1, prefetcht0 8, subq 1, vmovdqa 4, vpabsb 16, vpaddd 16, vpbroadcastd {{[0-9]+}}, vpmaddubsw 16, vpmaddwd 16, vpmaxsb 4, vpsignb 16, vpxor 16{{$}}

// 4-bit, f32 activations: per 64-byte line, 4 widenings of 16 bytes from
// memory, 4 shifts (the high nibbles), and per 16 nibbles one table lookup
// (vpermd, apply_patterns.qforge.x86_nibble_tables) and one FMA, against a
// mask, a shift, 6 extracts, 8 widenings and 8 conversions before
// (docs/benchmarks.md).
// RUN: qforge-compile %t.int4.mlir --mcpu=znver5 --emit=asm -o %t.int4.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4.s | FileCheck %s --check-prefix=INT4
// INT4: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}vbroadcastss 8, vfmaddps 32, vpermd 32, vpmovzxbd 16, vpsrld 16{{$}}

// 4-bit, int8 activations: per 64-byte line, a mask, an affine shift, two
// vpdpbusd; two lines of 16 rows per byte step, as packed int8.
// RUN: qforge-compile %t.int4.mlir --mcpu=znver5 --int8-activations --emit=asm -o %t.int4-int8.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4-int8.s | FileCheck %s --check-prefix=INT4-INT8
// INT4-INT8: {{^}}quantized_matmul .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}vcvttps2dq 8, {{.*}}vmaxps 8, vminps 8, {{.*}}vmulps 8, vpmovdb 8, vrndscaleps 8{{$}}
// INT4-INT8: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}vgf2p8affineqb 32, vmovdqu64 32, vmulps 2, vmulss 1, vpaddd 6, vpandq 32, vpbroadcastd 32, vpdpbusd 64, vpxor 6, vpxord 2{{$}}

// 4-bit, one group per row (per-channel, K = 4096): the group loop has one
// iteration and folds away, so the byte steps go in chunks (of a group of
// 128 with f32 activations, @tile_long_groups_in_chunks; of 256 with int8
// ones, the longest group the VNNI script unrolls whole), a loop tagged as
// the groups', and the chunk ahead is prefetched in the hot loop, one
// prefetch per line, as the group ahead is with grouped weights. Without it the loop had no prefetch
// and the f32 path ran at 0.42 of the read bandwidth, against 0.66
// (docs/benchmarks.md). The rest of the mix is the grouped one.
// RUN: %gen_kernel 256 1 4096 --int4 > %t.int4-per-channel.mlir
// RUN: qforge-compile %t.int4-per-channel.mlir --mcpu=znver5 --emit=asm -o %t.int4-pc.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4-pc.s | FileCheck %s --check-prefix=INT4-PER-CHANNEL
// INT4-PER-CHANNEL: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}prefetcht0 4, vbroadcastss 8, vfmaddps 32, vpermd 32, vpmovzxbd 16, vpsrld 16{{$}}
// RUN: qforge-compile %t.int4-per-channel.mlir --mcpu=znver5 --int8-activations --emit=asm -o %t.int4-int8-pc.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4-int8-pc.s | FileCheck %s --check-prefix=INT4-INT8-PER-CHANNEL
// INT4-INT8-PER-CHANNEL: {{^}}quantized_matmul{{[^ ]*}} .LBB{{[0-9_]+}}: {{[0-9]+}} instructions; {{.*}}prefetcht0 64, {{.*}}vgf2p8affineqb 64, {{.*}}vmovdqu64 64, vpaddd 6, vpandq 64, vpbroadcastd {{[0-9]+}}, vpdpbusd 128, vpxor 6{{$}}
