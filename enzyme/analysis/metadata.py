"""Read the module's metadata lines (kept as text by the IR model) as nodes.

Only generic tuples are interpreted (``!38 = !{!39, !40, i64 8}``), which is
what TBAA is made of; specialized ``!DI...`` nodes are read by
``enzyme.ir.debugloc``.  Tables are cached per module and rebuilt when the
module's entity count changes (the AD engine adds metadata lines).
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass

from ..ir import Module
from ..ir.metadata import metadata_bodies
from ..ir.names import unescape_string



@dataclass(frozen=True)
class MDString:
    """``!"text"``."""

    text: str


@dataclass(frozen=True)
class MDRef:
    """``!12``: a reference to another node."""

    ref: str


@dataclass(frozen=True)
class MDConst:
    """``i64 8`` and other typed constants, kept as (type, value text)."""

    type: str
    value: str

    @property
    def int_value(self) -> int | None:
        try:
            return int(self.value)
        except ValueError:
            return None


class MetadataTable:
    """Numbered metadata of one module: ``table.node("!38")`` -> operand list, or None."""

    def __init__(self, module: Module) -> None:
        self.text = metadata_bodies(module)
        self._nodes: dict[str, list[MDString | MDRef | MDConst | None] | None] = {}

    def node(self, ref: str) -> list[MDString | MDRef | MDConst | None] | None:
        """Operands of a generic tuple ``!{...}``; None for specialized nodes or unknown refs."""
        if ref not in self._nodes:
            body = self.text.get(ref)
            self._nodes[ref] = parse_tuple(body) if body is not None and body.startswith("!{") else None
        return self._nodes[ref]


def parse_tuple(body: str) -> list[MDString | MDRef | MDConst | None]:
    """Operands of ``!{a, b, c}`` (strings may contain commas and escapes)."""
    inner = body.strip()[2:]
    if inner.endswith("}"):
        inner = inner[:-1]
    out: list[MDString | MDRef | MDConst | None] = []
    for piece in _split_top(inner):
        piece = piece.strip()
        if not piece:
            continue
        if piece.startswith('!"'):
            out.append(MDString(unescape_string(piece[2:-1])))
        elif piece.startswith("!"):
            out.append(MDRef(piece))
        elif piece == "null":
            out.append(None)
        else:
            ty, _, val = piece.partition(" ")
            out.append(MDConst(ty, val.strip()))
    return out


def _split_top(s: str) -> list[str]:
    parts, depth, cur, in_str, i = [], 0, [], False, 0
    while i < len(s):
        ch = s[i]
        if in_str:
            cur.append(ch)
            if ch == "\\" and i + 1 < len(s):
                cur.append(s[i + 1])
                i += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
            cur.append(ch)
        elif ch in "({[<":
            depth += 1
            cur.append(ch)
        elif ch in ")}]>":
            depth -= 1
            cur.append(ch)
        elif ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    parts.append("".join(cur))
    return parts


_tables: "weakref.WeakKeyDictionary[Module, tuple[int, MetadataTable]]" = weakref.WeakKeyDictionary()


def metadata_table(module: Module) -> MetadataTable:
    """The (cached) metadata table of ``module``."""
    cached = _tables.get(module)
    if cached is not None and cached[0] == len(module.entities):
        return cached[1]
    table = MetadataTable(module)
    _tables[module] = (len(module.entities), table)
    return table
