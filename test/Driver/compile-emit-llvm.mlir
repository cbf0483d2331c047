// The fixed lowering to LLVM IR: the strategy's three scf.foralls (zero the
// 16-lane row accumulators, the rows, the rows' horizontal sums) run as
// OpenMP parallel regions; the rows' region prefetches the next row and
// converts the weights 16 at a time, the sums' region sums as a tree; a C
// interface taking descriptors (inputs, then the result as out-param); no
// heap buffer anywhere near the NxGxK f32 size.
// RUN: %gen_kernel 64 4 128 > %t.mlir
// RUN: qforge-compile %t.mlir --emit=llvm --mcpu=sapphirerapids -o - | FileCheck %s
// The IR is verified before and after the lowering; --verify-each verifies
// it after each pass as well, and changes nothing else.
// RUN: qforge-compile %t.mlir --emit=llvm --mcpu=sapphirerapids -o %t.ll
// RUN: qforge-compile %t.mlir --emit=llvm --mcpu=sapphirerapids --verify-each -o %t.each.ll
// RUN: diff %t.ll %t.each.ll

// CHECK-LABEL: define void @quantized_matmul(
// CHECK-COUNT-3: call void {{.*}}@__kmpc_fork_call({{.*}}@quantized_matmul..omp_par
// CHECK:         define internal void @quantized_matmul..omp_par{{.*}}(
// CHECK:         call reassoc float @llvm.vector.reduce.fadd.v16f32(
// CHECK:         define internal void @quantized_matmul..omp_par{{.*}}(
// CHECK:         call void @llvm.prefetch.p0(ptr %{{.+}}, i32 0, i32 3, i32 1)
// CHECK:         uitofp <16 x i8> %{{.+}} to <16 x float>
// CHECK-LABEL: define void @_mlir_ciface_quantized_matmul(ptr {{.*}}%0, ptr {{.*}}%1, ptr {{.*}}%2, ptr {{.*}}%3, ptr {{.*}}%4)
// The NxGxK f32 dequantized weights would be 64*4*128*4 = 131072 bytes.
// CHECK-NOT:     @malloc(i64 131072)
