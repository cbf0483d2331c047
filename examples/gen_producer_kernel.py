#!/usr/bin/env python3
"""Writes a group-quantized matmul as a front end spells it (docs/forms.md):

  gen_producer_kernel.py FORM N G K [--batch M | --dynamic] [--params ng|ng1|gn]
      [--zero-point group|const|none] [--scale-form sub-mul|mul-sub|distributed]
      [--int4] [--signed] [--no-i32] [--name NAME]

FORM:
  iree   IREE global-opt (fuse_dequantization_matmul, "grouped_quantized_
         matmul_reassociate"): weights NxGxK, parameters NxG through
         (d0, d1, d2) -> (d0, d1), activation GxK and result N (or, with
         --batch M, activation MxGxK and result MxN, M the leading dim).
  torch  torch-mlir's lowering of quant.matmul_rhs_group_quant
         (ConvertCustomQuantOp.cpp): weights NxK and activation 1xMxK reach
         the generics through tensor.expand_shape, parameters NxGx1 through
         (d0, d1, 0), result 1xMxN through a tensor.cast.

--params picks the parameters' storage (default: the form's own): ng (NxG),
ng1 (NxGx1, read through (d0, d1, 0)) or gn (GxN, transposed). The
dequantization body is (tofp(w) - z) * s (sub-mul), s * (tofp(w) - z)
(mul-sub) or tofp(w) * s - z * s (distributed); z is a per-group input, the
constant 8 (llama.cpp's q4_0) or absent. tofp is extui/extsi to i32 then
uitofp/sitofp (--no-i32: the cast straight from the weights' type).
Everything is f32 but the weights (i8, or i4 with --int4); --float f16 or
bf16 makes every float of the kernel that type (torch-mlir's lowering
emits f16; IREE's tests carry an f16 twin of each quantized matmul).
"""
import argparse

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("form", choices=["iree", "torch"])
parser.add_argument("n", type=int)
parser.add_argument("groups", type=int)
parser.add_argument("group_size", type=int)
parser.add_argument("--batch", type=int, default=1, metavar="M")
parser.add_argument("--dynamic", action="store_true",
                    help="the token count M known only at run time (?)")
parser.add_argument("--params", choices=["ng", "ng1", "gn"])
parser.add_argument("--zero-point", choices=["group", "const", "none"],
                    default="group")
parser.add_argument("--scale-form", choices=["sub-mul", "mul-sub", "distributed"],
                    default="sub-mul")
parser.add_argument("--int4", action="store_true")
parser.add_argument("--signed", action="store_true")
parser.add_argument("--no-i32", action="store_true")
parser.add_argument("--float", choices=["f32", "f16", "bf16"], default="f32")
parser.add_argument("--name", default="quantized_matmul")
args = parser.parse_args()

n, g, k, m = args.n, args.groups, args.group_size, args.batch
if args.dynamic:
    m = "?"
params = args.params or {"iree": "ng", "torch": "ng1"}[args.form]
wtype = "i4" if args.int4 else "i8"
ext, tofp = ("extsi", "sitofp") if args.signed else ("extui", "uitofp")

param_type = {"ng": f"tensor<{n}x{g}xf32>", "ng1": f"tensor<{n}x{g}x1xf32>",
              "gn": f"tensor<{g}x{n}xf32>"}[params]
param_map = {"ng": "affine_map<(d0, d1, d2) -> (d0, d1)>",
             "ng1": "affine_map<(d0, d1, d2) -> (d0, d1, 0)>",
             "gn": "affine_map<(d0, d1, d2) -> (d1, d0)>"}[params]
has_zp_input = args.zero_point == "group"

# The dequantization body.
lines = []
if args.no_i32:
    lines.append(f"%wf = arith.{tofp} %w : {wtype} to f32")
else:
    lines.append(f"%w32 = arith.{ext} %w : {wtype} to i32")
    lines.append(f"%wf = arith.{tofp} %w32 : i32 to f32")
zp = "%zp"
if args.zero_point == "const":
    lines.append("%zp = arith.constant 8.000000e+00 : f32")
if args.zero_point == "none":
    if args.scale_form == "mul-sub":
        lines.append("%v = arith.mulf %scale, %wf : f32")
    else:
        lines.append("%v = arith.mulf %wf, %scale : f32")
elif args.scale_form == "sub-mul":
    lines.append(f"%shifted = arith.subf %wf, {zp} : f32")
    lines.append("%v = arith.mulf %shifted, %scale : f32")
elif args.scale_form == "mul-sub":
    lines.append(f"%shifted = arith.subf %wf, {zp} : f32")
    lines.append("%v = arith.mulf %scale, %shifted : f32")
else:
    lines.append("%ws = arith.mulf %wf, %scale : f32")
    lines.append(f"%zs = arith.mulf {zp}, %scale : f32")
    lines.append("%v = arith.subf %ws, %zs : f32")
body = "".join(f"      {line}\n" for line in lines)

inputs = ["%wq", "%scales"] + (["%zero_points"] if has_zp_input else [])
input_types = [f"tensor<{n}x{g}x{k}x{wtype}>", param_type] + \
    ([param_type] if has_zp_input else [])
