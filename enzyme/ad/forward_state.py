"""The state of one forward-mode differentiation, apart from the walk that fills it.

``ForwardState`` holds the new value of each primal value (``vmap``), the
tangents of each batch lane (pointers: their shadows; lanes.py) and which
integers carry float bits.  Tangents are symbolic zeros (absent) until
something active flows in, so inactive code gets no derivative
instructions.  Instruction and call handlers (handlers.py and the family
modules, forward_calls.py) use its public methods; they
never see the generator that walks the blocks (forward.py).
"""
from __future__ import annotations

from collections.abc import Callable

from ..ir import Constant, ConstantKeyword, Function, Instruction, Value
from ..ir.types import PointerType
from .aggregate_shadows import holds_pointers, null_shadow_error
from .common import ADContext, zero
from .code_pointers import needs_no_shadow
from .float_bits import float_granule, is_float_data, is_integer_data, may_hold_active_bits
from .integer_addresses import AddressDisplacements
from .call_kinds import CallSites
from .lanes import LaneState
from .modes import Activities, Mode

#: How the state gets the derivative of a callee (the generator of forward.py, for other functions).
DerivativeOf = Callable[[Function, Activities], Function]


class ForwardState(LaneState):
    """Maps and services of one function's forward derivative (see the module docstring)."""

    new: Function  # the derivative being built
    displacements: list[AddressDisplacements]

    def __init__(self, ctx: ADContext, fn: Function, activities: Activities, derivative_of: DerivativeOf,
                 width: int = 1) -> None:
        self._init_lanes(width)
        self.ctx = ctx
        self.fn = fn
        self.activities = activities
        self.derivative_of = derivative_of
        self.call_site = CallSites(ctx.module, Mode.FORWARD)  # what each call's callee is
        self.vmap: dict[Value, Value] = {}
        self.unshadowed: set[Instruction] = set()  # pointer phis/selects merging shadowless pointers
        # Integers holding the bits of active floats -> the width of those floats (0: unknown); their
        # tangents are integers too, the tangents' bits in the same places.
        self.float_bits: dict[Value, int] = {}
        # Values every callee's derivative takes last as well (forward split mode's tape and read position).
        self.passed_on: list[Value] = []

    @property
    def tan(self) -> dict[Value, Value]:
        """The current lane's tangents (shadows for pointers)."""
        return self.shadows[self.lane]

    def tangent(self, v: Value) -> Value | None:
        """The tangent (or shadow) of ``v`` in the current lane; None for a symbolic zero."""
        if isinstance(v, ConstantKeyword) and v.keyword == "null":
            return v
        return self.tan.get(v)

    def t(self, v: Value) -> Value:
        """Tangent (or shadow) of ``v`` as a value: zero/null when it carries none."""
        t = self.tangent(v)
        if t is not None:
            return t
        if isinstance(v.type, PointerType) and not isinstance(v, Constant):
            return ConstantKeyword(v.type, "null")
        return zero(v.type)

    def all_lanes(self, v: Value) -> list[Value]:
        """``t(v)`` of every lane."""
        out = []
        for _ in self.lanes():
            out.append(self.t(v))
        return out

    def mark_bits(self, v: Value, granule: int = 0) -> None:
        """``v`` (an integer) holds active float bits, of floats ``granule`` bits wide (0: from type analysis)."""
        self.float_bits[v] = granule or float_granule(self.ctx, self.fn, v) or 0

    def may_hold_active_bits(self, v: Value) -> bool:
        return may_hold_active_bits(
            v, lambda x: x in self.float_bits,
            lambda load: self.tangent(load) is not None and not is_integer_data(self.ctx, self.fn, load))

    def holds_float_bits(self, v: Value) -> bool:
        """Float data in an integer: a double's bits, or part of one (a ``{float, int}`` struct as i64)."""
        return is_float_data(self.ctx, self.fn, v)

    def check_null_shadow(self, inst: Instruction, v: Value) -> None:
        """Refuse giving pointers in ``v`` a null tangent (shadow) where derivatives would follow it."""
        if holds_pointers(v.type) and self.tangent(v) is None:
            error = null_shadow_error(inst, v, lambda q: needs_no_shadow(self.ctx, self.fn, q))
            if error is not None:
                raise error
