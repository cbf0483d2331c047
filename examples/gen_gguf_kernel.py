#!/usr/bin/env python3
"""Writes y = x . W^T for a weight matrix W stored in a llama.cpp block type.

W is N rows of K weights, each row K/QK blocks of the type (GGUF's layout,
docs/gguf.md). Two forms:

  blocks (default): the weight argument is the blocks exactly as a GGUF file
      stores them, tensor<N x K/QK x BYTES x i8> (array of structs), marked
      {qforge.gguf_type = "<type>"}; the dequantization reads the quants
      through a tensor.extract_slice of each block and joins the f16 scale
      from its two bytes (zero-extended, hi << 8 | lo, bitcast to f16) in
      upstream linalg/arith.
  --fields: the fields as separate tensors, as a producer that splits them
      would pass them: the quants tensor<N x K/QK x QK x i8> and the scales
      tensor<N x K/QK x f16>, marked {qforge.gguf_field = "<type>.qs"} and
      "<type>.d" (qforge-bench --oracle=ggml joins them into blocks); the
      K-quants' fields are ggml's struct members: q4_K d, dmin (f16
      N x K/256), scales (N x K/256 x 12 bytes), qs (x 128); q5_K the same
      and qh (x 32); q6_K ql (x 128), qh (x 64), scales (x 16), d.

The activation x is M x K f32 (M = 1: a decode; --batch M; --dynamic: M
known only at run time), read as M x K/QK x QK through tensor.expand_shape.

Types: q8_0 (y = d * q, q a signed byte; both forms) and q4_0 (quants
N x K/32 x 16 bytes, byte j holding element j in its low nibble and j + 16
in its high one, y = d * (nibble - 8)). With --fields, q4_0's
dequantization is written on the byte pairs (the nibble a loop dim, as
qforge stores i4, docs/abi.md; the function carries
qforge.int4_byte_pairs), and x is read through a transpose of each block's
two halves (x[g, h, j] -> [g, j, h]), so that element (j, h) of the pair
meets x[16h + j]. Its blocks in place (18 bytes: d @0, quants @2) are
written in the two-level form below over (n, b, h, l), the nibble half h a
group dim: s = d and o = 8 * d per half-block, the weight s * q - o.

q4_K (blocks in place only, so far): a 144-byte super-block of 256 weights,
d and dmin f16 at bytes 0 and 2, twelve bytes of 6-bit scales and mins, 128
bytes of nibbles; sub-block j = 4hs + 2cc + h (three bits) holds elements
32j + l, nibble h of byte 64hs + 32cc + l, whose weight is
d * sc[j] * q - dmin * m[j]. Written as llama.cpp's two-level form: the
nibble half h stays a loop dim (a byte's two nibbles sit in two sub-blocks),
each sub-block's scale d * sc and offset dmin * m are elementwise generics
over (n, b, hs, cc, h) reading the scale bytes as three rows of four through
projected permutations (a strategy decodes a super-block's eight at once),
and the dequantization s * q - o keeps the offset an offset.

q5_K: the same with 32 bytes qh at 16 (nibbles at 48), bit j of qh[l] adding
16 to element (hs, cc, h, l)'s nibble: one more input of q.

q6_K: a 210-byte super-block of 256 weights, ql (128 bytes of low nibbles)
at 0, qh (64 bytes of 2-bit highs) at 128, sixteen signed 8-bit scales at
192, d (f16) at 208; sub-blocks of 16. Element 128h + 64k1 + 32k0 + 16l1 + l0
is q = nibble k1 of ql[64h + 32k0 + 16l1 + l0] | bits 4k1 + 2k0 of
qh[32h + 16l1 + l0] << 4 (6 bits, unsigned), in sub-block 8h + 4k1 + 2k0 + l1
of scale s = d * sc, and its weight d * sc * (q - 32) = s * q - o with the
offset o = 32 * s: the two-level form over (n, b, h, k1, k0, l1, l0).
"""
import argparse

BLOCKS = {"q8_0": (32, 34), "q4_0": (32, 18), "q4_K": (256, 144),
          "q5_K": (256, 176), "q6_K": (256, 210)}

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("type", choices=sorted(BLOCKS))
parser.add_argument("n", type=int)
parser.add_argument("k", type=int)
parser.add_argument("--batch", type=int, default=1, metavar="M")
parser.add_argument("--dynamic", action="store_true")
parser.add_argument("--fields", action="store_true")
parser.add_argument("--name", default="gguf_matmul")
args = parser.parse_args()

qk, block_bytes = BLOCKS[args.type]
if args.k % qk:
    parser.error(f"K = {args.k} is not a multiple of {args.type}'s {qk}")
n, k, g = args.n, args.k, args.k // qk
m = "?" if args.dynamic else args.batch

