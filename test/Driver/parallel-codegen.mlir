// qforge-compile generates machine code on several threads (ParallelCodegen.h):
// each kernel with its OpenMP bodies, the code around it and each piece of
// loop-free glue in partitions of their own, joined by ld.lld -r. Here a
// matmul followed by a ReLU, split although it is small
// (--codegen-split-threshold=0): the joined object defines each function
// once, keeps the local ones local, is the same at every run, and the shared
// library built from it computes what the one-piece library does, bit for
// bit, within 1e-5 of a float64 reference (Inputs/run-seed-library.py:
// deterministic random inputs, the library called through ctypes).
// RUN: qforge-compile %s --emit=obj --codegen-threads=2 --codegen-split-threshold=0 -o %t.a.o
// RUN: qforge-compile %s --emit=obj --codegen-threads=2 --codegen-split-threshold=0 -o %t.b.o
// RUN: cmp %t.a.o %t.b.o
// RUN: llvm-nm %t.a.o | FileCheck %s --check-prefix=SYMBOLS
// SYMBOLS-DAG: T _mlir_ciface_matmul_relu
// SYMBOLS-DAG: T matmul_relu
// SYMBOLS-DAG: T matmul_relu_qmm0
// SYMBOLS-DAG: t matmul_relu_qmm0..omp_par
// By default a module of fewer than 2,000 instructions (one kernel and its
// C wrapper) stays in one piece: the split's ~25 ms would not pay.
// RUN: qforge-compile %s --emit=obj --codegen-threads=2 --timing -o %t.whole.o 2>&1 | FileCheck %s --check-prefix=WHOLE
// WHOLE: machine code of {{[0-9][0-9][0-9]}} LLVM instructions in 1 partition on 2 thread(s)
// A decoder layer's kernels (here a small one, over 2,000 instructions)
// are split by default.
// RUN: %python %examples/gen_decoder_layer.py --hidden 64 --intermediate 128 --group 32 > %t.layer.mlir
// RUN: qforge-compile %t.layer.mlir --emit=obj --codegen-threads=2 --timing -o %t.layer.o 2>&1 | FileCheck %s --check-prefix=LAYER
// LAYER: machine code of {{[2-9][0-9][0-9][0-9]}} LLVM instructions in {{[2-9]}} partitions on 2 thread(s)
// RUN: qforge-compile %s --emit=shared --codegen-threads=1 -o %t.one.so
// RUN: qforge-compile %s --emit=shared --codegen-threads=2 --codegen-split-threshold=0 -o %t.split.so
// RUN: %python %S/Inputs/run-seed-library.py %t.one.so matmul_relu 64 2 32 > %t.one.txt
// RUN: %python %S/Inputs/run-seed-library.py %t.split.so matmul_relu 64 2 32 > %t.split.txt
// RUN: diff %t.one.txt %t.split.txt
// RUN: FileCheck %s --check-prefix=OUTPUT < %t.split.txt
// OUTPUT-COUNT-64: result[{{[0-9]+}}] = {{[0-9a-f]+}}
// OUTPUT: normalized error {{.*}}: PASS

// A model's loop-free glue (its chain of layer calls, optnone) is split off
// and generated at -O0, exported as _mlir_ciface_decoder_layer only (its
// body moved into that wrapper; docs/abi.md); the layer functions and
// kernels stay defined once.
// RUN: %python %examples/gen_decoder_layer.py --hidden 64 --intermediate 128 --group 32 --layers 3 > %t.model.mlir
// RUN: qforge-compile %t.model.mlir --emit=obj --codegen-threads=2 --codegen-split-threshold=0 -o %t.model.o
// RUN: llvm-nm %t.model.o | FileCheck %s --check-prefix=MODEL
// MODEL-DAG: T _mlir_ciface_decoder_layer
// MODEL-DAG: T decoder_layer_layer0{{$}}
// MODEL-DAG: T decoder_layer_layer0_qmm0{{$}}
// MODEL-DAG: t decoder_layer_layer0_qmm0..omp_par{{$}}
// RUN: llvm-nm --defined-only %t.model.o | grep -c " T _mlir_ciface_decoder_layer$" | FileCheck %s --check-prefix=ONCE
// ONCE: 1
// RUN: llvm-nm %t.model.o | not grep " decoder_layer$"

// A dynamic-M layer holds more kernels than there are threads (three pairs,
// each an M = 1 kernel, two chunk kernels and a dispatcher, and their pack
// functions): it is cut into more -O3 partitions than threads, which the
// threads take largest first so that the small ones fill the gaps (on two
// threads a LLaMA layer's two -O3 halves and its pack functions took 0.74 s
// for 1.2 s of work); every function is still defined once.
// RUN: %python %examples/gen_decoder_layer.py --hidden 64 --intermediate 128 --group 32 --dynamic > %t.dyn.mlir
// RUN: qforge-compile %t.dyn.mlir --emit=obj --codegen-threads=2 --codegen-split-threshold=0 --timing -o %t.dyn.o 2>&1 | FileCheck %s --check-prefix=PARTS
// PARTS: machine code of {{[0-9]+}} LLVM instructions in {{[3-9]|[1-9][0-9]+}} partitions on 2 thread(s)
// RUN: llvm-nm %t.dyn.o | FileCheck %s --check-prefix=DYN
// DYN-DAG: T decoder_layer{{$}}
// DYN-DAG: T decoder_layer_qmm0{{$}}
// DYN-DAG: T decoder_layer_qmm0_m1{{$}}
// DYN-DAG: T decoder_layer_qmm0_m6{{$}}
// DYN-DAG: t decoder_layer_qmm0_m6..omp_par{{$}}
// DYN-DAG: T decoder_layer_qmm4_m3{{$}}
// DYN-DAG: T decoder_layer_qmm6_pack_weights{{$}}
// DYN-DAG: T _mlir_ciface_decoder_layer_pack_weights{{$}}
// RUN: llvm-nm --defined-only %t.dyn.o | grep " [Tt] " | awk '{print $3}' | sort | uniq -d | count 0

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
#elementwise = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @matmul_relu(%weights: tensor<64x2x32xi8>,
    %scales: tensor<64x2x1xf32>,
    %zero_points: tensor<64x2x1xf32>,
    %x: tensor<1x1x2x32xf32>) -> tensor<1x1x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x64xf32>
  %dequant_init = tensor.empty() : tensor<64x2x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<64x2x32xi8>, tensor<64x2x1xf32>, tensor<64x2x1xf32>)
      outs(%dequant_init : tensor<64x2x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<64x2x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x2x32xf32>, tensor<64x2x32xf32>)
      outs(%acc : tensor<1x1x64xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x64xf32>
  %relu_init = tensor.empty() : tensor<1x1x64xf32>
  %relu = linalg.generic {
      indexing_maps = [#elementwise, #elementwise],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%matvec : tensor<1x1x64xf32>) outs(%relu_init : tensor<1x1x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %max = arith.maximumf %in, %zero : f32
    linalg.yield %max : f32
  } -> tensor<1x1x64xf32>
  return %relu : tensor<1x1x64xf32>
}
