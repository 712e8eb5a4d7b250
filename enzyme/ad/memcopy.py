"""Reverse mode of memcpy/memmove: move the destination's adjoints back into the source.

The adjoint of ``dst[i] = src[i]`` (elements of a floating-point type T) is
``dsrc[i] += ddst[i]; ddst[i] = 0``.  Which type the copied bytes hold is
not in the call, so it is inferred from how the function accesses the same
memory objects; if that is not one floating-point type the copy is refused.
"""
from __future__ import annotations

from ..analysis.layout import DataLayout
from ..ir import CastInst, Function, GEPInst, LoadInst, Module, StoreInst, Type, Value
from ..ir.splice import add_helper_functions
from ..ir.types import FloatType

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

