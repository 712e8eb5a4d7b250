"""The round-trip check: our parser and printer must reproduce LLVM's own IR.

``LLVM canonical text`` is what llvmlite prints for a module parsed in a
fresh context.  A module round-trips when printing our model of that text
gives IR that LLVM parses and verifies, and whose canonical text is the
same string.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass

# Enough diff to locate the difference without drowning the test report.
_DIFF_LINES = 60


@dataclass(frozen=True)
class RoundTrip:
    """Both sides of one round trip, in LLVM's canonical form."""

    expected: str
    actual: str
    ours: str  # what print_module produced, before LLVM re-printed it

    @property
    def equal(self) -> bool:
        return self.expected == self.actual

    def diff(self, name: str = "module") -> str:
        lines = list(difflib.unified_diff(
            self.expected.splitlines(keepends=True), self.actual.splitlines(keepends=True),
            fromfile=f"{name} (LLVM)", tofile=f"{name} (enzyme.ir round trip)", n=2,
        ))
        shown = "".join(lines[:_DIFF_LINES])
        if len(lines) > _DIFF_LINES:
            shown += f"... ({len(lines) - _DIFF_LINES} more diff lines)\n"
        return shown


def canonical_text(data: bytes | str, *, name: str = "<corpus>") -> str:
    """LLVM's textual form of bitcode or IR, parsed in a fresh context."""
    from enzyme import llvm

    return llvm.to_text(llvm.parse(data, name=name))


def round_trip(data: bytes | str, *, name: str = "<corpus>") -> RoundTrip:
    """Run ``parse_module`` + ``print_module`` on LLVM's text of ``data`` and re-canonicalise.

    Our parser's own errors (IRParseError for syntax it does not support)
    propagate unchanged; printed IR that LLVM rejects is an AssertionError,
    because that is always a printer bug.
    """
    from enzyme import llvm
    from enzyme.errors import IRError
    from enzyme.ir import parse_module, print_module

    original = canonical_text(data, name=name)
    ours = print_module(parse_module(original))
    try:
        # Same module name on both sides: it only shows in the "; ModuleID" comment.
        reparsed = llvm.parse(ours, name=name)
        llvm.verify(reparsed, name=name)
    except IRError as exc:
        raise AssertionError(f"LLVM rejects the IR enzyme.ir printed for {name}: {exc}") from None
    # Compare against LLVM's re-parse of its own text: that is the fixed point both sides reach.
    expected = canonical_text(original, name=name)
    return RoundTrip(expected=expected, actual=llvm.to_text(reparsed), ours=ours)


def assert_round_trips(data: bytes | str, *, name: str = "<corpus>") -> RoundTrip:
    """``round_trip`` and fail with a short unified diff when the two sides differ."""
    result = round_trip(data, name=name)
    if not result.equal:
        raise AssertionError(f"{name} does not round-trip through enzyme.ir:\n{result.diff(name)}")
    return result
