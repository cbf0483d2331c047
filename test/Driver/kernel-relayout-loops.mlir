// What a kernel's strategy leaves as linalg ops on buffers -- the relayout
// of a prefill's last, partial tile of rows -- becomes scalar loops that
// LLVM neither vectorizes nor unrolls (Lowering.cpp,
// lowerKernelRelayoutsToScalarLoops): every hot loop is vectorized by the
// script, and LLVM's vectorization of these cost half of a prefill kernel's
// machine code time. The weights' pack function keeps LLVM's vectorization,
// and a decode kernel has no such loop.

// f32 prefill, M = 128 in tiles of 6 rows: the last 2 rows' activation pack
// and result unpack, in the kernel itself.
// RUN: %gen_kernel 64 4 128 --batch 128 > %t.f32.mlir
// RUN: qforge-compile %t.f32.mlir --emit=lowered --mcpu=znver5 -o - | FileCheck %s --check-prefix=LOWERED
// LOWERED-DAG: #[[NOUNROLL:.+]] = #llvm.loop_unroll<disable = true>
// LOWERED-DAG: #[[NOVEC:.+]] = #llvm.loop_vectorize<disable = true>
// LOWERED: #[[ANNOTATION:.+]] = #llvm.loop_annotation<vectorize = #[[NOVEC]], unroll = #[[NOUNROLL]]>
// LOWERED: llvm.func @quantized_matmul(
// LOWERED: llvm.br ^{{.*}} {loop_annotation = #[[ANNOTATION]]}
// RUN: qforge-compile %t.f32.mlir --emit=llvm --mcpu=znver5 -o - | FileCheck %s --check-prefix=F32
// F32-LABEL: define void @quantized_matmul(
// F32:         br {{.+}}, !llvm.loop ![[LOOP:[0-9]+]]
// F32-LABEL: define void @quantized_matmul_pack_weights(
// F32-NOT:     !llvm.loop ![[LOOP]]{{$}}
// F32:       ![[LOOP]] = distinct !{![[LOOP]], ![[NOVEC:[0-9]+]], ![[NOUNROLL:[0-9]+]]}
// F32:       ![[NOVEC]] = !{!"llvm.loop.vectorize.enable", i1 false}
// F32:       ![[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}

// int8 prefill, M = 20 in tiles of 8: the last 4 rows' packs of activation
// sums and scales.
// RUN: %gen_kernel 64 4 128 --batch 20 > %t.int8.mlir
// RUN: qforge-compile %t.int8.mlir --int8-activations --emit=llvm --mcpu=znver5 -o - | FileCheck %s --check-prefix=INT8
// INT8-LABEL: define void @quantized_matmul(
// INT8:         br {{.+}}, !llvm.loop ![[LOOP:[0-9]+]]
// INT8:       ![[LOOP]] = distinct !{![[LOOP]], ![[NOVEC:[0-9]+]], ![[NOUNROLL:[0-9]+]]}
// INT8:       ![[NOVEC]] = !{!"llvm.loop.vectorize.enable", i1 false}

// The decode kernel (M = 1) leaves nothing to annotate.
// RUN: %gen_kernel 64 4 128 > %t.decode.mlir
// RUN: qforge-compile %t.decode.mlir --emit=llvm --mcpu=znver5 -o - | FileCheck %s --check-prefix=DECODE
// DECODE-NOT: llvm.loop.vectorize.enable
