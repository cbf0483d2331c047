"""Writes a small GGUF file (version 3), valid or broken in one named way.

usage: write-gguf.py OUT [VARIANT]

The valid file: metadata general.architecture = "llama", general.alignment =
32, an array of strings and one of i32; tensors blk.0.attn_q.weight (q4_K,
256 x 4), blk.0.ffn_down.weight (q8_0, 64 x 3), blk.0.attn_norm.weight (f32,
256) and blk.0.ffn_up.weight (q6_K, 512 x 2), with deterministic bytes.
VARIANT breaks one thing: magic, version, tensor-count, key-length,
alignment, value-type, array-type, dims, negative-dim, type, blocks,
duplicate, misaligned, offset, truncated.
"""
import random
import struct
import sys

# (ggml type id, elements per block, bytes per block)
TYPES = {"f32": (0, 1, 4), "q8_0": (8, 32, 34), "q4_K": (12, 256, 144),
         "q6_K": (14, 256, 210)}


def string(text):
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def write(out, variant):
    tensors = [["blk.0.attn_q.weight", "q4_K", [256, 4]],
               ["blk.0.ffn_down.weight", "q8_0", [64, 3]],
               ["blk.0.attn_norm.weight", "f32", [256]],
               ["blk.0.ffn_up.weight", "q6_K", [512, 2]]]
    alignment = 24 if variant == "alignment" else 32
    if variant == "type":
        tensors[1][1] = "unknown"
    if variant == "blocks":
        tensors[0][2] = [100, 4]
    if variant == "duplicate":
        tensors[3][0] = tensors[0][0]
    if variant == "dims":
        tensors[2][2] = [256, 1, 1, 1, 1]
    if variant == "negative-dim":
        tensors[2][2] = [-256]

    metadata = string("general.architecture") + struct.pack("<I", 8) + string("llama")
    metadata += string("general.alignment") + struct.pack("<II", 4, alignment)
    metadata += string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, 2)
    metadata += string("a") + string("b")
    metadata += string("llama.rope.dims") + struct.pack("<IIQ", 9, 5, 2)
    metadata += struct.pack("<ii", 64, 128)
    keys = 4
    if variant == "value-type":
        metadata += string("general.broken") + struct.pack("<I", 13)
        keys += 1
    if variant == "array-type":
        metadata += string("general.nested") + struct.pack("<IIQ", 9, 9, 1)
        keys += 1
    if variant == "key-length":
        metadata = struct.pack("<Q", 1 << 60) + metadata[8:]

    records = b""
    offset = 0
    sizes = []
    for name, type_name, shape in tensors:
        type_id, block, block_bytes = TYPES.get(type_name, (99, 1, 1))
        elements = 1
        for size in shape:
            elements *= size
        size = max(elements, 0) // block * block_bytes if elements % block == 0 else 0
        record_offset = offset
        if variant == "misaligned" and name == "blk.0.ffn_up.weight":
            record_offset += 8
        if variant == "offset" and name == "blk.0.ffn_up.weight":
            record_offset = 1 << 40
        records += string(name) + struct.pack("<I", len(shape))
        records += b"".join(struct.pack("<q", size) for size in shape)
        records += struct.pack("<IQ", type_id, record_offset)
        sizes.append(size)
        offset += (size + 31) // 32 * 32

    magic = b"GGUX" if variant == "magic" else b"GGUF"
    version = 4 if variant == "version" else 3
    count = 1 << 40 if variant == "tensor-count" else len(tensors)
    header = magic + struct.pack("<IqQ", version, count, keys)
    body = header + metadata + records
    body += b"\0" * (-len(body) % 32)
    generator = random.Random(45)
    for size in sizes:
        body += bytes(generator.randrange(256) for _ in range(size))
        body += b"\0" * (-len(body) % 32)
    if variant == "truncated":
        body = body[:len(body) - 100]
    with open(out, "wb") as file:
        file.write(body)


write(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "valid")
