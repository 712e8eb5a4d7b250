"""The C99 complex functions (``cexp``, ``cpow``, ``carg``, ...: rules/complex_functions.py) in every mode.

The rules speak of (re, im) parts; this module finds them in the target's calling convention,
which clang picks per part type on x86-64:

* ``double``: each complex operand is two ``double`` operands, the result ``{double, double}``;
* ``float``: each operand and the result is a ``<2 x float>``;
* ``long double``: each operand is a ``ptr byval({x86_fp80, x86_fp80})`` to a copy the caller
  made, the result ``{x86_fp80, x86_fp80}``.  Its tangent and adjoint live in the shadow of
  that copy; its primal parts are read in the augmented sweep and taped, since the copy may be
  reused (a loop at -O0) before the reverse sweep.

A real-valued function (``carg``, ``cabs``) returns the part type itself.  Forward mode:
``dw = Σ f'_k(z)·dz_k`` (complex products); reverse mode: ``dz_k += conj(f'_k(z))·dw``,
or the real partials times the real adjoint.  Each lane runs this separately; the partials
are emitted once per call (the Emitter is shared by the lanes, as for scalar rules).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import DifferentiationError
from ..ir import CallInst, Value
from ..ir.builder import const_int
from ..ir.types import I32, FloatType, PointerType, StructType, Type, VectorType
from ..rules.complex_functions import RESULT_SLOTS, ComplexRule, Cx
from ..rules.emit import Emitter
from .common import describe, zero, zero_where_seeds_zero
from .device import accumulate_into

if TYPE_CHECKING:
    from ..ir.builder import Builder
    from .forward_state import ForwardState
    from .reverse_state import ReverseState

Pair = tuple[Value, Value]


@dataclass(frozen=True)
class ComplexAbi:
    """How one call passes its complex operands: ``kind`` is ``pair``, ``vector`` or ``memory``."""

    kind: str
    part: FloatType

    @property
    def complex_type(self) -> Type:
        return StructType((self.part, self.part))

    def operands(self, args: list[Value], k: int) -> list[Value]:
        """The call operands making up complex operand ``k``."""
        return args[2 * k:2 * k + 2] if self.kind == "pair" else [args[k]]

    def parts(self, b: Builder, vals: list[Value]) -> Pair:
        """(re, im) of one complex operand given its call operands (a pointer for ``memory``)."""
        if self.kind == "pair":
            return vals[0], vals[1]
        if self.kind == "vector":
            return b.extractelement(vals[0], 0), b.extractelement(vals[0], 1)
        return b.load(self.part, self.part_address(b, vals[0], 0)), b.load(self.part, self.part_address(b, vals[0], 1))

    def part_address(self, b: Builder, ptr: Value, i: int) -> Value:
        """The address of part ``i`` (0: re, 1: im) of the complex number at ``ptr``."""
        return b.gep(self.complex_type, ptr, [0, const_int(I32, i)])


def complex_abi(inst: CallInst, rule: ComplexRule) -> ComplexAbi | None:
    """The convention of ``inst``'s operands and result, or None if it is none of the three."""
    args, n = inst.args, rule.operands
    result = inst.type
    if rule.complex_result:
        if isinstance(result, StructType) and len(result.elements) == 2 and result.elements[0] == result.elements[1]:
            part = result.elements[0]
        elif isinstance(result, VectorType) and result.count == 2 and not result.scalable:
            part = result.element
        else:
            return None
    else:
        part = result
    if not isinstance(part, FloatType):
        return None
    if len(args) == 2 * n and all(a.type == part for a in args) and not isinstance(result, VectorType):
        return ComplexAbi("pair", part)
    if len(args) == n and all(a.type == VectorType(2, part) for a in args) and not isinstance(result, StructType):
        return ComplexAbi("vector", part)
    if len(args) == n and all(isinstance(a.type, PointerType) for a in args) and not isinstance(result, VectorType):
        return ComplexAbi("memory", part)
    return None


def abi_or_refuse(inst: CallInst, rule: ComplexRule) -> ComplexAbi:
    abi = complex_abi(inst, rule)
    if abi is None:
        raise DifferentiationError(
            f"{describe(inst)}: @{inst.callee_name} is called with operands {', '.join(str(a.type) for a in inst.args)} "
            f"returning {inst.type}, which is none of the complex calling conventions pyenzyme knows (two doubles, "
            "<2 x float>, a byval pointer); register a custom derivative")
    return abi


def _result_parts(b: Builder, result: Value) -> Pair:
    if isinstance(result.type, VectorType):
        return b.extractelement(result, 0), b.extractelement(result, 1)
    return b.extractvalue(result, [0]), b.extractvalue(result, [1])


def _pack(b: Builder, like: Type, re: Value, im: Value) -> Value:
    agg: Value = zero(like)
    if isinstance(like, VectorType):
        return b.insertelement(b.insertelement(agg, re, 0), im, 1)
    return b.insertvalue(b.insertvalue(agg, re, [0]), im, [1])


def _emitter(b: Builder, abi: ComplexAbi, rule: ComplexRule, operand_parts: list[Pair], result: Value) -> Emitter:
    """An Emitter over the rule's slots: the operands' parts, then the result's parts (or R, a real result)."""
    slots: list[Value] = [p for pair in operand_parts for p in pair]
    slots += [zero(abi.part)] * (RESULT_SLOTS[0] - len(slots))
    real_result: Value | None = result
    if rule.complex_result:
        slots += list(_result_parts(b, result))
        real_result = None
    return Emitter(b.function.module, b, slots, real_result, abi.part)  # type: ignore[arg-type]


