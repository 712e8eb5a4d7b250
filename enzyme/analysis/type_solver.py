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

from ..ir import (AllocaInst, Argument, AtomicRMWInst, BinaryOperator, CallInst, CastInst, CmpInst, CmpXchgInst,
                  Constant, ConstantExpr, ConstantInt, ExtractElementInst, ExtractValueInst, FreezeInst, Function,
                  GEPInst, GlobalVariable, InsertElementInst, InsertValueInst, Instruction, IntType, LoadInst, PhiInst,
                  ReturnInst, SelectInst, ShuffleVectorInst, StoreInst, Type, Value)
from ..ir.types import ArrayType, FloatType, PointerType, StructType, VectorType
from ..rules import MemoryFunction, MemoryKind, Returns
from ..rules.runtime_bodies import TYPELESS_HELPERS
from . import known_functions as known
from .layout import DataLayout
from .sign_bits import constant_bits, is_sign_mask, sign_operation
from .tbaa import access_tree, struct_copy
from .type_info import CalleeTypes, FunctionTypeInfo, TypeConflict, global_seed
from .type_offsets import (MAX_BOUNDED_PLACES, gep_backward, gep_backward_bounded, gep_inner_bounds, gep_forward, gep_offset, globals_in, ir_type_tree, is_array_descriptor,
                           memory_to_value, offset_pointer, outside, place_value, sub_value, value_to_memory,
                           wild_only)
from .type_tree import ANYTHING, INTEGER, POINTER, TypeTree, float_type


