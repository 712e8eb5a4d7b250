"""Reverse mode of memcpy/memmove: move the destination's adjoints back into the source.

The adjoint of ``dst[i] = src[i]`` (elements of a floating-point type T) is
``dsrc[i] += ddst[i]; ddst[i] = 0``.  Which type the copied bytes hold is
not in the call, so it is inferred from how the function accesses the same
memory objects; if that is not one floating-point type the copy is refused.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from typing import TYPE_CHECKING

from ..analysis.layout import DataLayout
from ..analysis.tbaa import access_base
from ..ir import (AllocaInst, Block, CallInst, CastInst, ConstantInt, Function, GEPInst, Instruction, LoadInst, Module, PhiInst,
                  StoreInst, Type, Value)
from ..ir.splice import add_helper_functions
from ..ir.types import I8, I64, ArrayType, FloatType, IntType, NamedStructType, PointerType, StructType, VectorType
from ..rules import MemoryFunction, Returns
from .device import atomic_helper_text

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
    add_helper_functions(module, decls + atomic_helper_text(module, text))
    helper = module.get_function(name)
    assert helper is not None
    return helper


def _record_loop(label: str, next_label: str, stride: int, body: list[str]) -> str:
    """A loop over the ``%n`` records of ``stride`` bytes, ``%r.<label>`` the offset of the current one."""
    lines = [f"{label}:", f"  %i.{label} = phi i64 [ 0, %{label}.pre ], [ %i.{label}.next, %{label} ]",
             f"  %r.{label} = mul i64 %i.{label}, {stride}", *("  " + line for line in body),
             f"  %i.{label}.next = add nuw i64 %i.{label}, 1",
             f"  %more.{label} = icmp ult i64 %i.{label}.next, %n",
             f"  br i1 %more.{label}, label %{label}, label %{next_label}"]
    return "\n".join(lines) + "\n"


def record_adjoint_function(module: Module, leaves: tuple[tuple[int, FloatType], ...], stride: int,
                            overlapping: bool) -> Function:
    """``void(ptr ddst, ptr dsrc, i64 nbytes)``: for each record of ``stride`` bytes, the float ``leaves`` of
    ddst are added into dsrc and zeroed (padding, integers and pointers are left alone).

    Overlapping copies (memmove) take the destination's adjoints out first and zero them all before adding
    any, so an adjoint added into a record that is also a later destination record survives."""
    key = "_".join(f"{o}{t}" for o, t in leaves)
    name = f"__pyenzyme_{'move' if overlapping else 'copy'}_records_{stride}_{key}"
    f = module.get_function(name)
    if f is not None:
        return f

    def at(base: str, k: int, off: int, loop: str) -> list[str]:
        return [f"%o.{loop}.{k} = add i64 %r.{loop}, {off}",
                f"%p.{loop}.{base[1:]}.{k} = getelementptr inbounds i8, ptr {base}, i64 %o.{loop}.{k}"]

    def move(loop: str, read: str, zero: bool, add: bool) -> list[str]:
        body: list[str] = []
        for k, (off, t) in enumerate(leaves):
            body += at(read, k, off, loop)
            if read != "%dd" and zero:
                body += at("%dd", k, off, loop)
            body.append(f"%a.{loop}.{k} = load {t}, ptr %p.{loop}.{read[1:]}.{k}, align 1")
            if zero:
                body.append(f"store {t} zeroinitializer, ptr %p.{loop}.dd.{k}, align 1")
            if add:
                body += [f"%ps.{loop}.{k} = getelementptr inbounds i8, ptr %ds, i64 %o.{loop}.{k}",
                         f"%s.{loop}.{k} = load {t}, ptr %ps.{loop}.{k}, align 1",
                         f"%sum.{loop}.{k} = fadd {t} %s.{loop}.{k}, %a.{loop}.{k}",
                         f"store {t} %sum.{loop}.{k}, ptr %ps.{loop}.{k}, align 1"]
        return body

    head = (f"define internal void @{name}(ptr %dd, ptr %ds, i64 %nbytes) alwaysinline {{\n"
            f"entry:\n  %n = udiv i64 %nbytes, {stride}\n  %any = icmp ne i64 %n, 0\n")
    if overlapping:
        text = (head + "  %tmp = call ptr @malloc(i64 %nbytes)\n"
                "  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %dd, i64 %nbytes, i1 false)\n"
                "  br i1 %any, label %zero.pre, label %done\nzero.pre:\n  br label %zero\n"
                + _record_loop("zero", "add.pre", stride, move("zero", "%dd", True, False))
                + "add.pre:\n  br label %add\n"
                + _record_loop("add", "done", stride, move("add", "%tmp", False, True))
                + "done:\n  call void @free(ptr %tmp)\n  ret void\n}\n")
    else:
        text = (head + "  br i1 %any, label %move.pre, label %done\nmove.pre:\n  br label %move\n"
                + _record_loop("move", "done", stride, move("move", "%dd", True, True))
                + "done:\n  ret void\n}\n")
    decls = ("declare ptr @malloc(i64)\ndeclare void @free(ptr)\n"
             "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n")
    add_helper_functions(module, decls + atomic_helper_text(module, text))
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
    for inst, ptr, t in _accesses(fn):
        if underlying_object(ptr) in bases:
            seen.add(t)
    if len(seen) == 1:
        (t,) = seen
        if isinstance(t, FloatType):
            return t
    return None


def declared_without_floats(p: Value, nbytes: int | None, layout: DataLayout) -> bool:
    """Is ``p`` the start of a stack object declared as a struct of pointers and integers only (two fields or
    more, at least one pointer, no byte array, no union), ``nbytes`` long at most?  A copy of it moves no
    floats, only pointers whose shadows move along (flang's array descriptors, built field by field and
    copied whole).  A byte array or a union may hold anything, so neither counts."""
    while isinstance(p, CastInst) and p.opcode in ("bitcast", "addrspacecast"):
        p = p.operand(0)
    if not isinstance(p, AllocaInst) or p.operands or nbytes is None:
        return False
    t = p.allocated_type
    if not isinstance(t, StructType) or (isinstance(t, NamedStructType) and t.name.startswith("union.")):
        return False
    leaves: list[Type] = []

    def flatten(u: Type) -> bool:
        if isinstance(u, StructType):
            return all(flatten(e) for e in u.elements)
        if isinstance(u, ArrayType):
            return u.element != I8 and flatten(u.element)
        if isinstance(u, (IntType, PointerType)):
            leaves.append(u)
            return True
        return False  # floats, vectors, anything else

    return flatten(t) and len(leaves) >= 2 and any(isinstance(u, PointerType) for u in leaves) \
        and nbytes <= layout.alloc_size(t)


#: TBAA base type names of libstdc++'s strings: ``basic_string<CharT>`` and its ``_Alloc_hider``, whose first
#: field ``_M_p`` points to the characters (char, wchar_t, char8_t, char16_t or char32_t).
_STRING_TBAA = re.compile(r"^_ZTSNSt7__cxx1112basic_stringI(?:c|w|Du|Ds|Di)St11char_traitsI")


def string_characters(p: Value, depth: int = 4) -> bool:
    """Is ``p`` a std::string's data pointer -- stored into or loaded from its ``_M_p`` field (by the access's
    ``!tbaa`` tag), or a phi of such pointers (the local buffer or the one ``_M_create`` allocated)?  It points
    to characters only: a copy to or from it (the inlined move of a short string into a
    ``std::map<std::string, double>`` node) moves no floats."""
    if isinstance(p, PhiInst):
        return depth > 0 and all(string_characters(v, depth - 1) for v, _ in p.incoming)
    uses: list[Instruction] = [p] if isinstance(p, LoadInst) else [
        u.user for u in p.uses if isinstance(u.user, StoreInst) and u.user.operand(0) is p]
    for access in uses:
        if (base := access_base(access)) is not None:
            if base[1] == 0 and _STRING_TBAA.match(base[0]):
                return True
    return False


def stored_as_non_float(fn: Function, pointers: list[Value], nbytes: int | None, element: FloatType,
                        copy: Instruction) -> bool:
    """Does ``fn`` itself load or store a pointer, or an integer of another width than ``element`` (one of the
    same width may be a bit copy of it), in the first ``nbytes`` bytes (all, if None) of one of ``pointers``,
    directly or at a constant byte offset (``getelementptr i8, p, 8``), on a path through ``copy`` (before or
    after it)?  A copy of such bytes is no array of ``element``, whatever type analysis merged for them (a
    Fortran descriptor built field by field, then copied, whose base points to a derived type holding doubles).
    Accesses on other paths only are another use of the storage (``std::function``'s manager stores a pointer
    in one case of its switch and copies an in-place closure in another)."""
    bits = element.bits
    related: set[Block] | None = None  # computed at the first access that would count

    def offset_in(p: Value) -> int | None:
        while isinstance(p, CastInst) and p.opcode in ("bitcast", "addrspacecast"):
            p = p.operand(0)
        if p in pointers:
            return 0
        if isinstance(p, GEPInst) and p.source_type == I8 and len(p.indices) == 1 \
                and isinstance(p.indices[0], ConstantInt):
            inner = offset_in(p.operand(0))
            return None if inner is None else inner + p.indices[0].value
        return None

    for inst, ptr, t in _accesses(fn):
        if isinstance(t, VectorType):
            t = t.element
        if isinstance(t, FloatType) or (isinstance(t, IntType) and t.bits == bits):
            continue
        off = offset_in(ptr)
        if off is not None and 0 <= off and (nbytes is None or off < nbytes):
            if related is None:
                related = _blocks_through(fn, copy)
            if inst.parent in related:
                return True
    return False


def _accesses(fn: Function) -> Iterator[tuple[Instruction, Value, Type]]:
    """Each load and store of ``fn`` with its pointer and the type it reads or writes."""
    for inst in fn.instructions():
        if isinstance(inst, LoadInst):
            yield inst, inst.pointer, inst.type
        elif isinstance(inst, StoreInst):
            yield inst, inst.pointer, inst.value.type


def _blocks_through(fn: Function, inst: Instruction) -> set[Block]:
    """The blocks of ``fn`` from which ``inst``'s block can be reached or that it reaches."""
    start = inst.parent
    assert start is not None
    preds: dict[Block, list[Block]] = {}
    for b in fn.blocks:
        for s in b.successors:
            preds.setdefault(s, []).append(b)
    out: set[Block] = {start}
    for step in (lambda b: b.successors, lambda b: preds.get(b, [])):
        seen = {start}
        work = [start]
        while work:
            for n in step(work.pop()):
                if n not in seen:
                    seen.add(n)
                    work.append(n)
        out |= seen
    return out


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