blocks_type = f"tensor<{n}x{g}x{block_bytes}xi8>"

lines = []
emit = lines.append


def emit_heading():
    """The kernel's first line: the shape, the type and the form."""
    form = "fields as separate tensors" if args.fields else "blocks read in place"
    emit(f"// y = x . W^T, W {n} x {k} in {args.type} ({form}); "
         "written by examples/gen_gguf_kernel.py.")


def field(name, ty):
    """A function parameter holding the block field `name` (--fields)."""
    return f"%{name}: {ty} {{qforge.gguf_field = \"{args.type}.{name}\"}}"


def emit_half_from_bytes(result, blocks, low_byte):
    """%result = the f16 at bytes low_byte, low_byte + 1 of each block."""
    emit(f"  %{result}_init = tensor.empty() : tensor<{n}x{g}xf16>")
    emit(f"  %{result} = linalg.generic {{indexing_maps = [affine_map<(n, g) -> (n, g, {low_byte})>, "
         f"affine_map<(n, g) -> (n, g, {low_byte + 1})>, affine_map<(n, g) -> (n, g)>],"
         " iterator_types = [\"parallel\", \"parallel\"]}")
    emit(f"      ins(%{blocks}, %{blocks} : {blocks_type}, "
         f"{blocks_type}) outs(%{result}_init : tensor<{n}x{g}xf16>) {{")
    emit("  ^bb0(%lo: i8, %hi: i8, %unused: f16):")
    emit("    %lo16 = arith.extui %lo : i8 to i16")
    emit("    %hi16 = arith.extui %hi : i8 to i16")
    emit("    %c8 = arith.constant 8 : i16")
    emit("    %high = arith.shli %hi16, %c8 : i16")
    emit("    %bits = arith.ori %high, %lo16 : i16")
    emit("    %half = arith.bitcast %bits : i16 to f16")
    emit("    linalg.yield %half : f16")
    emit(f"  }} -> tensor<{n}x{g}xf16>")


def emit_contraction(x, x_type, w, w_type, y_type, dims, maps, parallel, reductions):
    """%y = sum of x * w into a zero-filled y_type: the contraction generic of
    `maps` with `parallel` then `reductions` loops, body out + x * w."""
    iterators = ", ".join(['"parallel"'] * parallel + ['"reduction"'] * reductions)
    emit("  %zero = arith.constant 0.0 : f32")
    emit(f"  %y_init = tensor.empty{dims} : {y_type}")
    emit(f"  %acc = linalg.fill ins(%zero : f32) outs(%y_init : {y_type}) -> {y_type}")
    emit(f"  %y = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iterators}]}}")
    emit(f"      ins({x}, {w} : {x_type}, {w_type}) outs(%acc : {y_type}) {{")
    emit("  ^bb0(%a: f32, %b: f32, %out: f32):")
    emit("    %product = arith.mulf %a, %b : f32")
    emit("    %sum = arith.addf %out, %product : f32")
    emit("    linalg.yield %sum : f32")
    emit(f"  }} -> {y_type}")


def finish_two_level(tw, dims, shape):
    """The end of a two-level dequantization whose body computed %q, %s and
    %o (s * q - o, its result tw), x read as M x K/256 x `shape` (the
    sub-block dims `dims` and the elements, after the super-block b), the
    contraction over b and those, and the function's end."""
    output_m = "%m" if args.dynamic else str(m)
    emit("    %sq = arith.mulf %q, %s : f32")
    emit("    %value = arith.subf %sq, %o : f32")
    emit("    linalg.yield %value : f32")
    emit(f"  }} -> {tw}")
    tx = f"tensor<{m}x{g}x" + "x".join(map(str, shape)) + "xf32>"
    reassociation = ", ".join(str(i) for i in range(1, len(shape) + 2))
    emit(f"  %xe = tensor.expand_shape %x [[0], [{reassociation}]] output_shape "
         f"[{output_m}, {g}, " + ", ".join(map(str, shape)) + f"] : tensor<{m}x{k}xf32> into {tx}")
    group = ", ".join(["b"] + dims)
    loops = f"(m, n, {group})"
    emit_contraction("%xe", tx, "%w", tw, f"tensor<{m}x{n}xf32>",
                     "(%m)" if args.dynamic else "()",
                     f"affine_map<{loops} -> (m, {group})>, "
                     f"affine_map<{loops} -> (n, {group})>, "
                     f"affine_map<{loops} -> (m, n)>", 2, len(dims) + 1)
    emit(f"  return %y : tensor<{m}x{n}xf32>")
    emit("}")
    print("\n".join(lines))
    raise SystemExit(0)


