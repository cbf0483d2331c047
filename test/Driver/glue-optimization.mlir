// How LLVM optimizes what is not a kernel (Target.cpp): loop-free glue -- a
// model's chain of layer calls, a dynamic M's pack_weights that calls each
// matmul's -- is left unoptimized (optnone, noinline, with its C-interface
// wrapper; a model's public chain of layer calls is that wrapper only, its
// body moved into it: docs/abi.md); functions with loops around the kernels
// are optimized for size,
// the pack functions included (their linalg.pack becomes loops after the
// driver marked them); the kernels get neither.
// RUN: %python %examples/gen_decoder_layer.py --hidden 64 --intermediate 128 --group 32 --layers 2 > %t.model.mlir
// RUN: qforge-compile %t.model.mlir --emit=llvm -o - | FileCheck %s --check-prefix=MODEL
// MODEL-NOT: define void @decoder_layer(
// MODEL-DAG: define void @_mlir_ciface_decoder_layer({{.*}}) local_unnamed_addr #[[GLUE:[0-9]+]] {
// MODEL-DAG: define void @decoder_layer_layer0({{.*}}) local_unnamed_addr #[[AROUND:[0-9]+]] {
// MODEL-DAG: define void @decoder_layer_layer0_qmm0({{.*}}) local_unnamed_addr #[[KERNEL:[0-9]+]] {
// MODEL-DAG: attributes #[[GLUE]] = { noinline optnone "target-cpu"
// MODEL-DAG: attributes #[[AROUND]] = { nounwind optsize "target-cpu"
// MODEL-DAG: attributes #[[KERNEL]] = { nounwind "target-cpu"
// The glue passes each layer function its own caller's descriptors by
// pointer, through the layer's C interface (the expanded form took ~160
// scalars per call of a LLaMA layer, most on the stack); the buffer between
// two layers goes in a stack slot.
// RUN: qforge-compile %t.model.mlir --emit=llvm -o - | FileCheck %s --check-prefix=CHAIN
// CHAIN-LABEL: define void @_mlir_ciface_decoder_layer(ptr %0, ptr %1, ptr %2,
// CHAIN:         alloca { ptr, ptr, i64, [1 x i64], [1 x i64] }
// CHAIN-NOT:     call void @decoder_layer_layer0(
// CHAIN:         call void @_mlir_ciface_decoder_layer_layer0(ptr %0, ptr %1, ptr %2,
// CHAIN-NOT:     call void @decoder_layer_layer0(
// CHAIN:         call void @_mlir_ciface_decoder_layer_layer0(ptr %{{[0-9]+}}, ptr %1, ptr %{{[0-9]+}},
// CHAIN-NOT:     call void @decoder_layer_layer0(
// CHAIN:         ret void
// CHAIN-LABEL: define void @_mlir_ciface_decoder_layer_layer0(
// CHAIN:         call void @decoder_layer_layer0(

// RUN: %python %examples/gen_decoder_layer.py --hidden 64 --intermediate 128 --group 32 --dynamic > %t.dynamic.mlir
// RUN: qforge-compile %t.dynamic.mlir --emit=llvm -o - | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC-DAG: define void @decoder_layer_pack_weights({{.*}}) local_unnamed_addr #[[GLUE:[0-9]+]] {
// DYNAMIC-DAG: define void @decoder_layer_qmm0_pack_weights({{.*}}) local_unnamed_addr #[[PACK:[0-9]+]] {
// DYNAMIC-DAG: attributes #[[GLUE]] = { noinline optnone "target-cpu"
// DYNAMIC-DAG: attributes #[[PACK]] = { nounwind optsize
