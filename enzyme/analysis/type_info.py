"""What type analysis found in one function, and what constants say by themselves.

:class:`FunctionTypeInfo` holds the trees of one function's values (the
solver fills it, every client reads it); :class:`CalleeTypes` is what the
solver needs from the module-wide analysis to look into callees, so this
module and the solver stay below :mod:`enzyme.analysis.type_analysis`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..errors import DifferentiationError
from ..ir import (ArrayType, Constant, ConstantAggregate, ConstantExpr, ConstantFP, ConstantInt, Function,
                  GlobalVariable, Instruction, IntType, PointerType, StructType, Type, Value, VectorType)
from ..ir.types import FloatType
from .debuginfo import describe, value_name
from .layout import DataLayout
from .type_offsets import gep_forward, gep_offset, ir_type_tree
from .type_tree import INTEGER, MAX_OFFSET, POINTER, ConcreteType, Path, TypeTree


class CalleeTypes(Protocol):
    """The module-wide analysis as the solver sees it (implemented by TypeAnalysis)."""

    def analyze(self, f: Function, arg_trees: list[TypeTree] | None = None,
                ret_tree: TypeTree | None = None, *, integer_args: bool = True) -> FunctionTypeInfo: ...

    def is_in_progress(self, info: FunctionTypeInfo) -> bool: ...

    def note_call(self, caller: FunctionTypeInfo, call: Value, callee: FunctionTypeInfo) -> None: ...


@dataclass(frozen=True)
class TypeConflict:
    """Two facts about one value that disagree (e.g. Integer and Float at the same offset)."""

    value: Value
    path: Path
    old: ConcreteType
    new: ConcreteType
    instruction: Instruction | None

    def message(self) -> str:
        where = f" (found at {describe(self.instruction)})" if self.instruction is not None else ""
        off = "[" + ",".join(map(str, self.path)) + "]"
        return (f"type analysis: {value_name(self.value)} holds both {self.old} and {self.new} at offset {off}"
                f"{where}; the derivative would mix up float and non-float data there (a union or type pun?). "
                f"Fix: access that memory with one type, or mark the value inactive")


class FunctionTypeInfo:
    """The type trees of one function's values, for one set of argument trees."""

    def __init__(self, function: Function, layout: DataLayout, analysis: CalleeTypes | None = None) -> None:
        self.function = function
        self.layout = layout
        self.analysis = analysis
        self.ret_key: tuple = ()  # the caller's return tree this analysis started from
        self.trees: dict[Value, TypeTree] = {}
        self.return_tree = TypeTree()
        self.conflicts: list[TypeConflict] = []

    # -- queries -------------------------------------------------------------
    def tree(self, v: Value) -> TypeTree:
        """The tree of ``v`` (arguments, instructions, globals, constants); do not mutate it."""
        t = self.trees.get(v)
        if t is not None:
            return t
        return constant_tree(v, self)

    @property
    def arg_trees(self) -> list[TypeTree]:
        return [self.tree(a) for a in self.function.args]

    def pointee_tree(self, ptr: Value) -> TypeTree:
        """The memory tree of what ``ptr`` points to (offset 0 = the address in ``ptr``).

        A wildcard that some byte contradicts is left out: it came from an array indexed inside a larger
        record (``int *nbr = cell->nbr; nbr[q]`` in an array of ``{int nbr[4]; double u;}``) and does not
        describe every byte, so no question about the memory may rest on it."""
        mem = self.tree(ptr).pointee()
        if _contradicted(mem):
            mem = TypeTree([(p, t) for p, t in mem if p[0] != -1])
        return mem

    def pointee_type(self, ptr: Value, offset: int = 0) -> ConcreteType | None:
        """The type at byte ``offset`` of the memory ``ptr`` points to (None: unknown)."""
        return self.pointee_tree(ptr).get((offset,))

    def top(self, v: Value) -> ConcreteType | None:
        """The type of the value itself (its first byte / every element)."""
        return self.tree(v).top()

    def is_float(self, v: Value) -> bool:
        t = self.top(v)
        return t is not None and t.is_float

    def is_integer(self, v: Value) -> bool:
        t = self.top(v)
        return t is not None and t.is_integer

    def is_pointer(self, v: Value) -> bool:
        t = self.top(v)
        return t is not None and t.is_pointer

    def float_kind(self, v: Value) -> str | None:
        t = self.top(v)
        return t.float_kind if t is not None and t.is_float else None

    def may_carry_float(self, v: Value) -> bool:
        """Could the bits of ``v`` itself be (part of) floating-point data?

        False only where that is certain: no float in the IR type and every
        scalar part known to be an Integer or a Pointer.  Pointers answer
        False: what they point to is a separate question.
        """
        return _may_carry_float(v.type, self.tree(v), self.layout)

    def is_integer_memory(self, ptr: Value, size: int) -> bool:
        """Are the bytes [0, size) that ``ptr`` points to known integers (and at least one known)?"""
        mem = self.pointee_tree(ptr)
        wild = mem.get((-1,))
        if wild is not None:
            return wild.is_integer
        seen = False
        for path, t in mem:
            if len(path) == 1 and 0 <= path[0] < max(size, 1):
                if not t.is_integer:
                    return False
                seen = True
        return seen and size > 0

    def pointee_is_integer_only(self, ptr: Value) -> bool:
        """Is every byte of the memory ``ptr`` points to known to be an integer?"""
        t = self.pointee_tree(ptr).get((-1,))
        return t is not None and t.is_integer

    def raise_on_conflicts(self) -> None:
        """Raise DifferentiationError for the first conflict (how Enzyme's 'Illegal updateAnalysis' ends)."""
        if self.conflicts:
            more = f" (and {len(self.conflicts) - 1} more)" if len(self.conflicts) > 1 else ""
            raise DifferentiationError(self.conflicts[0].message() + more)


