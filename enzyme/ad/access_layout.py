"""The layout of a stack object every write of which is known: Rust moves of records.

Rust moves values constantly: a ``Mat {rows, cols, data: Vec<f64>}`` built by a constructor into a stack slot
(``sret``) is then moved into a field of a bigger struct with a 40-byte ``llvm.memcpy``.  Type analysis often
only has ``Anything`` for such bytes (contexts merged, the slot reused through casts), so the copy's float
layout is unknown.  But when the source is a stack object whose every use is known -- loads and stores at
constant offsets, lifetime markers, copies out of it, and calls that pass it to a defined function which
itself only does that with it (a constructor filling an ``sret`` slot) -- the bytes it can hold are exactly
what those stores put there.  Every store is typed; when all stores to a byte agree on one scalar type
(an integer, a pointer, a float), and no load reads the byte with another type, the byte holds that type;
a byte no store writes was never initialised and holds no data.  An integer store counts as integer data only
when the stored value is made as an integer (integer_origin: constants, integer arithmetic, loads of bytes
that are integers by this same rule or that the program uses as an index or a factor, directly or through
another load of the same field of an argument's records, arguments every call passes such a value), never
float bits moved through an integer.  Type analysis's own verdict on a stored value is not enough (the
conflict being resolved flows back into it from the copy's destination); a load from a caller's memory counts
as an integer when some calling context types it so and none as a float.  Anything
else -- a store of the object's address, a copy into it, an unknown callee, a vector or aggregate store --
leaves the copy to the other rules (and so refused).  The layout found is still checked against every
type-analysis fact about both pointers (copy_types.checked_leaves).
"""
from __future__ import annotations

from ..analysis import DataLayout, FunctionTypeInfo
from ..analysis.type_offsets import gep_offset
from ..analysis.type_tree import ANYTHING, INTEGER, POINTER, ConcreteType, float_type
from ..ir import AllocaInst, Argument, CallInst, CastInst, ConstantInt, Function, GEPInst, Instruction, Value
from ..ir import LoadInst, StoreInst
from ..ir.instructions import BinaryOperator, CmpInst, ExtractElementInst, ExtractValueInst, PhiInst, SelectInst
from ..ir.values import ConstantKeyword
from ..ir.types import FloatType, IntType, PointerType, Type, VectorType
from .copy_sites import InfosOf
from .copy_types import CopyLayout, checked_leaves

#: How deep calls that receive the object are followed, and how far an integer's origin is traced.
MAX_DEPTH = 3
MAX_ORIGIN = 24

_IGNORED_CALLS = ("llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.experimental.noalias")
_COPIES = ("llvm.memcpy", "llvm.memmove")
_INTEGER_INTRINSICS = ("llvm.umax", "llvm.umin", "llvm.smax", "llvm.smin", "llvm.ctpop", "llvm.ctlz", "llvm.cttz",
                       "llvm.uadd.", "llvm.usub.", "llvm.umul.", "llvm.sadd.", "llvm.ssub.", "llvm.smul.")
_FACTOR_OPS = ("mul", "udiv", "sdiv", "urem", "srem")

Accesses = list[tuple[int, Type, bool, Instruction]]  # offset, scalar type, is a write, the load or store


class _Unknown(Exception):
    """A use of the object this module does not follow."""


def _base(p: Value, layout: DataLayout) -> tuple[Value, int] | None:
    """The stack object (or parameter) ``p`` points into, and the constant offset."""
    off = 0
    while True:
        if isinstance(p, CastInst) and p.opcode in ("bitcast", "addrspacecast"):
            p = p.operand(0)
        elif isinstance(p, GEPInst) and all(isinstance(i, ConstantInt) for i in p.indices):
            step, _ = gep_offset(layout, p.source_type, list(p.indices))
            off += step
            p = p.operand(0)
        else:
            break
    return (p, off) if isinstance(p, (AllocaInst, Argument)) else None


def _scalar(t: Type) -> bool:
    return isinstance(t, (IntType, FloatType, PointerType))


