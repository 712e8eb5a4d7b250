"""Pointers made by ``__enzyme_todense`` (and ``__enzyme_post_sparse_todense``): sparse Jacobians.

``double *p = __enzyme_todense(load_fn, store_fn, extra...)`` stands for an array that exists only through
two functions: reading ``T`` at byte offset ``k`` of ``p`` is ``load_fn(k, extra...)``, writing ``v`` there is
``store_fn(v, k, extra...)``.  Passed as the shadow of a gradient, a forward derivative of that gradient
calls the user's ``store_fn`` with each Hessian entry instead of writing a dense matrix.

The calls stay opaque while derivatives are made (the engine sees an ordinary pointer); afterwards every
load and store through such a pointer, through GEPs (the offset accumulates), phis, selects and calls (the
callee is cloned with the offset and the extra arguments as parameters), becomes a call of ``load_fn`` or
``store_fn``.  Anything else done with the pointer is refused.

A pointer that is both read and written is accepted only in the accumulation form a derivative writes,
``p[k] = p[k] + delta``: each read feeds, through single-use ``fadd``/``fsub``, exactly one write at the
same offset.  Then a ``load_fn`` that returns 0 (upstream's idiom: each write reports one contribution)
and one that returns the stored value both mean what they say; other forms depend on how many reads and
writes the optimizer left, and are refused (docs/decisions.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..analysis.debuginfo import describe
from ..ir.debugloc import source_location
from ..analysis.layout import DataLayout
from ..errors import DifferentiationError
from ..ir import (ArrayType, BinaryOperator, CallInst, CastInst, CmpInst, DebugRecord, ConstantInt, ConstantKeyword, Function,
                  GEPInst, I64, Instruction, IntType, InvokeInst, LoadInst, Module, PhiInst, SelectInst,
                  StoreInst, StructType, Type, Value, VectorType, strip_pointer_casts)
from ..ir.builder import Builder, InsertPoint
from ..ir.function_copy import copy_function

_NAMES = ("__enzyme_todense", "__enzyme_post_sparse_todense")
_DROPPED = ("llvm.lifetime.", "llvm.prefetch", "llvm.invariant.")


def is_todense(name: str) -> bool:
    """Whether a callee name (C or Itanium-mangled C++) is one of the todense entry points."""
    return any(n in name for n in _NAMES)


@dataclass
class _Root:
    """One ``__enzyme_todense`` call: its functions, and the reads and writes it became."""
    site: str  # where the call was, for messages (it is replaced)
    load_fn: Function
    store_fn: Function
    loads: list[tuple[CallInst, Value]] = field(default_factory=list)
    stores: list[tuple[CallInst, Value]] = field(default_factory=list)


@dataclass(frozen=True)
class _Dense:
    """A todense pointer as seen in one function: its root and the extra arguments there."""
    root: _Root
    extras: tuple[Value, ...]


def lower_todense(module: Module) -> int:
    """Replace every todense pointer's memory accesses by calls; returns the number of todense calls."""
    calls = [i for f in module.functions for i in f.instructions()
             if isinstance(i, CallInst) and is_todense(i.callee_name or "")]
    if not calls:
        return 0
    lowering = _Lowering(module)
    for call in calls:
        lowering.lower_call(call)
    for root in lowering.roots:
        _check_accumulation(root)
    return len(calls)


