# -*- Python -*-
import glob
import os
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "QFORGE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.qforge_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_system_environment(["HOME", "TMPDIR"])

config.substitutions.append(("%qforge_src", config.qforge_src_root))
config.substitutions.append(("%qforge_obj", config.qforge_obj_root))
config.substitutions.append(
    ("%llvm_include", os.path.join(os.path.dirname(config.llvm_tools_dir), "include")))
config.substitutions.append(("%transforms", os.path.join(config.qforge_src_root, "transforms")))
config.substitutions.append(("%examples", os.path.join(config.qforge_src_root, "examples")))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%qforge_tools_dir", config.qforge_tools_dir))
# ggml's prebuilt libraries (scripts/install-ggml.sh), for tests that call
# ggml itself (REQUIRES: ggml).
config.substitutions.append(("%ggml_dir", config.qforge_ggml_dir))
llvm_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
config.substitutions.append(
    ("%mlir_runner_utils",
     ",".join(os.path.join(llvm_lib_dir, name) for name in
              ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))))
# Kernels of the seed's form at other shapes: %gen_kernel N G K [--signed ...]
config.substitutions.append(
    ("%gen_kernel", sys.executable + " " +
     os.path.join(config.qforge_src_root, "examples", "gen_decode_kernel.py")))
config.substitutions.append(
    ("%qforge_plugin", os.path.join(config.qforge_lib_dir, "QForgePlugin.so")))

# A sanitizer build (QFORGE_SANITIZE, scripts/sanitize.sh): a report ends the
# tool with an error; the stock mlir-opt, which is not instrumented, gets the
# ASan runtime preloaded to load the instrumented plugin; the packaging
# tests, about the release build, do not run.
mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
if config.qforge_sanitize:
    config.available_features.add("sanitizers")
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    asan_runtime = glob.glob(os.path.join(
        os.path.dirname(config.llvm_tools_dir), "lib", "clang", "*", "lib",
        "linux", "libclang_rt.asan-x86_64.so"))[0]
    mlir_opt = "env LD_PRELOAD=" + asan_runtime + " " + mlir_opt

# qforge's own tools come first; FileCheck, not and the stock mlir-opt come
# from the LLVM 22 install (none of them is on PATH on Debian).
tool_dirs = [config.qforge_tools_dir, config.llvm_tools_dir]
tools = [
    "qforge-opt",
    "qforge-compile",
    "qforge-bench",
    "qforge-ab",
    "qforge-gguf",
    "qforge-lsp-server",
    "qforge-reduce",
    ToolSubst("mlir-opt", mlir_opt),
    ToolSubst("llvm-nm", os.path.join(config.llvm_tools_dir, "llvm-nm")),
    ToolSubst("mlir-tblgen", os.path.join(config.llvm_tools_dir, "mlir-tblgen")),
    ToolSubst("mlir-runner", os.path.join(config.llvm_tools_dir, "mlir-runner")),
    ToolSubst("mlir-lsp-server", os.path.join(config.llvm_tools_dir, "mlir-lsp-server")),
    ToolSubst("mlir-pdll-lsp-server", os.path.join(config.llvm_tools_dir, "mlir-pdll-lsp-server")),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# `not` at the start of a RUN line is not substituted (lit only rewrites
# `| not`), so the LLVM tools dir must be on PATH for `RUN: not qforge-opt ...`.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Execution tests of kernels using instructions the host may lack (e.g. the
# int8 strategy's vpdpbusd) declare them with REQUIRES; compile-only tests name
# a CPU with --mcpu instead and run everywhere.
with open("/proc/cpuinfo") as cpuinfo:
    host_flags = set()
    for line in cpuinfo:
        if line.startswith("flags"):
            host_flags.update(line.split(":", 1)[1].split())
            break
for feature in ("avx2", "avx512f", "avx512_vnni", "avx_vnni"):
    if feature in host_flags:
        config.available_features.add(feature.replace("_", ""))

# ggml's own library (scripts/install-ggml.sh): the oracle of the GGUF
# kernels. CI installs npm and so the library: there a missing library is
# an error, not a reason to skip the tests against ggml.
if os.path.exists(os.path.join(config.qforge_ggml_dir, "libggml-base.so")):
    config.available_features.add("ggml")
elif os.environ.get("CI") == "true":
    lit_config.fatal("ggml's library is missing from %s (scripts/install-ggml.sh)"
                     % config.qforge_ggml_dir)
