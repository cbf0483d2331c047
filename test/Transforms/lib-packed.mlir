// Each sequence of transforms/lib/packed.mlir run alone, through an entry
// point of this file (--transform-interpreter=entry-point=test_NAME), with
// the library preloaded; what runs before it in an entry point only builds
// its input (the helpers @front_* are the packed strategies' starts). A
// handle a sequence returns is tagged {returned}.
// RUN: %gen_kernel 64 2 128 > %t.decode.mlir
// RUN: %gen_kernel 192 2 128 > %t.rows192.mlir
// RUN: %gen_kernel 256 2 128 > %t.rows256.mlir
// RUN: %gen_kernel 64 2 128 --batch 16 > %t.prefill.mlir
// RUN: %gen_kernel 64 2 128 --int4 | qforge-opt --qforge-store-int4-as-byte-pairs > %t.int4.mlir
// RUN: %gen_kernel 64 2 128 --int4 --batch 16 | qforge-opt --qforge-store-int4-as-byte-pairs > %t.prefill4.mlir
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_bubble_and_prepack | FileCheck %s --check-prefix=BANDP
// RUN: qforge-opt %t.prefill.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_in_k_blocks | FileCheck %s --check-prefix=KBLOCKS
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_prepack_and_factor_f32 | FileCheck %s --check-prefix=FACTOR
// RUN: qforge-opt %t.int4.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_one_group_at_a_time | FileCheck %s --check-prefix=ONEGROUP
// RUN: %gen_kernel 64 1 4096 --int4 | qforge-opt --qforge-store-int4-as-byte-pairs > %t.int4-per-row.mlir
// RUN: qforge-opt %t.int4-per-row.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_one_group_at_a_time | FileCheck %s --check-prefix=LONGGROUP
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_quantize_and_factor_packed_decode | FileCheck %s --check-prefix=QDEC
// RUN: qforge-opt %t.prefill.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_quantize_activation_rows_and_factor | FileCheck %s --check-prefix=QROWS
// RUN: %gen_kernel 64 2 128 --batch 17 > %t.prefill17.mlir
// RUN: qforge-opt %t.prefill17.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_quantize_activation_rows_and_factor | FileCheck %s --check-prefix=QROWS17
// RUN: %gen_kernel 64 1 1024 --batch 16 > %t.prefill-per-row.mlir
// RUN: qforge-opt %t.prefill-per-row.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_quantize_activation_rows_and_factor | FileCheck %s --check-prefix=QROWSPC
// RUN: qforge-opt %t.prefill-per-row.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_int8_prefill_blocks | FileCheck %s --check-prefix=I8CHUNKS
// RUN: qforge-opt %t.prefill-per-row.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_prefill_f32_prepack_factor_and_tile | FileCheck %s --check-prefix=PFCHUNKS
// RUN: qforge-opt %t.rows256.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_row_tiles | FileCheck %s --check-prefix=ROWTILES
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_row_tiles_and_fold | FileCheck %s --check-prefix=FOLD
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_row_tiles_and_groups | FileCheck %s --check-prefix=RTG
// RUN: qforge-opt %t.prefill.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_prefill_f32_prepack_factor_and_tile | FileCheck %s --check-prefix=PFRONT
// RUN: qforge-opt %t.int4.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_byte_steps_and_nibbles | FileCheck %s --check-prefix=NIBBLES
// RUN: qforge-opt %t.rows192.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_up_to_5_row_tiles_interleaved | FileCheck %s --check-prefix=INTERLEAVE
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_int8_groups | FileCheck %s --check-prefix=I8GROUPS
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_int8_decode_k_steps | FileCheck %s --check-prefix=KSTEPS
// RUN: qforge-opt %t.int4.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_int8_decode_byte_steps | FileCheck %s --check-prefix=BYTESTEPS
// RUN: qforge-opt %t.prefill.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_int8_prefill_blocks | FileCheck %s --check-prefix=I8BLOCKS
// RUN: qforge-opt %t.prefill.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_tile_result_unpack | FileCheck %s --check-prefix=UNPACK
// RUN: qforge-opt %t.int4.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_vectorize_packed_f32 | FileCheck %s --check-prefix=VPF32
// RUN: qforge-opt %t.rows256.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_vectorize_interleaved_tiles | FileCheck %s --check-prefix=VIT
// RUN: qforge-opt %t.decode.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_vectorize_packed_int8 | FileCheck %s --check-prefix=VPI8
// RUN: qforge-opt %t.prefill.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_prefill_int8_prepack_and_fold | FileCheck %s --check-prefix=P8FOLD
// RUN: qforge-opt %t.prefill.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_prefill_int8_32_rows | FileCheck %s --check-prefix=P8
// RUN: qforge-opt %t.prefill4.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_prefill_int4_32_rows | FileCheck %s --check-prefix=P4
// RUN: %gen_kernel 100 2 128 > %t.rows100.mlir
// RUN: %gen_kernel 100 2 128 --int4 | qforge-opt --qforge-store-int4-as-byte-pairs > %t.int4rows100.mlir
// RUN: qforge-opt %t.rows100.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_decode_packed_f32 | FileCheck %s --check-prefix=DPF32
// RUN: qforge-opt %t.int4rows100.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_decode_packed_int4_f32 | FileCheck %s --check-prefix=DPI4
// RUN: qforge-opt %t.prefill.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_prefill_packed_f32 | FileCheck %s --check-prefix=PPF32
// RUN: qforge-opt %t.prefill4.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_prefill_packed_int4_f32 | FileCheck %s --check-prefix=PPI4

// @bubble_and_prepack: the rows' pack of the contraction moved through the
// dequant to the i8 weights, the scales and the zero-points, and those three
// packs moved into @quantized_matmul_pack_weights; the kernel (returned)
// takes the packed tensors; the result's unpack a reshape (64 divides N).
// BANDP-LABEL:   func.func @quantized_matmul(
// BANDP-SAME:      %{{.+}}: tensor<1x2x128x64xi8>, %{{.+}}: tensor<1x2x1x64xf32>, %{{.+}}: tensor<1x2x1x64xf32>, %{{.+}}: tensor<1x1x2x128xf32>)
// BANDP-SAME:      attributes {qforge.pack_weights = @quantized_matmul_pack_weights, returned}
// BANDP-NOT:       linalg.pack
// BANDP:           linalg.generic {{.*}}ins(%{{.+}}, %{{.+}}, %{{.+}} : tensor<1x2x128x64xi8>, tensor<1x2x1x64xf32>, tensor<1x2x1x64xf32>) outs(%{{.+}} : tensor<1x2x128x64xf32>)
// BANDP-NOT:       linalg.unpack
// BANDP:           tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<1x1x1x64xf32> into tensor<1x1x64xf32>
// BANDP-LABEL:   func.func @quantized_matmul_pack_weights(
// BANDP-SAME:      -> (tensor<1x2x128x64xi8>, tensor<1x2x1x64xf32>, tensor<1x2x1x64xf32>)
// BANDP:           linalg.pack %{{.+}} inner_dims_pos = [0] inner_tiles = [64] into %{{.+}} : tensor<64x2x128xi8> -> tensor<1x2x128x64xi8>
// BANDP-COUNT-2:   linalg.pack %{{.+}} inner_dims_pos = [0] inner_tiles = [64] into %{{.+}} : tensor<64x2x1xf32> -> tensor<1x2x1x64xf32>

