"""Type analysis: which bytes of every value (and of the memory it points to) are floats.

As in Enzyme, each value gets a :class:`~enzyme.analysis.type_tree.TypeTree`,
found by a fixed point over the function that propagates facts in both
directions through every instruction: IR types (``double``, ``ptr``, ``i1``),
integer-only operations (GEP indices, ``mul``, ``zext``, ``sitofp``'s
operand), loads and stores (value <-> pointee at the GEP-computed offset),
casts, phis, known functions (libm, ``malloc``, ``memcpy``), TBAA tags, and
defined callees (analysed with the caller's argument trees, memoized; a
recursive call reads the partial result again until nothing grows).

>>> from enzyme.ir import parse_module
>>> m = parse_module('''
... define double @get(ptr %a, i64 %i) {
...   %p = getelementptr inbounds double, ptr %a, i64 %i
...   %x = load double, ptr %p
...   ret double %x
... }''')
>>> info = TypeAnalysis(m).analyze(m.get_function("get"))
>>> str(info.tree(m.get_function("get").args[0]))
'{[-1]:Pointer, [-1,-1]:Float@double}'

Integers are *not* assumed to be integers from their IR type alone (an ``i64``
may hold the bits of a double); only operations that make sense on integers
only say so.  Arguments of the analysed function default to their IR type,
with integer arguments taken as Integer (Enzyme's ``enzyme_const`` default);
pass ``arg_trees`` to say otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import DifferentiationError
from ..ir import (ArrayType, Function, Instruction, IntType, Module, PointerType, StructType, Type, Value,
                  VectorType)
from ..ir.types import FloatType
from .debuginfo import describe, value_name
from .layout import DataLayout
from .type_tree import ANYTHING, INTEGER, MAX_OFFSET, POINTER, ConcreteType, Path, TypeTree, float_type


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

    def __init__(self, function: Function, layout: DataLayout, analysis: "TypeAnalysis | None" = None) -> None:
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
        from .type_offsets import constant_tree
        return constant_tree(v, self)

    @property
    def arg_trees(self) -> list[TypeTree]:
        return [self.tree(a) for a in self.function.args]

    def pointee_tree(self, ptr: Value) -> TypeTree:
        """The memory tree of what ``ptr`` points to (offset 0 = the address in ``ptr``)."""
        return self.tree(ptr).pointee()

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


def ir_type_tree(t: Type, layout: DataLayout, *, integers: bool = False) -> TypeTree:
    """What an IR type alone says about a value: floats, pointers, ``i1`` (all integers with ``integers``)."""
    tree = TypeTree()
    if isinstance(t, (FloatType, PointerType, IntType)):
        ct = _scalar_type(t, integers)
        if ct is not None:
            tree.insert((-1,), ct)
        return tree
    if isinstance(t, (VectorType, ArrayType)):
        elem = t.element
        if isinstance(elem, (FloatType, PointerType, IntType)):
            ct = _scalar_type(elem, integers)
            if ct is not None:
                tree.insert((-1,), ct)
            return tree
    if isinstance(t, (VectorType, ArrayType, StructType)):
        for off, leaf in layout.scalar_leaves(t, max_offset=MAX_OFFSET):
            ct = _scalar_type(leaf, integers)
            if ct is not None:
                tree.insert((off,), ct)
    return tree


def _scalar_type(t: Type, integers: bool) -> ConcreteType | None:
    if isinstance(t, FloatType):
        return float_type(t.kind)
    if isinstance(t, PointerType):
        return POINTER
    if isinstance(t, IntType) and (t.bits == 1 or integers):
        return INTEGER
    return None


#: Calling contexts analysed separately per function before they are merged.
MAX_CONTEXTS = 4


class TypeAnalysis:
    """Type analysis of a module's functions, memoized per function and argument trees.

    ``TypeAnalysis(module).analyze(f)`` -> :class:`FunctionTypeInfo`.
    """

    def __init__(self, module: Module, layout: DataLayout | None = None) -> None:
        self.module = module
        self.layout = layout or DataLayout.of_module(module)
        self._memo: dict[tuple, FunctionTypeInfo] = {}
        # _memo's entries by function (same keys, same order): contexts() is asked per instruction.
        self._memo_of: dict[Function, dict[tuple, FunctionTypeInfo]] = {}
        self._in_progress: dict[Function, FunctionTypeInfo] = {}
        self._latest: dict[Function, FunctionTypeInfo] = {}
        self._contexts: dict[Function, int] = {}

    def analyze(self, f: Function, arg_trees: list[TypeTree] | None = None, ret_tree: TypeTree | None = None,
                *, integer_args: bool = True) -> FunctionTypeInfo:
        """Type trees of ``f``'s values.

        ``arg_trees`` (one per argument) and ``ret_tree`` add what the caller
        knows; without ``arg_trees`` arguments get their IR type, integers
        taken as Integer when ``integer_args`` (the default for functions
        called through the C ABI).
        """
        if f.is_declaration:
            raise DifferentiationError(f"type analysis: @{f.name} has no body to analyse")
        if arg_trees is not None and len(arg_trees) != len(f.args):
            raise DifferentiationError(
                f"type analysis of @{f.name}: {len(arg_trees)} argument trees for {len(f.args)} arguments")
        trees = []
        for i, a in enumerate(f.args):
            t = ir_type_tree(a.type, self.layout, integers=integer_args and arg_trees is None)
            if arg_trees is not None:
                t.join(arg_trees[i])
            trees.append(t)
        ret_key = ret_tree.key() if ret_tree is not None else ()
        key = (f, tuple(t.key() for t in trees), ret_key)
        done = self._memo.get(key)
        if done is not None:
            return done
        running = self._in_progress.get(f)
        if running is not None:  # recursion: the partial result stands in for the callee
            return running
        previous = self._latest.get(f)
        self._contexts[f] = self._contexts.get(f, 0) + 1
        if previous is not None and self._contexts[f] > MAX_CONTEXTS:
            # Widening: past a few calling contexts, one merged context serves every call
            # (clusters of mutually recursive callees would otherwise be re-analysed endlessly).
            if _all_below(trees, previous.arg_trees):
                return previous
            for t, old in zip(trees, previous.arg_trees):
                t.join(old)
            key = (f, tuple(t.key() for t in trees), ret_key)
            done = self._memo.get(key)
            if done is not None:
                return done
        from .type_solver import Solver
        info = FunctionTypeInfo(f, self.layout, self)
        info.ret_key = ret_key
        if previous is not None and previous.ret_key in ((), ret_key) and _all_below(previous.arg_trees, trees):
            # More facts about the arguments can only add facts: start from the last answer.
            info.trees = {v: t.copy() for v, t in previous.trees.items()}
            info.return_tree = previous.return_tree.copy()
            info.conflicts = list(previous.conflicts)
        self._in_progress[f] = info
        try:
            Solver(self, info, trees, ret_tree).run()
        finally:
            del self._in_progress[f]
        self._memo[key] = self._memo_of.setdefault(f, {})[key] = info
        self._latest[f] = info
        return info

    def contexts(self, f: Function) -> list[FunctionTypeInfo]:
        """Every analysis of ``f`` made so far (one per calling context)."""
        return list(self._memo_of.get(f, {}).values())

    def analyzed_functions(self) -> set[Function]:
        """Every function analysed so far."""
        return {info.function for info in self._memo.values()}

    def is_in_progress(self, info: FunctionTypeInfo) -> bool:
        """Is ``info`` a partial result (its function is being analysed further up the stack)?"""
        return self._in_progress.get(info.function) is info


def _all_below(old: list[TypeTree], new: list[TypeTree]) -> bool:
    """Does every ``new`` tree contain everything its ``old`` counterpart says?"""
    for o, n in zip(old, new):
        probe = n.copy()
        changed, conflicts = probe.join(o)
        if changed or conflicts:
            return False
    return True


__all__ = ["ANYTHING", "FunctionTypeInfo", "TypeAnalysis", "TypeConflict", "ir_type_tree"]
