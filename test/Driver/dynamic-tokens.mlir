// A quantized matmul whose token count M is dynamic (tensor<1x?x...>):
// the driver compiles static specializations of it -- M = 1 (the packed
// decode strategy) and batches of 128, 32 and 8 rows (the prefill
// strategy) -- which read one packing of the parameters, and the kernel
// dispatches row chunks to them at run time: the largest chunks first, one
// row left through the decode path, more padded with zero rows (0.0,
// contributing nothing) into a chunk of 2, 4 (3-4 rows), 6 (5-6 rows: one
// token tile of the script's pack) or 8 (7 rows): the chunks of 2, 4 and
// 6 serve only the rows left (the script's qforge.rows_left_chunks). With
// qforge.pad_nearly_full_chunks (the Intel 64-row scripts), after the whole
// chunks of 128 (32), at least 121 (28) rows left -- filling one more to
// within the smallest chunk and an eighth of its size -- go padded into one
// more chunk of 128 (32), which ends the dispatch: M = 31 is one call of
// 32, not three of 8 and a fourth for the 7 left. The smaller chunks run in
// the else block, whose result the dispatcher returns. The dispatcher is
// the outlined matmul's function, called from each site with the
// destination its result's rows go into (tensor.empty of M rows, writable);
// the lowering drops the result it is equivalent to, so no copy or clone
// is left (test/Driver/dynamic-tokens-destination.mlir).
// RUN: %gen_kernel 100 3 32 --dynamic > %t.mlir
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s

// CHECK-LABEL: func.func @quantized_matmul(
// CHECK-SAME:    %[[Q:[^:]+]]: tensor<2x3x32x64xi8>, %[[S:[^:]+]]: tensor<2x3x1x64xf32>, %[[Z:[^:]+]]: tensor<2x3x1x64xf32>, %[[X:[^:]+]]: tensor<1x?x3x32xf32>) -> tensor<1x?x100xf32>
// CHECK-SAME:    qforge.pack_weights = @quantized_matmul_pack_weights
// CHECK:         %[[ROWS:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<1x?x3x32xf32>
// CHECK:         %[[DEST:.+]] = tensor.empty(%[[ROWS]]) : tensor<1x?x100xf32>
// CHECK:         %[[Y:.+]] = call @quantized_matmul_qmm0(%[[X]], %[[Q]], %[[S]], %[[Z]], %[[DEST]])
// CHECK:         return %[[Y]]

// One packing for every path: the parent's calls the first specialization's.
// CHECK-LABEL: func.func @quantized_matmul_pack_weights(
// CHECK:         call @quantized_matmul_qmm0_pack_weights(
// CHECK-NOT:     call