if args.type == "q6_K":
    # Super-block b: ql (128 bytes) @0, qh (64) @128, scales (16 x i8) @192,
    # d (f16) @208. Dims (n, b, h, k1, k0, l1, l0), element
    # 128h + 64k1 + 32k0 + 16l1 + l0: nibble k1 of ql[64h + 32k0 + 16l1 + l0],
    # bits 4k1 + 2k0 of qh[32h + 16l1 + l0] as 16 and 32, sub-block
    # 8h + 4k1 + 2k0 + l1 (ggml's dequantize_row_q6_K: q1..q4 are k = 2k1 + k0).
    emit_heading()
    if args.fields:
        params = ", ".join([field("ql", f"tensor<{n}x{g}x128xi8>"), field("qh", f"tensor<{n}x{g}x64xi8>"),
                            field("scales", f"tensor<{n}x{g}x16xi8>"), field("d", f"tensor<{n}x{g}xf16>")])
    else:
        params = f"%blocks: {blocks_type} {{qforge.gguf_type = \"q6_K\"}}"
    emit(f"func.func @{args.name}({params}, "
         f"%x: tensor<{m}x{k}xf32>) -> tensor<{m}x{n}xf32> {{")
    if args.dynamic:
        emit("  %c0 = arith.constant 0 : index")
        emit(f"  %m = tensor.dim %x, %c0 : tensor<?x{k}xf32>")
    ts = f"tensor<{n}x{g}x2x2x2x2xi8>"
    t6 = f"tensor<{n}x{g}x2x2x2x2xf32>"
    if not args.fields:
        emit_half_from_bytes("d", "blocks", 208)
        emit(f"  %sc_bytes = tensor.extract_slice %blocks[0, 0, 192] [{n}, {g}, 16] [1, 1, 1]"
             f" : {blocks_type} to tensor<{n}x{g}x16xi8>")
    sc_source = "%scales" if args.fields else "%sc_bytes"
    emit(f"  %sc = tensor.expand_shape {sc_source} [[0], [1], [2, 3, 4, 5]] output_shape [{n}, {g}, 2, 2, 2, 2]"
         f" : tensor<{n}x{g}x16xi8> into {ts}")
    s_maps = ("affine_map<(n, b, h, k1, k0, l1) -> (n, b, h, k1, k0, l1)>, "
              "affine_map<(n, b, h, k1, k0, l1) -> (n, b)>, "
              "affine_map<(n, b, h, k1, k0, l1) -> (n, b, h, k1, k0, l1)>")
    # Scale d * sc and offset 32 * d * sc (exact: a power of two), each an
    # elementwise generic over the sub-blocks (n, b, h, k1, k0, l1).
    for result, factor in (("scale", None), ("offset", "32.0")):
        emit(f"  %{result}_init = tensor.empty() : {t6}")
        emit(f"  %{result} = linalg.generic {{indexing_maps = [{s_maps}],"
             " iterator_types = [" + ", ".join(['\"parallel\"'] * 6) + "]}")
        emit(f"      ins(%sc, %d : {ts}, tensor<{n}x{g}xf16>) outs(%{result}_init : {t6}) {{")
        emit("  ^bb0(%sub: i8, %super: f16, %unused: f32):")
        emit("    %subf = arith.sitofp %sub : i8 to f32")
        emit("    %superf = arith.extf %super : f16 to f32")
        if factor:
            emit("    %s = arith.mulf %superf, %subf : f32")
            emit(f"    %c32f = arith.constant {factor} : f32")
            emit("    %value = arith.mulf %s, %c32f : f32")
        else:
            emit("    %value = arith.mulf %superf, %subf : f32")
        emit("    linalg.yield %value : f32")
        emit(f"  }} -> {t6}")
    tl = f"tensor<{n}x{g}x2x2x2x16xi8>"
    th = f"tensor<{n}x{g}x2x2x16xi8>"
    tw = f"tensor<{n}x{g}x2x2x2x2x16xf32>"
    if not args.fields:
        emit(f"  %ql_bytes = tensor.extract_slice %blocks[0, 0, 0] [{n}, {g}, 128] [1, 1, 1]"
             f" : {blocks_type} to tensor<{n}x{g}x128xi8>")
        emit(f"  %qh_bytes = tensor.extract_slice %blocks[0, 0, 128] [{n}, {g}, 64] [1, 1, 1]"
             f" : {blocks_type} to tensor<{n}x{g}x64xi8>")
    ql_source, qh_source = ("%ql", "%qh") if args.fields else ("%ql_bytes", "%qh_bytes")
    emit(f"  %ql4 = tensor.expand_shape {ql_source} [[0], [1], [2, 3, 4, 5]] output_shape [{n}, {g}, 2, 2, 2, 16]"
         f" : tensor<{n}x{g}x128xi8> into {tl}")
    emit(f"  %qh3 = tensor.expand_shape {qh_source} [[0], [1], [2, 3, 4]] output_shape [{n}, {g}, 2, 2, 16]"
         f" : tensor<{n}x{g}x64xi8> into {th}")
    emit("  %c2 = arith.constant 2 : i8")
    emit("  %c3 = arith.constant 3 : i8")
    emit("  %c4 = arith.constant 4 : i8")
    emit("  %c15 = arith.constant 15 : i8")
    emit(f"  %w_init = tensor.empty() : {tw}")
    emit("  // Element (h, k1, k0, l1, l0): nibble k1 of ql[h, k0, l1, l0], bits")
    emit("  // 4k1 + 2k0 of qh[h, l1, l0] above it, s * q - o of its sub-block.")
    w_dims = "(n, b, h, k1, k0, l1, l0)"
    emit("  %w = linalg.generic {indexing_maps = ["
         f"affine_map<{w_dims} -> (n, b, h, k0, l1, l0)>, "
         f"affine_map<{w_dims} -> (n, b, h, l1, l0)>, "
         f"affine_map<{w_dims} -> (n, b, h, k1, k0, l1)>, "
         f"affine_map<{w_dims} -> (n, b, h, k1, k0, l1)>, "
         f"affine_map<{w_dims} -> (n, b, h, k1, k0, l1, l0)>],"
         " iterator_types = [" + ", ".join(['\"parallel\"'] * 7) + "]}")
    emit(f"      ins(%ql4, %qh3, %scale, %offset : {tl}, {th}, {t6}, {t6}) outs(%w_init : {tw}) {{")
    emit("  ^bb0(%low: i8, %high: i8, %s: f32, %o: f32, %unused: f32):")
    emit("    %k1 = linalg.index 3 : index")
    emit("    %k0 = linalg.index 4 : index")
    emit("    %k1_8 = arith.index_cast %k1 : index to i8")
    emit("    %k0_8 = arith.index_cast %k0 : index to i8")
    emit("    %nibble_shift = arith.muli %k1_8, %c4 : i8")
    emit("    %low_shifted = arith.shrui %low, %nibble_shift : i8")
    emit("    %nibble = arith.andi %low_shifted, %c15 : i8")
    emit("    %k0_2 = arith.muli %k0_8, %c2 : i8")
    emit("    %high_shift = arith.addi %nibble_shift, %k0_2 : i8")
    emit("    %high_shifted = arith.shrui %high, %high_shift : i8")
    emit("    %two_bits = arith.andi %high_shifted, %c3 : i8")
    emit("    %top = arith.shli %two_bits, %c4 : i8")
    emit("    %six = arith.ori %nibble, %top : i8")
    emit("    %q = arith.uitofp %six : i8 to f32")
    finish_two_level(tw, ["h", "k1", "k0", "l1", "l0"], [2, 2, 2, 2, 16])
