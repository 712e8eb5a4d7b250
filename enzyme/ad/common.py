"""Pieces shared by the forward and reverse generators."""
from __future__ import annotations

import re

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from ..errors import DifferentiationError
from ..ir import (Block, BranchInst, CallInst, Constant, ConstantExpr, ConstantFP, ConstantInt, ConstantKeyword,
                  ConstantText, Function, GlobalVariable, Instruction, InvokeInst, Module, PhiInst, ReturnInst,
                  StoreInst, Value)
from ..ir.cfg import catching_flow_order
from ..ir.invokes import catching_invokes
from ..ir.instructions import CastInst, invoke_as_call
from ..analysis.debuginfo import describe
from ..analysis.nonfinite import NonFiniteValues
from ..rules.inactive import is_known_inactive
from ..rules.math import no_rule_reason
from ..rules.mpi import MPI_CALLS, is_mpi_function
from ..ir.types import ArrayType, FloatType, IntType, PointerType, StructType, Type, VectorType
from .modes import Activity
if TYPE_CHECKING:
    from ..analysis import TypeAnalysis
    from ..ir.builder import Builder
    from ..rules.memory import MemoryFunction


def zero(t: Type) -> Constant:
    """The zero of a type (tangent/adjoint of something that carries no derivative)."""
    if isinstance(t, FloatType):
        return ConstantFP.of(t, 0.0)
    if isinstance(t, IntType):
        return ConstantInt(t, 0)
    if isinstance(t, PointerType):
        return ConstantKeyword(t, "null")
    if isinstance(t, (VectorType, ArrayType, StructType)):
        return ConstantKeyword(t, "zeroinitializer")
    raise DifferentiationError(f"no zero value of type {t}")


def adjoint_zero(t: Type) -> Constant:
    """The zero an adjoint starts from: ``-0.0``, IEEE's additive identity, where the type can spell it.

    ``-0.0 + d`` is ``d`` for every ``d`` (``+0.0 + -0.0`` is ``+0.0``), so LLVM folds the first
    contribution to an adjoint without fast-math flags; with ``+0.0`` every adjoint slot and phi edge
    would keep an ``fadd`` of zero that strict IEEE forbids folding.  Aggregates and the 128-bit
    floats keep ``zero``, and so do selects between a contribution and zero (``select(c, x, +0.0)``
    is one AND with the compare's mask, a constant ``-0.0`` costs a load; neither folds).
    """
    if isinstance(t, FloatType) and t.kind not in _NO_NEGATIVE_ZERO_SPELLING:
        return ConstantFP.of(t, -0.0)
    if isinstance(t, VectorType) and isinstance(t.element, FloatType) \
            and t.element.kind not in _NO_NEGATIVE_ZERO_SPELLING:
        return ConstantExpr(t, "splat", [ConstantFP.of(t.element, -0.0)])
    return zero(t)


_NO_NEGATIVE_ZERO_SPELLING = frozenset({"fp128", "ppc_fp128"})


def zero_where_seeds_zero(b: "Builder", seeds: list[Value], contribution: Value) -> Value:
    """``contribution``, or exactly zero where every seed is zero (a strong zero).

    Reverse mode: a value computed and then dropped has zero adjoints, and its partials may be
    infinite or NaN (a speculated ``1/y`` at ``y == 0``), so ``0 · inf`` must not reach a gradient.
    """
    is_zero: Value | None = None
    for seed in seeds:
        test = b.fcmp("oeq", seed, zero(seed.type))
        is_zero = test if is_zero is None else b.binop("and", is_zero, test)
    assert is_zero is not None
    return b.select(is_zero, zero(contribution.type), contribution)


def is_null_pointer(v: Value) -> bool:
    """``ptr null``: it points nowhere in either memory, so it is its own shadow."""
    return isinstance(v, ConstantKeyword) and v.keyword == "null" and isinstance(v.type, PointerType)


def carries_float(t: Type) -> bool:
    """Can a value of this type hold floating-point data (directly, not through memory)?"""
    if isinstance(t, FloatType):
        return True
    if isinstance(t, VectorType):
        return isinstance(t.element, FloatType)
    if isinstance(t, ArrayType):
        return carries_float(t.element)
    if isinstance(t, StructType):
        return any(carries_float(e) for e in t.elements)
    return False


