// Regressions of the fuzz campaign (the reliability issue's table, rows 3-8;
// row 1 is robustness-int8-hang.mlir): each used to hang, crash or
// misreport; each now ends with a diagnostic and status 1 (or, for a
// correct kernel, a PASS) in bounded time.
// RUN: split-file %s %t
// RUN: %gen_kernel 64 2 64 > %t/kernel.mlir

// Rows 3 and 4: sizes that cannot be allocated, or whose byte count does
// not fit in 64 bits, are refused before anything is allocated.
// RUN: %gen_kernel 1000000000 32 128 > %t/huge.mlir
// RUN: not qforge-bench %t/huge.mlir --time=false 2>&1 | FileCheck %s --check-prefix=ROW3
// ROW3: qforge-bench: error: argument #0 ('tensor<1000000000x32x128xi8>') brings the buffers of 3 calls (the raw inputs, the kernel's and the reference's) to {{[0-9.]+}} GiB, more than this machine's {{[0-9.]+}} GiB of memory
// RUN: %gen_kernel 4611686018427387904 32 128 > %t/overflow.mlir
// RUN: not qforge-bench %t/overflow.mlir --packed-weights --time=false 2>&1 | FileCheck %s --check-prefix=ROW4
// ROW4: qforge-bench: error: argument #0 ('tensor<4611686018427387904x32x128xi8>') brings the buffers

// The bench's buffers are not the compile's: a run-time M it cannot hold
// (--dim=M=16777216: the raw inputs, the kernel's and the reference's at
// once) is refused with its own message before the compile, in well under a
// second (it ran 28.8 s and allocated 8.2 GB, then was stopped by the
// *compile* memory guard as "reading and normalizing the input").
// RUN: %gen_kernel 4096 32 128 --dynamic > %t/dynamic.mlir
// RUN: not qforge-bench %t/dynamic.mlir --dim=M=1,16777216 --time=false 2>&1 | FileCheck %s --check-prefix=DIM
// DIM-NOT: compiling
// DIM: qforge-bench: error: argument #3 ('tensor<1x16777216x32x128xf32>') brings the buffers of 3 calls (the raw inputs, the kernel's and the reference's) to {{[0-9.]+}} GiB, more than this machine's {{[0-9.]+}} GiB of memory

// Row 5: write errors are diagnostics, not LLVM's fatal "IO failure".
// RUN: not qforge-compile %t/kernel.mlir --emit=obj -o /dev/full 2>&1 | FileCheck %s --check-prefix=ROW5
// RUN: not qforge-compile %t/kernel.mlir --emit=mlir -o /dev/full 2>&1 | FileCheck %s --check-prefix=ROW5
// RUN: not qforge-bench %t/kernel.mlir --time=false --save-results=/dev/full 2>&1 | FileCheck %s --check-prefix=ROW5
// ROW5: error: cannot write '/dev/full': No space left on device

// Row 6: a thread count past any machine is refused, not started.
// RUN: not qforge-bench %t/kernel.mlir --threads=1000000 2>&1 | FileCheck %s --check-prefix=ROW6
// ROW6: qforge-bench: error: --threads takes a number from 1 to 1024, not '1000000'

// Row 7: a result fill of NaN (or inf) gives NaN in the kernel and in the
// reference alike: that agrees. A NaN where the reference is finite still
// fails (the tolerance check of bench-errors.mlir shows FAIL).
// RUN: sed 's/%%zero = arith.constant 0.000000e+00 : f32/%%zero = arith.constant 0x7FC00000 : f32/' %t/kernel.mlir > %t/nan.mlir
// RUN: qforge-bench %t/nan.mlir --verify --time=false | FileCheck %s --check-prefix=ROW7
// RUN: sed 's/%%zero = arith.constant 0.000000e+00 : f32/%%zero = arith.constant 0x7F800000 : f32/' %t/kernel.mlir > %t/inf.mlir
// RUN: qforge-bench %t/inf.mlir --verify --time=false | FileCheck %s --check-prefix=ROW7
// ROW7: verify: {{.*}}: PASS

// Row 8: a tolerance must be a finite number >= 0.
// RUN: not qforge-bench %t/kernel.mlir --verify --tolerance=-1 2>&1 | FileCheck %s --check-prefix=ROW8
// RUN: not qforge-bench %t/kernel.mlir --verify --tolerance=nan 2>&1 | FileCheck %s --check-prefix=ROW8
// ROW8: qforge-bench: error: --tolerance takes a finite number >= 0

//--- unused.mlir