if args.type == "q4_0" and not args.fields:
    # Block b of 32: d (f16) @0, 16 bytes of nibbles @2. Element 16h + l is
    # nibble h of qs[l] (a byte's two nibbles 16 elements apart), weight
    # d * (q - 8) = s * q - o with s = d and o = 8 * d per (block, half):
    # the two-level form over (n, b, h, l), the half a group dim, so the
    # two-level strategies read the blocks in place.
    emit_heading()
    emit(f"func.func @{args.name}(%blocks: {blocks_type} {{qforge.gguf_type = \"q4_0\"}}, "
         f"%x: tensor<{m}x{k}xf32>) -> tensor<{m}x{n}xf32> {{")
    if args.dynamic:
        emit("  %c0 = arith.constant 0 : index")
        emit(f"  %m = tensor.dim %x, %c0 : tensor<?x{k}xf32>")
    emit_half_from_bytes("d", "blocks", 0)
    th = f"tensor<{n}x{g}x2xf32>"
    # Scale d and offset 8 * d (exact) per (n, b, h).
    for result, factor in (("scale", None), ("offset", "8.0")):
        emit(f"  %{result}_init = tensor.empty() : {th}")
        emit(f"  %{result} = linalg.generic {{indexing_maps = [affine_map<(n, b, h) -> (n, b)>, "
             "affine_map<(n, b, h) -> (n, b, h)>], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}")
        emit(f"      ins(%d : tensor<{n}x{g}xf16>) outs(%{result}_init : {th}) {{")
        emit("  ^bb0(%super: f16, %unused: f32):")
        emit("    %superf = arith.extf %super : f16 to f32")
        if factor:
            emit(f"    %c8f = arith.constant {factor} : f32")
            emit("    %value = arith.mulf %superf, %c8f : f32")
            emit("    linalg.yield %value : f32")
        else:
            emit("    linalg.yield %superf : f32")
        emit(f"  }} -> {th}")
    tq = f"tensor<{n}x{g}x16xi8>"
    tw = f"tensor<{n}x{g}x2x16xf32>"
    emit(f"  %qs = tensor.extract_slice %blocks[0, 0, 2] [{n}, {g}, 16] [1, 1, 1]"
         f" : {blocks_type} to {tq}")
    emit("  %c4 = arith.constant 4 : i8")
    emit("  %c15 = arith.constant 15 : i8")
    emit(f"  %w_init = tensor.empty() : {tw}")
    emit("  // Element (h, l): nibble h of qs[l], s * q - o of its half-block.")
    w_dims = "(n, b, h, l)"
    emit("  %w = linalg.generic {indexing_maps = ["
         f"affine_map<{w_dims} -> (n, b, l)>, "
         f"affine_map<{w_dims} -> (n, b, h)>, "
         f"affine_map<{w_dims} -> (n, b, h)>, "
         f"affine_map<{w_dims} -> (n, b, h, l)>],"
         " iterator_types = [" + ", ".join(['\"parallel\"'] * 4) + "]}")
    emit(f"      ins(%qs, %scale, %offset : {tq}, {th}, {th}) outs(%w_init : {tw}) {{")
    emit("  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):")
    emit("    %nibble_half = linalg.index 2 : index")
    emit("    %nibble_half8 = arith.index_cast %nibble_half : index to i8")
    emit("    %shift = arith.muli %nibble_half8, %c4 : i8")
    emit("    %shifted = arith.shrui %byte, %shift : i8")
    emit("    %nibble = arith.andi %shifted, %c15 : i8")
    emit("    %q = arith.uitofp %nibble : i8 to f32")
    finish_two_level(tw, ["h", "l"], [2, 16])
