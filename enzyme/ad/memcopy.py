"""Reverse mode of memcpy/memmove: move the destination's adjoints back into the source.

The adjoint of ``dst[i] = src[i]`` (elements of a floating-point type T) is
``dsrc[i] += ddst[i]; ddst[i] = 0``.  Which type the copied bytes hold is
not in the call, so it is inferred from how the function accesses the same
memory objects; if that is not one floating-point type the copy is refused.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..analysis.layout import DataLayout
from ..ir import CallInst, CastInst, Function, GEPInst, LoadInst, Module, StoreInst, Type, Value
from ..ir.splice import add_helper_functions
from ..ir.types import I8, I64, FloatType, PointerType
from ..rules import MemoryFunction, Returns

if TYPE_CHECKING:
    from ..ir.builder import Builder

_HELPER = """
define internal void @{name}(ptr %dd, ptr %ds, i64 %nbytes) alwaysinline {{
entry:
  %n = udiv i64 %nbytes, {size}
  %any = icmp ne i64 %n, 0
  {prologue}
  br i1 %any, label %loop, label %done
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pa = getelementptr inbounds {t}, ptr {read}, i64 %i
  %pd = getelementptr inbounds {t}, ptr %dd, i64 %i
  %ps = getelementptr inbounds {t}, ptr %ds, i64 %i
  %a = load {t}, ptr %pa
  {zero}
  %s = load {t}, ptr %ps
  %sum = fadd {t} %s, %a
  store {t} %sum, ptr %ps
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  {epilogue}
  ret void
}}
"""


def copy_adjoint_function(module: Module, t: Type, overlapping: bool) -> Function:
    """``void(ptr ddst, ptr dsrc, i64 nbytes)`` adding ddst into dsrc element-wise and zeroing ddst."""
    name = f"__pyenzyme_{'move' if overlapping else 'copy'}_adjoint_{t}"
    f = module.get_function(name)
    if f is not None:
        return f
    size = DataLayout.of_module(module).alloc_size(t)
    if overlapping:
        # Source and destination may overlap: take the destination's adjoints out first.
        prologue = ("%tmp = call ptr @malloc(i64 %nbytes)\n"
                    "  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %dd, i64 %nbytes, i1 false)\n"
                    "  call void @llvm.memset.p0.i64(ptr %dd, i8 0, i64 %nbytes, i1 false)")
        text = _HELPER.format(name=name, size=size, t=t, read="%tmp", zero="", prologue=prologue,
                              epilogue="call void @free(ptr %tmp)")
    else:
        text = _HELPER.format(name=name, size=size, t=t, read="%dd", zero=f"store {t} zeroinitializer, ptr %pd",
                              prologue="", epilogue="")
    decls = ("declare ptr @malloc(i64)\ndeclare void @free(ptr)\n"
             "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n"
             "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)\n")
    add_helper_functions(module, decls + text)
    helper = module.get_function(name)
    assert helper is not None
    return helper


def underlying_object(p: Value) -> Value:
    while isinstance(p, (GEPInst, CastInst)):
        p = p.operand(0)
    return p


def copied_element_type(fn: Function, pointers: list[Value]) -> FloatType | None:
    """The one floating-point type the function loads or stores through the objects of ``pointers``.

    None when the objects are accessed with no type, several types, or a
    non-floating-point type (then the copy cannot be reversed safely).
    """
    bases = {underlying_object(p) for p in pointers}
    seen: set[Type] = set()
    for inst in fn.instructions():
        if isinstance(inst, LoadInst):
            ptr, t = inst.pointer, inst.type
        elif isinstance(inst, StoreInst):
            ptr, t = inst.pointer, inst.value.type
        else:
            continue
        if underlying_object(ptr) in bases:
            seen.add(t)
    if len(seen) == 1:
        (t,) = seen
        if isinstance(t, FloatType):
            return t
    return None


def record_returned_shadow(shadow: dict[Value, Value], b: Builder, mf: MemoryFunction, inst: CallInst,
                           primal: CallInst) -> None:
    """The shadow of what a libc memory function returns, from its destination's shadow.

    ``memcpy``/``memset`` return ``dst``, ``mempcpy`` returns ``dst + n``: a caller that keeps writing
    through the result (packing arrays one after another) writes through its shadow.  ``primal`` is the
    call as the sweep being built runs it (its size operand is available there).
    """
    if mf.dst is None or not isinstance(inst.type, PointerType) or inst.args[mf.dst] not in shadow:
        return
    if mf.returns is Returns.DST:
        shadow[inst] = shadow[inst.args[mf.dst]]
    elif mf.returns is Returns.DST_END:
        assert mf.size is not None
        n = primal.args[mf.size]
        if n.type != I64:
            n = b.cast("zext", n, I64)
        shadow[inst] = b.gep(I8, shadow[inst.args[mf.dst]], [n])
