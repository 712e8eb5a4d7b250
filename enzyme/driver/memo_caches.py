"""Memoisation caches keyed on a floating-point argument: derivatives always take the computing path.

Property routines remember their last call in static variables::

    static double last_t = NAN, last_v;
    if (t == last_t) return last_v;          /* cache hit */
    last_t = t; last_v = expensive(t); return last_v;

A derivative call made right after a primal call at the same point hits the cache: the value comes back
from memory, set before the call, so its tangent is zero and its adjoint dropped (``active_globals.py``) --
a wrong derivative, silently (issue 11).  Mathematically the hit is a point of measure zero: at any other
point near ``t`` the routine computes, and the derivative is the computing path's.  So inside derivative
calls the key test is made to fail: each ``fcmp`` comparing a value with one loaded from a global that the
same function stores that value into (the cache key) is combined with a thread-local flag, set around every
derivative call site and clear otherwise.  Primal calls keep their cache; a derivative recomputes (and
refills the cache with the same values).
"""
from __future__ import annotations

from collections.abc import Iterable

from ..ad.common import underlying_global
from ..analysis.activity_solver import reachable_functions
from ..ir import (
    AllocaInst,
    CallInst,
    CmpInst,
    Function,
    Instruction,
    GlobalVariable,
    LoadInst,
    Module,
    PhiInst,
    SelectInst,
    StoreInst,
    Value,
)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.target_attributes import is_gpu_module
from ..ir.types import I1, I8, FloatType

#: Predicates true when the operands are equal (a hit when true) and when they differ (a hit when false).
_EQUAL = frozenset({"oeq", "ueq"})
_UNEQUAL = frozenset({"une", "one"})


def _source(v: Value) -> Value:
    """``v``, or at -O0 the value spilled into the local slot it is reloaded from (one store only)."""
    seen = 0
    while isinstance(v, LoadInst) and isinstance(v.pointer, AllocaInst) and seen < 8:
        stores = [u.user for u in v.pointer.uses if isinstance(u.user, StoreInst) and u.user.pointer is v.pointer]
        if len(stores) != 1:
            break
        v = stores[0].value
        seen += 1
    return v


def _key_compares(fn: Function) -> list[CmpInst]:
    """The cache-key tests of ``fn``: ``x == G`` (or ``!=``) where ``fn`` also stores ``x`` into global ``G``."""
    stored: dict[GlobalVariable, set[Value]] = {}
    for inst in fn.instructions():
        if isinstance(inst, StoreInst) and isinstance(inst.value.type, FloatType):
            g = underlying_global(inst.pointer)
            if g is not None and not g.is_constant:
                stored.setdefault(g, set()).add(_source(inst.value))
    if not stored:
        return []
    out = []
    for inst in fn.instructions():
        if not (isinstance(inst, CmpInst) and inst.opcode == "fcmp" and inst.predicate in _EQUAL | _UNEQUAL):
            continue
        a, b = inst.operands
        for key, other in ((a, b), (b, a)):
            g = _key_global(key, stored)
            if g is not None and _source(other) in stored[g]:
                out.append(inst)
                break
    return out


def _key_global(v: Value, stored: dict[GlobalVariable, set[Value]]) -> GlobalVariable | None:
    """The global ``v`` was read from: a load of it, or (after LLVM forwarded the stores of a loop's earlier
    iterations) phis and selects of such loads and of values stored into it."""
    loads: set[GlobalVariable] = set()
    leaves: set[Value] = set()
    any_stored = set().union(*stored.values())
    work, seen = [v], set()
    while work:
        x = work.pop()
        if x in seen:
            continue
        seen.add(x)
        if _source(x) in any_stored:
            leaves.add(_source(x))
        elif isinstance(x, PhiInst):
            work.extend(v for v, _ in x.incoming)
        elif isinstance(x, SelectInst):
            work.extend(x.operands[1:])
        elif isinstance(x, LoadInst) and (read := underlying_global(x.pointer)) is not None:
            loads.add(read)
        else:
            leaves.add(_source(x))
        if len(seen) > 64:
            return None
    if len(loads) != 1:
        return None
    g = next(iter(loads))
    return g if g in stored and leaves <= stored[g] else None


def guard_memo_caches(module: Module, roots: Iterable[Function]) -> GlobalVariable | None:
    """Make the cache-key tests of the functions ``roots`` reach fail while a flag is set; returns the flag
    (None when there is no such test)."""
    if is_gpu_module(module):  # no thread-local flag in device code: left as it was
        return None
    compares = [c for f in functions_reached(roots) for c in _key_compares(f)]
    if not compares:
        return None
    flag = derivative_flag(module)
    for cmp in compares:
        replace_while_deriving(flag, cmp, const_int(I1, 0 if cmp.predicate in _EQUAL else 1))
    return flag


def functions_reached(roots: Iterable[Function]) -> dict[Function, None]:
    """The functions ``roots`` may call, directly or not (themselves included), in a stable order."""
    funcs: dict[Function, None] = {}
    for root in roots:
        funcs.update(dict.fromkeys(reachable_functions(root)))
    return funcs


def replace_while_deriving(flag: GlobalVariable, inst: Instruction, instead: Value) -> None:
    """Every use of ``inst`` takes ``instead`` while the derivative flag is set, ``inst`` otherwise."""
    users = list(inst.uses)
    b = Builder(InsertPoint.after_inst(inst))
    on = b.icmp("ne", b.load(I8, flag), const_int(I8, 0))
    chosen = b.select(on, instead, inst)
    for use in users:
        use.user.set_operand(use.index, chosen)


#: The flag's name: set while a derivative call runs (thread-local: another thread's primal calls keep caching).
FLAG = "__enzyme_in_derivative"


def derivative_flag(module: Module) -> GlobalVariable:
    """The module's derivative-call flag (made on first use)."""
    flag = module.get(FLAG)
    if isinstance(flag, GlobalVariable):
        return flag
    made = GlobalVariable(FLAG, I8, initializer=const_int(I8, 0), prefix="internal thread_local")
    module.add(made)
    return made


def memo_off_around(call: CallInst, flag: GlobalVariable | None) -> None:
    """Set ``flag`` for the duration of the derivative ``call`` (restoring what it was: derivative calls
    nest)."""
    if flag is None:
        return
    b = Builder(InsertPoint.before_inst(call))
    old = b.load(I8, flag)
    b.store(const_int(I8, 1), flag)
    Builder(InsertPoint.after_inst(call)).store(old, flag)