maps = ["#identity", "#param"] + (["#param"] if has_zp_input else []) + ["#identity"]
block_args = [f"%w: {wtype}", "%scale: f32"] + \
    (["%zp: f32"] if has_zp_input else []) + ["%out: f32"]

weights_arg_type = f"tensor<{n}x{g}x{k}x{wtype}>"
if args.form == "torch":
    weights_arg_type = f"tensor<{n}x{g * k}x{wtype}>"
    act_arg_type = f"tensor<1x{m}x{g * k}xf32>"
    act_type = f"tensor<1x{m}x{g}x{k}xf32>"
    result_type = f"tensor<1x{m}x{n}xf32>"
    reshapes = (
        f"  %wq = tensor.expand_shape %weights [[0], [1, 2]] output_shape [{n}, {g}, {k}]\n"
        f"      : {weights_arg_type} into tensor<{n}x{g}x{k}x{wtype}>\n"
        f"  %xg = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [1, {'%tokens' if args.dynamic else m}, {g}, {k}]\n"
        f"      : {act_arg_type} into {act_type}\n")
    loops = 5
    mat_maps = ["affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>",
                "affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>",
                "affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>"]
    iterators = '"parallel", "parallel", "parallel", "reduction", "reduction"'
elif m == 1 and not args.dynamic:
    act_arg_type = act_type = f"tensor<{g}x{k}xf32>"
    result_type = f"tensor<{n}xf32>"
    reshapes = ""
    mat_maps = ["affine_map<(d0, d1, d2) -> (d1, d2)>",
                "affine_map<(d0, d1, d2) -> (d0, d1, d2)>",
                "affine_map<(d0, d1, d2) -> (d0)>"]
    iterators = '"parallel", "reduction", "reduction"'
else:
    act_arg_type = act_type = f"tensor<{m}x{g}x{k}xf32>"
    result_type = f"tensor<{m}x{n}xf32>"
    reshapes = ""
    mat_maps = ["affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>",
                "affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>",
                "affine_map<(d0, d1, d2, d3) -> (d0, d1)>"]
    iterators = '"parallel", "parallel", "reduction", "reduction"'
if args.form != "torch":
    reshapes = ""
weights_value = "%wq" if args.form == "torch" else "%weights"
x_value = "%xg" if args.form == "torch" else "%x"
inputs[0] = weights_value

signature = [f"%weights: {weights_arg_type}", f"%scales: {param_type}"]
if has_zp_input:
    signature.append(f"%zero_points: {param_type}")
signature.append(f"%x: {act_arg_type}")
result = "%matmul"
cast = ""
if args.form == "torch":
    cast = f"  %cast = tensor.cast %matmul : {result_type} to {result_type}\n"
    result = "%cast"

# A dynamic M is the activation's (its dim 1 in torch's form, 0 in IREE's).
tokens = ""
if args.dynamic:
    tokens = (f"  %c_tokens = arith.constant {1 if args.form == 'torch' else 0} : index\n"
              f"  %tokens = tensor.dim %x, %c_tokens : {act_arg_type}\n")
flags = " ".join(
    [f"--batch {m}"] * (m not in (1, "?")) + ["--dynamic"] * args.dynamic + [f"--params {params}"] * (args.params is not None) +
    [f"--zero-point {args.zero_point}"] * (args.zero_point != "group") +
    [f"--scale-form {args.scale_form}"] * (args.scale_form != "sub-mul") +
    ["--int4"] * args.int4 + ["--signed"] * args.signed + ["--no-i32"] * args.no_i32 +
    [f"--float {args.float}"] * (args.float != "f32"))
kernel = f"""// Generated by examples/gen_producer_kernel.py {args.form} {n} {g} {k}{' ' + flags if flags else ''}
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#param = {param_map}
func.func @{args.name}({', '.join(signature)}) -> {result_type} {{
  %zero = arith.constant 0.000000e+00 : f32
{tokens}{reshapes}  %result_init = tensor.empty({'%tokens' if args.dynamic else ''}) : {result_type}
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : {result_type}) -> {result_type}
  %dequant_init = tensor.empty() : tensor<{n}x{g}x{k}xf32>
  %dequant = linalg.generic {{
      indexing_maps = [{', '.join(maps)}],
      iterator_types = ["parallel", "parallel", "parallel"]}}
      ins({', '.join(inputs)} : {', '.join([f"tensor<{n}x{g}x{k}x{wtype}>"] + input_types[1:])})
      outs(%dequant_init : tensor<{n}x{g}x{k}xf32>) {{
    ^bb0({', '.join(block_args)}):
{body}      linalg.yield %v : f32
  }} -> tensor<{n}x{g}x{k}xf32>
  %matmul = linalg.generic {{
      indexing_maps = [{', '.join(mat_maps)}],
      iterator_types = [{iterators}]}}
      ins({x_value}, %dequant : {act_type}, tensor<{n}x{g}x{k}xf32>)
      outs(%acc : {result_type}) {{
    ^bb0(%in: f32, %wd: f32, %o: f32):
      %p = arith.mulf %in, %wd : f32
      %s = arith.addf %p, %o : f32
      linalg.yield %s : f32
  }} -> {result_type}
{cast}  return {result} : {result_type}
}}"""
header, body_text = kernel.split("\n", 1)
print(header + "\n" + body_text.replace("f32", args.float))