def _collect(p: Value, off: int, layout: DataLayout, depth: int, out: Accesses, seen: set[tuple[int, int]],
             params: dict[int, int] | None = None) -> None:
    """Every access to ``p`` (``off`` bytes into the object) into ``out``; raises _Unknown at another use.
    ``params``: the callee parameters reached (id -> offset), for loads through them."""
    if (id(p), off) in seen:
        return
    seen.add((id(p), off))
    if params is not None and isinstance(p, Argument):
        if params.setdefault(id(p), off) != off:
            raise _Unknown
    for u in p.users:
        if isinstance(u, GEPInst) and u.operand(0) is p and all(isinstance(i, ConstantInt) for i in u.indices):
            step, _ = gep_offset(layout, u.source_type, list(u.indices))
            _collect(u, off + step, layout, depth, out, seen, params)
        elif isinstance(u, CastInst) and u.opcode in ("bitcast", "addrspacecast"):
            _collect(u, off, layout, depth, out, seen, params)
        elif isinstance(u, LoadInst):
            if isinstance(u.type, VectorType) and not u.type.scalable and _scalar(u.type.element):
                # SLP vectorization reads neighbouring fields at once
                step = layout.store_size(u.type.element)
                out.extend((off + k * step, u.type.element, False, u) for k in range(u.type.count))
            elif not _scalar(u.type):
                raise _Unknown
            else:
                out.append((off, u.type, False, u))
        elif isinstance(u, StoreInst):
            t = u.operand(0).type
            if u.operand(1) is not p or u.operand(0) is p:
                raise _Unknown  # the address itself escapes
            if isinstance(t, VectorType) and not t.scalable and _scalar(t.element):
                step = layout.store_size(t.element)
                out.extend((off + k * step, t.element, True, u) for k in range(t.count))
            elif not _scalar(t):
                raise _Unknown  # an aggregate store
            else:
                out.append((off, t, True, u))
        elif isinstance(u, CallInst):
            _call_use(u, p, off, layout, depth, out, seen, params)
        elif not isinstance(u, CmpInst):
            raise _Unknown


def _call_use(u: CallInst, p: Value, off: int, layout: DataLayout, depth: int, out: Accesses,
              seen: set[tuple[int, int]], params: dict[int, int] | None) -> None:
    callee = u.callee
    name = (callee.name or "") if isinstance(callee, Function) else ""
    if name.startswith(_IGNORED_CALLS):
        return
    if name.startswith(_COPIES):
        if u.args[0] is p or u.args[1] is not p:
            raise _Unknown  # a copy into the object: its bytes come from elsewhere
        return
    if not isinstance(callee, Function) or callee.is_declaration or depth >= MAX_DEPTH or u.callee is p:
        raise _Unknown
    positions = [k for k, a in enumerate(u.args) if a is p]
    if not positions or len(callee.args) <= max(positions):
        raise _Unknown
    for k in positions:
        _collect(callee.args[k], off, layout, depth + 1, out, seen, params)