// @tile_in_k_blocks: the prefill's activation pack 16 k at a time.
// KBLOCKS-LABEL: func.func @quantized_matmul
// KBLOCKS:       scf.for
// KBLOCKS-NEXT:    scf.for
// KBLOCKS-NEXT:      scf.for
// KBLOCKS-NEXT:        scf.for
// KBLOCKS:               linalg.pack %{{.+}} inner_dims_pos = [1] inner_tiles = [8] into %{{.+}} : tensor<1x8x1x16xf32> -> tensor<1x1x1x16x8xf32>

// @prepack_and_factor_f32: on the packed parameters (the kernel returned),
// xs[g], the partial sums on the packed weights (k reduced, the rows as
// lanes), the group sums.
// FACTOR-LABEL: func.func @quantized_matmul(
// FACTOR-SAME:    %{{.+}}: tensor<1x2x128x64xi8>, %{{.+}}: tensor<1x2x1x64xf32>, %{{.+}}: tensor<1x2x1x64xf32>, %{{.+}}: tensor<1x1x2x128xf32>)
// FACTOR-SAME:    returned
// FACTOR:       linalg.generic {{.*}}ins(%{{.+}} : tensor<1x1x2x128xf32>) outs(%{{.+}} : tensor<1x1x2xf32>)
// FACTOR:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "parallel"]{{.*}}ins(%{{.+}}, %{{.+}} : tensor<1x1x2x128xf32>, tensor<1x2x128x64xi8>) outs(%{{.+}} : tensor<1x2x1x1x64xf32>)
// FACTOR:       linalg.generic {{.*}}ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<1x2x1x64xf32>, tensor<1x2x1x64xf32>, tensor<1x1x2xf32>, tensor<1x2x1x1x64xf32>)

// @tile_one_group_at_a_time: the 4-bit activation sums one group at a
// time (their (k/2, k%2) dims whole: a group of 128 is one block of at most
// 256 elements, a loop of one iteration that canonicalization removes), the
// group loop returned.
// ONEGROUP-LABEL: func.func @quantized_matmul(
// ONEGROUP:       scf.for
// ONEGROUP-NEXT:    scf.for
// ONEGROUP-NEXT:      scf.for
// ONEGROUP:             scf.for %{{.+}} = %{{.+}} to %c64 step %c64
// ONEGROUP:               linalg.generic {{.*}}ins(%{{.+}} : tensor<1x1x1x64x2xf32>) outs(%{{.+}} : tensor<1x1x1xf32>)
// ONEGROUP:           } {returned}

// One group of 4096 per row (per-channel scales): the group's 2048 byte
// pairs 128 at a time (256 activation elements), not vectorized whole.
// LONGGROUP-LABEL: func.func @quantized_matmul(
// LONGGROUP:       scf.for
// LONGGROUP-NEXT:    scf.for
// LONGGROUP-NEXT:      scf.for
// LONGGROUP:             scf.for %{{.+}} = %{{.+}} to %c2048 step %c128 iter_args(%{{.+}}) -> (tensor<1x1x1xf32>)
// LONGGROUP:               linalg.generic {{.*}}ins(%{{.+}} : tensor<1x1x1x128x2xf32>) outs(%{{.+}} : tensor<1x1x1xf32>)
// LONGGROUP:           } {returned}

// @quantize_and_factor_packed_decode: amax, xq and xs one group at a time in
// loops tagged qforge.activation_groups; the i32 partial sums on the packed
// weights.
// QDEC-LABEL: func.func @quantized_matmul(
// QDEC:         linalg.generic {{.*}}ins(%{{.+}} : tensor<1x1x1x32x4xf32>) outs(%{{.+}} : tensor<1x1x1xi32>)
// QDEC:         } {qforge.activation_groups}
// QDEC:         linalg.generic {{.*}}outs(%{{.+}} : tensor<1x1x1x32x4xi8>)
// QDEC:         } {qforge.activation_groups}
// QDEC:         linalg.generic {{.*}}ins(%{{.+}} : tensor<1x1x1x32x4xi8>) outs(%{{.+}} : tensor<1x1x1xf32>)
// QDEC:         } {qforge.activation_groups}
// QDEC:       linalg.generic {{.*}}ins(%{{.+}}, %{{.+}} : tensor<1x1x2x32x4xi8>, tensor<4x2x32x16x4xi8>) outs(%{{.+}} : tensor<4x2x1x1x16xi32>)

// @quantize_activation_rows_and_factor: amax, xq and xs per row and group
// (tagged loops), amax and xq in one forall over the 16 rows (the amax
// fused in: each float row read once), xs in another; the packs by role,
// per block of 8 rows (foralls over the 2 blocks), the int8 pack 4 k steps
// at a time, the group scales' and sums' packs 16 groups at a time.
// QROWS-LABEL: func.func @quantized_matmul(
// QROWS:       scf.forall (%{{.+}}, %{{.+}}) in (1, 16) shared_outs(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<1x16x2x128xi8>, tensor<1x16x2xi32>)
// QROWS:         linalg.generic {{.*}}ins(%{{.+}} : tensor<1x1x1x128xf32>) outs(%{{.+}} : tensor<1x1x1xi32>)
// QROWS:         } {qforge.activation_groups}
// QROWS:         } {qforge.activation_groups}
// QROWS-NOT:   scf.forall (
// QROWS:         tensor.parallel_insert_slice
// QROWS:         tensor.parallel_insert_slice
// QROWS:       scf.forall (%{{.+}}, %{{.+}}) in (1, 16)
// QROWS:         } {qforge.activation_groups}
// 17 tokens in blocks of 8 (this test's pack): the third block holds one,
// its tiles read under a mask whose lanes past the end take the pack's
// padding (zero), written whole; no pack left for bufferization.
// QROWS17-LABEL: func.func @quantized_matmul(
// QROWS17-NOT:   linalg.pack {{.*}}qforge.activation_pack
// QROWS17:       tensor.extract_slice %{{.+}}[0, 0, 0] [1, %[[ROWS:[^,]+]], 2] [1, 1, 1] : tensor<1x?x2xi32> to tensor<1x?x2xi32>
// QROWS17-NEXT:  %[[MASK:.+]] = vector.create_mask %{{.+}}, %[[ROWS]], %{{.+}} : vector<1x8x2xi1>
// QROWS17-NEXT:  vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}], %c0_i32, %[[MASK]] {in_bounds = [true, true, true]} : tensor<1x?x2xi32>, vector<1x8x2xi32>
// QROWS17-NOT:   linalg.pack {{.*}}qforge.activation_pack

