"""Pointers to code: a function pointer needs no shadow.

Indirect calls find their derivative through the primal pointer (``indirect.py``), so storing a function pointer
into memory with a shadow loses nothing when the shadow gets null (``common.unshadowed_pointer_store_error``).  A
function constant is recognised there; this module recognises the parameters that always receive one, such as
``std::valarray::apply``'s ``double (*)(double)`` handed down through the constructors of libstdc++'s expression
objects (``_ValFunClos``, ``_FunBase``).

A std::string's data pointer (loaded or stored with the ``_M_p`` field's TBAA tag) points to characters: a null
shadow loses nothing (a key longer than 15 characters, allocated by libstdc++ in a function without a body here).

A pointer into read-only memory that holds neither floats nor pointers (a ``static const`` table of integers, a
string literal) is its own shadow (:func:`own_shadow`): forward mode mirrors the integers it reads through a
shadow, and the primal bytes are the right mirror; nothing writes there, so the shadow is never written either.
A null shadow instead would be followed (``std::tuple<const int&>`` of a key from such a table, handed by
``unordered_map::operator[]`` to the pair it constructs, loads the key through the tuple's shadow).  The C++ ABI's
tables (vtables, VTTs, type_info objects and names: ``_ZTV``, ``_ZTT``, ``_ZTI``, ``_ZTS``) are read-only as well,
and hold only code pointers, offsets and pointers to other such tables, so a pointer into one, or one loaded from
a VTT, is its own shadow too (an inlined ``std::ostringstream`` constructor stores its VTT's vtable addresses into
the stream, then reads the offset-to-top through them).
"""
from __future__ import annotations

from collections.abc import Collection

from ..ir import Argument, CallInst, CastInst, ConstantExpr, Function, GEPInst, GlobalVariable, LoadInst, Value
from .aggregate_shadows import holds_pointers
from .common import ADContext, carries_float
from .copy_types import analyzed_functions, function_contexts, points_to_no_floats
from .memcopy import string_characters


def always_function(v: Value, program: Collection[Function], depth: int = 6) -> bool:
    """Is ``v`` a parameter that every call of its function in ``program`` (the primal functions; derivatives
    generated so far mirror their calls) passes a function, or such a parameter of the caller?  False where the
    function's address is taken: it may be called from anywhere."""
    if not isinstance(v, Argument) or depth == 0 or not isinstance(v.function, Function):
        return False
    f = v.function
    calls = []
    for u in f.uses:
        c = u.user
        if not isinstance(c, CallInst) or c.callee is not f:
            return False
        if c.function in program:
            calls.append(c)
    if not calls:
        return False
    for c in calls:
        a = c.args[v.index] if v.index < len(c.args) else None
        while isinstance(a, ConstantExpr) and a.operands:
            a = a.operands[0]
        if not (isinstance(a, Function) or (a is not None and always_function(a, program, depth - 1))):
            return False
    return True


def needs_no_shadow(ctx: ADContext, fn: Function, p: Value) -> bool:
    """May the pointer ``p`` (in ``fn``) take a null shadow: type analysis knows no floating-point bytes where it
    points, or it is a code pointer?"""
    return points_to_no_floats(function_contexts(ctx, fn), p) or always_function(p, analyzed_functions(ctx)) \
        or string_characters(p) or vtable_pointer(p)


def vtable_pointer(v: Value) -> bool:
    """Is ``v`` (through GEPs) an entry of a C++ VTT (``_ZTT...``: the vtable addresses a class with virtual
    bases stores into its objects while they are built and destroyed), which points at code and type info?"""
    while isinstance(v, GEPInst):
        v = v.pointer
    if not isinstance(v, LoadInst):
        return False
    table = v.pointer
    while isinstance(table, (GEPInst, ConstantExpr)) and not isinstance(table, GlobalVariable):
        if isinstance(table, GEPInst):
            table = table.pointer
        elif table.operands and table.opcode == "getelementptr":
            table = table.operands[0]
        else:
            return False
    return isinstance(table, GlobalVariable) and (table.name or "").startswith("_ZTT")


_ABI_TABLES = ("_ZTV", "_ZTT", "_ZTI", "_ZTS")


def _address_base(v: Value) -> Value:
    while True:
        if isinstance(v, (GEPInst, CastInst)) and not (isinstance(v, CastInst) and v.opcode == "inttoptr"):
            v = v.operand(0)
        elif isinstance(v, ConstantExpr) and v.operands and v.opcode in ("getelementptr", "bitcast", "addrspacecast"):
            v = v.operands[0]
        else:
            return v


def abi_table(v: Value) -> bool:
    """Is ``v`` a C++ ABI table (vtable, VTT, type_info or its name), defined here or not?"""
    return isinstance(v, GlobalVariable) and v.is_constant and (v.name or "").startswith(_ABI_TABLES)


def into_abi_table(v: Value) -> bool:
    """Does ``v`` point into a C++ ABI table, or was it loaded from one (a VTT's vtable address)?"""
    v = _address_base(v)
    return abi_table(v) or (isinstance(v, LoadInst) and abi_table(_address_base(v.pointer)))


def _read_only_global(v: Value) -> bool:
    """Does ``v`` point (through GEPs and casts) into a constant global without floats or pointers, or into a C++
    ABI table (also as loaded from one: a VTT's vtable addresses)?"""
    v = _address_base(v)
    if isinstance(v, LoadInst) and abi_table(_address_base(v.pointer)):
        return True
    return abi_table(v) or (isinstance(v, GlobalVariable) and v.is_constant and v.initializer is not None
                            and not carries_float(v.value_type) and not holds_pointers(v.value_type))


def always_read_only(v: Value, program: Collection[Function], depth: int = 8) -> bool:
    """Does ``v`` point into a constant global without floats or pointers, or is it a parameter that every call
    of its function in ``program`` passes such a pointer (or such a parameter of the caller)?  False where the
    function's address is taken."""
    if _read_only_global(v):
        return True
    if not isinstance(v, Argument) or depth == 0 or not isinstance(v.function, Function):
        return False
    calls = []
    for u in v.function.uses:
        c = u.user
        if not isinstance(c, CallInst) or c.callee is not v.function:
            return False
        if c.function in program:
            calls.append(c)
    return bool(calls) and all(v.index < len(c.args) and always_read_only(c.args[v.index], program, depth - 1)
                               for c in calls)


def own_shadow(ctx: ADContext, fn: Function, p: Value) -> bool:
    """Is the pointer ``p`` (in ``fn``, without a shadow) its own shadow: see the module doc."""
    function_contexts(ctx, fn)  # type analysis of the program, which analyzed_functions lists
    return always_read_only(p, analyzed_functions(ctx))
