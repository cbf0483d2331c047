//===- InputCheck.cpp - untrusted input read apart first ------------------===//

#include "Driver/InputCheck.h"
#include "Driver/Surgery.h"
#include "Driver/ToolRegistry.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>
#include <vector>

extern char **environ;

using namespace mlir;

static constexpr llvm::StringLiteral kReadCheckOption = "--qforge-read-check=";
static constexpr llvm::StringLiteral kReadCheckOutputOption =
    "--qforge-read-check-output=";
/// With OUT: merge identical private functions before writing the module.
static constexpr llvm::StringLiteral kReadCheckMergeOption =
    "--qforge-read-check-merge";
/// The child's bounds: a reader that runs longer or holds more is stopped
/// (generous in time: a sanitizer build reads a 32-layer model's 400 KB in
/// 0.3 s; below the tools' 30 s compile guard, so that a reader that hangs
/// is named as such).
static constexpr unsigned kReadCheckSeconds = 20;
/// Set in the child's environment to the parent's process id.
static constexpr llvm::StringLiteral kChildMarker = "QFORGE_READ_CHECK_CHILD";
static constexpr unsigned kReadCheckMemoryMiB = 4096;
/// The child's exit status for a parse error: any other but 0 is a crash
/// (a sanitizer's report exits with 1).
static constexpr int kParseErrorStatus = 3;
/// The child's exit status when it cannot write OUT.
static constexpr int kCannotWriteStatus = 4;
/// The child's exit status when its parent ended before it started.
static constexpr int kParentGoneStatus = 5;
/// The child's exit status when asked to merge a text file's identical
/// functions and there were none: it writes nothing, the tool reads the
/// file as it is.
static constexpr int kNothingMergedStatus = 6;

// The child's report of a bytecode file it could not read: one record per
// error, fields apart by kFieldSeparator, records ended by kRecordEnd (a
// message may hold newlines, never these bytes: the reader's messages quote
// no raw bytes).
static constexpr char kFieldSeparator = '\x1f';
static constexpr char kRecordEnd = '\x1e';

/// The child's answer with OUT: the module as text, or its errors.
static int writeReadCheckOutput(StringRef outputPath, ModuleOp module,
                                ArrayRef<qforge::ReaderError> errors) {
  std::error_code errorCode;
  llvm::raw_fd_ostream out(outputPath, errorCode);
  if (errorCode)
    return kCannotWriteStatus;
  if (module) {
    // The generic form (no op's custom printer between the two readers)
    // with every location, so diagnostics still point into the user's file.
    module->print(out,
                  OpPrintingFlags().enableDebugInfo().printGenericOpForm());
  } else {
    for (const qforge::ReaderError &error : errors)
      out << (error.isNote ? "note" : "error") << kFieldSeparator << error.file
          << kFieldSeparator << error.line << kFieldSeparator << error.column
          << kFieldSeparator << error.message << kRecordEnd;
  }
  out.close();
  return out.has_error() ? kCannotWriteStatus
                         : (module ? 0 : kParseErrorStatus);
}