class Solver:
    """Runs the fixed point for one :class:`FunctionTypeInfo`."""

    def __init__(self, ta: CalleeTypes, info: FunctionTypeInfo, arg_trees: list[TypeTree],
                 ret_tree: TypeTree | None = None) -> None:
        self.ta = ta
        self.info = info
        self.layout = info.layout
        self.f = info.function
        self.arg_trees = arg_trees
        if ret_tree is not None:
            info.return_tree.join(ret_tree)
        self.work: deque[Instruction] = deque()
        self.queued: set[Instruction] = set()
        self.global_users: dict[GlobalVariable, set[Instruction]] = {}
        self.current: Instruction | None = None
        self.cycle_strides: dict[Value, int] | None = None
        self.pending_calls: dict[CallInst, None] = {}
        self.recursive_calls: dict[CallInst, None] = {}

    # -- driver ------------------------------------------------------------------
    def run(self) -> None:
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
                for g in globals_in(op):
                    if g not in info.trees:
                        info.trees[g] = global_seed(g, info)
                    self.global_users.setdefault(g, set()).add(inst)
            self._push(inst)
        while True:
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
                    self._call_site(call)
            # Recursion: a call answered by a function still being analysed (this one, or one up the
            # stack) read a partial result; read it again until nothing grows.
            for call in list(self.recursive_calls):
                self._call_site(call)
            if not self.work and not self.pending_calls:
                break
        self.current = None
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
            self.update(ops[0], self._gep_backward(t, const, strides, c.source_type, ops[1:]))
        elif c.opcode in ("bitcast", "addrspacecast", "ptrtoint", "inttoptr") and ops:
            self.update(ops[0], t)

    def set_top(self, v: Value, ct) -> None:
        self.update(v, TypeTree({(-1,): ct}))

    # -- memory <-> value -----------------------------------------------------------
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
            if inst.operands:  # all returns share one tree, which also holds what the caller knows
                self.info.return_tree.join(self.tree(inst.operand(0)))
                self.update(inst.operand(0), self.info.return_tree)
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
                self.update(inst, wild_only(self.tree(op)))
                self.update(op, wild_only(self.tree(inst)))
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
                self.update(ptr, value_to_memory(self.layout, self.tree(v), v.type).under(-1))
                self.update(v, memory_to_value(self.layout, self.tree(ptr).pointee(), v.type))

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
        self.update(inst, memory_to_value(self.layout, mem, inst.type))
        self.update(ptr, value_to_memory(self.layout, self.tree(inst), inst.type).under(-1))

    def visit_store(self, inst: StoreInst) -> None:
        val, ptr = inst.value, inst.pointer
        self.set_top(ptr, POINTER)
        size = self.layout.store_size(val.type)
        tb = access_tree(inst, size)
        if tb is not None:
            self.update(ptr, tb.under(-1))
        if self._byte_typed(val.type):
            return
        self.update(ptr, value_to_memory(self.layout, self.tree(val), val.type).under(-1))
        self.update(val, memory_to_value(self.layout, self.tree(ptr).pointee(), val.type))

    def visit_atomicrmw(self, inst: AtomicRMWInst) -> None:
        ptr, val = inst.operands
        self.set_top(ptr, POINTER)
        self.update(ptr, value_to_memory(self.layout, self.tree(val), val.type).under(-1))
        loaded = memory_to_value(self.layout, self.tree(ptr).pointee(), val.type)
        self.update(val, loaded)
        self.update(inst, loaded)
        self.update(inst, self.tree(val))

    def visit_alloca(self, inst: AllocaInst) -> None:
        self.set_top(inst, POINTER)
        if inst.count is not None and not isinstance(inst.count, Constant):
            self.set_top(inst.count, INTEGER)
        seed = ir_type_tree(inst.allocated_type, self.layout, integers=is_array_descriptor(inst.allocated_type))
        mem = value_to_memory(self.layout, seed, inst.allocated_type) if not isinstance(
            inst.allocated_type, (ArrayType, VectorType)) else wild_only(seed)
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
        if not strides and const:
            g = self._cycle_stride(inst)
            if g:  # walking an array of g-byte elements: keep the phase, forget which element
                strides, const = [g], const % g
        self.update(inst, gep_forward(self.tree(base), const, strides))
        self.update(base, self._gep_backward(self.tree(inst), const, strides, inst.source_type, inst.indices,
                                             base.value_type if isinstance(base, GlobalVariable) else None))

    def _gep_backward(self, result: TypeTree, const: int, strides: list[int], source_type, indices,
                      declared: Type | None = None) -> TypeTree:
        bounded = gep_inner_bounds(self.layout, source_type, indices) if strides else []
        if bounded:
            return gep_backward_bounded(result, const, strides, bounded)
        blob = isinstance(declared, ArrayType) and isinstance(declared.element, IntType) and declared.element.bits == 8
        if len(strides) == 1 and declared is not None and not isinstance(source_type, StructType) \
                and (isinstance(declared, StructType) or blob):
            # an array walked inside a global record or byte blob (a Fortran COMMON block: `t(i)` beside
            # `integer n`): the elements are where whole ones fit, not at every offset (the counter's bytes)
            g = strides[0]
            count = (self.layout.alloc_size(declared) - const % g) // g
            if 0 < count <= MAX_BOUNDED_PLACES:
                return gep_backward_bounded(result, const % g, strides, [(g, count)])
        return gep_backward(result, const, strides, source_type, self.layout)

    def _cycle_stride(self, gep: GEPInst) -> int:
        """The stride of the pointer cycle ``gep`` sits in (``p = phi [p0], [p + d]``), 0 if none.

        Phis, selects, casts and stack slots tie pointers together in both
        directions.  Around a cycle whose offsets do not cancel, exact shifts
        would push the pointee's offsets further on every round of the fixed
        point; such pointers walk an array whose element size divides what the
        cycles leave over, so their offsets are taken modulo that stride.
        """
        if self.cycle_strides is None:
            self.cycle_strides = _cycle_strides(self.f, self.layout)
        return self.cycle_strides.get(gep, 0)

    # -- value instructions ---------------------------------------------------------------
    def visit_phi(self, inst: PhiInst) -> None:
        if isinstance(inst.type, IntType) and _is_counter(inst):
            self.set_top(inst, INTEGER)
        for v, _ in inst.incoming:
            self.update(inst, self.tree(v))
        t = self.tree(inst)
        for v, _ in inst.incoming:
            self.update(v, t)

    def visit_cmp(self, inst: CmpInst) -> None:
        if inst.opcode != "icmp":
            return
        a, b = inst.operands
        for x, y in ((a, b), (b, a)):  # only pointers: comparing with an integer proves nothing
            top = self.tree(x).top()
            if top is not None and top.is_pointer and not isinstance(y, Constant):
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
        elif op in ("zext", "sext", "trunc"):
            # Widening or narrowing keeps what the bits are: an integer stays one, but half a double
            # (a warp shuffle moves doubles as two i32) still carries float data.
            top, res = self.tree(x).top(), self.tree(inst).top()
            if (top is not None and top.is_integer) or (res is not None and res.is_integer and op != "trunc"):
                self.set_top(inst, INTEGER)
                if not isinstance(x, Constant):
                    self.set_top(x, INTEGER)
            elif top is not None and (top.is_float or top.is_anything):
                self.set_top(inst, ANYTHING)
            self._carries_float_backward(inst, x)
        elif op in ("fptosi", "fptoui"):
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
        if op in ("mul", "sdiv"):  # no one multiplies pointer or float bits
            for v in (inst, a, b):
                if not isinstance(v, Constant):
                    self.set_top(v, INTEGER)
            return
        if op in ("udiv", "urem", "srem", "shl", "lshr", "ashr"):
            # Shifts also take doubles apart (high and low words): only integers in, integer out.
            if ia and (ib or op in ("shl", "lshr", "ashr")):
                self.set_top(inst, INTEGER)
            elif ta is not None and (ta.is_float or ta.is_anything):
                self.set_top(inst, ANYTHING)
            if op in ("shl", "lshr") and isinstance(b, ConstantInt):
                self._carries_float_backward(inst, a)
            return
        if op in ("add", "sub"):
            if pa and ib:
                delta = b.value if isinstance(b, ConstantInt) else None
                if delta is not None and op == "sub":
                    delta = -delta
                self.update(inst, offset_pointer(self.tree(a), delta))
            elif op == "add" and pb and ia:
                delta = a.value if isinstance(a, ConstantInt) else None
                self.update(inst, offset_pointer(self.tree(b), delta))
            elif op == "sub" and pa and pb:
                self.set_top(inst, INTEGER)
            elif ia and ib:
                self.set_top(inst, INTEGER)
            top = self.tree(inst).top()
            if op == "add" and top is not None and top.is_integer:
                for v in (a, b):
                    if not isinstance(v, Constant):
                        self.set_top(v, INTEGER)
            elif op == "sub" and top is not None and top.is_integer and (ia or ib):
                # int = x - int: x is no pointer (that would give a pointer); int = int - y: y is none either
                # (nobody subtracts an address from a number).
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
        elif (sign := sign_operation(inst)) is not None and sign.source is not None:
            # (a & ~SIGN) | (b & SIGN), a ^ (b & SIGN): the magnitude source's bits with another sign.
            ts = self.tree(sign.source).top()
            if ts is not None and ts.is_float:
                self.set_top(inst, ts)
        self._sign_bits_backward(inst)
        for x in (a, b):
            if isinstance(inst.operand(1 - inst.operands.index(x)), ConstantInt) and op in ("and", "or", "xor"):
                self._carries_float_backward(inst, x)

    def _carries_float_backward(self, inst: Instruction, x: Value) -> None:
        """A float made from an integer that was widened, narrowed, shifted or masked (a small struct such as
        {float, int} travels as one i64): the integer carries float data.  Marked only while nothing else is
        known of it, so integer code stays Integer."""
        top = self.tree(inst).top()
        if top is not None and top.is_float and not isinstance(x, Constant) and self.tree(x).top() is None:
            self.set_top(x, top)

    def _sign_bits_backward(self, inst: BinaryOperator) -> None:
        """A float made by a sign-bit operation (fneg, fabs, copysign through the bits) came from float bits."""
        top = self.tree(inst).top()
        if top is None or not top.is_float or not isinstance(inst.type, IntType):
            return
        width = inst.type.bits
        a, b = inst.operands
        for x, y in ((a, b), (b, a)):
            if isinstance(x, Constant):
                continue
            c = constant_bits(y, width)
            if c is not None and is_sign_mask(c, width, inst.opcode):
                self.set_top(x, top)
            elif c is None and isinstance(x, BinaryOperator) and x.opcode == "and" \
                    and any(is_sign_mask(k, width, "and") for k in (constant_bits(o, width) for o in x.operands)
                            if k is not None):
                self.set_top(x, top)  # (a & ~SIGN) | (b & SIGN): both halves are float bits

    def visit_extractvalue(self, inst: ExtractValueInst) -> None:
        agg = inst.operand(0)
        off, ty = self._aggregate_offset(agg.type, inst.indices)
        size = self.layout.alloc_size(ty)
        self.update(inst, sub_value(self.tree(agg), off, size, ty))
        self.update(agg, place_value(self.layout, self.tree(inst), off, ty))

    def visit_insertvalue(self, inst: InsertValueInst) -> None:
        agg, val = inst.operands
        off, ty = self._aggregate_offset(agg.type, inst.indices)
        size = self.layout.alloc_size(ty)
        self.update(inst, outside(self.tree(agg), off, size))
        self.update(inst, place_value(self.layout, self.tree(val), off, ty))
        self.update(agg, outside(self.tree(inst), off, size))
        self.update(val, sub_value(self.tree(inst), off, size, ty))

    def visit_extractelement(self, inst: ExtractElementInst) -> None:
        vec, idx = inst.operands
        if not isinstance(idx, Constant):
            self.set_top(idx, INTEGER)
        self.update(inst, self._element_of(vec, idx, inst.type))
        if isinstance(idx, ConstantInt):
            step = self.layout.alloc_size(inst.type)
            self.update(vec, place_value(self.layout, self.tree(inst), idx.value * step, inst.type))

    def visit_insertelement(self, inst: InsertElementInst) -> None:
        vec, val, idx = inst.operands
        if not isinstance(idx, Constant):
            self.set_top(idx, INTEGER)
        self.update(inst, self.tree(vec))
        self.update(vec, self.tree(inst))
        if isinstance(idx, ConstantInt):
            step = self.layout.alloc_size(val.type)
            self.update(inst, place_value(self.layout, self.tree(val), idx.value * step, val.type))
        else:
            self.update(inst, wild_only(self.tree(val)))
        self.update(val, self._element_of(inst, idx, val.type))

    def _element_of(self, vec: Value, idx: Value, ty: Type) -> TypeTree:
        t = self.tree(vec)
        if isinstance(idx, ConstantInt):
            step = self.layout.alloc_size(ty)
            return sub_value(t, idx.value * step, step, ty)
        return wild_only(t)

    def _aggregate_offset(self, t: Type, indices: list[int]) -> tuple[int, Type]:
        off = 0
        for i in indices:
            o, t = self.layout.element_offset(t, i)
            off += o
        return off, t

    def visit_call(self, inst: CallInst) -> None:
        callee = inst.called_function
        name = callee.name if callee is not None else None
        args = inst.args
        if name is None:
            return
        mf = known.memory_function(name)
        if mf is not None:
            self._memory_call(inst, mf, args)
        elif known.is_integer_intrinsic(name):
            for v in [inst, *args]:
                if isinstance(v.type, IntType) and not isinstance(v, Constant):
                    self.set_top(v, INTEGER)
        elif name in TYPELESS_HELPERS:
            return  # see rules.runtime_bodies
        elif callee is not None and not callee.is_declaration:
            self.pending_calls[inst] = None
        else:
            self._signature(inst, name, args)

    def _memory_call(self, inst: CallInst, mf: MemoryFunction, args: list[Value]) -> None:
        """memcpy, memset, malloc, free and relatives, by the operand roles of the memory table."""
        def arg(i: int | None) -> Value | None:
            return known.memory_operand(args, i)

        for role in (mf.dst, mf.src, mf.ptr):
            p = arg(role)
            if p is not None:
                self.set_top(p, POINTER)
        for role in (mf.size, mf.count, mf.align, mf.old_size):
            n = arg(role)
            if n is not None and isinstance(n.type, IntType) and not isinstance(n, Constant):
                self.set_top(n, INTEGER)
        if mf.returns is Returns.BLOCK:
            self.set_top(inst, POINTER)
        dst, src, size, ptr = arg(mf.dst), arg(mf.src), arg(mf.size), arg(mf.ptr)
        if dst is not None and src is not None:  # copy/move: both sides hold the same bytes
            fields = struct_copy(inst, size.value) if isinstance(size, ConstantInt) else None
            if fields is not None:  # an aggregate copy's field types (!tbaa.struct) hold on both sides
                self.update(dst, fields.tree.under(-1))
                self.update(src, fields.tree.under(-1))
            if isinstance(size, ConstantInt):
                self.update(dst, self.tree(src).pointee().shifted(0, 0, size.value).under(-1))
                self.update(src, self.tree(dst).pointee().shifted(0, 0, size.value).under(-1))
            else:
                self.update(dst, self.tree(src).pointee().under(-1))
                self.update(src, self.tree(dst).pointee().under(-1))
        if dst is not None and mf.returns is Returns.DST:
            self.update(inst, self.tree(dst))
        elif dst is not None and mf.returns is Returns.DST_END:  # mempcpy: dst + size
            self.update(inst, offset_pointer(self.tree(dst), size.value if isinstance(size, ConstantInt) else None))
        if mf.kind is MemoryKind.REALLOC and ptr is not None:  # the new block holds the old one's bytes
            self.update(inst, self.tree(ptr))
            self.update(ptr, self.tree(inst))

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

    def _call_site(self, call: CallInst) -> None:
        self.current = call
        callee = call.called_function
        assert callee is not None
        self._defined_call(call, callee, call.args)

    def _defined_call(self, inst: CallInst, callee: Function, args: list[Value]) -> None:
        n = len(callee.args)
        trees = [self.tree(a).copy() for a in args[:n]]
        if len(trees) < n:
            return
        info = self.ta.analyze(callee, trees)
        self.ta.note_call(self.info, inst, info)
        if self.ta.is_in_progress(info):
            self.recursive_calls[inst] = None
        for a, formal in zip(args, callee.args):
            if not isinstance(a, Constant) or isinstance(a, (GlobalVariable, ConstantExpr)):
                self.update(a, info.tree(formal))
        self.update(inst, info.return_tree)


