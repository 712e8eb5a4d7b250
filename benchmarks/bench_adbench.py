"""ADBench's bundle adjustment and LSTM, a Fortran and a Rust kernel: gradient time against the reference
compiler's -O3 primal, tape bytes and AD build time per kernel.

    python3 benchmarks/bench_adbench.py                 # PYENZYME_TAPE_STATS=1 to count tape bytes
    python3 benchmarks/bench_adbench.py --scale 1 --reps 3   # quick (smoke test)

Each kernel (c/ba.c, c/lstm.c, c/heat.f90, c/springs.rs) is built twice: by pyenzyme at -O3 with its
gradient request (c/adbench_grads.c, -DKERNEL_<NAME>), the build timed alone, and by its own compiler
(clang-22, flang-22, rustc) at -O3 with the kernel renamed clang_<name>, that build timed too.  The
harness (c/adbench.c) times the three and checks every gradient against central differences.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from enzyme import llvm, toolchain
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module
from enzyme.toolchain.tools import find_tool, run_tool

HERE = Path(__file__).parent / "c"
# kernel -> (source, the symbol renamed in the reference build, its compiler)
KERNELS = {
    "BA": ("ba.c", "ba_objective", "clang"),
    "LSTM": ("lstm.c", "lstm_objective", "clang"),
    "HEAT": ("heat.f90", "heat_energy", "flang"),
    "SPRINGS": ("springs.rs", "springs_energy", "rustc"),
}


def reference_object(source: Path, symbol: str, compiler: str, out: Path) -> Path:
    """``source`` compiled by its own compiler at -O3, ``symbol`` renamed ``clang_<symbol>``."""
    plain = out.with_suffix(".plain.o")
    if compiler == "clang":
        command = [find_tool("clang").path, "-O3", "-c", str(source), "-o", str(plain)]
    elif compiler == "flang":
        command = [find_tool("flang").path, "-O3", "-c", str(source), "-o", str(plain), "-module-dir", str(out.parent)]
    else:
        command = [find_tool("rustc").path, "--crate-type=lib", "-C", "opt-level=3", "-C", "panic=abort",
                   "--emit=obj", "-o", str(plain), str(source)]
    run_tool(command, what=f"{compiler} failed on {source}")
    run_tool([find_tool("llvm-objcopy").path, f"--redefine-sym={symbol}=clang_{symbol}", str(plain), str(out)],
             what=f"llvm-objcopy failed on {plain}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=4, help="problem size multiplier (default 4)")
    parser.add_argument("--reps", type=int, default=20, help="timed runs per measurement; the best is reported")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="enzyme-adbench-") as tmp:
        scratch = Path(tmp)
        objects = []
        print(f"{'kernel':<8} {'pyenzyme build (compile, AD, O3, codegen)':>42} {'reference -O3 build':>20}")
        for name, (source, symbol, compiler) in KERNELS.items():
            start = time.perf_counter()
            module = compile_sources([HERE / "adbench_grads.c", HERE / source],
                                     CompileOptions(opt_level=3, defines=(f"KERNEL_{name}",)))
            result = transform_module(module, TransformOptions(postopt_level=3), name=source)
            objects.append(llvm.emit_object(result, scratch / f"{name}.o"))
            ours = time.perf_counter() - start
            start = time.perf_counter()
            objects.append(reference_object(HERE / source, symbol, compiler, scratch / f"{name}.ref.o"))
            reference = time.perf_counter() - start
            print(f"{name:<8} {ours:>40.2f} s {reference:>18.2f} s")
        objects.append(toolchain.compile_native_object("cc", HERE / "adbench.c", scratch / "adbench.o", flags=["-O2"]))
        exe = toolchain.link_executable(objects, scratch / "adbench", libraries=toolchain.link_libraries(["fortran"]))
        return subprocess.run([str(exe), str(args.scale), str(args.reps)], check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
