"""The fixed point of type analysis over one function: one transfer rule per instruction kind.

Every rule joins facts into the trees of its operands and result (both
directions: a load types its pointer's pointee and the pointee types the
load).  When a tree grows, the instructions that define or use the value are
visited again; trees only grow and are bounded (depth and offset caps), so
this ends.
"""
from __future__ import annotations

from collections import deque
from math import gcd
from typing import TYPE_CHECKING

from ..ir import (AllocaInst, AtomicRMWInst, BinaryOperator, CallInst, CastInst, CmpInst, CmpXchgInst, Constant,
                  ConstantAggregate, ConstantExpr, ConstantFP, ConstantInt, ExtractElementInst, ExtractValueInst,
                  FreezeInst, Function, GEPInst, GlobalVariable, InsertElementInst, InsertValueInst, Instruction,
                  IntType, LoadInst, PhiInst, ReturnInst, SelectInst, ShuffleVectorInst, StoreInst, Type, Value)
from ..ir import Argument
from ..ir.types import ArrayType, FloatType, PointerType, StructType, VectorType
from . import known_functions as known
from .tbaa import access_tree
from .type_tree import INTEGER, MAX_OFFSET, POINTER, TypeTree, float_type

if TYPE_CHECKING:
    from .type_analysis import FunctionTypeInfo, TypeAnalysis


def constant_tree(v: Value, info: "FunctionTypeInfo") -> TypeTree:
    """Trees of values the solver does not track: constants and constant expressions."""
    from .type_analysis import ir_type_tree
    layout = info.layout
    if isinstance(v, GlobalVariable):
        return global_seed(v, info)
    if isinstance(v, Function):
        return TypeTree({(-1,): POINTER})
    if isinstance(v, ConstantFP):
        return ir_type_tree(v.type, layout)
    if isinstance(v, ConstantInt):
        return TypeTree({(-1,): INTEGER}) if v.type == IntType(1) else TypeTree()
    if isinstance(v, ConstantExpr):
        ops = v.operands
        if v.opcode == "getelementptr" and ops and v.source_type is not None:
            base = info.tree(ops[0])
            const, strides = gep_offset(layout, v.source_type, ops[1:])
            return gep_forward(base, const, strides)
        if v.opcode in ("bitcast", "addrspacecast", "ptrtoint", "inttoptr") and ops:
            return info.tree(ops[0])
        return TypeTree()
    if isinstance(v, ConstantAggregate) and isinstance(v.type, (StructType, ArrayType, VectorType)):
        out = TypeTree()
        for i, e in enumerate(v.elements):
            off, _ = layout.element_offset(v.type, i)
            for p, t in constant_tree(e, info):
                first = off if p[0] == -1 else off + p[0]
                out.insert((first, *p[1:]), t)
        return out
    if isinstance(v, Constant):
        return ir_type_tree(v.type, layout) if isinstance(v.type, FloatType) else TypeTree()
    return TypeTree()


def global_seed(g: GlobalVariable, info: "FunctionTypeInfo") -> TypeTree:
    """A global's tree: a pointer to memory typed by its value type (floats and pointers only)."""
    t = info.trees.get(g)
    if t is not None:
        return t
    from .type_analysis import ir_type_tree
    return ir_type_tree(g.value_type, info.layout).under(-1) if g.value_type is not None else TypeTree(
        {(-1,): POINTER})


def gep_offset(layout, source_type: Type, indices: list[Value]) -> tuple[int, list[int]]:
    """Constant byte offset of a GEP and the strides of its variable indices."""
    const, strides = 0, []
    t: Type = source_type
    for n, idx in enumerate(indices):
        if n == 0:
            step, nxt = layout.alloc_size(t), t
        elif isinstance(t, StructType):
            k = idx.value if isinstance(idx, ConstantInt) else 0
            off, nxt = layout.element_offset(t, k)
            const += off
            t = nxt
            continue
        elif isinstance(t, (ArrayType, VectorType)):
            step, nxt = layout.alloc_size(t.element), t.element
        else:
            break
        if isinstance(idx, ConstantInt):
            const += step * idx.value
        elif step:
            strides.append(step)
        t = nxt
    return const, strides