if args.type in ("q4_K", "q5_K"):
    # Super-block b of 256: d @0, dmin @2 (f16), scales @4 (12 bytes), qs
    # (128 bytes) @16 -- q5_K: qh (32 bytes) @16, qs @48. Element
    # 64c + 32h + l is nibble h of qs[32c + l] (q5_K: plus 16 if bit 2c + h
    # of qh[l] is set), in sub-block s = 2c + h of scale d * sc[s] and
    # offset dmin * m[s].
    fifth_bit = args.type == "q5_K"
    qs_offset = 48 if fifth_bit else 16
    emit_heading()
    if args.fields:
        fields = [field("d", f"tensor<{n}x{g}xf16>"), field("dmin", f"tensor<{n}x{g}xf16>"),
                  field("scales", f"tensor<{n}x{g}x12xi8>")]
        if fifth_bit:
            fields.append(field("qh", f"tensor<{n}x{g}x32xi8>"))
        fields.append(field("qs", f"tensor<{n}x{g}x128xi8>"))
        params = ", ".join(fields)
    else:
        params = f"%blocks: {blocks_type} {{qforge.gguf_type = \"{args.type}\"}}"
    emit(f"func.func @{args.name}({params}, "
         f"%x: tensor<{m}x{k}xf32>) -> tensor<{m}x{n}xf32> {{")
    if args.dynamic:
        emit("  %c0 = arith.constant 0 : index")
        emit(f"  %m = tensor.dim %x, %c0 : tensor<?x{k}xf32>")
    if not args.fields:
        emit_half_from_bytes("d", "blocks", 0)
        emit_half_from_bytes("dmin", "blocks", 2)
    # The 12 scale bytes as three rows of four, R0 = S[0..3], R1 = S[4..7],
    # R2 = S[8..11], each (t = 2cc + h) expanded to (cc, h); sub-block
    # j = 4hs + t:
    #   hs = 0: sc = R0[t] & 63,                        m = R1[t] & 63
    #   hs = 1: sc = (R2[t] & 15) | (R0[t] >> 6) << 4,  m = (R2[t] >> 4) | (R1[t] >> 6) << 4
    # (llama.cpp's get_scale_min_k4). Scale d * sc and offset dmin * m are
    # one elementwise generic each over (n, b, hs, cc, h), every input read
    # through a projected permutation: a strategy decodes a super-block's
    # eight as one vector, or one where it reads it.
    t4 = f"tensor<{n}x{g}x4xi8>"
    t22 = f"tensor<{n}x{g}x2x2xi8>"
    for row in range(3):
        if args.fields:
            emit(f"  %row{row}_bytes = tensor.extract_slice %scales[0, 0, {4 * row}] [{n}, {g}, 4] [1, 1, 1]"
                 f" : tensor<{n}x{g}x12xi8> to {t4}")
        else:
            emit(f"  %row{row}_bytes = tensor.extract_slice %blocks[0, 0, {4 + 4 * row}] [{n}, {g}, 4] [1, 1, 1]"
                 f" : {blocks_type} to {t4}")
        emit(f"  %row{row} = tensor.expand_shape %row{row}_bytes [[0], [1], [2, 3]] output_shape [{n}, {g}, 2, 2]"
             f" : {t4} into {t22}")
    for const, value in (("c63", 63), ("c15", 15), ("c6", 6), ("c4", 4)):
        emit(f"  %{const} = arith.constant {value} : i8")
    emit("  %c0_index = arith.constant 0 : index")
    t5 = f"tensor<{n}x{g}x2x2x2xf32>"
    s_maps = ("affine_map<(n, b, hs, cc, h) -> (n, b, cc, h)>, "
              "affine_map<(n, b, hs, cc, h) -> (n, b, cc, h)>, "
              "affine_map<(n, b, hs, cc, h) -> (n, b)>, affine_map<(n, b, hs, cc, h) -> (n, b, hs, cc, h)>")
    for result, half, low_row in (("scale", "d", "row0"), ("offset", "dmin", "row1")):
        emit(f"  %{result}_init = tensor.empty() : {t5}")
        emit(f"  %{result} = linalg.generic {{indexing_maps = [{s_maps}],"
             " iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\", \"parallel\"]}")
        emit(f"      ins(%{low_row}, %row2, %{half} : {t22}, {t22}, tensor<{n}x{g}xf16>)"
             f" outs(%{result}_init : {t5}) {{")
        emit("  ^bb0(%low: i8, %high: i8, %super: f16, %unused: f32):")
        emit("    %hs = linalg.index 2 : index")
        emit("    %first = arith.cmpi eq, %hs, %c0_index : index")
        emit("    %low63 = arith.andi %low, %c63 : i8")
        emit("    %low_top = arith.shrui %low, %c6 : i8")
        emit("    %low_top4 = arith.shli %low_top, %c4 : i8")
        if result == "scale":
            emit("    %high_bits = arith.andi %high, %c15 : i8")
        else:
            emit("    %high_bits = arith.shrui %high, %c4 : i8")
        emit("    %six_hi = arith.ori %high_bits, %low_top4 : i8")
        emit("    %six = arith.select %first, %low63, %six_hi : i8")
        emit("    %sixf = arith.uitofp %six : i8 to f32")
        emit("    %superf = arith.extf %super : f16 to f32")
        emit("    %value = arith.mulf %superf, %sixf : f32")
        emit("    linalg.yield %value : f32")
        emit(f"  }} -> {t5}")
    if not args.fields:
        emit(f"  %qs = tensor.extract_slice %blocks[0, 0, {qs_offset}] [{n}, {g}, 128] [1, 1, 1]"
             f" : {blocks_type} to tensor<{n}x{g}x128xi8>")
        if fifth_bit:
            emit(f"  %qh = tensor.extract_slice %blocks[0, 0, 16] [{n}, {g}, 32] [1, 1, 1]"
                 f" : {blocks_type} to tensor<{n}x{g}x32xi8>")
    qh_map = "affine_map<(n, b, hs, cc, h, l) -> (n, b, l)>, " if fifth_bit else ""
    qh_in = "%qh, " if fifth_bit else ""
    qh_type = f"tensor<{n}x{g}x32xi8>, " if fifth_bit else ""
    qh_arg = "%high: i8, " if fifth_bit else ""
    tq = f"tensor<{n}x{g}x2x2x32xi8>"
    tw = f"tensor<{n}x{g}x2x2x2x32xf32>"
    emit(f"  %qc = tensor.expand_shape %qs [[0], [1], [2, 3, 4]] output_shape [{n}, {g}, 2, 2, 32]"
         f" : tensor<{n}x{g}x128xi8> into {tq}")
    emit(f"  %w_init = tensor.empty() : {tw}")
    emit("  // Element (hs, cc, h, l): nibble h of byte 64hs + 32cc + l, s * q - o of")
    emit("  // sub-block 4hs + 2cc + h.")
    emit("  %w = linalg.generic {indexing_maps = ["
         "affine_map<(n, b, hs, cc, h, l) -> (n, b, hs, cc, l)>, " + qh_map +
         "affine_map<(n, b, hs, cc, h, l) -> (n, b, hs, cc, h)>, "
         "affine_map<(n, b, hs, cc, h, l) -> (n, b, hs, cc, h)>, "
         "affine_map<(n, b, hs, cc, h, l) -> (n, b, hs, cc, h, l)>],"
         " iterator_types = [" + ", ".join(['\"parallel\"'] * 6) + "]}")
    emit(f"      ins(%qc, {qh_in}%scale, %offset : {tq}, {qh_type}{t5}, "
         f"{t5}) outs(%w_init : {tw}) {{")
    emit(f"  ^bb0(%byte: i8, {qh_arg}%s: f32, %o: f32, %unused: f32):")
    emit("    %half = linalg.index 4 : index")
    emit("    %half8 = arith.index_cast %half : index to i8")
    emit("    %shift = arith.muli %half8, %c4 : i8")
    emit("    %shifted = arith.shrui %byte, %shift : i8")
    emit("    %nibble = arith.andi %shifted, %c15 : i8")
    if fifth_bit:
        # Bit 4hs + 2cc + h of qh[l], as 16.
        emit("    %hs = linalg.index 2 : index")
        emit("    %cc = linalg.index 3 : index")
        emit("    %hs8 = arith.index_cast %hs : index to i8")
        emit("    %cc8 = arith.index_cast %cc : index to i8")
        emit("    %one = arith.constant 1 : i8")
        emit("    %c2 = arith.constant 2 : i8")
        emit("    %hs4 = arith.shli %hs8, %c2 : i8")
        emit("    %cc2 = arith.shli %cc8, %one : i8")
        emit("    %chunk_bit = arith.addi %hs4, %cc2 : i8")
        emit("    %bit_index = arith.addi %chunk_bit, %half8 : i8")
        emit("    %high_shifted = arith.shrui %high, %bit_index : i8")
        emit("    %bit = arith.andi %high_shifted, %one : i8")
        emit("    %sixteen = arith.shli %bit, %c4 : i8")
        emit("    %nibble5 = arith.ori %nibble, %sixteen : i8")
        emit("    %q = arith.uitofp %nibble5 : i8 to f32")
    else:
        emit("    %q = arith.uitofp %nibble : i8 to f32")
    finish_two_level(tw, ["hs", "cc", "h", "l"], [2, 2, 2, 32])
