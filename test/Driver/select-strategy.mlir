// qforge-select-strategy records on each quantized matmul's contraction the
// strategy the table (transforms/strategy-table.json) chooses: one case per
// row and per condition boundary (M = 1/2/5/6/8, groups of 32, a row of
// 6144 weights, dynamic M, each flag, CPUs the table names and one it does
// not). Nothing is compiled: no codegen runs in this file.
//
// RUN: %gen_kernel 32 4 128 > %t.d.mlir
// RUN: %gen_kernel 32 48 128 > %t.d48.mlir
// RUN: %gen_kernel 32 49 128 > %t.d49.mlir
// RUN: %gen_kernel 32 86 128 > %t.d86.mlir
// RUN: %gen_kernel 32 8 32 > %t.g32.mlir
// RUN: %gen_kernel 32 4 128 --batch 2 > %t.m2.mlir
// RUN: %gen_kernel 32 4 128 --batch 5 > %t.m5.mlir
// RUN: %gen_kernel 32 4 128 --batch 6 > %t.m6.mlir
// RUN: %gen_kernel 32 4 128 --batch 8 > %t.m8.mlir
// RUN: %gen_kernel 32 4 128 --dynamic > %t.dyn.mlir
// RUN: %gen_kernel 32 4 128 --int4 > %t.i4.mlir
// RUN: %gen_kernel 32 4 128 --int4 --batch 5 > %t.i4m5.mlir
// RUN: %gen_kernel 32 4 128 --int4 --batch 6 > %t.i4m6.mlir
// RUN: %gen_kernel 32 4 128 --int4 --dynamic > %t.i4dyn.mlir
// RUN: %gen_kernel 32 64 2 --int4 --batch 2 > %t.i4g2.mlir

// Decode, f32 activations. Zen 4 keeps the prefetch-free script while a
// row is one block of at most 6144 weights (48 x 128 is; 49 x 128 not).
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy=mcpu=sapphirerapids | FileCheck %s --check-prefix=DEC-512
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy=mcpu=znver5 | FileCheck %s --check-prefix=DEC-512
// RUN: qforge-opt %t.d86.mlir --qforge-select-strategy=mcpu=znver4 | FileCheck %s --check-prefix=DEC-512
// RUN: qforge-opt %t.d49.mlir --qforge-select-strategy=mcpu=znver4 | FileCheck %s --check-prefix=DEC-512
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy=mcpu=x86-64-v4 | FileCheck %s --check-prefix=DEC-512
// DEC-512: {{^}}    %{{.*}} = linalg.generic {{.*}}qforge.strategy = {family = "decode-f32", row = "16-lanes", script = "decode-f32.mlir", why = "has avx512f"}
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy=mcpu=znver4 | FileCheck %s --check-prefix=DEC-ZEN4
// RUN: qforge-opt %t.d48.mlir --qforge-select-strategy=mcpu=znver4 | FileCheck %s --check-prefix=DEC-ZEN4
// DEC-ZEN4: qforge.strategy = {family = "decode-f32", row = "zen4-one-block", script = "decode-f32.mlir", why = "has avx512f, CPU 'znver4' is in class zen4, G x group size = {{512|6144}} <= 6144"}
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy=mcpu=haswell | FileCheck %s --check-prefix=DEC-256
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy=mcpu=znver3 | FileCheck %s --check-prefix=DEC-256
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=sapphirerapids mattr=-avx512f" | FileCheck %s --check-prefix=DEC-256
// DEC-256: qforge.strategy = {family = "decode-f32", row = "8-lanes", script = "decode-f32.mlir", why = "has avx2, has fma"}
// RUN: not qforge-opt %t.d.mlir --qforge-select-strategy=mcpu=core2 2>&1 | FileCheck %s --check-prefix=DEC-NONE
// DEC-NONE: error: no strategy for this quantized matmul: the decode strategy needs AVX-512F, or AVX2 and FMA, which the target (CPU 'core2') lacks; pass --script

