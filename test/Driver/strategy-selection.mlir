// Without --script, qforge-compile picks the shipped decode strategy from the
// target's features: 512-bit vectors with AVX-512, 256-bit with AVX2 + FMA,
// the int8 (vpdpbusd) strategy on request where AVX512-VNNI exists (its
// 256-bit version where only AVX-VNNI or AVX2 does: on AVX2 each vpdpbusd
// is expanded exactly to vpmaddubsw + vpmaddwd), the packed
// strategy on request where AVX-512 exists; and says why when nothing fits.
// RUN: %gen_kernel 32 4 128 > %t.mlir

// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --emit=asm -o - | FileCheck %s --check-prefix=AVX512
// AVX512-LABEL: quantized_matmul:
// AVX512:         vfmadd{{[0-9]+}}ps {{.*}}%zmm

// AMD Zen 4: the same f32 decode without software prefetch while a row is
// one block of groups (<= 6144 weights: 4 x 128 here, and 64 x 64); with
// more (86 x 128, two blocks) the prefetching script (docs/benchmarks.md,
// "Software prefetch on Zen 4").
// RUN: qforge-compile %t.mlir --mcpu=znver4 --emit=asm -o - | FileCheck %s --check-prefix=ZEN
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --emit=asm -o - | FileCheck %s --check-prefix=PREFETCH
// ZEN-LABEL: quantized_matmul:
// ZEN-NOT: prefetcht
// PREFETCH: prefetcht0
// RUN: %gen_kernel 32 64 64 > %t.g64.mlir
// RUN: qforge-compile %t.g64.mlir --mcpu=znver4 --emit=asm -o - | FileCheck %s --check-prefix=ZEN
// RUN: %gen_kernel 32 86 128 > %t.g86.mlir
// RUN: qforge-compile %t.g86.mlir --mcpu=znver4 --emit=asm -o - | FileCheck %s --check-prefix=PREFETCH

// RUN: qforge-compile %t.mlir --mcpu=haswell --emit=asm -o - | FileCheck %s --check-prefix=AVX2
// AVX2-LABEL: quantized_matmul:
// AVX2:         vfmadd{{[0-9]+}}ps {{.*}}%ymm
// AVX2-NOT:     %zmm

// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=INT8
// INT8-LABEL: quantized_matmul:
// INT8:         vpdpbusd

// Groups of 32 (llama.cpp's block) with AVX512-VNNI: less than a 512-bit
// step of 64 bytes, so the 8-lane strategy's 256-bit vpdpbusd.
// RUN: %gen_kernel 32 8 32 > %t.g32.mlir
// RUN: qforge-compile %t.g32.mlir --mcpu=znver5 --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=INT8-G32
// INT8-G32-LABEL: quantized_matmul:
// INT8-G32:         vpdpbusd {{.*}}, %ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// INT8-G32-LABEL: _mlir_ciface_quantized_matmul:

// AVX-VNNI without AVX512-VNNI: Alder Lake (no AVX-512 at all), or Sapphire
// Rapids with AVX512-VNNI turned off:
// the VEX-encoded 256-bit vpdpbusd (on Alder Lake, no zmm anywhere in the
// kernel; with AVX-512F still on, LLVM may use zmm for copies).
// RUN: qforge-compile %t.mlir --mcpu=alderlake --int8-activations --emit=asm -o - | FileCheck %s --check-prefixes=AVX-VNNI,ADL
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --mattr=-avx512vnni --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=AVX-VNNI
// AVX-VNNI-LABEL: quantized_matmul:
// ADL-NOT:        %zmm
// AVX-VNNI:       {vex} vpdpbusd {{.*}}, %ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// ADL-NOT:        %zmm
// AVX-VNNI-LABEL: _mlir_ciface_quantized_matmul:

// No VNNI but AVX2 (Skylake-X, Haswell, Zen 3): the 256-bit strategy, each
// vpdpbusd expanded to vpmaddubsw (pairs of products in 16 bits) and
// vpmaddwd (pairs of pairs in 32 bits), once per 32 bytes: the row's
// magnitude_times_sign makes the products |w| times the clamped activation
// with w's sign, which one vpmaddubsw never saturates
// (test/Driver/decode-loop-mix.mlir pins the loop).
// RUN: qforge-compile %t.mlir --mcpu=skylake-avx512 --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=EXPANDED-INT8
// RUN: qforge-compile %t.mlir --mcpu=haswell --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=EXPANDED-INT8
// EXPANDED-INT8-LABEL: quantized_matmul:
// EXPANDED-INT8-NOT:   vpdpbusd
// EXPANDED-INT8:       vpmaddubsw {{.*}}%ymm
// EXPANDED-INT8:       vpmaddwd {{.*}}%ymm
// EXPANDED-INT8-NOT:   vpdpbusd
// EXPANDED-INT8-LABEL: _mlir_ciface_quantized_matmul:
// RUN: not qforge-compile %t.mlir --mcpu=x86-64-v2 --int8-activations -o %t.o 2>&1 | FileCheck %s --check-prefix=NO-VNNI
// NO-VNNI: qforge-compile: error: the int8 decode strategy needs AVX512-VNNI and AVX512BW, AVX-VNNI or AVX2, which the target (CPU 'x86-64-v2') lacks; drop --int8-activations or pass --script

