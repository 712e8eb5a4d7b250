"""Which floating-point values of a program may be infinite or NaN.

Reverse mode adds ``partial · adjoint`` into each operand's adjoint.  A value the
program computes and then drops (the other operand of a select, a branch LLVM
made speculative, memory never read again) has a zero adjoint,
and where its partials are infinite ``0 · inf`` would put a NaN into the
gradient.  Reverse mode therefore guards a product (``adjoint == 0 ? 0 :
partial · adjoint``) wherever the partial may be non-finite; this analysis
says where that is, so the hot loops of ordinary code keep plain products.

Where non-finite values come from:

* division and remainder (by zero), ``fptrunc`` (overflow of the narrower
  type), calls (``log(0)``, ``exp(1000)``, whatever a callee returns) except
  functions that are bounded for finite operands (``sin``, ``tanh``, ...);
* non-finite constants, in the code or in a global's initializer;
* loads, arguments and the other values that come from memory or from a
  caller, **only if** the program lets a possibly non-finite value escape
  there (stores it, passes it to a call, returns it, or has one in a global
  initializer).  The inputs a program is given are taken to be finite.

"The program" is what one differentiated function runs: the code reachable
from it.  Memory holds, when a differentiated call starts, what its caller
gave it (inputs, taken to be finite), so a function's loads count as sources
only if code reachable from a differentiated function that reaches it lets a
non-finite value escape: ``exp`` results stored by one kernel do not put
guards into every other gradient of the module.

Arithmetic (``fadd``, ``fsub``, ``fmul``, ``fneg``, ``fma``), bounded math
functions, selects, phis, casts, sign-bit operations on float bits and
aggregate or vector moves pass a non-finite operand on.  Finite arithmetic that
overflows (``x * x`` beyond 1e154) is not counted as a source.
"""
from __future__ import annotations

import math

from ..ir import (
    Argument,
    AtomicRMWInst,
    CallInst,
    CmpXchgInst,
    ConstantAggregate,
    ConstantFP,
    Function,
    Instruction,
    LoadInst,
    Module,
    ReturnInst,
    StoreInst,
    VAArgInst,
    Value,
)
from ..rules import canonical_name, lookup

# Instructions whose result is non-finite only if an operand is (and/or/xor: sign-bit operations on float bits).
_PASS_ON = frozenset({
    "fadd", "fsub", "fmul", "fneg", "select", "phi", "extractvalue", "insertvalue", "extractelement",
    "insertelement", "shufflevector", "bitcast", "fpext", "freeze", "and", "or", "xor"})
# Instructions that make non-finite values out of finite ones.
_MAKE = frozenset({"fdiv", "frem", "fptrunc"})
# Math functions whose result is finite whenever their operands are (fma as fmul and fadd).
_BOUNDED = frozenset({
    "fma", "fmuladd", "sin", "cos", "tanh", "atan", "atan2", "erf", "erfc", "fabs", "copysign", "floor", "ceil",
    "trunc", "rint", "nearbyint", "round", "roundeven", "fmin", "fmax", "minnum", "maxnum", "minimum", "maximum",
    "minimumnum", "maximumnum", "fdim", "canonicalize", "arithmetic.fence"})


class NonFiniteValues:
    """May-be-non-finite facts for the values of a program (see the module doc).

    The program is the code reachable from ``roots`` (the differentiated
    functions): its stores, calls and returns decide whether memory may hold
    non-finite values.  Then the values of any function can be asked about.
    """

    def __init__(self, module: Module, roots: list[Function]) -> None:
        self._module = module
        self._roots = roots
        # Per differentiated function: the functions it reaches and whether their memory may hold non-finite
        # values; decided on first use.
        self._programs: list[tuple[set[Function], bool]] | None = None
        self._from_memory = False  # the same for all of them together (functions no root reaches)
        self._facts: dict[Function, set[Value]] = {}

    def may_be_nonfinite(self, v: Value) -> bool:
        if not isinstance(v, (Instruction, Argument)):
            return _holds_nonfinite_constant(v)
        fn = v.function
        assert isinstance(fn, Function)
        facts = self._facts.get(fn)
        if facts is None:
            facts = self._facts[fn] = _propagate(fn, self._memory_may_hold(fn))
        return v in facts

    def _memory_may_hold(self, fn: Function) -> bool:
        """May memory, arguments or call results hold non-finite values in the programs that run ``fn``?"""
        if self._programs is None:
            initial = any(_holds_nonfinite_constant(g.initializer)
                          for g in self._module.global_variables if g.initializer is not None)
            escapes: dict[Function, bool] = {}

            def escape(g: Function) -> bool:
                got = escapes.get(g)
                if got is None:
                    got = escapes[g] = _escapes(g, _propagate(g, False))
                return got
            calls = _CallGraph(self._module)
            self._programs = []
            for root in self._roots:
                program = calls.reachable([root])
                self._programs.append((program, initial or any(escape(g) for g in program)))
            self._from_memory = initial or any(escape(g) for g in calls.reachable(self._roots))
        flags = [flag for program, flag in self._programs if fn in program]
        return any(flags) if flags else self._from_memory