class _Lowering:
    def __init__(self, module: Module) -> None:
        self.module = module
        self.layout = DataLayout.of_module(module)
        self.roots: list[_Root] = []
        self.clones: dict[tuple[int, int, int], Function] = {}
        self.plain: dict[int, Function] = {}
        self.compared: dict[CmpInst, dict[int, Value]] = {}  # pointer comparisons -> offsets of the sides seen

    def lower_call(self, call: CallInst) -> None:
        loc = source_location(call)
        site = f"in @{call.function.name if call.function else '?'}" + (f" at {loc}" if loc else "")
        args = call.args
        fns = [strip_pointer_casts(a) for a in args[:2]]
        if len(args) < 2 or not all(isinstance(f, Function) and not f.is_declaration for f in fns):
            raise DifferentiationError(f"__enzyme_todense {site}: the first two arguments of __enzyme_todense must be the load and "
                                       "store functions, defined in the program")
        root = _Root(site, fns[0], fns[1])  # type: ignore[arg-type]
        self.roots.append(root)
        self.lower(call, ConstantInt(I64, 0), _Dense(root, tuple(args[2:])))
        if isinstance(call, InvokeInst):  # C++ without noexcept: it cannot throw, go on to the normal successor
            block = call.parent
            assert block is not None
            for phi in call.unwind_dest.phis():
                phi.remove_incoming(block)
            Builder(InsertPoint.before_inst(call)).br(call.normal_dest)
        call.erase()

    # -- one pointer value --------------------------------------------------------------------------------
    def lower(self, ptr: Value, offset: Value, dense: _Dense) -> None:
        """Rewrite every use of ``ptr`` (a todense pointer ``offset`` bytes past its start)."""
        pending: dict[Instruction, Instruction] = {}  # phi/select of pointers -> its offset twin
        outer, self.compared = self.compared, {}  # this function's pointer comparisons (a clone has its own)
        work: list[tuple[Value, Value]] = [(ptr, offset)]
        offsets: dict[Value, Value] = {ptr: offset}
        while work:
            p, off = work.pop()
            while p.uses:
                use = p.uses[0]
                user = use.user
                if isinstance(user, DebugRecord):  # a variable's location: the pointer no longer exists
                    user.drop_value(use.index)
                    continue
                assert isinstance(user, Instruction)
                nxt = self._rewrite(user, p, off, dense, offsets, pending)
                if nxt is not None:
                    offsets[user] = nxt
                    work.append((user, nxt))
        for orig, twin in pending.items():
            _finish_merge(orig, twin, offsets)
        compared, self.compared = self.compared, outer
        for cmp in compared:
            raise DifferentiationError(
                f"{describe(cmp)}: compares a pointer made by __enzyme_todense {dense.root.site} with another "
                "pointer; only comparisons of two pointers into the same todense array are supported")
        for orig in pending:
            if orig.parent is not None and not orig.has_uses:
                orig.erase()

    def _rewrite(self, user: Instruction, p: Value, off: Value, dense: _Dense, offsets: dict[Value, Value],
                 pending: dict[Instruction, Instruction]) -> Value | None:
        """Rewrite one user of ``p``; returns the offset of ``user`` when it is itself a todense pointer."""
        b = Builder(InsertPoint.before_inst(user))
        if isinstance(user, GEPInst) and user.pointer is p and not isinstance(user.type, VectorType):
            new = self._gep_offset(b, user, off)
            user.set_operand(0, ConstantKeyword(p.type, "poison"))
            return new
        if isinstance(user, LoadInst) and user.pointer is p:
            self._load(b, user, off, dense)
            return None
        if isinstance(user, StoreInst) and user.pointer is p and user.value is not p:
            self._store(b, user, off, dense)
            return None
        if isinstance(user, (PhiInst, SelectInst)) and user.type == p.type:
            twin = pending.get(user)
            fresh = twin is None
            if twin is None:
                twin = self._merge_twin(user)
                pending[user] = twin
            for use in list(user.operand_uses):
                if use.value is p and not (isinstance(user, SelectInst) and use.index == 0):
                    user.set_operand(use.index, ConstantKeyword(p.type, "poison"))
                    _set_twin_operand(twin, use.index, off)
            return twin if fresh else None
        if isinstance(user, CmpInst) and user.opcode == "icmp" and not isinstance(user.type, VectorType):
            self._compare(user, p, off)
            return None
        if isinstance(user, CallInst) and user.opcode == "call":
            name = user.callee_name or ""
            if name.startswith(_DROPPED):
                user.erase()
                return None
            callee = user.called_function
            if callee is not None and not callee.is_declaration and user.callee is not p:
                self._specialize(user, p, off, dense)
                return None
        raise DifferentiationError(
            f"{describe(user)}: uses a pointer made by __enzyme_todense {dense.root.site} in a way "
            "pyenzyme cannot turn into calls of its load and store functions (only loads, stores, address "
            "arithmetic, phis, selects and calls of defined functions are supported)")

    def _compare(self, cmp: CmpInst, p: Value, off: Value) -> None:
        """Two pointers into one todense array compare as their offsets (once both sides are seen)."""
        sides = self.compared.setdefault(cmp, {})
        for use in list(cmp.operand_uses):
            if use.value is p:
                sides[use.index] = off
                cmp.set_operand(use.index, ConstantKeyword(p.type, "poison"))
        if len(sides) < 2:
            return
        del self.compared[cmp]
        twin = Builder(InsertPoint.before_inst(cmp)).icmp(cmp.predicate, sides[0], sides[1])
        cmp.replace_all_uses_with(twin)
        cmp.erase()

    def _gep_offset(self, b: Builder, gep: GEPInst, off: Value) -> Value:
        t: Type = gep.source_type
        total = off
        for n, idx in enumerate(gep.indices):
            if n > 0 and isinstance(t, StructType):
                assert isinstance(idx, ConstantInt)
                field_off, t = self.layout.element_offset(t, idx.value)
                total = _add(b, total, ConstantInt(I64, field_off))
                continue
            if n > 0:
                if not isinstance(t, (ArrayType, VectorType)):
                    raise DifferentiationError(f"{describe(gep)}: unexpected index into {t}")
                t = t.element
            step = self.layout.alloc_size(t)
            total = _add(b, total, _scaled(b, idx, step))
        return total

    def _call(self, b: Builder, fn: Function, args: list[Value], inst: Instruction, what: str) -> CallInst:
        params = fn.function_type.params
        if len(params) != len(args) or fn.function_type.vararg:
            raise DifferentiationError(
                f"{describe(inst)}: the {what} function @{fn.name} of a pointer made by __enzyme_todense takes "
                f"{len(params)} arguments, but {len(args)} are passed to it (the value, the byte offset and the "
                "extra arguments of __enzyme_todense)")
        args = list(args)
        for k, (a, t) in enumerate(zip(args, params)):
            if a.type == t:
                continue
            if isinstance(a.type, IntType) and isinstance(t, IntType) and isinstance(a, ConstantInt):
                args[k] = ConstantInt(t, a.value)
                continue
            if k == (0 if what == "load" else 1) and isinstance(t, IntType) and t.bits <= 64:
                args[k] = b.cast("trunc", a, t) if t.bits < 64 else a
                continue
            raise DifferentiationError(
                f"{describe(inst)}: argument {k + 1} of the {what} function @{fn.name} has type {t}, but "
                f"__enzyme_todense passes a {a.type}; declare them alike")
        caller = b.function
        if "!dbg " in caller.suffix:
            call = b.call(fn, args)
            call.metadata = [(k, v) for k, v in inst.metadata if k == "dbg"]
        else:  # a function without debug info (a derivative, a clone) calls a copy without it too
            call = b.call(self._without_debug_info(fn), args)
        return call

    def _without_debug_info(self, fn: Function) -> Function:
        """``fn`` itself when it has no debug info, else a copy without it: inlined into a function without
        a subprogram, its locations would name the wrong one once that is inlined further."""
        if "!dbg " not in fn.suffix:
            return fn
        copy = self.plain.get(id(fn))
        if copy is None:
            copy = copy_function(self.module, fn, f"{fn.name}.nodebug")
            self.plain[id(fn)] = copy
            for inst in list(copy.instructions()):  # and so on down: a call in it may be inlined as well
                if not isinstance(inst, CallInst):
                    continue
                callee = inst.called_function
                if callee is not None and not callee.is_declaration and "!dbg " in callee.suffix:
                    inst.set_operand(inst._callee_index(), self._without_debug_info(callee))
        return copy

    def _load(self, b: Builder, load: LoadInst, off: Value, dense: _Dense) -> None:
        fn = dense.root.load_fn
        t = load.type
        element = t.element if isinstance(t, VectorType) else t
        if fn.return_type != element:
            raise DifferentiationError(
                f"{describe(load)}: reads a {t} through a pointer made by __enzyme_todense, whose load function "
                f"@{fn.name} returns {fn.return_type}")
        if isinstance(t, VectorType):
            value: Value = ConstantKeyword(t, "poison")
            size = self.layout.alloc_size(element)
            for k in range(t.count):
                at = _add(b, off, ConstantInt(I64, k * size))
                call = self._call(b, fn, [at, *dense.extras], load, "load")
                dense.root.loads.append((call, at))
                value = b.insertelement(value, call, k)
        else:
            scalar = self._call(b, fn, [off, *dense.extras], load, "load")
            dense.root.loads.append((scalar, off))
            value = scalar
        load.replace_all_uses_with(value)
        load.erase()

    def _store(self, b: Builder, store: StoreInst, off: Value, dense: _Dense) -> None:
        fn = dense.root.store_fn
        v = store.value
        if isinstance(v.type, VectorType) or not fn.function_type.params or fn.function_type.params[0] != v.type:
            raise DifferentiationError(
                f"{describe(store)}: writes a {v.type} through a pointer made by __enzyme_todense, whose store "
                f"function @{fn.name} takes a {fn.function_type.params[0] if fn.function_type.params else 'nothing'}")
        call = self._call(b, fn, [v, off, *dense.extras], store, "store")
        dense.root.stores.append((call, off))
        store.erase()

    def _merge_twin(self, user: Instruction) -> Instruction:
        b = Builder(InsertPoint.before_inst(user))
        if isinstance(user, PhiInst):
            twin = b.phi(I64)
            for _, blk in user.incoming:
                twin.add_incoming(ConstantKeyword(I64, "poison"), blk)
            return twin
        assert isinstance(user, SelectInst)
        poison = ConstantKeyword(I64, "poison")
        return b.select(user.operand(0), poison, poison)  # type: ignore[return-value]

    def _specialize(self, call: CallInst, p: Value, off: Value, dense: _Dense) -> None:
        """Call a clone of the callee that takes the offset and extra arguments instead of the pointer."""
        callee = call.called_function
        assert callee is not None
        k = next((i for i, a in enumerate(call.args) if a is p), None)
        if k is None:
            raise DifferentiationError(f"{describe(call)}: a pointer made by __enzyme_todense is an operand bundle "
                                       "input; not supported")
        key = (id(callee), k, id(dense.root))
        clone = self.clones.get(key)
        if clone is None:
            clone = self._clone(callee, k, dense)
            self.clones[key] = clone
        args = call.args
        args[k] = ConstantKeyword(p.type, "poison")
        b = Builder(InsertPoint.before_inst(call))
        new = b.call(clone, [*args, off, *dense.extras])
        new.metadata = list(call.metadata)
        new.name = call.name
        call.replace_all_uses_with(new)
        call.erase()

    def _clone(self, callee: Function, k: int, dense: _Dense) -> Function:
        ft = callee.function_type
        if ft.vararg:
            raise DifferentiationError(f"@{callee.name}: a pointer made by __enzyme_todense is passed to a "
                                       "variadic function")
        params = (*ft.params, I64, *(e.type for e in dense.extras))
        clone = copy_function(self.module, callee, f"{callee.name}.todense", params)
        n = len(ft.params)
        inner = _Dense(dense.root, tuple(clone.args[n + 1:]))
        self.clones[(id(callee), k, id(dense.root))] = clone  # recursion reaches the same clone
        self.lower(clone.args[k], clone.args[n], inner)
        return clone