// Decode, int8 activations.
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=sapphirerapids int8-activations" | FileCheck %s --check-prefix=INT8-512
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=znver4 int8-activations" | FileCheck %s --check-prefix=INT8-512
// INT8-512: qforge.strategy = {family = "decode-int8", row = "16-lanes", script = "decode-int8.mlir"
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=znver5 int8-activations" | FileCheck %s --check-prefix=INT8-ZEN5
// INT8-ZEN5: qforge.strategy = {family = "decode-int8", row = "zen5", script = "decode-int8.mlir", why = "has avx512vnni, has avx512bw, CPU 'znver5' is in class zen5"}
// RUN: qforge-opt %t.g32.mlir --qforge-select-strategy="mcpu=znver5 int8-activations" | FileCheck %s --check-prefix=INT8-G32
// INT8-G32: qforge.strategy = {family = "decode-int8", row = "8-lanes-groups-of-32", script = "decode-int8.mlir", why = "has avx512vnni, has avx512bw, group size 32 is a multiple of 32, group size 32 is not a multiple of 64"}
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=alderlake int8-activations" | FileCheck %s --check-prefix=INT8-256
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=sapphirerapids mattr=-avx512vnni int8-activations" | FileCheck %s --check-prefix=INT8-256
// INT8-256: qforge.strategy = {family = "decode-int8", row = "8-lanes-no-avx512vnni", script = "decode-int8.mlir", why = "has avx2, lacks avx512vnni"}
// No VNNI at all (Haswell, Skylake-X, Zen 1-3): the row that sums signed
// products, one vpmaddubsw per 32 (docs/numerics.md), recorded in the
// function's strategy params.
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=haswell int8-activations" | FileCheck %s --check-prefix=INT8-AVX2
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=skylake-avx512 int8-activations" | FileCheck %s --check-prefix=INT8-AVX2
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=znver1 int8-activations" | FileCheck %s --check-prefix=INT8-AVX2
// INT8-AVX2: qforge.strategy_params = {{{.*}}magnitude_times_sign = 1 : i64
// INT8-AVX2: qforge.strategy = {family = "decode-int8", row = "8-lanes-avx2", script = "decode-int8.mlir", why = "has avx2, lacks avxvnni, lacks avx512vnni"}
// RUN: not qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=x86-64-v2 int8-activations" 2>&1 | FileCheck %s --check-prefix=INT8-NONE
// INT8-NONE: error: no strategy for this quantized matmul: the int8 decode strategy needs AVX512-VNNI and AVX512BW, AVX-VNNI or AVX2, which the target (CPU 'x86-64-v2') lacks; drop --int8-activations or pass --script

// Decode, packed weights (f32 and int8 activations).
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=sapphirerapids packed-weights" | FileCheck %s --check-prefix=PACKED-512
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=znver4 packed-weights" | FileCheck %s --check-prefix=PACKED-512
// PACKED-512: qforge.strategy = {family = "decode-packed-f32", row = "avx512", script = "decode-packed-f32.mlir"
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=haswell packed-weights" | FileCheck %s --check-prefix=PACKED-256
// PACKED-256: qforge.strategy = {family = "decode-packed-f32", row = "avx2", script = "decode-packed-f32.mlir"
// RUN: not qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=sandybridge packed-weights" 2>&1 | FileCheck %s --check-prefix=PACKED-NONE
// PACKED-NONE: the packed decode strategy needs AVX-512F, or AVX2 and FMA, which the target (CPU 'sandybridge') lacks; drop --packed-weights or pass --script
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=znver5 packed-weights int8-activations" | FileCheck %s --check-prefix=PACKED-INT8
// PACKED-INT8: qforge.strategy = {family = "decode-packed-int8", row = "vnni", script = "decode-packed-int8.mlir"
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy="mcpu=haswell packed-weights int8-activations" | FileCheck %s --check-prefix=PACKED-INT8-AVX2
// PACKED-INT8-AVX2: qforge.strategy = {family = "decode-packed-int8", row = "avx2", script = "decode-packed-int8.mlir"