std::optional<int> qforge::runReadCheckIfAsked(int argc, char **argv) {
  if (argc < 2 || argc > 4 || !StringRef(argv[1]).starts_with(kReadCheckOption))
    return std::nullopt;
  // A reader that hangs must not outlive the tool: a tool stopped by its
  // compile guard (or by a user) while it waits would leave the child
  // running on. The child ends with its parent, and bounds itself.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (const char *parent = getenv(kChildMarker.data());
      parent && std::to_string(getppid()) != parent)
    return kParentGoneStatus; // the parent ended before prctl
  alarm(kReadCheckSeconds + 5);
  StringRef path = StringRef(argv[1]).drop_front(kReadCheckOption.size());
  StringRef outputPath;
  bool merge = false;
  for (int index = 2; index < argc; ++index) {
    StringRef argument = argv[index];
    if (argument == kReadCheckMergeOption)
      merge = true;
    else if (argument.consume_front(kReadCheckOutputOption))
      outputPath = argument;
    else
      return std::nullopt;
  }
  DialectRegistry registry;
  registerToolEverything(registry);
  // As the tools read it (a Session's context, diagnostics through the
  // source manager): a reader's fault can depend on either (a bytecode
  // file's double free came with its diagnostic's printing).
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  std::string error;
  auto input = openInputFile(path, &error);
  if (!input)
    return kParseErrorStatus;
  bool bytecode = isBytecode(*input);
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  // Printed to nowhere: the tool's own parse prints what is wrong.
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context, llvm::nulls());
  // With OUT the errors are the answer (registered last: handled first).
  std::vector<ReaderError> errors;
  std::optional<ScopedDiagnosticHandler> collect;
  if (!outputPath.empty())
    collect.emplace(&context, [&](Diagnostic &diagnostic) {
      if (diagnostic.getSeverity() != DiagnosticSeverity::Error)
        return success();
      auto record = [&](Diagnostic &diagnostic, bool isNote) {
        ReaderError &error = errors.emplace_back();
        error.isNote = isNote;
        error.file = path.str();
        if (auto location =
                dyn_cast<FileLineColLoc>(diagnostic.getLocation())) {
          error.file = location.getFilename().str();
          error.line = location.getLine();
          error.column = location.getColumn();
        }
        error.message = diagnostic.str();
      };
      record(diagnostic, /*isNote=*/false);
      for (Diagnostic &note : diagnostic.getNotes())
        record(note, /*isNote=*/true);
      return success();
    });
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  // What the tool would merge first (Session::parseInput): a model of N
  // identical layers reaches the tool as one layer's text. A merge that
  // fails midway leaves the pairs it merged merged (identical functions:
  // the same module); the tool's own merge reports the failure.
  if (module && merge && !outputPath.empty()) {
    auto functionCount = [&] {
      return llvm::range_size(module->getOps<func::FuncOp>());
    };
    size_t before = functionCount();
    (void)qforge::mergeIdenticalFunctions(*module);
    if (!bytecode && functionCount() == before)
      return kNothingMergedStatus;
  }
  if (!outputPath.empty())
    return writeReadCheckOutput(outputPath, module.get(), errors);
  return module ? 0 : kParseErrorStatus;
}

/// This process's environment with each of `overrides` (name, value) set.
static std::vector<std::string> environmentWith(
    llvm::ArrayRef<std::pair<llvm::StringRef, std::string>> overrides) {
  std::vector<std::string> environment;
  for (char **variable = environ; *variable; ++variable) {
    llvm::StringRef name = llvm::StringRef(*variable).split('=').first;
    if (llvm::none_of(overrides,
                      [&](const auto &entry) { return entry.first == name; }))
      environment.push_back(*variable);
  }
  for (const auto &[name, value] : overrides)
    environment.push_back((name + "=" + value).str());
  return environment;
}

/// Runs the child on `path` (and OUT when not empty); its exit status, or
/// failure with `error` when it crashed or could not be run.
static FailureOr<int> runReadCheckChild(StringRef path, StringRef outputPath,
                                        std::string &error,
                                        bool merge = false) {
  // A child whose main does not answer --qforge-read-check (a libFuzzer
  // target without LLVMFuzzerInitialize once ran its fuzzing loop instead)
  // must not start children of its own, each starting another.
  if (getenv(kChildMarker.data())) {
    error = "the input could not be read: this program was started to read "
            "an input apart but does not answer --qforge-read-check";
    return failure();
  }
  std::string self = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&qforge::checkInputReadable));
  std::vector<std::string> arguments = {self, (kReadCheckOption + path).str()};
  if (!outputPath.empty())
    arguments.push_back((kReadCheckOutputOption + outputPath).str());
  if (merge)
    arguments.push_back(kReadCheckMergeOption.str());
  std::vector<StringRef> argumentRefs(arguments.begin(), arguments.end());
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(""),
                                          StringRef("")};
  // A sanitizer's shadow memory does not fit an address-space limit.