// CHECK-LABEL: func.func private @quantized_matmul_qmm0(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<1x?x3x32xf32>, {{.*}}, %[[D:[^:]+]]: tensor<1x?x100xf32> {bufferization.writable = true}) -> tensor<1x?x100xf32>
// CHECK-SAME:    qforge.optimize_for_size
// CHECK:         %[[M:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<1x?x3x32xf32>
// CHECK-NOT:     tensor.empty({{.*}}) : tensor<1x?x100xf32>
// CHECK:         scf.for {{.*}} step %c128{{(_[0-9]+)?}} iter_args(%{{.+}} = %[[D]])
// CHECK:           tensor.extract_slice %[[A]]{{.*}} to tensor<1x128x3x32xf32>
// CHECK:           func.call @quantized_matmul_qmm0_m128(
// CHECK:         %[[NEAR128:.+]] = arith.cmpi uge, %{{.+}}, %c121 :
// CHECK:         %[[OUT:[0-9a-z_]+]] = scf.if %[[NEAR128]]
// CHECK:             } : tensor<1x?x3x32xf32> to tensor<1x128x3x32xf32>
// CHECK:           func.call @quantized_matmul_qmm0_m128(
// CHECK:         } else {
// CHECK:         scf.for {{.*}} step %c32
// CHECK:           func.call @quantized_matmul_qmm0_m32(
// CHECK:         %[[NEAR32:.+]] = arith.cmpi uge, %{{.+}}, %c28 :
// CHECK:         %[[IN:[0-9a-z_]+]] = scf.if %[[NEAR32]]
// CHECK:             } : tensor<1x?x3x32xf32> to tensor<1x32x3x32xf32>
// CHECK:           func.call @quantized_matmul_qmm0_m32(
// CHECK:         } else {
// CHECK:         scf.for {{.*}} step %c8
// CHECK:           func.call @quantized_matmul_qmm0_m8(
// CHECK-NOT:     arith.cmpi uge
// CHECK:         %[[ONE:.+]] = arith.cmpi ule, %{{.+}}, %c1{{(_[0-9]+)?}} :
// CHECK:         scf.if %[[ONE]]
// CHECK:           scf.for {{.*}} to %[[M]] step %c1
// CHECK:             func.call @quantized_matmul_qmm0_m1(
// CHECK:         } else {
// CHECK:           %[[TWO:.+]] = arith.cmpi ule, %{{.+}}, %c2
// CHECK:           scf.if %[[TWO]]
// CHECK:             %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:             tensor.pad
// CHECK:               tensor.yield %[[ZERO]] : f32
// CHECK:             } : tensor<1x?x3x32xf32> to tensor<1x2x3x32xf32>
// CHECK:             func.call @quantized_matmul_qmm0_m2(
// CHECK:           } else {
// CHECK:             %[[FOUR:.+]] = arith.cmpi ule, %{{.+}}, %c4
// CHECK:             scf.if %[[FOUR]]
// CHECK:               } : tensor<1x?x3x32xf32> to tensor<1x4x3x32xf32>
// CHECK:               func.call @quantized_matmul_qmm0_m4(
// CHECK:             } else {
// CHECK:               %[[SIX:.+]] = arith.cmpi ule, %{{.+}}, %c6
// CHECK:               scf.if %[[SIX]]
// CHECK:                 } : tensor<1x?x3x32xf32> to tensor<1x6x3x32xf32>
// CHECK:                 func.call @quantized_matmul_qmm0_m6(
// CHECK:               } else {
// CHECK:                 } : tensor<1x?x3x32xf32> to tensor<1x8x3x32xf32>
// CHECK:                 func.call @quantized_matmul_qmm0_m8(
// CHECK:           scf.yield %[[IN]] :
// CHECK:         return %[[OUT]] :

// The batched paths: the prefill strategy's micro-kernel, its 6-token
// tile balanced to the 8-token chunk (2 tiles of 4), one tile of 6, 4 or
// 2 for the rows left.
// CHECK-LABEL: func.func private @quantized_matmul_qmm0_m6(
// CHECK:         vector<1x1x1x1x6x64xf32>
// CHECK-LABEL: func.func private @quantized_matmul_qmm0_m4(
// CHECK-SAME:    %{{.+}}: tensor<1x4x3x32xf32>, %{{.+}}: tensor<2x3x32x64xi8>{{.*}} -> tensor<1x4x100xf32>
// CHECK-LABEL: func.func private @quantized_matmul_qmm0_m2(
// CHECK-SAME:    %{{.+}}: tensor<1x2x3x32xf32>, %{{.+}}: tensor<2x3x32x64xi8>{{.*}} -> tensor<1x2x100xf32>
// CHECK-LABEL: func.func private @quantized_matmul_qmm0_m8(
// CHECK-SAME:    %{{.+}}: tensor<1x8x3x32xf32>, %{{.+}}: tensor<2x3x32x64xi8>{{.*}} -> tensor<1x8x100xf32>
// CHECK:         vector<1x1x1x1x4x64xf32>
// CHECK-LABEL: func.func private @quantized_matmul_qmm0_m32(
// CHECK-LABEL: func.func private @quantized_matmul_qmm0_m128(
// The decode path on the same packed parameters.
// CHECK-LABEL: func.func private @quantized_matmul_qmm0_m1(
// CHECK-SAME:    %{{.+}}: tensor<1x1x3x32xf32>, %{{.+}}: tensor<2x3x32x64xi8>{{.*}} -> tensor<1x1x100xf32>
// CHECK-NOT:   func.func private @quantized_matmul_qmm0_m{{[0-9]+}}_pack_weights

// Run: every path and tail against the scalar reference (1e-5 normalized),
// with the host's strategies.
// RUN: qforge-bench %t.mlir --verify --time=false --dim=M=1,2,3,4,5,6,7,12,14,17,27,28,31,32,33,120,121,127,128,129,156,159,255,500 | FileCheck %s --check-prefix=EXEC
// EXEC-COUNT-24: verify: {{.*}}: PASS

