"""Summarize a hunt_driver.py run: outcome counts per program/mode/level, refusals grouped by kind, and
derivatives that disagree between modes or optimization levels (each is also checked against finite
differences by the program itself).

    python3 summarize.py /tmp/hunt/results.jsonl
"""
from __future__ import annotations

import collections
import json
import math
import re
import sys


def refusal_kind(message: str) -> str:
    """The refusal message without instruction text, value names and function names: groups alike ones."""
    text = message.split(": ", 1)[-1]
    text = re.sub(r"`[^`]*`", "`...`", text)
    text = re.sub(r"@[\w.$]+", "@F", text)
    text = re.sub(r"%[\w.]+", "%v", text)
    return text[:220]


def main(path: str) -> int:
    with open(path) as f:
        records = [json.loads(line) for line in f]
    latest: dict[tuple, dict] = {}
    for r in records:  # a rerun of a (program, mode, level) replaces the earlier record
        latest[(r["name"], r["mode"], r["level"])] = r
    records = list(latest.values())
    table: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in records:
        table[r["name"]][(r["mode"], r["outcome"])] += 1
    totals = collections.Counter(r["outcome"] for r in records)
    print("program                  " + "  ".join(f"{m:>22}" for m in ("rev", "fwd", "batch", "batchrev", "split")))
    for name in sorted(table):
        cells = []
        for mode in ("rev", "fwd", "batch", "batchrev", "split"):
            counts = {o: n for (m, o), n in table[name].items() if m == mode}
            cells.append(" ".join(f"{o}:{n}" for o, n in sorted(counts.items())) or "-")
        print(f"{name:24} " + "  ".join(f"{c:>22}" for c in cells))
    print("totals:", dict(totals))
    kinds: dict[str, set] = collections.defaultdict(set)
    for r in records:
        if r["outcome"] == "REFUSED":
            kinds[refusal_kind(r["message"])].add(f"{r['name']}/{r['mode']}")
    print("\nrefusals by kind:")
    for kind, where in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        print(f"  [{len(where)}] {kind}\n       in {', '.join(sorted(where))}")
    print("\ncross-mode / cross-level disagreements (relative 1e-7):")
    bad = 0
    by_program: dict[str, list] = collections.defaultdict(list)
    for r in records:
        if r.get("derivs"):
            by_program[r["name"]].append(r)
    for name, runs in sorted(by_program.items()):
        keys = set().union(*(r["derivs"] for r in runs))
        for key in sorted(keys):
            values = [(f"{r['mode']}-O{r['level']}", r["derivs"][key]) for r in runs if key in r["derivs"]]
            ref = max(abs(v) for _, v in values)
            lo, hi = min(v for _, v in values), max(v for _, v in values)
            if any(math.isnan(v) for _, v in values) or hi - lo > 1e-7 * max(ref, 1e-9):
                bad += 1
                print(f"  {name} {key}: {values}")
    print(f"  {bad} disagreements")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/hunt/results.jsonl"))