class _Objects:
    """Known-write layouts of stack objects (byte -> type), computed once each; None: not every use known."""

    def __init__(self, layout: DataLayout, infos_of: InfosOf) -> None:
        self.layout = layout
        self.infos_of = infos_of
        self.done: dict[int, dict[int, ConcreteType] | None] = {}
        self.params: dict[int, tuple[int, int]] = {}  # a parameter reached -> (object id, its offset there)
        self.in_progress: set[int] = set()
        #: Loads taken as integers while their object's layout was being found: (object id, offset, size);
        #: checked against the finished layouts (a byte that only ever receives such values is an integer).
        self.assumed: list[tuple[int, int, int]] = []
    def bytes_of(self, obj: AllocaInst, budget: int) -> dict[int, ConcreteType] | None:
        key = id(obj)
        if key in self.done:
            return self.done[key]
        self.done[key] = None
        accesses: Accesses = []
        params: dict[int, int] = {}
        try:
            _collect(obj, 0, self.layout, 0, accesses, set(), params)
        except _Unknown:
            return None
        for pid, off in params.items():
            self.params[pid] = (key, off)
        self.in_progress.add(key)
        found = self._agree(accesses, budget)
        self.in_progress.discard(key)
        self.done[key] = found
        return found

    def confirmed(self) -> bool:
        """Do the finished layouts hold every assumption made while they were being found?"""
        for key, off, size in self.assumed:
            known = self.done.get(key)
            if known is None or any(known.get(k, INTEGER) != INTEGER for k in range(off, off + size)):
                return False
        return True

    def _agree(self, accesses: Accesses, budget: int) -> dict[int, ConcreteType] | None:
        byte_type: dict[int, ConcreteType] = {}
        for off, t, write, inst in accesses:
            if not write:
                continue
            if isinstance(t, IntType) and not self.integer_origin(inst.operand(0), budget, set()):
                return None
            if not _mark(byte_type, off, t, self.layout):
                return None  # two stores of different types (or sizes) at one byte
        for off, t, write, _ in accesses:  # loads must read what the stores wrote
            if not write and not _reads_as(byte_type, off, t, self.layout):
                return None
        return byte_type

    def integer_origin(self, v: Value, budget: int, seen: set[int]) -> bool:
        """Is the integer ``v`` made as an integer (never float bits moved through an integer)?"""
        if id(v) in seen:
            return True  # a cycle through phis: the other incoming values decide
        seen.add(id(v))
        if isinstance(v, ConstantInt) or (isinstance(v, ConstantKeyword) and v.keyword in ("undef", "poison")):
            return True
        if isinstance(v, CmpInst) or (isinstance(v, CastInst) and v.opcode in ("ptrtoint", "fptoui", "fptosi")):
            return True
        if budget <= 0:
            return False
        b = budget - 1
        if isinstance(v, CastInst):
            return v.opcode in ("zext", "sext", "trunc") and self.integer_origin(v.operand(0), b, seen)
        if isinstance(v, (BinaryOperator, PhiInst, SelectInst)):
            ops = [x for x, _ in v.incoming] if isinstance(v, PhiInst) else list(v.operands)
            if isinstance(v, SelectInst):
                ops = ops[1:]
            return all(self.integer_origin(x, b, seen) for x in ops)
        if isinstance(v, (ExtractValueInst, ExtractElementInst)):
            return self.integer_origin(v.operand(0), b, seen)
        if isinstance(v, CallInst):
            name = (v.callee.name or "") if isinstance(v.callee, Function) else ""
            return name.startswith(_INTEGER_INTRINSICS) and all(
                self.integer_origin(x, b, seen) for x in v.args if isinstance(x.type, IntType))
        if isinstance(v, LoadInst):
            return self._integer_load(v, b)
        if isinstance(v, Argument):
            return self._integer_argument(v, b, seen)
        return False

    def _integer_load(self, v: LoadInst, budget: int) -> bool:
        if any(_used_as_integer(u, v) for u in v.users) or _sibling_used_as_integer(v, self.layout):
            return True  # an index or a factor: the program takes these bits as a number
        found = _base(v.operand(0), self.layout)
        if found is None or budget <= 0 or (isinstance(found[0], Argument) and id(found[0]) not in self.params):
            return self._typed_integer(v)
        obj, off = found
        size = self.layout.store_size(v.type)
        if isinstance(obj, Argument):
            key, at = self.params[id(obj)]
            off += at
            if key in self.in_progress:
                self.assumed.append((key, off, size))
                return True
            known = self.done.get(key)
            return known is not None and all(known.get(k) == INTEGER for k in range(off, off + size))
        if id(obj) in self.in_progress:
            self.assumed.append((id(obj), off, size))
            return True
        assert isinstance(obj, AllocaInst)
        known = self.bytes_of(obj, budget)
        if known is None:
            return False
        return all(known.get(k) == INTEGER for k in range(off, off + size))

    def _typed_integer(self, v: LoadInst) -> bool:
        """A load from memory other than such objects (a caller's data): an integer in some calling context of
        type analysis and a float in none (a context merged into ``Anything`` by the copy's own conflict)."""
        fn = v.function
        if not isinstance(fn, Function):
            return False
        tops = [info.top(v) for info in self.infos_of(fn)]
        return any(t is not None and t.is_integer for t in tops) and \
            not any(t is not None and t.is_float for t in tops)

    def _integer_argument(self, a: Argument, budget: int, seen: set[int]) -> bool:
        fn = a.function
        if not isinstance(fn, Function) or fn.is_declaration or not fn.users:
            return False
        k = fn.args.index(a)
        for u in fn.users:
            if not isinstance(u, CallInst) or u.callee is not fn or len(u.args) <= k \
                    or not self.integer_origin(u.args[k], budget, seen):
                return False
        return True


def _used_as_integer(u: Value, v: Value, depth: int = 3) -> bool:
    """Is ``u`` a use of the integer ``v`` as a number: an index, a factor, or ``shl nuw`` by a constant (a
    count times an element size), directly or through phis and width changes?"""
    if depth > 0 and (isinstance(u, PhiInst) or (isinstance(u, CastInst) and u.opcode in ("zext", "sext"))):
        return any(_used_as_integer(w, u, depth - 1) for w in u.users)
    if isinstance(u, GEPInst):
        return any(i is v for i in u.indices)
    if isinstance(u, BinaryOperator) and u.opcode == "shl":
        return u.operand(0) is v and "nuw" in u.flags and isinstance(u.operand(1), ConstantInt)
    return isinstance(u, BinaryOperator) and u.opcode in _FACTOR_OPS


def _field_of(p: Value, layout: DataLayout) -> tuple[Value, int] | None:
    """``p`` as a constant offset from a root that is an argument, or a loop's phi over an argument and steps
    from the phi itself (an iterator walking an array of records): (the argument, the offset)."""
    found = _base(p, layout)
    root: Value | None = None
    if found is None:
        off = 0
        q = p
        if isinstance(q, GEPInst) and all(isinstance(i, ConstantInt) for i in q.indices):
            off, _ = gep_offset(layout, q.source_type, list(q.indices))
            q = q.operand(0)
        if isinstance(q, PhiInst):
            starts = [x for x, _ in q.incoming if not (isinstance(x, GEPInst) and x.operand(0) is q)]
            if len(starts) == 1 and isinstance(starts[0], Argument):
                root = starts[0]
        return (root, off) if root is not None else None
    return found if isinstance(found[0], Argument) else None


