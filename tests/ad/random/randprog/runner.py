"""Build and run one random program through the pipeline, setting aside functions that are refused or crash.

A refusal (``DifferentiationError``) or an engine crash stops the whole module, so the failing function (the
one the message names, else found by differentiating each function alone) is recorded and left unchecked
while the others run.  A program
that crashes at run time names the function it was checking (``BEGIN f<i>``); that one is set aside the same
way.  Used by tests/ad/test_random_programs.py and tests/ad/random/driver.py.
"""
from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from enzyme import llvm, toolchain
from enzyme.errors import CompileError, DifferentiationError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

from .bits import refusal_program
from .harness import Program

RUN_TIMEOUT_S = 120

# program(seed, count, mode, skip): the functions in skip are defined but not checked.
Generator = Callable[[int, int, str, frozenset[int]], Program]


@dataclass
class FunctionResult:
    name: str
    kind: str
    checks: int = 0
    mismatches: list[str] = field(default_factory=list)
    outcome: str = "checked"  # checked | refused | crash | runtime-crash
    message: str = ""


@dataclass
class ProgramResult:
    seed: int
    mode: str
    opt_level: int
    functions: list[FunctionResult]
    error: str = ""  # a failure that could not be pinned on one function


def differentiate(src: Path, opt_level: int, debug: bool = False) -> llvm.ModuleRef:
    module = compile_sources([src], CompileOptions(opt_level=opt_level, debug=debug))
    return transform_module(module, TransformOptions(postopt_level=opt_level), name=src.name)


def classify(error: Exception) -> str:
    """refused (the engine's answer for what it cannot do), invalid-c (a generator bug), crash (an engine bug)."""
    if isinstance(error, DifferentiationError):
        return "refused"
    return "invalid-c" if isinstance(error, CompileError) else "crash"


def one_line(error: Exception) -> str:
    text = f"{type(error).__name__}: {error}"
    return text.splitlines()[0][:400] if text else type(error).__name__


def check_program(seed: int, count: int, mode: str, opt_level: int, generate: Generator) -> ProgramResult:
    """Generate (with ``generate(seed, count, mode, skip)``), differentiate, build and run one program."""
    with tempfile.TemporaryDirectory(prefix="enzyme-random-") as tmp:
        work = Path(tmp)
        first = generate(seed, count, mode, frozenset())
        results = [FunctionResult(f"f{i}", kind) for i, kind in enumerate(first.kinds)]
        skip: set[int] = set()
        everything = frozenset(range(count))
        for _attempt in range(count + 1):
            src = work / f"random{seed}.c"
            src.write_text(generate(seed, count, mode, frozenset(skip)).source)
            try:
                module = differentiate(src, opt_level)
            except Exception as error:  # noqa: BLE001 -- every failure is recorded and pinned on a function
                named = named_function(str(error), count)
                if named is not None and named not in skip:
                    results[named].outcome, results[named].message = classify(error), one_line(error)
                    skip.add(named)
                    continue
                culprits = []
                for i in sorted(everything - skip):
                    src.write_text(generate(seed, count, mode, everything - {i}).source)
                    try:
                        differentiate(src, opt_level)
                    except Exception as alone:  # noqa: BLE001
                        culprits.append(i)
                        results[i].outcome, results[i].message = classify(alone), one_line(alone)
                if not culprits:
                    return ProgramResult(seed, mode, opt_level, results, f"together only: {one_line(error)}")
                skip.update(culprits)
                continue
            bitcode = work / "prog.bc"
            bitcode.write_bytes(llvm.to_bitcode(module))
            obj = toolchain.compile_ir_object(bitcode, work / "prog.o", opt_level=opt_level)
            exe = toolchain.link_executable([obj], work / "prog", libraries=["-lm"])
            try:
                run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False)
                stdout, crashed = run.stdout, run.returncode not in (0, 1)
                status = f"exit status {run.returncode}"
            except subprocess.TimeoutExpired as timeout:
                stdout = (timeout.stdout or b"").decode() if isinstance(timeout.stdout, bytes) else timeout.stdout or ""
                crashed, status = True, f"timed out after {RUN_TIMEOUT_S} s"
            parse_output(stdout, results)
            if not crashed:
                return ProgramResult(seed, mode, opt_level, results)
            begun = re.findall(r"^BEGIN f(\d+)$", stdout, re.MULTILINE)
            done = re.findall(r"^DONE f(\d+) ", stdout, re.MULTILINE)
            if not begun or begun[-1] in done:
                return ProgramResult(seed, mode, opt_level, results, f"run: {status} outside any check")
            i = int(begun[-1])
            results[i].outcome, results[i].message = "runtime-crash", status
            skip.add(i)
        return ProgramResult(seed, mode, opt_level, results, "gave up setting functions aside")


def named_function(message: str, count: int) -> int | None:
    """The index of the function an error names: ``@f3``, or a helper generated for it (``@pass3_0``,
    ``@rec3``); None for a shared helper (``@bits_of``) or no name."""
    m = re.search(r" in @([a-z_]+?)(\d+)(_\d+)?\b", message)
    return int(m[2]) if m and int(m[2]) < count else None


def parse_output(stdout: str, results: list[FunctionResult]) -> None:
    for line in stdout.splitlines():
        if m := re.match(r"DONE f(\d+) (\d+) (\d+)$", line):
            results[int(m[1])].checks = int(m[2])
        elif (m := re.match(r"MISMATCH f(\d+) ", line)) and line not in results[int(m[1])].mismatches:
            results[int(m[1])].mismatches.append(line)


@dataclass
class RefusalResult:
    seed: int
    mode: str
    opt_level: int
    trick: str
    outcome: str  # refused | accepted | crash
    message: str


REFUSAL_MESSAGE = re.compile(r"bits of an active|integer bits")


def check_refusal(seed: int, mode: str, opt_level: int) -> RefusalResult:
    """Integer code on active float bits must be refused with a one-line message citing the source line."""
    source, trick = refusal_program(seed, mode)
    with tempfile.TemporaryDirectory(prefix="enzyme-refusal-") as tmp:
        src = Path(tmp) / "prog.c"
        src.write_text(source)
        try:
            differentiate(src, opt_level, debug=True)
        except DifferentiationError as error:
            message = str(error)
            well_formed = "\n" not in message and "prog.c:" in message and REFUSAL_MESSAGE.search(message)
            return RefusalResult(seed, mode, opt_level, trick, "refused" if well_formed else "refused-badly",
                                 message[:400])
        except Exception as error:  # noqa: BLE001 -- any other failure is an engine crash
            return RefusalResult(seed, mode, opt_level, trick, "crash", one_line(error))
    return RefusalResult(seed, mode, opt_level, trick, "accepted", "differentiated without complaint")
