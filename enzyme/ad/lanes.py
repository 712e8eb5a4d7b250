"""Batch (vector) mode: the per-direction state shared by forward and reverse mode.

With batch width W a derivative carries W directions at once, one per
*lane*: in forward mode every value has W tangents (pointers W shadows), in
reverse mode every pointer has W shadows and every active value W adjoint
slots.  Handlers are written for one lane (``shadow`` is the current lane's
map; in reverse mode ``adj_slot`` too) and run once per lane; primal values
and partial derivatives are shared by the lanes (emitted once, in
``emitters`` and ``sign_masks``), and a few things happen once for all
lanes at lane 0: calls to the derivatives of callees, freeing a primal
allocation, rewriting a cloned primal instruction.  Handler tables declare
which of their handlers run once (handlers.py).

Signatures at width W > 1 (width 1 is unchanged):

* ``fwddiffe<W>_<f>(args with W shadows per dup argument)`` returning
  ``{T, [W x T]}`` for a float (or pointer) result;
* ``augmented<W>_<f>(args with W shadows per dup argument, tape)``, returning
  ``{T, [W x T]}`` (primal pointer and its W shadows) for a pointer result;
* ``reverse<W>_<f>(args with W shadows, [W drets], tape)`` returning, for the
  ``out`` arguments in order, ``[W x T]`` each (in a struct).

Features whose batched reverse is not written yet (registered gradients,
realloc) are refused at W > 1.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import DifferentiationError
from ..ir import ConstantKeyword, Instruction, Value
from ..ir.builder import Builder
from ..ir.types import ArrayType, Type
from ..rules.emit import Emitter
from .common import describe


class LaneState:
    """Per-lane shadows (tangents in forward mode), and helpers to visit the lanes."""

    width: int

    def _init_lanes(self, width: int) -> None:
        self.width = width
        self.lane = 0
        self.shadows: list[dict[Value, Value]] = [{} for _ in range(width)]   # primal value -> shadow/tangent
        self.emitters: dict[Instruction, Emitter] = {}  # partials emitted once in the reverse sweep, shared
        self.sign_masks: dict[Instruction, Value] = {}  # sign-bit operations on float bits, shared likewise

    @property
    def shadow(self) -> dict[Value, Value]:
        """The current lane's shadows (augmented values)."""
        return self.shadows[self.lane]

    def lanes(self) -> Iterator[int]:
        """Visit every lane (the current lane follows), then go back to the lane we were in."""
        keep = self.lane
        try:
            for j in range(self.width):
                self.lane = j
                yield j
        finally:
            self.lane = keep

    @contextmanager
    def in_lane(self, j: int) -> Iterator[None]:
        keep = self.lane
        self.lane = j
        try:
            yield
        finally:
            self.lane = keep

    def lane_suffix(self, base: str) -> str:
        return base if self.width == 1 else f"{base}{self.lane}"

    def refuse_batch(self, inst: Instruction, what: str) -> None:
        if self.width > 1:
            raise DifferentiationError(f"{describe(inst)}: {what} is not supported in batch reverse mode "
                                       f"(enzyme_width {self.width}) yet; call once per direction")


def batched(t: Type, width: int) -> Type:
    """The type of W values of type ``t`` (``t`` itself at width 1)."""
    return t if width == 1 else ArrayType(width, t)


def pack(b: Builder, values: list[Value]) -> Value:
    """Lane values as ``[W x T]`` (the value itself for one lane)."""
    if len(values) == 1:
        return values[0]
    agg: Value = ConstantKeyword(ArrayType(len(values), values[0].type), "undef")
    for j, v in enumerate(values):
        agg = b.insertvalue(agg, v, [j])
    return agg


def unpack(b: Builder, agg: Value, path: list[int], width: int) -> list[Value]:
    """Element ``path`` of ``agg`` for each lane: ``agg[path]`` at width 1, ``agg[path + [j]]`` otherwise."""
    if width == 1:
        return [b.extractvalue(agg, path) if path else agg]
    return [b.extractvalue(agg, [*path, j]) for j in range(width)]