// Decode, 4-bit weights (read as byte pairs: the normalization first).
// RUN: qforge-opt %t.i4.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy=mcpu=znver5 | FileCheck %s --check-prefix=INT4-512
// RUN: qforge-opt %t.i4.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy="mcpu=znver5 packed-weights" | FileCheck %s --check-prefix=INT4-512
// INT4-512: qforge.strategy = {family = "decode-packed-int4-f32", row = "avx512", script = "decode-packed-int4-f32.mlir"
// RUN: qforge-opt %t.i4.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy=mcpu=haswell | FileCheck %s --check-prefix=INT4-256
// INT4-256: qforge.strategy = {family = "decode-packed-int4-f32", row = "avx2", script = "decode-packed-int4-f32.mlir"
// RUN: qforge-opt %t.i4.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy="mcpu=znver4 int8-activations" | FileCheck %s --check-prefix=INT4-INT8
// INT4-INT8: qforge.strategy = {family = "decode-packed-int4-int8", row = "vnni", script = "decode-packed-int4-int8.mlir"
// Without VNNI and AVX-512, two byte steps per iteration (its avx2 row);
// with AVX-VNNI, and on AVX-512 without VNNI (not measured), the vnni row.
// RUN: qforge-opt %t.i4.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy="mcpu=haswell int8-activations" | FileCheck %s --check-prefix=INT4-INT8-AVX2
// INT4-INT8-AVX2: func.func @quantized_matmul({{.*}}qforge.strategy_params = {byte_unroll = 2 : i64}
// INT4-INT8-AVX2: qforge.strategy = {family = "decode-packed-int4-int8", row = "avx2"
// RUN: qforge-opt %t.i4.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy="mcpu=alderlake int8-activations" | FileCheck %s --check-prefix=INT4-INT8-VNNI
// RUN: qforge-opt %t.i4.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy="mcpu=skylake-avx512 int8-activations" | FileCheck %s --check-prefix=INT4-INT8-VNNI
// INT4-INT8-VNNI-NOT: byte_unroll
// INT4-INT8-VNNI: qforge.strategy = {family = "decode-packed-int4-int8", row = "vnni"

// Prefill, f32 activations: Intel's 12 x 32 tiles from a static M of 6,
// its 64-row tiles below; a CPU the table does not name (x86-64-v4) gets
// the rows its features call for.
// RUN: qforge-opt %t.m2.mlir --qforge-select-strategy=mcpu=sapphirerapids | FileCheck %s --check-prefix=PRE-INTEL-64
// RUN: qforge-opt %t.m5.mlir --qforge-select-strategy=mcpu=sapphirerapids | FileCheck %s --check-prefix=PRE-INTEL-64
// PRE-INTEL-64: qforge.strategy = {family = "prefill-f32", row = "intel-64-rows", script = "prefill-f32.mlir", why = "has avx512f, CPU 'sapphirerapids' is in class intel"}
// RUN: qforge-opt %t.m6.mlir --qforge-select-strategy=mcpu=sapphirerapids | FileCheck %s --check-prefix=PRE-INTEL-12
// RUN: qforge-opt %t.m8.mlir --qforge-select-strategy=mcpu=icelake-server | FileCheck %s --check-prefix=PRE-INTEL-12
// RUN: qforge-opt %t.m8.mlir --qforge-select-strategy=mcpu=skylake-avx512 | FileCheck %s --check-prefix=PRE-INTEL-12
// PRE-INTEL-12: qforge.strategy = {family = "prefill-f32", row = "intel-12x32", script = "prefill-f32.mlir", why = "has avx512f, CPU '{{[a-z0-9-]+}}' is in class intel, M = {{6|8}} >= 6"}
// RUN: qforge-opt %t.m8.mlir --qforge-select-strategy=mcpu=znver5 | FileCheck %s --check-prefix=PRE-512
// RUN: qforge-opt %t.m2.mlir --qforge-select-strategy=mcpu=znver4 | FileCheck %s --check-prefix=PRE-512
// RUN: qforge-opt %t.m8.mlir --qforge-select-strategy=mcpu=x86-64-v4 | FileCheck %s --check-prefix=PRE-512
// RUN: qforge-opt %t.m8.mlir --qforge-select-strategy="mcpu=znver5 packed-weights" | FileCheck %s --check-prefix=PRE-512
// PRE-512: qforge.strategy = {family = "prefill-f32", row = "avx512", script = "prefill-f32.mlir", why = "has avx512f"}
// RUN: qforge-opt %t.m8.mlir --qforge-select-strategy=mcpu=haswell | FileCheck %s --check-prefix=PRE-256
// RUN: qforge-opt %t.m8.mlir --qforge-select-strategy="mcpu=sapphirerapids mattr=-avx512f" | FileCheck %s --check-prefix=PRE-256
// PRE-256: qforge.strategy = {family = "prefill-f32", row = "avx2", script = "prefill-f32.mlir", why = "has avx2, has fma"}

