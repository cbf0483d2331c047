// The Intel f32 prefill with at least 8 blocks of tokens converts a row
// tile's weights of a group to f32 once, before its blocks
// (transform.qforge.hoist_operand_conversion in
// @convert_weights_once_per_group, @convert_nibbles_once_per_group), and
// the blocks' FMAs read that tile. Against the scalar reference within
// 1e-5: M = 100 (9 blocks of 12), groups of 128 and of 32, 1 and 2 threads
// (each thread converts its own tiles), signed weights (the sign flip moves
// with the conversion), 4-bit weights (the nibble, picked by its loop's
// index, becomes a dim of the f32 tile), signed too; and M = 90 with one
// group per row, whose chunk loop inside the blocks keeps the conversion in
// place.
// RUN: %gen_kernel 64 8 128 --batch 100 > %t.g128.mlir
// RUN: qforge-bench %t.g128.mlir --strategy-row=prefill-f32/intel-12x32 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: qforge-bench %t.g128.mlir --strategy-row=prefill-f32/intel-12x32 --verify --tolerance=1e-5 --time=false --threads=2 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %gen_kernel 96 16 32 --batch 100 > %t.g32.mlir
// RUN: qforge-bench %t.g32.mlir --strategy-row=prefill-f32/intel-12x32 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %gen_kernel 64 8 128 --batch 100 --signed > %t.signed.mlir
// RUN: qforge-bench %t.signed.mlir --strategy-row=prefill-f32/intel-12x32 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %gen_kernel 64 8 128 --batch 100 --int4 > %t.int4.mlir
// RUN: qforge-bench %t.int4.mlir --strategy-row=prefill-int4-f32/intel-12x32 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: qforge-bench %t.int4.mlir --strategy-row=prefill-int4-f32/intel-12x32 --verify --tolerance=1e-5 --time=false --threads=2 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %gen_kernel 64 8 128 --batch 100 --int4 --signed > %t.int4s.mlir
// RUN: qforge-bench %t.int4s.mlir --strategy-row=prefill-int4-f32/intel-12x32 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PASS
// The 64-row twins (Intel, static M < 6 and a dynamic M's chunks), M = 100:
// 17 blocks of 6 tokens, 20 of 5 with 4-bit weights, signed, 2 threads;
// M = 32: 8 blocks of 4 (the chunk of 32).
// RUN: %gen_kernel 128 8 128 --batch 100 > %t.rows64.mlir
// RUN: qforge-bench %t.rows64.mlir --strategy-row=prefill-f32/intel-64-rows --verify --tolerance=1e-5 --time=false --threads=2 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %gen_kernel 128 8 128 --batch 100 --int4 --signed > %t.rows64-int4.mlir
// RUN: qforge-bench %t.rows64-int4.mlir --strategy-row=prefill-int4-f32/intel-64-rows --verify --tolerance=1e-5 --time=false --threads=2 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %gen_kernel 128 8 128 --batch 32 > %t.rows64-32.mlir
// RUN: qforge-bench %t.rows64-32.mlir --strategy-row=prefill-f32/intel-64-rows --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %gen_kernel 128 8 128 --batch 32 --int4 > %t.rows64-32-int4.mlir
// RUN: qforge-bench %t.rows64-32-int4.mlir --strategy-row=prefill-int4-f32/intel-64-rows --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %gen_kernel 64 1 512 --batch 90 > %t.pc.mlir
// RUN: qforge-bench %t.pc.mlir --strategy-row=prefill-f32/intel-12x32 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PASS
// The kernel's IR holds the f32 tile written one k step at a time (8 per iteration)
// inside the group loop, then the loop over the 9 blocks, in which no
// weight byte is converted; 4-bit: a 64 x 2 x 32 tile (byte step, nibble,
// rows), 4 byte steps of both nibbles per iteration; one group per row: the
// conversions inside the blocks' loop, as before.
// RUN: qforge-compile %t.g128.mlir --strategy-row=prefill-f32/intel-12x32 --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=IR
// RUN: qforge-compile %t.int4.mlir --strategy-row=prefill-int4-f32/intel-12x32 --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=IR4
// RUN: qforge-compile %t.pc.mlir --strategy-row=prefill-f32/intel-12x32 --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=PC
// The 64-row twins alike: a 128 x 64 f32 tile (4-bit: 64 x 2 x 64), then
// the loop over the 17 (20) blocks.
// RUN: qforge-compile %t.rows64.mlir --strategy-row=prefill-f32/intel-64-rows --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=IR64
// RUN: qforge-compile %t.rows64-int4.mlir --strategy-row=prefill-int4-f32/intel-64-rows --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s --check-prefix=IR64-INT4

// PASS: verify: {{.*}}: PASS

// IR-LABEL: func.func @quantized_matmul(
// IR: scf.forall
// IR: scf.for %{{.*}} = %c0 to %c128 step %c8 iter_args(%{{.*}}) -> (tensor<1x1x128x32xf32>)
// IR-COUNT-8: arith.uitofp %{{.*}} : vector<32xi8> to vector<32xf32>
// IR: scf.for %{{.*}} = %c0 to %c9 step %c1
// IR-NOT: arith.uitofp
// IR: scf.forall.in_parallel

// IR4-LABEL: func.func @quantized_matmul(
// IR4: scf.forall
// IR4: scf.for %{{.*}} = %c0 to %c64 step %c4 iter_args(%{{.*}}) -> (tensor<1x1x64x2x32xf32>)
// IR4-COUNT-8: arith.uitofp %{{.*}} : vector<32xi4> to vector<32xf32>
// IR4: scf.for %{{.*}} = %c0 to %c9 step %c1
// IR4-NOT: arith.uitofp
// IR4: scf.forall.in_parallel

// PC-LABEL: func.func @quantized_matmul(
// PC: scf.forall
// PC-NOT: tensor<1x1x512x32xf32>
// PC-NOT: tensor<1x1x128x32xf32>
// PC: scf.for %{{.*}} = %c0 to %c8 step %c1
// PC: scf.for %{{.*}} = %c0 to %c512 step %c128
// PC: arith.uitofp %{{.*}} : vector<32xi8> to vector<32xf32>
// PC: scf.forall.in_parallel

// IR64-LABEL: func.func @quantized_matmul(
// IR64: scf.forall
// IR64: scf.for %{{.*}} = %c0 to %c128 step %c8 iter_args(%{{.*}}) -> (tensor<1x1x128x64xf32>)
// IR64-COUNT-8: arith.uitofp %{{.*}} : vector<64xi8> to vector<64xf32>
// IR64: scf.for %{{.*}} = %c0 to %c17 step %c1
// IR64-NOT: arith.uitofp
// IR64: scf.forall.in_parallel

// IR64-INT4-LABEL: func.func @quantized_matmul(
// IR64-INT4: scf.forall
// IR64-INT4: scf.for %{{.*}} = %c0 to %c64 step %c4 iter_args(%{{.*}}) -> (tensor<1x1x64x2x64xf32>)
// IR64-INT4-COUNT-8: arith.sitofp %{{.*}} : vector<64xi4> to vector<64xf32>
// IR64-INT4: scf.for %{{.*}} = %c0 to %c20 step %c1
// IR64-INT4-NOT: arith.{{u|s}}itofp
// IR64-INT4: scf.forall.in_parallel
