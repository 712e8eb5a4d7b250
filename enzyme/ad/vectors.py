"""Forward and reverse mode of the vector instructions and reductions.

Element-wise vector arithmetic, loads, stores, selects and casts go through
the generic paths of reverse.py (adjoints are vectors like their values).
Here are the instructions that move values between lanes:

* ``r = extractelement v, i``: ``dv[i] += dr``;
* ``r = insertelement v, s, i``: ``ds += dr[i]``, ``dv += dr`` with lane ``i`` zeroed;
* ``r = shufflevector a, b, mask``: lane ``j`` of ``r`` is lane ``mask[j]`` of
  ``a ++ b``, so each source lane gets the sum of the output lanes that read
  it.  A source lane read ``k`` times needs ``k`` rounds; each round is one
  shufflevector of ``dr`` (and zeros) into the source's shape;
* ``llvm.vector.reduce.fadd(s, v)``: ``ds += dr``, ``dv += splat(dr)``
  (with or without ``reassoc``: the sum's derivative does not depend on the order);
* ``llvm.vector.reduce.fmul(s, v)``: ``∂/∂v_i = s·Π_{j≠i} v_j`` from prefix and
  suffix products (no division, so zero lanes are fine), ``ds += Π v · dr``;
* ``llvm.vector.reduce.fmax/fmin/fmaximum/fminimum(v)``: the derivative goes to
  the first lane equal to the result.

Forward mode: ``reduce.fadd`` is linear (the tangent is ``reduce.fadd(ds, dv)``),
``reduce.fmul`` follows the product rule along the chain, and the selecting
reductions take the tangent of the lane they pick, as above.

Scalable vectors (``<vscale x 2 x double>``) have no fixed lane count and are refused.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import DifferentiationError
from ..ir import (
    CallInst,
    Constant,
    ConstantAggregate,
    ConstantInt,
    ConstantKeyword,
    ExtractElementInst,
    InsertElementInst,
    Instruction,
    ShuffleVectorInst,
    Value,
)
from ..ir.builder import const_int
from ..ir.types import I1, VectorType
from ..rules.names import intrinsic_base
from .common import adjoint_zero, describe, value_name, zero, zero_where_seeds_zero

if TYPE_CHECKING:
    from ..ir.builder import Builder
    from .forward_state import ForwardState
    from .reverse_state import ReverseState

def is_vector_lane_instruction(inst: Instruction) -> bool:
    return isinstance(inst, (ExtractElementInst, InsertElementInst, ShuffleVectorInst))


def _lanes(inst: Instruction, t: VectorType, mode: str = "reverse") -> int:
    if t.scalable:
        raise DifferentiationError(f"{describe(inst)}: scalable vectors are not supported in {mode} mode yet")
    return t.count


def reverse_lane_instruction(gen: ReverseState, b: Builder, inst: Instruction) -> None:
    """Reverse of extractelement / insertelement / shufflevector (see the module doc)."""
    if inst not in gen.active:
        return
    d = gen.take_adjoint(b, inst)
    if isinstance(inst, ExtractElementInst):
        v, idx = inst.operands
        _lanes(inst, v.type)  # type: ignore[arg-type]
        gen.add_adjoint(b, v, b.insertelement(adjoint_zero(v.type), d, gen.primal(idx)))
    elif isinstance(inst, InsertElementInst):
        v, s, idx = inst.operands
        i = gen.primal(idx)
        if s in gen.active:
            gen.add_adjoint(b, s, b.extractelement(d, i))
        if v in gen.active:
            gen.add_adjoint(b, v, b.insertelement(d, adjoint_zero(s.type), i))
    elif isinstance(inst, ShuffleVectorInst):
        _reverse_shuffle(gen, b, inst, d)


def _mask_values(inst: ShuffleVectorInst, count: int) -> list[int]:
    """The mask as lane numbers, -1 for undef/poison lanes."""
    m = inst.mask
    if isinstance(m, ConstantKeyword):
        if m.keyword == "zeroinitializer":
            return [0] * count
        if m.keyword in ("undef", "poison"):
            return [-1] * count
    if isinstance(m, ConstantAggregate):
        out = []
        for e in m.elements:
            if isinstance(e, ConstantInt):
                out.append(e.value)
            elif isinstance(e, ConstantKeyword) and e.keyword in ("undef", "poison"):
                out.append(-1)
            else:
                break
        else:
            return out
    raise DifferentiationError(f"{describe(inst)}: cannot read this shufflevector mask in reverse mode")


def _reverse_shuffle(gen: ReverseState, b: Builder, inst: ShuffleVectorInst, d: Value) -> None:
    a, c = inst.operands
    at = a.type
    assert isinstance(at, VectorType)
    n = _lanes(inst, at)
    out_n = _lanes(inst, inst.type)  # type: ignore[arg-type]
    mask = _mask_values(inst, out_n)
    for src, offset in ((a, 0), (c, n)):
        if src not in gen.active:
            continue
        # readers[i]: the output lanes that read source lane i, in order.
        readers: list[list[int]] = [[j for j, m in enumerate(mask) if m == offset + i] for i in range(n)]
        rounds = max((len(r) for r in readers), default=0)
        for k in range(rounds):
            # Lane i of this round's contribution: output lane readers[i][k], or a zero (lane out_n of ``zero``).
            sel = [r[k] if k < len(r) else out_n for r in readers]
            contrib = b.insert(ShuffleVectorInst(d, adjoint_zero(d.type), _mask_constant(sel), at))
            gen.add_adjoint(b, src, contrib)


def _mask_constant(lanes: list[int]) -> Constant:
    from ..ir.types import I32
    return ConstantAggregate(VectorType(len(lanes), I32), [const_int(I32, i) for i in lanes])


def reverse_reduction(gen: ReverseState, b: Builder, inst: CallInst) -> None:
    """Reverse of the floating-point vector reductions (see the module doc)."""
    if inst not in gen.active:
        return
    base = intrinsic_base(inst.callee_name or "") or ""
    d = gen.take_adjoint(b, inst)
    if base in ("vector.reduce.fadd", "vector.reduce.fmul"):
        s, v = inst.args
    else:
        (v,) = inst.args
        s = None
    vt = v.type
    assert isinstance(vt, VectorType)
    n = _lanes(inst, vt)
    if base == "vector.reduce.fadd":
        if s is not None:
            gen.add_adjoint(b, s, d)
        gen.add_adjoint(b, v, _splat(b, d, vt, n))
    elif base == "vector.reduce.fmul":
        assert s is not None
        pv = gen.primal(v)
        lanes = [b.extractelement(pv, i) for i in range(n)]
        prefix: list[Value] = [gen.primal(s)]  # prefix[i] = s·v_0···v_{i-1}
        for i in range(n):
            prefix.append(b.fmul(prefix[-1], lanes[i]))
        suffix: Value | None = None  # v_{i+1}···v_{n-1}
        dv: Value = zero(vt)
        for i in reversed(range(n)):
            part = prefix[i] if suffix is None else b.fmul(prefix[i], suffix)
            dv = b.insertelement(dv, zero_where_seeds_zero(b, [d], b.fmul(part, d)), i)  # see _reverse_rule
            suffix = lanes[i] if suffix is None else b.fmul(lanes[i], suffix)
        gen.add_adjoint(b, v, dv)
        if s in gen.active:
            ds = b.fmul(suffix if suffix is not None else _one(vt), d)
            gen.add_adjoint(b, s, zero_where_seeds_zero(b, [d], ds))
    else:
        r = gen.primal(inst)
        pv = gen.primal(v)
        found: Value = const_int(I1, 0)
        dv = zero(vt)
        z = zero(vt.element)
        for i in range(n):
            hit = b.binop("and", b.fcmp("oeq", b.extractelement(pv, i), r), b.binop("xor", found, const_int(I1, 1)))
            dv = b.insertelement(dv, b.select(hit, d, z), i)
            found = b.binop("or", found, hit)
        gen.add_adjoint(b, v, dv)


def _splat(b: Builder, s: Value, t: VectorType, n: int) -> Value:
    v: Value = ConstantKeyword(t, "poison")
    for i in range(n):
        v = b.insertelement(v, s, i)
    return v


def _one(t: VectorType) -> Value:
    from ..ir.builder import const_fp
    return const_fp(t.element, 1.0)


def forward_reduction(st: ForwardState, inst: CallInst, ni: CallInst, b: Builder) -> None:
    """Tangent of a floating-point vector reduction in the current lane (see the module doc)."""
    base = intrinsic_base(inst.callee_name or "") or ""
    if all(st.tangent(a) is None for a in inst.args):
        return
    if base == "vector.reduce.fadd":
        c = ni.clone()
        c.set_operand(0, st.t(inst.args[0]))
        c.set_operand(1, st.t(inst.args[1]))
        st.tan[inst] = b.insert(c, value_name(inst, "'"))
        return
    vec = inst.args[-1]
    vt = vec.type
    assert isinstance(vt, VectorType)
    n = _lanes(inst, vt, "forward")
    dvec = st.t(vec)
    if base == "vector.reduce.fmul":
        p, dp = ni.args[0], st.t(inst.args[0])
        for i in range(n):
            x, dx = b.extractelement(ni.args[1], i), b.extractelement(dvec, i)
            dp = b.fadd(b.fmul(dp, x), b.fmul(p, dx))
            p = b.fmul(p, x)
        dp.name = value_name(inst, "'")
        st.tan[inst] = dp
        return
    t: Value = zero(vt.element)  # the first lane equal to the result, as in reverse mode
    for i in reversed(range(n)):
        hit = b.fcmp("oeq", b.extractelement(ni.args[0], i), ni)
        t = b.select(hit, b.extractelement(dvec, i), t)
    t.name = value_name(inst, "'")
    st.tan[inst] = t