def reachable(module: Module, roots: list[Function]) -> list[Function]:
    """The defined functions ``roots`` may call, directly or (any address-taken function) indirectly."""
    seen: dict[Function, None] = {}
    work = list(roots)
    indirect = False
    while work:
        fn = work.pop()
        if fn in seen or fn.is_declaration:
            continue
        seen[fn] = None
        for inst in fn.instructions():
            if isinstance(inst, CallInst):
                callee = inst.called_function
                if callee is not None:
                    work.append(callee)
                elif not indirect:
                    indirect = True
                    work.extend(g for g in module.functions if _address_taken(g))
    return list(seen)


class _CallGraph:
    """The defined functions each function calls (an indirect call: any address-taken function), walked
    once, for the reachability of many roots."""

    def __init__(self, module: Module) -> None:
        self._module = module
        self._callees: dict[Function, list[Function]] = {}
        self._address_taken: list[Function] | None = None

    def callees(self, fn: Function) -> list[Function]:
        got = self._callees.get(fn)
        if got is None:
            found: dict[Function, None] = {}
            indirect = False
            for inst in fn.instructions():
                if isinstance(inst, CallInst):
                    callee = inst.called_function
                    if callee is not None:
                        found[callee] = None
                    else:
                        indirect = True
            if indirect:
                if self._address_taken is None:
                    self._address_taken = [g for g in self._module.functions if _address_taken(g)]
                found.update(dict.fromkeys(self._address_taken))
            got = self._callees[fn] = [g for g in found if not g.is_declaration]
        return got

    def reachable(self, roots: list[Function]) -> set[Function]:
        seen: set[Function] = set()
        work = [r for r in roots if not r.is_declaration]
        while work:
            fn = work.pop()
            if fn not in seen:
                seen.add(fn)
                work.extend(self.callees(fn))
        return seen


def _address_taken(fn: Function) -> bool:
    return any(not (isinstance(u.user, CallInst) and u.user.called_function is fn) for u in fn.uses)


def _propagate(fn: Function, from_memory: bool) -> set[Value]:
    """The values of ``fn`` that may be non-finite: sources, then forward through _PASS_ON to a fixed point."""
    found: set[Value] = set(fn.args) if from_memory else set()
    work: list[Value] = list(found)
    for inst in fn.instructions():
        if _is_source(inst, from_memory) or _passes_on(inst) and any(map(_holds_nonfinite_constant, inst.operands)):
            found.add(inst)
            work.append(inst)
    while work:
        v = work.pop()
        for user in v.users:
            if isinstance(user, Instruction) and user not in found and _passes_on(user):
                found.add(user)
                work.append(user)
    return found


def _is_source(inst: Instruction, from_memory: bool) -> bool:
    if inst.opcode in _MAKE:
        return True
    if isinstance(inst, CallInst):
        return not _bounded_call(inst)
    return from_memory and isinstance(inst, (LoadInst, AtomicRMWInst, CmpXchgInst, VAArgInst))


def _passes_on(inst: Instruction) -> bool:
    return inst.opcode in _PASS_ON or (isinstance(inst, CallInst) and _bounded_call(inst))


def _bounded_call(inst: CallInst) -> bool:
    name = inst.callee_name
    return name is not None and canonical_name(name) in _BOUNDED


def _escapes(fn: Function, facts: set[Value]) -> bool:
    """Does ``fn`` store, pass to a call or return a value that may be non-finite?"""
    for inst in fn.instructions():
        if isinstance(inst, StoreInst):
            if inst.value in facts:
                return True
        elif isinstance(inst, (AtomicRMWInst, CmpXchgInst, ReturnInst)):
            if any(op in facts for op in inst.operands):
                return True
        elif isinstance(inst, CallInst):
            name = inst.callee_name
            if name is not None and lookup(name) is not None:
                continue  # a math function: its result is a source already
            if any(a in facts for a in inst.args):
                return True
    return False


def _holds_nonfinite_constant(v: Value) -> bool:
    if isinstance(v, ConstantFP):
        return not math.isfinite(v.value)
    if isinstance(v, ConstantAggregate):
        return any(_holds_nonfinite_constant(e) for e in v.elements)
    return False
