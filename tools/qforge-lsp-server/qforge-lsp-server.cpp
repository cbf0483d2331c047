//===- qforge-lsp-server.cpp - mlir-lsp-server that knows qforge ----------===//
//
// Upstream's MLIR language server with every dialect and extension
// qforge-opt registers, transform.qforge.* included: an editor opening a
// strategy script gets diagnostics as it is typed, hover and go-to-definition
// of named sequences, where stock mlir-lsp-server reports every qforge op as
// unknown. README ("Editor support") says how to point an editor at it.
//
// A document can crash upstream's server (5,000 nested regions overflow its
// recursive parser's stack), and a crash inside one process cannot be
// recovered. So this process only relays: the server runs in a worker
// process (this binary with --qforge-lsp-worker), and when the worker dies
// the relay answers the requests it had pending with an error, starts a new
// worker, replays the session (initialize and the open documents, whose
// full text it keeps: the server asks for full-text changes) without the
// document that was last sent, and publishes a diagnostic on that one. The
// editor's next request is answered (test/Tools/lsp-server-crash.test).
//
//===----------------------------------------------------------------------===//

#include "Driver/ToolRegistry.h"

#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

constexpr const char *kWorkerFlag = "--qforge-lsp-worker";
/// A document that crashes every new worker ends the relay after this many.
constexpr int kMaxRestarts = 100;

/// Reads one message of the client: `Content-Length` framed, or with
/// -lit-test ended by a `// -----` line (upstream's delimited style).
std::optional<std::string> readClientMessage(std::istream &in, bool delimited) {
  std::string line, json;
  if (delimited) {
    bool any = false;
    while (std::getline(in, line)) {
      any = true;
      llvm::StringRef trimmed = llvm::StringRef(line).trim();
      if (trimmed.starts_with("//")) {
        if (trimmed == "// -----")
          break;
        continue;
      }
      json += line + "\n";
    }
    if (!any)
      return std::nullopt;
    return json;
  }
  size_t length = 0;
  bool sawHeader = false;
  while (std::getline(in, line)) {
    llvm::StringRef header = llvm::StringRef(line).rtrim("\r");
    if (header.empty()) {
      if (sawHeader)
        break;
      continue;
    }
    sawHeader = true;
    if (header.consume_front("Content-Length:"))
      header.trim().getAsInteger(10, length);
  }
  if (!sawHeader)
    return std::nullopt;
  json.resize(length);
  in.read(json.data(), length);
  if (static_cast<size_t>(in.gcount()) != length)
    return std::nullopt;
  return json;
}

/// Reads one `Content-Length` framed message from `fd` (the worker's
/// output); false at its end.
bool readWorkerMessage(int fd, std::string &buffer, std::string &message) {
  while (true) {
    size_t headerEnd = buffer.find("\r\n\r\n");
    if (headerEnd != std::string::npos) {
      size_t length = 0;
      llvm::StringRef headers(buffer.data(), headerEnd);
      size_t at = headers.find("Content-Length:");
      if (at != llvm::StringRef::npos)
        headers.drop_front(at + 15)
            .take_until([](char c) { return c == '\r'; })
            .trim()
            .getAsInteger(10, length);
      if (buffer.size() >= headerEnd + 4 + length) {
        message = buffer.substr(headerEnd + 4, length);
        buffer.erase(0, headerEnd + 4 + length);
        return true;
      }
    }
    char chunk[65536];
    ssize_t count = read(fd, chunk, sizeof(chunk));
    if (count <= 0)
      return false;
    buffer.append(chunk, count);
  }
}

class Relay {
public:
  Relay(std::string self, std::vector<std::string> arguments, bool delimited)
      : self(std::move(self)), arguments(std::move(arguments)),
        delimited(delimited) {}