if args.type == "q4_0":
    h = qk // 2  # 16 bytes per block
    dims = "(%m)" if args.dynamic else "()"
    output_m = "%m" if args.dynamic else str(m)
    emit(f"// y = x . W^T, W {n} x {k} in q4_0, fields as separate tensors; "
         "written by examples/gen_gguf_kernel.py.")
    emit("#map_w8 = affine_map<(n, g, j, h) -> (n, g, j)>")
    emit("#map_p = affine_map<(n, g, j, h) -> (n, g, 0)>")
    emit("#map_w = affine_map<(n, g, j, h) -> (n, g, j, h)>")
    # The canonical 4-bit form (docs/forms.md): loops (1, M, N, G, 16, 2).
    emit("#map_xc = affine_map<(b, m, n, g, j, h) -> (b, m, g, j, h)>")
    emit("#map_wc = affine_map<(b, m, n, g, j, h) -> (n, g, j, h)>")
    emit("#map_yc = affine_map<(b, m, n, g, j, h) -> (b, m, n)>")
    emit(f"func.func @{args.name}({field('qs', f'tensor<{n}x{g}x{h}xi8>')}, "
         f"{field('d', f'tensor<{n}x{g}xf16>')}, "
         f"%x: tensor<{m}x{k}xf32>) -> tensor<{m}x{n}xf32> "
         "attributes {qforge.int4_byte_pairs = array<i64: 0>} {")
    if args.dynamic:
        emit("  %c0 = arith.constant 0 : index")
        emit(f"  %m = tensor.dim %x, %c0 : tensor<?x{k}xf32>")
    emit("  %c4 = arith.constant 4 : i8")
    emit(f"  %d1 = tensor.expand_shape %d [[0], [1, 2]] output_shape [{n}, {g}, 1]"
         f" : tensor<{n}x{g}xf16> into tensor<{n}x{g}x1xf16>")
    emit(f"  %zp = arith.constant dense<8.0> : tensor<{n}x{g}x1xf32>")
    emit(f"  %w_init = tensor.empty() : tensor<{n}x{g}x{h}x2xf32>")
    emit("  // Element (j, h) of block g is nibble h of byte j: x[g, 16h + j].")
    emit("  %w = linalg.generic {indexing_maps = [#map_w8, #map_p, #map_p, #map_w],"
         " iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}")
    emit(f"      ins(%qs, %d1, %zp : tensor<{n}x{g}x{h}xi8>, tensor<{n}x{g}x1xf16>, "
         f"tensor<{n}x{g}x1xf32>) outs(%w_init : tensor<{n}x{g}x{h}x2xf32>) {{")
    emit("  ^bb0(%byte: i8, %scale: f16, %z: f32, %unused: f32):")
    emit("    %half = linalg.index 3 : index")
    emit("    %half8 = arith.index_cast %half : index to i8")
    emit("    %shift = arith.muli %half8, %c4 : i8")
    emit("    %shifted = arith.shrui %byte, %shift : i8")
    emit("    %nibble = arith.trunci %shifted : i8 to i4")
    emit("    %wide = arith.extui %nibble : i4 to i32")
    emit("    %wf = arith.uitofp %wide : i32 to f32")
    emit("    %centered = arith.subf %wf, %z : f32")
    emit("    %s = arith.extf %scale : f16 to f32")
    emit("    %value = arith.mulf %centered, %s : f32")
    emit("    linalg.yield %value : f32")
    emit(f"  }} -> tensor<{n}x{g}x{h}x2xf32>")
    emit(f"  %xe = tensor.expand_shape %x [[0, 1], [2, 3, 4]] output_shape "
         f"[1, {output_m}, {g}, 2, {h}] : tensor<{m}x{k}xf32> into tensor<1x{m}x{g}x2x{h}xf32>")
    emit(f"  %xt_init = tensor.empty{dims} : tensor<1x{m}x{g}x{h}x2xf32>")
    emit(f"  %xt = linalg.transpose ins(%xe : tensor<1x{m}x{g}x2x{h}xf32>) "
         f"outs(%xt_init : tensor<1x{m}x{g}x{h}x2xf32>) permutation = [0, 1, 2, 4, 3]")
    emit_contraction("%xt", f"tensor<1x{m}x{g}x{h}x2xf32>", "%w", f"tensor<{n}x{g}x{h}x2xf32>",
                     f"tensor<1x{m}x{n}xf32>", dims, "#map_xc, #map_wc, #map_yc", 3, 3)
    emit(f"  %yc = tensor.collapse_shape %y [[0, 1], [2]] : tensor<1x{m}x{n}xf32> into tensor<{m}x{n}xf32>")
    emit(f"  return %yc : tensor<{m}x{n}xf32>")
    emit("}")
    print("\n".join(lines))
    raise SystemExit(0)
emit_heading()
emit("#map_q = affine_map<(n, g, e) -> (n, g, e)>")
emit("#map_d = affine_map<(n, g, e) -> (n, g)>")

emit("#map_x = affine_map<(m, n, g, e) -> (m, g, e)>")
emit("#map_w = affine_map<(m, n, g, e) -> (n, g, e)>")
emit("#map_y = affine_map<(m, n, g, e) -> (m, n)>")
if args.fields:
    params = (f"{field('qs', f'tensor<{n}x{g}x{qk}xi8>')}, "
              f"{field('d', f'tensor<{n}x{g}xf16>')}, "
              f"%x: tensor<{m}x{k}xf32>")
else:
    params = (f"%blocks: {blocks_type} "
              f"{{qforge.gguf_type = \"{args.type}\"}}, %x: tensor<{m}x{k}xf32>")
emit(f"func.func @{args.name}({params}) -> tensor<{m}x{n}xf32> {{")
dims = "()"
if args.dynamic:
    emit("  %c0 = arith.constant 0 : index")
    emit(f"  %m = tensor.dim %x, %c0 : tensor<?x{k}xf32>")
    dims = "(%m)"
output_m = "%m" if args.dynamic else str(m)
if not args.fields:
    emit(f"  %qs = tensor.extract_slice %blocks[0, 0, 2] [{n}, {g}, {qk}] [1, 1, 1]"
         f" : {blocks_type} to tensor<{n}x{g}x{qk}xi8>")
    emit("  // d: the f16 in the block's first two bytes, little endian.")
    emit_half_from_bytes("d", "blocks", 0)
emit(f"  %w_init = tensor.empty() : tensor<{n}x{g}x{qk}xf32>")
emit("  %w = linalg.generic {indexing_maps = [#map_q, #map_d, #map_q],"
     " iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}")
emit(f"      ins(%qs, %d : tensor<{n}x{g}x{qk}xi8>, tensor<{n}x{g}xf16>)"
     f" outs(%w_init : tensor<{n}x{g}x{qk}xf32>) {{")
emit("  ^bb0(%q: i8, %scale: f16, %unused: f32):")
emit("    %qf = arith.sitofp %q : i8 to f32")
emit("    %s = arith.extf %scale : f16 to f32")
emit("    %value = arith.mulf %qf, %s : f32")
emit("    linalg.yield %value : f32")
emit(f"  }} -> tensor<{n}x{g}x{qk}xf32>")
emit(f"  %xg = tensor.expand_shape %x [[0], [1, 2]] output_shape [{output_m}, {g}, {qk}]"
     f" : tensor<{m}x{k}xf32> into tensor<{m}x{g}x{qk}xf32>")
emit_contraction("%xg", f"tensor<{m}x{g}x{qk}xf32>", "%w", f"tensor<{n}x{g}x{qk}xf32>",
                 f"tensor<{m}x{n}xf32>", dims, "#map_x, #map_w, #map_y", 2, 2)
emit(f"  return %y : tensor<{m}x{n}xf32>")
emit("}")
print("\n".join(lines))
