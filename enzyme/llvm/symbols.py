"""The global symbols a module defines and references, as a linker sees them."""
from __future__ import annotations

import re

import llvmlite.binding as llvm

_LOCAL_LINKAGES = {llvm.Linkage.internal, llvm.Linkage.private}
# llvmlite lists functions and variables but not aliases (C++ constructors are often aliases).
_ALIAS = re.compile(r'^@("(?:[^"\\]|\\.)*"|[-\w.$]+) = (?!(?:[\w()]+ )*?(?:private|internal) )'
                    r'(?:[\w()]+ )*?alias ', re.MULTILINE)


def global_symbols(mod: llvm.ModuleRef) -> tuple[frozenset[str], frozenset[str]]:
    """``(defined, undefined)`` external symbol names of ``mod`` (intrinsics left out)."""
    defined: set[str] = set()
    undefined: set[str] = set()
    for value in [*mod.functions, *mod.global_variables]:
        name = value.name
        if not name or name.startswith("llvm."):
            continue
        if value.is_declaration:
            if value.linkage != llvm.Linkage.external_weak:  # weak references pull in no archive member
                undefined.add(name)
        elif value.linkage not in _LOCAL_LINKAGES:
            defined.add(name)
    defined.update(match.group(1).strip('"') for match in _ALIAS.finditer(str(mod)))
    return frozenset(defined), frozenset(undefined - defined)