  int run() {
    if (!startWorker())
      return 1;
    while (std::optional<std::string> message =
               readClientMessage(std::cin, delimited)) {
      if (llvm::StringRef(*message).trim().empty())
        continue;
      std::lock_guard<std::mutex> lock(mutex);
      if (!fromClient(*message))
        break;
    }
    // The client is gone (or said exit): the worker finishes what it was
    // sent -- a worker that crashes on the way is restarted and sent the
    // rest again -- and its reader says when.
    std::unique_lock<std::mutex> lock(mutex);
    clientGone = true;
    close(toWorker);
    toWorker = -1;
    finished.wait(lock, [this] { return done; });
    return 0;
  }

private:
  /// Tracks what a restart replays, then forwards. False after `exit`.
  bool fromClient(const std::string &text) {
    llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      send(text);
      return true;
    }
    const llvm::json::Object *object = parsed->getAsObject();
    std::optional<llvm::StringRef> method =
        object ? object->getString("method") : std::nullopt;
    const llvm::json::Value *id = object ? object->get("id") : nullptr;
    const llvm::json::Object *params =
        object ? object->getObject("params") : nullptr;
    const llvm::json::Object *document =
        params ? params->getObject("textDocument") : nullptr;
    std::optional<llvm::StringRef> uri =
        document ? document->getString("uri") : std::nullopt;
    if (method && *method == "initialize")
      initialize = text;
    else if (method && *method == "initialized")
      initialized = text;
    else if (method && *method == "textDocument/didOpen" && uri) {
      documents[*uri] = *document;
      suspect = uri->str();
    } else if (method && *method == "textDocument/didChange" && uri) {
      auto known = documents.find(*uri);
      const llvm::json::Array *changes = params->getArray("contentChanges");
      if (known != documents.end() && changes && !changes->empty())
        if (const llvm::json::Object *last = changes->back().getAsObject())
          if (std::optional<llvm::StringRef> full = last->getString("text")) {
            known->second["text"] = full->str();
            if (std::optional<int64_t> version =
                    document->getInteger("version"))
              known->second["version"] = *version;
          }
      suspect = uri->str();
      // A document the worker does not hold (it crashed on it before) is
      // opened again with its new text.
      if (dropped.erase(uri->str()) && known != documents.end()) {
        send(didOpen(known->second));
        return true;
      }
    } else if (method && *method == "textDocument/didClose" && uri) {
      documents.erase(*uri);
      dropped.erase(uri->str());
    }
    if (method && id)
      pending[llvm::formatv("{0}", *id).str()] = text;
    bool exit = method && *method == "exit";
    if (exit)
      exitMessage = text;
    send(text);
    return !exit;
  }

  static std::string didOpen(const llvm::json::Object &document) {
    llvm::json::Object message{
        {"jsonrpc", "2.0"},
        {"method", "textDocument/didOpen"},
        {"params",
         llvm::json::Object{{"textDocument", llvm::json::Object(document)}}}};
    return llvm::formatv("{0}", llvm::json::Value(std::move(message))).str();
  }

  /// Writes one message to the worker in the framing it reads.
  void send(const std::string &json) {
    std::string framed =
        delimited ? json + "\n// -----\n"
                  : "Content-Length: " + std::to_string(json.size()) +
                        "\r\n\r\n" + json;
    const char *data = framed.data();
    size_t left = framed.size();
    while (left) {
      ssize_t written = write(toWorker, data, left);
      if (written <= 0)
        return; // the worker died: its reader restarts it
      data += written;
      left -= written;
    }
  }

  /// A message the relay writes itself: pretty-printed as the worker
  /// prints with -lit-test.
  std::string serialize(llvm::json::Object message) const {
    return llvm::formatv(delimited ? "{0:2}" : "{0}",
                         llvm::json::Value(std::move(message)))
        .str();
  }

  void toClient(const std::string &json) {
    std::cout << "Content-Length: " << json.size() << "\r\n\r\n" << json;
    std::cout.flush();
  }

  bool startWorker() {
    int input[2], output[2];
    if (pipe(input) || pipe(output))
      return false;
    pid_t pid = fork();
    if (pid < 0)
      return false;
    if (pid == 0) {
      dup2(input[0], 0);
      dup2(output[1], 1);
      close(input[0]);
      close(input[1]);
      close(output[0]);
      close(output[1]);
      std::vector<char *> argv = {const_cast<char *>(self.c_str()),
                                  const_cast<char *>(kWorkerFlag)};
      for (std::string &argument : arguments)
        argv.push_back(argument.data());
      argv.push_back(nullptr);
      execv(self.c_str(), argv.data());
      _exit(127);
    }
    close(input[0]);
    close(output[1]);
    worker = pid;
    toWorker = input[1];
    int fromWorker = output[0];
    std::thread([this, fromWorker] { relayWorker(fromWorker); }).detach();
    return true;
  }

  /// Forwards the worker's messages; at its end, restarts it unless the
  /// session is over.
  void relayWorker(int fromWorker) {
    std::string buffer, message;
    while (readWorkerMessage(fromWorker, buffer, message)) {
      std::lock_guard<std::mutex> lock(mutex);
      llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(message);
      if (parsed) {
        if (const llvm::json::Object *object = parsed->getAsObject())
          if (const llvm::json::Value *id = object->get("id");
              id && !object->get("method")) {
            std::string key = llvm::formatv("{0}", *id).str();
            pending.erase(key);
            retried.erase(key);
            if (swallowed.erase(key))
              continue; // a replayed initialize's answer
          }
      } else {
        llvm::consumeError(parsed.takeError());
      }
      toClient(message);
    }
    close(fromWorker);
    std::lock_guard<std::mutex> lock(mutex);
    int status = 0;
    waitpid(worker, &status, 0);
    worker = -1;
    // A worker that ended by itself after the client left or said exit is
    // the end of the session; any other end is a crash to recover from.
    bool crashed = WIFSIGNALED(status) ||
                   (WIFEXITED(status) && WEXITSTATUS(status) != 0) ||
                   (!clientGone && exitMessage.empty());
    if (!crashed || !restart(status)) {
      done = true;
      finished.notify_all();
    }
  }

  /// Starts a new worker and replays the session; false when that is not
  /// possible (or a document crashed too many workers).
  bool restart(int status) {
    if (toWorker >= 0)
      close(toWorker);
    toWorker = -1;
    std::string why =
        WIFSIGNALED(status)
            ? std::string(strsignal(WTERMSIG(status)))
            : "exit status " + std::to_string(WEXITSTATUS(status));
    // A request the dead worker had not answered is sent once more after
    // the replay (the document before it crashed the worker, most likely);
    // one pending at a second crash is answered with an error.
    std::vector<std::string> resend;
    for (const auto &[id, text] : pending) {
      if (!retried.count(id)) {
        retried.insert(id);
        resend.push_back(text);
        continue;
      }
      llvm::Expected<llvm::json::Value> key = llvm::json::parse(id);
      llvm::json::Object error{
          {"jsonrpc", "2.0"},
          {"id", key ? std::move(*key) : llvm::json::Value(nullptr)},
          {"error", llvm::json::Object{
                        {"code", -32603},
                        {"message", "qforge-lsp-server: MLIR's language "
                                    "server crashed (" +
                                        why + ") twice on this request"}}}};
      if (!key)
        llvm::consumeError(key.takeError());
      toClient(serialize(std::move(error)));
      retried.erase(id);
    }
    pending.clear();
    if (++restarts > kMaxRestarts || !startWorker())
      return false;
    if (!suspect.empty()) {
      dropped.insert(suspect);
      llvm::json::Object diagnostic{
          {"range",
           llvm::json::Object{
               {"start", llvm::json::Object{{"line", 0}, {"character", 0}}},
               {"end", llvm::json::Object{{"line", 0}, {"character", 0}}}}},
          {"severity", 1},
          {"source", "qforge-lsp-server"},
          {"message", "this document crashed MLIR's language server (" + why +
                          "): deeply nested or corrupted input? The server "
                          "restarted without it; an edit sends it again"}};
      llvm::json::Object publish{
          {"jsonrpc", "2.0"},
          {"method", "textDocument/publishDiagnostics"},
          {"params",
           llvm::json::Object{
               {"uri", suspect},
               {"diagnostics", llvm::json::Array{std::move(diagnostic)}}}}};
      toClient(serialize(std::move(publish)));
    }
    if (!initialize.empty()) {
      if (llvm::Expected<llvm::json::Value> parsed =
              llvm::json::parse(initialize)) {
        if (const llvm::json::Object *object = parsed->getAsObject())
          if (const llvm::json::Value *id = object->get("id"))
            swallowed.insert(llvm::formatv("{0}", *id).str());
      } else {
        llvm::consumeError(parsed.takeError());
      }
      send(initialize);
    }
    if (!initialized.empty())
      send(initialized);
    for (const auto &entry : documents)
      if (!dropped.count(entry.getKey().str()))
        send(didOpen(entry.getValue()));
    suspect.clear();
    for (const std::string &text : resend) {
      if (llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text)) {
        if (const llvm::json::Object *object = parsed->getAsObject())
          if (const llvm::json::Value *id = object->get("id"))
            pending[llvm::formatv("{0}", *id).str()] = text;
      } else {
        llvm::consumeError(parsed.takeError());
      }
      send(text);
    }
    if (!exitMessage.empty())
      send(exitMessage);
    if (clientGone) {
      close(toWorker);
      toWorker = -1;
    }
    return true;
  }

  std::string self;
  std::vector<std::string> arguments;
  bool delimited;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false, clientGone = false;
  std::string exitMessage;
  pid_t worker = -1;
  int toWorker = -1;
  int restarts = 0;
  std::string initialize, initialized, suspect;
  llvm::StringMap<llvm::json::Object> documents;
  /// Requests sent and not yet answered, by id (as JSON text).
  std::map<std::string, std::string> pending;
  std::set<std::string> retried, swallowed, dropped;
};

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && llvm::StringRef(argv[1]) == kWorkerFlag) {
    std::vector<char *> workerArguments = {argv[0]};
    workerArguments.insert(workerArguments.end(), argv + 2, argv + argc);
    int workerArgc = workerArguments.size();
    char **workerArgv = workerArguments.data();
    mlir::DialectRegistry registry;
    qforge::registerToolEverything(registry);
    return mlir::failed(
        mlir::MlirLspServerMain(workerArgc, workerArgv, registry));
  }
  // --help and friends: the worker's own options.
  for (int index = 1; index < argc; ++index)
    if (llvm::StringRef(argv[index]).starts_with("--help") ||
        llvm::StringRef(argv[index]).starts_with("-help") ||
        llvm::StringRef(argv[index]) == "--version") {
      mlir::DialectRegistry registry;
      qforge::registerToolEverything(registry);
      return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
    }
  signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> arguments(argv + 1, argv + argc);
  bool delimited = false;
  for (const std::string &argument : arguments)
    if (argument == "-lit-test" || argument == "--lit-test" ||
        argument == "-input-style=delimited" ||
        argument == "--input-style=delimited")
      delimited = true;
  std::string self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&main));
  return Relay(self, arguments, delimited).run();
}
