"""Writes and reads GGUF files with ggml's own gguf_* functions.

usage: gguf-ggml-round-trip.py write GGML_DIR OUT
       gguf-ggml-round-trip.py list GGML_DIR FILE

write: a GGUF file by ggml's writer (gguf_init_empty, gguf_add_tensor,
gguf_write_to_file), its tensors quantized by ggml itself
(ggml_quantize_chunk) from deterministic uniform [-1, 1) floats:
blk.0.attn_q.weight (q8_0, 256 x 37), blk.0.attn_norm.weight (f32, 256),
blk.0.ffn_up.weight (q4_K, 512 x 3), blk.0.ffn_down.weight (q5_K, 256 x 5),
blk.0.attn_v.weight (q6_K, 768 x 2), blk.0.attn_k.weight (q4_0, 64 x 3),
and general.architecture = "llama".

list: every tensor as ggml's reader (gguf_init_from_file) sees it, one line
each as qforge-gguf --list prints its tensor lines (whitespace aside):
name, type, ne0 [x ne1], "offset", absolute byte offset, size, "bytes".

libggml-base.so is called without its headers (ctypes): the structs passed
by value are declared here as ggml declares them (ggml.h, gguf.h).
"""
import ctypes
import os
import random
import struct
import sys


class InitParams(ctypes.Structure):
    # struct ggml_init_params { size_t mem_size; void *mem_buffer; bool no_alloc; }
    _fields_ = [("mem_size", ctypes.c_size_t), ("mem_buffer", ctypes.c_void_p),
                ("no_alloc", ctypes.c_bool)]


class GgufInitParams(ctypes.Structure):
    # struct gguf_init_params { bool no_alloc; struct ggml_context **ctx; }
    _fields_ = [("no_alloc", ctypes.c_bool), ("ctx", ctypes.POINTER(ctypes.c_void_p))]


# enum ggml_type
TYPES = {"f32": 0, "q4_0": 2, "q8_0": 8, "q4_K": 12, "q5_K": 13, "q6_K": 14}

TENSORS = [
    ("blk.0.attn_q.weight", "q8_0", 256, 37),
    ("blk.0.attn_norm.weight", "f32", 256, None),
    ("blk.0.ffn_up.weight", "q4_K", 512, 3),
    ("blk.0.ffn_down.weight", "q5_K", 256, 5),
    ("blk.0.attn_v.weight", "q6_K", 768, 2),
    ("blk.0.attn_k.weight", "q4_0", 64, 3),
]


def load(directory):
    lib = ctypes.CDLL(os.path.join(directory, "libggml-base.so"))
    p, i64, sz, c = ctypes.c_void_p, ctypes.c_int64, ctypes.c_size_t, ctypes.c_char_p
    signatures = {
        "ggml_init": (p, [InitParams]),
        "ggml_free": (None, [p]),
        "ggml_new_tensor_1d": (p, [p, ctypes.c_int, i64]),
        "ggml_new_tensor_2d": (p, [p, ctypes.c_int, i64, i64]),
        "ggml_set_name": (p, [p, c]),
        "ggml_get_data": (p, [p]),
        "ggml_get_tensor": (p, [p, c]),
        "ggml_nelements": (i64, [p]),
        "ggml_nrows": (i64, [p]),
        "ggml_type_name": (c, [ctypes.c_int]),
        "ggml_quantize_chunk": (sz, [ctypes.c_int, ctypes.POINTER(ctypes.c_float), p,
                                     i64, i64, i64, p]),
        "gguf_init_empty": (p, []),
        "gguf_init_from_file": (p, [c, GgufInitParams]),
        "gguf_free": (None, [p]),
        "gguf_set_val_str": (None, [p, c, c]),
        "gguf_add_tensor": (None, [p, p]),
        "gguf_write_to_file": (ctypes.c_bool, [p, c, ctypes.c_bool]),
        "gguf_get_n_tensors": (i64, [p]),
        "gguf_get_tensor_name": (c, [p, i64]),
        "gguf_get_tensor_type": (ctypes.c_int, [p, i64]),
        "gguf_get_tensor_offset": (sz, [p, i64]),
        "gguf_get_tensor_size": (sz, [p, i64]),
        "gguf_get_data_offset": (sz, [p]),
    }
    for name, (result, arguments) in signatures.items():
        function = getattr(lib, name)
        function.restype = result
        function.argtypes = arguments
    return lib


def write(lib, out):
    ctx = lib.ggml_init(InitParams(64 << 20, None, False))
    if not ctx:
        sys.exit("ggml_init failed")
    gguf = lib.gguf_init_empty()
    lib.gguf_set_val_str(gguf, b"general.architecture", b"llama")
    generator = random.Random(45)
    for name, type_name, ne0, ne1 in TENSORS:
        type_id = TYPES[type_name]
        rows = ne1 or 1
        if ne1 is None:
            tensor = lib.ggml_new_tensor_1d(ctx, type_id, ne0)
        else:
            tensor = lib.ggml_new_tensor_2d(ctx, type_id, ne0, ne1)
        lib.ggml_set_name(tensor, name.encode())
        values = (ctypes.c_float * (ne0 * rows))(
            *[generator.uniform(-1.0, 1.0) for _ in range(ne0 * rows)])
        data = lib.ggml_get_data(tensor)
        if type_name == "f32":
            ctypes.memmove(data, values, ne0 * rows * 4)
        else:
            lib.ggml_quantize_chunk(type_id, values, data, 0, rows, ne0, None)
        lib.gguf_add_tensor(gguf, tensor)
    if not lib.gguf_write_to_file(gguf, out.encode(), False):
        sys.exit("gguf_write_to_file failed")
    lib.gguf_free(gguf)
    lib.ggml_free(ctx)


def list_tensors(lib, path):
    meta = ctypes.c_void_p()
    gguf = lib.gguf_init_from_file(path.encode(),
                                   GgufInitParams(True, ctypes.pointer(meta)))
    if not gguf:
        sys.exit("gguf_init_from_file failed on " + path)
    base = lib.gguf_get_data_offset(gguf)
    for index in range(lib.gguf_get_n_tensors(gguf)):
        name = lib.gguf_get_tensor_name(gguf, index)
        tensor = lib.ggml_get_tensor(meta, name)
        rows = lib.ggml_nrows(tensor)
        ne0 = lib.ggml_nelements(tensor) // rows
        shape = str(ne0) if rows == 1 else "%d x %d" % (ne0, rows)
        type_name = lib.ggml_type_name(lib.gguf_get_tensor_type(gguf, index))
        print("%s %s %s offset %d %d bytes" % (
            name.decode(), type_name.decode(), shape,
            base + lib.gguf_get_tensor_offset(gguf, index),
            lib.gguf_get_tensor_size(gguf, index)))
    lib.gguf_free(gguf)
    lib.ggml_free(meta)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("write", "list"):
        sys.exit(__doc__)
    lib = load(sys.argv[2])
    if sys.argv[1] == "write":
        write(lib, sys.argv[3])
    else:
        list_tensors(lib, sys.argv[3])


main()