// The packs vectorized at their tiles' static shapes (the group packs'
// loop of one iteration, 16 groups of 2, canonicalized away first).
// QROWS-NOT:   linalg.pack {{.*}}qforge.activation_pack
// QROWS:       scf.forall (%{{.+}}, %{{.+}}) in (1, 2)
// QROWS:         vector.transfer_read {{.*}} : tensor<1x8x2xi32>, vector<1x8x2xi32>
// QROWS:         vector.transpose %{{.+}}, [0, 1, 3, 2] : vector<1x1x8x2xi32> to vector<1x1x2x8xi32>
// QROWS:       scf.forall (%{{.+}}, %{{.+}}) in (1, 2)
// QROWS:         scf.for
// QROWS-NEXT:      scf.for
// QROWS:             vector.transfer_read {{.*}} : tensor<1x8x1x16xi8>, vector<1x8x1x16xi8>
// QROWS:             vector.transpose %{{.+}}, [0, 1, 3, 4, 2, 5] : vector<1x1x8x1x4x4xi8> to vector<1x1x1x4x8x4xi8>
// QROWS:       scf.forall (%{{.+}}, %{{.+}}) in (1, 2)
// QROWS:         vector.transfer_read {{.*}} : tensor<1x8x2xf32>, vector<1x8x2xf32>
// QROWS:       linalg.generic {{.*}}ins(%{{.+}}, %{{.+}} : tensor<1x2x2x32x8x4xi8>, tensor<2x2x32x32x4xi8>) outs(%{{.+}} : tensor<2x2x1x2x8x32xi32>)

// @tile_row_tiles with 2 tiles per iteration: 4 row tiles of 64 in a
// forall of 2 (tagged qforge.weight_rows), the partial sums and both fills
// fused in.
// ROWTILES-LABEL: func.func @quantized_matmul(
// ROWTILES:       scf.forall (%{{.+}}) in (2)
// ROWTILES:         linalg.fill {{.*}} -> tensor<2x2x1x1x64xf32>
// ROWTILES-NEXT:    linalg.generic
// ROWTILES-SAME:      ins(%{{.+}}, %{{.+}} : tensor<1x1x2x128xf32>, tensor<2x2x128x64xi8>) outs(%{{.+}} : tensor<2x2x1x1x64xf32>)
// ROWTILES:         linalg.fill {{.*}} -> tensor<1x1x2x64xf32>
// ROWTILES-NEXT:    linalg.generic
// ROWTILES-SAME:      outs(%{{.+}} : tensor<1x1x2x64xf32>)
// ROWTILES:       } {qforge.weight_rows}

// @tile_row_tiles_and_fold: inside the forall over the 4 tiles of 16 rows,
// the unit dims folded: partial sums (g, k/4, row, 4), group sums (g, row);
// the returned handle is the function.
// FOLD-LABEL: func.func @quantized_matmul(
// FOLD-SAME:    returned
// FOLD:         linalg.generic {{.*}}ins(%{{.+}} : tensor<32x4xf32>) outs(%{{.+}} : tensor<i32>)
// FOLD:       scf.forall (%{{.+}}) in (4)
// FOLD:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel", "reduction"]{{.*}}ins(%{{.+}}, %{{.+}} : tensor<2x32x4xi8>, tensor<2x32x16x4xi8>) outs(%{{.+}} : tensor<2x16xi32>)
// FOLD:         linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}}outs(%{{.+}} : tensor<16xf32>)
// FOLD:       } {qforge.weight_rows}

// @tile_row_tiles_and_groups: a row tile per iteration, a group per
// iteration inside (tagged qforge.weight_groups), the partial sums fused.
// RTG-LABEL: func.func @quantized_matmul(
// RTG:       scf.forall (%{{.+}}) in (1)
// RTG:         scf.for {{.*}} -> (tensor<1x1x1x64xf32>)
// RTG:           linalg.generic {{.*}}ins(%{{.+}}, %{{.+}} : tensor<1x1x1x128xf32>, tensor<1x1x128x64xi8>) outs(%{{.+}} : tensor<1x1x1x1x64xf32>)
// RTG:         } {qforge.weight_groups}
// RTG:       } {qforge.weight_rows}

