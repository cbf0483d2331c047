"""Writes an LSP session (upstream's -lit-test delimited style) in which the
second document opened -- N nested scf.execute_region regions, argv[1] --
crashes MLIR's language server, and a request on the first follows
(test/Tools/lsp-server-crash.test)."""
import json
import sys

depth = int(sys.argv[1])
nested = ["func.func @nested() -> i32 {"]
nested += [f"%v{level} = scf.execute_region -> i32 {{" for level in range(depth)]
nested += ["%c = arith.constant 0 : i32", "scf.yield %c : i32"]
for level in reversed(range(depth)):
    nested.append("}")
    if level:
        nested.append(f"scf.yield %v{level} : i32")
nested += ["return %v0 : i32", "}"]
good = "func.func @good(%a: i32) -> i32 {\n  return %a : i32\n}\n"


def open_document(uri, text):
    return {"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "mlir",
                                        "version": 1, "text": text}}}


messages = [
    {"jsonrpc": "2.0", "id": 0, "method": "initialize",
     "params": {"processId": 123, "rootUri": "test:///workspace",
                "capabilities": {}, "trace": "off"}},
    open_document("test:///good.mlir", good),
    open_document("test:///nested.mlir", "\n".join(nested) + "\n"),
    {"jsonrpc": "2.0", "id": 5, "method": "textDocument/documentSymbol",
     "params": {"textDocument": {"uri": "test:///good.mlir"}}},
    {"jsonrpc": "2.0", "id": 9, "method": "shutdown"},
    {"jsonrpc": "2.0", "method": "exit"},
]
print("\n// -----\n".join(json.dumps(message) for message in messages))
