"""Run the random differential tester at scale, by hand, and summarise what it found.

    python tests/ad/random/driver.py run --seeds 1-200 --levels 0,1,2,3 --modes numbers,kinks,refusals \
        --jobs 2 --out /tmp/random.jsonl
    python tests/ad/random/driver.py summary /tmp/random.jsonl

Every (seed, level, mode) job runs in its own process (a crash or a hang of the engine takes only that job,
bounded by ``--job-timeout``) and appends one JSON record to ``--out``; jobs already recorded there are
skipped, so an interrupted run resumes.  ``summary`` counts programs, functions, checks, mismatches,
crashes and refusals by kind and optimization level, and lists each distinct failure once with its seeds.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

COUNT = 12


def seeds_of(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out += range(int(low), int(high or low) + 1)
    return out


def one(seed: int, level: int, mode: str) -> dict:
    """One job, in this process."""
    if mode == "refusals":
        from randprog.runner import check_refusal
        return {"kind": "refusals", "results": [asdict(check_refusal(seed, m, level)) for m in ("reverse", "forward")],
                "seed": seed, "opt_level": level, "mode": mode}
    from generate import program
    from randprog.runner import check_program
    return asdict(check_program(seed, COUNT, mode, level, program))


def run(args: argparse.Namespace) -> None:
    out = Path(args.out)
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            r = json.loads(line)
            done.add((r["seed"], r["opt_level"], r["mode"]))
    jobs = [(s, lvl, m) for m in args.modes.split(",") for s in seeds_of(args.seeds)
            for lvl in map(int, args.levels.split(",")) if (s, lvl, m) not in done]

    def launch(job: tuple[int, int, str]) -> None:
        seed, level, mode = job
        cmd = [sys.executable, __file__, "one", str(seed), str(level), mode]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.job_timeout, check=False)
            record = json.loads(p.stdout.splitlines()[-1]) if p.returncode == 0 and p.stdout else {
                "seed": seed, "opt_level": level, "mode": mode, "functions": [],
                "error": f"job failed ({p.returncode}): {p.stderr.strip().splitlines()[-1:] }"}
        except subprocess.TimeoutExpired:
            record = {"seed": seed, "opt_level": level, "mode": mode, "functions": [],
                      "error": f"job timed out after {args.job_timeout} s"}
        with out.open("a") as f:
            f.write(json.dumps(record) + "\n")

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(launch, jobs))


def signature(text: str) -> str:
    """A failure message with its numbers and names blurred, so equal failures group together."""
    text = re.sub(r"%[\w.]+", "%v", text)
    text = re.sub(r"@(f|rec|pass|make|sign_op|through_bits|g|table)\d+(_\d+)?", r"@\1N", text)
    return re.sub(r"-?\d+(\.\d+)?(e-?\d+)?", "N", text)[:160]


def summary(args: argparse.Namespace) -> None:
    records = [json.loads(line) for line in Path(args.results).read_text().splitlines()]
    table: dict[tuple[str, str, int], Counter] = defaultdict(Counter)
    failures: dict[tuple[str, str], list[str]] = defaultdict(list)
    for r in records:
        mode, level = r["mode"], r["opt_level"]
        if mode == "refusals":
            for x in r["results"]:
                c = table[(mode, x["trick"].split("/")[0], level)]
                c["programs"] += 1
                c[x["outcome"]] += 1
                if x["outcome"] != "refused":
                    failures[(f"refusal {x['outcome']}", signature(x["message"]))].append(
                        f"seed {x['seed']} -O{level} {x['mode']} {x['trick']}")
            continue
        table[(mode, "(programs)", level)]["programs"] += 1
        if r.get("error"):
            table[(mode, "(programs)", level)]["program errors"] += 1
            failures[("program error", signature(r["error"]))].append(f"{mode} seed {r['seed']} -O{level}")
        for fn in r["functions"]:
            c = table[(mode, fn["kind"], level)]
            c["functions"] += 1
            c["checks"] += fn["checks"]
            c["mismatches"] += len(fn["mismatches"])
            c["functions with mismatches"] += bool(fn["mismatches"])
            if fn["outcome"] != "checked":
                c[fn["outcome"]] += 1
                failures[(f"{fn['outcome']} {fn['kind']}", signature(fn["message"]))].append(
                    f"{mode} seed {r['seed']} -O{level} {fn['name']}")
            if fn["mismatches"]:
                what = sorted({re.sub(r"MISMATCH f\d+ x\d+ (at point \d )?", "", m).split(":")[0]
                               for m in fn["mismatches"]})
                failures[(f"mismatch {fn['kind']}", "; ".join(what))].append(
                    f"{mode} seed {r['seed']} -O{level} {fn['name']}")
    columns = ("programs", "functions", "checks", "mismatches", "functions with mismatches", "crash",
               "runtime-crash", "refused", "invalid-c", "program errors", "accepted", "refused-badly")
    print(f"{'mode':9} {'kind':24} {'-O':>2} " + " ".join(f"{c[:10]:>10}" for c in columns))
    for (mode, kind, level), c in sorted(table.items()):
        print(f"{mode:9} {kind:24} {level:>2} " + " ".join(f"{c.get(col, 0):>10}" for col in columns))
    totals: Counter = Counter()
    for c in table.values():
        totals.update(c)
    print("total:", dict(totals))
    print("\ndistinct failures:")
    for (what, sig), where in sorted(failures.items(), key=lambda kv: -len(kv[1])):
        print(f"- [{len(where)}x] {what}: {sig}\n    e.g. {', '.join(where[:4])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--seeds", default="1-100")
    r.add_argument("--levels", default="0,1,2,3")
    r.add_argument("--modes", default="numbers,kinks,refusals")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--job-timeout", type=int, default=900)
    r.add_argument("--out", required=True)
    s = sub.add_parser("summary")
    s.add_argument("results")
    o = sub.add_parser("one")
    o.add_argument("seed", type=int)
    o.add_argument("level", type=int)
    o.add_argument("mode")
    args = parser.parse_args()
    if args.command == "run":
        run(args)
    elif args.command == "summary":
        summary(args)
    else:
        print(json.dumps(one(args.seed, args.level, args.mode)))


if __name__ == "__main__":
    main()
