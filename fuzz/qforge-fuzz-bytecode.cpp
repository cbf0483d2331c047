//===- qforge-fuzz-bytecode.cpp - the readers' front door under libFuzzer -===//
//
// An input is a file as a user hands it to a tool -- MLIR bytecode (seeded
// with the generators' kernels written as bytecode) or text -- read the way
// qforge-compile and qforge-bench read it (Session::parseInput): first in a
// child process, which is this binary run with --qforge-read-check=FILE
// (Driver/InputCheck.h), then in this process when the child ended without
// a crash -- a bytecode file as the text the child printed of it, since
// the bytecode reader can corrupt the heap and still end cleanly. A crash
// of MLIR's reader in the child is the diagnostic the tools print, not a
// finding; a crash, sanitizer report or hang here is.
// scripts/fuzz.sh bytecode runs it.
//
//===----------------------------------------------------------------------===//

#include "Driver/InputCheck.h"
#include "Driver/Session.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>
#include <unistd.h>

/// The child's side: libFuzzer's main hands its arguments here first.
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  if (std::optional<int> status = qforge::runReadCheckIfAsked(*argc, *argv))
    std::_Exit(*status);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Larger inputs only take longer to mutate into the same findings.
  if (size > 64 * 1024)
    return -1;
  static const std::string path =
      "/tmp/qforge-fuzz-bytecode-" + std::to_string(getpid()) + ".mlirbc";
  {
    std::error_code error;
    llvm::raw_fd_ostream out(path, error);
    if (error)
      std::abort();
    out.write(reinterpret_cast<const char *>(data), size);
  }
  qforge::Session session;
  // A diagnostic is a correct answer to a bad input: discarded.
  mlir::ScopedDiagnosticHandler silence(
      &session.getContext(),
      [](mlir::Diagnostic &) { return mlir::success(); });
  std::string error;
  (void)session.parseInput(path, error);
  return 0;
}
