"""Loop metadata of generated functions, made consistent with their (absent) debug info.

A derivative copies the original function's branches with their ``!llvm.loop``
attachments.  In a ``-g`` build those loop nodes name ``!DILocation``s of the
original function's subprogram, while the generated function has none of its
own; once LLVM inlines the derivative into a caller, the verifier rejects the
caller ("!dbg attachment points at wrong subprogram").  The loop hints
themselves (``mustprogress``, unroll/vectorize settings) stay valid, so each
such attachment is replaced by a copy of its node without the locations.
"""
from __future__ import annotations

import re

from ..ir import Function, Module
from ..ir.blocks import RawEntity
from ..ir.metadata import metadata_bodies

_TUPLE = re.compile(r"^!\{(.*)\}$", re.DOTALL)
_REF = re.compile(r"^!\d+$")


def drop_foreign_loop_locations(module: Module) -> None:
    """Strip debug locations from the ``!llvm.loop`` nodes used by functions without a subprogram."""
    bodies = metadata_bodies(module)
    if not any(b.startswith("!DILocation(") for b in bodies.values()):
        return  # no debug info in the module
    rewritten: dict[str, str | None] = {}
    next_id = 1 + max((int(k[1:]) for k in bodies if k[1:].isdigit()), default=0)
    for f in module.functions:
        if not isinstance(f, Function) or f.is_declaration or "!dbg " in f.suffix:
            continue
        for inst in f.instructions():
            ref = inst.get_metadata("llvm.loop")
            if ref is None:
                continue
            if ref not in rewritten:
                new_node = _without_locations(ref, bodies, next_id)
                if new_node is not None and new_node[0] is not None:
                    module.entities.append(RawEntity("metadata", new_node[1]))
                    next_id += 1
                rewritten[ref] = new_node[0] if new_node is not None else ref
            new_ref = rewritten[ref]
            inst.metadata = [(k, v) for k, v in inst.metadata if k != "llvm.loop"]
            if new_ref is not None:
                inst.metadata.append(("llvm.loop", new_ref))


def _without_locations(ref: str, bodies: dict[str, str], new_id: int) -> tuple[str | None, str] | None:
    """(new reference, its metadata line) for ``ref``'s loop node without locations; None if it has none.

    The reference is None (drop the attachment) when nothing but the node's
    self-reference would remain.
    """
    m = _TUPLE.match(bodies.get(ref, "").removeprefix("distinct "))
    if m is None:
        return None
    items = [s.strip() for s in m.group(1).split(",")]
    if not all(_REF.match(s) for s in items):
        return None  # an inline element: leave the node alone
    kept = [s for s in items[1:] if not bodies.get(s, "").startswith("!DILocation(")]
    if len(kept) == len(items) - 1:
        return None
    if not kept:
        return (None, "")
    name = f"!{new_id}"
    return (name, f"{name} = distinct !{{{name}, {', '.join(kept)}}}")
