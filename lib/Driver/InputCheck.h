//===- InputCheck.h - untrusted input read apart first ----------*- C++ -*-===//
//
// MLIR's readers trust their input: deeply nested text overflows the
// recursive parser's stack, and mutated bytecode crashes the bytecode reader
// or corrupts its heap (issue: crash-proof parsing). A crash cannot be
// recovered inside the process, and a bigger stack only moves the limit, so
// every tool first reads an input file in a child process -- the tool
// itself, run with the hidden option --qforge-read-check=FILE, bounded in
// time and memory -- and reads it itself only when the child ended without
// a crash. A parse error of text is not caught here: the tool's own parse
// reports it with its location.
//
// Bytecode never reaches the tool's own reader: a mutated file can make
// MLIR 22's bytecode reader write to memory it has freed and still end
// cleanly (with its own error, or none), so the child's clean end proves
// nothing and the tool's heap would be corrupt long before anything noticed
// (an ASan build found it only at a later free). The child prints the
// module it read as text (generic form, every location kept) or the errors
// it reported, and the tool reads that instead.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_INPUTCHECK_H
#define QFORGE_DRIVER_INPUTCHECK_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace qforge {

/// In a tool's main, before anything else: when the arguments are
/// `--qforge-read-check=FILE [--qforge-read-check-output=OUT]
/// [--qforge-read-check-merge]`, reads FILE (text or bytecode, with every
/// dialect the tools know) and returns the exit status (0: read, 3: a
/// parse error, 4: OUT could not be written, 5: the parent had ended); with
/// OUT, also writes there the module as text, or the parse errors
/// (readInputApart reads them back); with the merge flag too, the module
/// with its identical private functions merged -- or, for a text file with
/// none, nothing, and status 6. Otherwise std::nullopt.
std::optional<int> runReadCheckIfAsked(int argc, char **argv);

/// Reads `path` in a child process as above; failure, with `error` ("the
/// input could not be read: ..."), when the reader crashed, or passed 20 s
/// or 4 GiB; the child ends with the tool. Standard input ("-") is not checked.
mlir::LogicalResult checkInputReadable(llvm::StringRef path,
                                       std::string &error);

/// One error or note the child's reader reported on a bytecode file, where
/// it located it (the reader's own errors are at FILE:0:0); a note belongs
/// to the error before it.
struct ReaderError {
  bool isNote = false;
  std::string file;
  unsigned line = 0, column = 0;
  std::string message;
};

/// What a tool's own reader may read of an input file, after the child read
/// it (checkInputReadable): a text file as it is; a bytecode file as the
/// text the child printed of it, under the file's name. Null when the child
/// could not read a bytecode file: `readerErrors` holds its errors. Failure
/// with `error` as checkInputReadable says, or when the file or the child's
/// text cannot be read. Standard input ("-") is read as it is, unchecked.
///
/// With `merged` (a tool that merges identical private functions first,
/// Session::parseInput), the child merges them in what it read before
/// printing it: a bytecode file's text is then the merged module, and for
/// a text file in which the child merged functions `merged` receives the
/// merged module's text (generic form, every location kept) -- what the
/// tool parses, while the file itself stays the diagnostics' source. A
/// model of N identical layers is then parsed once by the child and once,
/// as one layer, by the tool. `merged` stays null for a text file with
/// nothing to merge, with a parse error (the tool's own parse of the file
/// reports it), or when the merged text cannot be had (the file is then
/// checked plainly).
mlir::FailureOr<std::unique_ptr<llvm::MemoryBuffer>>
readInputApart(llvm::StringRef path, std::vector<ReaderError> &readerErrors,
               std::string &error,
               std::unique_ptr<llvm::MemoryBuffer> *merged = nullptr);

/// For a tool whose upstream main reads its input itself (qforge-opt,
/// qforge-reduce): reads each argument that names an existing file (not an
/// option, not the one after -o) as readInputApart does, and points a
/// bytecode file's argument at the child's text of it (a temporary file,
/// removed at exit); prints "<tool>: error: ..." (or the reader's errors)
/// and returns false when one cannot be read.
bool checkInputArguments(llvm::StringRef tool, int argc, char **argv);

} // namespace qforge

#endif // QFORGE_DRIVER_INPUTCHECK_H
