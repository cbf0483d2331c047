// qforge-ab (tools/qforge-ab, driven by scripts/ab.sh): two builds of the
// packed strategy run in one process over the same rotating inputs; it
// reports each one's median time and fraction of the read pass. Here on a
// small shape, the same script twice: both lines are printed, with a time.
// Bad arguments get a diagnostic and a non-zero exit.
// REQUIRES: avx512f
// RUN: %gen_kernel 256 4 128 > %t.mlir
// RUN: qforge-compile %t.mlir --strategy-row=decode-packed-f32/avx512 --emit=shared -o %t.a.so
// RUN: cp %t.a.so %t.b.so
// RUN: env OMP_NUM_THREADS=1 qforge-ab 256 4 128 %t.a.so %t.b.so | FileCheck %s
// CHECK: 256x4x128, {{[0-9]+}} copies ({{[0-9]+}} MiB), 600 calls each; read pass: median {{[0-9.]+}} GB/s, best {{[0-9.]+}} GB/s
// CHECK: a.so {{ *}}median {{ *[0-9.]+}} us {{ *[0-9.]+}} GB/s  of best read {{[0-9.]+}}  of median read {{[0-9.]+}}
// CHECK: b.so {{ *}}median {{ *[0-9.]+}} us

// RUN: not qforge-ab 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: usage: qforge-ab N G K LIB.so [LIB.so ...] (at most 8)
// RUN: not qforge-ab 0 4 128 %t.a.so 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: qforge-ab: error: N, G, K must be positive

// Any N, and any spelling of the seed's bytes: the same matmul in the
// seed's form and in IREE's (N x G parameters, G x K activation, result N),
// each compiled by the driver's own strategy choice (scripts/ab.sh --kernels).
// RUN: %gen_kernel 100 4 128 > %t.seed100.mlir
// RUN: %python %examples/gen_producer_kernel.py iree 100 4 128 > %t.iree100.mlir
// RUN: qforge-compile %t.seed100.mlir --emit=shared -o %t.seed100.so
// RUN: qforge-compile %t.iree100.mlir --emit=shared -o %t.iree100.so
// RUN: env OMP_NUM_THREADS=1 qforge-ab 100 4 128 %t.seed100.so %t.iree100.so | FileCheck %s --check-prefix=FORMS
// FORMS: 100x4x128, {{[0-9]+}} copies
// FORMS: seed100.so {{ *}}median {{ *[0-9.]+}} us
// FORMS: iree100.so {{ *}}median {{ *[0-9.]+}} us
// RUN: not qforge-ab 256 4 128 %t.missing.so 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: qforge-ab: error: {{.*}}missing.so: cannot open shared object file
