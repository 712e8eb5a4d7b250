"""Iterative solvers warm-started from a static variable: derivative calls start cold.

Solvers called many times keep their last answer for the next call's first guess::

    static double T_guess = 300.0;
    double T = T_guess;
    while (fabs(h_of_T(T) - h) > tol) T -= (h_of_T(T) - h) / cp(T);
    T_guess = T;

A derivative call made right after a primal call at the same point starts from the converged answer: the
loop runs no iteration, the result is a value set before the call, and its derivative is lost (zero, silently:
issue 11).  Near that point the solver does iterate, and its derivative is the converged one.  So in derivative
calls the guess is the variable's initial value (the program's own cold start, what its first call used): the
iterations run and their derivatives converge with them.

Recognised: a load of a scalar floating-point global with a constant initial value, in a function that stores
back into the same global a value computed from the loaded one, where a branch inside a loop compares a
magnitude computed from it (``fabs``, ``sqrt``: the convergence test).  A global clock run to an end time
(``while (t_sim < t_end) t_sim += dt;``) is state the result depends on, not a guess: it is left alone.  The load is replaced by ``flag ? initial value : load`` with the
flag of ``memo_caches.py``, set around every derivative call site.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..ir import (
    AllocaInst,
    BinaryOperator,
    Block,
    BranchInst,
    CallInst,
    CmpInst,
    ConstantFP,
    ConstantKeyword,
    Function,
    GlobalVariable,
    Instruction,
    LoadInst,
    Module,
    SelectInst,
    StoreInst,
    Value,
)
from ..ir.builder import const_fp
from ..ir.target_attributes import is_gpu_module
from ..ir.types import I1, FloatType
from .memo_caches import derivative_flag, functions_reached, replace_while_deriving


def guard_warm_starts(module: Module, roots: Iterable[Function]) -> GlobalVariable | None:
    """Make the warm-start loads of the functions ``roots`` reach read the initial value while the derivative
    flag is set; returns the flag (None when there is no such load)."""
    if is_gpu_module(module):  # no thread-local flag in device code: left as it was
        return None
    loads = [ld for f in functions_reached(roots) for ld in _warm_start_loads(f)]
    if not loads:
        return None
    flag = derivative_flag(module)
    for ld in loads:
        g = ld.pointer
        assert isinstance(g, GlobalVariable)
        cold = g.initializer if isinstance(g.initializer, ConstantFP) else const_fp(ld.type, 0.0)
        replace_while_deriving(flag, ld, cold)
    return flag


def _warm_start_loads(fn: Function) -> list[LoadInst]:
    out = []
    cyclic: set[Block] | None = None
    for inst in fn.instructions():
        if not (isinstance(inst, LoadInst) and isinstance(inst.type, FloatType)):
            continue
        g = inst.pointer
        if not (isinstance(g, GlobalVariable) and not g.is_constant and g.value_type == inst.type and
                (isinstance(g.initializer, ConstantFP) or (isinstance(g.initializer, ConstantKeyword)
                                                          and g.initializer.keyword == "zeroinitializer"))):
            continue
        stored_back, tested, tainted = _flows(inst, g)
        if not stored_back or not tested:
            continue
        if cyclic is None:
            cyclic = _blocks_in_cycles(fn)
        if any(br.parent in cyclic and _convergence_test(br.condition, tainted) for br in tested):
            out.append(inst)
    return out


#: What a convergence test compares with a tolerance: a magnitude.
_MAGNITUDES = ("llvm.fabs.", "fabs", "llvm.sqrt.", "sqrt", "hypot", "cabs")


def _convergence_test(cond: Value, tainted: set[Value]) -> bool:
    """Is ``cond`` (through ``and``/``or``/``select`` of booleans) a comparison of a magnitude computed from
    the guess (``fabs(res) > tol``, ``sqrt(r2) < tol``)?  A loop that runs a global clock to an end time is not a
    solver: its result depends on where it starts."""
    work, seen = [cond], set()
    while work:
        c = work.pop()
        if c in seen:
            continue
        seen.add(c)
        if isinstance(c, CmpInst) and c.opcode == "fcmp":
            for o in c.operands:
                if o in tainted and isinstance(o, CallInst) and o.callee_name is not None and \
                        o.callee_name.startswith(_MAGNITUDES):
                    return True
        elif isinstance(c, (BinaryOperator, SelectInst)) and c.type == I1:
            work.extend(c.operands)
    return False


def _flows(load: LoadInst, g: GlobalVariable) -> tuple[bool, list[BranchInst], set[Value]]:
    """Is a value computed from ``load`` stored back into ``g``, and which conditional branches test one?
    (Through local slots, as -O0 code keeps every variable in one.)"""
    tainted: set[Value] = {load}
    work: list[Value] = [load]
    stored_back = False
    tests: list[BranchInst] = []
    while work:
        v = work.pop()
        for use in v.uses:
            u = use.user
            new: list[Value] = []
            if isinstance(u, StoreInst):
                if use.index != 0:
                    continue
                if u.pointer is g:
                    stored_back = True
                elif isinstance(u.pointer, AllocaInst):
                    new = [w.user for w in u.pointer.uses if isinstance(w.user, LoadInst)]
            elif isinstance(u, BranchInst):
                tests.append(u)
            elif isinstance(u, Instruction) and not u.type.is_void and not isinstance(u, LoadInst):
                new = [u]
            for x in new:
                if x not in tainted:
                    tainted.add(x)
                    work.append(x)
        if len(tainted) > 5000:
            break
    return stored_back, tests, tainted


def _blocks_in_cycles(fn: Function) -> set[Block]:
    """Blocks on a cycle of the control-flow graph (strongly connected components, Kosaraju)."""
    order: list[Block] = []
    seen: set[Block] = set()
    for start in fn.blocks:
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, iter(start.successors))]
        while stack:
            b, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                order.append(b)
            elif nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(nxt.successors)))
    preds: dict[Block, list[Block]] = {b: [] for b in fn.blocks}
    for b in fn.blocks:
        for s in b.successors:
            preds.setdefault(s, []).append(b)
    comp: dict[Block, int] = {}
    out: set[Block] = set()
    for root in reversed(order):
        if root in comp:
            continue
        members = [root]
        comp[root] = len(comp)
        i = 0
        while i < len(members):
            for p in preds[members[i]]:
                if p not in comp:
                    comp[p] = comp[root]
                    members.append(p)
            i += 1
        if len(members) > 1 or root in root.successors:
            out.update(members)
    return out