// @prefill_f32_prepack_factor_and_tile: the activation's pack and sums 16 k
// x 8 tokens at a time, the sums' zero fill a block of 8 tokens and a group
// at a time; a row tile per iteration, in it its group sums' zero fill a
// block at a time, then a group, in it a block of 8 tokens, whose partial
// sums (8 x 64) are returned; the result's unpack one 8 x 64 tile at a
// time.
// One group per row (K = 1024), the prefills: the activation's maximum,
// quantization and sums 256 elements at a time, in loops tagged
// qforge.activation_groups inside the group loops of one iteration (which
// fold away later, with their tags); the integer partial sums' 256 k steps
// in chunks of 32 (4 KiB of a 32-row tile's weights), the f32 ones' 1024
// in chunks of 128, tagged qforge.weight_groups for the prefetch.
// QROWSPC-LABEL: func.func @quantized_matmul(
// QROWSPC:       scf.forall (%{{.+}}, %{{.+}}) in (1, 16)
// QROWSPC:         scf.for %{{.+}} = %c0 to %c1 step %c1
// QROWSPC:           scf.for %{{.+}} = %c0 to %c1024 step %c256
// QROWSPC:             linalg.generic {{.*}}ins(%{{.+}} : tensor<1x1x1x256xf32>) outs(%{{.+}} : tensor<1x1x1xi32>)
// QROWSPC:           } {qforge.activation_groups}
// QROWSPC:         } {qforge.activation_groups}
// QROWSPC:         scf.for %{{.+}} = %c0 to %c1 step %c1
// QROWSPC:           scf.for %{{.+}} = %c0 to %c1024 step %c256
// QROWSPC:           } {qforge.activation_groups}
// QROWSPC:         } {qforge.activation_groups}
// QROWSPC:       scf.forall (%{{.+}}, %{{.+}}) in (1, 16)
// QROWSPC:         scf.for %{{.+}} = %c0 to %c1 step %c1
// QROWSPC:           scf.for %{{.+}} = %c0 to %c1024 step %c256
// QROWSPC:           } {qforge.activation_groups}
// QROWSPC:         } {qforge.activation_groups}
// I8CHUNKS-LABEL: func.func @quantized_matmul(
// I8CHUNKS:       scf.for %{{.+}} = %{{.+}} to %c256{{.*}} step %c32{{.*}} iter_args(%{{.+}}) -> (tensor<1x1x8x32xi32>)
// I8CHUNKS-NEXT:    tensor.extract_slice {{.*}} : tensor<1x1x256x8x4xi8> to tensor<1x1x32x8x4xi8>
// I8CHUNKS-NEXT:    tensor.extract_slice {{.*}} : tensor<1x256x32x4xi8> to tensor<1x32x32x4xi8>
// I8CHUNKS:         linalg.generic {{.*}}ins({{.*}} : tensor<1x1x32x8x4xi8>, tensor<1x32x32x4xi8>) {{.*}}{returned}
// I8CHUNKS:       } {qforge.weight_groups}
// PFCHUNKS-LABEL: func.func @quantized_matmul(
// PFCHUNKS:       scf.forall
// PFCHUNKS:         scf.for %{{.+}} = %{{.+}} to %c1024{{.*}} step %c128 iter_args(%{{.+}}) -> (tensor<1x1x1x1x8x64xf32>)
// PFCHUNKS:           linalg.generic {{.*}}ins({{.*}} : tensor<1x1x1x128x8xf32>, tensor<1x1x128x64xi8>) {{.*}}{returned}
// PFCHUNKS:         } {qforge.weight_groups}
// PFCHUNKS:       } {qforge.weight_rows}

// PFRONT-LABEL: func.func @quantized_matmul(
// PFRONT:         linalg.pack %{{.+}} inner_dims_pos = [1] inner_tiles = [8] into %{{.+}} : tensor<1x8x1x16xf32> -> tensor<1x1x1x16x8xf32>
// PFRONT:         scf.for {{.*}} -> (tensor<1x2x2x8xf32>)
// PFRONT-NEXT:      scf.for {{.*}} -> (tensor<1x2x2x8xf32>)
// PFRONT-NOT:         linalg.generic
// PFRONT:             linalg.fill {{.*}} -> tensor<1x1x1x8xf32>
// PFRONT:         linalg.generic {{.*}}ins(%{{.+}} : tensor<1x1x1x16x8xf32>) outs(%{{.+}} : tensor<1x1x1x8xf32>)
// PFRONT:       scf.forall (%{{.+}}) in (1)
// PFRONT:         scf.for {{.*}} -> (tensor<1x2x1x8x64xf32>)
// PFRONT-NOT:       linalg.generic
// PFRONT:           linalg.fill {{.*}} -> tensor<1x1x1x8x64xf32>
// PFRONT:         scf.for {{.*}} -> (tensor<1x2x1x8x64xf32>)
// PFRONT:           scf.for {{.*}} -> (tensor<1x2x1x8x64xf32>)
// PFRONT:             linalg.fill {{.*}} -> tensor<1x1x1x1x8x64xf32>
// PFRONT-NEXT:        linalg.generic {{.*}}ins(%{{.+}}, %{{.+}} : tensor<1x1x1x128x8xf32>, tensor<1x1x128x64xi8>) outs(%{{.+}} : tensor<1x1x1x1x8x64xf32>) attrs = {returned}
// PFRONT:         } {qforge.weight_groups}
// PFRONT:       } {qforge.weight_rows}
// PFRONT:       scf.for
// PFRONT-NEXT:    scf.for
// PFRONT:           linalg.unpack %{{.+}} inner_dims_pos = [1, 2] inner_tiles = [8, 64] into %{{.+}} : tensor<1x1x1x8x64xf32> -> tensor<1x8x64xf32>

// @tile_byte_steps_and_nibbles: one byte step (64 bytes) per iteration of
// the returned loop, its two nibbles unrolled.
// NIBBLES-LABEL:   func.func @quantized_matmul(
// NIBBLES:         scf.for {{.*}} -> (tensor<1x1x1x1x64xf32>)
// NIBBLES-COUNT-2:   ins(%{{.+}}, %{{.+}} : tensor<1x1x1x1x1xf32>, tensor<1x1x1x64xi8>)
// NIBBLES:         } {returned}
// NIBBLES:       } {qforge.weight_groups}

// @tile_up_to_5_row_tiles_interleaved, 3 row tiles: all 3 in one iteration;
// in the k loop (tagged qforge.weight_k, returned) one step of each tile.
// INTERLEAVE-LABEL:   func.func @quantized_matmul(
// INTERLEAVE:         scf.forall (%{{.+}}) in (1)
// INTERLEAVE:           scf.for {{.*}} -> (tensor<3x1x1x1x64xf32>)
// INTERLEAVE-COUNT-3:     ins(%{{.+}}, %{{.+}} : tensor<1x1x1x1xf32>, tensor<1x1x1x64xi8>) outs(%{{.+}} : tensor<1x1x1x1x64xf32>)
// INTERLEAVE-NOT:         scf.for
// INTERLEAVE:           } {qforge.weight_k, returned}
// INTERLEAVE:         } {qforge.weight_rows}

// @tile_int8_groups (the partial sums matched after the fold): one group
// per iteration of the group sums that consume them (tagged
// qforge.weight_groups), the partial sums fused in.
// I8GROUPS-LABEL: func.func @quantized_matmul(
// I8GROUPS:       scf.forall (%{{.+}}) in (4)
// I8GROUPS:         scf.for {{.*}} -> (tensor<16xf32>)
// I8GROUPS:           linalg.fill {{.*}} -> tensor<1x16xi32>
// I8GROUPS-NEXT:      linalg.generic
// I8GROUPS-SAME:        ins(%{{.+}}, %{{.+}} : tensor<1x32x4xi8>, tensor<1x32x16x4xi8>) outs(%{{.+}} : tensor<1x16xi32>)
// I8GROUPS:         } {qforge.weight_groups}

