// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// Negative tests for transform.qforge.prefetch_reads_ahead: silenceable
// failures (reported as errors at the top level of the interpreter, with a
// note at the payload op) and verifier errors on the attributes.

// The target is not a loop.

// expected-note @below {{target}}
func.func @not_a_loop(%w: memref<64x128xi8>) -> i8 {
  %c0 = arith.constant 0 : index
  %e = memref.load %w[%c0, %c0] : memref<64x128xi8>
  return %e : i8
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected an scf.for or a one-dimensional scf.forall target}}
    transform.qforge.prefetch_reads_ahead %f : !transform.any_op
    transform.yield
  }
}

// -----

// A two-dimensional scf.forall: no single "next iteration" to prefetch for.

func.func @forall_2d(%w: memref<64x128xi8>, %out: memref<64x2xi8>) {
  // expected-note @below {{target}}
  scf.forall (%i, %j) in (64, 2) {
    %c0 = arith.constant 0 : index
    %e = memref.load %w[%i, %c0] : memref<64x128xi8>
    memref.store %e, %out[%i, %j] : memref<64x2xi8>
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected an scf.for or a one-dimensional scf.forall target}}
    transform.qforge.prefetch_reads_ahead %loop : !transform.any_op
    transform.yield
  }
}

// -----

// Nothing in the loop is indexed by its induction variable: the reads use
// constants, and a row computed from the IV through two ops ((iv + 1) * 2)
// is not followed (only the IV and one pure op of it are).

func.func @no_read_indexed_by_iv(%w: memref<64x128xi8>, %ub: index) -> i8 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant 0 : i8
  // expected-note @below {{loop}}
  %r = scf.for %iv = %c0 to %ub step %c1 iter_args(%acc = %init) -> i8 {
    %a = memref.load %w[%c0, %c1] : memref<64x128xi8>
    %next = arith.addi %iv, %c1 : index
    %c2 = arith.constant 2 : index
    %twice = arith.muli %next, %c2 : index
    %b = memref.load %w[%twice, %c0] : memref<64x128xi8>
    %s = arith.addi %a, %b : i8
    %t = arith.addi %acc, %s : i8
    scf.yield %t : i8
  }
  return %r : i8
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no memref read in the loop is indexed by its induction variable}}
    transform.qforge.prefetch_reads_ahead %loop : !transform.any_op
    transform.yield
  }
}

// -----

// The only read indexed by the IV starts 16 bytes into a line: it shares
// that line with the (absent) read at byte 0, so no read is left to
// prefetch.

func.func @only_mid_line_reads(%w: memref<64x128xi8>, %ub: index) -> vector<16xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<16xi8>
  // expected-note @below {{loop}}
  %r = scf.for %iv = %c0 to %ub step %c1 iter_args(%acc = %zero) -> vector<16xi8> {
    %a = vector.transfer_read %w[%iv, %c16], %pad {in_bounds = [true]} : memref<64x128xi8>, vector<16xi8>
    %s = arith.addi %acc, %a : vector<16xi8>
    scf.yield %s : vector<16xi8>
  }
  return %r : vector<16xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no memref read in the loop is indexed by its induction variable}}
    transform.qforge.prefetch_reads_ahead %loop : !transform.any_op
    transform.yield
  }
}

// -----

// iterations must be at least 1.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.qforge.prefetch_reads_ahead' op iterations must be at least 1}}
    transform.qforge.prefetch_reads_ahead %root {iterations = 0} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.qforge.prefetch_reads_ahead' op iterations must be at least 1}}
    transform.qforge.prefetch_reads_ahead %root {iterations = -2} : !transform.any_op
    transform.yield
  }
}

// -----

// ahead_bytes must not be negative (0: iterations alone).

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.qforge.prefetch_reads_ahead' op ahead_bytes must not be negative}}
    transform.qforge.prefetch_reads_ahead %root {ahead_bytes = -64} : !transform.any_op
    transform.yield
  }
}

// -----

// line_bytes must be positive.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.qforge.prefetch_reads_ahead' op line_bytes must be positive}}
    transform.qforge.prefetch_reads_ahead %root {line_bytes = 0} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.qforge.prefetch_reads_ahead' op line_bytes must be positive}}
    transform.qforge.prefetch_reads_ahead %root {line_bytes = -64} : !transform.any_op
    transform.yield
  }
}

// -----

// locality is memref.prefetch's, in [0, 3].

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.qforge.prefetch_reads_ahead' op locality must be in [0, 3]}}
    transform.qforge.prefetch_reads_ahead %root {locality = 4} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.qforge.prefetch_reads_ahead' op locality must be in [0, 3]}}
    transform.qforge.prefetch_reads_ahead %root {locality = -1} : !transform.any_op
    transform.yield
  }
}

// -----

// A loop on tensors (before bufferization) whose read does not use the IV:
// the message says to prefetch after bufferization.

func.func @tensor_loop(%w: tensor<64x128xi8>, %ub: index) -> vector<16xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<16xi8>
  // expected-note @below {{loop}}
  %r = scf.for %iv = %c0 to %ub step %c1 iter_args(%acc = %zero) -> vector<16xi8> {
    %a = vector.transfer_read %w[%c0, %c0], %pad {in_bounds = [true]} : tensor<64x128xi8>, vector<16xi8>
    %s = arith.addi %acc, %a : vector<16xi8>
    scf.yield %s : vector<16xi8>
  }
  return %r : vector<16xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no memref read in the loop is indexed by its induction variable at a constant offset that starts a line of line_bytes, reading at least min_read_bytes (the loop still reads tensors: prefetch after bufferization)}}
    transform.qforge.prefetch_reads_ahead %loop : !transform.any_op
    transform.yield
  }
}

// -----

// The same loop on tensors reading row `iv` (the usual case before
// bufferization): the same message. Kept last, so that a crash here cannot
// hide the cases above.

func.func @tensor_loop_reading_rows(%w: tensor<64x128xi8>, %ub: index) -> vector<16xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<16xi8>
  // expected-note @below {{loop}}
  %r = scf.for %iv = %c0 to %ub step %c1 iter_args(%acc = %zero) -> vector<16xi8> {
    %a = vector.transfer_read %w[%iv, %c0], %pad {in_bounds = [true]} : tensor<64x128xi8>, vector<16xi8>
    %s = arith.addi %acc, %a : vector<16xi8>
    scf.yield %s : vector<16xi8>
  }
  return %r : vector<16xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no memref read in the loop is indexed by its induction variable at a constant offset that starts a line of line_bytes, reading at least min_read_bytes (the loop still reads tensors: prefetch after bufferization)}}
    transform.qforge.prefetch_reads_ahead %loop : !transform.any_op
    transform.yield
  }
}

// -----

// min_read_bytes must be positive.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.qforge.prefetch_reads_ahead' op min_read_bytes must be positive}}
    transform.qforge.prefetch_reads_ahead %root {min_read_bytes = 0} : !transform.any_op
    transform.yield
  }
}

// -----

// A min_read_bytes param must hold one positive integer.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    // expected-error @below {{expected the min_read_bytes param to hold one positive integer}}
    transform.qforge.prefetch_reads_ahead %root min_read_bytes = %zero : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}