def _add(b: Builder, a: Value, c: Value) -> Value:
    if isinstance(c, ConstantInt) and c.value == 0:
        return a
    if isinstance(a, ConstantInt) and isinstance(c, ConstantInt):
        return ConstantInt(I64, a.value + c.value)
    return b.add(a, c)


def _scaled(b: Builder, idx: Value, step: int) -> Value:
    if isinstance(idx, ConstantInt):
        return ConstantInt(I64, idx.value * step)
    t = idx.type
    assert isinstance(t, IntType)
    if t.bits < 64:
        idx = b.cast("sext", idx, I64)
    elif t.bits > 64:
        idx = b.cast("trunc", idx, I64)
    return idx if step == 1 else b.mul(idx, ConstantInt(I64, step))


def _set_twin_operand(twin: Instruction, index: int, off: Value) -> None:
    twin.set_operand(index, off)


def _finish_merge(orig: Instruction, twin: Instruction, offsets: dict[Value, Value]) -> None:
    """Every pointer a phi/select merges must be from the same todense call, else refuse."""
    for use in orig.operand_uses:
        if isinstance(orig, SelectInst) and use.index == 0:
            continue
        v = use.value
        if isinstance(v, ConstantKeyword) and v.text() == "poison":
            continue
        if v.type != orig.type:
            continue
        raise DifferentiationError(
            f"{describe(orig)}: merges a pointer made by __enzyme_todense with another pointer; pyenzyme cannot "
            "tell which accesses go through the todense functions")