// @tile_int8_decode_k_steps: in each group one k step (16 rows x 4 bytes)
// per iteration of the returned loop.
// KSTEPS-LABEL: func.func @quantized_matmul(
// KSTEPS:         scf.for {{.*}} -> (tensor<16xf32>)
// KSTEPS:           scf.for {{.*}} -> (tensor<1x16xi32>)
// KSTEPS:             linalg.generic {{.*}}ins(%{{.+}}, %{{.+}} : tensor<1x1x4xi8>, tensor<1x1x16x4xi8>) outs(%{{.+}} : tensor<1x16xi32>)
// KSTEPS:           } {returned}
// KSTEPS:         } {qforge.weight_groups}

// @tile_int8_decode_byte_steps: in each group one byte step per iteration
// of the returned loop, its two nibbles unrolled.
// BYTESTEPS-LABEL:   func.func @quantized_matmul(
// BYTESTEPS:           scf.for {{.*}} -> (tensor<1x16xi32>)
// BYTESTEPS-COUNT-2:     ins(%{{.+}}, %{{.+}} : tensor<1x1x1x4xi8>, tensor<1x1x16x4xi8>) outs(%{{.+}} : tensor<1x16xi32>)
// BYTESTEPS:           } {returned}
// BYTESTEPS:         } {qforge.weight_groups}

// @tile_int8_prefill_blocks: in each group one block of 8 tokens per
// iteration; the block's partial sums (8 tokens x 32 rows) returned.
// I8BLOCKS-LABEL: func.func @quantized_matmul(
// I8BLOCKS:         scf.for {{.*}} -> (tensor<2x8x32xf32>)
// I8BLOCKS:           scf.for {{.*}} -> (tensor<2x8x32xf32>)
// I8BLOCKS:             linalg.generic {{.*}}ins(%{{.+}}, %{{.+}} : tensor<1x1x32x8x4xi8>, tensor<1x32x32x4xi8>) outs(%{{.+}} : tensor<1x1x8x32xi32>) attrs = {returned}
// I8BLOCKS:         } {qforge.weight_groups}

// @tile_result_unpack: the result's unpack one 8 x 64 tile at a time.
// UNPACK-LABEL: func.func @quantized_matmul(
// UNPACK:       scf.for
// UNPACK-NEXT:    scf.for
// UNPACK:           linalg.unpack %{{.+}} inner_dims_pos = [1, 2] inner_tiles = [8, 64] into %{{.+}} : tensor<1x1x1x8x64xf32> -> tensor<1x8x64xf32>

// @vectorize_packed_f32: no linalg op left; the group's and the byte
// loop's accumulators vector iter_args; xs a reassociable reduction.
// VPF32-LABEL: func.func @quantized_matmul(
// VPF32-NOT:   linalg.generic
// VPF32:       vector.reduction <add>, %{{.+}}, %{{.+}} fastmath<reassoc> : vector<128xf32> into f32
// VPF32:       scf.for {{.*}} -> (vector<1x1x1x64xf32>)
// VPF32:         scf.for {{.*}} -> (vector<1x1x1x1x64xf32>)
// VPF32:       } {qforge.weight_groups}

// @vectorize_interleaved_tiles: the 4 tiles' partial sums are 4 vector
// iter_args of the k loop (read past each other's writes), no tensor.
// VIT-LABEL: func.func @quantized_matmul(
// VIT-NOT:   linalg.generic
// VIT:       vector.reduction <add>, %{{.+}}, %{{.+}} fastmath<reassoc> : vector<128xf32> into f32
// VIT:       scf.for {{.*}} -> (vector<1x1x4x64xf32>)
// VIT:         scf.for {{.*}} -> (vector<1x1x1x1x64xf32>, vector<1x1x1x1x64xf32>, vector<1x1x1x1x64xf32>, vector<1x1x1x1x64xf32>)
// VIT:         } {qforge.weight_k}

// @vectorize_packed_int8: the activation groups' reductions left in the
// packed shape (flattened and lowered after bufferization); each k step's
// byte products summed over 4 bytes left as a multi_reduction.
// VPI8-LABEL: func.func @quantized_matmul(
// VPI8-NOT:   linalg.generic
// VPI8:       vector.multi_reduction <maxui>, %{{.+}}, %{{.+}} [0, 1] : vector<32x4xi32> to i32
// VPI8:       } {qforge.activation_groups}
// VPI8:       scf.forall
// VPI8:         scf.for {{.*}} -> (vector<1x16xi32>)
// VPI8:           vector.multi_reduction <add>, %{{.+}}, %{{.+}} [1, 3] : vector<1x1x16x4xi32> to vector<1x16xi32>
// VPI8:       } {qforge.weight_rows}

// @prefill_int8_prepack_and_fold: the quantization block, the row tiles of
// 32 (a forall of 2), the result's unpack 8 x 32 at a time; the folded
// kernel returned.
// P8FOLD-LABEL: func.func @quantized_matmul(
// P8FOLD-SAME:    returned
// P8FOLD:       scf.forall (%{{.+}}, %{{.+}}) in (1, 16)
// P8FOLD:       scf.forall (%{{.+}}) in (2)
// P8FOLD:         linalg.generic {{.*}}ins(%{{.+}}, %{{.+}} : tensor<2x2x32x8x4xi8>, tensor<2x32x32x4xi8>) outs(%{{.+}} : tensor<2x2x8x32xi32>)
// P8FOLD:       } {qforge.weight_rows}
// P8FOLD:       linalg.unpack %{{.+}} inner_dims_pos = [1, 2] inner_tiles = [8, 32] into %{{.+}} : tensor<1x1x1x8x32xf32> -> tensor<1x8x32xf32>

// @prefill_int8_32_rows, up to 9 tokens: M = 16 in two blocks of 8 (two of
// 9 would pad); in each block the k loop, not unrolled, holding the 8
// tokens x 2 lines of 16 rows: 16 byte products.
// P8-LABEL:    func.func @quantized_matmul(
// P8-SAME:       %{{.+}}: tensor<2x2x32x32x4xi8>
// P8:          scf.for {{.*}} -> (tensor<1x1x8x32xi32>)
// P8-COUNT-16:   ins(%{{.+}}, %{{.+}} : tensor<1x1x1x1x4xi8>, tensor<1x1x16x4xi8>) outs(%{{.+}} : tensor<1x1x1x16xi32>)
// P8-NOT:        tensor<1x1x1x1x4xi8>, tensor<1x1x16x4xi8>
// P8:          } {qforge.weight_groups}
// P8:          linalg.unpack %{{.+}} inner_dims_pos = [1, 2] inner_tiles = [8, 32]

