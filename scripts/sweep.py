#!/usr/bin/env python3
"""A random-shape sweep: kernels of every strategy family at random shapes,
spellings and element types, each compiled by the driver and verified
against the scalar reference (`qforge-bench --verify --time=false`).

  scripts/sweep.sh [--count N] [--seed S] [--families a,b] [--jobs J]
                   [--compile-timeout SECONDS] [--out F]

Per family, N kernels (default 20) drawn with a fixed seed (default 1) from
the shapes the family supports (docs/scripts.md); a kernel either verifies
(PASS), gives a result outside the tolerance (WRONG: a bug), or is refused
with a diagnostic (REFUSED: a hole to fill -- a strategy step that does not
apply, or a compile stopped by --compile-timeout). One JSON line per kernel goes
to --out (default build/bench/sweep.jsonl) with the command that reproduces
it; the summary counts each family. Exit status 1 when anything is WRONG or
crashed (a signal, or no verify line), 0 otherwise; docs/reliability.md
records the full sweep.
"""
import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("QFORGE_BUILD_DIR", os.path.join(ROOT, "build"))
BENCH = os.path.join(BUILD, "bin", "qforge-bench")
GEN_SEED = os.path.join(ROOT, "examples", "gen_decode_kernel.py")
GEN_FORM = os.path.join(ROOT, "examples", "gen_producer_kernel.py")


def draw(family, rng):
    """(generator arguments, bench flags, tolerance) of one random kernel."""
    n = rng.randint(1, 300)
    g = rng.randint(1, 6)
    k = rng.choice([64, 128, 256])
    flags, tolerance = [], None
    form = rng.choice(["seed", "iree", "torch"])
    extra = []
    if family in ("decode-f32", "packed-f32", "f16", "bf16"):
        extra += rng.choice([[], ["--signed"]])
    if family in ("int8", "packed-int8", "int4-int8", "prefill-int8"):
        # The bench draws activations int8 represents exactly: the f32
        # tolerance applies (qforge-bench --exact-int8-activations).
        flags.append("--int8-activations")
    if family in ("packed-f32", "packed-int8"):
        flags.append("--packed-weights")
    if family == "packed-int8":
        extra += rng.choice([[], ["--signed"]])
    if family.startswith("int4"):
        extra.append("--int4")
        form = rng.choice(["seed", "iree"])  # torch's i4 reshape: refused
    if family.startswith("prefill"):
        m = rng.randint(9 if family == "prefill-int8" else 2, 40)
        extra += ["--batch", str(m)]
    if family in ("f16", "bf16"):
        form = rng.choice(["iree", "torch"])
        extra += ["--float", family]
    if form == "seed":
        if rng.random() < 0.3:
            extra.append("--no-zero-point")
        args = [GEN_SEED, str(n), str(g), str(k)] + extra
    else:
        zero = rng.choice(["group", "const", "none"])
        scale = rng.choice(["sub-mul", "mul-sub", "distributed"])
        if "--int4" in extra and zero == "const":
            zero = "group"
        args = [GEN_FORM, form, str(n), str(g), str(k), "--zero-point", zero,
                "--scale-form", scale] + extra
    return args, flags, tolerance


def run_one(item):
    family, index, args, flags, tolerance, timeout = item
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        path = f.name
        subprocess.run([sys.executable] + args, stdout=f, check=True)
    command = [BENCH, path, "--verify", "--time=false",
               f"--compile-timeout={timeout}"] + flags
    if tolerance:
        command.append(f"--tolerance={tolerance}")
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300)
    os.unlink(path)
    verify = [l for l in proc.stdout.splitlines() if l.startswith("verify:")]
    if proc.returncode < 0:
        status = "CRASH"
    elif verify and verify[-1].endswith("PASS"):
        status = "PASS"
    elif verify:
        status = "WRONG"
    elif "error:" in proc.stderr:
        status = "REFUSED"
    else:
        status = "CRASH"
    errors = [l for l in proc.stderr.splitlines() if "error:" in l]
    gen = "python3 " + " ".join(os.path.relpath(a, ROOT) if a.startswith(ROOT) else a
                                for a in args)
    return {"family": family, "index": index, "status": status,
            "reproduce": f"{gen} > k.mlir && build/bin/qforge-bench k.mlir --verify "
                         f"--time=false {' '.join(command[5:])}".strip(),
            "verify": verify[-1] if verify else None,
            "error": errors[0] if errors else None}


FAMILIES = ["decode-f32", "packed-f32", "int8", "packed-int8", "int4-f32",
            "int4-int8", "prefill-f32", "prefill-int8", "f16", "bf16"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--compile-timeout", type=int, default=30,
                        help="qforge-bench's bound on one compile, seconds")
    parser.add_argument("--out", default=os.path.join(BUILD, "bench", "sweep.jsonl"))
    a = parser.parse_args()
    families = a.families.split(",")
    for family in families:
        if family not in FAMILIES:
            parser.error(f"unknown family {family}; families: {', '.join(FAMILIES)}")
    rng = random.Random(a.seed)
    items = []
    for family in families:
        for index in range(a.count):
            args, flags, tolerance = draw(family, rng)
            items.append((family, index, args, flags, tolerance,
                          a.compile_timeout))
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    counts = {}
    with open(a.out, "w") as out, \
            concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for result in pool.map(run_one, items):
            out.write(json.dumps(result) + "\n")
            counts.setdefault(result["family"], {}).setdefault(result["status"], 0)
            counts[result["family"]][result["status"]] += 1
            if result["status"] != "PASS":
                print(f"{result['status']:8} {result['family']:13} {result['reproduce']}\n"
                      f"         {result['error'] or result['verify']}")
    bad = 0
    for family in families:
        c = counts.get(family, {})
        bad += c.get("WRONG", 0) + c.get("CRASH", 0)
        print(f"sweep {family:13} " + ", ".join(f"{c.get(s, 0)} {s.lower()}"
              for s in ("PASS", "WRONG", "REFUSED", "CRASH")))
    print(f"sweep: {sum(sum(c.values()) for c in counts.values())} kernels, seed {a.seed}; "
          f"{bad} wrong or crashed; lines in {a.out}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
