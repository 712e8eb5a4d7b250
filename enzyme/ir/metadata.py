"""The module's metadata lines (kept as text by the IR model), indexed by reference."""
from __future__ import annotations

import re
import weakref

from .blocks import Module, RawEntity

_LINE = re.compile(r"^(![-\w.$]+|!\d+) = (?:distinct )?(.*)$", re.DOTALL)
_bodies: "weakref.WeakKeyDictionary[Module, tuple[int, dict[str, str]]]" = weakref.WeakKeyDictionary()


def metadata_bodies(module: Module) -> dict[str, str]:
    """``{"!38": "!{!39, !40, i64 8}", "!12": "!DILocation(line: 3, ...)", ...}`` (cached).

    Rebuilt when the module's entity count changes (passes may add metadata lines).
    """
    cached = _bodies.get(module)
    if cached is not None and cached[0] == len(module.entities):
        return cached[1]
    bodies: dict[str, str] = {}
    for e in module.entities:
        if isinstance(e, RawEntity) and e.kind == "metadata":
            m = _LINE.match(e.text)
            if m:
                bodies[m.group(1)] = m.group(2)
    _bodies[module] = (len(module.entities), bodies)
    return bodies
