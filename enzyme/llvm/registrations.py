"""Functions with derivatives registered in the module must stay calls until AD sees them.

A registration (``@__enzyme_register_derivative_*``, ``@__enzyme_register_gradient_*``,
``@__enzyme_inactivefn*``) names the function it is for first.  If the pre-AD
pipeline inlined that function, its registered rule would silently not apply
to the inlined copies, so it is marked ``noinline`` before optimizing.
"""
from __future__ import annotations

import re

import llvmlite.binding as llvm

REGISTRATION_PREFIXES = ("__enzyme_register_derivative", "__enzyme_register_gradient", "__enzyme_inactivefn")
_SYMBOL = r'("(?:[^"\\]|\\.)*"|[-\w$.]+)'  # @name or @"quoted name"
# The first entry of an array initializer, or the whole initializer when it is one pointer.
_FIRST_REFERENCE = re.compile(r'\[\s*ptr\s+@' + _SYMBOL + r'|=\s*[^@\n]*\bptr\s+@' + _SYMBOL + r'\s*$')


def registered_functions(mod: llvm.ModuleRef) -> list[str]:
    """Names of the functions the module registers derivatives (or inactivity) for."""
    names: list[str] = []
    for g in mod.global_variables:
        if not g.name.startswith(REGISTRATION_PREFIXES):
            continue
        m = _FIRST_REFERENCE.search(str(g).strip())
        if m is not None:
            name = (m.group(1) or m.group(2)).strip('"')
            if name not in names:
                names.append(name)
    return names


def keep_registered_calls(mod: llvm.ModuleRef) -> list[str]:
    """Mark registered functions ``noinline``; returns those the frontend may already have inlined.

    Those are functions defined in the module without ``noinline``: an
    optimizing frontend (clang -O1 and up) may have inlined calls to them
    before pyenzyme saw the module.
    """
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
