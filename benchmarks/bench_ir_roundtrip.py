"""Throughput of enzyme.ir's parser and printer on large real compiler output.

Generates a large C file (tests/corpus/generate_large_c.py), compiles it
with clang-22 under several settings (-O0, -O0 -g, -O2, -O2 -g), takes
LLVM's textual IR of each module and times ``parse_module`` and
``print_module`` separately (best of ``--repeat`` runs, ``time.perf_counter``).
The target is at least 20,000 instructions per second for each.

    python benchmarks/bench_ir_roundtrip.py                  # >= 50k instructions per module
    python benchmarks/bench_ir_roundtrip.py --functions 50 --repeat 1 --variants O0
    python benchmarks/bench_ir_roundtrip.py --check          # exit 1 when below target
"""
from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "tests"))

from corpus.generate_large_c import generate_large_c  # noqa: E402

TARGET_PER_SECOND = 20_000
VARIANTS = {"O0": (0, False), "O0-g": (0, True), "O2": (2, False), "O2-g": (2, True)}


@dataclass(frozen=True)
class Result:
    variant: str
    functions: int
    instructions: int
    text_bytes: int
    parse_seconds: float
    print_seconds: float

    @property
    def parse_rate(self) -> float:
        return self.instructions / self.parse_seconds

    @property
    def print_rate(self) -> float:
        return self.instructions / self.print_seconds


def best_of(repeat: int, work: Callable[[], object]) -> tuple[float, object]:
    """Shortest wall time of ``repeat`` runs (and the last result)."""
    best, result = math.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def compile_module(functions: int, opt_level: int, debug: bool, scratch: Path) -> tuple[str, int]:
    """LLVM's text of the generated C file, and its instruction count (as LLVM counts)."""
    from enzyme import llvm, toolchain

    source = scratch / f"generated_{functions}.c"
    if not source.exists():
        source.write_text(generate_large_c(functions))
    bitcode = toolchain.compile_to_bitcode(source, scratch / f"g{functions}-O{opt_level}{'-g' if debug else ''}.bc",
                                           opt_level=opt_level, debug=debug)
    module = llvm.parse(bitcode.read_bytes(), name=bitcode.name)
    count = sum(1 for f in module.functions for b in f.blocks for _ in b.instructions)
    return llvm.to_text(module), count


def measure(variant: str, functions: int, repeat: int, min_instructions: int, auto_size: bool,
            scratch: Path) -> Result:
    from enzyme import llvm
    from enzyme.ir import parse_module, print_module

    opt_level, debug = VARIANTS[variant]
    text, count = compile_module(functions, opt_level, debug, scratch)
    if auto_size and count < min_instructions:
        # Grow the file in proportion, with a little headroom, to reach the requested size.
        functions = math.ceil(functions * min_instructions / count * 1.05)
        text, count = compile_module(functions, opt_level, debug, scratch)
    parse_seconds, model = best_of(repeat, lambda: parse_module(text))
    print_seconds, printed = best_of(repeat, lambda: print_module(model))
    llvm.verify(llvm.parse(str(printed), name=f"{variant} printed by enzyme.ir"))  # sanity, not timed
    return Result(variant, functions, count, len(text.encode()), parse_seconds, print_seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=None,
                        help="generated functions (default: enough for --min-instructions per module)")
    parser.add_argument("--min-instructions", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best counts (default 3)")
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help=f"comma-separated subset of {','.join(VARIANTS)}")
    parser.add_argument("--check", action="store_true",
                        help=f"exit 1 when parse or print is below {TARGET_PER_SECOND} instructions/s")
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant(s) {', '.join(unknown)}; choose from {', '.join(VARIANTS)}")

    print(f"{'variant':<8} {'functions':>9} {'instructions':>12} {'text MB':>8} "
          f"{'parse s':>8} {'parse instr/s':>14} {'print s':>8} {'print instr/s':>14}")
    slow: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-ir-") as scratch:
        for variant in variants:
            result = measure(variant, args.functions or 1200, args.repeat, args.min_instructions,
                             args.functions is None, Path(scratch))
            print(f"{result.variant:<8} {result.functions:>9} {result.instructions:>12} "
                  f"{result.text_bytes / 1e6:>8.2f} {result.parse_seconds:>8.3f} {result.parse_rate:>14,.0f} "
                  f"{result.print_seconds:>8.3f} {result.print_rate:>14,.0f}", flush=True)
            if min(result.parse_rate, result.print_rate) < TARGET_PER_SECOND:
                slow.append(result.variant)
    verdict = f"below target in: {', '.join(slow)}" if slow else "all at or above target"
    print(f"target: {TARGET_PER_SECOND:,} instructions/s for parse and print; {verdict}")
    return 1 if args.check and slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
