"""What a snapshot of a checkpointed loop must hold (enzyme.ad.checkpoint).

Recomputing steps from a snapshot is right only if the snapshot holds every piece of memory a step's result
depends on and the steps change.  A snapshot holds the regions the call names and the mutable globals the
step reaches (``snapshot_globals``); ``check_writes`` refuses a step that may write memory outside those:
through an argument no region starts at, or through a pointer whose object cannot be told (loaded from
memory, an indirect or unknown call).  Fresh blocks and stack objects of the step are its own.

The steps run again in the reverse sweep also read what they only read, through their other arguments: that
memory must not change after the loop.  ``check_writes`` refuses code after the loop writing into the object
such an argument points into: in the loop's function (or what it calls) and, through the call sites, in its
callers.  Where it cannot tell (a write through a loaded pointer, an indirect call, a read-only argument whose
object is unknown) it warns, naming the instruction.
"""
from __future__ import annotations

import warnings

from ..errors import DifferentiationError, EnzymeWarning
from ..ir import (AllocaInst, Argument, CallInst, CastInst, ConstantExpr, Function, GEPInst, GlobalVariable,
                  Instruction, PhiInst, SelectInst, StoreInst, Value, strip_pointer_casts)
from ..ir.values import iter_constant_operands, ref
from ..ir.types import PointerType
from ..rules import lookup
from ..rules.memory import MemoryKind, lookup_memory
from .common import describe

_HARMLESS = ("llvm.lifetime.", "llvm.assume", "llvm.dbg.", "llvm.experimental.noalias.scope.decl",
             "llvm.stacksave", "llvm.stackrestore")


def reachable_functions(step: Function) -> list[Function]:
    """``step`` and the defined functions it calls, directly or not."""
    seen: dict[Function, None] = {step: None}
    work = [step]
    while work:
        fn = work.pop()
        for inst in fn.instructions():
            if isinstance(inst, CallInst):
                g = inst.called_function
                if g is not None and not g.is_declaration and g not in seen:
                    seen[g] = None
                    work.append(g)
    return list(seen)


def snapshot_globals(step: Function) -> tuple[GlobalVariable, ...]:
    """The mutable globals ``step`` and its callees name (read or written), in a fixed order."""
    out: dict[GlobalVariable, None] = {}

    def visit(v: Value, depth: int = 0) -> None:
        if isinstance(v, GlobalVariable):
            name = v.name or ""
            if not v.is_constant and not name.startswith(("llvm.", "__pyenzyme", "enzyme_")):
                out[v] = None
        elif isinstance(v, ConstantExpr) and depth < 8:
            for o in iter_constant_operands(v):
                visit(o, depth + 1)

    for fn in reachable_functions(step):
        for inst in fn.instructions():
            for o in inst.operands:
                visit(o)
    return tuple(out)


def _objects(p: Value) -> set[Value] | None:
    """The objects ``p`` may point into, or None if that cannot be told."""
    out: set[Value] = set()
    seen: set[Value] = set()
    work = [p]
    while work:
        v = strip_pointer_casts(work.pop())
        if v in seen:
            continue
        seen.add(v)
        if isinstance(v, GEPInst) or (isinstance(v, CastInst) and v.opcode in ("bitcast", "addrspacecast")):
            work.append(v.operand(0))
        elif isinstance(v, ConstantExpr) and v.opcode == "getelementptr" and v.operands:
            work.append(v.operands[0])
        elif isinstance(v, PhiInst):
            work.extend(x for x, _ in v.incoming)
        elif isinstance(v, SelectInst):
            work.extend((v.operand(1), v.operand(2)))
        elif isinstance(v, (Argument, GlobalVariable, AllocaInst)):
            out.add(v)
        elif isinstance(v, CallInst) and (mf := lookup_memory(v.callee_name or "")) is not None and \
                mf.kind in (MemoryKind.ALLOC, MemoryKind.CALLOC) and mf.out is None:
            out.add(v)
        else:
            return None
    return out


class _Unknown(Exception):
    def __init__(self, inst: Instruction) -> None:
        super().__init__()
        self.inst = inst


def _targets(inst: Instruction, written_args: dict[Function, frozenset[int]]) -> list[Value]:
    """The pointers ``inst`` may write through."""
    if isinstance(inst, StoreInst):
        return [inst.pointer]
    if inst.opcode in ("atomicrmw", "cmpxchg"):
        return [inst.operand(0)]
    if inst.opcode in ("va_arg", "callbr", "invoke"):
        raise _Unknown(inst)
    if not isinstance(inst, CallInst):
        return []
    name = inst.callee_name or ""
    callee = inst.called_function
    if name.startswith(_HARMLESS) or not any(isinstance(a.type, PointerType) for a in inst.args):
        if callee is None and not name:
            raise _Unknown(inst)  # an indirect call
        if callee is None or callee.is_declaration:
            return []  # takes no pointer: computes its result (or has hidden state no snapshot can hold)
    if lookup(name) is not None and not any(isinstance(a.type, PointerType) for a in inst.args):
        return []
    mf = lookup_memory(name)
    if mf is not None:
        if mf.kind is MemoryKind.REALLOC:
            raise _Unknown(inst)
        if mf.kind is MemoryKind.FREE:
            return []
        if mf.out is not None:
            return [inst.args[mf.out]]
        if mf.dst is not None:
            return [inst.args[mf.dst]]
        return []
    if callee is None:
        raise _Unknown(inst)  # an indirect call
    if callee.is_declaration:
        return [a for a in inst.args if isinstance(a.type, PointerType)]  # it may write through any of them
    got = _written_args(callee, written_args)
    return [inst.args[k] for k in sorted(got)]


def _written_args(fn: Function, memo: dict[Function, frozenset[int]]) -> frozenset[int]:
    """The indices of ``fn``'s arguments it may write through; raises _Unknown where it writes elsewhere
    than into its own objects, globals and its arguments."""
    if fn in memo:
        return memo[fn]
    memo[fn] = frozenset()  # recursion: the fixed point is reached by the outer visit
    out: set[int] = set()
    for inst in fn.instructions():
        for t in _targets(inst, memo):
            objs = _objects(t)
            if objs is None:
                raise _Unknown(inst)
            for o in objs:
                if isinstance(o, Argument):
                    out.add(fn.args.index(o))
    memo[fn] = frozenset(out)
    return memo[fn]


def check_writes(step: Function, call: CallInst, head: int, regions: list[Value], site: str) -> None:
    """Refuse unless every argument ``step`` may write through is a region of the call (``call`` is the
    loop function's call; its arguments from ``head`` on are the step's after i)."""
    try:
        written = _written_args(step, {})
    except _Unknown as e:
        raise DifferentiationError(
            f"{site}: the step writes memory a snapshot cannot be told to hold ({describe(e.inst)}): "
            "checkpointing could recompute it wrongly; write the state through the step's arguments, named "
            "with enzyme_checkpoint_region, or through globals") from None
    covered = {strip_pointer_casts(r) for r in regions}
    for k in sorted(written):
        if k == 0:
            continue
        v = strip_pointer_casts(call.args[head + k - 1])
        if v not in covered:
            raise DifferentiationError(
                f"{site}: the step writes through its argument {k + 1}, which no enzyme_checkpoint_region "
                "names: snapshots would not hold it; add enzyme_checkpoint_region, ptr, bytes for it")
    read: dict[Value, int] = {}
    unknown: list[str] = []
    for k, a in enumerate(step.args[1:], start=1):
        given = call.args[head + k - 1]
        if isinstance(a.type, PointerType) and k not in written and strip_pointer_casts(given) not in covered:
            objs = _objects(given)
            if objs is None:
                unknown.append(f"the object of the step's argument {k + 1} ({describe(given) if isinstance(given, Instruction) else ref(given)})")
            for o in objs or ():
                read.setdefault(o, k)
    if read:
        _check_kept_after(call, read, site, unknown, set())
    if unknown:
        warnings.warn(
            f"{site}: cannot tell whether memory the checkpointed steps only read stays unchanged until the "
            f"reverse sweep ({'; '.join(unknown[:3])}): the steps run again would read new values; name such "
            "memory with enzyme_checkpoint_region, ptr, bytes", EnzymeWarning, stacklevel=2)


def _check_kept_after(call: CallInst, read: dict[Value, int], site: str, unknown: list[str],
                      visited: set[CallInst]) -> None:
    """Refuse a write, after ``call`` in its function or after the calls of that function in its callers,
    into an object the steps read (``read``: object -> the step's argument index); list in ``unknown`` the
    writes whose target cannot be told."""
    if call in visited:
        return
    visited.add(call)
    fn = call.function
    assert fn is not None
    block = call.parent
    assert block is not None
    insts = block.instructions
    after: list[Instruction] = list(insts[insts.index(call) + 1:])
    seen = {block}
    work = list(block.successors)
    while work:
        b = work.pop()
        if b in seen:
            continue
        seen.add(b)
        after += b.instructions
        work += b.successors
    memo: dict[Function, frozenset[int]] = {}
    for inst in after:
        try:
            targets = _targets(inst, memo)
        except _Unknown as e:
            unknown.append(describe(e.inst))
            continue
        for t in targets:
            objs = _objects(t)
            if objs is None:
                unknown.append(describe(inst))
            for o in objs or ():
                if o in read:
                    raise DifferentiationError(
                        f"{site}: {describe(inst)} writes, after the loop, memory the step reads through its "
                        f"argument {read[o] + 1}: the steps run again in the reverse sweep would read the new "
                        "values; name it with enzyme_checkpoint_region, ptr, bytes (or write it elsewhere)")
    for use in fn.uses:
        caller = use.user
        if not isinstance(caller, CallInst) or caller.called_function is not fn:
            continue
        outer: dict[Value, int] = {}
        for o, k in read.items():
            if isinstance(o, Argument):
                objs = _objects(caller.args[fn.args.index(o)])
                if objs is None:
                    unknown.append(f"the object passed as argument {fn.args.index(o) + 1} by {describe(caller)}")
                for x in objs or ():
                    outer.setdefault(x, k)
            elif isinstance(o, GlobalVariable):
                outer.setdefault(o, k)
        if outer:
            _check_kept_after(caller, outer, site, unknown, visited)
