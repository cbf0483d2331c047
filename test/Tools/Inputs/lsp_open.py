#!/usr/bin/env python3
"""Writes an LSP session for `<server> -lit-test`: initialize, open the
file given (its real path as the document's URI, its text as the
document), shutdown, exit."""
import json
import os
import sys

path = os.path.realpath(sys.argv[1])
language = sys.argv[2] if len(sys.argv) > 2 else "pdll"
messages = [
    {"jsonrpc": "2.0", "id": 0, "method": "initialize",
     "params": {"processId": 123, "rootUri": "test:///workspace",
                "capabilities": {}, "trace": "off"}},
    {"jsonrpc": "2.0", "method": "textDocument/didOpen",
     "params": {"textDocument": {"uri": "file://" + path, "languageId": language,
                                 "version": 1, "text": open(path).read()}}},
    {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
    {"jsonrpc": "2.0", "method": "exit"},
]
print("\n// -----\n".join(json.dumps(m) for m in messages))