// Prefill, int8 activations.
// RUN: qforge-opt %t.m8.mlir --qforge-select-strategy="mcpu=sapphirerapids int8-activations" | FileCheck %s --check-prefix=PRE-INT8-INTEL
// PRE-INT8-INTEL: qforge.strategy = {family = "prefill-int8", row = "intel", script = "prefill-int8.mlir"
// RUN: qforge-opt %t.m8.mlir --qforge-select-strategy="mcpu=znver4 int8-activations" | FileCheck %s --check-prefix=PRE-INT8
// PRE-INT8: qforge.strategy = {family = "prefill-int8", row = "vnni", script = "prefill-int8.mlir"
// RUN: qforge-opt %t.m2.mlir --qforge-select-strategy="mcpu=haswell int8-activations" | FileCheck %s --check-prefix=PRE-INT8-AVX2
// PRE-INT8-AVX2: qforge.strategy = {family = "prefill-int8", row = "avx2", script = "prefill-int8.mlir"

// Prefill, 4-bit weights.
// RUN: qforge-opt %t.i4m6.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy=mcpu=sapphirerapids | FileCheck %s --check-prefix=PRE-INT4-INTEL-12
// PRE-INT4-INTEL-12: qforge.strategy = {family = "prefill-int4-f32", row = "intel-12x32", script = "prefill-int4-f32.mlir"
// RUN: qforge-opt %t.i4m5.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy=mcpu=sapphirerapids | FileCheck %s --check-prefix=PRE-INT4-INTEL-64
// PRE-INT4-INTEL-64: qforge.strategy = {family = "prefill-int4-f32", row = "intel-64-rows", script = "prefill-int4-f32.mlir"
// RUN: qforge-opt %t.i4m6.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy=mcpu=znver5 | FileCheck %s --check-prefix=PRE-INT4-512
// PRE-INT4-512: qforge.strategy = {family = "prefill-int4-f32", row = "avx512", script = "prefill-int4-f32.mlir"
// RUN: qforge-opt %t.i4m6.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy=mcpu=haswell | FileCheck %s --check-prefix=PRE-INT4-256
// PRE-INT4-256: qforge.strategy = {family = "prefill-int4-f32", row = "avx2", script = "prefill-int4-f32.mlir"
// RUN: qforge-opt %t.i4m6.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy="mcpu=znver5 int8-activations" | FileCheck %s --check-prefix=PRE-INT4-INT8
// PRE-INT4-INT8: qforge.strategy = {family = "prefill-int4-int8", row = "vnni", script = "prefill-int4-int8.mlir"
// RUN: not qforge-opt %t.i4g2.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy="mcpu=znver5 int8-activations" 2>&1 | FileCheck %s --check-prefix=PRE-INT4-G2
// PRE-INT4-G2: error: no strategy for this quantized matmul: the int4 prefill strategy with int8 activations needs groups of at least 4 weights (the kernel's have 2); drop --int8-activations or pass --script