class _OffsetUnion:
    """Union-find where each pointer knows its byte offset from its group's root.

    ``cycle[root]`` is the gcd of the offsets by which cycles in the group fail
    to come back to where they started (0: every cycle is consistent).
    """

    def __init__(self) -> None:
        self.parent: dict[Value, Value] = {}
        self.offset: dict[Value, int] = {}  # offset of v from parent[v]
        self.cycle: dict[Value, int] = {}

    def find(self, v: Value) -> tuple[Value, int]:
        off = 0
        path = []
        while self.parent.get(v, v) is not v:
            path.append(v)
            off += self.offset[v]
            v = self.parent[v]
        root, total = v, off
        for p in path:  # path compression, keeping offsets right
            nxt = total - self.offset[p]
            self.parent[p], self.offset[p] = root, total
            total = nxt
        return root, off

    def union(self, a: Value, b: Value, delta: int) -> None:
        """Record ``b = a + delta``."""
        ra, oa = self.find(a)
        rb, ob = self.find(b)
        if ra is rb:
            miss = abs(ob - oa - delta)
            if miss:
                self.cycle[ra] = gcd(self.cycle.get(ra, 0), miss)
            return
        self.parent[rb] = ra
        self.offset[rb] = oa + delta - ob
        if rb in self.cycle:
            self.cycle[ra] = gcd(self.cycle.get(ra, 0), self.cycle.pop(rb))


