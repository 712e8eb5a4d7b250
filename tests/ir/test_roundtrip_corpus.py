"""enzyme.ir must round-trip real compiler output exactly.

For every corpus item (tests/corpus) under each of its compiler settings:
LLVM's canonical text of the module -> ``parse_module`` -> ``print_module``
-> llvmlite parse + verify -> the same canonical text.  Once per language
the same equality is checked through the CLI
(``enzyme opt --no-preopt --no-postopt``).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from corpus.build import build_case
from corpus.catalog import Case, all_cases, one_case_per_language
from corpus.roundtrip import RoundTrip, assert_round_trips, canonical_text


def _param(case: Case) -> object:
    marks = [pytest.mark.requires_tool(tool) for tool in case.item.requires]
    return pytest.param(case, id=case.id, marks=marks)


@pytest.fixture(scope="session")
def corpus_cache(enzyme_cache_dir: Path) -> Path:
    """Compiled corpus artifacts, shared by every test of the session."""
    return enzyme_cache_dir / "corpus"


@pytest.fixture(scope="session")
def built(corpus_cache: Path) -> Callable[[Case], Path]:
    """``built(case)``: path of the case's module, compiled once per session (and cache)."""
    memo: dict[Case, Path] = {}

    def get(case: Case) -> Path:
        if case not in memo:
            memo[case] = build_case(case, corpus_cache)
        return memo[case]

    return get


@pytest.mark.parametrize("case", [_param(c) for c in all_cases()])
def test_corpus_round_trips(case: Case, built: Callable[[Case], Path]) -> None:
    module = built(case)
    assert_round_trips(module.read_bytes(), name=case.id)


@pytest.mark.parametrize("case", [_param(c) for c in one_case_per_language()])
def test_cli_opt_without_passes_round_trips(
    case: Case, built: Callable[[Case], Path], run_enzyme: Callable[..., object], tmp_path: Path,
) -> None:
    module = built(case)
    out = tmp_path / "out.ll"
    run_enzyme("opt", "--no-preopt", "--no-postopt", module, "-o", out)
    expected = canonical_text(canonical_text(module.read_bytes(), name=case.id), name=case.id)
    actual = canonical_text(out.read_bytes(), name=case.id)
    if actual != expected:
        pytest.fail(f"enzyme opt --no-preopt --no-postopt changed {case.id}:\n"
                    f"{RoundTrip(expected, actual, '').diff(case.id)}", pytrace=False)
