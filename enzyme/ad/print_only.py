"""Variadic logging helpers (``static void logmsg(const char *fmt, ...)`` around ``vfprintf``): inactive calls.

Programs log from inside the code they differentiate through their own
printf-style function: ``va_start``, ``vfprintf``/``vsnprintf``, ``va_end``.
Its arguments are often active doubles, but such a function can only print:
it writes nothing but its own stack (the ``va_list``, a line buffer),
integer globals (a line counter) and a global ``FILE *`` it opens, calls only functions that never carry
derivatives (the printf family, ``fputs``, ``fflush``) or others like itself,
and returns nothing or an integer.  A call to it has no derivative, so it is
classified inactive (``call_kinds.py``) instead of being differentiated,
which would meet ``va_start`` (variadic arguments are not differentiated).

A variadic function that does anything else -- reads its ``...`` doubles
into a result, stores into memory it was given -- still goes the usual way.
"""
from __future__ import annotations

from ..ir import (
    AllocaInst,
    AtomicRMWInst,
    CallInst,
    CastInst,
    CmpXchgInst,
    FenceInst,
    Function,
    GEPInst,
    GlobalVariable,
    Instruction,
    IntType,
    InvokeInst,
    StoreInst,
    Value,
)
from ..ir.types import VOID, PointerType
from .common import is_inactive_function

#: Intrinsics a logging helper uses on its own stack objects.
_STACK_INTRINSICS = ("llvm.va_start", "llvm.va_end", "llvm.va_copy", "llvm.lifetime.", "llvm.dbg.",
                     "llvm.memcpy", "llvm.memset", "llvm.memmove")


def is_print_only_variadic(fn: Function | None) -> bool:
    """Is ``fn`` a variadic function with a body whose calls can only print (see the module docstring)?"""
    if fn is None or fn.is_declaration or not fn.function_type.vararg:
        return False
    return _prints_only(fn, set())


def _prints_only(fn: Function, visiting: set[Function]) -> bool:
    if fn in visiting:
        return False  # recursion: not worth proving
    ret = fn.return_type
    if not (ret == VOID or isinstance(ret, IntType)):
        return False
    visiting.add(fn)
    try:
        return all(_harmless(inst, fn, visiting) for inst in fn.instructions())
    finally:
        visiting.discard(fn)


def _own_stack(p: Value, fn: Function) -> bool:
    while isinstance(p, (GEPInst, CastInst)):
        p = p.operand(0)
    return isinstance(p, AllocaInst) and p.function is fn


def _harmless(inst: Instruction, fn: Function, visiting: set[Function]) -> bool:
    if isinstance(inst, (AtomicRMWInst, CmpXchgInst, FenceInst, InvokeInst)):
        return False
    if isinstance(inst, StoreInst):
        if _own_stack(inst.pointer, fn):
            return True
        target, value = inst.pointer, inst.value
        if not isinstance(target, GlobalVariable):
            return False
        # a call counter: an integer stored straight into an integer global
        if isinstance(target.value_type, IntType) and isinstance(value.type, IntType):
            return True
        # a log file opened on first use: `static FILE *log_file; if (!log_file) log_file = fopen(...)`
        return isinstance(value, CallInst) and value.callee_name is not None and \
            is_inactive_function(value.callee_name) and isinstance(target.value_type, PointerType)
    if not isinstance(inst, CallInst):
        return True  # arithmetic, loads, branches, va_arg: nothing outside the frame changes
    name = inst.callee_name
    if name is None:
        return False  # through a function pointer: unknown
    if name.startswith(_STACK_INTRINSICS):
        if name.startswith(("llvm.memcpy", "llvm.memset", "llvm.memmove")):
            return _own_stack(inst.args[0], fn)
        return True
    if is_inactive_function(name):
        return True
    callee = inst.called_function
    return callee is not None and not callee.is_declaration and _prints_only(callee, visiting)
