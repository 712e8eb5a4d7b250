"""AD build time against ``clang-22 -O2`` of the same program, and where it goes.

Two generated C programs (issue 12's build targets):

* ``kernels``: N small numerical kernels in one file (loops over an array with libm calls,
  polynomials, stencils, a double loop, scalar functions), each with a reverse-mode gradient
  request; target <= 2.5x clang -O2 at N = 100.
* ``straight``: one straight-line function of about N instructions (after clang -O2) and its
  gradient; target <= 10x clang -O2 at N = 5000, growing linearly with N.

For each: clang-22 -O2 -c of the program (the reference), then the pyenzyme build as ``enzyme build``
makes it (compile to bitcode at -O2, preopt, import into our IR, differentiate, print, parse + verify,
then O2 and code generation in one clang run: ``pipeline.write_object``) with each phase timed, the
instruction counts before and after differentiation, and LLVM's slowest passes of the post-AD O2
(an untimed in-process run).

    python3 benchmarks/bench_build_scaling.py                          # kernels 100, straight 5000
    python3 benchmarks/bench_build_scaling.py --kernels 25,50,100 --straight 1000,2500,5000
    python3 benchmarks/bench_build_scaling.py --kernels 10 --straight 0 --passes 0   # quick
    python3 benchmarks/bench_build_scaling.py --profile 25 --kernels 100 --straight 0 # cProfile of the Python part
    ENZYME_WORKTREE=<older checkout> python3 benchmarks/bench_build_scaling.py --passes 0  # before/after, same machine

On a shared machine use ``--repeat 3``: each phase's best run is reported.  Times are CPU seconds (user +
system, of this process and of the compilers it runs) by default, which other jobs on the machine disturb far
less than wall time; ``--clock wall`` measures wall time (what a user waits for).
"""
from __future__ import annotations

import argparse
import contextlib
import cProfile
import pstats
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from enzyme import llvm, pipeline, toolchain
from enzyme.driver import differentiate_module
from enzyme.ir import parse_module, print_module

T = TypeVar("T")

_PRELUDE = """\
#include <math.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
"""

_LIBM = ("sin", "cos", "exp", "tanh", "log1p", "sqrt", "atan")


def _kernel(i: int, rng: random.Random) -> str:
    """One small numerical kernel ``k<i>(const double *x, long n)`` of the kind a scientist writes."""
    c1, c2, c3 = (f"{rng.uniform(0.1, 2.0):.4f}" for _ in range(3))
    f, g = rng.sample(_LIBM[:5], 2)  # defined for any argument
    template = i % 6
    if template == 0:  # weighted energy with a libm term
        body = f"for (long i = 0; i < n; i++) s += {c1} * x[i] * x[i] + {c2} * {f}(x[i]);"
    elif template == 1:  # polynomial by Horner, summed
        body = (f"for (long i = 0; i < n; i++) {{ double p = {c1}; p = p * x[i] + {c2}; p = p * x[i] - {c3}; "
                f"p = p * x[i] + 1.0; s += p * p; }}")
    elif template == 2:  # finite-difference smoothness penalty
        body = f"for (long i = 1; i < n; i++) {{ double d = x[i] - x[i - 1]; s += {c1} * d * d + {g}({c2} * d); }}"
    elif template == 3:  # softplus of a scaled input
        body = f"for (long i = 0; i < n; i++) s += log(1.0 + exp({c1} * x[i] - {c2}));"
    elif template == 4:  # a quadratic form with a Hilbert-like matrix
        body = (f"for (long i = 0; i < n; i++) for (long j = 0; j < n; j++) "
                f"s += x[i] * x[j] * {c1} / (1.0 + i + j);")
    else:  # rational terms and a product
        body = (f"double p = 1.0; for (long i = 0; i < n; i++) {{ s += x[i] / (1.0 + {c1} * x[i] * x[i]); "
                f"p *= 1.0 + {c2} * {f}(x[i]); }} s += p;")
    return (f"double k{i}(const double *x, long n) {{\n  double s = 0.0;\n  {body}\n  return s;\n}}\n"
            f"void grad_k{i}(const double *x, double *dx, long n) {{\n"
            f"  __enzyme_autodiff((void *)k{i}, enzyme_dup, x, dx, enzyme_const, n);\n}}\n")


def kernels_program(count: int) -> str:
    """``count`` kernels and one gradient request for each."""
    rng = random.Random(12)
    return _PRELUDE + "\n".join(_kernel(i, rng) for i in range(count))


