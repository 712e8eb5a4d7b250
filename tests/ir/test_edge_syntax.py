"""Unusual LLVM 22 syntax must survive enzyme.ir, or be refused clearly.

Each ``tests/corpus/edge_syntax/*.ll`` file (first line: what it covers) is
valid LLVM 22 IR.  Printing our model of it must give IR whose canonical
form equals the original's; syntax the parser does not support must raise
IRParseError with a one-line message naming the position.  Anything else
(IR that LLVM rejects after printing, or a silent difference) fails.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from corpus.catalog import CORPUS_DIR
from corpus.roundtrip import round_trip

EDGE_DIR = CORPUS_DIR / "edge_syntax"
SNIPPETS = sorted(EDGE_DIR.glob("*.ll"))
# "line 3:14: ...", "line 3: ..." or "<name>:3:14: ..."
_POSITION = re.compile(r"\bline \d+|\d+:\d+")


def test_there_are_snippets() -> None:
    assert len(SNIPPETS) >= 30


@pytest.mark.parametrize("path", SNIPPETS, ids=[p.stem for p in SNIPPETS])
def test_snippet_is_valid_llvm_22(path: Path) -> None:
    """Guards the corpus itself: a snippet LLVM rejects would test nothing."""
    from enzyme import llvm

    llvm.verify(llvm.parse(path.read_text(), name=path.name), name=path.name)


@pytest.mark.parametrize("path", SNIPPETS, ids=[p.stem for p in SNIPPETS])
def test_snippet_round_trips_or_is_refused_clearly(path: Path) -> None:
    from enzyme.errors import IRParseError

    try:
        result = round_trip(path.read_text(), name=path.name)
    except IRParseError as exc:
        message = str(exc)
        assert "\n" not in message.strip(), f"IRParseError message is not one line: {message!r}"
        assert _POSITION.search(message), f"IRParseError message names no line:column: {message!r}"
        pytest.skip(f"enzyme.ir refuses {path.name}: {message}")
    if not result.equal:
        pytest.fail(f"{path.name} changed in the round trip:\n{result.diff(path.name)}", pytrace=False)


@pytest.mark.parametrize("text", [
    "define i32 @f( {\n  ret i32 0\n}\n",
    "define i32 @f() {\n  %x = add i32 1\n  ret i32 %x\n}\n",
    "define void @f() {\n  ret void\n",
])
def test_malformed_ir_raises_ir_parse_error_with_position(text: str) -> None:
    from enzyme.errors import IRParseError
    from enzyme.ir import parse_module

    with pytest.raises(IRParseError) as info:
        parse_module(text)
    assert _POSITION.search(str(info.value)), str(info.value)