#if defined(__SANITIZE_ADDRESS__)
  unsigned memoryMiB = 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  unsigned memoryMiB = 0;
#else
  unsigned memoryMiB = kReadCheckMemoryMiB;
#endif
#else
  unsigned memoryMiB = kReadCheckMemoryMiB;
#endif
  // The child's environment: this process's, with the child's marker and
  // its own bounds. glibc's checking allocator: a reader that corrupts the
  // heap (a byte-flipped bytecode file's double free) aborts there, where
  // plain malloc let it pass and the tool's own read then crashed. A
  // sanitizer checks the heap itself, and bounds the child's memory with
  // its own option (its shadow memory does not fit an address-space limit).
  std::vector<std::pair<llvm::StringRef, std::string>> overrides = {
      {kChildMarker, std::to_string(getpid())}};
  constexpr llvm::StringLiteral mallocDebug =
      "/lib/x86_64-linux-gnu/libc_malloc_debug.so.0";
  if (!memoryMiB) {
    const char *asanOptions = getenv("ASAN_OPTIONS");
    overrides.push_back(
        {"ASAN_OPTIONS",
         (asanOptions ? std::string(asanOptions) + ":" : "") +
             "hard_rss_limit_mb=" + std::to_string(kReadCheckMemoryMiB)});
  } else if (llvm::sys::fs::exists(mallocDebug)) {
    overrides.push_back({"LD_PRELOAD", mallocDebug.str()});
    overrides.push_back({"GLIBC_TUNABLES", "glibc.malloc.check=3"});
  }
  std::vector<std::string> environment = environmentWith(overrides);
  std::vector<llvm::StringRef> environmentRefs(environment.begin(),
                                               environment.end());
  std::string message;
  bool executionFailed = false;
  int status = llvm::sys::ExecuteAndWait(self, argumentRefs, environmentRefs,
                                         redirects, kReadCheckSeconds,
                                         memoryMiB, &message, &executionFailed);
  if (executionFailed) {
    error = "the input could not be read: cannot run '" + self +
            "' to read it apart (" + message + ")";
    return failure();
  }
  if (status == 0 || status == kParseErrorStatus ||
      status == kCannotWriteStatus || (merge && status == kNothingMergedStatus))
    return status;
  error =
      "the input could not be read: '" + path.str() +
      "' crashed or exhausted MLIR's reader (" +
      (message.empty() ? "exit status " + std::to_string(status) : message) +
      ", within " + std::to_string(kReadCheckSeconds) + " s and " +
      std::to_string(kReadCheckMemoryMiB) +
      " MiB); deeply nested or corrupted input?";
  return failure();
}

LogicalResult qforge::checkInputReadable(StringRef path, std::string &error) {
  if (path == "-")
    return success();
  return success(succeeded(runReadCheckChild(path, "", error)));
}

/// The child's errors on a bytecode file, as writeReadCheckOutput wrote them.
static std::vector<qforge::ReaderError> parseReaderErrors(StringRef report,
                                                          StringRef path) {
  std::vector<qforge::ReaderError> errors;
  SmallVector<StringRef> records;
  report.split(records, kRecordEnd, /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef record : records) {
    SmallVector<StringRef, 5> fields;
    record.split(fields, kFieldSeparator, /*MaxSplit=*/4);
    qforge::ReaderError &error = errors.emplace_back();
    error.file = path.str();
    if (fields.size() != 5) {
      error.message = record.str();
      continue;
    }
    // A note before any error stands as an error.
    error.isNote = fields[0] == "note" && errors.size() > 1;
    error.file = fields[1].str();
    (void)fields[2].getAsInteger(10, error.line);
    (void)fields[3].getAsInteger(10, error.column);
    error.message = fields[4].str();
  }
  if (errors.empty())
    errors.push_back(
        {/*isNote=*/false, path.str(), 0, 0, "the bytecode could not be read"});
  return errors;
}

