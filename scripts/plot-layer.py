#!/usr/bin/env python3
"""Draws the LLaMA-7B layer benchmark (scripts/bench-layer.sh's JSON lines)
as an SVG bar chart, without plotting libraries:

  plot-layer.py build/bench/layer.jsonl docs/measurements/data/DATE-MACHINE-layer.svg

Left panel: batch 1 (decode), cold µs per call of each weight shape, one bar
per strategy (8-bit weights: f32, packed, int8; 4-bit: int4, int4-int8). Right panel: batch 128 (prefill), GFLOP/s of each shape.
Every bar is labelled with its value; the title carries the thread count.
"""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
shapes = []
for r in rows:
    key = (r["names"], r["n"], r["k"])
    if key not in shapes:
        shapes.append(key)
colors = {"f32": "#4c78a8", "packed": "#f58518", "int8": "#54a24b",
          "int4": "#72b7b2", "int4-int8": "#e45756",
          "prefill": "#b279a2", "prefill-int4": "#9d755d", "prefill-int8": "#ff9da6",
          "prefill-int4-int8": "#bab0ac"}

def panel(x0, title, unit, batch, value):
    sel = [r for r in rows if r["batch"] == batch]
    paths = [p for p in colors if any(r["path"] == p for r in sel)]
    top = max([value(r) for r in sel] + [1e-9])
    width, height, base = 430, 300, 340
    out = [f'<text x="{x0 + width / 2}" y="30" text-anchor="middle" '
           f'font-size="15">{title}</text>',
           f'<line x1="{x0}" y1="{base}" x2="{x0 + width}" y2="{base}" stroke="black"/>']
    slot = width / max(1, len(shapes))
    bar = slot * 0.8 / max(1, len(paths))
    for i, (names, n, k) in enumerate(shapes):
        sx = x0 + i * slot + slot * 0.1
        for j, path in enumerate(paths):
            match = [r for r in sel if (r["names"], r["n"], r["k"]) == (names, n, k)
                     and r["path"] == path]
            if not match:
                continue
            v = value(match[0])
            h = height * v / top
            x = sx + j * bar
            out.append(f'<rect x="{x:.1f}" y="{base - h:.1f}" width="{bar - 2:.1f}" '
                       f'height="{h:.1f}" fill="{colors[path]}"/>')
            out.append(f'<text x="{x + bar / 2:.1f}" y="{base - h - 4:.1f}" '
                       f'text-anchor="middle" font-size="10">{v:.0f}</text>')
        out.append(f'<text x="{x0 + i * slot + slot / 2:.1f}" y="{base + 18}" '
                   f'text-anchor="middle" font-size="12">{names}</text>')
        out.append(f'<text x="{x0 + i * slot + slot / 2:.1f}" y="{base + 33}" '
                   f'text-anchor="middle" font-size="11">{n}x{k}</text>')
    for j, path in enumerate(paths):
        out.append(f'<rect x="{x0 + j * 86}" y="{base + 48}" width="12" height="12" '
                   f'fill="{colors[path]}"/>')
        out.append(f'<text x="{x0 + j * 86 + 16}" y="{base + 59}" font-size="11">{path}</text>')
    out.append(f'<text x="{x0}" y="{base + 80}" font-size="11">{unit}</text>')
    return out

threads = sorted({r["threads"] for r in rows})
body = panel(30, "batch 1 (decode): µs per call, cold", "µs per call (lower is better)", 1,
             lambda r: r["us_cold_median"])
body += panel(520, "batch 128 (prefill): GFLOP/s, cold", "GFLOP/s (higher is better)", 128,
              lambda r: r["gflops_cold"])
svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="980" height="440" '
       'font-family="sans-serif">',
       '<rect width="100%" height="100%" fill="white"/>',
       f'<text x="490" y="12" text-anchor="middle" font-size="11">LLaMA-7B decoder '
       f'layer matmuls, u8 and u4 weights (int4 paths), groups of 128, {"/".join(map(str, threads))} '
       'thread(s) (scripts/bench-layer.sh)</text>'] + body + ['</svg>']
open(sys.argv[2], "w").write("\n".join(svg) + "\n")
