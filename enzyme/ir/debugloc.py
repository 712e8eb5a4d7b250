"""Source locations of instructions, from ``!dbg`` attachments and the module's metadata text."""
from __future__ import annotations

import re
import weakref

from .blocks import Module, RawEntity
from .instructions import Instruction

_NODE = re.compile(r"^!(\d+) = (?:distinct )?!(DILocation|DISubprogram|DIFile|DILexicalBlock(?:File)?)\((.*)\)$")
_FIELD = re.compile(r'(\w+): (?:"((?:[^"\\]|\\.)*)"|(!\d+|[-\w]+))')
_cache: "weakref.WeakKeyDictionary[Module, dict[str, tuple[str, dict[str, str]]]]" = weakref.WeakKeyDictionary()


def _nodes(m: Module) -> dict[str, tuple[str, dict[str, str]]]:
    nodes = _cache.get(m)
    if nodes is None:
        nodes = {}
        for e in m.entities:
            if isinstance(e, RawEntity) and e.kind == "metadata":
                mm = _NODE.match(e.text)
                if mm:
                    fields = {k: (s or r) for k, s, r in _FIELD.findall(mm.group(3))}
                    nodes["!" + mm.group(1)] = (mm.group(2), fields)
        _cache[m] = nodes
    return nodes


def source_location(inst: Instruction) -> str | None:
    """``file.c:12:5`` for an instruction with a ``!dbg`` location, else None."""
    ref = inst.get_metadata("dbg")
    f = inst.function
    m = f.module if f is not None else None
    if ref is None or not isinstance(m, Module):
        return None
    nodes = _nodes(m)
    loc = nodes.get(ref)
    if loc is None or loc[0] != "DILocation":
        return None
    line, col = loc[1].get("line"), loc[1].get("column")
    scope = loc[1].get("scope")
    filename = None
    for _ in range(64):  # walk scopes up to one with a file
        node = nodes.get(scope or "")
        if node is None:
            break
        if node[0] == "DIFile":
            filename = node[1].get("filename")
            break
        if "file" in node[1]:
            fnode = nodes.get(node[1]["file"])
            if fnode is not None:
                filename = fnode[1].get("filename")
                break
        scope = node[1].get("scope")
    where = filename or "<unknown file>"
    if not line or line == "0":  # line 0: compiler-made code with no line of its own
        return where
    return f"{where}:{line}" + (f":{col}" if col and col != "0" else "")
