#!/usr/bin/env python3
"""Writes the quantized part of one LLaMA decoder layer at decode (one token)
as one function, every matmul in IREE's global-opt form (docs/forms.md):

  gen_decoder_layer.py [--hidden 4096] [--intermediate 11008] [--group 128]
                       [--mlp-only] [--tokens M | --dynamic] [--int4] [--name NAME]
                       [--layers N]

  q, k, v = Wq x, Wk x, Wv x                      (hidden x hidden each)
  h       = x + Wo a                              (a: the attention's output)
  out     = h + Wdown (silu(Wgate h) * Wup h)     (intermediate x hidden,
                                                   hidden x intermediate)

returning (q, k, v, out); --mlp-only keeps gate, up, silu * up and down:
out = Wdown (silu(Wgate x) * Wup x). Weights are 8-bit, unsigned, with one
f32 scale and zero-point per group of --group along K (LLaMA-7B's defaults:
hidden 4096, intermediate 11008, so the down projection has 86 groups).
--int4 makes them 4-bit; --tokens M > 1 processes M tokens at once
(prefill: activations and results M x hidden, IREE's batched form).
--layers N writes a model of N such layers: N private functions
@NAME_layer<i> (identical but for their names) chained by the public @NAME,
each layer's output the next one's input, every layer with its own weights.
"""
import argparse

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--hidden", type=int, default=4096)
parser.add_argument("--intermediate", type=int, default=11008)
parser.add_argument("--group", type=int, default=128)
parser.add_argument("--mlp-only", action="store_true")
parser.add_argument("--tokens", type=int, default=1)
parser.add_argument("--dynamic", action="store_true",
                    help="the token count known only at run time (?)")
parser.add_argument("--int4", action="store_true")
parser.add_argument("--name", default="decoder_layer")
parser.add_argument("--layers", type=int, default=0,
                    help="N private layer functions chained by the public one")
args = parser.parse_args()
if args.layers < 0:
    parser.error("--layers must be at least 1")
H, I, B, M = args.hidden, args.intermediate, args.group, args.tokens
# A dynamic M is written as a sentinel count, then made "?" (sizes read
# from the activation: %tokens).
DYNAMIC_SENTINEL = 7777
if args.dynamic:
    M = DYNAMIC_SENTINEL
WT = "i4" if args.int4 else "i8"
if M < 1:
    parser.error("--tokens must be at least 1")


def vec(n):
    """The type of an activation of n features: n, or M x n for M > 1."""
    return f"tensor<{n}xf32>" if M == 1 else f"tensor<{M}x{n}xf32>"
for size in (H, I):
    if size % B:
        parser.error(f"{size} is not a multiple of the group size {B}")

arguments = []
body = []
counter = [0]


def fresh(prefix):
    counter[0] += 1
    return f"%{prefix}{counter[0]}"


def matmul(name, x, n, k):
    """Emits y = W x for an n x k weight in IREE's form; returns y's name."""
    g = k // B
    arguments.extend([f"%{name}_w: tensor<{n}x{g}x{B}x{WT}>",
                      f"%{name}_s: tensor<{n}x{g}xf32>",
                      f"%{name}_z: tensor<{n}x{g}xf32>"])
    xg, deq, init, acc, y = (fresh(p) for p in ("xg", "deq", "init", "acc", "y"))
    if M == 1:
        expand = (f"{xg} = tensor.expand_shape {x} [[0, 1]] output_shape [{g}, {B}] "
                  f": tensor<{k}xf32> into tensor<{g}x{B}xf32>")
        xg_type, maps, iterators = (f"tensor<{g}x{B}xf32>", "[#act, #w3, #out]",
                                    '["parallel", "reduction", "reduction"]')
    else:
        expand = (f"{xg} = tensor.expand_shape {x} [[0], [1, 2]] output_shape [{M}, {g}, {B}] "
                  f": tensor<{M}x{k}xf32> into tensor<{M}x{g}x{B}xf32>")
        xg_type, maps, iterators = (f"tensor<{M}x{g}x{B}xf32>", "[#bact, #bw, #bout]",
                                    '["parallel", "parallel", "reduction", "reduction"]')
    body.append(f"""  {expand}
  {deq}_init = tensor.empty() : tensor<{n}x{g}x{B}xf32>
  {deq} = linalg.generic {{indexing_maps = [#w3, #p3, #p3, #w3], iterator_types = ["parallel", "parallel", "parallel"]}}
      ins(%{name}_w, %{name}_s, %{name}_z : tensor<{n}x{g}x{B}x{WT}>, tensor<{n}x{g}xf32>, tensor<{n}x{g}xf32>)
      outs({deq}_init : tensor<{n}x{g}x{B}xf32>) {{
    ^bb0(%w: {WT}, %s: f32, %z: f32, %o: f32):
      %w32 = arith.extui %w : {WT} to i32
      %wf = arith.uitofp %w32 : i32 to f32
      %d = arith.subf %wf, %z : f32
      %v = arith.mulf %d, %s : f32
      linalg.yield %v : f32
  }} -> tensor<{n}x{g}x{B}xf32>
  {init} = tensor.empty() : {vec(n)}
  {acc} = linalg.fill ins(%zero : f32) outs({init} : {vec(n)}) -> {vec(n)}
  {y} = linalg.generic {{indexing_maps = {maps}, iterator_types = {iterators}}}
      ins({xg}, {deq} : {xg_type}, tensor<{n}x{g}x{B}xf32>) outs({acc} : {vec(n)}) {{
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %q = arith.addf %p, %c : f32
      linalg.yield %q : f32
  }} -> {vec(n)}""")
    return y


