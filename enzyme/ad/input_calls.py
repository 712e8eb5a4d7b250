"""Calls that store input from outside the program into the caller's memory (rules.memory INPUT).

``std::istream``'s ``operator>>(double&)``, ``read(buf, n)``, ``get(buf, n)``: the bytes they store
carry no derivative, and they overwrite whatever derivative the destination held.  Forward mode
zeroes the tangent of the bytes written; the reverse sweep zeroes their adjoints (the old values
they overwrote are dead, the new ones depend on nothing differentiable).  When the count is not fixed by
the signature it is the stream's ``gcount()`` right after the call: the augmented sweep tapes it for the
reverse sweep, one entry per lane (all lanes push and pop the same count, so their order does not matter).
"""
from __future__ import annotations

from ..ir import CallInst, FunctionType, Module, Value
from ..ir.builder import Builder, const_int
from ..ir.types import I64, PTR
from ..rules.memory import MemoryFunction
from .common import zero_fill
from .forward_state import ForwardState
from .reverse_state import ReverseState

GCOUNT = "_ZNKSi6gcountEv"  # std::istream::gcount() const


def written_bytes(m: Module, b: Builder, mf: MemoryFunction, args: list[Value]) -> Value:
    """The number of bytes the input call ``args`` (of the new code, already emitted) stored at ``dst``."""
    if mf.fixed is not None:
        return const_int(I64, mf.fixed)
    fn = m.declare_function(GCOUNT, FunctionType(I64, (PTR,)))
    n: Value = b.call(fn, [args[0]])
    if mf.counted == "gcount_nul":  # the characters extracted and a terminating NUL, when the buffer has room
        room = args[2] if args[2].type == I64 else b.cast("sext", args[2], I64)
        n = b.select(b.icmp("sgt", room, const_int(I64, 0)), b.add(n, const_int(I64, 1)), const_int(I64, 0))
    return n


def forward_input_call(st: ForwardState, inst: CallInst, ni: CallInst, b: Builder, mf: MemoryFunction) -> None:
    """Zero the tangent of what the call stored (the call itself already ran, as ``ni``)."""
    assert mf.dst is not None
    sd = st.tangent(inst.args[mf.dst])
    if sd is not None:
        zero_fill(st.ctx.module, b, sd, written_bytes(st.ctx.module, b, mf, list(ni.args)))


def augment_input_call(st: ReverseState, ni: CallInst, b: Builder, mf: MemoryFunction) -> None:
    """Tape the count of bytes stored when only the stream knows it (always, so pushes and pops pair up)."""
    if mf.fixed is None:
        st.push(b, written_bytes(st.m, b, mf, list(ni.args)))


def reverse_input_call(st: ReverseState, b: Builder, inst: CallInst, mf: MemoryFunction) -> None:
    """The stored bytes' adjoints are consumed by nothing: zero them."""
    assert mf.dst is not None
    n = const_int(I64, mf.fixed) if mf.fixed is not None else st.pop(b, I64)
    dst = inst.args[mf.dst]
    if dst in st.shadow:
        zero_fill(st.m, b, st.available(st.shadow[dst]), n)