// The packed strategy: the kernel takes packed weights (32 rows padded to one
// tile of 64) and the module gains the packing function.
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --packed-weights --emit=mlir -o - | FileCheck %s --check-prefix=PACKED
// PACKED: func.func @quantized_matmul(%{{.*}}: tensor<1x4x128x64xi8>{{.*}}qforge.pack_weights = @quantized_matmul_pack_weights
// PACKED: func.func @quantized_matmul_pack_weights(

// AVX2 + FMA without AVX-512: 16-row tiles (two ymm), 32 rows are two tiles.
// RUN: qforge-compile %t.mlir --mcpu=haswell --packed-weights --emit=mlir -o - 2>&1 | FileCheck %s --check-prefix=PACKED-AVX2
// PACKED-AVX2: func.func @quantized_matmul(%{{.*}}: tensor<2x4x128x16xi8>{{.*}}qforge.pack_weights = @quantized_matmul_pack_weights
// RUN: not qforge-compile %t.mlir --mcpu=sandybridge --packed-weights -o %t.o 2>&1 | FileCheck %s --check-prefix=PACKED-AVX
// PACKED-AVX: qforge-compile: error: the packed decode strategy needs AVX-512F, or AVX2 and FMA, which the target (CPU 'sandybridge') lacks; drop --packed-weights or pass --script

// Both: the packed int8 strategy (vpdpbusd on 2 x 16 rows x 4 bytes); without
// AVX512-VNNI each 512-bit vpdpbusd is two of 256 bits (VEX on AVX-VNNI,
// expanded on AVX2).
// (64 rows: two row tiles of 32, a parallel loop.)
// RUN: %gen_kernel 64 4 128 > %t.n64.mlir
// RUN: qforge-compile %t.n64.mlir --mcpu=sapphirerapids --packed-weights --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=PACKED-INT8
// PACKED-INT8-LABEL: quantized_matmul..omp_par:
// PACKED-INT8:         vpdpbusd
// RUN: qforge-compile %t.n64.mlir --mcpu=alderlake --packed-weights --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=PACKED-AVX-VNNI
// PACKED-AVX-VNNI-LABEL: quantized_matmul..omp_par:
// PACKED-AVX-VNNI-NOT:   %zmm
// PACKED-AVX-VNNI:       {vex} vpdpbusd {{.*}}, %ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// RUN: qforge-compile %t.n64.mlir --mcpu=znver3 --packed-weights --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=EXPANDED-PACKED
// EXPANDED-PACKED-LABEL: quantized_matmul..omp_par:
// EXPANDED-PACKED-NOT:   vpdpbusd
// EXPANDED-PACKED:       vpmaddubsw {{.*}}%ymm
// EXPANDED-PACKED:       vpmaddwd {{.*}}%ymm
// RUN: not qforge-compile %t.mlir --mcpu=x86-64-v2 --packed-weights --int8-activations -o %t.o 2>&1 | FileCheck %s --check-prefix=PACKED-NO-VNNI
// PACKED-NO-VNNI: qforge-compile: error: the packed int8 decode strategy needs AVX512-VNNI and AVX512BW, AVX-VNNI or AVX2, which the target (CPU 'x86-64-v2') lacks; drop --int8-activations or pass --script

// RUN: not qforge-compile %t.mlir --mcpu=core2 -o %t.o 2>&1 | FileCheck %s --check-prefix=OLD-CPU
// OLD-CPU: qforge-compile: error: the decode strategy needs AVX-512F, or AVX2 and FMA, which the target (CPU 'core2') lacks; pass --script

