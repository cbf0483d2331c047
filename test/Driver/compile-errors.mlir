// Bad input to qforge-compile: a diagnostic with a location or a clear
// message, and a non-zero exit -- never a crash, never an output file.
// RUN: split-file %s %t
// RUN: %gen_kernel 16 2 128 > %t/kernel.mlir

// No such function.
// RUN: not qforge-compile %t/kernel.mlir --entry=nope -o %t/out.o 2>&1 | FileCheck %s --check-prefix=NO-FUNC
// NO-FUNC: kernel.mlir:{{[0-9]+}}:{{[0-9]+}}: error: no function named 'nope' with a body in the input

// Dynamic shapes other than the token count of a quantized matmul are
// refused at the argument.
// RUN: not qforge-compile %t/dynamic.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: dynamic.mlir:1:20: error: @dynamic has dynamic shapes but no quantized matmul with a dynamic token count: qforge compiles static shapes, and the token count M of quantized matmuls

// 4-bit arguments are stored two per byte for the generics that read them
// (docs/abi.md); any other use is refused at the argument, not compiled into
// a kernel that would read the wrong nibbles. So is an odd innermost dim.
// RUN: not qforge-compile %t/nibbles.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=NIBBLES
// NIBBLES: nibbles.mlir:1:14: error: argument #0 ('tensor<16x128xi4>') is used by 'func.return'; qforge reads i4 arguments only as linalg.generic inputs (e.g. the dequantization), directly or through a tensor.expand_shape that keeps the innermost dim even
// RUN: not qforge-compile %t/odd-nibbles.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=ODD-NIBBLES
// ODD-NIBBLES: odd-nibbles.mlir:2:14: error: argument #0 has type 'tensor<16x7xi4>'; qforge stores i4 two per byte along the innermost dim, which must be static and even

// A private function has no C interface.
// RUN: not qforge-compile %t/private.mlir --entry=hidden -o %t/out.o 2>&1 | FileCheck %s --check-prefix=PRIVATE
// PRIVATE: private.mlir:1:1: error: 'hidden' is private; only public functions get a C interface (docs/abi.md)

// A failed compile leaves no header behind.
// RUN: not qforge-compile %t/plain.mlir -o %t/out.o --header=%t/plain.h 2>&1
// RUN: not ls %t/plain.h

// Two public functions and no --entry.
// RUN: not qforge-compile %t/two.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: error: expected exactly one public function with a body, found 2; name one with --entry/--func

// The default strategy on a kernel it does not apply to: the script fails
// at the matcher, with the location of the matcher in the script library
// sequence that holds it, and the driver names the script. (The driver
// cannot refuse it before the script: the script's first step simplifies
// forms -- a sub-channel matmul -- that only then show their pair.)
// RUN: not qforge-compile %t/plain.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=SCRIPT
// SCRIPT: transforms/lib/common.mlir:{{[0-9]+}}:{{[0-9]+}}: error: found no dequantization generic
// Beside it, the place in the user's file: the first reduction (or the
// function), and what qforge reads.
// SCRIPT: plain.mlir:2:8: error: qforge recognises no group-quantized matmul in @plain (here: a reduction): it reads a dequantization linalg.generic
// SCRIPT: qforge-compile: error: the transform script '{{.*}}decode-f32.mlir' failed (see above)

// A script that does not exist, and one that does not parse.
// RUN: not qforge-compile %t/kernel.mlir --script=%t/missing.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: qforge-compile: error: transform script '{{.*}}missing.mlir' not found
// RUN: not qforge-compile %t/kernel.mlir --script=%t/broken-script.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: broken-script.mlir:3:5: error: custom op 'transform.qforge.no_such_op' is unknown
// BROKEN: qforge-compile: error: cannot load the transform script

// An output that cannot be written.
// RUN: not qforge-compile %t/kernel.mlir -o %t/no/such/dir/out.o 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: qforge-compile: error: cannot write '{{.*}}no/such/dir/out.o':

// An unknown target CPU.
// RUN: not qforge-compile %t/kernel.mlir --mcpu=no-such-cpu -o %t/out.o 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: qforge-compile: error: unknown CPU 'no-such-cpu' for target x86_64{{.*}} (try --mcpu=native)

// Malformed IR.
// RUN: not qforge-compile %t/malformed.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: malformed.mlir:2:10: error: use of undeclared SSA value name

// A dim of size 0 (no groups, say) is refused at the argument, before any
// tiling sees a loop of size 0.
// RUN: not qforge-compile %t/empty-groups.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: empty-groups.mlir:1:14: error: argument #0 has type 'tensor<16x0x128xi8>', with a dim of size 0: a kernel without elements has nothing to compile