/// The error when the child's text of `path` cannot be had from `textPath`.
static std::string unreadableText(StringRef path, StringRef textPath) {
  return "the input could not be read: the text of '" + path.str() +
         "' could not be written to or read from '" + textPath.str() + "'";
}

/// Reads the bytecode file `path` in the child, which writes the module's
/// text to `textPath` -- with `merge`, its identical private functions
/// merged -- (success, `readerErrors` empty) or its reader's errors
/// (success, `readerErrors` filled); failure with `error` when it crashed
/// or the file at `textPath` cannot be had.
static LogicalResult
writeInputAsText(StringRef path, StringRef textPath,
                 std::vector<qforge::ReaderError> &readerErrors,
                 std::string &error, bool merge = false) {
  FailureOr<int> status = runReadCheckChild(path, textPath, error, merge);
  if (failed(status))
    return failure();
  if (*status == 0)
    return success();
  auto report = llvm::MemoryBuffer::getFile(textPath, /*IsText=*/true);
  if (*status == kCannotWriteStatus || !report) {
    error = unreadableText(path, textPath);
    return failure();
  }
  readerErrors = parseReaderErrors((*report)->getBuffer(), path);
  return success();
}

namespace {
/// A temporary file for the child's text of an input, removed when this
/// goes, and when the compile guard ends the tool meanwhile (it runs the
/// interrupt handlers).
class TextFile {
public:
  /// The file, or null with `errorCode` set.
  static std::unique_ptr<TextFile> create(std::error_code &errorCode) {
    auto file = std::make_unique<TextFile>();
    errorCode =
        llvm::sys::fs::createTemporaryFile("qforge-read", "mlir", file->path);
    if (errorCode)
      return nullptr;
    llvm::sys::RemoveFileOnSignal(file->path);
    file->remover.setFile(file->path);
    return file;
  }
  ~TextFile() {
    if (!path.empty())
      llvm::sys::DontRemoveFileOnSignal(path);
  }
  StringRef getPath() const { return path; }

private:
  SmallString<128> path;
  llvm::FileRemover remover;
};
} // namespace

/// The text file `file` (`path`) for a tool that merges identical private
/// functions first: the child checks it and prints it merged, into
/// `merged`. The file is read as it is when there was nothing to merge,
/// when the child found a parse error (the tool's own parse reports it with
/// the file's lines), and, after a plain check, when the merged text
/// cannot be had (no temporary file, a write or read that fails, or a child
/// stopped while merging: the merge runs within the child's bounds, and
/// the tool's own merge answers to its compile guard instead).
static FailureOr<std::unique_ptr<llvm::MemoryBuffer>>
readTextMerged(StringRef path, std::unique_ptr<llvm::MemoryBuffer> file,
               std::unique_ptr<llvm::MemoryBuffer> &merged,
               std::string &error) {
  auto checkedFile = [&]() -> FailureOr<std::unique_ptr<llvm::MemoryBuffer>> {
    error.clear();
    if (failed(runReadCheckChild(path, "", error)))
      return failure();
    return std::move(file);
  };
  std::error_code errorCode;
  std::unique_ptr<TextFile> textFile = TextFile::create(errorCode);
  if (!textFile)
    return checkedFile();
  StringRef textPath = textFile->getPath();
  FailureOr<int> status =
      runReadCheckChild(path, textPath, error, /*merge=*/true);
  if (failed(status))
    return checkedFile();
  if (*status != 0)
    return std::move(file);
  auto text = llvm::MemoryBuffer::getFile(textPath, /*IsText=*/true);
  if (!text)
    return std::move(file);
  merged = llvm::MemoryBuffer::getMemBufferCopy(
      (*text)->getBuffer(),
      ("<" + path + ", identical functions merged>").str());
  return std::move(file);
}

