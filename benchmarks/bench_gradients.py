"""Gradient time against clang -O3's primal time for the kernels of benchmarks/c, in one run.

    python3 benchmarks/bench_gradients.py            # PYENZYME_TAPE_STATS=1 to count tape bytes

The kernels (kernels.c, gmm.c) are built twice: through the pyenzyme pipeline at -O3 (primal and
gradient) and by plain clang -O3 with each kernel renamed ``clang_<name>``; the harness (gradients.c)
times all three and checks each gradient against central differences.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from enzyme import llvm, toolchain
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module
from enzyme.toolchain.compiler_driver import compile_native_object

KERNELS = {"kernels.c": ("sumsq", "rosen", "rk4"), "gmm.c": ("gmm_objective",)}


def main() -> int:
    here = Path(__file__).parent / "c"
    sources = [here / "gradients.c", *(here / name for name in KERNELS)]
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        module = compile_sources(sources, CompileOptions(opt_level=3))
        result = transform_module(module, TransformOptions(postopt_level=3), name="gradients.c")
        objects = [llvm.emit_object(result, Path(tmp) / "bench.o")]
        print(f"pyenzyme build (compile, AD, O3, codegen): {time.perf_counter() - start:.2f} s")
        for name, symbols in KERNELS.items():
            renames = [f"-D{s}=clang_{s}" for s in symbols]
            objects.append(compile_native_object("cc", here / name, Path(tmp) / f"clang_{name}.o",
                                                 flags=["-O3", *renames]))
        exe = toolchain.link_executable(objects, Path(tmp) / "bench", libraries=["-lm"])
        return subprocess.run([str(exe)], check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