def _times_cx(em: Emitter, b: Builder, f: Cx, d: Pair, singular: bool) -> Pair:
    """f·d for a complex partial ``f`` and a complex seed ``d``."""
    return (b.fsub(em.times(f.re, d[0], singular=singular), em.times(f.im, d[1], singular=singular)),
            b.fadd(em.times(f.re, d[1], singular=singular), em.times(f.im, d[0], singular=singular)))


def _conj_times_cx(em: Emitter, b: Builder, f: Cx, d: Pair, singular: bool) -> Pair:
    """conj(f)·d: the transpose of multiplying by ``f``, on (re, im) pairs."""
    return (b.fadd(em.times(f.re, d[0], singular=singular), em.times(f.im, d[1], singular=singular)),
            b.fsub(em.times(f.re, d[1], singular=singular), em.times(f.im, d[0], singular=singular)))


# -- forward mode ----------------------------------------------------------------------------------


def forward_complex_function(st: ForwardState, inst: CallInst, ni: CallInst, b: Builder, rule: ComplexRule) -> None:
    """The tangent of a complex function call, for the current lane."""
    abi = abi_or_refuse(inst, rule)
    n = rule.operands
    seeds: list[Pair | None] = []
    for k in range(n):
        ops = abi.operands(inst.args, k)
        tans = [st.tangent(a) for a in ops]
        if all(t is None for t in tans):
            seeds.append(None)
        elif abi.kind == "pair":
            seeds.append((st.t(ops[0]), st.t(ops[1])))
        else:
            seeds.append(abi.parts(b, [st.t(ops[0])]))
    if all(s is None for s in seeds):
        return
    em = st.emitters.get(inst)
    if em is None:
        em = st.emitters[inst] = _emitter(b, abi, rule, [abi.parts(b, abi.operands(ni.args, k)) for k in range(n)], ni)
    re: Value | None = None
    im: Value | None = None
    for k, seed in enumerate(seeds):
        if seed is None:
            continue
        if rule.complex_result:
            f = rule.derivatives[k]
            if f is None:
                continue
            t_re, t_im = _times_cx(em, b, f, seed, rule.singular)
            im = t_im if im is None else b.fadd(im, t_im)
        else:
            t_re = b.fadd(em.times(rule.partials[2 * k], seed[0], singular=rule.singular),
                          em.times(rule.partials[2 * k + 1], seed[1], singular=rule.singular))
        re = t_re if re is None else b.fadd(re, t_re)
    if re is None:
        return
    st.tan[inst] = _pack(b, inst.type, re, im) if im is not None else re


# -- reverse mode ----------------------------------------------------------------------------------


def augment_complex_function(st: ReverseState, inst: CallInst, ni: CallInst, b: Builder, rule: ComplexRule) -> None:
    """``long double``: tape the operands' parts, read from the caller's copies now (module docstring)."""
    abi = abi_or_refuse(inst, rule)
    if abi.kind != "memory" or inst not in st.active:
        return
    st.refuse_batch(inst, f"@{inst.callee_name} with byval complex operands")
    for k in range(rule.operands):
        for part in abi.parts(b, abi.operands(ni.args, k)):
            st.push(b, part)


def reverse_complex_function(st: ReverseState, b: Builder, inst: CallInst, rule: ComplexRule) -> None:
    """Add the adjoint of the call's result into its complex operands, for the current lane."""
    if inst not in st.active:
        return
    abi = abi_or_refuse(inst, rule)
    n = rule.operands
    d = st.take_adjoint(b, inst)
    seed: Pair = _result_parts(b, d) if rule.complex_result else (d, d)
    seeds = list(seed) if rule.complex_result else [d]
    em = st.emitters.get(inst)
    if em is None:
        if abi.kind == "memory":  # popped in the reverse order of the pushes
            popped = [st.pop(b, abi.part) for _ in range(2 * n)][::-1]
            parts = [(popped[2 * k], popped[2 * k + 1]) for k in range(n)]
        else:
            parts = [abi.parts(b, [st.primal(a) for a in abi.operands(inst.args, k)]) for k in range(n)]
        em = st.emitters[inst] = _emitter(b, abi, rule, parts, st.primal(inst))
    for k in range(n):
        ops = abi.operands(inst.args, k)
        if rule.complex_result:
            f = rule.derivatives[k]
            if f is None:
                continue
            dz = _conj_times_cx(em, b, f, seed, rule.singular)
        else:
            dz = (em.times(rule.partials[2 * k], d, singular=rule.singular),
                  em.times(rule.partials[2 * k + 1], d, singular=rule.singular))
        # A dropped result has zero adjoints; 0·inf from a singular partial must stay out (as reverse_rule).
        dz = (zero_where_seeds_zero(b, seeds, dz[0]), zero_where_seeds_zero(b, seeds, dz[1]))
        _add_operand_adjoint(st, b, abi, ops, dz)


def _add_operand_adjoint(st: ReverseState, b: Builder, abi: ComplexAbi, ops: list[Value], dz: Pair) -> None:
    if abi.kind == "pair":
        st.add_adjoint(b, ops[0], dz[0])
        st.add_adjoint(b, ops[1], dz[1])
    elif abi.kind == "vector":
        if ops[0] in st.active:
            st.add_adjoint(b, ops[0], _pack(b, ops[0].type, *dz))
    elif ops[0] in st.shadow:  # the shadow of the caller's byval copy
        shadow = st.available(st.shadow[ops[0]])
        for i, part in enumerate(dz):
            slot = abi.part_address(b, shadow, i)
            accumulate_into(st.m, b, slot, part, None, lambda b, x, y: b.fadd(x, y))