// 4-bit weights (stored as byte pairs, docs/abi.md) always get a packed
// strategy, with or without --packed-weights: f32 activations by default,
// int8 with --int8-activations. 32 rows are padded to one tile of 64 (f32)
// or one tile of 32 (int8: two 64-byte lines of 16); each byte holds two k.
// RUN: %gen_kernel 32 4 128 --int4 > %t.int4.mlir
// RUN: qforge-compile %t.int4.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=INT4
// INT4: func.func @quantized_matmul(%{{.*}}: tensor<1x4x64x64xi8>, %{{.*}}: tensor<1x4x1x64xf32>, %{{.*}}: tensor<1x4x1x64xf32>, %{{.*}}: tensor<1x1x4x128xf32>)
// INT4-SAME: qforge.pack_weights = @quantized_matmul_pack_weights
// INT4: func.func @quantized_matmul_pack_weights(%{{.*}}: tensor<32x4x64xi8>
// AVX2 + FMA without AVX-512: 16-row tiles, 32 rows are two.
// RUN: qforge-compile %t.int4.mlir --mcpu=haswell --emit=mlir -o - | FileCheck %s --check-prefix=INT4-AVX2
// INT4-AVX2: func.func @quantized_matmul(%{{.*}}: tensor<2x4x64x16xi8>, %{{.*}}: tensor<2x4x1x16xf32>, %{{.*}}: tensor<2x4x1x16xf32>, %{{.*}}: tensor<1x1x4x128xf32>)
// RUN: qforge-compile %t.int4.mlir --mcpu=sapphirerapids --int8-activations --emit=mlir -o - | FileCheck %s --check-prefix=INT4-VNNI
// INT4-VNNI: func.func @quantized_matmul(%{{.*}}: tensor<1x4x16x32x4xi8>, %{{.*}}: tensor<1x4x1x32x1xf32>
// On AVX2 the expansion of vpdpbusd skips the half for the top bit of the
// unsigned bytes when they are nibbles (and 15, shift right by 4), also
// through the shuffles and arrays of the lowered vectors: 64 x 2 x 128 has,
// per iteration of its byte loop (2 byte steps on AVX2, the table's
// byte_unroll; two 16-row lines and two nibbles each), 8 512-bit vpdpbusd,
// 16 halves, one vpmaddubsw each (32 with no proof at all).
// RUN: %gen_kernel 64 2 128 --int4 > %t.int4-64.mlir
// RUN: qforge-compile %t.int4-64.mlir --mcpu=znver3 --int8-activations --emit=asm -o - | grep -c vpmaddubsw | FileCheck %s --check-prefix=NIBBLES
// NIBBLES: {{^}}16{{$}}
// RUN: not qforge-compile %t.int4.mlir --mcpu=sandybridge -o %t.o 2>&1 | FileCheck %s --check-prefix=INT4-AVX
// INT4-AVX: qforge-compile: error: the int4 decode strategy needs AVX-512F, or AVX2 and FMA, which the target (CPU 'sandybridge') lacks; pass --script
// RUN: not qforge-compile %t.int4.mlir --mcpu=x86-64-v2 --int8-activations -o %t.o 2>&1 | FileCheck %s --check-prefix=INT4-NO-VNNI
// INT4-NO-VNNI: qforge-compile: error: the int4 decode strategy with int8 activations needs AVX512-VNNI and AVX512BW, AVX-VNNI or AVX2, which the target (CPU 'x86-64-v2') lacks; drop --int8-activations or pass --script

// One group per weight row: the packed integer decode strategies keep the
// group dim through their unit-dim fold (transform.qforge.fold_unit_extent_dims)
// and compile; so does the integer prefill (its block of 8 tokens' per-group
// values, read as vector<8x1> and cast to vector<8>, read rank-reduced by
// the fixed lowering; it was refused). Execution: Bench/verify-per-channel.
// RUN: %gen_kernel 64 1 128 > %t.g1.mlir
// RUN: %gen_kernel 64 1 128 --batch 16 > %t.g1-batched.mlir
// RUN: %gen_kernel 64 1 128 --int4 > %t.g1-int4.mlir
// RUN: qforge-compile %t.g1.mlir --mcpu=sapphirerapids --packed-weights --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=ONE-GROUP-UNPACKED
// RUN: qforge-compile %t.g1-int4.mlir --mcpu=sapphirerapids --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=ONE-GROUP-UNPACKED
// RUN: qforge-compile %t.g1-batched.mlir --mcpu=sapphirerapids --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=ONE-GROUP
// ONE-GROUP: vpdpbusd
// RUN: qforge-compile %t.g1.mlir --mcpu=sapphirerapids --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=ONE-GROUP-UNPACKED
// ONE-GROUP-UNPACKED: vpdpbusd

// One weight row: the prefills compile (their blocks of tokens' results
// of the one row, e.g. vector<8x1xf32>, are written rank-reduced by the
// fixed lowering; the integer prefill was refused, the AVX-512 f32 one
// did not lower at M = 16, 20, 24, 48). Execution:
// Bench/verify-one-weight-row.mlir.
// RUN: %gen_kernel 1 3 128 --batch 16 > %t.n1.mlir
// RUN: qforge-compile %t.n1.mlir --mcpu=sapphirerapids --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=ONE-ROW
// ONE-ROW: vpdpbusd
// RUN: qforge-compile %t.n1.mlir --mcpu=sapphirerapids --emit=obj -o %t.o
// RUN: qforge-compile %t.n1.mlir --mcpu=znver3 --emit=obj -o %t.o