def _contradicted(mem: TypeTree) -> bool:
    """Does a specific byte of a memory tree disagree with its wildcard (a conflict left it ``Anything``)?"""
    wild = mem.get((-1,))
    if wild is None or wild.is_anything or wild.is_float:
        # (A float wildcard that something contradicts is kept, as before: it can only make copies move more
        # bytes as floats; it never hides floats, which is what a contradicted integer wildcard does.)
        return False
    return any(len(p) == 1 and p[0] != -1 and t != wild for p, t in mem)


def _may_carry_float(t: Type, tree: TypeTree, layout: DataLayout) -> bool:
    if isinstance(t, FloatType):
        return True
    if isinstance(t, PointerType):
        return False
    if isinstance(t, IntType):
        if t.bits == 1:
            return False
        top = tree.top()
        return not (top is not None and (top.is_integer or top.is_pointer))
    if isinstance(t, (VectorType, ArrayType, StructType)):
        if _contains_float(t):
            return True
        size = layout.alloc_size(t)
        for off, leaf in layout.scalar_leaves(t, max_offset=MAX_OFFSET):
            if isinstance(leaf, IntType) and leaf.bits > 1:
                known = tree.get((off,)) or tree.get((-1,))
                if not (known is not None and (known.is_integer or known.is_pointer)):
                    return True
        return size > MAX_OFFSET and not (tree.get((-1,)) is not None and tree.get((-1,)).is_integer)  # type: ignore[union-attr]
    return False


def _contains_float(t: Type) -> bool:
    if isinstance(t, FloatType):
        return True
    if isinstance(t, (VectorType, ArrayType)):
        return _contains_float(t.element)
    if isinstance(t, StructType):
        return any(_contains_float(e) for e in t.elements)
    return False


def constant_tree(v: Value, info: FunctionTypeInfo) -> TypeTree:
    """Trees of values the solver does not track: constants and constant expressions."""
    layout = info.layout
    if isinstance(v, GlobalVariable):
        return global_seed(v, info)
    if isinstance(v, Function):
        return TypeTree({(-1,): POINTER})
    if isinstance(v, ConstantFP):
        return ir_type_tree(v.type, layout)
    if isinstance(v, ConstantInt):
        return TypeTree({(-1,): INTEGER}) if v.type == IntType(1) else TypeTree()
    if isinstance(v, ConstantExpr):
        ops = v.operands
        if v.opcode == "getelementptr" and ops and v.source_type is not None:
            base = info.tree(ops[0])
            const, strides = gep_offset(layout, v.source_type, ops[1:])
            return gep_forward(base, const, strides)
        if v.opcode in ("bitcast", "addrspacecast", "ptrtoint", "inttoptr") and ops:
            return info.tree(ops[0])
        return TypeTree()
    if isinstance(v, ConstantAggregate) and isinstance(v.type, (StructType, ArrayType, VectorType)):
        out = TypeTree()
        for i, e in enumerate(v.elements):
            off, _ = layout.element_offset(v.type, i)
            for p, t in constant_tree(e, info):
                first = off if p[0] == -1 else off + p[0]
                out.insert((first, *p[1:]), t)
        return out
    if isinstance(v, Constant):
        return ir_type_tree(v.type, layout) if isinstance(v.type, FloatType) else TypeTree()
    return TypeTree()


def global_seed(g: GlobalVariable, info: FunctionTypeInfo) -> TypeTree:
    """A global's tree: a pointer to memory typed by its value type (floats and pointers only)."""
    t = info.trees.get(g)
    if t is not None:
        return t
    return ir_type_tree(g.value_type, info.layout).under(-1) if g.value_type is not None else TypeTree(
        {(-1,): POINTER})
