// The packed decode strategy (transforms/decode-packed-f32.mlir) on two
// small kernels of the seed's form, one whose N divides the 64-row tile
// (512 = 8 x 64) and one that is padded (484 -> 8 x 64). Checked on the IR
// after the script:
// - @quantized_matmul takes the packed parameters (weights N/64 x G x K x 64
//   i8, scales and zero-points N/64 x G x 1 x 64 f32), names its packing
//   function in qforge.pack_weights, and packs nothing itself: a parameter
//   pack left in the per-call kernel would repack the whole model on every
//   call (the SAFE checks: between the kernel's label and the packing
//   function's, no linalg.pack, and no 3-d i8 tensor, i.e. the raw weights:
//   vectorization turns a pack left in the kernel into transfer reads of
//   the raw weights);
// - each forall iteration takes four row tiles, and its k loop reads one
//   64-byte line of weights from each per k step (vector<64xi8>, converted
//   to vector<64xf32> with uitofp), unrolled by 8, and subtracts nothing:
//   the zero-point is applied once per group, after the k loop; the four
//   tiles' partial sums are the k loop's vector iter_args, so the group
//   loop makes no tensor (a heap buffer per group once bufferized);
// - @quantized_matmul_pack_weights packs the three raw parameters, and, when
//   N = 484 pads rows 484..511, pads them with zero constants (0 : i8 and
//   0.0 : f32), never poison. The kernel has ub.poison values of its own
//   (the padding of in-bounds vector.transfer_read), so the poison check
//   is confined to the packing function (SAFE), the only function with
//   packs.
// RUN: %gen_kernel 512 4 32 > %t.512.mlir
// RUN: qforge-compile %t.512.mlir --strategy-row=decode-packed-f32/avx512 --emit=mlir -o %t.512.out.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,EXACT < %t.512.out.mlir
// RUN: FileCheck %s --check-prefix=SAFE < %t.512.out.mlir
// After bufferization (the script's prefetch step; --emit=lowered): each
// weight line's prefetch, in the k loop, picks past the end of the group
// the first lines of the next group (into_parent_loop): a select of the
// k step and one of the group on "past the end and a next group exists".
// RUN: qforge-compile %t.512.mlir --strategy-row=decode-packed-f32/avx512 --emit=lowered -o - | FileCheck %s --check-prefix=LOWERED
// LOWERED:      %[[BEYOND:.+]] = llvm.icmp "sge"
// LOWERED-NEXT: %[[HASNEXT:.+]] = llvm.icmp "slt"
// LOWERED-NEXT: %[[PAST:.+]] = llvm.and %[[BEYOND]], %[[HASNEXT]] : i1
// LOWERED-NEXT: llvm.select %[[PAST]]
// LOWERED-NEXT: llvm.select %[[PAST]]
// LOWERED:      "llvm.intr.prefetch"
// 6 row tiles (384 rows): 3 per iteration, the largest count up to 4 that
// divides them (transform.qforge.dividing_tile_size), so every iteration has
// static shapes and the three tiles' sums are the k loop's vectors.
// RUN: %gen_kernel 384 4 32 > %t.384.mlir
// RUN: qforge-compile %t.384.mlir --strategy-row=decode-packed-f32/avx512 --emit=mlir -o - | FileCheck %s --check-prefix=THREE
// THREE-LABEL: func.func @quantized_matmul(
// THREE:         scf.forall (%{{.+}}) in (2)
// THREE-NOT:     tensor<?x
// THREE:         scf.for %{{.+}} = %c0 to %c32 step %c8 iter_args(%{{.+}}, %{{.+}}, %{{.+}}) -> (vector<1x1x1x1x64xf32>, vector<1x1x1x1x64xf32>, vector<1x1x1x1x64xf32>) {
// THREE-NOT:     tensor<?x
// THREE:       } {qforge.weight_rows}
// RUN: %gen_kernel 484 4 32 > %t.484.mlir
// RUN: qforge-compile %t.484.mlir --strategy-row=decode-packed-f32/avx512 --emit=mlir -o %t.484.out.mlir
// RUN: FileCheck %s --check-prefixes=CHECK,PAD < %t.484.out.mlir
// RUN: FileCheck %s --check-prefix=SAFE < %t.484.out.mlir

