"""Activity analysis: which values carry derivatives and which instructions need derivative code.

Given the activity of each argument (``const``, ``active``/``out`` for floats,
``dup``/``dupnoneed`` for pointers with shadows, or floats in forward mode) and
whether the return value is active::

    result = analyze_activity(module, f, ["dup", "const"], ret_active=True)
    result.is_constant_value(v)        # v carries no derivative (no shadow, no adjoint)
    result.is_constant_instruction(i)  # i needs no derivative code at all: skip it
    result.errors                      # cases the engine must refuse, with the fix

Soundness comes first: anything that may carry a derivative to an active
output is active (see :mod:`enzyme.analysis.activity_solver` for how).  Being
wrong in the other direction only costs time.

An instruction is constant when the derivative can skip it entirely: its result
is constant and it writes no active memory.  So a GEP of an active pointer is
an *active* instruction (the shadow pointer must be computed), and an integer
store into a dup struct is constant (integers have no derivative; an engine
that keeps shadow memory a mirror of integer fields copies those stores
itself).  Values of defined callees are answered too, merged over every call
reached from ``f``; differentiate a callee with its own ``analyze_activity``.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import UsageError
from ..ir import (Argument, AtomicRMWInst, CallInst, CmpXchgInst, Constant, ConstantExpr, Function, GlobalVariable,
                  Instruction, IntType, Module, OpaqueInst, ReturnInst, StoreInst, Value)
from ..ir.types import LabelType, MetadataType, TokenType, VoidType
from . import known_functions as known
from .activity_solver import ActivitySolver
from .debuginfo import describe, value_name
from .memory_objects import MemoryObject, type_has_pointer
from .type_analysis import FunctionTypeInfo, TypeAnalysis

#: Accepted spellings of argument activities (Enzyme C markers, Enzyme.jl names) -> canonical.
ACTIVITY_NAMES = {
    "const": "const", "constant": "const", "enzyme_const": "const",
    "active": "active", "out": "active", "enzyme_out": "active",
    "dup": "dup", "duplicated": "dup", "enzyme_dup": "dup",
    "dupnoneed": "dupnoneed", "duplicatednoneed": "dupnoneed", "enzyme_dupnoneed": "dupnoneed",
}


def normalize_activity(name: str) -> str:
    key = name.strip().lower()
    if key not in ACTIVITY_NAMES:
        raise UsageError(f"unknown argument activity {name!r}; use one of const, active (out), dup, dupnoneed")
    return ACTIVITY_NAMES[key]


class ActivityResult:
    """The answer of :func:`analyze_activity` for one function and one set of activities."""

    def __init__(self, solver: ActivitySolver) -> None:
        self._s = solver
        self.function: Function = solver.root
        self.activities: list[str] = list(solver.annotations)
        self.ret_active: bool = solver.ret_active
        self.types: FunctionTypeInfo = solver.types[solver.root].infos[0]
        self.errors: list[str] = []
        self._value_cache: dict[Value, bool] = {}
        self._inst_cache: dict[Instruction, bool] = {}

    # -- values ----------------------------------------------------------------------
    def is_constant_value(self, v: Value) -> bool:
        """True when ``v`` carries no derivative: it needs neither a shadow nor an adjoint."""
        c = self._value_cache.get(v)
        if c is None:
            c = self._value_cache[v] = self._constant_value(v)
        return c

    def _constant_value(self, v: Value) -> bool:
        s = self._s
        if isinstance(v.type, (VoidType, LabelType, MetadataType, TokenType)):
            return True
        if isinstance(v, Argument) and v.function is s.root:
            return self.activities[v.index] == "const"
        if isinstance(v, Function):
            return True
        if isinstance(v, (GlobalVariable, ConstantExpr)):
            return not (s.objs(v) & s.active_mem)
        if isinstance(v, Constant):
            return True
        if s.holds_pointer(v) and s.objs(v) & s.active_mem:
            if not (type_has_pointer(v.type) and s.info(v).pointee_is_integer_only(v)):
                return False
        return not (s.carries(v) and v in s.varied and v in s.useful)

    def points_to(self, v: Value) -> list[MemoryObject]:
        """The memory objects ``v`` may point into (for messages and debugging)."""
        return sorted(self._s.objs(v), key=lambda o: o.label())

    def is_active_memory(self, obj: MemoryObject) -> bool:
        return obj in self._s.active_mem

    @property
    def active_globals(self) -> list[GlobalVariable]:
        """Global variables that hold derivative data (the engine needs shadow globals for them)."""
        return [g for g, o in self._s.global_objects.items() if o in self._s.active_mem]

    # -- instructions ------------------------------------------------------------------
    def is_constant_instruction(self, inst: Instruction) -> bool:
        """True when the derivative needs no code for ``inst`` (only the primal runs it)."""
        c = self._inst_cache.get(inst)
        if c is None:
            c = self._inst_cache[inst] = self._constant_instruction(inst)
        return c

    def _constant_instruction(self, inst: Instruction) -> bool:
        if isinstance(inst, CallInst):
            callee = inst.called_function
            if callee is not None and known.call_kind(callee.name) == "inactive":
                return True
        if not inst.type.is_void and not self.is_constant_value(inst):
            return False
        if isinstance(inst, (StoreInst, AtomicRMWInst, CmpXchgInst)):
            ptr = inst.pointer if isinstance(inst, StoreInst) else inst.operand(0)
            val = inst.value if isinstance(inst, StoreInst) else inst.operands[-1]
            if self.is_constant_value(ptr):
                return True
            return self._integer_data(inst, val, ptr)
        if isinstance(inst, ReturnInst):
            return not inst.operands or self.is_constant_value(inst.operand(0))
        if isinstance(inst, CallInst):
            return self._constant_call(inst)
        if isinstance(inst, OpaqueInst):
            return all(self.is_constant_value(o) for o in inst.operands)
        return True

    def _integer_data(self, inst: Instruction, val: Value, ptr: Value) -> bool:
        """Is the stored data known to be integers only (nothing for the shadow to carry)?"""
        types = self._s.info(inst)
        if isinstance(val.type, IntType):
            top = types.top(val)
            if val.type.bits == 1 or (top is not None and top.is_integer):
                return True
        return types.is_integer_memory(ptr, types.layout.store_size(val.type))

    def _constant_call(self, inst: CallInst) -> bool:
        s = self._s
        callee = inst.called_function
        kind = known.call_kind(callee.name) if callee is not None else "unknown"
        args = inst.args
        if kind in ("alloc", "calloc", "realloc"):
            return True  # the result was checked: a constant result needs no shadow allocation
        mf = known.memory_function(callee.name or "") if callee is not None else None
        if mf is not None and kind in ("free", "set", "copy"):
            target = known.memory_operand(args, mf.dst if mf.dst is not None else mf.ptr)
            if target is None or self.is_constant_value(target):
                return True
            if kind != "copy":
                return False
            size = getattr(known.memory_operand(args, mf.size), "value", None)
            return s.info(inst).is_integer_memory(target, size if isinstance(size, int) else 0)
        if any(not self.is_constant_value(a) for a in args):
            return False
        if kind == "rule":
            return True
        # A call can change derivatives only through its result (checked) or by writing active memory:
        # what its arguments reach, the globals its code names, and memory of unknown origin.
        start = {s.unknown}
        for a in args:
            start |= s.objs(a)
        if callee is not None and not callee.is_declaration:
            start |= s.globals_used_by(callee)
        else:
            start |= set(s.global_objects.values())
        return not (s.reach(start) & s.active_mem)


def analyze_activity(module: Module, f: Function, arg_activities: Sequence[str], ret_active: bool,
                     types: FunctionTypeInfo | Sequence[FunctionTypeInfo] | None = None,
                     shadowed_globals: Iterable[GlobalVariable] = (),
                     rule_functions: Iterable[Function] = (), const_memory_read_back: bool = False) -> ActivityResult:
    """Activity of every value and instruction of ``f`` (and its defined callees).

    ``arg_activities``: one of ``const``, ``active``/``out``, ``dup``,
    ``dupnoneed`` per argument (Enzyme marker and Enzyme.jl spellings work).
    ``types``: the type analysis of ``f`` to use, or its analyses in several calling
    contexts (a fact then counts only where all agree); by default ``f`` is analysed as
    the derivative engine analyses a function handed to ``__enzyme_*`` (integer
    arguments are integers, as in the C ABI), so that ``enzyme opt --print-activity``
    prints what the engine uses (enzyme.ad.activity_plan calls this function too).
    ``shadowed_globals``: globals given a shadow by the caller (``enzyme_shadow``): active memory.
    ``rule_functions``: defined functions whose calls a registered rule differentiates (not their body).
    ``const_memory_read_back``: the caller may read what ``f`` stores into memory of const arguments, so
    active data stored there stays active (by default it counts only if ``f`` itself reads it back).

    >>> from enzyme.ir import parse_module
    >>> m = parse_module('''
    ... define double @f(double %x, double %c) {
    ...   %k = fptosi double %x to i32
    ...   %y = fmul double %x, %c
    ...   ret double %y
    ... }''')
    >>> f = m.get_function("f")
    >>> r = analyze_activity(m, f, ["active", "const"], ret_active=True)
    >>> [r.is_constant_value(i) for i in f.blocks[0].instructions[:2]]
    [True, False]
    """
    if f.is_declaration:
        raise UsageError(f"activity analysis: @{f.name} has no body")
    if len(arg_activities) != len(f.args):
        raise UsageError(f"activity analysis of @{f.name}: {len(arg_activities)} activities given for "
                         f"{len(f.args)} arguments")
    acts = [normalize_activity(a) for a in arg_activities]
    for a, act in zip(f.args, acts):
        if act == "active" and type_has_pointer(a.type):
            raise UsageError(f"argument {value_name(a)} of @{f.name} is a pointer: mark it dup (enzyme_dup, "
                             f"Duplicated) or const, not active/out")
    infos = [types] if isinstance(types, FunctionTypeInfo) else list(types or ())
    ta = next((i.analysis for i in infos if isinstance(i.analysis, TypeAnalysis)), None) or TypeAnalysis(module)
    if not infos:
        ta.analyze(f)
        infos = ta.contexts(f)
    solver = ActivitySolver(f, acts, ret_active, infos, ta, shadowed_globals, rule_functions, const_memory_read_back)
    solver.solve()
    result = ActivityResult(solver)
    result.errors = _const_memory_errors(result, solver)
    return result


def _fix(o: MemoryObject) -> str:
    name = value_name(o.origin) if o.origin is not None else "the argument"
    return f"Fix: pass {name} as enzyme_dup (Duplicated(buf, dbuf) from Python) with a shadow buffer"


def _const_memory_errors(result: ActivityResult, s: ActivitySolver) -> list[str]:
    """Active data that would end up in memory of a const argument, which has no shadow to hold it."""
    bad = {o for o in s.active_mem if o.is_const_argument}
    if not bad:
        return []
    errors: list[str] = []
    leaks: list[tuple[Instruction, MemoryObject]] = []
    named: set[MemoryObject] = set()
    for g in s.functions:
        for inst in g.instructions():
            if isinstance(inst, StoreInst):
                val, ptr, copy = inst.value, inst.pointer, False
            elif isinstance(inst, CallInst) and inst.called_function is not None and \
                    known.call_kind(inst.called_function.name) == "copy":
                mf = known.memory_function(inst.called_function.name or "")
                src, dst = known.memory_operand(inst.args, mf.src if mf else None), known.memory_operand(inst.args, mf.dst if mf else None)
                if src is None or dst is None:
                    continue
                val, ptr, copy = src, dst, True
            else:
                continue
            targets = s.objs(ptr) & bad
            if targets:
                o = min(targets, key=lambda x: x.label())
                if copy and s.objs(val) & s.active_mem:
                    named.add(o)
                    errors.append(f"{describe(inst)}: active memory is copied into {_arg_label(o)}, which is "
                                  f"const and has no shadow to carry its derivative; the gradient would be "
                                  f"wrong. {_fix(o)}")
                elif not copy and s.carries(val) and not result.is_constant_value(val):
                    named.add(o)
                    errors.append(f"{describe(inst)}: an active value is stored into {_arg_label(o)}, which is "
                                  f"const and has no shadow to carry its derivative; the gradient would be "
                                  f"wrong. {_fix(o)}")
            leaked = s.objs(val) & bad if not copy else set()
            if leaked and s.objs(ptr) & s.active_mem and not s.objs(ptr) <= bad:
                leaks.append((inst, min(leaked, key=lambda x: x.label())))
    for inst, o in leaks:  # only where no stored value already explains why the const memory is active
        if o not in named:
            errors.append(f"{describe(inst)}: a pointer into {_arg_label(o)} is stored into active memory, so its "
                          f"shadow would be needed but a const argument has none. {_fix(o)}")
    named |= {o for _, o in leaks}
    for o in sorted(bad - named, key=lambda x: x.label()):
        errors.append(f"@{result.function.name}: {_arg_label(o)} receives active data (through a call), but it is "
                      f"const and has no shadow to carry derivatives. {_fix(o)}")
    return errors


def _arg_label(o: MemoryObject) -> str:
    assert o.origin is not None
    return f"memory of argument {value_name(o.origin)}"

