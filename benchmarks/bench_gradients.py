"""Gradient/primal time ratios of C kernels built through the pyenzyme pipeline (-O3).

    python3 benchmarks/bench_gradients.py
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from enzyme import llvm, toolchain
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module


def main() -> int:
    source = Path(__file__).parent / "c" / "gradients.c"
    with tempfile.TemporaryDirectory() as tmp:
        module = compile_sources([source], CompileOptions(opt_level=3))
        result = transform_module(module, TransformOptions(postopt_level=3), name=source.name)
        obj = llvm.emit_object(result, Path(tmp) / "bench.o")
        exe = toolchain.link_executable([obj], Path(tmp) / "bench", libraries=["-lm"])
        return subprocess.run([str(exe)], check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
