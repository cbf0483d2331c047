// The packed prefill strategy's code (transforms/prefill-f32.mlir)
// on a batched kernel (16 activation rows, 128 weight rows): 512-bit FMAs in
// the OpenMP outlined body (the row-tile loop), each weight vector converted
// once (vpmovzxbd + vcvtdq2ps) and used by the FMAs of 8 activation rows, and
// no stack frame of 4 KiB or more in any function (a whole group's
// activation tile transposed in registers used to take an 8 KiB spill slot).
// RUN: %gen_kernel 128 3 32 --batch 16 > %t.mlir
// RUN: qforge-compile %t.mlir --strategy-row=prefill-f32/avx512 --mcpu=sapphirerapids --emit=asm -o %t.s
// RUN: FileCheck %s < %t.s
// RUN: FileCheck %s --check-prefix=FRAME < %t.s

// CHECK-LABEL: quantized_matmul..omp_par:
// CHECK:         vcvtdq2ps %zmm{{[0-9]+}}, %zmm[[W:[0-9]+]]
// CHECK:         vfmadd231ps {{.*}}%zmm[[W]]{{,|$}}
// CHECK:         vbroadcastss
// CHECK:         vfmadd231ps {{.*}}%zmm[[W]]{{,|$}}

// FRAME-NOT: subq ${{([4-9][0-9][0-9][0-9]|[1-9][0-9][0-9][0-9][0-9]+)}}, %rsp

// The same for 4-bit weights (transforms/prefill-int4-f32.mlir):
// each nibble vector converted once and used by 8 rows' FMAs, no vpinsrb in
// the kernel, no large stack frame.
// RUN: %gen_kernel 128 3 32 --batch 16 --int4 > %t.int4.mlir
// RUN: qforge-compile %t.int4.mlir --strategy-row=prefill-int4-f32/avx512 --mcpu=sapphirerapids --emit=asm -o %t.int4.s
// RUN: FileCheck %s --check-prefix=INT4 < %t.int4.s
// RUN: FileCheck %s --check-prefix=FRAME < %t.int4.s
// INT4-LABEL: quantized_matmul..omp_par:
// INT4-NOT:     vpinsrb
// INT4:         vcvtdq2ps %zmm{{[0-9]+}}, %zmm[[W:[0-9]+]]
// INT4:         vfmadd231ps {{.*}}%zmm[[W]]{{,|$}}
// INT4:         vbroadcastss
// INT4:         vfmadd231ps {{.*}}%zmm[[W]]{{,|$}}
// INT4-NOT:     vpinsrb
// INT4-LABEL: quantized_matmul_pack_weights:

// The integer prefill (transforms/prefill-int8.mlir): one
// weight line (a register) feeds 8 vpdpbusd (8 activation rows, each row's
// broadcast bytes shared with the k step's other line), each into its own
// accumulator; no large stack frame. The kernel has several outlined OpenMP
// bodies (the per-call activation quantization runs in its own parallel
// loops), so the check does not name the row-tile one.
// RUN: qforge-compile %t.mlir --strategy-row=prefill-int8/vnni --mcpu=sapphirerapids --emit=asm -o %t.int8.s
// RUN: FileCheck %s --check-prefix=INT8 < %t.int8.s
// RUN: FileCheck %s --check-prefix=FRAME < %t.int8.s
// The two lines of a k step take the same broadcast activation bytes (the
// next vpdpbusd after the first reads the same broadcast register with the
// other line); then each line feeds 7 more.
// INT8-LABEL: quantized_matmul:
// INT8:         vpdpbusd %zmm[[B:[0-9]+]], %zmm[[W:[0-9]+]], %zmm[[ACC0:[0-9]+]]
// INT8-NOT:     vpdpbusd
// INT8:         vpdpbusd %zmm[[B]], %zmm[[W2:[0-9]+]], %zmm[[ACC1:[0-9]+]]
// INT8-COUNT-7: vpdpbusd {{.*}}, %zmm[[W]], %zmm{{[0-9]+}}
// INT8-LABEL: quantized_matmul_pack_weights:
// RUN: FileCheck %s --check-prefix=INT8-W2 < %t.int8.s
// INT8-W2-LABEL: quantized_matmul:
// INT8-W2:         vpdpbusd %zmm[[B:[0-9]+]], %zmm[[W:[0-9]+]], %zmm[[ACC0:[0-9]+]]
// INT8-W2-NOT:     vpdpbusd
// INT8-W2:         vpdpbusd %zmm[[B]], %zmm[[W2:[0-9]+]], %zmm[[ACC1:[0-9]+]]
// INT8-W2-COUNT-7: vpdpbusd {{.*}}, %zmm[[W2]], %zmm{{[0-9]+}}
// INT8-W2-LABEL: quantized_matmul_pack_weights:

// The integer prefill for 4-bit weights
// (transforms/prefill-int4-int8.mlir): a weight line's low nibbles
// (masked as they are loaded) feed 8 vpdpbusd; no vpinsrb in the kernel; no
// large stack frame.
// RUN: qforge-compile %t.int4.mlir --strategy-row=prefill-int4-int8/vnni --mcpu=sapphirerapids --emit=asm -o %t.int4-int8.s
// RUN: FileCheck %s --check-prefix=INT4-INT8 < %t.int4-int8.s
// RUN: FileCheck %s --check-prefix=FRAME < %t.int4-int8.s
// INT4-INT8-LABEL: quantized_matmul:
// INT4-INT8-NOT:   vpinsrb
// INT4-INT8:       vpandq {{.*}}(%r{{[a-z0-9]+}},%r{{[a-z0-9]+}}{{(,[0-9])?}}), %zmm{{[0-9]+}}, %zmm[[W:[0-9]+]]
// INT4-INT8-COUNT-8: vpdpbusd %zmm{{[0-9]+}}, %zmm[[W]], %zmm{{[0-9]+}}
// INT4-INT8-NOT:   vpinsrb
// INT4-INT8-LABEL: quantized_matmul_pack_weights:
