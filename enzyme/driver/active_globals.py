"""Shadow globals made automatically for mutable globals that carry derivatives.

A global accumulator (``static double energy; ... energy += e;``), a
``static`` work array, or a global that a callee writes and its caller reads
holds active values inside the differentiated code.  Like upstream Enzyme,
such a global gets a shadow: an internal, zero-initialised global of the same
type (one per batch direction), which the engine then treats as it treats a
global declared with ``enzyme_shadow`` (its loads and stores get tangents or
adjoints).  Which globals need one comes from activity analysis of each
request; globals only read by differentiated code (tables, model parameters)
get none and cost nothing.

The semantics is that of a derivative call: the global's value at entry was
set before the call, so its tangent is zero, and its value at exit is not an
output of the call, so its adjoint is zero at the start of the reverse sweep
and the adjoint of its initial value is dropped.  The shadows are therefore
zeroed at each top-level derivative call site (never inside the generated
functions, which nested derivatives share): before the forward and the
augmented sweep, and after the call, so the next call starts from zero.
Between ``__enzyme_augmentfwd`` and ``__enzyme_reverse`` the shadow keeps what
the augmented sweep put there (pointer shadows).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from ..ad.common import carries_float, zero_fill
from ..ad.custom import custom_rules
from ..ad.modes import Activity
from ..analysis import analyze_activity
from ..analysis.activity_solver import reachable_functions
from ..analysis.debuginfo import describe
from ..analysis.layout import DataLayout
from ..errors import DifferentiationError, EnzymeError
from ..ir import (
    ConstantAggregate,
    CallInst,
    CastInst,
    GEPInst,
    ConstantExpr,
    ConstantKeyword,
    Function,
    GlobalVariable,
    Instruction,
    LoadInst,
    Module,
    PointerType,
    StoreInst,
    Value,
)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.target_attributes import is_gpu_module
from ..ir.types import I64
from . import allocated_globals
from .requests import Request



def shadow_active_globals(module: Module, requests: list[Request]) -> dict[GlobalVariable, list[GlobalVariable]]:
    """Give every mutable global that some request's code makes active its shadow globals (one per lane).

    They are registered with the shadows users declare (``custom_rules(module).shadows``), so the engine
    seeds them the same way.  Returns the shadows made here, which the call sites must zero
    (:func:`zero_shadows_around`).
    """
    rules = custom_rules(module)
    made: dict[GlobalVariable, list[GlobalVariable]] = {}
    analysed: set[tuple[Function, tuple[str, ...]]] = set()
    for req in requests:
        reach = set(reachable_functions(req.function))
        for g in _stored_constant_tables(reach):
            if g not in made and g not in rules.shadows:
                made[g] = []
        candidates = _written_globals(reach, set(rules.shadows) | rules.inactive_globals)
        if not candidates:
            continue  # only reads of globals: they hold constants as far as this call goes
        acts = tuple("dup" if a.activity.has_shadow else "active" if a.activity is Activity.ACTIVE else "const"
                     for a in req.args)
        if (req.function, acts) in analysed:
            continue
        analysed.add((req.function, acts))
        try:
            result = analyze_activity(module, req.function, list(acts), ret_active=not req.function.return_type.is_void)
        except EnzymeError:
            continue  # the engine's own checks refuse what the analysis could not answer
        for g in result.active_globals:
            if g not in candidates or _is_std_string(g):
                continue
            if g not in made:
                _check_shadowable(module, g, reach)
                made[g] = []
    # Any request may reach the global (the derivatives are shared): as many lanes as the widest one.
    width = max(req.width for req in requests)
    for g, lanes in made.items():
        lanes += [new_shadow(module, g, lane) for lane in range(width)]
        rules.shadows[g] = lanes
    return made


def zero_shadows_around(module: Module, call: CallInst, mode: str,
                        made: dict[GlobalVariable, list[GlobalVariable]]) -> None:
    """Zero the automatic shadows the derivative ``call`` reaches: before it unless it is a split reverse
    sweep (which continues from its augmented sweep), after it unless it is an augmented sweep."""
    if not made:
        return
    callee = call.called_function
    if callee is None:
        return
    owned = {s for lanes in made.values() for s in lanes}
    used = sorted({v for f in reachable_functions(callee) for v in _globals_named(f) if v in owned}, key=lambda s: s.name or "")
    if not used:
        return
    layout = DataLayout.of_module(module)
    primal_of = {s: g for g, lanes in made.items() for s in lanes}
    heap = {s: allocated_globals.is_heap_pointer_global(module, primal_of[s]) for s in used}
    sites = []
    if mode != "split_reverse":
        sites.append((InsertPoint.before_inst(call), True))
    if mode != "augment":
        sites.append((InsertPoint.after_inst(call), False))
    for at, before in sites:
        b = Builder(at)
        for s in used:
            if allocated_globals.is_descriptor_global(s):  # a module's allocatable array (allocated_globals.py)
                if before:
                    allocated_globals.enter(module, b, primal_of[s], s)
                else:
                    allocated_globals.leave(module, b, s)
            elif allocated_globals.is_vector_global(primal_of[s]):  # a file-scope std::vector
                if before:
                    allocated_globals.enter_vector(module, b, primal_of[s], s)
                else:
                    allocated_globals.leave_vector(module, b, s)
            elif heap[s]:  # a C pointer to a malloc'd block
                if before:
                    allocated_globals.enter_heap_pointer(module, b, primal_of[s], s)
                else:
                    allocated_globals.leave_heap_pointer(module, b, s)
            else:
                zero_fill(module, b, s, const_int(I64, layout.alloc_size(s.value_type)))


def _written_globals(functions: Iterable[Function], skip: set[GlobalVariable]) -> set[GlobalVariable]:
    """Mutable globals those functions use other than by loading from them (store, copy, pass on, escape)."""
    out: set[GlobalVariable] = set()
    for f in functions:
        for inst in f.instructions():
            for i, op in enumerate(inst.operands):
                if isinstance(inst, LoadInst) and i == 0 and not isinstance(op, ConstantExpr):
                    continue  # a load reads the global: it holds a value set before the call
                if isinstance(inst, (GEPInst, CastInst)) and i == 0 and _literal_table(op):
                    continue  # a table of string literals that is only ever read
                for g in _globals_in(op):
                    if not g.is_constant and g not in skip and not _is_enzyme_global(g):
                        out.add(g)
    return out


def _literal_table(g: Value) -> bool:
    """Is ``g`` a global array of pointers to constant data without floats (``static const char *names[]``),
    which the program only ever loads from (nothing stores another pointer there)?"""
    if not isinstance(g, GlobalVariable) or carries_float(g.value_type) \
            or not isinstance(g.initializer, ConstantAggregate):
        return False
    for e in g.initializer.elements:
        while isinstance(e, ConstantExpr) and e.operands:
            e = e.operands[0]
        if not (isinstance(e, ConstantKeyword) or (isinstance(e, GlobalVariable) and e.is_constant
                                                     and not carries_float(e.value_type))):
            return False
    for u in g.uses:
        user = u.user
        if not ((isinstance(user, LoadInst) and u.index == 0)
                or (isinstance(user, (GEPInst, CastInst)) and u.index == 0 and _only_read(user))):
            return False
    return True


def _only_read(address: Instruction, depth: int = 4) -> bool:
    """Is ``address`` (an element address of a global) only loaded from, directly or through more GEPs/casts?"""
    for u in address.uses:
        user = u.user
        if isinstance(user, LoadInst) and u.index == 0:
            continue
        if depth > 0 and isinstance(user, (GEPInst, CastInst)) and u.index == 0 and _only_read(user, depth - 1):
            continue
        return False
    return True


def _stored_constant_tables(functions: Iterable[Function]) -> set[GlobalVariable]:
    """Constant globals holding floats whose address is stored into memory (flang at -O0 points an array
    constructor's descriptor at a constant table: `t = [25.0_dp, 5.0_dp]`).  Memory with a shadow then needs a
    shadow of the address; a zeroed shadow table gives the constants their zero derivative, where a null one
    would be followed by the derivative code."""
    out: set[GlobalVariable] = set()
    for f in functions:
        for inst in f.instructions():
            if isinstance(inst, StoreInst):
                for g in _globals_in(inst.value):
                    if g.is_constant and g.initializer is not None and carries_float(g.value_type) \
                            and not _is_enzyme_global(g):
                        out.add(g)
    return out


_STD_STRING = re.compile(r"^class\.std::__cxx11::basic_string(?:\.\d+)?$")


def _is_std_string(g: GlobalVariable) -> bool:
    """A file-scope ``std::string`` (a log line assigned inside the differentiated code) holds characters only:
    no shadow (a zeroed one would have a null data pointer, which the string code would write through); copies
    and pointer stores into it from strings with shadows lose nothing (``memcopy.string_characters``)."""
    return _STD_STRING.match(getattr(g.value_type, "name", "") or "") is not None


def _globals_in(v: Value) -> Iterable[GlobalVariable]:
    if isinstance(v, GlobalVariable):
        yield v
    elif isinstance(v, ConstantExpr):
        for o in v.operands:
            yield from _globals_in(o)


def _globals_named(f: Function) -> set[GlobalVariable]:
    return {g for inst in f.instructions() for op in inst.operands for g in _globals_in(op)}


def _is_enzyme_global(g: GlobalVariable) -> bool:
    name = g.name or ""
    return name.startswith(("llvm.", "enzyme_", "__enzyme", "__pyenzyme", ".pyenzyme"))


def _check_shadowable(module: Module, g: GlobalVariable, reach: set[Function]) -> None:
    """Refuse the globals whose shadow the call sites could not zero (see the module docstring)."""
    why = None
    if is_gpu_module(module):
        why = "in GPU device code, where every thread would zero the shared shadow"
    elif "thread_local" in g.prefix:
        why = "thread-local, and its shadow would have to be too"
    elif isinstance(g.type, PointerType) and g.type.addrspace != 0:
        why = f"in address space {g.type.addrspace}"
    if why is None:
        return
    site = _first_write(g, reach)
    where = describe(site) if site is not None else f"global @{g.name}"
    raise DifferentiationError(
        f"{where}: global @{g.name} carries derivatives, but it is {why}; pass that state through a pointer "
        "argument marked enzyme_dup (Duplicated in Python), or give the global a shadow with enzyme_shadow")


def _first_write(g: GlobalVariable, reach: set[Function]) -> Instruction | None:
    for f in sorted(reach, key=lambda f: f.name or ""):
        for inst in f.instructions():
            if not isinstance(inst, LoadInst) and any(x is g for op in inst.operands for x in _globals_in(op)):
                return inst
    return None


def new_shadow(module: Module, g: GlobalVariable, lane: int) -> GlobalVariable:
    align = re.search(r"\balign (\d+)", g.suffix)
    suffix = f", align {align.group(1)}" if align else ""
    name = module.unique_name(f"{g.name}_shadow" + (str(lane) if lane else ""))
    s = GlobalVariable(name, g.value_type, initializer=ConstantKeyword(g.value_type, "zeroinitializer"),
                       prefix="internal", suffix=suffix, type=g.type)
    module.add(s)
    return s