def _cycle_strides(f: Function, layout: DataLayout) -> dict[Value, int]:
    """Constant-offset GEPs in pointer cycles whose offsets do not cancel, with the cycles' stride."""
    groups = _OffsetUnion()
    constant_geps: list[tuple[GEPInst, int]] = []
    for inst in f.instructions():
        if isinstance(inst, PhiInst):
            for v, _ in inst.incoming:
                groups.union(inst, v, 0)
        elif isinstance(inst, SelectInst):
            groups.union(inst, inst.operand(1), 0)
            groups.union(inst, inst.operand(2), 0)
        elif isinstance(inst, (CastInst, FreezeInst)) and inst.opcode in ("bitcast", "addrspacecast", "freeze"):
            groups.union(inst, inst.operand(0), 0)
        elif isinstance(inst, StoreInst) and isinstance(inst.value.type, PointerType):
            for u in inst.pointer.users:  # a pointer kept in a stack slot (-O0) comes back out of it
                if isinstance(u, LoadInst) and u.pointer is inst.pointer:
                    groups.union(inst.value, u, 0)
        elif isinstance(inst, GEPInst) and not isinstance(inst.type, VectorType):
            const, strides = gep_offset(layout, inst.source_type, inst.indices)
            if not strides:
                constant_geps.append((inst, const))
                groups.union(inst.pointer, inst, const)
    out: dict[Value, int] = {}
    for g, c in constant_geps:
        stride = groups.cycle.get(groups.find(g)[0], 0)
        if c and stride:
            out[g] = stride
    return out


def _is_counter(phi: PhiInst) -> bool:
    """A loop counter: starts at integer constants and steps by constants (``i = 0; i += 1``).  Its bits are
    a count -- no pointer starts at a constant, and no float is made by counting -- even where nothing else
    uses it as an integer (``p.id = i`` stores it into a struct)."""
    stepped = False
    for v, _ in phi.incoming:
        if isinstance(v, ConstantInt):
            continue
        if isinstance(v, BinaryOperator) and v.opcode in ("add", "sub") and phi in v.operands \
                and isinstance(v.operand(1 - v.operands.index(phi)), ConstantInt):
            stepped = True
            continue
        return False
    return stepped