// torch-mlir's spelling (f16 throughout, the activation 1 x ? x G*K) and
// IREE's (bf16, ? x G x K), normalized, then dispatched the same way;
// tolerances of their result rounding (docs/numerics.md).
// RUN: %python %examples/gen_producer_kernel.py torch 200 4 64 --dynamic --float f16 > %t.torch.mlir
// RUN: qforge-bench %t.torch.mlir --verify --time=false --dim=M=1,3,17,129 | FileCheck %s --check-prefix=FORMS
// RUN: %python %examples/gen_producer_kernel.py iree 200 4 64 --dynamic --float bf16 > %t.iree.mlir
// RUN: qforge-bench %t.iree.mlir --verify --time=false --dim=M=1,3,17,129 | FileCheck %s --check-prefix=FORMS
// IREE's f16 twin with 4-bit weights (byte pairs, N x G f16 scales): the
// 4-bit packed strategies, dispatched alike.
// RUN: %python %examples/gen_producer_kernel.py iree 100 3 128 --int4 --float f16 --dynamic > %t.int4.mlir
// RUN: qforge-bench %t.int4.mlir --verify --time=false --dim=M=1,3,17,129 | FileCheck %s --check-prefix=FORMS
// FORMS-COUNT-4: verify: {{.*}}: PASS

// On an Intel core (prefill-f32.mlir) the chunks of
// 32 (8 blocks of 4 tokens) and 128 (22 blocks of 6) convert a row tile's
// weights of a group once, before its blocks, whose FMAs read f32
// (vmovaps), no widening or conversion; the chunk of 8 (2 blocks of 4)
// converts in the blocks' loop.
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --emit=asm -o %t.intel.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.intel.s | FileCheck %s --check-prefix=INTEL-ASM
// INTEL-ASM-DAG: {{^}}quantized_matmul_qmm0_m8..omp_par .LBB{{.*}}; addq 1, cmpq 1, jb 1, prefetcht0 8, subq 1, vbroadcastss 32, vcvtdq2ps 32, vfmaddps 128, vpmovzxbd 32{{$}}
// INTEL-ASM-DAG: {{^}}quantized_matmul_qmm0_m32..omp_par .LBB{{.*}}; addq 2, cmpq 1, jb 1, subq 1, vbroadcastss 32, vfmaddps 128, vmovaps 32{{$}}
// INTEL-ASM-DAG: {{^}}quantized_matmul_qmm0_m128..omp_par .LBB{{.*}}; addq 3, cmpq 1, jb 1, vbroadcastss 48, vfmaddps 192, vmovaps 32{{$}}

// 4-bit weights on an Intel core (prefill-int4-f32.mlir)
// dispatched alike, every batched path's nibbles looked up in tables, the
// chunks of 32 and 128 converted once per group as above.
// RUN: %gen_kernel 100 3 32 --dynamic --int4 > %t.int4-intel.mlir
// RUN: qforge-compile %t.int4-intel.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=INT4-INTEL
// INT4-INTEL-LABEL: func.func @quantized_matmul(
// INT4-INTEL:         func.call @quantized_matmul_qmm0_m8(
// INT4-INTEL:         arith.cmpi ule, %{{.+}}, %c1
// INT4-INTEL:           func.call @quantized_matmul_qmm0_m1(
// INT4-INTEL:           arith.cmpi ule, %{{.+}}, %c2
// INT4-INTEL:             } : tensor<1x?x3x32xf32> to tensor<1x2x3x32xf32>
// INT4-INTEL:             func.call @quantized_matmul_qmm0_m2(
// INT4-INTEL:             arith.cmpi ule, %{{.+}}, %c4
// INT4-INTEL:               func.call @quantized_matmul_qmm0_m4(
// INT4-INTEL:               arith.cmpi ule, %{{.+}}, %c5
// INT4-INTEL:                 func.call @quantized_matmul_qmm0_m5(
// INT4-INTEL:                 func.call @quantized_matmul_qmm0_m8(
// RUN: qforge-compile %t.int4-intel.mlir --mcpu=sapphirerapids --emit=asm -o %t.int4-intel.s
// RUN: %python %qforge_src/scripts/loop-mix.py %t.int4-intel.s | FileCheck %s --check-prefix=INT4-INTEL-ASM
// INT4-INTEL-ASM-DAG: {{^}}quantized_matmul_qmm0_m2{{[^ ]*}} .LBB{{.*}} vfmaddps {{[0-9]+}}, vpermd
// INT4-INTEL-ASM-DAG: {{^}}quantized_matmul_qmm0_m4{{[^ ]*}} .LBB{{.*}} vfmaddps {{[0-9]+}}, vpermd
// INT4-INTEL-ASM-DAG: {{^}}quantized_matmul_qmm0_m5{{[^ ]*}} .LBB{{.*}} vfmaddps {{[0-9]+}}, vpermd
// INT4-INTEL-ASM-DAG: {{^}}quantized_matmul_qmm0_m8{{[^ ]*}} .LBB{{.*}} vfmaddps {{[0-9]+}}, vpermd
// INT4-INTEL-ASM-DAG: {{^}}quantized_matmul_qmm0_m32..omp_par .LBB{{.*}}; addq 2, cmpq 1, jb 1, subq 1, vbroadcastss 32, vfmaddps 128, vmovaps 32{{$}}
// INT4-INTEL-ASM-DAG: {{^}}quantized_matmul_qmm0_m128..omp_par .LBB{{.*}}; addq 3, cmpq 1, jb 1, vbroadcastss 40, vfmaddps 160, vmovaps 32{{$}}
// RUN: not grep vcvtdq2ps %t.int4-intel.s

