// --strategy-table=FILE merges a tuning file over the shipped table
// (docs/adding-a-target.md): a CPU name joins a class (x86-64-v4, which
// the shipped table does not name, becomes an Intel core and gets Intel's
// rows), a row of the same name is replaced field by field (the AVX-512
// prefill reads another script and token tile), and a new row goes first in
// its family. A tuning file's mistakes are located errors.
//
// RUN: %gen_kernel 32 4 128 > %t.d.mlir
// RUN: %gen_kernel 32 4 128 --batch 8 > %t.m8.mlir
// RUN: %gen_kernel 32 4 128 --dynamic > %t.dyn.mlir

// Without the file, x86-64-v4 is in no class: features only.
// RUN: qforge-opt %t.m8.mlir --qforge-select-strategy=mcpu=x86-64-v4 | FileCheck %s --check-prefix=SHIPPED
// SHIPPED: qforge.strategy = {family = "prefill-f32", row = "avx512", script = "prefill-f32.mlir"
// RUN: qforge-opt %t.m8.mlir --strategy-table=%S/Inputs/tuning-novalake.json --qforge-select-strategy=mcpu=x86-64-v4 | FileCheck %s --check-prefix=CLASS
// CLASS: qforge.strategy = {family = "prefill-f32", row = "intel-12x32", script = "prefill-f32.mlir", why = "has avx512f, CPU 'x86-64-v4' is in class intel, M = 8 >= 6"}

// The replaced row: its script resolved in the tuning file's folder, its
// chunk plan the file's.
// RUN: qforge-opt %t.dyn.mlir --strategy-table=%S/Inputs/tuning-novalake.json --qforge-select-strategy=mcpu=znver4 | FileCheck %s --check-prefix=ROW
// ROW: qforge.strategy = {chunk_tiles = array<i64: 16, 4>, decode_row = "decode-packed-f32/avx512", {{.*}}family = "prefill-f32", row = "avx512", rows_by_decode = 1 : i64, script = "{{.*}}Inputs{{/|\\}}my-prefill.mlir", token_tile = 4 : i64

// The new row goes first: it wins on Zen 5, not elsewhere.
// RUN: qforge-opt %t.d.mlir --strategy-table=%S/Inputs/tuning-novalake.json --qforge-select-strategy=mcpu=znver5 | FileCheck %s --check-prefix=NEW
// NEW: qforge.strategy = {family = "decode-f32", row = "zen5-first", script = "{{.*}}my-decode.mlir", why = "CPU 'znver5' is in class zen5"}
// RUN: qforge-opt %t.d.mlir --strategy-table=%S/Inputs/tuning-novalake.json --qforge-select-strategy=mcpu=znver4 | FileCheck %s --check-prefix=NOT-NEW
// NOT-NEW: qforge.strategy = {family = "decode-f32", row = "zen4-one-block"

// qforge-compile says the choice in words, from the same table.
// RUN: qforge-compile %t.m8.mlir --mcpu=x86-64-v4 --strategy-table=%S/Inputs/tuning-novalake.json --print-strategy | FileCheck %s --check-prefix=PRINT
// PRINT: target: CPU 'x86-64-v4', class intel
// PRINT: @quantized_matmul at {{.*}}.mlir:{{[0-9]+}}:{{[0-9]+}}: M = 8, G = 4, group size 128
// PRINT-NEXT:   prefill-f32/intel-12x32 (prefill-f32.mlir)
// PRINT-NEXT:     because has avx512f, CPU 'x86-64-v4' is in class intel, M = 8 >= 6

// A family that runs a decode's rows per token (rows_of: GGUF's q8_0
// batches, prefill-in-place-f32) takes the tuned decode rows too, with its
// own script.
// RUN: %python %examples/gen_gguf_kernel.py q8_0 37 256 --batch 4 > %t.q8m4.mlir
// RUN: qforge-opt %t.q8m4.mlir --strategy-table=%S/Inputs/tuning-novalake.json --qforge-select-strategy=mcpu=znver5 | FileCheck %s --check-prefix=ROWS-OF
// ROWS-OF: qforge.strategy = {family = "prefill-in-place-f32", row = "zen5-first", script = "prefill-in-place-f32.mlir", why = "CPU 'znver5' is in class zen5"}
// RUN: not qforge-opt %t.q8m4.mlir --strategy-table=%S/Inputs/tuning-bad-rows-of.json --qforge-select-strategy=mcpu=znver5 2>&1 | FileCheck %s --check-prefix=BAD-ROWS-OF
// BAD-ROWS-OF: error: {{.*}}the strategy table's family 'my-batched' takes the rows of 'no-such-family', which it does not hold
// RUN: not qforge-opt %t.q8m4.mlir --strategy-table=%S/Inputs/tuning-rows-of-no-script.json --qforge-select-strategy=mcpu=znver5 2>&1 | FileCheck %s --check-prefix=ROWS-OF-NO-SCRIPT
// ROWS-OF-NO-SCRIPT: error: {{.*}}tuning-rows-of-no-script.json: families[0]: 'rows_of' and 'script' go together: the family whose rows it takes, and the script they run

// Mistakes: an unknown key (a misspelt condition would otherwise make a
// row that always applies), chunk tiles that do not decrease, a new row
// without a script, a missing file.
// RUN: not qforge-opt %t.d.mlir --strategy-table=%S/Inputs/tuning-bad-key.json --qforge-select-strategy=mcpu=znver5 2>&1 | FileCheck %s --check-prefix=BAD-KEY
// BAD-KEY: error: {{.*}}tuning-bad-key.json: families[0].rows[0].when: unknown key 'cpu_klass' (known: features, any_features, lacking_one_of, lacking, cpu_class, min_static_tokens, max_row_elements, group_size_multiple_of, group_size_not_multiple_of)
// RUN: not qforge-opt %t.dyn.mlir --strategy-table=%S/Inputs/tuning-bad-chunk-tiles.json --qforge-select-strategy=mcpu=haswell 2>&1 | FileCheck %s --check-prefix=BAD-CHUNK-TILES
// BAD-CHUNK-TILES: error: {{.*}}tuning-bad-chunk-tiles.json: families[0].rows[0].dynamic_m: 'chunk_tiles' must be a non-empty list of decreasing integers from 1 to 1024
// RUN: not qforge-opt %t.dyn.mlir --strategy-table=%S/Inputs/tuning-zero-chunk-tiles.json --qforge-select-strategy=mcpu=haswell 2>&1 | FileCheck %s --check-prefix=ZERO-CHUNK-TILES
// ZERO-CHUNK-TILES: error: {{.*}}tuning-zero-chunk-tiles.json: families[0].rows[0].dynamic_m: 'chunk_tiles' must be a non-empty list of decreasing integers from 1 to 1024
// RUN: not qforge-opt %t.dyn.mlir --strategy-table=%S/Inputs/tuning-one-row-chunks.json --qforge-select-strategy=mcpu=haswell 2>&1 | FileCheck %s --check-prefix=ONE-ROW-CHUNKS
// ONE-ROW-CHUNKS: error: {{.*}}tuning-one-row-chunks.json: families[0].rows[0].dynamic_m: chunks of one row only (a token tile of 1, chunks of 1 tile): that is the M = 1 path
// RUN: not qforge-compile %t.d.mlir --strategy-table=%S/Inputs/tuning-no-script.json --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-SCRIPT
// NO-SCRIPT: error: {{.*}}the strategy table merged in adds the row 'decode-f32/new-row' without a script
// RUN: not qforge-compile %t.d.mlir --strategy-table=%t.missing.json --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: {{.*}}cannot read the strategy table '{{.*}}missing.json'
