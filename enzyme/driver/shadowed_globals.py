"""Globals with a shadow (``enzyme_shadow``) as the engine sees them: plain operands.

The generators find a shadowed global's shadow by the global itself (seeded
like an argument's shadow), and derive the shadows of GEPs and casts of it
as they go.  Code often reaches a global through a constant expression
(``load double, ptr getelementptr inbounds ([4 x double], ptr @state, i64
0, i64 2)``), which is not an instruction; those are rewritten into the
equivalent instructions first, in every function that mentions a shadowed
global.  LLVM folds them back after differentiation.
"""
from __future__ import annotations

from ..ad.custom import custom_rules
from ..analysis.debuginfo import describe
from ..errors import DifferentiationError
from ..ir import Block, ConstantExpr, GEPInst, GlobalVariable, Instruction, Module, PhiInst, Value
from ..ir.builder import Builder, InsertPoint


def expose_shadowed_globals(module: Module) -> None:
    """Replace constant expressions over globals with a shadow by instructions (see the module docstring)."""
    shadowed = set(custom_rules(module).shadows)
    if not shadowed:
        return
    for fn in module.functions:
        for inst in list(fn.instructions()):
            for i, op in enumerate(inst.operands):
                if isinstance(op, ConstantExpr) and _mentions(op, shadowed):
                    if isinstance(inst, PhiInst):  # operands alternate value, block
                        block = inst.operands[i + 1]
                        assert isinstance(block, Block)
                        at = InsertPoint.before_terminator(block)
                    else:
                        at = InsertPoint.before_inst(inst)
                    inst.set_operand(i, _as_instructions(Builder(at), op, shadowed, inst))


def _mentions(c: Value, shadowed: set[GlobalVariable]) -> bool:
    if isinstance(c, GlobalVariable):
        return c in shadowed
    return isinstance(c, ConstantExpr) and any(_mentions(o, shadowed) for o in c.operands)


def _as_instructions(b: Builder, c: Value, shadowed: set[GlobalVariable], user: Instruction) -> Value:
    if not (isinstance(c, ConstantExpr) and _mentions(c, shadowed)):
        return c
    ops = [_as_instructions(b, o, shadowed, user) for o in c.operands]
    if c.opcode == "getelementptr":
        assert c.source_type is not None
        return b.insert(GEPInst(c.source_type, ops[0], ops[1:], c.type, c.flags.split()))
    if c.opcode in ("bitcast", "addrspacecast"):
        return b.cast(c.opcode, ops[0], c.type)
    raise DifferentiationError(f"{describe(user)}: uses a global with a shadow through a constant `{c.opcode}` expression, "
                               "whose shadow pyenzyme cannot follow; index the global with a plain pointer instead")
