#!/usr/bin/env python3
"""A speed map of every path over N, K, groups and M: each cell a kernel of
the seed's form (examples/gen_decode_kernel.py) compiled by the driver with
the path's flags, verified against the scalar reference and timed by
qforge-bench in the same run as the machine's read bandwidth and
arithmetic peak.

  scripts/speed-map.sh [--quick | --full] [--paths a,b] [--out F.jsonl]
                       [--svg F.svg] [--min-time-ms T] [--shapes NxKxGS,...]
                       [--ms M,...]

Paths (the driver's flags; M > 1 picks the batched strategy of the same
family, docs/scripts.md): f32 (no flag), packed (--packed-weights), int8
(--int8-activations), packed-int8 (both), int4 (4-bit weights), int4-int8.
A path the target cannot run (e.g. int8 without VNNI) is recorded as
"unsupported", not as a hole. Each cell records the fraction of the read
bandwidth and of the arithmetic peak (f32 multiply-adds, or int8 dot
products for the int8 paths) of its cold median, and its roofline fraction,
the larger of the two (a batched kernel of 2-8 rows is bound by arithmetic,
not by the weights' bytes). The heat map shows the roofline fraction and
colours each cell by its ratio to the best cell of its path and regime
(M < 16, M >= 16): the issue's "no cliff" bar is 0.85. --replot draws the
map again from a JSON file without running anything.

--quick: 2 shapes x M in {1, 17} (a few minutes); default: 4 shapes x M in
{1, 2, 3, 8, 17, 128}; --full: the issue's grid (hours).

--verify-only compiles and verifies every cell and times nothing: the
full grid's correctness in a fraction of its timing's hours.

--rounds R runs the grid R times, round-robin (a slow spell of a shared
machine then falls on every cell alike), and keeps for each cell the run
with the median roofline fraction -- its figures all from that one run,
each against the limits measured in it -- with every run's fraction in
"roofline_fractions". One run per cell moves by +-20% on a noisy machine,
enough to fake or hide a cliff.

Each cell also has its roofline fraction at the run's fastest cold call
("roofline_fraction_min": the cold minimum against the same limits), and
"roofline_fraction_best", the largest of those over the rounds: a slow
spell lengthens the median of a run but seldom every call of every round.
The map shows both (median | best minimum); --by-minimum colours and
ranks the cells by the minima instead of the medians.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("QFORGE_BUILD_DIR", os.path.join(ROOT, "build"))
BENCH = os.path.join(BUILD, "bin", "qforge-bench")
GEN = os.path.join(ROOT, "examples", "gen_decode_kernel.py")

PATHS = {
    "f32": ([], []),
    "packed": (["--packed-weights"], []),
    "int8": (["--int8-activations"], []),
    "packed-int8": (["--packed-weights", "--int8-activations"], []),
    "int4": ([], ["--int4"]),
    "int4-int8": (["--int8-activations"], ["--int4"]),
}
INT8_PATHS = {"int8", "packed-int8", "int4-int8"}
# What the heat map shows and compares (add_value).
KEY = "roofline_fraction"

# (N, K, group size)
QUICK_SHAPES = [(4096, 4096, 128), (4100, 4096, 64)]
QUICK_M = [1, 17]
DEFAULT_SHAPES = [(4096, 4096, 128), (4100, 4096, 128), (4096, 4096, 64),
                  (11008, 4096, 128)]
DEFAULT_M = [1, 2, 3, 8, 17, 128]
FULL_SHAPES = [(n, k, gs) for n in (4096, 4100, 11008, 14336)
               for k in (4096, 11008, 14336) for gs in (32, 64, 128)]
FULL_M = [1, 2, 3, 4, 8, 16, 17, 32, 64, 128, 129, 512]


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def run_cell(path, n, k, gs, m, min_time_ms, folder, verify_only=False):
    flags, gen_extra = PATHS[path]
    groups = k // gs
    kernel = os.path.join(folder, f"{path}-{n}x{k}-g{gs}-m{m}.mlir")
    gen = [sys.executable, GEN, str(n), str(groups), str(gs)] + gen_extra
    if m > 1:
        gen += ["--batch", str(m)]
    with open(kernel, "w") as out:
        subprocess.run(gen, stdout=out, check=True)
    # int8 paths too at the f32 tolerance: the bench verifies them on
    # activations int8 represents exactly (docs/numerics.md).
    command = [BENCH, kernel, "--verify", "--json",
               "--time=false" if verify_only else
               f"--min-time-ms={min_time_ms}"] + flags
    cell = {"path": path, "n": n, "k": k, "group_size": gs, "m": m,
            "command": " ".join(command[0:1] + ["KERNEL"] + command[2:]),
            "generator": " ".join(["examples/gen_decode_kernel.py"] + gen[2:])}
    result = subprocess.run(command, capture_output=True, text=True)
    lines = [l for l in result.stdout.splitlines() if l.startswith("{")]
    if not lines:
        error = (result.stderr.strip().splitlines() or ["no output"])[-1]
        cell["status"] = ("unsupported" if "lacks" in error else "refused")
        cell["error"] = error
        return cell
    figures = json.loads(lines[-1])
    cell.update({key: figures.get(key) for key in (
        "verified", "max_rel_err", "us_cold_median", "us_cold_min",
        "us_hot_median",
        "mem_read_gbps", "bw_fraction_cold", "gflops_cold", "gflops_hot",
        "fma_peak_gflops", "int8_dot_peak_gops", "bytes_per_call")})
    cell["status"] = "pass" if figures["verified"] else "wrong"
    if verify_only:
        return {key: value for key, value in cell.items() if value is not None}
    return add_value(cell)


def add_value(cell):
    """The cell's figure: the fraction of the read bandwidth (M < 16) or of
    the arithmetic peak (M >= 16), and its roofline fraction: the time the
    slower of the two limits allows over the time measured (a batched kernel
    of a few rows is bound by arithmetic, not by reading the weights)."""
    if cell.get("status") != "pass" or cell.get("gflops_cold") is None:
        return cell  # failed, or --verify-only: nothing timed
    peak = (cell["int8_dot_peak_gops"] if cell["path"] in INT8_PATHS
            else cell["fma_peak_gflops"])
    bandwidth = cell["bw_fraction_cold"]
    compute = cell["gflops_cold"] / peak if peak else 0.0
    cell["bandwidth_fraction"] = bandwidth
    cell["peak_fraction"] = compute
    cell["roofline_fraction"] = max(bandwidth, compute)
    # The same limits at the fastest cold call (older JSON has no minimum).
    if cell.get("us_cold_min") and cell.get("us_cold_median"):
        cell["roofline_fraction_min"] = (cell["roofline_fraction"] *
                                         cell["us_cold_median"] /
                                         cell["us_cold_min"])
        # One run: its own minimum (median_run takes the best of rounds).
        cell.setdefault("roofline_fraction_best", cell["roofline_fraction_min"])
    cell["metric"] = "bandwidth" if cell["m"] < 16 else "peak"
    cell["value"] = bandwidth if cell["m"] < 16 else compute
    return cell


def median_run(runs):
    """One cell from its runs: a run that did not pass decides (a wrong
    result must not hide behind passing runs); else the run with the median
    roofline fraction, every run's fraction listed."""
    failed = [r for r in runs if r["status"] != "pass"]
    if failed:
        return failed[0]
    if "roofline_fraction" not in runs[0]:  # --verify-only
        return runs[0]
    ordered = sorted(runs, key=lambda r: r["roofline_fraction"])
    cell = dict(ordered[(len(ordered) - 1) // 2])
    if len(runs) > 1:
        cell["roofline_fractions"] = [r["roofline_fraction"] for r in runs]
    minima = [r["roofline_fraction_min"] for r in runs
              if r.get("roofline_fraction_min")]
    if minima:
        cell["roofline_fraction_best"] = max(minima)
    return cell


def colour(ratio):
    if ratio is None:
        return "#cccccc"
    if ratio >= 0.85:
        return "#54a24b"
    if ratio >= 0.7:
        return "#eeca3b"
    return "#e45756"


def write_svg(cells, path, title, rank_by=KEY):
    paths = [p for p in PATHS if any(c["path"] == p for c in cells)]
    columns = []
    for c in cells:
        key = (c["m"], c["n"], c["k"], c["group_size"])
        if key not in columns:
            columns.append(key)
    columns.sort()
    best = {}
    for c in cells:
        if c["status"] == "pass" and c.get(rank_by):
            regime = (c["path"], c["m"] >= 16)
            best[regime] = max(best.get(regime, 0), c[rank_by])
    cw, ch, left, top = 104, 40, 110, 84
    width = left + cw * len(columns) + 20
    height = top + ch * len(paths) + 70
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" font-family="sans-serif" font-size="10">',
           f'<text x="{width / 2}" y="18" text-anchor="middle" '
           f'font-size="13">{title}</text>',
           f'<text x="{width / 2}" y="34" text-anchor="middle">cell: roofline '
           f'fraction (the larger of the fractions of the read bandwidth and '
           f'of the arithmetic peak) of the cold median | of the best cold '
           f'minimum, and in brackets the ratio of the '
           f'{"minimum" if rank_by != KEY else "median"} to the best cell of '
           f'its path and regime (M &lt; 16, M &gt;= 16)</text>',
           f'<text x="{width / 2}" y="48" text-anchor="middle">green &gt;= 0.85, '
           f'yellow &gt;= 0.7, red below; grey: refused, unsupported or '
           f'wrong</text>']
    for j, (m, n, k, gs) in enumerate(columns):
        x = left + j * cw + cw / 2
        out.append(f'<text x="{x}" y="{top - 18}" text-anchor="middle">'
                   f'{n}x{k}</text>')
        out.append(f'<text x="{x}" y="{top - 6}" text-anchor="middle">'
                   f'g{gs} M={m}</text>')
    for i, p in enumerate(paths):
        y = top + i * ch
        out.append(f'<text x="{left - 8}" y="{y + ch / 2 + 4}" '
                   f'text-anchor="end" font-size="12">{p}</text>')
        for j, key in enumerate(columns):
            x = left + j * cw
            match = [c for c in cells if c["path"] == p and
                     (c["m"], c["n"], c["k"], c["group_size"]) == key]
            label, ratio = "", None
            if match:
                c = match[0]
                if c["status"] == "pass" and c.get(rank_by):
                    ratio = c[rank_by] / best[(p, c["m"] >= 16)]
                    label = f'{c[KEY]:.2f}'
                    if c.get("roofline_fraction_best"):
                        label += f'|{c["roofline_fraction_best"]:.2f}'
                    label += f' ({ratio:.2f})'
                else:
                    label = c["status"]
            out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{cw - 2}" '
                       f'height="{ch - 2}" fill="{colour(ratio)}"/>')
            out.append(f'<text x="{x + cw / 2}" y="{y + ch / 2 + 4}" '
                       f'text-anchor="middle">{label}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def title_of(cells):
    bandwidth = [c["mem_read_gbps"] for c in cells if c.get("mem_read_gbps")]
    peak = [c["fma_peak_gflops"] for c in cells if c.get("fma_peak_gflops")]
    machine = cells[0].get("cpu", "unknown CPU") if cells else "unknown CPU"
    return (f"qforge speed map, {machine}, one thread: read bandwidth "
            f"{min(bandwidth or [0]):.1f}-{max(bandwidth or [0]):.1f} GB/s, "
            f"f32 multiply-add peak {min(peak or [0]):.0f}-"
            f"{max(peak or [0]):.0f} GFLOP/s (measured per cell)")


def svg_key(args):
    return "roofline_fraction_best" if args.by_minimum else KEY


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true")
    mode.add_argument("--full", action="store_true")
    parser.add_argument("--paths", default=",".join(PATHS))
    parser.add_argument("--out", default=os.path.join(BUILD, "bench",
                                                      "speed-map.jsonl"))
    parser.add_argument("--svg", default=os.path.join(BUILD, "bench",
                                                      "speed-map.svg"))
    parser.add_argument("--min-time-ms", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=1,
                        help="runs per cell, round-robin; the median is kept")
    parser.add_argument("--shapes", default=None,
                        help="NxKxGROUPSIZE[,...] instead of the mode's")
    parser.add_argument("--ms", default=None, help="M[,...] instead of the mode's")
    parser.add_argument("--replot", metavar="JSONL", default=None,
                        help="only draw --svg from an earlier run's --out")
    parser.add_argument("--verify-only", action="store_true",
                        help="compile and verify every cell, time nothing "
                             "(JSON only, no map)")
    parser.add_argument("--by-minimum", action="store_true",
                        help="colour and rank cells by their best cold "
                             "minimum, not their median")
    args = parser.parse_args()
    if args.replot:
        cells = [add_value(json.loads(l)) for l in open(args.replot) if l.strip()]
        if any(c.get("status") == "pass" and "value" not in c for c in cells):
            parser.error(f"{args.replot} has no timings (--verify-only)")
        write_svg(cells, args.svg, title_of(cells), svg_key(args))
        print(f"speed map: {args.svg}")
        return 0
    shapes, ms = ((QUICK_SHAPES, QUICK_M) if args.quick else
                  (FULL_SHAPES, FULL_M) if args.full else
                  (DEFAULT_SHAPES, DEFAULT_M))
    try:
        if args.shapes:
            shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
            if any(len(s) != 3 or s[1] % s[2] for s in shapes):
                raise ValueError
        if args.ms:
            ms = [int(v) for v in args.ms.split(",")]
    except ValueError:
        parser.error("--shapes takes NxKxGROUPSIZE[,...] (K a multiple of the "
                     "group size), --ms M[,...]")
    min_time = args.min_time_ms or (200 if args.quick else 500)
    paths = [p for p in args.paths.split(",") if p]
    for p in paths:
        if p not in PATHS:
            parser.error(f"unknown path '{p}' (paths: {', '.join(PATHS)})")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    cells = []
    machine = cpu_model()
    if args.rounds < 1:
        parser.error("--rounds takes a positive count")
    grid = [(p, n, k, gs, m) for p in paths for (n, k, gs) in shapes for m in ms]
    runs = {key: [] for key in grid}
    unsupported = set()
    with tempfile.TemporaryDirectory() as folder:
        for round_index in range(args.rounds):
            for key in grid:
                p, n, k, gs, m = key
                # The target lacks the path's instructions: no other cell
                # of it can run either.
                if p in unsupported:
                    continue
                cell = run_cell(p, n, k, gs, m, min_time, folder,
                                args.verify_only)
                cell["cpu"] = machine
                runs[key].append(cell)
                value = (f'{cell["value"]:.3f} of the {cell["metric"]}, '
                         f'roofline {cell["roofline_fraction"]:.3f}'
                         if cell.get("value") is not None else
                         cell["error"] if "error" in cell else
                         f'max error {cell.get("max_rel_err", float("nan")):.2g}')
                prefix = (f"[{round_index + 1}/{args.rounds}] "
                          if args.rounds > 1 else "")
                print(f'{prefix}{p:12s} {n}x{k} g{gs} M={m:<4d} '
                      f'{cell["status"]:11s} {value}', flush=True)
                if cell["status"] == "unsupported" and m == 1:
                    unsupported.add(p)
            # Written after every round: an interrupted run keeps the
            # rounds it finished.
            cells = [median_run(runs[key]) for key in grid if runs[key]]
            with open(args.out, "w") as out:
                out.writelines(json.dumps(cell) + "\n" for cell in cells)
    if args.verify_only:
        counts = {}
        for c in cells:
            counts[c["status"]] = counts.get(c["status"], 0) + 1
        print(f"verified: {args.out}: " +
              ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    else:
        write_svg(cells, args.svg, title_of(cells), svg_key(args))
        print(f"speed map: {args.out}, {args.svg}")
    bad = [c for c in cells if c["status"] in ("wrong", "refused")]
    # A correctness sweep fails on a cell that did not compile too.
    if args.verify_only:
        return 1 if bad else 0
    return 1 if any(c["status"] == "wrong" for c in bad) else 0


if __name__ == "__main__":
    sys.exit(main())