// --mattr: LLVM ignores a feature it does not know (a warning); qforge
// refuses it, and anything that is not +feature or -feature.
// RUN: not qforge-compile %t/kernel.mlir --mattr=+avx512f,+nonsense -o %t/out.o 2>&1 | FileCheck %s --check-prefix=MATTR
// MATTR: qforge-compile: error: unknown target feature 'nonsense' in --mattr (the list: llc -mattr=help)
// RUN: not qforge-compile %t/kernel.mlir --mattr=avx512f -o %t/out.o 2>&1 | FileCheck %s --check-prefix=MATTR-SIGN
// MATTR-SIGN: qforge-compile: error: --mattr entries are +feature or -feature, got 'avx512f'
// Spaces around an entry are trimmed, for the check and for LLVM alike (LLVM
// would ignore " -avx512f"): the kernel is then compiled without AVX-512.
// RUN: qforge-compile %t/kernel.mlir --mcpu=sapphirerapids --mattr=" -avx512f" --emit=asm -o %t/trimmed.s 2>&1 | FileCheck %s --allow-empty --check-prefix=TRIMMED
// TRIMMED-NOT: not a recognized feature
// RUN: not grep -q zmm %t/trimmed.s

// The strategy flags pick a shipped script: with --script they would be
// silently ignored.
// RUN: not qforge-compile %t/kernel.mlir --packed-weights --script=%transforms/decode-f32.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=FLAGS
// FLAGS: qforge-compile: error: --packed-weights picks a shipped strategy; with --script the script decides (drop one of them)
// A row says its flags (its family's); an unknown row is named with the
// table's rows.
// RUN: not qforge-compile %t/kernel.mlir --packed-weights --strategy-row=decode-f32/16-lanes -o %t/out.o 2>&1 | FileCheck %s --check-prefix=ROW-FLAGS
// ROW-FLAGS: qforge-compile: error: --strategy-row names a row of the table, whose family says the flags; drop --int8-activations and --packed-weights
// RUN: not qforge-compile %t/kernel.mlir --strategy-row=decode-f32/32-lanes -o %t/out.o 2>&1 | FileCheck %s --check-prefix=NO-ROW
// NO-ROW: qforge-compile: error: the strategy table has no row 'decode-f32/32-lanes' (its rows: {{.*}}decode-f32/16-lanes, decode-f32/8-lanes)

// A script that makes the kernel private (it would have no C interface,
// while its header declared one).
// RUN: not qforge-compile %t/kernel.mlir --script=%t/privatize.mlir -o %t/out.o --header=%t/privatized.h 2>&1 | FileCheck %s --check-prefix=PRIVATIZED
// PRIVATIZED: qforge-compile: error: the transform script '{{.*}}privatize.mlir' made @quantized_matmul private: it would get no C interface (docs/abi.md)
// RUN: not ls %t/privatized.h

// A header that cannot be written fails before anything is compiled.
// RUN: not qforge-compile %t/kernel.mlir -o %t/out.o --header=%t/no/such/dir/k.h 2>&1 | FileCheck %s --check-prefix=HEADER
// HEADER: qforge-compile: error: cannot write '{{.*}}no/such/dir/k.h':

// A script that emits vpdpbusd, for a target with neither VNNI nor AVX2 (to
// split or expand it into): refused at the kernel op the call came from,
// not an abort in LLVM's instruction selection.
// RUN: not qforge-compile %t/kernel.mlir --strategy-row=decode-int8/16-lanes --mcpu=x86-64-v2 -o %t/out.o 2>&1 | FileCheck %s --check-prefix=NO-VNNI
// RUN: not qforge-compile %t/kernel.mlir --strategy-row=decode-int8/16-lanes --mcpu=sapphirerapids --mattr=-avx512vnni,-avx2 -o %t/out.o 2>&1 | FileCheck %s --check-prefix=NO-VNNI
// NO-VNNI: kernel.mlir:{{[0-9]+}}:{{[0-9]+}}: error: llvm.x86.avx512.vpdpbusd.512 (from the transform script) needs AVX512-VNNI, AVX-VNNI or AVX2, which the target (CPU '{{x86-64-v2'|sapphirerapids' with --mattr=-avx512vnni,-avx2}}) lacks; use a script without it, or another --mcpu/--mattr

