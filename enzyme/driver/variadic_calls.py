"""Variadic arguments passed through memory the IR shows (x86-64 System V), before the pre-AD pipeline.

A variadic callee reads its ``...`` arguments through a ``va_list`` that ``llvm.va_start`` fills: on x86-64
System V a record ``{i32 gp_offset, i32 fp_offset, ptr overflow_arg_area, ptr reg_save_area}`` pointing at the
registers the prologue spilled and at the caller's stack.  Neither the spill nor the stack arguments appear in
the IR, so the values the callee reads with ``va_arg`` have no visible origin and cannot be differentiated.

Before the pre-AD pipeline each defined variadic function that calls ``llvm.va_start`` is split in two:

- its body moves to ``@<name>.valist``, which takes the fixed parameters and a pointer to a ``va_list``;
  there ``va_start(ap)`` copies that record into ``ap``, ``va_copy`` copies one record into another and
  ``va_end`` does nothing (it does nothing on this target either);
- each direct call in the module passes its variadic arguments in a buffer of its own (a stack ``alloca``, one
  8-byte slot per argument, 16-byte ones aligned to 16: the layout of arguments passed on the stack) and a
  ``va_list`` whose register offsets say every register is used (``gp_offset`` 48, ``fp_offset`` 176) and
  whose overflow area is the buffer, so every ``va_arg`` -- the callee's own lowering, or ``vfprintf``'s --
  reads from the buffer, as the ABI says;
- the function itself, when something else may still call it (it is visible outside the module, its address
  is taken, a call passes an argument type not handled here), becomes ``va_start`` + a call of the body.

The variadic values then flow through stores and loads of ordinary memory, which the engine differentiates
like any other.  Other targets' ``va_list`` layouts are left alone (the engine refuses ``va_start``).
"""
from __future__ import annotations

import re

from ..ad.print_only import is_print_only_variadic
from ..ir import CallInst, Function, Instruction, InvokeInst, Module, Value
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I8, I32, PTR, ArrayType, FloatType, FunctionType, IntType, PointerType, Type

#: ``gp_offset`` / ``fp_offset`` values meaning every argument register has been read (System V AMD64 ABI).
_GP_USED, _FP_USED = 48, 176
_VA_LIST_SIZE = 24
_COMDAT = re.compile(r"\s*\bcomdat(\(\$[^)]*\))?")
_DBG = re.compile(r"\s*!dbg !\d+")


def expand_variadic_functions(module: Module) -> int:
    """Split the variadic functions that call ``llvm.va_start`` and rewrite their direct calls (see the module
    docstring); returns how many calls were rewritten."""
    if not _system_v_x86_64(module.triple or ""):
        return 0
    count = 0
    for fn in list(module.functions):
        if fn.is_declaration or not fn.function_type.vararg or is_print_only_variadic(fn):
            continue  # (a printf-style logger stays as it is: an inactive call, enzyme.ad.print_only)
        starts = [i for i in fn.instructions() if isinstance(i, CallInst) and _intrinsic(i, "llvm.va_start")]
        if not starts or any(isinstance(i, CallInst) and i.tail_kind == "musttail" for i in fn.instructions()):
            continue
        calls = [c for c in _direct_calls(fn) if _slots(c, len(fn.args)) is not None]
        if not calls:
            continue
        va_start = starts[0].called_function
        body = _move_body(module, fn)
        for call in calls:
            _pass_in_memory(call, body, len(fn.args))
            count += 1
        internal = fn.prefix.split()[:1] in (["internal"], ["private"])
        if internal and not fn.has_uses:
            del module.globals[fn.name or ""]
            module.entities.remove(fn)
            fn.module = None
        else:
            _make_wrapper(module, fn, body, va_start)
    return count


def _system_v_x86_64(triple: str) -> bool:
    return triple.startswith("x86_64") and not any(k in triple for k in ("windows", "win32", "msvc", "mingw",
                                                                          "cygwin", "uefi"))


def _intrinsic(inst: CallInst, name: str) -> bool:
    callee = inst.callee_name or ""
    return callee == name or callee.startswith(name + ".")


def _direct_calls(fn: Function) -> list[CallInst]:
    out = []
    for use in fn.uses:
        user = use.user
        if (isinstance(user, CallInst) and use.index == user._callee_index() and not user.bundles
                and user.function_type == fn.function_type and user.tail_kind != "musttail"
                and user.function is not None):
            out.append(user)
    return out


def _slots(call: CallInst, fixed: int) -> list[int] | None:
    """The buffer offset of each variadic argument of ``call`` (None: a type not handled here)."""
    offsets, at = [], 0
    for v in call.args[fixed:]:
        size = _slot_size(v.type)
        if size is None:
            return None
        at = (at + size - 1) // size * size if size == 16 else at
        offsets.append(at)
        at += size
    return offsets