# -- the accumulation form ------------------------------------------------------------------------------------
def _check_accumulation(root: _Root) -> None:
    """A pointer both read and written must be updated as ``p[k] = p[k] + delta`` (see the module docstring)."""
    if not root.loads or not root.stores:
        return
    store_offset = {id(call): off for call, off in root.stores}
    claimed: set[int] = set()
    for load, off in root.loads:
        cur: Value = load
        if not load.has_uses:
            continue  # read for nothing: no write depends on it
        while True:
            users = cur.uses
            user = users[0].user if len(users) == 1 else None
            if isinstance(user, CallInst) and id(user) in store_offset and users[0].index == 0:
                if not _same(store_offset[id(user)], off) or id(user) in claimed:
                    user = None
                else:
                    claimed.add(id(user))
                    break
            if isinstance(user, BinaryOperator) and (
                    user.opcode == "fadd" or (user.opcode == "fsub" and users[0].index == 0)):
                cur = user
                continue
            raise DifferentiationError(
                f"{describe(load)}: a pointer made by __enzyme_todense {root.site} is both read and "
                "written, but this read does not only feed one update `p[k] = p[k] + delta` of the same element; "
                "pyenzyme refuses rather than depend on how many reads and writes optimization left")
    for call, _ in root.stores:
        if id(call) not in claimed:
            raise DifferentiationError(
                f"{describe(call)}: a pointer made by __enzyme_todense {root.site} is both read and "
                "written, but this write is not an update `p[k] = p[k] + delta` of the element it writes; "
                "pyenzyme refuses rather than depend on how many reads and writes optimization left")


def _same(a: Value, b: Value, depth: int = 0) -> bool:
    """Whether two offsets are the same computation (identical, equal constants, or alike instructions)."""
    if a is b:
        return True
    if isinstance(a, ConstantInt) and isinstance(b, ConstantInt):
        return a.value == b.value
    if depth > 8 or not isinstance(a, (BinaryOperator, CastInst)) or type(a) is not type(b):
        return False
    assert isinstance(b, Instruction)
    return (a.opcode == b.opcode and a.type == b.type and len(a.operands) == len(b.operands)
            and all(_same(x, y, depth + 1) for x, y in zip(a.operands, b.operands)))
