// The prefetch sequences of transforms/lib/after-bufferization.mlir run
// alone on small bufferized loops tagged as the strategies tag them, one
// sequence per split (its entry point is test_<name>); the int8 variants
// then run the dot-product patterns, which leave these loops alone.
// RUN: qforge-opt %s --split-input-file --transform-preload-library=transform-library-paths=%transforms/lib \
// RUN:   --transform-interpreter=entry-point=test_prefetch_next_group | FileCheck %s --check-prefix=GROUP
// RUN: qforge-opt %s --split-input-file --transform-preload-library=transform-library-paths=%transforms/lib \
// RUN:   --transform-interpreter=entry-point=test_prefetch_next_group_int8 | FileCheck %s --check-prefix=GROUP8
// RUN: qforge-opt %s --split-input-file --transform-preload-library=transform-library-paths=%transforms/lib \
// RUN:   --transform-interpreter=entry-point=test_prefetch_next_row_int8 | FileCheck %s --check-prefix=ROW8
// RUN: qforge-opt %s --split-input-file --transform-preload-library=transform-library-paths=%transforms/lib \
// RUN:   --transform-interpreter=entry-point=test_prefetch_next_row_int8_into_l1 | FileCheck %s --check-prefix=ROW8-L1
// RUN: qforge-opt %s --split-input-file --transform-preload-library=transform-library-paths=%transforms/lib \
// RUN:   --transform-interpreter=entry-point=test_prefetch_k_steps_into_next_group | FileCheck %s --check-prefix=KSTEPS

// A packed decode's loops: groups, and in each the k steps, reading a
// 16-byte weight line (an AVX2 row tile) and one activation element.
// @prefetch_next_group with 16 (the AVX2 lanes): the next group's line,
// not the 4-byte activation read; @prefetch_next_group_int8 likewise.
// @prefetch_k_steps_into_next_group with 16: the line 4 k steps ahead,
// into the next group near a group's end.
// GROUP-LABEL:  func.func @packed_decode(
// GROUP:          scf.for
// GROUP:            scf.for
// GROUP:              memref.prefetch %{{.+}} : memref<2x64x16xi8>
// GROUP-NOT:          memref.prefetch
// GROUP:          } {qforge.weight_groups}
// GROUP8-LABEL: func.func @packed_decode(
// GROUP8:             memref.prefetch %{{.+}} : memref<2x64x16xi8>
// GROUP8-NOT:         memref.prefetch
// GROUP8:         } {qforge.weight_groups}
// KSTEPS-LABEL: func.func @packed_decode(
// KSTEPS:         scf.for %[[G:.+]] = %{{.+}} to %{{.+}} step
// KSTEPS:           scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step
// KSTEPS:             arith.constant 4 : index
// KSTEPS:             arith.select
// KSTEPS:             memref.prefetch %{{.+}} : memref<2x64x16xi8>
// KSTEPS-NOT:         memref.prefetch
// KSTEPS:           } {qforge.weight_k}
func.func @packed_decode(%w: memref<2x64x16xi8>, %x: memref<2x64xf32>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %r = scf.for %g = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> vector<16xf32> {
    %s = scf.for %k = %c0 to %c64 step %c1 iter_args(%sum = %acc) -> vector<16xf32> {
      %line = vector.transfer_read %w[%g, %k, %c0], %pad {in_bounds = [true]} : memref<2x64x16xi8>, vector<16xi8>
      %a = memref.load %x[%g, %k] : memref<2x64xf32>
      %f = arith.uitofp %line : vector<16xi8> to vector<16xf32>
      %b = vector.broadcast %a : f32 to vector<16xf32>
      %p = arith.mulf %f, %b : vector<16xf32>
      %n = arith.addf %sum, %p : vector<16xf32>
      scf.yield %n : vector<16xf32>
    } {qforge.weight_k}
    scf.yield %s : vector<16xf32>
  } {qforge.weight_groups}
  return %r : vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group_int8(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @prefetch_k_steps_into_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @test_prefetch_next_group(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
  transform.named_sequence @test_prefetch_next_group_int8(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    %func = transform.include @prefetch_next_group_int8 failures(propagate) (%module, %rows)
      : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  transform.named_sequence @test_prefetch_k_steps_into_next_group(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @prefetch_k_steps_into_next_group failures(propagate) (%module, %rows)
      : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
  transform.named_sequence @test_prefetch_next_row_int8(%module: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @test_prefetch_next_row_int8_into_l1(%module: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}

// -----

// An integer decode's rows (scf.forall, one 64-byte row each, and the
// row's scale read into every lane): the next row, with locality 2
// (@prefetch_next_row_int8) or 3 (_into_l1, Zen). With a minimum of 64
// bytes the scale is not prefetched: its read loads 4 bytes, though its
// vector has 64 (a broadcast dim of the permutation map loads nothing
// more).
// ROW8-LABEL: func.func @rows(
// ROW8:         scf.forall
// ROW8:           memref.prefetch %{{.+}}, read, locality<2>, data : memref<8x64xi8>
// ROW8-NOT:       memref.prefetch
// ROW8:         } {qforge.weight_rows}
// ROW8-L1-LABEL: func.func @rows(
// ROW8-L1:         memref.prefetch %{{.+}}, read, locality<3>, data : memref<8x64xi8>
// ROW8-L1:         memref.prefetch %{{.+}}, read, locality<3>, data : memref<8xf32>
// ROW8-L1:       } {qforge.weight_rows}
func.func @rows(%w: memref<8x64xi8>, %s: memref<8xf32>, %out: memref<8x64xi8>, %scaled: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0 : i8
  %fpad = arith.constant 0.0 : f32
  scf.forall (%r) in (8) {
    %row = vector.transfer_read %w[%r, %c0], %pad {in_bounds = [true]} : memref<8x64xi8>, vector<64xi8>
    vector.transfer_write %row, %out[%r, %c0] {in_bounds = [true]} : vector<64xi8>, memref<8x64xi8>
    %scale = vector.transfer_read %s[%r], %fpad {in_bounds = [true], permutation_map = affine_map<(d0) -> (0)>} : memref<8xf32>, vector<16xf32>
    vector.transfer_write %scale, %scaled[%r, %c0] {in_bounds = [true]} : vector<16xf32>, memref<8x16xf32>
  } {qforge.weight_rows}
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @prefetch_next_row_int8(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_row_int8_into_l1(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @test_prefetch_next_row_int8(%module: !transform.any_op {transform.readonly}) {
    %step_bytes = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_row_int8 failures(propagate) (%module, %step_bytes)
      : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
  transform.named_sequence @test_prefetch_next_row_int8_into_l1(%module: !transform.any_op {transform.readonly}) {
    transform.include @prefetch_next_row_int8_into_l1 failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
  transform.named_sequence @test_prefetch_next_group(%module: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @test_prefetch_next_group_int8(%module: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @test_prefetch_k_steps_into_next_group(%module: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