@dataclass
class ADContext:
    """Module-wide state: the module and the memo of generated derivatives."""

    module: Module
    # Heterogeneous (derivative functions, SweepPairs, dispatchers, ...), each kind under keys of its own shape.
    memo: dict[tuple, Any] = field(default_factory=dict)
    roots: list[Function] = field(default_factory=list)  # the functions the module's requests differentiate
    types: "TypeAnalysis | None" = None  # made on first use (enzyme.ad.copy_types.function_contexts)
    allocators: "set[Function] | None" = None  # made on first use (enzyme.ad.allocators)
    # Functions some __enzyme_fwdsplit differentiates: their __enzyme_augmentfwd tape is a log (forward_split.py).
    forward_split: set[Function] = field(default_factory=set)
    _nonfinite: NonFiniteValues | None = field(default=None, init=False)

    @property
    def nonfinite(self) -> NonFiniteValues:
        """Which values may be infinite or NaN (reverse mode guards their products with zero adjoints)."""
        if self._nonfinite is None:
            self._nonfinite = NonFiniteValues(self.module, self.roots)
        return self._nonfinite


def memory_function(name: str) -> "MemoryFunction | None":
    """The memory-table entry (operand roles) of a memory function, else None."""
    from ..rules.memory import lookup_memory
    return lookup_memory(name)


def zero_fill(module: Module, b: "Builder", ptr: Value, size: Value) -> None:
    """``memset(ptr, 0, size)`` at the builder."""
    from ..ir.builder import const_int
    from ..ir.types import I1, I8, I64, VOID, PointerType
    from ..ir import FunctionType
    fn = module.declare_function("llvm.memset.p0.i64", FunctionType(VOID, (PointerType(), I8, I64, I1)))
    if size.type != I64:
        size = b.cast("zext", size, I64)
    b.call(fn, [ptr, const_int(8, 0), size, const_int(I1, 0)])


def is_inactive_function(name: str) -> bool:
    """Functions whose calls never carry derivatives (I/O, timers, debug intrinsics, ...).

    The table is :mod:`enzyme.rules.inactive`, which the analyses read too (enzyme.analysis.known_functions).
    """
    return is_known_inactive(name)


def differentiable_order(fn: Function) -> list[Block]:
    """The blocks derivatives are made of, in reverse post-order: those reached without unwinding, and the
    exception handlers that catch and carry on (``caught_exceptions.py``).

    Landing pads that only clean up and resume are not differentiated: a
    derivative calls where the primal invokes them, so an exception thrown
    inside it skips them (the cleanups of the differentiated frames do not run).
    """
    return catching_flow_order(fn, frozenset(catching_invokes(fn)))


def clone_body(order: list[Block], into: Function, vmap: dict[Value, Value],
               caught: Collection[InvokeInst] | None = None) -> list[tuple[Instruction, Instruction]]:
    """Clone the blocks ``order`` (reachable, in RPO) into ``into``, mapping operands through ``vmap``.

    ``vmap`` must already map the arguments; it gains the blocks and instructions.
    Phi edges from unreachable blocks are dropped.  Returns (original, clone) pairs.  Invokes whose landing
    pad is not cloned become a call and a branch to their normal destination; given ``caught`` (a derivative's
    walk), every invoke does, the ``caught`` ones until ``restore_invokes`` makes them invokes again.
    """
    for b in order:
        vmap[b] = into.append_block(b.name)
    clones: list[tuple[Instruction, Instruction]] = []
    for b in order:
        nb = vmap[b]
        for inst in b.instructions:
            if isinstance(inst, InvokeInst) and (inst.unwind_dest not in vmap or caught is not None):
                # Unwind paths are not differentiated (see differentiable_order): call, then continue.
                call = invoke_as_call(inst)
                call.name = inst.name
                nb.append(call)  # type: ignore[attr-defined]
                nb.append(BranchInst(vmap[inst.normal_dest]))  # type: ignore[attr-defined]
                vmap[inst] = call
                clones.append((inst, call))
                continue
            ni = inst.clone()
            ni.name = inst.name
            nb.append(ni)  # type: ignore[attr-defined]
            vmap[inst] = ni
            clones.append((inst, ni))
    for inst, ni in clones:
        for use in ni.operand_uses:
            mapped = vmap.get(use.value)
            if mapped is not None:
                ni.set_operand(use.index, mapped)
            elif not isinstance(use.value, Constant):
                raise DifferentiationError(f"{describe(inst)}: operand from an unreachable block")
        if isinstance(ni, PhiInst):
            for _, blk in list(ni.incoming):
                if blk.parent is not into:
                    ni.remove_incoming(blk)
    return clones


def underlying_global(p: Value) -> GlobalVariable | None:
    """The global variable ``p`` points into (through GEPs and pointer casts), or None."""
    from ..ir import CastInst, GEPInst
    while True:
        if isinstance(p, (GEPInst, CastInst)):
            p = p.operand(0)
        elif isinstance(p, ConstantExpr) and p.operands and (p.opcode == "getelementptr"
                                                             or p.opcode in ("bitcast", "addrspacecast")):
            p = p.operands[0]
        else:
            return p if isinstance(p, GlobalVariable) else None


def unshadowed_store_error(inst: Instruction, pointer: Value) -> DifferentiationError:
    """The refusal for an active value (or a pointer to active memory) stored where no shadow can receive it."""
    from ..ir import CallInst, CastInst, GEPInst, GlobalVariable
    from ..ir.types import PointerType
    stored = inst.operand(0)
    what = ("a pointer to memory with a shadow (active memory)" if isinstance(stored.type, PointerType)
            else "an active value")
    base = pointer
    while isinstance(base, (GEPInst, CastInst)) or (
            isinstance(base, CallInst) and (base.callee.name or "").startswith("llvm.threadlocal.address")):
        base = base.operand(0)
    if isinstance(base, GlobalVariable):
        kind = "thread-local global" if "thread_local" in base.prefix else "global"
        return DifferentiationError(
            f"{describe(inst)}: {what} is stored into memory that has no shadow: {kind} @{base.name}, which "
            "activity analysis did not find active (reached through a function pointer?); give it a shadow with "
            "enzyme_shadow, or pass that state through a pointer argument marked enzyme_dup (Duplicated in Python)")
    return DifferentiationError(
        f"{describe(inst)}: {what} is stored into memory that has no shadow (constant memory), so its "
        "derivative would be lost. Pass that memory as enzyme_dup (Duplicated in Python)")


def primal_and_shadow_params(fn: Function, activities: tuple[str, ...],
                             width: int = 1) -> tuple[list[Type], list[str | None]]:
    """Parameter types and names of a derivative: each primal argument, then ``width`` shadows if it is dup."""
    params: list[Type] = []
    names: list[str | None] = []
    for a, act in zip(fn.args, activities):
        params.append(a.type)
        names.append(a.name)
        if Activity(act).has_shadow:
            for j in range(width):
                params.append(a.type)
                names.append(value_name(a, "'" if width == 1 else f"'{j}"))
    return params, names


def value_name(v: Value, suffix: str) -> str | None:
    return f"{v.name}{suffix}" if v.name else None


def is_inline_asm(inst: CallInst) -> bool:
    callee = inst.callee
    return isinstance(callee, ConstantText) and callee.text().startswith("asm")


def callee_unknown_error(inst: CallInst) -> DifferentiationError:
    """The refusal of a call without a named callee whose arguments or result are active."""
    if is_inline_asm(inst):
        return DifferentiationError(
            f"{describe(inst)}: inline assembly with active operands cannot be differentiated; wrap it in a "
            "function with a registered derivative, or keep it out of the differentiated code")
    return DifferentiationError(
        f"{describe(inst)}: indirect calls (through a function pointer) are not supported yet; call the function "
        "directly, or build with optimization so the pointer is resolved")


# Addresses below this are never mapped: a pointer made from one (Rust's ``NonNull::dangling()``, the alignment
# of the element type) is never dereferenced, so a null shadow loses nothing.
NULL_PAGE = 4096


def narrow_integer_as_pointer(v: Value) -> bool:
    """Is ``v`` an ``inttoptr`` of an integer zero- or sign-extended from 32 bits or fewer?  No address is
    made that way: it is an integer moved through a pointer-typed slot (rustc's SROA of a ``BTreeMap`` entry
    whose key is a ``u32`` shares a slot with the variants' pointers); its shadow is never followed."""
    if not (isinstance(v, CastInst) and v.opcode == "inttoptr"):
        return False
    x = v.operand(0)
    if not (isinstance(x, CastInst) and x.opcode in ("zext", "sext")):
        return False
    t = x.operand(0).type
    return isinstance(t, IntType) and t.bits <= 32


def unshadowed_pointer_store_error(inst: Instruction, pointer: Value,
                                   float_free: Callable[[Value], bool]) -> DifferentiationError | None:
    """The refusal of storing ``pointer``, which has no shadow, into memory that has one -- or None if harmless.

    The shadow memory then holds a null pointer: code that later loads the
    pointer and follows it (in another function, say) would accumulate
    derivatives through null.  Harmless when the memory pointed to cannot hold
    floating-point data (``float_free``, from type analysis: index arrays, strings,
    vtables), or for null itself.
    """
    target = pointer
    while isinstance(target, ConstantExpr) and target.operands:
        target = target.operands[0]
    if isinstance(target, ConstantKeyword) or isinstance(target, Function):
        return None
    if isinstance(target, ConstantInt) and 0 <= target.value < NULL_PAGE:
        return None  # an address in the never-mapped first page (Rust's dangling pointer of an empty Vec)
    if narrow_integer_as_pointer(target):
        return None  # an integer of 32 bits or fewer in a pointer-typed slot (a Rust enum's payload after SROA)
    if isinstance(target, GlobalVariable):
        if not carries_float(target.value_type):
            return None
    elif float_free(pointer):
        return None
    return DifferentiationError(
        f"{describe(inst)}: stores a pointer to memory that has no shadow (constant memory, e.g. an enzyme_const "
        "argument) into memory that has one, so derivatives that later follow it would be lost; pass that memory "
        "as enzyme_dup (Duplicated in Python)")


def constant_pointer_copy_error(inst: Instruction) -> DifferentiationError:
    """Copying constant memory that may hold pointers into memory with a shadow (see copy_types.may_copy_pointers)."""
    return DifferentiationError(
        f"{describe(inst)}: copies memory without a shadow (constant memory, e.g. an enzyme_const argument) that may "
        "hold pointers into memory that has one; their shadows would be null, so derivatives that later follow them "
        "would be lost; pass the source as enzyme_dup (Duplicated in Python)")


# Integer operations that keep an address an address (offsets, alignment rounding, width changes).
_ADDRESS_ARITHMETIC = frozenset({"add", "sub", "and", "or", "zext", "sext", "trunc"})


def keeps_address(x: Instruction) -> bool:
    if x.opcode not in _ADDRESS_ARITHMETIC:
        return isinstance(x, PhiInst) or x.opcode == "select"
    if x.opcode == "and":  # `p & ~15` rounds an address; `p & 15` is a remainder, not an address
        masks = [o for o in x.operands if isinstance(o, ConstantInt)]
        return not masks or not 0 <= masks[0].value < 1 << 16
    return True


def address_origins(v: Value, has_shadow: Callable[[Value], bool]) -> list[Value]:
    """The shadowed pointers an integer address is computed from (``(uintptr_t)x + 8``), if any.

    ``inttoptr`` of such an integer points into the same object as one of
    them (see integer_addresses for its shadow).  Several origins are
    either different paths (a phi) or a distance (``p - q``), not an address.
    """
    origins: list[Value] = []
    seen: set[Value] = set()
    work = [v]
    while work:
        x = work.pop()
        if x in seen:
            continue
        seen.add(x)
        if isinstance(x, Instruction) and x.opcode == "ptrtoint":
            p = x.operand(0)
            if has_shadow(p) and p not in origins:
                origins.append(p)
        elif isinstance(x, Instruction) and keeps_address(x):
            work.extend(x.operands[1:] if x.opcode == "select" else x.operands)
    return origins


#: ``std::hash<T*>::operator()`` (``std::hash<const char*>`` keys of an ``std::unordered_map``): returns the address
#: as the key's hash code.
_POINTER_HASH = re.compile(r"^_ZNKSt4hashIP.*EclE")


def check_address_escape(inst: Instruction, has_shadow: Callable[[Value], bool]) -> None:
    """Refuse an address of memory with a shadow leaving as an integer (stored where no shadow is, passed,
    returned).

    Turned back into a pointer elsewhere, it would have no shadow, and the
    derivatives through it would silently be zero.  (Integer address
    arithmetic that stays in the function is followed: see integer_addresses.)
    """
    if isinstance(inst, StoreInst):
        if has_shadow(inst.pointer):
            return  # into memory with a shadow: the shadow address goes to the shadow (store_integer_address)
        values = [inst.value]
    elif isinstance(inst, CallInst):
        if inst.callee_name and is_inactive_function(inst.callee_name):
            return  # printf("%lx", (uintptr_t)p) and the like only look at it
        values = list(inst.args)
    elif isinstance(inst, ReturnInst) and inst.value is not None:
        if _POINTER_HASH.match(getattr(inst.function, "name", None) or ""):
            return  # std::hash<T*>: a hash code (bucket index, equality of cached codes), never an address again
        values = [inst.value]
    else:
        return
    for v in values:
        if isinstance(v.type, IntType) and v.type.bits >= 32 and len(address_origins(v, has_shadow)) == 1:
            raise DifferentiationError(
                f"{describe(inst)}: the address of memory with a shadow leaves as an integer; made into a pointer "
                "again elsewhere it would have no shadow and its derivatives would be lost. Keep it a pointer")


# Runtime-library calls that compilers emit for user code, with what to do about them.
RUNTIME_HINTS = {
    "_FortranAAssign": "flang assigns to an allocatable array through its runtime (reallocating the left side "
                       "if its shape differs); build with -O1 or higher and -fno-realloc-lhs when the shapes "
                       "always conform, so the assignment becomes a loop pyenzyme can differentiate",
}


def runtime_hint(name: str) -> str:
    """``; <what to do>`` for a known runtime-library function, else an empty string."""
    hint = RUNTIME_HINTS.get(name)
    return f"; {hint}" if hint else ""


def how_to_add_a_rule(name: str) -> str:
    """The public ways to give @name a derivative or declare it inactive (for error messages)."""
    return (f"register a derivative with enzyme.custom_rule(lib, \"{name}\", forward=..., augmented_primal=..., "
            "reverse=...) from Python or a __enzyme_register_derivative_* / __enzyme_register_gradient_* global in "
            "C, or mark it inactive (enzyme.custom_rule(..., inactive=True), or a __enzyme_inactivefn_* global)")


def no_rule_error(inst: Instruction, name: str) -> DifferentiationError:
    """The refusal of an active call to a function with neither a body nor a derivative rule."""
    if name in RUNTIME_HINTS:
        return DifferentiationError(f"{describe(inst)}: no derivative rule for @{name}{runtime_hint(name)}")
    if is_mpi_function(name):
        return DifferentiationError(
            f"{describe(inst)}: no derivative rule for MPI call @{name} on data that may carry derivatives "
            f"(pyenzyme differentiates {', '.join(sorted(n for n, c in MPI_CALLS.items() if c.refused is None))}; "
            "set-up and query calls are inactive)")
    if name.startswith(("llvm.va_start", "llvm.va_copy", "llvm.va_end")):
        return DifferentiationError(
            f"{describe(inst)}: variadic arguments (va_arg) are not differentiated yet where the variadic function "
            "is called through a pointer (or off x86-64 System V); call it directly or pass the values in an array")
    reason = no_rule_reason(name)
    if reason is not None:  # known, deliberately without a rule: say why
        return DifferentiationError(f"{describe(inst)}: no derivative rule for @{name}: {reason}; "
                                    f"{how_to_add_a_rule(name)}")
    return DifferentiationError(
        f"{describe(inst)}: no derivative rule for @{name} and no body to differentiate; "
        f"{how_to_add_a_rule(name)} if it does not affect derivatives")