def straight_program(instructions: int) -> str:
    """One straight-line function of about ``instructions`` LLVM instructions (after -O2) and its gradient.

    Each statement combines two earlier temporaries (or inputs) with an arithmetic operation, and every
    eighth applies a libm function, so clang cannot fold or shorten the chain."""
    rng = random.Random(5)
    inputs = 16
    names = [f"x[{k}]" for k in range(inputs)]
    lines = []
    for t in range(max(instructions * 3 // 4, 1)):
        a, b = rng.choice(names[-40:]), rng.choice(names)
        op = rng.choice("+-*")
        expr = f"{a} {op} {b}" if t % 8 else f"{rng.choice(_LIBM[:5])}(0.5 * {a}) {op} {b}"
        if op == "*":
            expr = f"0.5 * ({expr})"  # keeps the values bounded
        lines.append(f"  double t{t} = {expr};")
        names.append(f"t{t}")
    result = " + ".join(names[-8:])
    return (_PRELUDE + "double straight(const double *x) {\n" + "\n".join(lines) + f"\n  return {result};\n}}\n"
            "void grad_straight(const double *x, double *dx) {\n"
            "  __enzyme_autodiff((void *)straight, enzyme_dup, x, dx);\n}\n")


def _instructions(text: str) -> int:
    """Instructions in textual IR: the indented lines of function bodies that are not labels or records."""
    return sum(1 for line in text.splitlines()
               if line.startswith("  ") and not line.lstrip().startswith(("#dbg", ";", "!")))


def _collector_paused() -> contextlib.AbstractContextManager[None]:
    """The pipeline's pause of the garbage collector (none in checkouts older than it, to compare)."""
    paused: Callable[[], contextlib.AbstractContextManager[None]] | None = getattr(pipeline, "collector_paused", None)
    return paused() if paused is not None else contextlib.nullcontext()


def _cpu_seconds() -> float:
    """User + system time of this process and of its finished child processes (the compilers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


_clock: Callable[[], float] = _cpu_seconds


def _timed(phases: dict[str, float], name: str, work: Callable[[], T]) -> T:
    start = _clock()
    result = work()
    phases[name] = _clock() - start
    return result


# A row of LLVM's timing report: user, system, user+system and wall time, each "seconds (percent%)", then the name.
_PASS_LINE = re.compile(r"^\s*(?:[\d.]+\s+\(\s*[\d.]+%\)\s+){3}([\d.]+)\s+\(\s*[\d.]+%\)\s+(\S.*)$")


def _slowest_passes(report: str, count: int) -> list[str]:
    """The ``count`` passes or analyses with the largest wall time in LLVM's timing report (LLVM lists some
    rows twice; each name is shown once)."""
    wall: dict[str, float] = {}
    for line in report.splitlines():
        match = _PASS_LINE.match(line)
        if match and match.group(2) != "Total":
            wall[match.group(2)] = max(wall.get(match.group(2), 0.0), float(match.group(1)))
    slowest = sorted(wall.items(), key=lambda item: -item[1])[:count]
    return [f"{seconds:7.3f} s  {name}" for name, seconds in slowest]


def measure(name: str, source_text: str, scratch: Path, *, passes: int, profile: int, repeat: int) -> dict[str, float]:
    """Time clang -O2 and every phase of the pyenzyme build of ``source_text`` (each the best of ``repeat``
    runs); print one block."""
    source = scratch / f"{name}.c"
    source.write_text(source_text)
    clang = toolchain.find_tool("clang").path
    clang_seconds = min(_clang_once(clang, source, scratch / f"{name}.clang.o") for _ in range(repeat))
    best: dict[str, float] = {}
    for run in range(repeat):
        phases, text, produced, result, report = _build_once(name, source, scratch, passes=passes,
                                                             profile=profile if run == 0 else 0)
        best = {phase: min(seconds, best.get(phase, seconds)) for phase, seconds in phases.items()}

    total = sum(best.values())
    python = sum(seconds for phase, seconds in best.items() if "Python" in phase)
    optimized = _instructions(llvm.to_text(result))
    print(f"\n== {name}: {_instructions(text)} instructions after preopt -> {_instructions(produced)} after AD "
          f"(x{_instructions(produced) / max(_instructions(text), 1):.1f}) -> {optimized} after O2")
    print(f"clang-22 -O2 -c: {clang_seconds:.2f} s;  pyenzyme build: {total:.2f} s  "
          f"= {total / clang_seconds:.1f}x clang -O2;  Python part {python:.2f} s ({100 * python / total:.0f}%)")
    for phase, seconds in best.items():
        print(f"  {phase:<24} {seconds:7.2f} s  {100 * seconds / total:5.1f}%")
    if passes and report:
        print("  slowest passes of the post-AD O2 (last run):")
        for row in _slowest_passes(report, passes):
            print(f"    {row}")
    return {"clang": clang_seconds, "pyenzyme": total}


def _clang_once(clang: str, source: Path, out: Path) -> float:
    start = _clock()
    subprocess.run([clang, "-O2", "-c", str(source), "-o", str(out)], check=True)
    return _clock() - start


def _build_once(name: str, source: Path, scratch: Path, *, passes: int,
                profile: int) -> tuple[dict[str, float], str, str, llvm.ModuleRef, str]:
    """One pyenzyme build of ``source``, phase by phase: the times, the input and output IR, the optimized
    module and LLVM's pass-timing report ("" without ``passes``)."""
    phases: dict[str, float] = {}
    bitcode = _timed(phases, "clang -O2 to bitcode", lambda: toolchain.compile_to_bitcode(
        source, scratch / f"{name}.bc", opt_level=2).read_bytes())
    module = llvm.parse(bitcode, name=name)
    _timed(phases, "preopt (LLVM)", lambda: llvm.preopt(module))
    text = _timed(phases, "print input (LLVM)", lambda: llvm.to_text(module))
    with _collector_paused():  # as the pipeline runs the Python part
        ours = _timed(phases, "import (Python)", lambda: parse_module(text))
        if profile:
            profiler = cProfile.Profile()
            profiler.runcall(differentiate_module, ours)
            stats = pstats.Stats(profiler, stream=sys.stdout).strip_dirs()
            stats.sort_stats("cumulative").print_stats(profile)
            stats.sort_stats("tottime").print_stats(profile)
            ours = parse_module(text)
        _timed(phases, "differentiate (Python)", lambda: differentiate_module(ours))
        produced = _timed(phases, "print output (Python)", lambda: print_module(ours))
    result = _timed(phases, "parse + verify (LLVM)", lambda: _parse_verified(produced, name))
    _timed(phases, "O2 + codegen", lambda: _object(result, scratch / f"{name}.o"))
    # What O2 makes of the module and where its time goes: an untimed in-process run on a copy (older
    # checkouts, ENZYME_WORKTREE pointing at one to compare, have no pass timing).
    optimized = llvm.parse(llvm.to_bitcode(result), name=name)
    report = llvm.optimize(optimized, 2, time_passes=True) if passes else llvm.optimize(optimized, 2)
    return phases, text, produced, optimized, report or ""


def _object(module: llvm.ModuleRef, path: Path) -> None:
    """The object as ``enzyme build`` and the ``enzyme-cc`` link make it: ``pipeline.write_object`` (one clang
    run), or in checkouts older than it in-process O2 and clang's code generation."""
    write_object: Callable[..., Path] | None = getattr(pipeline, "write_object", None)
    if write_object is not None:
        write_object(module, path, 2)
        return
    optimized = llvm.parse(llvm.to_bitcode(module), name=module.name)
    llvm.optimize(optimized, 2)
    bitcode = path.with_suffix(".bc")
    bitcode.write_bytes(llvm.to_bitcode(optimized))
    toolchain.compile_ir_object(bitcode, path, opt_level=2)


def _parse_verified(text: str, name: str) -> llvm.ModuleRef:
    result = llvm.parse(text, name=f"pyenzyme output for {name}")
    llvm.verify(result, name=f"pyenzyme output for {name}")
    return result


def _sizes(text: str) -> list[int]:
    return [int(s) for s in text.split(",") if s.strip() and int(s) > 0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", default="100", help="comma-separated kernel counts (0: none; default 100)")
    parser.add_argument("--straight", default="5000",
                        help="comma-separated straight-line sizes in instructions (0: none; default 5000)")
    parser.add_argument("--passes", type=int, default=8, metavar="N", help="print LLVM's N slowest O2 passes (0: none)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per program; each phase's best is reported")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="print cProfile's top N functions of the differentiation")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="CPU seconds (user + system, with the compilers run; default) or wall seconds")
    args = parser.parse_args(argv)
    global _clock
    _clock = _cpu_seconds if args.clock == "cpu" else time.perf_counter
    print(f"times: {'CPU seconds (user + system)' if args.clock == 'cpu' else 'wall seconds'}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="enzyme-build-scaling-") as tmp:
        for count in _sizes(args.kernels):
            times = measure(f"kernels_{count}", kernels_program(count), Path(tmp),
                            passes=args.passes, profile=args.profile, repeat=args.repeat)
            rows.append((f"{count} kernels", times, 2.5))
        for size in _sizes(args.straight):
            times = measure(f"straight_{size}", straight_program(size), Path(tmp),
                            passes=args.passes, profile=args.profile, repeat=args.repeat)
            rows.append((f"straight-line ~{size}", times, 10.0))
    print("\n| program | clang-22 -O2 | pyenzyme build | ratio | target |\n|---|---|---|---|---|")
    for label, times, target in rows:
        print(f"| {label} | {times['clang']:.2f} s | {times['pyenzyme']:.2f} s | "
              f"{times['pyenzyme'] / times['clang']:.1f} | {target} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