// A tile_using_forall with every tile size 0 (MLIR 22 crashes on it) is
// refused when the script is loaded.
// RUN: not qforge-compile %t/kernel.mlir --script=%t/zero-tiles.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=ZERO-TILES
// ZERO-TILES: zero-tiles.mlir:4:14: error: 'transform.structured.tile_using_forall' op with every tile size 0 tiles nothing (and crashes MLIR 22's implementation); drop it

// Tile sizes given by a param are known only when the script runs: such a
// script is not refused.
// RUN: qforge-compile %t/kernel.mlir --script=%t/param-tiles.mlir --emit=mlir -o %t/param-tiles.out.mlir
// RUN: FileCheck %s --check-prefix=PARAM-TILES < %t/param-tiles.out.mlir
// PARAM-TILES: scf.forall

// A script that vectorizes a whole 16384 x 4 zero fill: 16384 rows of 4
// lanes, a block of straight-line code of 32771 register operations (the
// splat and the store, 16384 each, and the return), past the bound
// (--max-block-ops, 32768), refused before the lowering at the op.
// RUN: not qforge-compile %t/zeros.mlir --script=%t/vectorize-whole.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=LONG-BLOCK
// LONG-BLOCK: zeros.mlir:4:11: error: a block of straight-line code would be about 32771 register operations, more than 32768 (--max-block-ops); a script that unrolls without bound, or an op vectorized whole?
// LONG-BLOCK: zeros.mlir:1:1: note: in @zeros
// LONG-BLOCK: qforge-compile: error: lowering to the LLVM dialect failed
// Without that bound: its rows (narrower than a register) flattened, a
// vector of 65536 elements, on which LLVM's backend aborts; refused at the
// op instead.
// RUN: not qforge-compile %t/zeros.mlir --script=%t/vectorize-whole.mlir --max-block-ops=0 -o %t/out.o 2>&1 | FileCheck %s --check-prefix=TOO-LONG
// TOO-LONG: zeros.mlir:2:11: error: a 'vector<65536xf32>' (65536 elements) is too long for the LLVM backend (at most 32768); the script vectorized an op without tiling it first
// TOO-LONG: qforge-compile: error: lowering to the LLVM dialect failed

// Nothing was written by any of the failures above.
// RUN: not ls %t/out.o

//--- dynamic.mlir
func.func @dynamic(%w: tensor<?x128xi8>) -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<4xf32>
  return %0 : tensor<4xf32>
}
//--- private.mlir
func.func private @hidden(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
//--- two.mlir
func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
//--- plain.mlir
func.func @plain(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
//--- broken-script.mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%m: !transform.any_op {transform.readonly}) {
    transform.qforge.no_such_op %m : !transform.any_op
    transform.yield
  }
}
//--- malformed.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %y : tensor<4xf32>
}

//--- nibbles.mlir
func.func @f(%w: tensor<16x128xi4>) -> tensor<16x128xi4> {
  return %w : tensor<16x128xi4>
}

//--- odd-nibbles.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%w: tensor<16x7xi4>) -> tensor<16x7xf32> {
  %init = tensor.empty() : tensor<16x7xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<16x7xi4>) outs(%init : tensor<16x7xf32>) {
  ^bb0(%in: i4, %out: f32):
    %f = arith.sitofp %in : i4 to f32
    linalg.yield %f : f32
  } -> tensor<16x7xf32>
  return %r : tensor<16x7xf32>
}

//--- empty-groups.mlir
func.func @f(%w: tensor<16x0x128xi8>) -> tensor<16xf32> {
  %0 = tensor.empty() : tensor<16xf32>
  return %0 : tensor<16xf32>
}

//--- privatize.mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%m: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %m : (!transform.any_op) -> !transform.any_op
    %private = transform.param.constant "private" -> !transform.any_param
    transform.annotate %f "sym_visibility" = %private : !transform.any_op, !transform.any_param
    transform.yield
  }
}

//--- zero-tiles.mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%m: !transform.any_op {transform.readonly}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %m : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %fill tile_sizes [0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

//--- param-tiles.mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%m: !transform.any_op {transform.readonly}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %m : (!transform.any_op) -> !transform.any_op
    %size = transform.param.constant 4 : i64 -> !transform.param<i64>
    %t, %l = transform.structured.tile_using_forall %fill tile_sizes [0, 0, %size] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
//--- zeros.mlir
func.func @zeros() -> tensor<16384x4xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<16384x4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<16384x4xf32>) -> tensor<16384x4xf32>
  return %fill : tensor<16384x4xf32>
}
//--- vectorize-whole.mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    %vectorized = transform.structured.vectorize_children_and_apply_patterns %func : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