def elementwise(kind, lhs, rhs, n):
    """y = lhs + rhs, lhs * rhs, or silu(lhs) * rhs over n elements."""
    y = fresh(kind)
    init = fresh("e")
    ops = {"add": "      %r = arith.addf %a, %b : f32\n",
           "mul": "      %r = arith.mulf %a, %b : f32\n",
           "silu_mul": ("      %na = arith.negf %a : f32\n"
                        "      %ex = math.exp %na : f32\n"
                        "      %den = arith.addf %ex, %one : f32\n"
                        "      %sl = arith.divf %a, %den : f32\n"
                        "      %r = arith.mulf %sl, %b : f32\n")}[kind]
    vmap, viter = ("#v", '["parallel"]') if M == 1 else ("#v2", '["parallel", "parallel"]')
    body.append(f"""  {init} = tensor.empty() : {vec(n)}
  {y} = linalg.generic {{indexing_maps = [{vmap}, {vmap}, {vmap}], iterator_types = {viter}}}
      ins({lhs}, {rhs} : {vec(n)}, {vec(n)}) outs({init} : {vec(n)}) {{
    ^bb0(%a: f32, %b: f32, %o: f32):
{ops}      linalg.yield %r : f32
  }} -> {vec(n)}""")
    return y


arguments.append(f"%x: {vec(H)}")
results = []
if args.mlp_only:
    h = "%x"
else:
    arguments.append(f"%attn: {vec(H)}")
    results += [matmul("wq", "%x", H, H), matmul("wk", "%x", H, H),
                matmul("wv", "%x", H, H)]
    h = elementwise("add", "%x", matmul("wo", "%attn", H, H), H)
gate = matmul("wgate", h, I, H)
up = matmul("wup", h, I, H)
down = matmul("wdown", elementwise("silu_mul", gate, up, I), H, I)
results.append(down if args.mlp_only else elementwise("add", h, down, H))

types = ", ".join([vec(H)] * len(results))
flags = (" --mlp-only" if args.mlp_only else "") + \
    (" --dynamic" if args.dynamic else f" --tokens {M}" if M > 1 else "") + \
    (" --int4" if args.int4 else "")
flags += f" --layers {args.layers}" if args.layers else ""
header = (f"""// Generated by examples/gen_decoder_layer.py --hidden {H} --intermediate {I} --group {B}{flags}
#w3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#p3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#act = affine_map<(d0, d1, d2) -> (d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0)>
#v = affine_map<(d0) -> (d0)>
#bact = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#bw = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#bout = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#v2 = affine_map<(d0, d1) -> (d0, d1)>
""")


def layer_function(name, visibility=""):
    return f"""func.func {visibility}@{name}({', '.join(arguments)}) -> ({types}) {{
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
{chr(10).join(body)}
  return {', '.join(results)} : {types}
}}"""


if not args.layers:
    text = header + layer_function(args.name)
else:
    # The model: layer i reads layer i-1's output (its last result) as x.
    functions = [layer_function(f"{args.name}_layer{i}", "private ")
                 for i in range(args.layers)]
    inputs = [a for a in arguments if a.startswith("%x:") or a.startswith("%attn:")]
    weight_args = [a for a in arguments if a not in inputs]
    public_args = list(inputs)
    calls = []
    x = "%x"
    for i in range(args.layers):
        layer_weights = [a.replace("%", f"%l{i}_", 1) for a in weight_args]
        public_args += layer_weights
        operands = [x] + (["%attn"] if not args.mlp_only else []) + \
            [a.split(":")[0] for a in layer_weights]
        operand_types = [vec(H)] + ([vec(H)] if not args.mlp_only else []) + \
            [a.split(": ", 1)[1] for a in layer_weights]
        calls.append(f"  %r{i}:{len(results)} = call @{args.name}_layer{i}({', '.join(operands)}) "
                     f": ({', '.join(operand_types)}) -> ({types})")
        x = f"%r{i}#{len(results) - 1}"
    last = ", ".join(f"%r{args.layers - 1}#{j}" for j in range(len(results)))
    # The layer functions take x and attn first.
    arguments.sort(key=lambda a: 0 if a.startswith("%x:") else 1 if a.startswith("%attn:") else 2)
    functions = [layer_function(f"{args.name}_layer{i}", "private ")
                 for i in range(args.layers)]
    public = (f"func.func @{args.name}({', '.join(public_args)}) -> ({types}) {{\n"
              + "\n".join(calls) + f"\n  return {last} : {types}\n}}")
    text = header + public + "\n" + "\n".join(functions)
if args.dynamic:
    text = text.replace(f"tensor<{M}x", "tensor<?x")
    text = text.replace("tensor.empty() : tensor<?x", "tensor.empty(%tokens) : tensor<?x")
    text = text.replace(f"output_shape [{M}, ", "output_shape [%tokens, ")
    text = text.replace("  %zero = arith.constant", "  %c0_tokens = arith.constant 0 : index\n"
                        f"  %tokens = tensor.dim %x, %c0_tokens : tensor<?x{H}xf32>\n"
                        "  %zero = arith.constant")
print(text)
