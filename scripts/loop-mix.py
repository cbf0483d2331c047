#!/usr/bin/env python3
"""The instruction mix of each innermost loop of an x86 assembly file.

    scripts/loop-mix.py KERNEL.s [--function NAME]

A loop is a label and a later conditional or unconditional jump back to it;
innermost loops hold no other loop. For each, in file order, one line:

    quantized_matmul .LBB2_3: 34 instructions; vaddps 3, vcvtdq2ps 8, ...

mnemonics sorted by name, FMA forms merged (vfmadd132ps, vfmadd213ps and
vfmadd231ps count as vfmaddps), memory operands not told apart. Lit tests
check a path's line, so a change that adds work per weight byte shows.
"""
import argparse
import collections
import re
import sys

FMA = re.compile(r"^(v(?:f|fn)m(?:add|sub))(?:132|213|231)(p[sd]|s[sd])$")


def normalize(mnemonic):
    match = FMA.match(mnemonic)
    return match.group(1) + match.group(2) if match else mnemonic


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("asm")
    parser.add_argument("--function", help="only loops of this function")
    args = parser.parse_args()
    try:
        lines = open(args.asm).read().splitlines()
    except OSError as error:
        sys.exit(f"loop-mix: {error}")
    function = None
    labels = {}  # label -> (index, function)
    loops = []  # (start, end, label, function)
    body = []  # (index, mnemonic, function)
    for index, line in enumerate(lines):
        text = line.split("#")[0].rstrip()
        if not text:
            continue
        if re.match(r"^[A-Za-z_][\w.$]*:", text) and not text.startswith("."):
            function = text[:-1]
            continue
        label = re.match(r"^(\.L\w+):", text)
        if label:
            labels[label.group(1)] = (index, function)
            continue
        if text[0] in " \t" and not text.strip().startswith("."):
            mnemonic, *operands = text.split(None, 1)
            body.append((index, mnemonic, function))
            if mnemonic.startswith("j") and operands:
                target = operands[0].strip()
                if target in labels and labels[target][1] == function:
                    loops.append((labels[target][0], index, target, function))
    innermost = [
        loop for loop in loops
        if not any(o is not loop and loop[0] <= o[0] and o[1] <= loop[1]
                   for o in loops)
    ]
    for start, end, label, owner in sorted(innermost):
        if args.function and owner != args.function:
            continue
        mix = collections.Counter(
            normalize(m) for i, m, _ in body if start < i <= end)
        listed = ", ".join(f"{m} {mix[m]}" for m in sorted(mix))
        print(f"{owner} {label}: {sum(mix.values())} instructions; {listed}")


if __name__ == "__main__":
    main()
