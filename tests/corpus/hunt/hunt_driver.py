"""Build every hunt program per mode and optimization level through the pipeline and classify the outcome.

    python3 hunt_driver.py [names...] [--levels 0,1,2,3] [--modes rev,fwd,batch,batchrev,split] [--out DIR]

Outcomes: OK, REFUSED (an EnzymeError while building, message recorded), WRONG (a derivative disagrees with
central differences or with another mode), CRASH (a Python exception that is not an EnzymeError, invalid IR,
a signal or a non-zero exit without a mismatch) and HANG (timeout).  Not run by the test suite.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODES = ("rev", "fwd", "batch", "batchrev", "split")
SUFFIXES = (".f90", ".c", ".cpp", ".rs")


def sources_of(name: str) -> list[Path]:
    path = HERE / name
    if not path.exists():  # a single file named without its suffix
        path = next(p for p in (HERE / (name + ".c"), HERE / (name + ".cpp")) if p.is_file())
    if path.is_dir():  # Fortran modules first: later files use them
        return sorted((p for p in path.iterdir() if p.suffix in SUFFIXES), key=lambda p: (p.suffix != ".f90", p.name))
    return [path]


def programs() -> list[str]:
    return sorted(p.stem for p in HERE.iterdir()
                  if (p.is_dir() and any(q.suffix in SUFFIXES for q in p.iterdir())) or p.suffix in (".c", ".cpp"))


def modes_of(name: str) -> list[str]:
    text = "".join(p.read_text() for p in sources_of(name))
    return [m for m in MODES if re.search(rf"\bMODE_{m.upper()}\b", text)]


def build_one(name: str, mode: str, level: int, out: Path) -> int:
    """Runs in a child process: prints one JSON line with the outcome."""
    from enzyme import llvm, toolchain
    from enzyme.errors import EnzymeError
    from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

    out.mkdir(parents=True, exist_ok=True)
    sources = sources_of(name)
    try:
        module = compile_sources(sources, CompileOptions(opt_level=level, include_dirs=(HERE,),
                                                         defines=(f"MODE_{mode.upper()}",)))
    except EnzymeError as e:
        print(json.dumps({"outcome": "BUILDFAIL", "message": str(e)[:2000]}))
        return 0
    try:
        result = transform_module(module, TransformOptions(postopt_level=level), name=name)
    except EnzymeError as e:
        kind = "CRASH" if "invalid IR" in str(e) else "REFUSED"
        print(json.dumps({"outcome": kind, "message": f"{type(e).__name__}: {e}"[:3000]}))
        return 0
    except Exception:  # noqa: BLE001 - anything else is an engine crash
        print(json.dumps({"outcome": "CRASH", "message": traceback.format_exc()[-3000:]}))
        return 0
    bitcode = out / "prog.bc"
    bitcode.write_bytes(llvm.to_bitcode(result))
    obj = toolchain.compile_ir_object(bitcode, out / "prog.o", opt_level=level)
    libs = toolchain.link_libraries({toolchain.language_of(p) for p in sources} | {"cxx"})
    exe = toolchain.link_executable([obj], out / "prog", libraries=libs)
    try:
        run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, check=False)
    except subprocess.TimeoutExpired:
        print(json.dumps({"outcome": "HANG", "message": "executable ran over 120 s"}))
        return 0
    (out / "stdout.txt").write_text(run.stdout + run.stderr)
    derivs = {m.group(1) + " " + m.group(2): float(m.group(3))
              for m in re.finditer(r"^D (.+) (\d+) (\S+)$", run.stdout, re.MULTILINE)}
    mismatches = [line for line in run.stdout.splitlines() if line.startswith("MISMATCH")]
    if mismatches:
        outcome = "WRONG"
    elif run.returncode != 0 or "ALL OK" not in run.stdout:
        outcome = "CRASH"
    else:
        outcome = "OK"
    print(json.dumps({"outcome": outcome, "message": "\n".join(mismatches[:8]) or
                      (f"exit {run.returncode}: {run.stderr[-800:]}" if outcome == "CRASH" else ""),
                      "derivs": derivs}))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("names", nargs="*")
    parser.add_argument("--levels", default="0,1,2,3")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--out", default="/tmp/hunt")
    parser.add_argument("--timeout", type=int, default=900)
    parser.add_argument("--one", nargs=3, metavar=("NAME", "MODE", "LEVEL"))
    args = parser.parse_args()
    out = Path(args.out)
    if args.one:
        name, mode, level = args.one
        return build_one(name, mode, int(level), out / name / f"{mode}-O{level}")
    results_file = out / "results.jsonl"
    out.mkdir(parents=True, exist_ok=True)
    for name in args.names or programs():
        for mode in modes_of(name):
            if mode not in args.modes.split(","):
                continue
            for level in map(int, args.levels.split(",")):
                cmd = [sys.executable, __file__, "--one", name, mode, str(level), "--out", str(out)]
                try:
                    child = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, check=False)
                    lines = [line for line in child.stdout.splitlines() if line.startswith("{")]
                    record = json.loads(lines[-1]) if lines else {
                        "outcome": "CRASH", "message": f"driver child exit {child.returncode}: {child.stderr[-2000:]}"}
                except subprocess.TimeoutExpired:
                    record = {"outcome": "HANG", "message": f"build ran over {args.timeout} s"}
                record.update(name=name, mode=mode, level=level)
                with results_file.open("a") as f:
                    f.write(json.dumps(record) + "\n")
                print(f"{name:24} {mode:6} O{level} {record['outcome']:8} {record['message'][:200]!r}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