// A user's script states its own chunk plan in module attributes, over the
// defaults (a shipped script keeps its table row's): qforge.rows_by_decode:
// 2 rows left through the decode path,
// the chunk of 4 for 3-4 (its chunk of 2 dropped); without
// qforge.rows_left_chunks, halvings of the smallest chunk (4 only, then);
// a negative count or a listed size below 2 or not below the smallest
// chunk is refused.
// RUN: sed 's/{transform.with_named_sequence}/{transform.with_named_sequence, qforge.token_tile = 8 : i64, qforge.rows_left_chunks = array<i64: 2, 4, 6>, qforge.rows_by_decode = 2 : i64}/' %transforms/prefill-f32.mlir > %t.rows2.mlir
// RUN: qforge-compile %t.mlir --script=%t.rows2.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=ROWS2
// ROWS2:         arith.cmpi ule, %{{.+}}, %c2
// ROWS2:           func.call @quantized_matmul_qmm0_m1(
// ROWS2:           arith.cmpi ule, %{{.+}}, %c4
// ROWS2:             func.call @quantized_matmul_qmm0_m4(
// ROWS2:             arith.cmpi ule, %{{.+}}, %c6
// ROWS2:               func.call @quantized_matmul_qmm0_m6(
// ROWS2:               func.call @quantized_matmul_qmm0_m8(
// ROWS2-NOT:     @quantized_matmul_qmm0_m2(
// RUN: sed 's/, qforge.rows_left_chunks = array<i64: 2, 4, 6>//' %t.rows2.mlir > %t.halvings.mlir
// RUN: qforge-compile %t.mlir --script=%t.halvings.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=HALVINGS
// HALVINGS:         arith.cmpi ule, %{{.+}}, %c2
// HALVINGS:           arith.cmpi ule, %{{.+}}, %c4
// HALVINGS:             func.call @quantized_matmul_qmm0_m4(
// HALVINGS:             func.call @quantized_matmul_qmm0_m8(
// HALVINGS-NOT:     @quantized_matmul_qmm0_m{{[26]}}(
// RUN: sed 's/rows_by_decode = 2/rows_by_decode = -1/' %t.rows2.mlir > %t.rows-negative.mlir
// RUN: not qforge-compile %t.mlir --script=%t.rows-negative.mlir --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS-NEGATIVE
// ROWS-NEGATIVE: error: the batched strategy '{{.*}}rows-negative.mlir' sets qforge.rows_by_decode = -1; it must be at least 0
// RUN: sed 's/{transform.with_named_sequence}/{transform.with_named_sequence, qforge.rows_left_chunks = array<i64: 4, 8>}/' %transforms/prefill-f32.mlir > %t.rows-left-8.mlir
// RUN: not qforge-compile %t.mlir --script=%t.rows-left-8.mlir --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS-LEFT-8
// ROWS-LEFT-8: error: the batched strategy '{{.*}}rows-left-8.mlir' lists 8 in qforge.rows_left_chunks; its sizes must be at least 2 and less than the smallest chunk (8)

