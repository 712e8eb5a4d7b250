"""Adding hand-written IR (runtime helpers of derivatives and rules) to a module."""
from __future__ import annotations

from .blocks import Function, Module
from .parser import parse_module
from .values import GlobalVariable


def add_helper_functions(module: Module, text: str) -> None:
    """Parse LLVM IR ``text`` and move its definitions into ``module``.

    Calls to declarations in ``text`` are rebound to ``module``'s declarations
    of the same name (declared there if missing).
    """
    helpers = parse_module(text)
    defined = [f for f in helpers.functions if not f.is_declaration]
    for f in defined:
        for inst in f.instructions():
            for use in inst.operand_uses:
                v = use.value
                if isinstance(v, Function) and v not in defined:
                    inst.set_operand(use.index, module.declare_function(v.name or "", v.function_type))
    for f in defined:
        f.module = None
        del helpers.globals[f.name or ""]
        module.add(f)
    # Constants the helpers use (message strings): moved too, or the module's own of the same name reused.
    for g in [g for g in helpers.globals.values() if isinstance(g, GlobalVariable)]:
        existing = module.globals.get(g.name or "")
        if existing is not None:
            g.replace_all_uses_with(existing)
            continue
        g.module = None
        del helpers.globals[g.name or ""]
        module.add(g)