def _slot_size(t: Type) -> int | None:
    """Bytes an argument of type ``t`` takes among the stack arguments (8 or 16: its alignment too)."""
    if isinstance(t, IntType) and t.bits <= 64 or isinstance(t, PointerType) and t == PTR:
        return 8
    if isinstance(t, FloatType) and t.kind == "double":
        return 8
    if isinstance(t, FloatType) and t.kind == "x86_fp80":
        return 16
    return None  # float (never passed unpromoted by C), vectors, i128, aggregates: left to the refusal


def _move_body(module: Module, fn: Function) -> Function:
    """``@<fn>.valist``: ``fn``'s body, its fixed parameters and a ``va_list`` pointer; ``fn`` is left empty."""
    ft = fn.function_type
    body = Function(module.unique_name(f"{fn.name}.valist"), FunctionType(ft.ret, (*ft.params, PTR)),
                    arg_names=[a.name for a in fn.args] + ["va.list"],
                    arg_attrs=[a.attrs for a in fn.args] + ["noundef"], prefix="internal",
                    suffix=_COMDAT.sub("", fn.suffix))
    module.add(body)
    for blk in fn.blocks:
        blk.parent = body
    body.blocks, fn.blocks = fn.blocks, []
    for old, new in zip(fn.args, body.args):
        old.replace_all_uses_with(new)
    fn.suffix = _DBG.sub("", fn.suffix)  # the subprogram goes with the body
    given = body.args[-1]
    for inst in list(body.instructions()):
        if not isinstance(inst, CallInst):
            continue
        if _intrinsic(inst, "llvm.va_start"):
            _copy_va_list(inst, given, inst.args[0])
        elif _intrinsic(inst, "llvm.va_copy"):
            _copy_va_list(inst, inst.args[1], inst.args[0])
        elif _intrinsic(inst, "llvm.va_end"):
            inst.erase()
    return body


def _copy_va_list(at: Instruction, source: Value, dest: Value) -> None:
    """The record at ``source`` copied field by field into ``dest`` before ``at``, which is erased."""
    b = Builder(InsertPoint.before_inst(at))
    for offset, t in ((0, I32), (4, I32), (8, PTR), (16, PTR)):
        src = b.gep(I8, source, [offset]) if offset else source
        dst = b.gep(I8, dest, [offset]) if offset else dest
        b.store(b.load(t, src, align=4 if t == I32 else 8), dst, align=4 if t == I32 else 8)
    at.erase()


def _pass_in_memory(call: CallInst, body: Function, fixed: int) -> None:
    """``call`` of the variadic function replaced by a call of ``body`` with the variadic arguments in memory."""
    caller = call.function
    assert caller is not None
    offsets = _slots(call, fixed)
    assert offsets is not None
    args = call.args
    size = max(8, max((o + (_slot_size(v.type) or 8) for o, v in zip(offsets, args[fixed:])), default=8))
    entry = Builder(InsertPoint.at_start(caller.blocks[0]))
    buffer = entry.alloca(ArrayType(size, I8), name="va.args", align=16)
    va_list = entry.alloca(ArrayType(_VA_LIST_SIZE, I8), name="va.list", align=16)
    b = Builder(InsertPoint.before_inst(call))
    for offset, v in zip(offsets, args[fixed:]):
        b.store(v, b.gep(I8, buffer, [offset]) if offset else buffer, align=8)
    b.store(const_int(I32, _GP_USED), va_list, align=4)
    b.store(const_int(I32, _FP_USED), b.gep(I8, va_list, [4]), align=4)
    b.store(buffer, b.gep(I8, va_list, [8]), align=8)
    b.store(buffer, b.gep(I8, va_list, [16]), align=8)  # never read: every register counts as used
    attrs = [*call.arg_attrs[:fixed], "noundef"]
    new: CallInst
    if isinstance(call, InvokeInst):
        new = InvokeInst(body.function_type, body, [*args[:fixed], va_list], call.normal_dest, call.unwind_dest,
                         arg_attrs=attrs, fn_attrs=call.fn_attrs)
    else:
        new = CallInst(body.function_type, body, [*args[:fixed], va_list], arg_attrs=attrs, fn_attrs=call.fn_attrs)
    b.insert(new, call.name if not body.return_type.is_void else None)
    new.metadata = [(k, v) for k, v in call.metadata if k == "dbg"]
    call.replace_all_uses_with(new)
    call.erase()


def _make_wrapper(module: Module, fn: Function, body: Function, va_start: Function | None) -> None:
    """``fn``'s body: ``va_start``, a call of ``body`` with its parameters and that list, ``va_end``."""
    assert va_start is not None and va_start.name is not None
    va_end = module.declare_function(va_start.name.replace("va_start", "va_end"), va_start.function_type,
                                     suffix=va_start.suffix)
    b = Builder(fn.append_block("entry"))
    va_list = b.alloca(ArrayType(_VA_LIST_SIZE, I8), name="va.list", align=16)
    b.call(va_start, [va_list])
    result = b.call(body, [*fn.args, va_list], name="result")
    b.call(va_end, [va_list])
    b.ret(None if body.return_type.is_void else result)

