"""Time of the whole ``enzyme opt`` pipeline on a large generated C program with many derivatives.

The program is tests/corpus/generate_large_c.py's (about 14 lines per function) plus one
driver function per request: a reverse-mode gradient and a forward-mode tangent of every
``cells_*`` (linked-list walk), ``stencil_*`` (heap copy, nested loops over a struct's array)
and ``mixf_*`` (float code, fmaf, sqrtf, pow).  It is compiled at -O2 by clang-22, then
``pipeline.transform_module`` runs: preopt, import into our IR, differentiate every request,
print, verify, O2.  Reported: the best of ``--repeat`` wall times of the whole pipeline and
of its Python part (import, differentiate, print); ``--profile N`` prints cProfile's top N
functions of the Python part.

    python benchmarks/bench_pipeline_large.py                       # 700 functions, ~10k lines
    python benchmarks/bench_pipeline_large.py --functions 100 --repeat 1 --profile 25
"""
from __future__ import annotations

import argparse
import cProfile
import math
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "tests"))

from corpus.generate_large_c import generate_large_c  # noqa: E402

_DRIVER_PRELUDE = """
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
typedef struct { float da, db; } float_pair;
float_pair __enzyme_autodiff_f2(void *, ...);
float __enzyme_fwddiff_f(void *, ...);
void __enzyme_fwddiff_void(void *, ...);
"""

# kernel_* and dispatch_*/entry_* are left out: the kernels store their result into a global without
# a shadow (refused), the others have no floating-point data.
_REQUESTS = {
    1: ["  __enzyme_autodiff((void *)cells_{i}, enzyme_dup, head, dhead, enzyme_const, n);",
        "  __enzyme_fwddiff_void((void *)cells_{i}, enzyme_dup, head, dhead, enzyme_const, n);"],
    3: ["  __enzyme_autodiff((void *)stencil_{i}, enzyme_dup, g, dg, enzyme_out, alpha);",
        "  __enzyme_fwddiff_void((void *)stencil_{i}, enzyme_dup, g, dg, alpha, 1.0);"],
    5: ["  __enzyme_autodiff_f2((void *)mixf_{i}, a, b, enzyme_const, n);",
        "  __enzyme_fwddiff_f((void *)mixf_{i}, a, 1.0f, b, 0.0f, enzyme_const, n);"],
}


def program(functions: int) -> str:
    """The generated C code and one small driver function per derivative request."""
    drivers = [
        f"void derivative_{i}_{k}(struct cell *head, struct cell *dhead, struct grid *g, struct grid *dg,\n"
        f"                      double alpha, float a, float b, int n) {{\n{call.format(i=i)}\n}}"
        for i in range(functions) for k, call in enumerate(_REQUESTS.get(i % 6, []))]
    return "\n".join([generate_large_c(functions), _DRIVER_PRELUDE, *drivers]) + "\n"


def best_of(repeat: int, work: Callable[[], object]) -> float:
    """Shortest wall time of ``repeat`` runs."""
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--functions", type=int, default=700, help="generated functions (default 700)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing; the best is reported")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="print cProfile's top N functions (cumulative and own time) of the Python part")
    parser.add_argument("--python-only", action="store_true", help="time the Python part only (LLVM's O2 dominates)")
    args = parser.parse_args(argv)

    from enzyme import llvm, pipeline, toolchain
    from enzyme.driver import differentiate_module
    from enzyme.ir import parse_module, print_module

    with tempfile.TemporaryDirectory(prefix="enzyme-bench-") as scratch:
        source = Path(scratch) / "large.c"
        text = program(args.functions)
        source.write_text(text)
        bitcode = toolchain.compile_to_bitcode(source, Path(scratch) / "large.bc", opt_level=2)
        data = bitcode.read_bytes()

    preopted = llvm.parse(data, name="large.bc")
    llvm.preopt(preopted)
    preopted_text = llvm.to_text(preopted)
    instructions = sum(1 for f in preopted.functions for b in f.blocks for _ in b.instructions)

    def python_part() -> str:
        module = parse_module(preopted_text)
        differentiate_module(module)
        return print_module(module)

    def whole() -> object:
        return pipeline.transform_module(llvm.parse(data, name="large.bc"), pipeline.TransformOptions(postopt_level=2))

    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(python_part)
        stats = pstats.Stats(profiler, stream=sys.stdout).strip_dirs()
        stats.sort_stats("cumulative").print_stats(args.profile)
        stats.sort_stats("tottime").print_stats(args.profile)

    python_seconds = best_of(args.repeat, python_part)
    whole_seconds = None if args.python_only else best_of(args.repeat, whole)
    derivatives = sum(len(_REQUESTS.get(i % 6, [])) for i in range(args.functions))
    print(f"program: {len(text.splitlines())} lines of C, {instructions} instructions after preopt, "
          f"{derivatives} derivative requests")
    print(f"python part (import, differentiate, print): {python_seconds:.2f} s")
    if whole_seconds is not None:
        print(f"whole pipeline (preopt, python part, verify, O2): {whole_seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