def _window(mem: TypeTree, start: int, stride: int) -> TypeTree:
    """One array element of ``mem``: offsets [start, start+stride) moved to 0, wildcards kept.

    If the element is one scalar filling the whole stride (an array of doubles,
    of pointers, of integers) it stands for every element: offset -1.
    """
    win = mem.shifted(-start, 0, stride)
    specific = {p: t for p, t in win if p[0] != -1}
    firsts = {p[0] for p in specific}
    if not specific:
        return win
    top0 = win.get((0,))
    uniform = False
    if firsts == {0} and top0 is not None and not top0.is_integer:
        uniform = _scalar_size(top0) == stride
    elif top0 is not None and top0.is_integer and firsts == set(range(stride)):
        uniform = all(t.is_integer for p, t in specific.items() if len(p) == 1)
    if not uniform:
        return win
    out = TypeTree()
    for p, t in win:
        out.insert((-1, *p[1:]), t)
    return out


def _scalar_size(t) -> int:
    if t.is_pointer:
        return 8
    if t.is_float:
        return {"half": 2, "bfloat": 2, "float": 4, "double": 8, "x86_fp80": 16, "fp128": 16,
                "ppc_fp128": 16}.get(t.float_kind or "", 0)
    return 0


def gep_forward(base: TypeTree, const: int, strides: list[int]) -> TypeTree:
    """Tree of a GEP result from its base pointer's tree."""
    mem = base.pointee()
    if strides:
        g = 0
        for s in strides:
            g = gcd(g, s)
        res = _window(mem, const, g)
    else:
        res = mem.shifted(-const)
    out = res.under(-1)
    return out


def gep_backward(result: TypeTree, const: int, strides: list[int]) -> TypeTree:
    """What a GEP result's tree says about its base pointer's tree."""
    mem = result.pointee()
    if strides:
        g = 0
        for s in strides:
            g = gcd(g, s)
        win = _window(mem, 0, g)
        back = win.shifted(const, keep_wild=(const == 0))
    else:
        back = mem.shifted(const, keep_wild=(const == 0))
    return back.under(-1)


