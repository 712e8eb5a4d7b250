"""Reverse mode of calls to functions with user-registered gradients or marked inactive.

With ``__enzyme_register_gradient_*`` = ``{foo, foo_aug, foo_rev}`` (see
custom.py for the calling convention), a call ``r = foo(args)`` becomes

* in the augmented sweep: ``{r, t} = foo_aug(args with pointer shadows)``;
  ``r`` replaces foo's result and the rule's tape pointer ``t`` goes on our
  tape (like any value the reverse sweep needs).  A ``foo_aug`` that returns
  only ``t`` (or nothing) leaves the call to foo in place for ``r``;
* in the reverse sweep: ``adj = foo_rev(args with pointer shadows, [dr], [t])``
  and the returned adjoints are added to the float arguments' adjoints.
  The primal arguments are recomputed or taped as for any instruction.

A pointer argument without a shadow (constant memory) gets a null shadow: a
rule that writes into it crashes instead of corrupting primal memory.
``__enzyme_inactivefn_*`` functions are called as they are and carry no
derivative.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import DifferentiationError
from ..ir import CallInst, ConstantKeyword, Function, Instruction, Value
from ..ir.builder import Builder, InsertPoint
from ..ir.types import PTR, PointerType
from .common import describe, value_name, zero
from .checkpoint import checkpoint_gradient, checkpoint_of
from .fixed_point import fixed_point_gradient, fixed_point_of
from .indirect import reaches_shadowed_global
from .custom import adjoint_types, custom_rules, has_tape, is_float, returns_primal, writes_only_its_stack

if TYPE_CHECKING:
    from .reverse_state import ReverseState


def _custom_gradient(gen: ReverseState, inst: CallInst) -> tuple[Function, Function] | None:
    callee = inst.called_function
    fixed = fixed_point_of(gen.m, callee)
    if fixed is not None:  # made for the activities of this call (enzyme.ad.fixed_point)
        assert callee is not None
        acts = tuple("dup" if isinstance(a.type, PointerType) and gen.shadow_or_none(a) is not None else "const"
                     for a in inst.args)
        return fixed_point_gradient(gen.ctx, callee, fixed, acts, gen.sweeps_of)
    ckpt = checkpoint_of(gen.m, callee)
    if ckpt is not None:  # made for the activities of this call (enzyme.ad.checkpoint)
        assert callee is not None
        acts = tuple("dup" if isinstance(a.type, PointerType) and gen.shadow_or_none(a) is not None else "const"
                     for a in inst.args)
        if any(a in gen.active for a in inst.args):
            raise DifferentiationError(f"{ckpt.site}: an argument of the step passed by value is active; pass it "
                                       "through a pointer")
        return checkpoint_gradient(gen.ctx, callee, ckpt, acts, gen.width,
                                   lambda step, step_acts: gen.sweeps_of(step, step_acts))
    return custom_rules(gen.m).gradient(callee)


def _involved(gen: ReverseState, inst: CallInst) -> bool:
    """Does the call carry any derivative (active float argument or result, or shadowed memory; for a
    checkpointed loop also a global with a shadow that its steps reach)?"""
    if inst in gen.active or any(a in gen.active or a in gen.shadow for a in inst.args):
        return True
    return checkpoint_of(gen.m, inst.called_function) is not None and reaches_shadowed_global(gen.ctx, inst)


def _rule_args(gen: ReverseState, inst: CallInst, values: list[Value],
               shadow_of: Callable[[Value], Value | None]) -> list[Value]:
    """The arguments of a registered gradient: each pointer followed by its shadow (null where it has none); in
    batch mode (checkpointed loops only) by one shadow per lane."""
    out: list[Value] = []
    for a, v in zip(inst.args, values):
        out.append(v)
        if isinstance(a.type, PointerType):
            for _ in gen.lanes():
                s = shadow_of(a)
                out.append(s if s is not None else ConstantKeyword(PTR, "null"))
    return out


def augment_custom_call(gen: ReverseState, inst: CallInst, ni: Instruction, b: Builder) -> None:
    """Call ``foo_aug`` instead of ``foo``; remember its tape pointer for the reverse sweep."""
    assert isinstance(ni, CallInst)
    pair = _custom_gradient(gen, inst)
    assert pair is not None
    if not _involved(gen, inst):
        return  # nothing active flows through: the plain call stays
    if isinstance(inst.type, PointerType) and inst.has_uses:
        raise DifferentiationError(f"{describe(inst)}: @{inst.callee_name} returns a pointer; custom gradients "
                                   "cannot give it a shadow, so its derivative could not be followed")
    aug, _ = pair
    callee = inst.called_function
    assert callee is not None
    if not returns_primal(aug, callee):
        # foo_aug does not give foo's result: call it first (it sees foo's inputs), then foo for the
        # result, which is only sound when foo changes no memory its caller can see.
        if not inst.type.is_void and not writes_only_its_stack(callee):
            raise DifferentiationError(
                f"{describe(inst)}: the registered augmented forward @{aug.name} does not return @{callee.name}'s "
                f"result and @{callee.name} writes memory, so it cannot be called again for it; make "
                f"@{aug.name} return {{result, tape}}")
        res = Builder(InsertPoint.before_inst(ni)).call(aug, _rule_args(gen, inst, list(ni.args),
                                                                        gen.shadow_or_none))
        gen.custom_tapes[inst] = res if has_tape(aug) else ConstantKeyword(PTR, "null")
        if inst.type.is_void:
            ni.erase()  # foo_aug does foo's work
        return
    res = b.call(aug, _rule_args(gen, inst, list(ni.args), gen.shadow_or_none))
    tape: Value
    if inst.type.is_void:
        tape = res
    else:
        primal = b.extractvalue(res, [0])
        tape = b.extractvalue(res, [1], value_name(inst, ".tape"))
        ni.replace_all_uses_with(primal)
        primal.name = ni.name
        gen.fwd[inst] = primal
    gen.custom_tapes[inst] = tape
    ni.erase()


def reverse_custom_call(gen: ReverseState, b: Builder, inst: CallInst) -> None:
    """Call ``foo_rev`` and add the adjoints it returns to the float arguments."""
    tape = gen.custom_tapes.get(inst)
    if tape is None:
        return  # the plain call was kept
    pair = _custom_gradient(gen, inst)
    assert pair is not None
    aug, rev = pair
    def shadow_in_reverse(a: Value) -> Value | None:
        s = gen.shadow_or_none(a)
        return gen.available(s) if s is not None else None

    args = _rule_args(gen, inst, [gen.primal(a) for a in inst.args], shadow_in_reverse)
    if is_float(inst.type):
        args.append(gen.take_adjoint(b, inst) if inst in gen.active else zero(inst.type))
    if has_tape(aug):
        args.append(gen.available(tape))
    res = b.call(rev, args)
    callee = inst.called_function
    assert callee is not None
    n = len(adjoint_types(callee))
    k = 0
    for a in inst.args:
        if is_float(a.type):
            gen.add_adjoint(b, a, res if n == 1 else b.extractvalue(res, [k]))
            k += 1
