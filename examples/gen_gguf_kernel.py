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
      "<type>.d" (qforge-bench --oracle=ggml joins them into blocks).

The activation x is M x K f32 (M = 1: a decode; --batch M; --dynamic: M
known only at run time), read as M x K/QK x QK through tensor.expand_shape.

Types: q8_0 (y = d * q, q a signed byte; both forms) and q4_0 (--fields
only: quants N x K/32 x 16 bytes, byte j holding element j in its low nibble
and j + 16 in its high one, y = d * (nibble - 8)). q4_0's dequantization is
written on the byte pairs (the nibble a loop dim, as qforge stores i4,
docs/abi.md; the function carries qforge.int4_byte_pairs), and x is read
through a transpose of each block's two halves (x[g, h, j] -> [g, j, h]),
so that element (j, h) of the pair meets x[16h + j]. Its blocks in place and
the K types follow.
"""
import argparse

BLOCKS = {"q8_0": (32, 34), "q4_0": (32, 18)}

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
if args.type == "q4_0" and not args.fields:
    parser.error("q4_0 is written with --fields only: its blocks read in place "
                 "need the 4-bit strategies to pack blocks (docs/gguf.md)")
if args.k % qk:
    parser.error(f"K = {args.k} is not a multiple of {args.type}'s {qk}")
n, k, g = args.n, args.k, args.k // qk
m = "?" if args.dynamic else args.batch

lines = []
emit = lines.append
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
    emit(f"func.func @{args.name}(%qs: tensor<{n}x{g}x{h}xi8> {{qforge.gguf_field = \"q4_0.qs\"}}, "
         f"%d: tensor<{n}x{g}xf16> {{qforge.gguf_field = \"q4_0.d\"}}, "
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
    emit("  %zero = arith.constant 0.0 : f32")
    emit(f"  %y_init = tensor.empty{dims} : tensor<1x{m}x{n}xf32>")
    emit(f"  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x{m}x{n}xf32>)"
         f" -> tensor<1x{m}x{n}xf32>")
    emit("  %y = linalg.generic {indexing_maps = [#map_xc, #map_wc, #map_yc],"
         " iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"reduction\", "
         "\"reduction\", \"reduction\"]}")
    emit(f"      ins(%xt, %w : tensor<1x{m}x{g}x{h}x2xf32>, tensor<{n}x{g}x{h}x2xf32>)"
         f" outs(%acc : tensor<1x{m}x{n}xf32>) {{")
    emit("  ^bb0(%a: f32, %b: f32, %out: f32):")
    emit("    %product = arith.mulf %a, %b : f32")
    emit("    %sum = arith.addf %out, %product : f32")
    emit("    linalg.yield %sum : f32")
    emit(f"  }} -> tensor<1x{m}x{n}xf32>")
    emit(f"  %yc = tensor.collapse_shape %y [[0, 1], [2]] : tensor<1x{m}x{n}xf32> into tensor<{m}x{n}xf32>")
    emit(f"  return %yc : tensor<{m}x{n}xf32>")
    emit("}")
    print("\n".join(lines))
    raise SystemExit(0)
emit(f"// y = x . W^T, W {n} x {k} in {args.type} "
     f"({'fields as separate tensors' if args.fields else 'blocks read in place'}); "
     f"written by examples/gen_gguf_kernel.py.")
emit("#map_q = affine_map<(n, g, e) -> (n, g, e)>")
emit("#map_d = affine_map<(n, g, e) -> (n, g)>")
emit("#map_lo = affine_map<(n, g) -> (n, g, 0)>")
emit("#map_hi = affine_map<(n, g) -> (n, g, 1)>")
emit("#map_ng = affine_map<(n, g) -> (n, g)>")
emit("#map_x = affine_map<(m, n, g, e) -> (m, g, e)>")
emit("#map_w = affine_map<(m, n, g, e) -> (n, g, e)>")
emit("#map_y = affine_map<(m, n, g, e) -> (m, n)>")
if args.fields:
    params = (f"%qs: tensor<{n}x{g}x{qk}xi8> {{qforge.gguf_field = \"{args.type}.qs\"}}, "
              f"%d: tensor<{n}x{g}xf16> {{qforge.gguf_field = \"{args.type}.d\"}}, "
              f"%x: tensor<{m}x{k}xf32>")
else:
    params = (f"%blocks: tensor<{n}x{g}x{block_bytes}xi8> "
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
         f" : tensor<{n}x{g}x{block_bytes}xi8> to tensor<{n}x{g}x{qk}xi8>")
    emit(f"  %d_init = tensor.empty() : tensor<{n}x{g}xf16>")
    emit("  // d: the f16 in the block's first two bytes, little endian.")
    emit("  %d = linalg.generic {indexing_maps = [#map_lo, #map_hi, #map_ng],"
         " iterator_types = [\"parallel\", \"parallel\"]}")
    emit(f"      ins(%blocks, %blocks : tensor<{n}x{g}x{block_bytes}xi8>, "
         f"tensor<{n}x{g}x{block_bytes}xi8>) outs(%d_init : tensor<{n}x{g}xf16>) {{")
    emit("  ^bb0(%lo: i8, %hi: i8, %unused: f16):")
    emit("    %lo16 = arith.extui %lo : i8 to i16")
    emit("    %hi16 = arith.extui %hi : i8 to i16")
    emit("    %c8 = arith.constant 8 : i16")
    emit("    %high = arith.shli %hi16, %c8 : i16")
    emit("    %bits = arith.ori %high, %lo16 : i16")
    emit("    %half = arith.bitcast %bits : i16 to f16")
    emit("    linalg.yield %half : f16")
    emit(f"  }} -> tensor<{n}x{g}xf16>")
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
emit("  %zero = arith.constant 0.0 : f32")
emit(f"  %y_init = tensor.empty{dims} : tensor<{m}x{n}xf32>")
emit(f"  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<{m}x{n}xf32>)"
     f" -> tensor<{m}x{n}xf32>")
emit("  %y = linalg.generic {indexing_maps = [#map_x, #map_w, #map_y],"
     " iterator_types = [\"parallel\", \"parallel\", \"reduction\", \"reduction\"]}")
emit(f"      ins(%xg, %w : tensor<{m}x{g}x{qk}xf32>, tensor<{n}x{g}x{qk}xf32>)"
     f" outs(%acc : tensor<{m}x{n}xf32>) {{")
emit("  ^bb0(%a: f32, %b: f32, %out: f32):")
emit("    %product = arith.mulf %a, %b : f32")
emit("    %sum = arith.addf %out, %product : f32")
emit("    linalg.yield %sum : f32")
emit(f"  }} -> tensor<{m}x{n}xf32>")
emit(f"  return %y : tensor<{m}x{n}xf32>")
emit("}")
print("\n".join(lines))
