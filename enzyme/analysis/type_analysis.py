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

from ..errors import DifferentiationError
from ..ir import Function, Module, Value
from .layout import DataLayout
from .type_info import FunctionTypeInfo, TypeConflict
from .type_offsets import ir_type_tree
from .type_solver import Solver
from .type_tree import ANYTHING, TypeTree

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
        # The analyses asked for from outside (no analysis running) and, per analysis, the last one each of its
        # call sites asked for: contexts() follows these, so the intermediate contexts a caller's fixed point
        # passed through (arguments it knew less about then) do not count.
        self._tops: list[FunctionTypeInfo] = []
        self._calls: dict[int, dict[Value, FunctionTypeInfo]] = {}
        self._live: dict[Function, list[FunctionTypeInfo]] | None = None

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
        self._live = None
        if not self._in_progress:
            info = self._analyze(f, arg_trees, ret_tree, integer_args=integer_args)
            self._tops.append(info)
            return info
        return self._analyze(f, arg_trees, ret_tree, integer_args=integer_args)

    def note_call(self, caller: FunctionTypeInfo, call: Value, callee: FunctionTypeInfo) -> None:
        """``caller``'s analysis asked for ``callee`` at ``call`` (the last answer per call site is the one that
        holds at its fixed point)."""
        self._calls.setdefault(id(caller), {})[call] = callee
        self._live = None

    def _analyze(self, f: Function, arg_trees: list[TypeTree] | None, ret_tree: TypeTree | None, *,
                 integer_args: bool) -> FunctionTypeInfo:
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
        """The analyses of ``f`` in the calling contexts that hold: those asked for from outside, and those the
        call sites of such analyses asked for last (transitively).  Where that finds none, every analysis of
        ``f`` made so far."""
        if self._live is None:
            live: dict[Function, list[FunctionTypeInfo]] = {}
            seen: set[int] = set()
            work = list(self._tops)
            while work:
                info = work.pop()
                if id(info) in seen:
                    continue
                seen.add(id(info))
                live.setdefault(info.function, []).append(info)
                work.extend(self._calls.get(id(info), {}).values())
            self._live = live
        found = self._live.get(f)
        if found:
            return list(found)
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