FailureOr<std::unique_ptr<llvm::MemoryBuffer>>
qforge::readInputApart(StringRef path, std::vector<ReaderError> &readerErrors,
                       std::string &error,
                       std::unique_ptr<llvm::MemoryBuffer> *merged) {
  readerErrors.clear();
  if (merged)
    merged->reset();
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file)
    return failure();
  if (path == "-")
    return file;
  if (!isBytecode(*file)) {
    if (merged)
      return readTextMerged(path, std::move(file), *merged, error);
    if (failed(runReadCheckChild(path, "", error)))
      return failure();
    return file;
  }
  std::error_code errorCode;
  std::unique_ptr<TextFile> textFile = TextFile::create(errorCode);
  if (!textFile) {
    error = "the input could not be read: no temporary file for the text of '" +
            path.str() + "': " + errorCode.message();
    return failure();
  }
  StringRef textPath = textFile->getPath();
  // Merged when asked; should the child be stopped while merging, the
  // module as it is (the tool merges it itself).
  if (failed(writeInputAsText(path, textPath, readerErrors, error,
                              /*merge=*/merged != nullptr)) &&
      (!merged || failed(writeInputAsText(path, textPath, readerErrors, error,
                                          /*merge=*/false))))
    return failure();
  if (!readerErrors.empty())
    return std::unique_ptr<llvm::MemoryBuffer>();
  auto text = llvm::MemoryBuffer::getFile(textPath, /*IsText=*/true);
  if (!text) {
    error = unreadableText(path, textPath);
    return failure();
  }
  // Under the file's name: a location the text does not spell names it.
  return llvm::MemoryBuffer::getMemBufferCopy((*text)->getBuffer(), path);
}

/// The text files checkInputArguments wrote, removed when the tool ends.
static std::vector<std::unique_ptr<TextFile>> &argumentTexts() {
  static std::vector<std::unique_ptr<TextFile>> texts;
  return texts;
}

/// The paths argv points at once a bytecode argument is replaced (alive
/// for the whole run).
static std::vector<std::unique_ptr<std::string>> &argumentPaths() {
  static std::vector<std::unique_ptr<std::string>> paths;
  return paths;
}

bool qforge::checkInputArguments(StringRef tool, int argc, char **argv) {
  for (int index = 1; index < argc; ++index) {
    StringRef argument(argv[index]);
    if (argument.starts_with("-") || StringRef(argv[index - 1]) == "-o" ||
        !llvm::sys::fs::is_regular_file(argument))
      continue;
    std::string error;
    std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(argument, &error);
    if (!file) {
      llvm::errs() << tool << ": error: " << error << "\n";
      return false;
    }
    if (!isBytecode(*file)) {
      if (failed(runReadCheckChild(argument, "", error))) {
        llvm::errs() << tool << ": error: " << error << "\n";
        return false;
      }
      continue;
    }
    // A bytecode file: the child writes its text to a file that lives as
    // long as the tool, and the tool reads that instead.
    std::error_code errorCode;
    std::unique_ptr<TextFile> textFile = TextFile::create(errorCode);
    if (!textFile) {
      llvm::errs() << tool << ": error: no temporary file for the text of '"
                   << argument << "': " << errorCode.message() << "\n";
      return false;
    }
    StringRef textPath = textFile->getPath();
    argumentTexts().push_back(std::move(textFile));
    std::vector<ReaderError> readerErrors;
    if (failed(writeInputAsText(argument, textPath, readerErrors, error))) {
      llvm::errs() << tool << ": error: " << error << "\n";
      return false;
    }
    if (!readerErrors.empty()) {
      for (const ReaderError &readerError : readerErrors)
        llvm::errs() << readerError.file << ":" << readerError.line << ":"
                     << readerError.column
                     << (readerError.isNote ? ": note: " : ": error: ")
                     << readerError.message << "\n";
      return false;
    }
    argumentPaths().push_back(std::make_unique<std::string>(textPath.str()));
    argv[index] = argumentPaths().back()->data();
  }
  return true;
}