class Solver:
    """Runs the fixed point for one :class:`FunctionTypeInfo`."""

    def __init__(self, ta: "TypeAnalysis", info: "FunctionTypeInfo", arg_trees: list[TypeTree]) -> None:
        self.ta = ta
        self.info = info
        self.layout = info.layout
        self.f = info.function
        self.arg_trees = arg_trees
        self.work: deque[Instruction] = deque()
        self.queued: set[Instruction] = set()
        self.global_users: dict[GlobalVariable, set[Instruction]] = {}
        self.current: Instruction | None = None
        self.inductions: dict[GEPInst, bool] = {}
        self.pending_calls: dict[CallInst, None] = {}

    # -- driver ------------------------------------------------------------------
    def run(self) -> None:
        from .type_analysis import ir_type_tree
        info = self.info
        for a, t in zip(self.f.args, self.arg_trees):
            if a in info.trees:
                info.trees[a].join(t)
            else:
                info.trees[a] = t.copy()
        for inst in self.f.instructions():
            if not inst.type.is_void and inst not in info.trees:
                info.trees[inst] = ir_type_tree(inst.type, self.layout)
            for op in inst.operands:
                for g in _globals_in(op):
                    if g not in info.trees:
                        info.trees[g] = global_seed(g, info)
                    self.global_users.setdefault(g, set()).add(inst)
            self._push(inst)
        while self.work or self.pending_calls:
            while self.work:
                inst = self.work.popleft()
                self.queued.discard(inst)
                self.current = inst
                self.visit(inst)
            # Calls of defined functions wait until the caller's own facts settle, so that each
            # callee is analysed with (nearly) final argument trees instead of every step on the way.
            calls, self.pending_calls = self.pending_calls, {}
            for call in calls:
                self.current = call
                callee = call.called_function
                assert callee is not None
                self._defined_call(call, callee, call.args)
        self.current = None
        from .type_analysis import TypeConflict
        seen = {(c.value, c.path) for c in info.conflicts}
        for v, t in info.trees.items():
            for c in t.hidden_conflicts():
                if (v, c.path) not in seen:
                    info.conflicts.append(TypeConflict(v, c.path, c.old, c.new, None))

    def _push(self, inst: Instruction) -> None:
        if inst not in self.queued:
            self.queued.add(inst)
            self.work.append(inst)

    def tree(self, v: Value) -> TypeTree:
        return self.info.tree(v)

    def update(self, v: Value, t: TypeTree) -> None:
        """Join ``t`` into ``v``'s tree; revisit what depends on ``v`` if it grew."""
        if not t:
            return
        if isinstance(v, ConstantExpr):
            self._update_constexpr(v, t)
            return
        if not isinstance(v, (Instruction, Argument, GlobalVariable)):
            return
        if isinstance(v, Instruction) and v.function is not self.f:
            return
        cur = self.info.trees.get(v)
        if cur is None:
            cur = self.info.trees[v] = global_seed(v, self.info) if isinstance(v, GlobalVariable) else TypeTree()
        changed, conflicts = cur.join(t)
        if conflicts:
            from .type_analysis import TypeConflict
            for c in conflicts:
                self.info.conflicts.append(TypeConflict(v, c.path, c.old, c.new, self.current))
        if not changed:
            return
        if isinstance(v, Instruction):
            self._push(v)
        if isinstance(v, GlobalVariable):
            for g_user in self.global_users.get(v, ()):
                self._push(g_user)
            return
        for u in v.users:
            if isinstance(u, Instruction) and u.function is self.f:
                self._push(u)

    def _update_constexpr(self, c: ConstantExpr, t: TypeTree) -> None:
        ops = c.operands
        if c.opcode == "getelementptr" and ops and c.source_type is not None:
            const, strides = gep_offset(self.layout, c.source_type, ops[1:])
            self.update(ops[0], gep_backward(t, const, strides))
        elif c.opcode in ("bitcast", "addrspacecast", "ptrtoint", "inttoptr") and ops:
            self.update(ops[0], t)

    def set_top(self, v: Value, ct) -> None:
        self.update(v, TypeTree({(-1,): ct}))

    # -- memory <-> value -----------------------------------------------------------
    def value_to_memory(self, vt: TypeTree, ty: Type) -> TypeTree:
        """A value's tree as the memory tree at the address it is stored to."""
        out = TypeTree()
        leaves = self.layout.scalar_leaves(ty, max_offset=MAX_OFFSET)
        for path, ct in vt:
            first, rest = path[0], path[1:]
            targets: list[tuple[int, Type | None]] = list(leaves) if first == -1 else (
                [lf for lf in leaves if lf[0] == first] or [(first, None)])
            for off, leaf in targets:
                if rest:
                    out.insert((off, *rest), ct)
                elif (ct.is_integer or ct.is_anything) and leaf is not None:
                    for b in range(max(1, self.layout.store_size(leaf))):
                        out.insert((off + b,), ct)
                else:
                    out.insert((off,), ct)
        return out

    def memory_to_value(self, mem: TypeTree, ty: Type) -> TypeTree:
        """The tree of a value of type ``ty`` loaded from memory with tree ``mem``."""
        out = TypeTree()
        if not mem:
            return out
        aggregate = isinstance(ty, (StructType, ArrayType, VectorType))
        by_first: dict[int, list] = {}
        for path, ct in mem:
            by_first.setdefault(path[0], []).append((path[1:], ct))
        wild = by_first.get(-1, [])
        for off, _leaf in self.layout.scalar_leaves(ty, max_offset=MAX_OFFSET):
            first = off if aggregate else -1
            for rest, ct in wild + by_first.get(off, []):
                out.insert((first, *rest), ct)
        if isinstance(ty, (ArrayType, VectorType)):
            out = _collapse_homogeneous(out, self.layout.alloc_size(ty.element))
        return out

    # -- dispatch ----------------------------------------------------------------------
    def visit(self, inst: Instruction) -> None:
        if isinstance(inst, LoadInst):
            self.visit_load(inst)
        elif isinstance(inst, StoreInst):
            self.visit_store(inst)
        elif isinstance(inst, GEPInst):
            self.visit_gep(inst)
        elif isinstance(inst, PhiInst):
            self.visit_phi(inst)
        elif isinstance(inst, SelectInst):
            self.visit_select(inst)
        elif isinstance(inst, CastInst):
            self.visit_cast(inst)
        elif isinstance(inst, BinaryOperator):
            self.visit_binary(inst)
        elif isinstance(inst, CallInst):
            self.visit_call(inst)
        elif isinstance(inst, AllocaInst):
            self.visit_alloca(inst)
        elif isinstance(inst, ReturnInst):
            if inst.operands:
                self.info.return_tree.join(self.tree(inst.operand(0)))
        elif isinstance(inst, ExtractValueInst):
            self.visit_extractvalue(inst)
        elif isinstance(inst, InsertValueInst):
            self.visit_insertvalue(inst)
        elif isinstance(inst, ExtractElementInst):
            self.visit_extractelement(inst)
        elif isinstance(inst, InsertElementInst):
            self.visit_insertelement(inst)
        elif isinstance(inst, ShuffleVectorInst):
            for op in inst.operands:
                self.update(inst, _wild_only(self.tree(op)))
                self.update(op, _wild_only(self.tree(inst)))
        elif isinstance(inst, FreezeInst):
            self.update(inst, self.tree(inst.operand(0)))
            self.update(inst.operand(0), self.tree(inst))
        elif isinstance(inst, AtomicRMWInst):
            self.visit_atomicrmw(inst)
        elif isinstance(inst, CmpInst):
            self.visit_cmp(inst)
        elif isinstance(inst, CmpXchgInst):
            ptr, cmp, new = inst.operands
            self.set_top(ptr, POINTER)
            for v in (cmp, new):
                self.update(ptr, self.value_to_memory(self.tree(v), v.type).under(-1))
                self.update(v, self.memory_to_value(self.tree(ptr).pointee(), v.type))

    # -- memory instructions ------------------------------------------------------------
    def _byte_typed(self, t: Type) -> bool:
        """i8 (and vectors of it) moves raw bytes: no type flows through such loads and stores."""
        s = t.element if isinstance(t, VectorType) else t
        return isinstance(s, IntType) and s.bits == 8

    def visit_load(self, inst: LoadInst) -> None:
        ptr = inst.pointer
        self.set_top(ptr, POINTER)
        size = self.layout.store_size(inst.type)
        tb = access_tree(inst, size)
        if tb is not None:
            self.update(ptr, tb.under(-1))
        if self._byte_typed(inst.type):
            return
        mem = self.tree(ptr).pointee()
        self.update(inst, self.memory_to_value(mem, inst.type))
        self.update(ptr, self.value_to_memory(self.tree(inst), inst.type).under(-1))

    def visit_store(self, inst: StoreInst) -> None:
        val, ptr = inst.value, inst.pointer
        self.set_top(ptr, POINTER)
        size = self.layout.store_size(val.type)
        tb = access_tree(inst, size)
        if tb is not None:
            self.update(ptr, tb.under(-1))
        if self._byte_typed(val.type):
            return
        self.update(ptr, self.value_to_memory(self.tree(val), val.type).under(-1))
        self.update(val, self.memory_to_value(self.tree(ptr).pointee(), val.type))

    def visit_atomicrmw(self, inst: AtomicRMWInst) -> None:
        ptr, val = inst.operands
        self.set_top(ptr, POINTER)
        self.update(ptr, self.value_to_memory(self.tree(val), val.type).under(-1))
        loaded = self.memory_to_value(self.tree(ptr).pointee(), val.type)
        self.update(val, loaded)
        self.update(inst, loaded)
        self.update(inst, self.tree(val))

    def visit_alloca(self, inst: AllocaInst) -> None:
        from .type_analysis import ir_type_tree
        self.set_top(inst, POINTER)
        if inst.count is not None and not isinstance(inst.count, Constant):
            self.set_top(inst.count, INTEGER)
        seed = ir_type_tree(inst.allocated_type, self.layout)
        mem = self.value_to_memory(seed, inst.allocated_type) if not isinstance(
            inst.allocated_type, (ArrayType, VectorType)) else _wild_only(seed)
        self.update(inst, mem.under(-1))

    def visit_gep(self, inst: GEPInst) -> None:
        base = inst.pointer
        if isinstance(inst.type, VectorType):
            return
        self.set_top(inst, POINTER)
        self.set_top(base, POINTER)
        for idx in inst.indices:
            if not isinstance(idx, Constant):
                self.set_top(idx, INTEGER)
        const, strides = gep_offset(self.layout, inst.source_type, inst.indices)
        if not strides and const and self._is_pointer_induction(inst):
            strides, const = [abs(const)], 0  # p.next = p + d around a loop: every element of stride |d|
        self.update(inst, gep_forward(self.tree(base), const, strides))
        self.update(base, gep_backward(self.tree(inst), const, strides))

    def _is_pointer_induction(self, gep: GEPInst) -> bool:
        """Does ``gep``'s result flow back into its own base (``p = phi [p0], [p + d]``) around a loop?

        Then the constant offset is a stride: propagating it exactly would grow
        the pointee's offsets by ``d`` on every round of the fixed point.
        """
        cached = self.inductions.get(gep)
        if cached is not None:
            return cached
        base = gep.pointer
        seen: set[Value] = set()
        work: list[Value] = [gep]
        found = False
        while work and not found and len(seen) < 256:
            v = work.pop()
            for u in v.users:
                if u is base:
                    found = True
                    break
                if isinstance(u, StoreInst) and u.value is v:  # through a stack slot (-O0 code)
                    for w in u.pointer.users:
                        if isinstance(w, LoadInst) and w not in seen:
                            if w is base:
                                found = True
                            seen.add(w)
                            work.append(w)
                    continue
                if u in seen or not isinstance(u, (PhiInst, SelectInst, GEPInst, CastInst)):
                    continue
                if isinstance(u, GEPInst) and u.pointer is not v:
                    continue
                seen.add(u)
                work.append(u)
        self.inductions[gep] = found
        return found

    # -- value instructions ---------------------------------------------------------------
    def visit_phi(self, inst: PhiInst) -> None:
        for v, _ in inst.incoming:
            self.update(inst, self.tree(v))
        t = self.tree(inst)
        for v, _ in inst.incoming:
            self.update(v, t)

    def visit_cmp(self, inst: CmpInst) -> None:
        if inst.opcode != "icmp":
            return
        a, b = inst.operands
        for x, y in ((a, b), (b, a)):
            top = self.tree(x).top()
            if top is not None and (top.is_integer or top.is_pointer) and not isinstance(y, Constant):
                self.set_top(y, top)

    def visit_select(self, inst: SelectInst) -> None:
        c, a, b = inst.operands
        self.set_top(c, INTEGER)
        self.update(inst, self.tree(a))
        self.update(inst, self.tree(b))
        self.update(a, self.tree(inst))
        self.update(b, self.tree(inst))

    def visit_cast(self, inst: CastInst) -> None:
        x = inst.operand(0)
        op = inst.opcode
        if op in ("bitcast", "addrspacecast", "ptrtoint", "inttoptr", "ptrtoaddr"):
            self.update(inst, self.tree(x))
            self.update(x, self.tree(inst))
        elif op in ("zext", "sext"):
            self.set_top(inst, INTEGER)
            self.set_top(x, INTEGER)
        elif op in ("trunc", "fptosi", "fptoui"):
            self.set_top(inst, INTEGER)
        elif op in ("sitofp", "uitofp"):
            self.set_top(x, INTEGER)

    def visit_binary(self, inst: BinaryOperator) -> None:
        if isinstance(inst.type, FloatType) or inst.opcode.startswith("f"):
            return
        a, b = inst.operands
        op = inst.opcode
        ta, tb = self.tree(a).top(), self.tree(b).top()
        ia = isinstance(a, ConstantInt) or (ta is not None and ta.is_integer)
        ib = isinstance(b, ConstantInt) or (tb is not None and tb.is_integer)
        pa = ta is not None and ta.is_pointer
        pb = tb is not None and tb.is_pointer
        if op in ("mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr"):
            self.set_top(inst, INTEGER)
            if op in ("mul", "sdiv"):  # (unsigned division and shifts also see pointer and float bits)
                for v in (a, b):
                    if not isinstance(v, Constant):
                        self.set_top(v, INTEGER)
            return
        if op in ("add", "sub"):
            if pa and ib:
                delta = b.value if isinstance(b, ConstantInt) else None
                if delta is not None and op == "sub":
                    delta = -delta
                self.update(inst, _offset_pointer(self.tree(a), delta))
            elif op == "add" and pb and ia:
                delta = a.value if isinstance(a, ConstantInt) else None
                self.update(inst, _offset_pointer(self.tree(b), delta))
            elif op == "sub" and pa and pb:
                self.set_top(inst, INTEGER)
            elif ia and ib:
                self.set_top(inst, INTEGER)
            top = self.tree(inst).top()
            if op == "add" and top is not None and top.is_integer:
                for v in (a, b):
                    if not isinstance(v, Constant):
                        self.set_top(v, INTEGER)
            return
        # and / or / xor: bit manipulation keeps what the non-constant side holds (fabs/fneg via bits)
        if ia and ib:
            self.set_top(inst, INTEGER)
        elif isinstance(b, ConstantInt) and ta is not None and (ta.is_float or ta.is_pointer):
            self.set_top(inst, ta)
        elif isinstance(a, ConstantInt) and tb is not None and (tb.is_float or tb.is_pointer):
            self.set_top(inst, tb)

    def visit_extractvalue(self, inst: ExtractValueInst) -> None:
        agg = inst.operand(0)
        off, ty = self._aggregate_offset(agg.type, inst.indices)
        size = self.layout.alloc_size(ty)
        self.update(inst, self._sub_value(self.tree(agg), off, size, ty))
        self.update(agg, self._place_value(self.tree(inst), off, ty))

    def visit_insertvalue(self, inst: InsertValueInst) -> None:
        agg, val = inst.operands
        off, ty = self._aggregate_offset(agg.type, inst.indices)
        size = self.layout.alloc_size(ty)
        outside = _outside(self.tree(agg), off, size)
        self.update(inst, outside)
        self.update(inst, self._place_value(self.tree(val), off, ty))
        self.update(agg, _outside(self.tree(inst), off, size))
        self.update(val, self._sub_value(self.tree(inst), off, size, ty))

    def visit_extractelement(self, inst: ExtractElementInst) -> None:
        vec, idx = inst.operands
        if not isinstance(idx, Constant):
            self.set_top(idx, INTEGER)
        self.update(inst, self._element_of(vec, idx, inst.type))
        if isinstance(idx, ConstantInt):
            step = self.layout.alloc_size(inst.type)
            self.update(vec, self._place_value(self.tree(inst), idx.value * step, inst.type))

    def visit_insertelement(self, inst: InsertElementInst) -> None:
        vec, val, idx = inst.operands
        if not isinstance(idx, Constant):
            self.set_top(idx, INTEGER)
        self.update(inst, self.tree(vec))
        self.update(vec, self.tree(inst))
        if isinstance(idx, ConstantInt):
            step = self.layout.alloc_size(val.type)
            self.update(inst, self._place_value(self.tree(val), idx.value * step, val.type))
        else:
            self.update(inst, _wild_only(self.tree(val)))
        self.update(val, self._element_of(inst, idx, val.type))

    def _element_of(self, vec: Value, idx: Value, ty: Type) -> TypeTree:
        t = self.tree(vec)
        if isinstance(idx, ConstantInt):
            step = self.layout.alloc_size(ty)
            return self._sub_value(t, idx.value * step, step, ty)
        return _wild_only(t)

    def _aggregate_offset(self, t: Type, indices: list[int]) -> tuple[int, Type]:
        off = 0
        for i in indices:
            o, t = self.layout.element_offset(t, i)
            off += o
        return off, t

    def _sub_value(self, agg: TypeTree, off: int, size: int, ty: Type) -> TypeTree:
        """The part [off, off+size) of an aggregate value's tree, as a value of type ``ty``."""
        scalar = not isinstance(ty, (StructType, ArrayType, VectorType))
        out = TypeTree()
        for p, t in agg:
            if p[0] == -1:
                out.insert(p, t)
            elif off <= p[0] < off + size:
                first = -1 if scalar and p[0] == off else p[0] - off
                if scalar and first != -1:
                    continue
                out.insert((first, *p[1:]), t)
        return out

    def _place_value(self, vt: TypeTree, off: int, ty: Type) -> TypeTree:
        """A value's tree placed at byte ``off`` of an enclosing aggregate value."""
        scalar = not isinstance(ty, (StructType, ArrayType, VectorType))
        out = TypeTree()
        for p, t in vt:
            if p[0] == -1:
                if scalar:
                    out.insert((off, *p[1:]), t)
                else:
                    step = self.layout.alloc_size(ty.element) if isinstance(ty, (ArrayType, VectorType)) else 0
                    count = ty.count if isinstance(ty, (ArrayType, VectorType)) else 0
                    for k in range(min(count, 256)):
                        out.insert((off + k * step, *p[1:]), t)
            else:
                out.insert((off + p[0], *p[1:]), t)
        return out

    # -- calls ------------------------------------------------------------------------------
    def visit_call(self, inst: CallInst) -> None:
        callee = inst.called_function
        name = callee.name if callee is not None else None
        args = inst.args
        if name is None:
            return
        kind = known.call_kind(name)
        if kind == "copy":
            self._memcpy(inst, args)
        elif kind == "set":
            self.set_top(args[0], POINTER)
            if len(args) > 2 and not isinstance(args[2], Constant):
                self.set_top(args[2], INTEGER)
        elif kind in ("alloc", "calloc"):
            self.set_top(inst, POINTER)
            for a in args:
                if isinstance(a.type, IntType) and not isinstance(a, Constant):
                    self.set_top(a, INTEGER)
        elif kind == "realloc":
            self.set_top(inst, POINTER)
            self.set_top(args[0], POINTER)
            self.update(inst, self.tree(args[0]))
            self.update(args[0], self.tree(inst))
        elif kind == "free":
            if args:
                self.set_top(args[0], POINTER)
        elif known.is_integer_intrinsic(name):
            for v in [inst, *args]:
                if isinstance(v.type, IntType) and not isinstance(v, Constant):
                    self.set_top(v, INTEGER)
        elif callee is not None and not callee.is_declaration:
            self.pending_calls[inst] = None
        else:
            self._signature(inst, name, args)

    def _memcpy(self, inst: CallInst, args: list[Value]) -> None:
        dst, src = args[0], args[1]
        n = args[2] if len(args) > 2 else None
        self.set_top(dst, POINTER)
        self.set_top(src, POINTER)
        if n is not None and not isinstance(n, Constant):
            self.set_top(n, INTEGER)
        if isinstance(n, ConstantInt):
            size = n.value
            self.update(dst, self.tree(src).pointee().shifted(0, 0, size).under(-1))
            self.update(src, self.tree(dst).pointee().shifted(0, 0, size).under(-1))
        else:
            self.update(dst, self.tree(src).pointee().under(-1))
            self.update(src, self.tree(dst).pointee().under(-1))
        if isinstance(inst.type, PointerType):
            self.update(inst, self.tree(dst))

    def _signature(self, inst: CallInst, name: str, args: list[Value]) -> None:
        sig = known.signature(name)
        if sig is None:
            return
        fk = next((a.type.kind for a in args if isinstance(a.type, FloatType)), None)
        for spec, v in zip(sig, [inst, *args]):
            if isinstance(v, Constant) and v is not inst:
                continue
            if spec == "I":
                self.set_top(v, INTEGER)
            elif spec == "PI":
                self.update(v, TypeTree({(-1, k): INTEGER for k in range(4)}))
            elif spec == "PF" and fk is not None:
                self.update(v, TypeTree({(-1, 0): float_type(fk)}))

    def _defined_call(self, inst: CallInst, callee: Function, args: list[Value]) -> None:
        n = len(callee.args)
        trees = [self.tree(a).copy() for a in args[:n]]
        if len(trees) < n:
            return
        info = self.ta.analyze(callee, trees)
        for a, formal in zip(args, callee.args):
            if not isinstance(a, Constant) or isinstance(a, (GlobalVariable, ConstantExpr)):
                self.update(a, info.tree(formal))
        self.update(inst, info.return_tree)


