"""The code-generation attributes a generated function inherits from the function it derives from.

clang puts the target of each function into its attribute group
(``"target-cpu"="skylake" "target-features"="+avx,+fma,..."`` under
``-march=native`` or ``__attribute__((target("avx,fma")))``).  A derivative
without them is compiled for the module's baseline target: slower (no
AVX/FMA for the derivative of AVX code) and, where the primal uses target
intrinsics (``llvm.x86.avx.max.pd.256``), impossible to select.  So each
generated function gets an attribute group with exactly these attributes of
its primal: not the rest (``noinline``, ``optnone``, ``uwtable`` are about
the primal's own body).
"""
from __future__ import annotations

import re
import weakref

from .blocks import Function, Module, RawEntity

#: String attributes that decide which instructions the backend may use.
INHERITED = ("target-cpu", "target-features", "tune-cpu", "min-legal-vector-width", "prefer-vector-width")

_GROUP_REF = re.compile(r"#(\d+)\b")
_GROUP_DEF = re.compile(r"attributes #(\d+) = \{(.*)\}")
_STRING_ATTR = re.compile(r'"([^"]+)"="([^"]*)"')


#: Each module's attribute groups, read once: groups come from the parsed text, and the only ones added
#: afterwards are this module's (added to the cache too), while derivatives are made by the hundred.
_GROUPS: "weakref.WeakKeyDictionary[Module, dict[str, str]]" = weakref.WeakKeyDictionary()


def _groups(module: Module) -> dict[str, str]:
    """Attribute group number -> its body text."""
    out = _GROUPS.get(module)
    if out is None:
        out = _GROUPS[module] = {}
        for e in module.entities:
            if isinstance(e, RawEntity) and e.kind == "attributes":
                m = _GROUP_DEF.match(e.text.strip())
                if m:
                    out[m.group(1)] = m.group(2)
    return out


def target_attributes(fn: Function) -> str:
    """The inherited attributes of ``fn``, as attribute-group text (empty if it has none)."""
    module = fn.module
    if not isinstance(module, Module):
        return ""
    groups = _groups(module)
    found: dict[str, str] = {}
    for ref in _GROUP_REF.findall(fn.suffix):
        for key, value in _STRING_ATTR.findall(groups.get(ref, "")):
            if key in INHERITED:
                found[key] = value
    return " ".join(f'"{k}"="{v}"' for k, v in sorted(found.items()))


def inherit_target_attributes(source: Function, target: Function) -> None:
    """Give ``target`` (a generated function) the code-generation attributes of ``source``."""
    text = target_attributes(source)
    module = source.module
    if not text or not isinstance(module, Module):
        return
    groups = _groups(module)
    number = next((n for n, body in groups.items() if body.strip() == text), None)
    if number is None:
        number = str(max((int(n) for n in groups), default=-1) + 1)
        module.entities.append(RawEntity("attributes", f"attributes #{number} = {{ {text} }}"))
        groups[number] = text
    target.suffix = f"{target.suffix} #{number}".strip()


_GPU_TRIPLES = ("nvptx", "amdgcn")


def is_gpu_module(module: Module) -> bool:
    """Is ``module`` GPU device code (NVPTX or AMDGPU)?  It has no realloc, so no growing tape."""
    return (module.triple or "").startswith(_GPU_TRIPLES)
