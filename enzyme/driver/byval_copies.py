"""Arguments passed ``byval`` to a callee that writes into them: the caller's copy made explicit.

A ``byval`` pointer argument stands for a copy of the pointee that the callee owns (C passes a struct too big
for registers that way: ``mat2 mat_add(mat2 a, mat2 b)`` at -O0).  The callee may write into its copy
(``a.m[i][j] += ...``) and the caller's object is unchanged.  The engine follows pointers, not ABI attributes:
it would take the callee's writes for writes into the caller's object and into its shadow, and the caller
would read the changed values afterwards (wrong derivatives, issue 11).  So before any analysis, each such
call gets the copy the ABI implies written out: an ``alloca`` of the byval type in the caller's entry block,
``llvm.memcpy`` from the original before the call, and the copy passed instead.  The derivative of that
``memcpy`` moves the adjoints of the callee's copy back to the caller's object.  A callee that only reads the
argument is left alone.
"""
from __future__ import annotations

import re

from ..analysis.layout import DataLayout
from ..ir import (CallInst, CastInst, Function, GEPInst, Instruction, LoadInst, Module, PhiInst, SelectInst,
                  StoreInst, Value)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I1, I64, PTR, VOID, FunctionType, Type

_BYVAL = re.compile(r'byval\(%("[^"]+"|[-\w.$]+)\)')
_ALIGN = re.compile(r"\balign (\d+)")
#: Calls that never write through their pointer operands (lifetime markers, debug intrinsics).
_HARMLESS = ("llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.prefetch", "llvm.invariant.")


def copy_written_byval_arguments(module: Module) -> int:
    """Give every call passing a ``byval`` argument its callee writes into an explicit copy; returns how many."""
    written: dict[tuple[Function, int], bool] = {}
    count = 0
    for fn in module.functions:
        if fn.is_declaration:
            continue
        for inst in list(fn.instructions()):
            if not isinstance(inst, CallInst):
                continue
            callee = inst.called_function
            if callee is None or callee.is_declaration:
                continue
            for i, attrs in enumerate(inst.arg_attrs):
                if "byval(" not in attrs or i >= len(callee.args):
                    continue
                key = (callee, i)
                if key not in written:
                    written[key] = _writes_through(callee.args[i])
                if written[key] and _copy_argument(module, inst, i, attrs):
                    count += 1
    return count


def _writes_through(arg: Value) -> bool:
    """Whether the callee may write through ``arg`` (or let it escape); conservative."""
    seen: set[int] = set()
    work = [arg]
    while work:
        v = work.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        for use in v.uses:
            user = use.user
            if isinstance(user, LoadInst):
                continue
            if isinstance(user, StoreInst):  # a store into the copy, or the pointer itself escaping
                return True
            if isinstance(user, (GEPInst, CastInst, PhiInst, SelectInst)):
                if isinstance(user, CastInst) and user.opcode == "ptrtoint":
                    return True
                work.append(user)
                continue
            if isinstance(user, CallInst):
                name = user.callee_name or ""
                if name.startswith(_HARMLESS):
                    continue
                if name.startswith(("llvm.memcpy", "llvm.memmove")) and use.index == 1 and user.operand(0) is not v:
                    continue  # only read as the source
                attrs = user.arg_attrs[use.index].split() if use.index < user.n_args else []
                if any(a.startswith("byval(") or a in ("readonly", "readnone") for a in attrs):
                    continue  # passed on by value (the callee gets a copy) or only read
                return True
            if isinstance(user, Instruction) and user.opcode == "icmp":
                continue
            return True
    return False


def _copy_argument(module: Module, call: CallInst, i: int, attrs: str) -> bool:
    m = _BYVAL.search(attrs)
    t: Type | None = module.struct_types.get(m.group(1).strip('"')) if m else None
    if t is None:  # a literal type: not emitted by the C and C++ front ends for aggregates
        return False
    size = DataLayout.of_module(module).alloc_size(t)
    align = int(a.group(1)) if (a := _ALIGN.search(attrs)) else None
    fn = call.function
    assert fn is not None
    entry = fn.blocks[0]
    copy = Builder(InsertPoint.at_start(entry)).alloca(t, name="byval.copy", align=align)
    memcpy = module.declare_function("llvm.memcpy.p0.p0.i64", FunctionType(VOID, (PTR, PTR, I64, I1)))
    Builder(InsertPoint.before_inst(call)).call(memcpy, [copy, call.args[i], const_int(I64, size), const_int(I1, 0)])
    call.set_operand(i, copy)
    return True
