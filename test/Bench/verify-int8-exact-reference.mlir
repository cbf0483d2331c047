// The exact int8 reference (Bench/SiteReplay.h, docs/numerics.md): a module
// whose quantized matmuls are compiled apart is verified matmul by matmul;
// with --int8-activations the reference reads each int8-activated matmul's
// activation as the kernel rounded it (after comparing it with its own), so
// a chain of int8 matmuls (an MLP's down projection reads silu(gate) * up,
// computed) passes at the f32 tolerance on random activations -- each
// matmul's result against its own magnitude -- with the plain reference's
// distance (the int8 rounding, ~1e-2) reported beside it.
// RUN: %python %examples/gen_decoder_layer.py --mlp-only --hidden 256 --intermediate 512 --group 64 > %t.mlp.mlir
// RUN: qforge-bench %t.mlp.mlir --int8-activations --verify --time=false 2>&1 | FileCheck %s --check-prefix=MLP
// MLP: verifying matmul by matmul: the reference takes the activations of 3 int8-activated matmul(s), rounded as the kernel rounds them, and the results of 3 from the kernel
// MLP-NOT: represents exactly
// MLP: verify: the activations of 3 int8-activated matmul call(s): normalized {{.*}} from the reference's own (tolerance 1e-05)
// MLP: verify: the results of 3 matmul call(s): normalized {{[0-9.]+}}e-0{{[6789]}} from the reference's (each against its own magnitude; tolerance 1e-05)
// MLP: verify: the plain reference (nothing from the kernel): normalized {{(0\.0[0-9]+|[0-9.]+e-03)}} (not judged: the int8 rounding)
// MLP: verify: max_abs_err {{.*}}, normalized {{.*}} (max |ref| {{.*}}, tolerance 1e-05): PASS

// Without the kernel's activations (--exact-int8-activations=false: random
// activations, each matmul's result against the f32 one), the same correct
// kernel is off by its rounding and fails at the f32 tolerance; a
// reference that rounds to [-126, 126] instead of the kernels' [-127, 127]
// (a kernel rounding otherwise, seen from the other side) fails too: the
// check tells one rounding from another.
// RUN: not qforge-bench %t.mlp.mlir --int8-activations --exact-int8-activations=false --verify --time=false 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: the activations of 0 int8-activated matmul(s)
// PLAIN: verify: the results of 3 matmul call(s): normalized {{(0\.0[0-9]+|[0-9.]+e-03)}} from the reference's
// PLAIN: verify: max_abs_err {{.*}}: FAIL
// RUN: not qforge-bench %t.mlp.mlir --int8-activations --int8-reference-limit=126 --verify --time=false 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: verify: the results of 3 matmul call(s): normalized {{(0\.0[0-9]+|[0-9.]+e-0[34])}} from the reference's
// OTHER: verify: max_abs_err {{.*}}: FAIL

// Matmuls behind func.call (two layer functions, their matmuls' activations
// computed by the layers' norms and projections: 14 calls), and a dynamic
// token count (the activation taken whole before the kernel splits it).
// RUN: %python %examples/gen_decoder_layer.py --layers 2 --hidden 256 --intermediate 512 --group 64 > %t.model.mlir
// RUN: qforge-bench %t.model.mlir --int8-activations --verify --time=false 2>&1 | FileCheck %s --check-prefix=MODEL
// MODEL: verify: the activations of 14 int8-activated matmul call(s)
// MODEL: verify: the results of 14 matmul call(s)
// MODEL: verify: max_abs_err {{.*}}, tolerance 1e-05): PASS
// RUN: %python %examples/gen_decoder_layer.py --mlp-only --dynamic --hidden 256 --intermediate 512 --group 64 > %t.dynamic.mlir
// RUN: qforge-bench %t.dynamic.mlir --int8-activations --verify --time=false --dim=M=1,3,17 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC-COUNT-3: verify: max_abs_err {{.*}}, tolerance 1e-05): PASS
// DYNAMIC-NOT: FAIL