// SAFE-LABEL: func.func @quantized_matmul(
// SAFE-NOT:     linalg.pack
// SAFE-NOT:     tensor<{{[0-9]+x[0-9]+x[0-9]+}}xi8>
// SAFE-LABEL: func.func @quantized_matmul_pack_weights(
// SAFE-NOT:     ub.poison
// SAFE:         return

// The four row tiles' offsets: 4 x the iteration, and the next three.
// CHECK-DAG:   #[[TILE0:.+]] = affine_map<(d0) -> (d0 * 4)>
// CHECK-DAG:   #[[TILE1:.+]] = affine_map<(d0) -> (d0 * 4 + 1)>
// CHECK-DAG:   #[[TILE2:.+]] = affine_map<(d0) -> (d0 * 4 + 2)>
// CHECK-DAG:   #[[TILE3:.+]] = affine_map<(d0) -> (d0 * 4 + 3)>
// EXACT-LABEL: func.func @quantized_matmul(%arg0: tensor<8x4x32x64xi8>, %arg1: tensor<8x4x1x64xf32>, %arg2: tensor<8x4x1x64xf32>, %arg3: tensor<1x1x4x32xf32>) -> tensor<1x1x512xf32> attributes {qforge.pack_weights = @quantized_matmul_pack_weights, qforge.strategy_params = {{{[^}]*}}}} {
// PAD-LABEL:   func.func @quantized_matmul(%arg0: tensor<8x4x32x64xi8>, %arg1: tensor<8x4x1x64xf32>, %arg2: tensor<8x4x1x64xf32>, %arg3: tensor<1x1x4x32xf32>) -> tensor<1x1x484xf32> attributes {qforge.pack_weights = @quantized_matmul_pack_weights, qforge.strategy_params = {{{[^}]*}}}} {
// CHECK:         %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<1x1x1x1x64xf32>
// Four row tiles per iteration (8 tiles: 2 iterations), one group per
// iteration inside it.
// CHECK:         scf.forall (%[[ROW:.+]]) in (2)
// CHECK:           %[[T0:.+]] = affine.apply #[[TILE0]](%[[ROW]])
// CHECK:           %[[T1:.+]] = affine.apply #[[TILE1]](%[[ROW]])
// CHECK:           %[[T2:.+]] = affine.apply #[[TILE2]](%[[ROW]])
// CHECK:           %[[T3:.+]] = affine.apply #[[TILE3]](%[[ROW]])
// CHECK:           scf.for %[[G:.+]] = %c0 to %c4 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (vector<1x1x4x64xf32>) {
// The group's partial sums are the k loop's four vector iter_args, one per
// tile, starting from zero: no tensor, so no buffer per group.
// CHECK-NOT:         tensor.empty
// CHECK-NOT:         vector.transfer_write
// The k loop: 8 k steps per iteration, each one vector<64xi8> of weights
// from each of the four tiles (four streams, 64 bytes each), converted to
// f32; no zero-point subtraction in it.
// CHECK:             scf.for %[[K:.+]] = %c0 to %c32 step %c8 iter_args(%{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]]) -> (vector<1x1x1x1x64xf32>, vector<1x1x1x1x64xf32>, vector<1x1x1x1x64xf32>, vector<1x1x1x1x64xf32>) {
// CHECK-NOT:           arith.subf
// CHECK:               vector.transfer_read %arg0[%[[T0]], %[[G]], %[[K]], %c0], %{{.+}} {in_bounds = [true]} : tensor<8x4x32x64xi8>, vector<64xi8>
// CHECK-NEXT:          arith.uitofp %{{.+}} : vector<64xi8> to vector<64xf32>
// CHECK-NOT:           arith.subf
// CHECK:               vector.transfer_read %arg0[%[[T1]], %[[G]], %[[K]], %c0], %{{.+}} {in_bounds = [true]} : tensor<8x4x32x64xi8>, vector<64xi8>
// CHECK-NOT:           arith.subf
// CHECK:               vector.transfer_read %arg0[%[[T2]], %[[G]], %[[K]], %c0], %{{.+}} {in_bounds = [true]} : tensor<8x4x32x64xi8>, vector<64xi8>
// CHECK-NOT:           arith.subf
// CHECK:               vector.transfer_read %arg0[%[[T3]], %[[G]], %[[K]], %c0], %{{.+}} {in_bounds = [true]} : tensor<8x4x32x64xi8>, vector<64xi8>
// CHECK-NOT:           arith.subf
// CHECK-COUNT-29:      arith.uitofp %{{.+}} : vector<64xi8> to vector<64xf32>
// CHECK-NOT:           arith.{{subf|uitofp}}
// CHECK:               scf.yield %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : vector<1x1x1x1x64xf32>, vector<1x1x1x1x64xf32>, vector<1x1x1x1x64xf32>, vector<1x1x1x1x64xf32>
// CHECK-NEXT:        } {qforge.weight_k}
// CHECK-NOT:         tensor.empty
// CHECK-NOT:         vector.transfer_write
// Once per group: the group's scales and zero-points (one value per row of
// the four tiles), and out += s * (p - z * xs).
// CHECK:             %[[S:.+]] = vector.transfer_read %arg1[%[[T0]], %[[G]], %c0, %c0]{{.*}} : tensor<8x4x1x64xf32>, vector<4x1x1x64xf32>
// CHECK:             %[[Z:.+]] = vector.transfer_read %arg2[%[[T0]], %[[G]], %c0, %c0]{{.*}} : tensor<8x4x1x64xf32>, vector<4x1x1x64xf32>
// CHECK:             arith.mulf %{{.+}}, %{{.+}} : vector<4x1x1x1x64xf32>
// CHECK-NEXT:        arith.subf %{{.+}}, %{{.+}} : vector<4x1x1x1x64xf32>
// CHECK-NEXT:        arith.mulf %{{.+}}, %{{.+}} : vector<4x1x1x1x64xf32>
// CHECK-NOT:         arith.subf
// CHECK:           }
// CHECK:         } {qforge.weight_rows}

