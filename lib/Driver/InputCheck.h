//===- InputCheck.h - untrusted input read apart first ----------*- C++ -*-===//
//
// MLIR's readers trust their input: deeply nested text overflows the
// recursive parser's stack, and mutated bytecode crashes the bytecode reader
// or corrupts its heap (issue: crash-proof parsing). A crash cannot be
// recovered inside the process, and a bigger stack only moves the limit, so
// every tool first reads an input file in a child process -- the tool
// itself, run with the hidden option --qforge-read-check=FILE, bounded in
// time and memory -- and reads it itself only when the child ended without
// a crash. A parse error is not caught here: the tool's own parse reports
// it with its location.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_INPUTCHECK_H
#define QFORGE_DRIVER_INPUTCHECK_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace qforge {

/// In a tool's main, before anything else: when the arguments are
/// `--qforge-read-check=FILE`, reads FILE (text or bytecode, with every
/// dialect the tools know) and returns the exit status (0: read, 3: a
/// parse error); otherwise std::nullopt.
std::optional<int> runReadCheckIfAsked(int argc, char **argv);

/// Reads `path` in a child process as above; failure, with `error` ("the
/// input could not be read: ..."), when the reader crashed, or passed 60 s
/// or 4 GiB. Standard input ("-") is not checked.
mlir::LogicalResult checkInputReadable(llvm::StringRef path,
                                       std::string &error);

/// For a tool whose upstream main reads its input itself (qforge-opt,
/// qforge-reduce): checks each argument that names an existing file (not an
/// option, not the one after -o) as checkInputReadable does; prints
/// "<tool>: error: ..." and returns false when one cannot be read.
bool checkInputArguments(llvm::StringRef tool, int argc, char **argv);

} // namespace qforge

#endif // QFORGE_DRIVER_INPUTCHECK_H
