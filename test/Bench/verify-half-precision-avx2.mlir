// f16 and bf16 kernels on AVX2 + FMA CPUs (without AVX-512 or its BF16 and
// FP16 extensions): torch-mlir's f16 form and IREE's bf16 form, decode with
// the default and the packed strategy, batched with the prefill one,
// against the reference at the tolerance of the result's rounding
// (docs/numerics.md).
// REQUIRES: avx2
// RUN: %python %examples/gen_producer_kernel.py torch 37 3 128 --float f16 > %t.torch16.mlir
// RUN: %python %examples/gen_producer_kernel.py iree 37 3 128 --float bf16 > %t.iree16.mlir
// RUN: %python %examples/gen_producer_kernel.py iree 37 2 128 --float f16 --batch 20 > %t.batch16.mlir
// RUN: qforge-bench %t.torch16.mlir --mcpu=haswell --verify --time=false | FileCheck %s --check-prefix=F16
// RUN: qforge-bench %t.torch16.mlir --mcpu=haswell --packed-weights --verify --time=false | FileCheck %s --check-prefix=F16
// RUN: qforge-bench %t.batch16.mlir --mcpu=haswell --verify --time=false | FileCheck %s --check-prefix=F16
// RUN: qforge-bench %t.iree16.mlir --mcpu=haswell --verify --time=false | FileCheck %s --check-prefix=BF16
// RUN: qforge-bench %t.iree16.mlir --mcpu=haswell --packed-weights --verify --time=false | FileCheck %s --check-prefix=BF16
// F16: verify: {{.*}} tolerance 0.001): PASS
// BF16: verify: {{.*}} tolerance 0.008): PASS

// The f16 activation and scales convert eight at a time (F16C's vcvtph2ps
// into a ymm), the result rounds back with vcvtps2ph; no conversion is a
// libcall. bf16 becomes integer shifts (arith-expand): no __truncsfbf2,
// which a CPU without AVX512-BF16 would need from compiler-rt.
// RUN: qforge-compile %t.torch16.mlir --mcpu=haswell --packed-weights --emit=asm -o - | FileCheck %s --check-prefix=ASM16
// ASM16-DAG: vcvtph2ps {{.*}}%ymm
// ASM16-DAG: vcvtps2ph {{.*}}%ymm
// ASM16-NOT: {{__extendhfsf2|__truncsfhf2|__gnu_h2f_ieee|__gnu_f2h_ieee}}
// RUN: qforge-compile %t.iree16.mlir --mcpu=haswell --emit=asm -o - | FileCheck %s --check-prefix=ASMBF16
// ASMBF16-NOT: {{__truncsfbf2|__extendbfsf2}}
// ASMBF16: vpslld $16
// ASMBF16-NOT: {{__truncsfbf2|__extendbfsf2}}