// The bench needs the run-time sizes, and only for a dynamic kernel.
// RUN: not qforge-bench %t.mlir --time=false 2>&1 | FileCheck %s --check-prefix=NO-DIM
// NO-DIM: qforge-bench: error: @quantized_matmul has a dynamic token count: pass its run-time sizes with --dim=M=V[,V...]
// RUN: not qforge-bench %t.mlir --time=false --dim=M=0 2>&1 | FileCheck %s --check-prefix=BAD-DIM
// BAD-DIM: qforge-bench: error: --dim: '0' is not a token count from 1 to 16777216
// RUN: not qforge-bench %t.mlir --time=false --dim=N=3 2>&1 | FileCheck %s --check-prefix=BAD-NAME
// BAD-NAME: qforge-bench: error: --dim takes M=V[,V...] (the token count), not 'N=3'
// RUN: %gen_kernel 100 3 32 > %t.static.mlir
// RUN: not qforge-bench %t.static.mlir --time=false --dim=M=3 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: qforge-bench: error: --dim gives run-time sizes, but @quantized_matmul has static shapes only

// The chunk sizes follow the batched row's token tile and chunk tiles (its
// token_tile and chunk_tiles in transforms/strategy-table.json;
// rows_by_decode, default 1, sets how many rows left over go one at a
// time): AVX2's prefill is compute-bound at one 6-token tile, so its row
// lists chunks of one tile: chunks of 6 rows, and of 3 for the rows left
// (three specializations where 16 and 4 tiles made five); its row does not
// set pad_nearly_full_chunks, so no chunk takes the rows left but the
// chain's (and none on Zen, the generic script).
// RUN: qforge-compile %t.mlir --mcpu=haswell --emit=mlir -o - | FileCheck %s --check-prefix=AVX2
// RUN: qforge-compile %t.mlir --mcpu=znver5 --emit=mlir -o - | FileCheck %s --check-prefix=NO-NEAR
// AVX2-LABEL: func.func @quantized_matmul(
// AVX2-SAME:    tensor<7x3x32x16xi8>
// AVX2-NOT:     arith.cmpi uge
// AVX2-NOT:     func.call @quantized_matmul_qmm0_m{{(96|24)}}(
// AVX2:         scf.for {{.*}} step %c6
// AVX2:         func.call @quantized_matmul_qmm0_m6(
// AVX2:         arith.cmpi ule, %{{.+}}, %c1
// AVX2:         func.call @quantized_matmul_qmm0_m1(
// AVX2:         arith.cmpi ule, %{{.+}}, %c3
// AVX2:         } : tensor<1x?x3x32xf32> to tensor<1x3x3x32xf32>
// AVX2:         func.call @quantized_matmul_qmm0_m3(
// AVX2:         } : tensor<1x?x3x32xf32> to tensor<1x6x3x32xf32>
// AVX2-NOT:     arith.cmpi uge
// AVX2-NOT:     func.call @quantized_matmul_qmm0_m{{(96|24)}}(
// A batched script of one's own states its chunk tiles as a module
// attribute (over its row's): 16 and 4 tiles of 6 give chunks of 96, 24
// and 6 rows again; tile counts that do not decrease are refused.
// RUN: sed 's/{transform.with_named_sequence}/{transform.with_named_sequence, qforge.token_tile = 6 : i64, qforge.chunk_tiles = array<i64: 16, 4>}/' %transforms/prefill-f32.mlir > %t.tiles.mlir
// RUN: qforge-compile %t.mlir --script=%t.tiles.mlir --mcpu=haswell --emit=mlir -o - | FileCheck %s --check-prefix=TILES
// TILES:         func.call @quantized_matmul_qmm0_m96(
// TILES:         func.call @quantized_matmul_qmm0_m24(
// TILES:         func.call @quantized_matmul_qmm0_m6(
// RUN: sed 's/array<i64: 16, 4>/array<i64: 4, 4>/' %t.tiles.mlir > %t.tiles-bad.mlir
// RUN: not qforge-compile %t.mlir --script=%t.tiles-bad.mlir --mcpu=haswell --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILES-BAD
// TILES-BAD: error: the batched strategy '{{.*}}tiles-bad.mlir' sets qforge.chunk_tiles; it must list decreasing tile counts of at least 1, chunks of at most 1048576 rows
// RUN: sed 's/array<i64: 16, 4>/array<i64>/' %t.tiles.mlir > %t.tiles-empty.mlir
// RUN: not qforge-compile %t.mlir --script=%t.tiles-empty.mlir --mcpu=haswell --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-TILES
// NO-TILES: error: the batched strategy '{{.*}}tiles-empty.mlir' sets qforge.chunk_tiles; it must list decreasing tile counts
// RUN: sed 's/array<i64: 16, 4>/array<i64: 4611686018427387904>/' %t.tiles.mlir > %t.tiles-huge.mlir
// RUN: not qforge-compile %t.mlir --script=%t.tiles-huge.mlir --mcpu=haswell --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILES-HUGE
// TILES-HUGE: error: the batched strategy '{{.*}}tiles-huge.mlir' sets qforge.chunk_tiles; it must list decreasing tile counts of at least 1, chunks of at most 1048576 rows
// RUN: sed 's/qforge.token_tile = 6 : i64, qforge.chunk_tiles = array<i64: 16, 4>/qforge.token_tile = 1 : i64, qforge.chunk_tiles = array<i64: 1>/' %t.tiles.mlir > %t.tiles-one.mlir
// RUN: not qforge-compile %t.mlir --script=%t.tiles-one.mlir --mcpu=haswell --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILES-ONE
// TILES-ONE: error: the batched strategy '{{.*}}tiles-one.mlir' has chunks of one row only (a token tile of 1, chunks of 1 tile): that is the M = 1 path
// With int8 activations on AVX2 (no VNNI), chunks of two 8-token tiles:
// a chunk keeps more than 8 rows, so 16 rows is also the smallest.
// RUN: qforge-compile %t.mlir --mcpu=haswell --int8-activations --emit=mlir -o - | FileCheck %s --check-prefix=AVX2-INT8
// AVX2-INT8-LABEL: func.func @quantized_matmul(
// AVX2-INT8-NOT:   func.call @quantized_matmul_qmm0_m{{(128|32)}}(
// AVX2-INT8:       scf.for {{.*}} step %c16
// AVX2-INT8:       func.call @quantized_matmul_qmm0_m16(
// AVX2-INT8:       func.call @quantized_matmul_qmm0_m1(
// AVX2-INT8-NOT:   func.call @quantized_matmul_qmm0_m{{(128|32)}}(
// NO-NEAR-LABEL: func.func @quantized_matmul(
// NO-NEAR-NOT:   arith.cmpi uge
// NO-NEAR:       func.call @quantized_matmul_qmm0_m1(
// (Run for AVX2 in test/Bench/verify-packed-avx2.mlir.)

