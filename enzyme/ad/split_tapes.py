"""What the split-mode tapes of split.py and forward_split.py share: their size, the owner bit, the checks."""
from __future__ import annotations

from ..ir import Function, FunctionType, Module, Value
from ..ir.builder import Builder
from ..ir.types import VOID

TAPE_BYTES = 56  # TAPE_STRUCT (48 bytes) + the i64 tag
CALLER_OWNED = 1 << 48  # set in the tag of a tape in the caller's memory (enzyme_allocated): not freed


def trap_unless(m: Module, d: Function, b: Builder, ok: Value) -> Builder:
    """A builder after a check that traps when ``ok`` is false (a caller's tape memory smaller than
    TAPE_BYTES, a tape of another kind)."""
    go, bad = d.append_block("tape_big_enough"), d.append_block("tape_too_small")
    b.cond_br(ok, go, bad)
    bb = Builder(bad)
    bb.call(m.declare_function("llvm.trap", FunctionType(VOID, ())), [])
    bb.unreachable()
    return Builder(go)
