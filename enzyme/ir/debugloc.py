"""Source locations of instructions, from ``!dbg`` attachments and the module's metadata text."""
from __future__ import annotations

import re

from .blocks import Function, Module
from .instructions import Instruction
from .metadata import metadata_bodies

_NODE = re.compile(r"^!(DILocation|DISubprogram|DIFile|DILexicalBlock(?:File)?|DICompileUnit)\((.*)\)$", re.DOTALL)
_FIELD = re.compile(r'(\w+): (?:"((?:[^"\\]|\\.)*)"|(!\d+|[-\w]+))')


def _node(m: Module, ref: str | None) -> tuple[str, dict[str, str]] | None:
    """Kind and fields of a specialized debug-info node (``!DILocation(line: 4, ...)``)."""
    body = metadata_bodies(m).get(ref or "")
    mm = _NODE.match(body) if body is not None else None
    if mm is None:
        return None
    return mm.group(1), {k: (s or r) for k, s, r in _FIELD.findall(mm.group(2))}


def source_location(inst: Instruction) -> str | None:
    """``file.c:12:5`` for an instruction with a ``!dbg`` location, else None."""
    ref = inst.get_metadata("dbg")
    f = inst.function
    m = f.module if f is not None else None
    if ref is None or not isinstance(m, Module):
        return None
    loc = _node(m, ref)
    if loc is None or loc[0] != "DILocation":
        return None
    line, col = loc[1].get("line"), loc[1].get("column")
    scope = loc[1].get("scope")
    filename = None
    for _ in range(64):  # walk scopes up to one with a file
        node = _node(m, scope)
        if node is None:
            break
        if node[0] == "DIFile":
            filename = node[1].get("filename")
            break
        if "file" in node[1]:
            fnode = _node(m, node[1]["file"])
            if fnode is not None:
                filename = fnode[1].get("filename")
                break
        scope = node[1].get("scope")
    where = filename or "<unknown file>"
    if not line or line == "0":  # line 0: compiler-made code with no line of its own
        return where
    return f"{where}:{line}" + (f":{col}" if col and col != "0" else "")


def source_language(f: Function) -> str | None:
    """The ``DW_LANG_*`` name of the compile unit ``f`` came from, when it has debug information."""
    m = re.search(r"!dbg (!\d+)", f.suffix or "")
    module = f.module
    if m is None or not isinstance(module, Module):
        return None
    sub = _node(module, m.group(1))
    unit = _node(module, sub[1].get("unit")) if sub is not None and sub[0] == "DISubprogram" else None
    return unit[1].get("language") if unit is not None and unit[0] == "DICompileUnit" else None
