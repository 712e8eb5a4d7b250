"""Functions with derivatives registered in the module must stay calls until AD sees them.

A registration (``@__enzyme_register_derivative_*``, ``@__enzyme_register_gradient_*``,
``@__enzyme_inactivefn*``, the ``@__enzyme_function_like*`` and
``@__enzyme_allocation_like*`` tables) names the function it is for first, and
an ``enzyme_*`` entry of ``@llvm.global.annotations`` (Enzyme's source
attributes) names it too.  If the pre-AD pipeline inlined that function, the
rule would silently not apply to the inlined copies, so it is marked
``noinline`` before optimizing.  ``enzyme_nofree`` becomes LLVM's ``nofree``.
"""
from __future__ import annotations

import re

import llvmlite.binding as llvm

REGISTRATION_PREFIXES = ("__enzyme_register_derivative", "__enzyme_register_gradient", "__enzyme_inactivefn",
                         "__enzyme_function_like", "__enzyme_allocation_like")
_SYMBOL = r'("(?:[^"\\]|\\.)*"|[-\w$.]+)'  # @name or @"quoted name"
# The first entry of an array initializer, or the whole initializer when it is one pointer.
_FIRST_REFERENCE = re.compile(r'\[\s*ptr\s+@' + _SYMBOL + r'|=\s*[^@\n]*\bptr\s+@' + _SYMBOL + r'\s*$')
_REFERENCE = re.compile(r'\bptr\s+@' + _SYMBOL)
# One entry of @llvm.global.annotations: { ptr @annotated, ptr @string, ...
_ANNOTATION = re.compile(r'\{\s*ptr\s+@' + _SYMBOL + r',\s*ptr\s+@' + _SYMBOL)
_C_STRING = re.compile(r'c"([^"]*)"')


def registered_functions(mod: llvm.ModuleRef) -> list[str]:
    """Names of the functions the module registers derivatives (or inactivity, ...) for."""
    names: list[str] = []
    for g in mod.global_variables:
        name = re.sub(r"^_ZL\d+", "", g.name)  # C++ mangles internal globals
        if not name.startswith(REGISTRATION_PREFIXES):
            continue
        text = str(g).strip()
        m = _FIRST_REFERENCE.search(text)
        found = [(m.group(1) or m.group(2))] if m is not None else []
        if name.startswith("__enzyme_allocation_like"):
            found = [r for i, r in enumerate(_REFERENCE.findall(text)) if i in (0, 3)]  # allocator, deallocator
        names += [f.strip('"') for f in found]
    names += [fn for fn, annotation in annotated_functions(mod) if annotation.startswith("enzyme_")]
    return list(dict.fromkeys(names))


def annotated_functions(mod: llvm.ModuleRef) -> list[tuple[str, str]]:
    """(function, annotation text) for each ``@llvm.global.annotations`` entry on a function."""
    variables = {g.name: g for g in mod.global_variables}  # (get_global_variable misses private ones)
    table = variables.get("llvm.global.annotations")
    if table is None:
        return []
    functions = {f.name for f in mod.functions}
    out = []
    for target, string in _ANNOTATION.findall(str(table)):
        target, string = target.strip('"'), string.strip('"')
        text = _C_STRING.search(str(variables[string])) if string in variables else None
        if target in functions and text is not None:
            out.append((target, text.group(1).split("\\00", 1)[0]))
    return out


def keep_registered_calls(mod: llvm.ModuleRef) -> list[str]:
    """Mark registered functions ``noinline``; returns those the frontend may already have inlined.

    Those are functions defined in the module without ``noinline``: an
    optimizing frontend (clang -O1 and up) may have inlined calls to them
    before pyenzyme saw the module.
    """
    for name, annotation in annotated_functions(mod):
        if annotation == "enzyme_nofree":
            mod.get_function(name).add_function_attribute("nofree")
    exposed: list[str] = []
    for name in registered_functions(mod):
        try:
            fn = mod.get_function(name)
        except NameError:
            continue
        if fn.is_declaration:
            continue
        attrs = {a.decode() if isinstance(a, bytes) else str(a) for a in fn.attributes}
        if not any("noinline" in a for a in attrs):
            exposed.append(name)
            if any("alwaysinline" in a for a in attrs):
                continue  # noinline + alwaysinline is invalid IR; the warning says what to do
            fn.add_function_attribute("noinline")
    return exposed