// @prefill_int4_32_rows, up to 9 tokens: two blocks of 8; two byte loops
// (the nibbles, unrolled), each holding the 8 tokens x 2 lines: 32 byte
// products.
// P4-LABEL:    func.func @quantized_matmul(
// P4-SAME:       %{{.+}}: tensor<2x2x16x32x4xi8>
// P4:          scf.for {{.*}} -> (tensor<1x1x8x32xi32>)
// P4-COUNT-16:   ins(%{{.+}}, %{{.+}} : tensor<1x1x1x1x1x4xi8>, tensor<1x1x16x4xi8>) outs(%{{.+}} : tensor<1x1x1x16xi32>)
// P4:          scf.for {{.*}} -> (tensor<1x1x8x32xi32>)
// P4-COUNT-16:   ins(%{{.+}}, %{{.+}} : tensor<1x1x1x1x1x4xi8>, tensor<1x1x16x4xi8>) outs(%{{.+}} : tensor<1x1x1x16xi32>)
// P4-NOT:        tensor<1x1x1x1x1x4xi8>, tensor<1x1x16x4xi8>
// P4:          } {qforge.weight_groups}

// @decode_packed_f32 with the AVX2 numbers on N = 100: one rows param
// packs 16 rows (7 tiles, padded) and tiles the result's unpack by 16.
// DPF32-LABEL: func.func @quantized_matmul(%arg0: tensor<7x2x128x16xi8>, %arg1: tensor<7x2x1x16xf32>, %arg2: tensor<7x2x1x16xf32>
// DPF32:         scf.forall (%{{.+}}) in (7)
// DPF32:           scf.for %{{.+}} = %c0 to %c128 step %c8
// DPF32:             arith.uitofp %{{.+}} : vector<16xi8> to vector<16xf32>
// DPF32:         } {qforge.weight_rows}
// DPF32:         scf.for %{{.+}} = %c0 to %c100 step %c16
// DPF32:           linalg.unpack %{{.+}} inner_dims_pos = [2] inner_tiles = [16] into %{{.+}} : tensor<1x1x1x16xf32> -> tensor<1x1x?xf32>
// DPF32-LABEL: func.func @quantized_matmul_pack_weights(
// DPF32:         linalg.pack %{{.+}} inner_dims_pos = [0] inner_tiles = [16] into %{{.+}} : tensor<100x2x128xi8> -> tensor<7x2x128x16xi8>

// @decode_packed_int4_f32 on N = 100 with 64-row tiles of byte pairs, 4
// byte steps per iteration, and the unpack tile 0 (not tiled, which the
// shipped scripts no longer choose): the unpack vectorized whole.
// DPI4-LABEL: func.func @quantized_matmul(%arg0: tensor<2x2x64x64xi8>, %arg1: tensor<2x2x1x64xf32>, %arg2: tensor<2x2x1x64xf32>
// DPI4:         scf.forall (%{{.+}}) in (2)
// DPI4:           scf.for %{{.+}} = %c0 to %c64 step %c4
// DPI4:             arith.uitofp %{{.+}} : vector<64xi4> to vector<64xf32>
// DPI4:         } {qforge.weight_rows}
// DPI4-NEXT:    vector.transfer_read %{{.+}} : tensor<1x1x2x64xf32>, vector<2x64xf32>
// DPI4-NOT:     linalg.unpack
// DPI4:         vector.transfer_write %{{.+}} : vector<128xf32>, tensor<1x1x100xf32>

// @prefill_packed_f32 after an AVX2 pack_balanced (M = 16: 3 blocks of
// 6 tokens, 16 rows): the activation packed 16 k at a time, 8 k steps
// per iteration, the unpack a 6 x 16 tile at a time.
// PPF32-LABEL: func.func @quantized_matmul(%arg0: tensor<4x2x128x16xi8>
// PPF32:         scf.for %{{.+}} = %c0 to %c128 step %c16 iter_args(%{{.+}}) -> (tensor<1x3x2x128x6xf32>)
// PPF32:         scf.forall (%{{.+}}) in (4)
// PPF32:             scf.for %{{.+}} = %c0 to %c128 step %c8 iter_args(%{{.+}}) -> (vector<1x1x1x1x6x16xf32>)
// PPF32:         linalg.unpack %{{.+}} inner_dims_pos = [1, 2] inner_tiles = [6, 16] into %{{.+}} : tensor<1x1x1x6x16xf32> -> tensor<1x?x16xf32>

// @prefill_packed_int4_f32 after an AVX-512 pack_balanced (8 tokens x 64
// rows): the activation's byte pairs packed 8 at a time.
// PPI4-LABEL: func.func @quantized_matmul(%arg0: tensor<1x2x64x64xi8>
// PPI4:         scf.for %{{.+}} = %c0 to %c64 step %c8 iter_args(%{{.+}}) -> (tensor<1x2x2x64x2x8xf32>)
// PPI4:         vector.transfer_write %{{.+}} : vector<8x2x8xf32>, tensor<1x2x2x64x2x8xf32>
// PPI4:         qforge.weight_groups