def _sibling_used_as_integer(v: LoadInst, layout: DataLayout) -> bool:
    """Does another load of the same field of the same argument's records (the same offset, the same type,
    directly or through the loop walking them) serve as a number?  The field of each record then holds an
    integer (a slice's length read once up front and again for each row)."""
    mine = _field_of(v.operand(0), layout)
    fn = v.function
    if mine is None or not isinstance(fn, Function):
        return False
    for block in fn.blocks:
        for inst in block.instructions:
            if isinstance(inst, LoadInst) and inst is not v and inst.type == v.type \
                    and _field_of(inst.operand(0), layout) == mine \
                    and any(_used_as_integer(u, inst) for u in inst.users):
                return True
    return False


def _kind(t: Type) -> ConcreteType:
    if isinstance(t, IntType):
        return INTEGER
    if isinstance(t, PointerType):
        return POINTER
    return float_type(t.kind)  # type: ignore[attr-defined]


def _mark(byte_type: dict[int, ConcreteType], off: int, t: Type, layout: DataLayout) -> bool:
    kind = _kind(t)
    for k in range(off, off + layout.store_size(t)):
        here = kind if kind == INTEGER or k == off else ANYTHING
        if byte_type.setdefault(k, here) != here:
            return False
    return True


def _reads_as(byte_type: dict[int, ConcreteType], off: int, t: Type, layout: DataLayout) -> bool:
    kind = _kind(t)
    for k in range(off, off + layout.store_size(t)):
        have = byte_type.get(k)
        if have is not None and have != (kind if kind == INTEGER or k == off else ANYTHING):
            return False
    return True


def accessed_object_layout(infos: list[FunctionTypeInfo], dst: Value, src: Value, nbytes: int,
                           layout: DataLayout, infos_of: InfosOf,
                           primal_functions: set[Function] | None = None) -> CopyLayout | None:
    """The layout of a constant-size copy out of a stack object every use of which is a typed access at a
    constant offset (see the module's docstring), or out of a parameter every call (in ``primal_functions``,
    the program's own functions, not generated derivatives) passes such an object; None when an object has
    another use or its accesses disagree."""
    found = _base(src, layout)
    if found is None:
        return None
    obj, start = found
    objects = _Objects(layout, infos_of)
    if isinstance(obj, AllocaInst):
        sites = [(obj, start)]
    else:  # a parameter: the objects every call passes (a Rust value moved into a callee by reference)
        fn = obj.function if isinstance(obj, Argument) else None
        if not isinstance(fn, Function) or not fn.users:
            return None
        k = fn.args.index(obj)  # type: ignore[arg-type]
        sites = []
        for u in fn.users:
            if primal_functions is not None and isinstance(u, CallInst) and u.function not in primal_functions:
                continue  # a call in a derivative built from the program
            if not isinstance(u, CallInst) or u.callee is not fn or len(u.args) <= k:
                return None
            passed = _base(u.args[k], layout)
            if passed is None or not isinstance(passed[0], AllocaInst):
                return None
            sites.append((passed[0], passed[1] + start))
    found_layout: tuple[dict[int, ConcreteType], frozenset[int]] | None = None
    for site, at in sites:
        byte_type = objects.bytes_of(site, MAX_ORIGIN)
        if byte_type is None or byte_type.get(at) == ANYTHING or byte_type.get(at + nbytes) == ANYTHING:
            return None  # unknown, or the copy starts or ends inside a pointer or a float
        facts = {k - at: t for k, t in byte_type.items() if at <= k < at + nbytes and t != ANYTHING}
        padding = frozenset(k for k in range(nbytes) if k + at not in byte_type)
        if not facts or (found_layout is not None and found_layout != (facts, padding)):
            return None
        found_layout = (facts, padding)
    if found_layout is None or not objects.confirmed():
        return None
    facts, padding = found_layout
    return checked_leaves(infos, dst, src, nbytes, layout, facts, padding)


def loaded_integer(v: LoadInst, layout: DataLayout, infos_of: InfosOf) -> bool:
    """Is the integer ``v`` loads integer data, never float bits (see integer_origin): read from a stack
    object whose every write stores an integer made as one, or taken as a number by the program?"""
    objects = _Objects(layout, infos_of)
    return objects.integer_origin(v, MAX_ORIGIN, set()) and objects.confirmed()