// A dynamic M: the chunks' row (never Intel's 12 x 32, static M only), the
// M = 1 path's (packed alike), and the chunk plan of the chunks' row.
// RUN: qforge-opt %t.dyn.mlir --qforge-select-strategy=mcpu=sapphirerapids | FileCheck %s --check-prefix=DYN-INTEL
// DYN-INTEL: qforge.strategy = {chunk_tiles = array<i64: 16, 4>, decode_row = "decode-packed-f32/avx512", decode_script = "decode-packed-f32.mlir", family = "prefill-f32", pad_nearly_full_chunks, row = "intel-64-rows", rows_by_decode = 1 : i64, rows_left_chunks = array<i64: 2, 4, 6>, script = "prefill-f32.mlir", token_tile = 8 : i64
// RUN: qforge-opt %t.dyn.mlir --qforge-select-strategy=mcpu=znver5 | FileCheck %s --check-prefix=DYN-512
// DYN-512: qforge.strategy = {chunk_tiles = array<i64: 16, 4>, decode_row = "decode-packed-f32/avx512", decode_script = "decode-packed-f32.mlir", family = "prefill-f32", row = "avx512", rows_by_decode = 1 : i64, rows_left_chunks = array<i64: 2, 4, 6>, script = "prefill-f32.mlir", token_tile = 8 : i64
// RUN: qforge-opt %t.dyn.mlir --qforge-select-strategy=mcpu=haswell | FileCheck %s --check-prefix=DYN-256
// DYN-256: qforge.strategy = {chunk_tiles = array<i64: 1>, decode_row = "decode-packed-f32/avx2", decode_script = "decode-packed-f32.mlir", family = "prefill-f32", row = "avx2", rows_by_decode = 1 : i64, script = "prefill-f32.mlir", token_tile = 6 : i64
// RUN: qforge-opt %t.i4dyn.mlir --qforge-store-int4-as-byte-pairs --qforge-select-strategy=mcpu=sapphirerapids | FileCheck %s --check-prefix=DYN-INT4
// DYN-INT4: qforge.strategy = {chunk_tiles = array<i64: 16, 4>, decode_row = "decode-packed-int4-f32/avx512", decode_script = "decode-packed-int4-f32.mlir", family = "prefill-int4-f32", pad_nearly_full_chunks, row = "intel-64-rows", rows_by_decode = 1 : i64, rows_left_chunks = array<i64: 2, 4, 5>, script = "prefill-int4-f32.mlir", token_tile = 8 : i64
// RUN: qforge-opt %t.dyn.mlir --qforge-select-strategy="mcpu=znver5 int8-activations" | FileCheck %s --check-prefix=DYN-INT8
// DYN-INT8: qforge.strategy = {chunk_tiles = array<i64: 16, 4>, decode_row = "decode-packed-int8/vnni", decode_script = "decode-packed-int8.mlir", family = "prefill-int8", row = "vnni"

// Only the contraction is marked; the dequantization is not. The row's
// params, which the family's script reads, go on the function.
// RUN: qforge-opt %t.d.mlir --qforge-select-strategy=mcpu=znver5 | FileCheck %s --check-prefix=ONCE
// ONCE: func.func @quantized_matmul({{.*}} attributes {qforge.strategy_params = {lanes_8 = 0 : i64, prefetch = 1 : i64}}
// ONCE-COUNT-1: qforge.strategy =
// ONCE-NOT: qforge.strategy =

