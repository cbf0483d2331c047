#!/usr/bin/env bash
# The verification matrix of GGUF weights (issue 45's acceptance; docs/gguf.md):
# each type x path x LLaMA shape x layout is compiled and verified against
# the built-in reference and against ggml's own dequantization
# (qforge-bench --verify --oracle=ggml, no timing). Prints one line per
# cell -- PASS with the oracle's normalized error, FAIL, or REFUSED with
# the compiler's first error -- and a summary; exits non-zero when a cell
# FAILs (a refusal is a hole, not a wrong result: it is listed, not failed).
#
#   scripts/verify-gguf-matrix.sh                       # the whole matrix
#   TYPES="q4_K" SHAPES="4096 4096" scripts/verify-gguf-matrix.sh
#   PATHS="dynamic-int8" LAYOUTS=in-place scripts/verify-gguf-matrix.sh
#
# TYPES: q4_0 q8_0 q4_K q5_K q6_K.
# PATHS: decode-f32, decode-int8 (M = 1), prefill-f32, prefill-int8
# (M = 128), dynamic-f32, dynamic-int8 (a dynamic M run at 1, 17 and 129).
# LAYOUTS: in-place (the blocks as stored), packed (--packed-weights),
# fields (the blocks' fields as separate tensors, gen_gguf_kernel.py
# --fields, as a producer that splits them passes them).
# SHAPES: "N K" pairs separated by ';' (default: LLaMA-7B's 4096x4096,
# 11008x4096, 4096x11008).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
types="${TYPES:-q4_0 q8_0 q4_K q5_K q6_K}"
paths="${PATHS:-decode-f32 decode-int8 prefill-f32 prefill-int8 dynamic-f32 dynamic-int8}"
layouts="${LAYOUTS:-in-place packed fields}"
shapes="${SHAPES:-4096 4096;11008 4096;4096 11008}"
python="${PYTHON:-python3}"
bench="$build_dir/bin/qforge-bench"
[[ -x "$bench" ]] || { echo "verify-gguf-matrix: build first ($bench is missing)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0 refused=0
failed=()
printf '%-5s %-12s %-11s %-8s %s\n' type path "N x K" layout result
IFS=';' read -r -a shape_list <<< "$shapes"
for type in $types; do
  for shape in "${shape_list[@]}"; do
    read -r n k <<< "$shape"
    for path in $paths; do
      case "$path" in
        decode-*) tokens=() dims=() ;;
        prefill-*) tokens=(--batch 128) dims=() ;;
        dynamic-*) tokens=(--dynamic) dims=(--dim=M=1,17,129) ;;
        *) echo "verify-gguf-matrix: unknown path '$path'" >&2; exit 2 ;;
      esac
      activations=()
      [[ "$path" == *-int8 ]] && activations=(--int8-activations)
      for layout in $layouts; do
        packing=() fields=()
        [[ "$layout" == packed ]] && packing=(--packed-weights)
        [[ "$layout" == fields ]] && fields=(--fields)
        kernel="$tmp/$type-$n-$k-$path-$layout.mlir"
        "$python" "$repo_root/examples/gen_gguf_kernel.py" "$type" "$n" "$k" \
          "${tokens[@]}" "${fields[@]}" > "$kernel"
        log="$tmp/log"
        status=0
        "$bench" "$kernel" "${activations[@]}" "${packing[@]}" "${dims[@]}" \
          --verify --oracle=ggml --time=false > "$log" 2>&1 || status=$?
        if [[ $status -eq 0 ]]; then
          # The oracle's normalized errors (one per M of a dynamic run).
          errors="$(sed -n 's/^verify: against ggml .*normalized \([^ ]*\) .*: PASS$/\1/p' "$log" | paste -sd, -)"
          result="PASS (ggml ${errors:-?})"
          pass=$((pass + 1))
        elif grep -q ": FAIL" "$log"; then
          result="FAIL"
          fail=$((fail + 1))
          failed+=("$type $path ${n}x$k $layout")
        else
          why="$(grep -m1 "error: " "$log" | sed 's/^.*error: //' | cut -c1-150)"
          result="REFUSED: ${why:-exit $status}"
          refused=$((refused + 1))
        fi
        printf '%-5s %-12s %-11s %-8s %s\n' "$type" "$path" "${n}x$k" "$layout" "$result"
      done
    done
  done
done
echo "verify-gguf-matrix: $pass passed, $fail failed, $refused refused"
for cell in "${failed[@]}"; do
  echo "  FAIL: $cell"
done
[[ $fail -eq 0 ]]