// CHECK-LABEL: func.func @quantized_matmul_pack_weights(
// EXACT-SAME:    %arg0: tensor<512x4x32xi8>, %arg1: tensor<512x4x1xf32>, %arg2: tensor<512x4x1xf32>) -> (tensor<8x4x32x64xi8>, tensor<8x4x1x64xf32>, tensor<8x4x1x64xf32>)
// PAD-SAME:      %arg0: tensor<484x4x32xi8>, %arg1: tensor<484x4x1xf32>, %arg2: tensor<484x4x1xf32>) -> (tensor<8x4x32x64xi8>, tensor<8x4x1x64xf32>, tensor<8x4x1x64xf32>)
// CHECK-SAME:    attributes {qforge.prepacked_arguments = array<i64: 0, 1, 2>}
// N = 512: nothing to pad.
// EXACT:         %[[W:.+]] = linalg.pack %arg0 inner_dims_pos = [0] inner_tiles = [64] into %{{.+}} : tensor<512x4x32xi8> -> tensor<8x4x32x64xi8>
// EXACT:         %[[S:.+]] = linalg.pack %arg1 inner_dims_pos = [0] inner_tiles = [64] into %{{.+}} : tensor<512x4x1xf32> -> tensor<8x4x1x64xf32>
// EXACT:         %[[Z:.+]] = linalg.pack %arg2 inner_dims_pos = [0] inner_tiles = [64] into %{{.+}} : tensor<512x4x1xf32> -> tensor<8x4x1x64xf32>
// N = 484: each pack pads with a zero constant of its element type.
// PAD:           %[[ZERO_I8:.+]] = arith.constant 0 : i8
// PAD:           %[[W:.+]] = linalg.pack %arg0 padding_value(%[[ZERO_I8]] : i8) inner_dims_pos = [0] inner_tiles = [64] into %{{.+}} : tensor<484x4x32xi8> -> tensor<8x4x32x64xi8>
// PAD:           %[[ZERO_S:.+]] = arith.constant 0.000000e+00 : f32
// PAD:           %[[S:.+]] = linalg.pack %arg1 padding_value(%[[ZERO_S]] : f32) inner_dims_pos = [0] inner_tiles = [64] into %{{.+}} : tensor<484x4x1xf32> -> tensor<8x4x1x64xf32>
// PAD:           %[[ZERO_Z:.+]] = arith.constant 0.000000e+00 : f32
// PAD:           %[[Z:.+]] = linalg.pack %arg2 padding_value(%[[ZERO_Z]] : f32) inner_dims_pos = [0] inner_tiles = [64] into %{{.+}} : tensor<484x4x1xf32> -> tensor<8x4x1x64xf32>
// CHECK:         return %[[W]], %[[S]], %[[Z]] : tensor<8x4x32x64xi8>, tensor<8x4x1x64xf32>, tensor<8x4x1x64xf32>
