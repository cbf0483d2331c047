"""Writes a GGUF file (version 3) of weights quantized as llama.cpp does.

usage: write-gguf-weights.py OUT N K [--layer [--q4_K_M | --q4_0]] [--fast]

Tensors: blk.0.attn_q.weight, N x K in q8_0 (each block of 32 weights
quantized from uniform [-1, 1) floats: d = amax / 127 stored as f16,
q = round(w / d), as ggml's quantize_row_q8_0_ref), blk.0.attn_norm.weight
(f32, K), blk.0.ffn_up.weight (q4_K, 256 x 2), blk.0.ffn_down.weight
(q5_K, 256 x 3) and blk.0.attn_v.weight (q6_K, 512 x 3): scale bytes, high
bits and nibbles at random, d and dmin finite. ne[0] is
K, the contiguous dim. With --layer: LLaMA layer 0's seven matmul weights
in q8_0 instead, hidden size K and intermediate size N (attn_q, attn_k,
attn_v, attn_output: K x K; ffn_gate, ffn_up: N x K; ffn_down: K x N), and
the f32 norm; with --q4_K_M, a mix like llama.cpp's Q4_K_M instead: attn_v
and ffn_down in q6_K, the others in q4_K (random valid blocks; K and N
multiples of 256); with --q4_0, all seven in q4_0 (llama.cpp's Q4_0
holds a layer so: random nibbles, d a finite half; K and N multiples of
32). --fast: random quants and valid scales instead of quantizing
(for LLaMA-7B shapes). Deterministic.
"""
import random
import struct
import sys


def string(text):
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def q8_0_rows(generator, n, k):
    if FAST:
        # Random quants, then each block's f16 scale set to one of 64 valid
        # values: what a file may hold, at the speed a 7B layer needs.
        blocks = n * (k // 32)
        data = bytearray(generator.randbytes(blocks * 34))
        scales = [struct.pack("<e", (i + 1) / 8192) for i in range(64)]
        for block in range(blocks):
            data[block * 34:block * 34 + 2] = scales[block % 61]
        return bytes(data)
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


def k_quant_rows(generator, n, block_bytes):
    """n rows of one q4_K (144 bytes) or q5_K (176) super-block: random
    scale bytes, high bits and nibbles, d and dmin finite halves (random f16
    bytes would be NaN or infinite at times)."""
    data = bytearray(generator.randbytes(n * block_bytes))
    for row in range(n):
        data[row * block_bytes:row * block_bytes + 4] = struct.pack(
            "<ee", generator.uniform(-0.01, 0.01), generator.uniform(0, 0.01))
    return bytes(data)


def q6_k_blocks(generator, blocks):
    """q6_K super-blocks (210 bytes): random ql, qh and signed scales, d (at
    byte 208) a finite half."""
    data = bytearray(generator.randbytes(blocks * 210))
    for block in range(blocks):
        data[block * 210 + 208:block * 210 + 210] = struct.pack(
            "<e", generator.uniform(-0.01, 0.01))
    return bytes(data)


def q4_0_blocks(generator, blocks):
    """q4_0 blocks (18 bytes): d (bytes 0-1) a finite half, 16 bytes of
    random nibbles."""
    data = bytearray(generator.randbytes(blocks * 18))
    for block in range(blocks):
        data[block * 18:block * 18 + 2] = struct.pack(
            "<e", generator.uniform(-0.01, 0.01))
    return bytes(data)


def k_quant_matrix(generator, type_id, rows, cols):
    """rows x cols weights in q4_K (type 12) or q6_K (14): random valid
    blocks."""
    blocks = rows * (cols // 256)
    if type_id == 14:
        return q6_k_blocks(generator, blocks)
    return k_quant_rows(generator, blocks, 144)


def main(out, n, k, layer):
    generator = random.Random(24)
    mixes = [mix for mix in ("--q4_K_M", "--q4_0") if mix in sys.argv[4:]]
    if len(mixes) > 1 or (mixes and not layer):
        sys.exit("write-gguf-weights.py: --q4_K_M or --q4_0 (one) with --layer")
    multiple = {"--q4_K_M": 256, "--q4_0": 32}.get(mixes[0] if mixes else "", 32)
    if layer and (n % multiple or k % multiple):
        sys.exit("write-gguf-weights.py: N and K must be multiples of %d"
                 % multiple)
    if layer and "--q4_K_M" in sys.argv[4:]:
        tensors = [("blk.0.%s.weight" % role, type_id, [cols, rows],
                    k_quant_matrix(generator, type_id, rows, cols))
                   for role, type_id, rows, cols in [
                       ("attn_q", 12, k, k), ("attn_k", 12, k, k),
                       ("attn_v", 14, k, k), ("attn_output", 12, k, k),
                       ("ffn_gate", 12, n, k), ("ffn_up", 12, n, k),
                       ("ffn_down", 14, k, n)]]
        tensors.append(("blk.0.attn_norm.weight", 0, [k],
                        b"".join(struct.pack("<f", generator.uniform(-1, 1))
                                 for _ in range(k))))
        return write(out, tensors)
    if layer:
        # q8_0 (type 8) unless --q4_0 (type 2).
        q4_0 = "--q4_0" in sys.argv[4:]
        tensors = [("blk.0.%s.weight" % role, 2 if q4_0 else 8, [cols, rows],
                    q4_0_blocks(generator, rows * (cols // 32)) if q4_0
                    else q8_0_rows(generator, rows, cols))
                   for role, rows, cols in [("attn_q", k, k), ("attn_k", k, k),
                                            ("attn_v", k, k), ("attn_output", k, k),
                                            ("ffn_gate", n, k), ("ffn_up", n, k),
                                            ("ffn_down", k, n)]]
        tensors.append(("blk.0.attn_norm.weight", 0, [k],
                        b"".join(struct.pack("<f", generator.uniform(-1, 1))
                                 for _ in range(k))))
        return write(out, tensors)
    tensors = [("blk.0.attn_q.weight", 8, [k, n], q8_0_rows(generator, n, k)),
               ("blk.0.attn_norm.weight", 0, [k],
                b"".join(struct.pack("<f", generator.uniform(-1, 1)) for _ in range(k))),
               ("blk.0.ffn_up.weight", 12, [256, 2], k_quant_rows(generator, 2, 144)),
               ("blk.0.ffn_down.weight", 13, [256, 3], k_quant_rows(generator, 3, 176)),
               ("blk.0.attn_v.weight", 14, [512, 3], q6_k_blocks(generator, 6))]
    write(out, tensors)


def write(out, tensors):
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


FAST = "--fast" in sys.argv[4:]
main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), "--layer" in sys.argv[4:])
