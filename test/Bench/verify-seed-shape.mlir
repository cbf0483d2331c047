// Execution test on the bundled seed kernel itself (4096x32x128 i8, groups
// of 128): the shipped decode strategy against the scalar reference, within
// a normalized error of 1e-5.
// RUN: qforge-bench %examples/seed_decode_4096x32x128.mlir --verify --tolerance=1e-5 --time=false | FileCheck %s

// CHECK: verify: max_abs_err {{.*}}, normalized {{[0-9.]+e-0[6-9]}} (max |ref| {{.*}}, tolerance 1e-05): PASS
