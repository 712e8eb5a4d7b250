"""Printer passes: the analyses' results as text, one line per value, for tests and the CLI.

``print_types`` mirrors Enzyme's ``-print-type-analysis`` loosely::

    @f
    %0: {[-1]:Pointer, [-1,-1]:Float@double}
    %4 = load double, ptr %3, align 8: {[-1]:Float@double}

``print_activity``::

    @f [dup, const] ret active
    %x: active value
    %4 = fmul double %3, %3: active value, active instruction
    store double %4, ptr %p: active instruction
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import UsageError
from ..ir import Function, Module
from .debuginfo import instruction_text, value_name

if TYPE_CHECKING:
    from .activity import ActivityResult


def _function(module: Module, fname: str) -> Function:
    f = module.get_function(fname.lstrip("@"))
    if f is None:
        names = ", ".join(sorted(g.name or "" for g in module.functions if not g.is_declaration)[:10])
        raise UsageError(f"no function @{fname.lstrip('@')} in the module (defined: {names})")
    if f.is_declaration:
        raise UsageError(f"@{f.name} is only declared; analyses need a function body")
    return f


def print_types(module: Module, fname: str) -> str:
    """The type tree of every argument and instruction of ``@fname`` (defaults for the arguments)."""
    from .type_analysis import TypeAnalysis

    f = _function(module, fname)
    info = TypeAnalysis(module).analyze(f)
    lines = [f"@{f.name}"]
    for a in f.args:
        lines.append(f"{value_name(a)}: {info.tree(a)}")
    for inst in f.instructions():
        if inst.type.is_void:
            continue
        lines.append(f"{instruction_text(inst)}: {info.tree(inst)}")
    lines.append(f"return: {info.return_tree}")
    for c in info.conflicts:
        lines.append(f"conflict: {c.message()}")
    return "\n".join(lines) + "\n"


def print_activity(module: Module, fname: str, activities: list[str], ret_active: bool = False) -> str:
    """Activity of every argument and instruction of ``@fname`` under the given argument activities."""
    from .activity import analyze_activity

    f = _function(module, fname)
    return format_activity(analyze_activity(module, f, activities, ret_active))


def format_activity(result: ActivityResult) -> str:
    """One line per argument and instruction: what :class:`ActivityResult` answers for it."""
    f = result.function
    head = f"@{f.name} [{', '.join(result.activities)}]" + (" ret active" if result.ret_active else "")
    lines = [head]
    for a in f.args:
        lines.append(f"{value_name(a)}: {_word(result.is_constant_value(a))} value")
    for inst in f.instructions():
        ci = _word(result.is_constant_instruction(inst))
        if inst.type.is_void:
            lines.append(f"{instruction_text(inst)}: {ci} instruction")
        else:
            cv = _word(result.is_constant_value(inst))
            lines.append(f"{instruction_text(inst)}: {cv} value, {ci} instruction")
    for g in result.active_globals:
        lines.append(f"{value_name(g)}: active global")
    for err in result.errors:
        lines.append(f"error: {err}")
    return "\n".join(lines) + "\n"


def _word(constant: bool) -> str:
    return "constant" if constant else "active"
