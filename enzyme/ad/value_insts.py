"""Value-moving instructions (select, freeze, extract/insert of aggregates and vectors, shufflevector, ret).

They move values without computing: forward mode performs the same
operation on the tangents, reverse mode routes the adjoint back to where
each part came from (vectors.py for the instructions that move values
between vector lanes).  In the augmented sweep they move pointer shadows.
Side by side per mode; handlers.py lists which handler each class gets.
"""
from __future__ import annotations

from ..errors import DifferentiationError
from ..ir import (Constant, ConstantInt, ConstantKeyword, ExtractValueInst, InsertValueInst, Instruction, Module,
                  PointerType, ReturnInst, Value)
from ..ir.builder import Builder, InsertPoint
from ..ir.splice import add_helper_functions
from ..ir.types import I1, VectorType
from ..ir.values import ref
from .aggregate_shadows import holds_pointers
from .common import describe, value_name, zero
from .device import device_paths
from .forward_state import ForwardState
from .lanes import pack
from .memory_insts import has_tangent, shadow_name
from .reverse_state import ReverseState
from .special_calls import zero_derivative_field


# -- forward -----------------------------------------------------------------------------------------------------


def forward_select(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    ops = inst.operands
    if inst in st.unshadowed:
        return
    if has_tangent(inst.type) or ops[1] in st.float_bits or ops[2] in st.float_bits:
        if st.tangent(ops[1]) is not None or st.tangent(ops[2]) is not None:
            st.tan[inst] = b.select(ni.operand(0), st.t(ops[1]), st.t(ops[2]), value_name(inst, "'"))


def forward_extract(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """extractvalue, extractelement, freeze: the same operation on the tangent."""
    t = st.tangent(inst.operand(0))
    if t is not None and not zero_derivative_field(inst):
        c = ni.clone()
        c.set_operand(0, t)
        st.tan[inst] = b.insert(c, value_name(inst, "'"))


def forward_insert(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """insertvalue, insertelement, shufflevector: the same operation on the tangents."""
    ops = inst.operands
    if st.tangent(ops[0]) is not None or st.tangent(ops[1]) is not None:
        for v in ops[:2]:
            st.check_null_shadow(inst, v)
        c = ni.clone()
        c.set_operand(0, st.t(ops[0]))
        c.set_operand(1, st.t(ops[1]))
        st.tan[inst] = b.insert(c, value_name(inst, "'"))


def forward_return(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """``ret {primal, tangents of all lanes}`` where the derivative returns a tangent."""
    assert isinstance(inst, ReturnInst)
    if st.new.return_type == st.fn.return_type:
        return
    rb = Builder(InsertPoint.before_inst(ni))
    v = inst.value
    assert v is not None
    st.check_null_shadow(inst, v)
    agg = rb.insertvalue(ConstantKeyword(st.new.return_type, "undef"), ni.operand(0), [0])
    ni.set_operand(0, rb.insertvalue(agg, pack(rb, st.all_lanes(v)), [1]))


def no_derivative(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """Comparisons and control flow carry no tangent."""


# -- augmented ---------------------------------------------------------------------------------------------------


def augment_select(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    if not holds_pointers(inst.type) or inst in st.unshadowed:
        return
    sa, sb = st.shadow_or_none(inst.operand(1)), st.shadow_or_none(inst.operand(2))
    if (sa is None) != (sb is None) and isinstance(inst.type, PointerType):
        # One side points to memory without a shadow (a caller's local that holds no derivatives, as in
        # std::max of two size_t): a null shadow where that memory holds no floats, else the check below.
        missing = inst.operand(1) if sa is None else inst.operand(2)
        if st.null_shadow_error(inst, missing) is None:
            sa, sb = (zero(inst.type), sb) if sa is None else (sa, zero(inst.type))
    if sa is not None and sb is not None:
        st.shadow[inst] = b.select(ni.operand(0), sa, sb, shadow_name(st, inst))
    elif sa is not None or sb is not None:
        cond = ni.operand(0)
        if isinstance(cond.type, VectorType) or device_paths(st.m):
            raise DifferentiationError(f"{describe(inst)}: selects between a shadowed and an unshadowed "
                                       "pointer; not supported yet")
        # Upstream's customary case (an enzyme_inactive global or constant memory on the path not taken): the
        # derivative follows the shadowed pointer, and stops the program where the other one is picked.
        picks_shadowed = cond if sa is not None else b.binop("xor", cond, ConstantInt(I1, 1))
        unshadowed = inst.operand(2 if sa is not None else 1)
        stop_unless(st.m, b, picks_shadowed,
                    f"pyenzyme: {describe(inst)}: picked {_spelled(unshadowed)}, which has no shadow, so derivatives "
                    "through it cannot be kept; not supported yet")
        shadow = sa if sa is not None else sb
        assert shadow is not None
        st.shadow[inst] = shadow


def _spelled(v: Value) -> str:
    if isinstance(v, Constant):
        return ref(v)
    return f"%{v.name}" if v.name else "its other operand"


def stop_unless(m: Module, b: Builder, ok: Value, message: str) -> None:
    """A call that writes ``message`` to stderr and aborts the program unless ``ok`` (an ``i1``) is true."""
    name = m.unique_name("__pyenzyme_check")
    data = message.encode() + b"\n"
    text = "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else f"\\{c:02X}" for c in data)
    # write(2, ...) rather than stdio: abort() does not flush buffered streams.
    add_helper_functions(m, (
        f'@{name}.msg = private unnamed_addr constant [{len(data)} x i8] c"{text}"\n'
        "declare i64 @write(i32, ptr, i64)\ndeclare void @abort()\n"
        f"define internal void @{name}(i1 %ok) {{\nentry:\n  br i1 %ok, label %fine, label %stop\n"
        f"stop:\n  %r = call i64 @write(i32 2, ptr @{name}.msg, i64 {len(data)})\n  call void @abort()\n"
        "  unreachable\nfine:\n  ret void\n}\n"))
    check = m.get_function(name)
    assert check is not None
    b.call(check, [ok])


def augment_extractvalue(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, ExtractValueInst)
    s = st.shadow.get(inst.operand(0))
    if s is not None and holds_pointers(inst.type):
        st.shadow[inst] = b.extractvalue(s, inst.indices, shadow_name(st, inst))


def augment_insertvalue(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, InsertValueInst)
    agg, val = inst.operands
    if holds_pointers(inst.type) and (agg in st.shadow or val in st.shadow):
        sv = st.shadow_or_null(inst, val) if holds_pointers(val.type) else zero(val.type)
        st.shadow[inst] = b.insertvalue(st.shadow_or_null(inst, agg), sv, inst.indices, shadow_name(st, inst))


def augment_return(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """A returned pointer comes back with the shadows of all lanes."""
    assert isinstance(inst, ReturnInst)
    if not st.returns_shadow:
        return
    v = inst.value
    assert v is not None
    svs = [st.shadow_or_null(inst, v) for _ in st.lanes()]
    rb = Builder(InsertPoint.before_inst(ni))
    agg = rb.insertvalue(ConstantKeyword(st.aug.return_type, "undef"), ni.operand(0), [0])
    ni.set_operand(0, rb.insertvalue(agg, pack(rb, svs), [1]))


# -- reverse -----------------------------------------------------------------------------------------------------


def reverse_select(st: ReverseState, b: Builder, inst: Instruction) -> None:
    if inst in st.active:
        d = st.take_adjoint(b, inst)
        c = st.primal(inst.operand(0))
        z = zero(d.type)
        st.add_adjoint(b, inst.operand(1), b.select(c, d, z))
        st.add_adjoint(b, inst.operand(2), b.select(c, z, d))


def reverse_freeze(st: ReverseState, b: Builder, inst: Instruction) -> None:
    if inst in st.active:  # the identity on the values a derivative exists for
        st.add_adjoint(b, inst.operand(0), st.take_adjoint(b, inst))


def reverse_extractvalue(st: ReverseState, b: Builder, inst: Instruction) -> None:
    assert isinstance(inst, ExtractValueInst)
    if inst in st.active:
        d = st.take_adjoint(b, inst)
        agg = inst.operand(0)
        st.add_adjoint(b, agg, b.insertvalue(zero(agg.type), d, inst.indices))


def reverse_insertvalue(st: ReverseState, b: Builder, inst: Instruction) -> None:
    assert isinstance(inst, InsertValueInst)
    if inst in st.active:
        d = st.take_adjoint(b, inst)
        agg, val = inst.operands
        if val in st.active:
            st.add_adjoint(b, val, b.extractvalue(d, inst.indices))
        if agg in st.active:
            st.add_adjoint(b, agg, b.insertvalue(d, zero(val.type), inst.indices))
