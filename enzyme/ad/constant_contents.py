"""Constant globals whose contents hold no address: copying from them gives null pointers, whose null shadows
are right (flang's default initialization of derived types, character literals passed to ``character(len=*)``
dummies and copied into components).

An address of another constant global that holds no floats and no address counts as none: the only bytes a
program may reach through it are that global's, constant and without floats, so no derivative is ever read or
written through its shadow (Rust's ``hashbrown::RawTable::NEW`` points an empty map's control pointer at a static
group of EMPTY control bytes; every bucket access is guarded by those bytes, the first insertion allocates a
table of its own, and copies of control bytes keep the shadow out: ``hash_tables``)."""
from __future__ import annotations

from ..ir import Argument, CallInst, ConstantInt, Function, Value
from .common import underlying_global


def flang_type_description(g: Value) -> bool:
    """Is ``g`` flang's constant description of a derived type (``@_QMmodEXdtXname``, a record of the runtime's
    ``__fortran_type_info`` ``derivedtype`` type)?  The descriptor of an allocatable array of that type points to
    it; pyenzyme's runtime bodies read it from the primal descriptor only (``__pyenzyme_fortran_derived_type`` is
    inactive), so a shadow descriptor may hold null there."""
    from ..ir import GlobalVariable
    return isinstance(g, GlobalVariable) and g.is_constant \
        and getattr(g.value_type, "name", "").startswith("_QM__fortran_type_infoT")


def pointer_free_constant(p: Value, depth: int = 6) -> bool:
    """Does ``p`` point into a constant global whose initializer holds no address?  Copying from it gives
    null pointers, whose null shadows are right (flang initializes a derived-type local, allocatable
    components' descriptors included, by copying such a global).  Also a parameter that every call of its
    function passes such a pointer (a ``character(len=*)`` dummy given a literal, copied into a component); not
    where the function's address is taken."""
    g = underlying_global(p)
    if g is not None:
        return g.is_constant and g.initializer is not None and _holds_no_address(g.initializer)
    if not isinstance(p, Argument) or depth == 0 or not isinstance(p.function, Function):
        return False
    calls = [u.user for u in p.function.uses]
    return bool(calls) and all(isinstance(c, CallInst) and c.callee is p.function and p.index < len(c.args)
                               and pointer_free_constant(c.args[p.index], depth - 1) for c in calls)


def _holds_no_address(c: Value, depth: int = 2) -> bool:
    from ..ir import ConstantAggregate, ConstantFP, ConstantKeyword, ConstantText, GlobalVariable
    from .common import carries_float
    if isinstance(c, ConstantAggregate):
        return all(_holds_no_address(e, depth) for e in c.elements)
    if flang_type_description(c):
        return True  # runtime metadata the bodies read from the primal descriptor only (an inactive helper)
    if isinstance(c, GlobalVariable) and depth > 0:  # see the module docstring
        return c.is_constant and c.initializer is not None and not carries_float(c.value_type) \
            and _holds_no_address(c.initializer, depth - 1)
    if isinstance(c, ConstantText):
        return c.spelling.startswith('c"')  # a byte string (blockaddress and the like are addresses)
    return isinstance(c, (ConstantInt, ConstantFP, ConstantKeyword))