def _globals_in(v: Value) -> list[GlobalVariable]:
    if isinstance(v, GlobalVariable):
        return [v]
    if isinstance(v, ConstantExpr):
        out: list[GlobalVariable] = []
        for o in v.operands:
            out += _globals_in(o)
        return out
    return []


def _wild_only(t: TypeTree) -> TypeTree:
    return TypeTree([(p, c) for p, c in t if p[0] == -1])


def _outside(t: TypeTree, off: int, size: int) -> TypeTree:
    return TypeTree([(p, c) for p, c in t if p[0] == -1 or not off <= p[0] < off + size])


def _offset_pointer(t: TypeTree, delta: int | None) -> TypeTree:
    """``ptr + delta`` as integers (ptrtoint arithmetic): a pointer, pointee moved when delta is known."""
    out = TypeTree({(-1,): POINTER})
    mem = t.pointee()
    moved = mem.shifted(-delta) if delta is not None else _wild_only(mem)
    out.join(moved.under(-1))
    return out


def _collapse_homogeneous(t: TypeTree, step: int) -> TypeTree:
    """An array/vector value tree whose elements all agree becomes one ``-1`` entry per path."""
    firsts = {p[0] for p, _ in t}
    if not firsts or -1 in firsts and len(firsts) == 1:
        return t
    by_first: dict[int, list] = {}
    for p, c in t:
        by_first.setdefault(p[0], []).append((p[1:], c))
    shapes = {tuple(v) for k, v in by_first.items() if k != -1}
    if len(shapes) != 1:
        return t
    out = TypeTree()
    for rest, c in next(iter(shapes)):
        out.insert((-1, *rest), c)
    for rest, c in by_first.get(-1, []):
        out.insert((-1, *rest), c)
    return out