// Two-level contractions (llama.cpp's K-quants read in place, docs/gguf.md):
// the families of their own, chosen by the `two_level` request key; M = 1
// only, without --packed-weights (refused by name).
// RUN: %python %examples/gen_gguf_kernel.py q4_K 8 512 > %t.q4k.mlir
// RUN: %python %examples/gen_gguf_kernel.py q4_K 8 512 --batch 4 > %t.q4km4.mlir
// RUN: qforge-opt %t.q4k.mlir --qforge-select-strategy=mcpu=znver5 | FileCheck %s --check-prefix=TWO-F32-512
// TWO-F32-512: qforge.strategy = {family = "decode-two-level-f32", row = "avx512", script = "decode-two-level-f32.mlir", why = "has avx512f"}
// RUN: qforge-opt %t.q4k.mlir --qforge-select-strategy=mcpu=haswell | FileCheck %s --check-prefix=TWO-F32-256
// TWO-F32-256: qforge.strategy = {family = "decode-two-level-f32", row = "avx2", script = "decode-two-level-f32.mlir", why = "has avx2, has fma"}
// RUN: qforge-opt %t.q4k.mlir --qforge-select-strategy="mcpu=sapphirerapids int8-activations" | FileCheck %s --check-prefix=TWO-INT8-VNNI
// TWO-INT8-VNNI: qforge.strategy = {family = "decode-two-level-int8", row = "vnni", script = "decode-two-level-int8.mlir", why = "has avx512vnni, has avx512vl"}
// RUN: qforge-opt %t.q4k.mlir --qforge-select-strategy="mcpu=haswell int8-activations" | FileCheck %s --check-prefix=TWO-INT8-256
// TWO-INT8-256: qforge.strategy = {family = "decode-two-level-int8", row = "avx2", script = "decode-two-level-int8.mlir", why = "has avx2"}
// Batches: one token per iteration of the batched two-level scripts; a
// dynamic M dispatches over their chunks and an M = 1 path that reads the
// blocks in place too (not packed, unlike the other batched families).
// RUN: qforge-opt %t.q4km4.mlir --qforge-select-strategy=mcpu=znver5 | FileCheck %s --check-prefix=TWO-BATCH-F32
// TWO-BATCH-F32: qforge.strategy = {family = "prefill-two-level-f32", row = "avx512", script = "prefill-two-level-f32.mlir", why = "has avx512f"}
// RUN: qforge-opt %t.q4km4.mlir --qforge-select-strategy="mcpu=sapphirerapids int8-activations" | FileCheck %s --check-prefix=TWO-BATCH-INT8
// TWO-BATCH-INT8: qforge.strategy = {family = "prefill-two-level-int8", row = "vnni", script = "prefill-two-level-int8.mlir", why = "has avx512vnni, has avx512vl"}
// RUN: %python %examples/gen_gguf_kernel.py q4_K 8 512 --dynamic > %t.q4kdyn.mlir
// RUN: qforge-opt %t.q4kdyn.mlir --qforge-select-strategy="mcpu=znver5 int8-activations" | FileCheck %s --check-prefix=TWO-DYN
// TWO-DYN: qforge.strategy = {chunk_tiles = array<i64: 16, 4>, decode_row = "decode-two-level-int8/vnni", decode_script = "decode-two-level-int8.mlir", family = "prefill-two-level-int8", row = "vnni", rows_by_decode = 1 : i64, script = "prefill-two-level-int8.mlir", token_tile = 8 : i64, why = "has avx512vnni, has avx512vl"}
// With packed-weights q4_K's pairs become the seed's offset form (its
// dmin·m is no multiple of the scale; Rewrites/TwoLevelAsSeedBytes.h) and
// take the packed 8-bit rows; the fields apart (quants and scales from
// several arguments, which no packing takes as one computation) are
// refused by name.
// RUN: qforge-opt %t.q4k.mlir --qforge-select-strategy="mcpu=znver5 packed-weights" | FileCheck %s --check-prefix=TWO-PACKED
// TWO-PACKED: qforge.strategy = {family = "decode-packed-f32", row = "avx512"
// RUN: qforge-opt %t.q4k.mlir --qforge-select-strategy="mcpu=haswell int8-activations packed-weights" | FileCheck %s --check-prefix=TWO-PACKED-INT8
// TWO-PACKED-INT8: qforge.strategy = {family = "decode-packed-int8", row = "avx2"
// RUN: %python %examples/gen_gguf_kernel.py q4_K 8 512 --fields > %t.q4kf.mlir
// RUN: not qforge-opt %t.q4kf.mlir --qforge-select-strategy="mcpu=znver5 packed-weights" 2>&1 | FileCheck %s --check-prefix=TWO-NONE
// TWO-NONE: error: no strategy for this quantized matmul: the strategy table has no family for this quantized matmul: two-level weights (llama.cpp's K-quants, s·q - o per sub-block) that no packing takes as the seed form (the fields apart, whose quants, scales and offsets read several arguments) are read in place, not packed: drop --packed-weights
// q4_0's blocks read in place are two-level pairs too (s = d, o = 8d): read
// in place they take the two-level rows; with packed-weights the pass first
// makes them the 4-bit seed form (Rewrites/TwoLevelAsSeedInt4.h), whose
// packed rows pack the blocks' byte pairs once.
// RUN: %python %examples/gen_gguf_kernel.py q4_0 8 512 > %t.q40.mlir
// RUN: %python %examples/gen_gguf_kernel.py q4_0 8 512 --dynamic > %t.q40dyn.mlir
// RUN: qforge-opt %t.q40.mlir --qforge-select-strategy=mcpu=znver5 | FileCheck %s --check-prefix=Q40-IN-PLACE
// Q40-IN-PLACE: qforge.strategy = {family = "decode-two-level-f32", row = "avx512"
// RUN: qforge-opt %t.q40.mlir --qforge-select-strategy="mcpu=znver5 packed-weights" | FileCheck %s --check-prefix=Q40-PACKED
// Q40-PACKED: qforge.int4_byte_pairs = array<i64: 0>
// Q40-PACKED: qforge.strategy = {family = "decode-packed-int4-f32", row = "avx512"
// RUN: qforge-opt %t.q40.mlir --qforge-select-strategy="mcpu=znver5 int8-activations packed-weights" | FileCheck %s --check-prefix=Q40-PACKED-INT8
// Q40-PACKED-INT8: qforge.strategy = {family = "decode-packed-int4-int8", row = "vnni"
// RUN: qforge-opt %t.q40dyn.mlir --qforge-select-strategy="mcpu=znver5 int8-activations packed-weights" | FileCheck %s --check-prefix=Q40-PACKED-DYN
// Q40-PACKED-DYN: qforge.strategy = {chunk_tiles = array<i64: 16, 4>, decode_row = "decode-packed-int4-int8/vnni", {{.*}}family = "prefill-int4-int8", row = "vnni"
// Without VNNI (AVX2) the same family's avx2 row: chunks of two 8-row
// tiles, compute-bound there; with AVX-VNNI, and on AVX-512 without VNNI
// (not measured), the vnni row's 16 and 4.
// RUN: qforge-opt %t.q40dyn.mlir --qforge-select-strategy="mcpu=haswell int8-activations packed-weights" | FileCheck %s --check-prefix=Q40-PACKED-DYN-AVX2
// Q40-PACKED-DYN-AVX2: qforge.strategy = {chunk_tiles = array<i64: 2>, {{.*}}family = "prefill-int4-int8", row = "avx2"
// RUN: qforge-opt %t.q40dyn.mlir --qforge-select-strategy="mcpu=alderlake int8-activations packed-weights" | FileCheck %s --check-prefix=Q40-PACKED-DYN-VNNI
// Q40-PACKED-DYN-VNNI: qforge.strategy = {chunk_tiles = array<i64: 16, 4>, {{.*}}family = "prefill-int4-int8", row = "vnni"
// RUN: qforge-opt %t.q40dyn.mlir --qforge-select-strategy="mcpu=skylake-avx512 int8-activations packed-weights" | FileCheck %s --check-prefix=Q40-PACKED-DYN-VNNI
// RUN: qforge-opt %t.q40.mlir --qforge-select-strategy="mcpu=znver5 row=decode-packed-int4-f32/avx512" | FileCheck %s --check-prefix=Q40-ROW
// Q40-ROW: qforge.strategy = {family = "decode-packed-int4-f32", row = "avx512"
// q6_K's offset is 32 times its scale: with packed-weights its pairs
// become the 8-bit seed form (Rewrites/TwoLevelAsSeedBytes.h), a byte per
// quant, and take the packed 8-bit rows; read in place, the two-level ones.
// RUN: %python %examples/gen_gguf_kernel.py q6_K 8 512 > %t.q6k.mlir
// RUN: %python %examples/gen_gguf_kernel.py q6_K 8 512 --dynamic > %t.q6kdyn.mlir
// RUN: qforge-opt %t.q6k.mlir --qforge-select-strategy=mcpu=znver5 | FileCheck %s --check-prefix=Q6K-IN-PLACE
// Q6K-IN-PLACE: qforge.strategy = {family = "decode-two-level-f32", row = "avx512"
// RUN: qforge-opt %t.q6k.mlir --qforge-select-strategy="mcpu=znver5 packed-weights" | FileCheck %s --check-prefix=Q6K-PACKED
// Q6K-PACKED-NOT: qforge.int4_byte_pairs
// Q6K-PACKED: qforge.strategy = {family = "decode-packed-f32", row = "avx512"
// RUN: qforge-opt %t.q6k.mlir --qforge-select-strategy="mcpu=znver5 int8-activations packed-weights" | FileCheck %s --check-prefix=Q6K-PACKED-INT8
// Q6K-PACKED-INT8: qforge.strategy = {family = "decode-packed-int8", row = "vnni"
// RUN: qforge-opt %t.q6kdyn.mlir --qforge-select-strategy="mcpu=znver5 int8-activations packed-weights" | FileCheck %s --check-prefix=Q6K-PACKED-DYN
// Q6K-PACKED-DYN: qforge.strategy = {chunk_tiles = array<i64: 16, 4>, decode_row = "decode-packed-int8/vnni", {{.*}}family = "prefill-int8", row = "vnni"
// RUN: not qforge-opt %t.q4k.mlir --qforge-select-strategy=mcpu=core2 2>&1 | FileCheck %s --check-prefix=TWO-OLD
// TWO-OLD: error: no strategy for this quantized matmul: the two-level decode strategy (llama.cpp's K-quants) needs AVX-512F, or AVX2 and FMA, which the target (CPU 'core2') lacks; pass --script transforms/loops.mlir (scalar loops)