module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @bubble_and_prepack(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @tile_in_k_blocks(%op: !transform.any_op {transform.consumed}, %k_block: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prepack_and_factor_f32(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @tile_one_group_at_a_time(%op: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @quantize_and_factor_packed_decode(%kernel: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @quantize_activation_rows_and_factor(%kernel: !transform.any_op {transform.readonly}, %xq_steps: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @tile_row_tiles(%partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}, %tiles: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @tile_row_tiles_and_fold(%partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @tile_row_tiles_and_groups(%partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @prefill_f32_prepack_factor_and_tile(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %k_block: !transform.param<i64> {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @tile_byte_steps_and_nibbles(%partials: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @tile_up_to_5_row_tiles_interleaved(%partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @tile_int8_groups(%groups: !transform.any_op {transform.consumed}, %partials: !transform.any_op {transform.consumed}) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @tile_int8_decode_k_steps(%kernel: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @tile_int8_decode_byte_steps(%kernel: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @tile_int8_prefill_blocks(%kernel: !transform.any_op {transform.readonly}, %partials: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @tile_result_unpack(%kernel: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @vectorize_packed_f32(%kernel: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @vectorize_interleaved_tiles(%kernel: !transform.any_op {transform.consumed})
  transform.named_sequence @vectorize_packed_int8(%kernel: !transform.any_op {transform.consumed})
  transform.named_sequence @prefill_int8_prepack_and_fold(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %xq_steps: !transform.param<i64> {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @prefill_int8_32_rows(%module: !transform.any_op {transform.readonly}, %xq_steps: !transform.param<i64> {transform.readonly}, %max_tokens: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @prefill_int4_32_rows(%module: !transform.any_op {transform.readonly}, %xq_steps: !transform.param<i64> {transform.readonly}, %max_tokens: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @decode_packed_f32(%module: !transform.any_op {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %unpack_rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @decode_packed_int4_f32(%module: !transform.any_op {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %unpack_rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefill_packed_f32(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefill_packed_int4_f32(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})

  // The packs of the packed strategies' entry scripts (decode, 64 rows;
  // 4-bit decode; int8 decode, 16 rows x 4 bytes; prefill, 8 tokens x 64
  // rows; int8 prefill, 8 tokens x 32 rows x 4 bytes).
  transform.named_sequence @pack_f32(%module: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 64, 0, 0] : (!transform.any_op) -> !transform.any_op
    transform.yield %packed : !transform.any_op
  }
  transform.named_sequence @pack_int4_f32(%module: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 64, 0, 0, 0] : (!transform.any_op) -> !transform.any_op
    transform.yield %packed : !transform.any_op
  }
  transform.named_sequence @pack_int8(%module: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 16, 0, 4] : (!transform.any_op) -> !transform.any_op
    transform.yield %packed : !transform.any_op
  }
  transform.named_sequence @pack_prefill_f32(%module: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 8, 64, 0, 0] : (!transform.any_op) -> !transform.any_op
    transform.yield %packed : !transform.any_op
  }
  transform.named_sequence @pack_prefill_int8(%module: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 8, 32, 0, 4] : (!transform.any_op) -> !transform.any_op
    transform.yield %packed : !transform.any_op
  }

  // Fronts of the packed strategies, as their entry scripts start: the
  // pack, the parameters packed once, the factoring.
  transform.named_sequence @front_f32(%module: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) {
    %packed = transform.include @pack_f32 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %kernel, %sums, %partials, %groups = transform.include @prepack_and_factor_f32 failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %kernel, %sums, %partials, %groups : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
  }
  transform.named_sequence @front_int4_f32(%module: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) {
    %packed = transform.include @pack_int4_f32 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %kernel, %sums, %partials, %groups = transform.include @prepack_and_factor_f32 failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %kernel, %sums, %partials, %groups : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
  }
  transform.named_sequence @front_int8(%module: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %packed = transform.include @pack_int8 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield %kernel : !transform.any_op
  }
  transform.named_sequence @front_int4_int8(%module: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %four = transform.param.constant 4 : i64 -> !transform.param<i64>
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 16, 0, 4, 0] : (!transform.any_op) -> !transform.any_op
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %activation_pack = transform.get_producer_of_operand %packed[0] : (!transform.any_op) -> !transform.any_op
    transform.include @tile_in_k_blocks failures(propagate) (%activation_pack, %four)
      : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield %kernel : !transform.any_op
  }
  // The int8 decode fronts up to the fold.
  transform.named_sequence @folded_int8(%module: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %kernel = transform.include @front_int8 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %partials, %groups = transform.include @quantize_and_factor_packed_decode failures(propagate) (%kernel)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %folded = transform.include @tile_row_tiles_and_fold failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield %folded : !transform.any_op
  }
  // The int8 prefill up to the fold.
  transform.named_sequence @folded_prefill_int8(%module: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %four = transform.param.constant 4 : i64 -> !transform.param<i64>
    %eight = transform.param.constant 8 : i64 -> !transform.param<i64>
    %thirty_two = transform.param.constant 32 : i64 -> !transform.param<i64>
    %packed = transform.include @pack_prefill_int8 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %folded = transform.include @prefill_int8_prepack_and_fold failures(propagate) (%module, %packed, %four, %eight, %thirty_two)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield %folded : !transform.any_op
  }

  transform.named_sequence @test_bubble_and_prepack(%module: !transform.any_op {transform.readonly}) {
    %packed = transform.include @pack_f32 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.annotate %kernel "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_tile_in_k_blocks(%module: !transform.any_op {transform.readonly}) {
    %sixteen = transform.param.constant 16 : i64 -> !transform.param<i64>
    %packed = transform.include @pack_prefill_f32 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %activation_pack = transform.get_producer_of_operand %packed[0] : (!transform.any_op) -> !transform.any_op
    transform.include @tile_in_k_blocks failures(propagate) (%activation_pack, %sixteen)
      : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @test_prepack_and_factor_f32(%module: !transform.any_op {transform.readonly}) {
    %kernel, %sums, %partials, %groups = transform.include @front_f32 failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %kernel "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_tile_one_group_at_a_time(%module: !transform.any_op {transform.readonly}) {
    %kernel, %sums, %partials, %groups = transform.include @front_int4_f32 failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %loop = transform.include @tile_one_group_at_a_time failures(propagate) (%sums) : (!transform.any_op) -> !transform.any_op
    transform.annotate %loop "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_quantize_and_factor_packed_decode(%module: !transform.any_op {transform.readonly}) {
    %kernel = transform.include @front_int8 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %partials, %groups = transform.include @quantize_and_factor_packed_decode failures(propagate) (%kernel)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  transform.named_sequence @test_quantize_activation_rows_and_factor(%module: !transform.any_op {transform.readonly}) {
    %four = transform.param.constant 4 : i64 -> !transform.param<i64>
    %packed = transform.include @pack_prefill_int8 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %partials, %groups = transform.include @quantize_activation_rows_and_factor failures(propagate) (%kernel, %four)
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  transform.named_sequence @test_tile_row_tiles(%module: !transform.any_op {transform.readonly}) {
    %two = transform.param.constant 2 : i64 -> !transform.param<i64>
    %kernel, %sums, %partials, %groups = transform.include @front_f32 failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %row_tile, %partials_in_row, %fill_in_row, %groups_fill = transform.include @tile_row_tiles failures(propagate) (%partials, %groups, %two)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }

  transform.named_sequence @test_tile_row_tiles_and_fold(%module: !transform.any_op {transform.readonly}) {
    %folded = transform.include @folded_int8 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    transform.annotate %folded "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_tile_row_tiles_and_groups(%module: !transform.any_op {transform.readonly}) {
    %kernel, %sums, %partials, %groups = transform.include @front_f32 failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %group, %partials_in_group, %fill_in_group, %groups_fill = transform.include @tile_row_tiles_and_groups failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }

  transform.named_sequence @test_prefill_f32_prepack_factor_and_tile(%module: !transform.any_op {transform.readonly}) {
    %sixteen = transform.param.constant 16 : i64 -> !transform.param<i64>
    %eight = transform.param.constant 8 : i64 -> !transform.param<i64>
    %sixty_four = transform.param.constant 64 : i64 -> !transform.param<i64>
    %packed = transform.include @pack_prefill_f32 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %kernel, %partials_in_block = transform.include @prefill_f32_prepack_factor_and_tile failures(propagate)
        (%module, %packed, %sixteen, %eight, %sixty_four) : (!transform.any_op, !transform.any_op, !transform.param<i64>,
        !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.annotate %partials_in_block "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_tile_byte_steps_and_nibbles(%module: !transform.any_op {transform.readonly}) {
    %kernel, %sums, %partials, %groups = transform.include @front_int4_f32 failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %group, %partials_in_group, %fill_in_group, %groups_fill = transform.include @tile_row_tiles_and_groups failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %byte_loop = transform.include @tile_byte_steps_and_nibbles failures(propagate) (%partials_in_group)
      : (!transform.any_op) -> !transform.any_op
    transform.annotate %byte_loop "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_tile_up_to_5_row_tiles_interleaved(%module: !transform.any_op {transform.readonly}) {
    %kernel, %sums, %partials, %groups = transform.include @front_f32 failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %k_loop = transform.include @tile_up_to_5_row_tiles_interleaved failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.annotate %k_loop "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_tile_int8_groups(%module: !transform.any_op {transform.readonly}) {
    %folded = transform.include @folded_int8 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %partials = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>]} in %folded
      : (!transform.any_op) -> !transform.any_op
    %groups = transform.get_consumers_of_result %partials[0] : (!transform.any_op) -> !transform.any_op
    %group, %partials_in_group, %fill_in_group = transform.include @tile_int8_groups failures(propagate) (%groups, %partials)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }

  transform.named_sequence @test_tile_int8_decode_k_steps(%module: !transform.any_op {transform.readonly}) {
    %folded = transform.include @folded_int8 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %k_loop = transform.include @tile_int8_decode_k_steps failures(propagate) (%folded) : (!transform.any_op) -> !transform.any_op
    transform.annotate %k_loop "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_tile_int8_decode_byte_steps(%module: !transform.any_op {transform.readonly}) {
    %kernel = transform.include @front_int4_int8 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %partials, %groups = transform.include @quantize_and_factor_packed_decode failures(propagate) (%kernel)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %folded = transform.include @tile_row_tiles_and_fold failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %byte_loop = transform.include @tile_int8_decode_byte_steps failures(propagate) (%folded) : (!transform.any_op) -> !transform.any_op
    transform.annotate %byte_loop "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_tile_int8_prefill_blocks(%module: !transform.any_op {transform.readonly}) {
    %folded = transform.include @folded_prefill_int8 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %partials = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>]} in %folded
      : (!transform.any_op) -> !transform.any_op
    %partials_in_block = transform.include @tile_int8_prefill_blocks failures(propagate) (%folded, %partials)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.annotate %partials_in_block "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_tile_result_unpack(%module: !transform.any_op {transform.readonly}) {
    %eight = transform.param.constant 8 : i64 -> !transform.param<i64>
    %sixty_four = transform.param.constant 64 : i64 -> !transform.param<i64>
    %packed = transform.include @pack_prefill_f32 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.include @tile_result_unpack failures(propagate) (%kernel, %eight, %sixty_four)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @test_vectorize_packed_f32(%module: !transform.any_op {transform.readonly}) {
    %kernel, %sums, %partials, %groups = transform.include @front_int4_f32 failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %sum_groups = transform.include @tile_one_group_at_a_time failures(propagate) (%sums) : (!transform.any_op) -> !transform.any_op
    %group, %partials_in_group, %fill_in_group, %groups_fill = transform.include @tile_row_tiles_and_groups failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %byte_loop = transform.include @tile_byte_steps_and_nibbles failures(propagate) (%partials_in_group)
      : (!transform.any_op) -> !transform.any_op
    %vectorized = transform.include @vectorize_packed_f32 failures(propagate) (%kernel) : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_vectorize_interleaved_tiles(%module: !transform.any_op {transform.readonly}) {
    %kernel, %sums, %partials, %groups = transform.include @front_f32 failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %k_loop = transform.include @tile_up_to_5_row_tiles_interleaved failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.include @vectorize_interleaved_tiles failures(propagate) (%kernel) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @test_vectorize_packed_int8(%module: !transform.any_op {transform.readonly}) {
    %folded = transform.include @folded_int8 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    %k_loop = transform.include @tile_int8_decode_k_steps failures(propagate) (%folded) : (!transform.any_op) -> !transform.any_op
    transform.include @vectorize_packed_int8 failures(propagate) (%folded) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @test_prefill_int8_prepack_and_fold(%module: !transform.any_op {transform.readonly}) {
    %folded = transform.include @folded_prefill_int8 failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    transform.annotate %folded "returned" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_prefill_int8_32_rows(%module: !transform.any_op {transform.readonly}) {
    %four = transform.param.constant 4 : i64 -> !transform.param<i64>
    %nine = transform.param.constant 9 : i64 -> !transform.param<i64>
    %folded = transform.include @prefill_int8_32_rows failures(propagate) (%module, %four, %nine)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }

  transform.named_sequence @test_prefill_int4_32_rows(%module: !transform.any_op {transform.readonly}) {
    %four = transform.param.constant 4 : i64 -> !transform.param<i64>
    %nine = transform.param.constant 9 : i64 -> !transform.param<i64>
    %folded = transform.include @prefill_int4_32_rows failures(propagate) (%module, %four, %nine)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }

  // The AVX2 numbers: 16 rows, the unpack (N = 100) tiled by 16 too.
  transform.named_sequence @test_decode_packed_f32(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @decode_packed_f32 failures(propagate) (%module, %rows, %rows)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // The AVX-512 numbers: 64 rows, the unpack (N = 100) vectorized whole.
  transform.named_sequence @test_decode_packed_int4_f32(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    %whole = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.include @decode_packed_int4_f32 failures(propagate) (%module, %rows, %whole)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // The AVX2 register tile: 6 tokens (balanced: M = 16 -> 6) x 16 rows.
  transform.named_sequence @test_prefill_packed_f32(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.qforge.pack_balanced %contraction packed_sizes = [0, 6, 16, 0, 0] balance_dims = [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    transform.include @prefill_packed_f32 failures(propagate) (%module, %packed, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // The AVX-512 register tile: 8 tokens x 64 rows.
  transform.named_sequence @test_prefill_packed_int4_f32(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.qforge.pack_balanced %contraction packed_sizes = [0, 8, 64, 0, 0, 0] balance_dims = []
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    transform.include @prefill_packed_int4_f32 failures(propagate) (%module, %packed, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
