"""Writes a GGUF file (version 3) of weights quantized as llama.cpp does.

usage: write-gguf-weights.py OUT N K

Tensors: blk.0.attn_q.weight, N x K in q8_0 (each block of 32 weights
quantized from uniform [-1, 1) floats: d = amax / 127 stored as f16,
q = round(w / d), as ggml's quantize_row_q8_0_ref), blk.0.attn_norm.weight
(f32, K) and blk.0.ffn_up.weight (q4_K, 256 x 2, bytes at random). ne[0] is
K, the contiguous dim. Deterministic.
"""
import random
import struct
import sys


def string(text):
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def q8_0_rows(generator, n, k):
    data = bytearray()
    for _ in range(n):
        for _ in range(k // 32):
            weights = [generator.uniform(-1, 1) for _ in range(32)]
            amax = max(abs(w) for w in weights)
            d = amax / 127 if amax else 0.0
            inverse = 1 / d if d else 0.0
            data += struct.pack("<e", d)
            data += bytes((round(w * inverse) & 0xFF) for w in weights)
    return bytes(data)


def main(out, n, k):
    generator = random.Random(24)
    tensors = [("blk.0.attn_q.weight", 8, [k, n], q8_0_rows(generator, n, k)),
               ("blk.0.attn_norm.weight", 0, [k],
                b"".join(struct.pack("<f", generator.uniform(-1, 1)) for _ in range(k))),
               ("blk.0.ffn_up.weight", 12, [256, 2],
                bytes(generator.randrange(256) for _ in range(2 * 144)))]
    metadata = string("general.architecture") + struct.pack("<I", 8) + string("llama")
    records = b""
    offset = 0
    for name, type_id, shape, data in tensors:
        records += string(name) + struct.pack("<I", len(shape))
        records += b"".join(struct.pack("<q", size) for size in shape)
        records += struct.pack("<IQ", type_id, offset)
        offset += (len(data) + 31) // 32 * 32
    body = b"GGUF" + struct.pack("<IqQ", 3, len(tensors), 1) + metadata + records
    body += b"\0" * (-len(body) % 32)
    for _, _, _, data in tensors:
        body += data + b"\0" * (-len(data) % 32)
    with open(out, "wb") as file:
        file.write(body)


main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