// A whole block with a dynamic token count (gen_decoder_layer.py
// --dynamic --mlp-only: gate, up, silu * up, down): each quantized matmul
// dispatched, the elementwise ops between them on the dynamic rows. The
// token count the parent shares between the pairs (one tensor.dim) is the
// specializations' constant.
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 512 --mlp-only --dynamic > %t.mlp.mlir
// RUN: qforge-bench %t.mlp.mlir --verify --time=false --dim=M=1,3,17 | FileCheck %s --check-prefix=MLP
// MLP-COUNT-3: verify: {{.*}}: PASS
// The silu * up between them is vectorized on the dynamic rows: one row of
// 64 lanes per tile (no scalar loop per element).
// RUN: qforge-compile %t.mlp.mlir --mcpu=haswell --emit=mlir -o - | FileCheck %s --check-prefix=MLP-IR
// MLP-IR-LABEL: func.func @decoder_layer(
// MLP-IR:         scf.for
// MLP-IR:           math.exp %{{.+}} : vector<1x64xf32>

// An expand_shape giving a number for a dynamic dim passes the verifier
// but would crash the specialization's folding: refused, located.
// RUN: sed -e 's/output_shape \[%%tokens, /output_shape [3, /' %t.mlp.mlir > %t.bad.mlir
// RUN: not qforge-compile %t.bad.mlir --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-EXPAND
// BAD-EXPAND: error: output_shape gives 3 for dynamic dim 0 of the result 'tensor<?x2x128xf32>'; a dynamic dim takes an SSA size
