"""The fixed point behind activity analysis.

Three facts grow together until nothing changes:

- **points-to**: which :class:`MemoryObject` each pointer (or pointer-carrying
  integer) may point into, and which objects pointers stored in an object may
  point to (``contents``);
- **varied** ("up" in Enzyme): values that may depend on an active input, and
  objects that may hold such values (dup arguments' memory, memory something
  varied is stored into);
- **useful** ("down"): values that may influence an active output (the
  returned value when the return is active, anything stored into memory the
  caller can read back: dup arguments' memory, globals, memory of unknown
  origin, memory that escapes into those), and objects that a useful value is
  loaded from.

A value is active when it is varied *and* useful; an object when it is both,
or when it holds pointers to active objects (its shadow must hold their
shadows).  Values are only varied or useful when their type may carry float
data (type analysis says an integer is an integer); pointers are active by
what they point to.  Everything is flow-insensitive and object-granular, so
it errs on the active side; defined callees are analysed with the caller,
context-insensitively (all calls of a callee reached from the root share one
summary).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..ir import (AllocaInst, Argument, AtomicRMWInst, BinaryOperator, CallInst, CastInst, CmpXchgInst, Constant,
                  ConstantAggregate, ConstantExpr, ExtractElementInst, ExtractValueInst, FreezeInst, Function, GEPInst,
                  GlobalVariable, InsertElementInst, InsertValueInst, Instruction, IntType, LandingPadInst, LoadInst,
                  OpaqueInst, PhiInst, ReturnInst, SelectInst, ShuffleVectorInst, StoreInst, UnaryOperator, VAArgInst,
                  Value)
from ..ir.types import Type, VectorType
from ..rules import Returns
from . import known_functions as known
from .call_summaries import ALL_DEPS, MEMORY, return_dependencies
from .memory_objects import MemoryObject, type_has_pointer
from .type_analysis import FunctionTypeInfo, TypeAnalysis


def _may_hold_pointer_bits(t: Type) -> bool:
    """Could a value of this type be a pointer in disguise (an integer as wide as an address)?"""
    if type_has_pointer(t):
        return True
    s = t.element if isinstance(t, VectorType) else t
    return isinstance(s, IntType) and s.bits >= 32


def reachable_functions(root: Function) -> list[Function]:
    """``root`` and the defined functions it calls directly, transitively (root first)."""
    out: dict[Function, None] = {root: None}
    work = [root]
    while work:
        f = work.pop()
        for inst in f.instructions():
            if isinstance(inst, CallInst):
                g = inst.called_function
                if g is not None and not g.is_declaration and g not in out:
                    out[g] = None
                    work.append(g)
    return list(out)


class MergedTypes:
    """Type facts of a function analysed in several calling contexts: a fact counts if all contexts agree.

    Activity analysis merges a callee's calls, so it may only trust what holds
    in every context in which type analysis saw the callee.
    """

    def __init__(self, infos: list[FunctionTypeInfo]) -> None:
        self.infos = infos
        self.layout = infos[0].layout

    def may_carry_float(self, v: Value) -> bool:
        return any(i.may_carry_float(v) for i in self.infos)

    def top(self, v: Value):  # -> ConcreteType | None
        tops = {i.top(v) for i in self.infos}
        return tops.pop() if len(tops) == 1 else None

    def pointee_is_integer_only(self, v: Value) -> bool:
        return all(i.pointee_is_integer_only(v) for i in self.infos)

    def is_integer_memory(self, ptr: Value, size: int) -> bool:
        return all(i.is_integer_memory(ptr, size) for i in self.infos)


class ActivitySolver:
    """Points-to, varied and useful sets for ``root`` and the defined functions it calls."""

    def __init__(self, root: Function, annotations: list[str], ret_active: bool,
                 root_types: list[FunctionTypeInfo], ta: TypeAnalysis,
                 shadowed_globals: Iterable[GlobalVariable] = (), rule_functions: Iterable[Function] = (),
                 const_memory_read_back: bool = False) -> None:
        self.root = root
        self.const_memory_read_back = const_memory_read_back
        self.shadowed_globals = list(shadowed_globals)  # globals the caller gave a shadow (enzyme_shadow)
        # Functions differentiated by a registered rule, not through their body: their calls are rule calls.
        self.rule_functions = frozenset(rule_functions)
        self.annotations = annotations
        self.ret_active = ret_active
        self.functions = reachable_functions(root)
        self.types: dict[Function, MergedTypes] = {root: MergedTypes(root_types)}
        for g in self.functions[1:]:
            seen = ta.contexts(g)
            self.types[g] = MergedTypes(seen or [ta.analyze(g, integer_args=False)])
        self.pts: dict[Value, set[MemoryObject]] = {}
        self.contents: dict[MemoryObject, set[MemoryObject]] = {}
        self.varied: set[Value] = set()
        self.useful: set[Value] = set()
        self.varied_mem: set[MemoryObject] = set()
        self.useful_mem: set[MemoryObject] = set()
        self.active_mem: set[MemoryObject] = set()
        self.unknown = MemoryObject("unknown")
        self.objects: list[MemoryObject] = [self.unknown]
        self.contents[self.unknown] = {self.unknown}
        self.arg_objects: dict[Argument, MemoryObject] = {}
        self.global_objects: dict[GlobalVariable, MemoryObject] = {}
        self.site_objects: dict[Instruction, MemoryObject] = {}
        self.returns: dict[Function, list[Value]] = {g: [] for g in self.functions}
        self._carries: dict[Value, bool] = {}
        self.changed = False
        self.ret_deps = return_dependencies(self.functions)
        self._internal: dict[Function, set[Instruction]] = {}
        self._globals_used: dict[Function, set[MemoryObject]] = {}

    # -- small helpers ---------------------------------------------------------------
    def info(self, v: Value) -> MergedTypes:
        f = v.function if isinstance(v, Instruction) else getattr(v, "function", None)
        return self.types.get(f, self.types[self.root])  # type: ignore[arg-type]

    def carries(self, v: Value) -> bool:
        """May ``v`` itself hold float data (so that it can be varied or useful)?"""
        c = self._carries.get(v)
        if c is None:
            c = self._carries[v] = self.info(v).may_carry_float(v)
        return c

    def holds_pointer(self, v: Value) -> bool:
        if type_has_pointer(v.type):
            return True
        if not isinstance(v.type, IntType) or not self.pts.get(v):
            return False
        top = self.info(v).top(v)
        return not (top is not None and top.is_integer)

    def objs(self, v: Value) -> set[MemoryObject]:
        """Objects ``v`` may point into (constants computed, others as found so far)."""
        if isinstance(v, GlobalVariable):
            return {self.global_object(v)}
        if isinstance(v, (ConstantExpr, ConstantAggregate)):
            out: set[MemoryObject] = set()
            for o in (v.operands if isinstance(v, ConstantExpr) else v.elements):
                out |= self.objs(o)
            return out
        if isinstance(v, Constant):
            return set()
        return self.pts.get(v, set())

    def new_object(self, kind: str, origin: Value | None, annotation: str | None = None) -> MemoryObject:
        o = MemoryObject(kind, origin, annotation)
        self.objects.append(o)
        self.contents[o] = set()
        self.changed = True
        return o

    def global_object(self, g: GlobalVariable) -> MemoryObject:
        o = self.global_objects.get(g)
        if o is None:
            o = self.global_objects[g] = self.new_object("global", g)
            self.contents[o].add(self.unknown)  # set elsewhere before the call, for all we know
            if g.initializer is not None:
                self.contents[o] |= self.objs(g.initializer)
            self.useful_mem.add(o)  # the caller may read a global after the call
        return o

    def site_object(self, inst: Instruction, kind: str) -> MemoryObject:
        o = self.site_objects.get(inst)
        if o is None:
            o = self.site_objects[inst] = self.new_object(kind, inst)
        return o

    def add_pts(self, v: Value, objs: Iterable[MemoryObject]) -> None:
        if isinstance(v, Constant):
            return
        cur = self.pts.setdefault(v, set())
        n = len(cur)
        cur.update(objs)
        if len(cur) != n:
            self.changed = True

    def add_contents(self, o: MemoryObject, objs: Iterable[MemoryObject]) -> None:
        cur = self.contents[o]
        n = len(cur)
        cur.update(objs)
        if len(cur) != n:
            self.changed = True

    def mark(self, s: set, v: Value) -> None:
        if v not in s and not isinstance(v, Constant) and self.carries(v):
            s.add(v)
            self.changed = True

    def mark_mem(self, s: set, objs: Iterable[MemoryObject]) -> None:
        for o in objs:
            if o not in s:
                s.add(o)
                self.changed = True

    def reach(self, start: Iterable[MemoryObject]) -> set[MemoryObject]:
        seen = set(start)
        work = list(seen)
        while work:
            for p in self.contents.get(work.pop(), ()):
                if p not in seen:
                    seen.add(p)
                    work.append(p)
        return seen

    # -- driver --------------------------------------------------------------------
    def solve(self) -> None:
        for a, ann in zip(self.root.args, self.annotations):
            # An integer marked dup is an address in disguise (Rust/Julia pass pointers as i64).
            disguised = ann in ("dup", "dupnoneed") and isinstance(a.type, IntType) and a.type.bits >= 32
            if type_has_pointer(a.type) or disguised:
                o = self.new_object("argument", a, ann)
                self.contents[o].add(o)  # pointers loaded from it lead back into "its" memory
                self.arg_objects[a] = o
                self.pts[a] = {o}
            if ann != "const":
                self.mark(self.varied, a)
        self.mark_mem(self.useful_mem, [self.unknown])
        for g in self.functions:
            for inst in g.instructions():
                if isinstance(inst, ReturnInst) and inst.operands:
                    self.returns[g].append(inst.operand(0))
        # Every transfer function only adds facts, so the fixed point does not depend on the order of the
        # sweeps.  "varied" flows from definitions to uses and "useful" from uses to definitions: sweeping
        # forwards and backwards in turn moves both across a whole function per sweep, where forward sweeps
        # alone moved "useful" back one instruction per sweep (about 45 sweeps on a 5,000-instruction
        # straight-line function, most of its differentiation time).
        order = [inst for g in self.functions for inst in g.instructions()]
        while True:
            self.changed = False
            for inst in order:
                self.transfer(inst)
            self.close()
            if not self.changed:
                break
            order.reverse()

    def close(self) -> None:
        """Roots and reachability: what the caller owns a shadow of, and what it can read back."""
        active_roots = {o for a, o in self.arg_objects.items() if o.annotation in ("dup", "dupnoneed")}
        active_roots |= {self.global_object(g) for g in self.shadowed_globals}
        if self.ret_active:
            for r in self.returns[self.root]:
                self.mark(self.useful, r)
                if self.holds_pointer(r):
                    active_roots |= self.objs(r)
        owned = self.reach(active_roots)
        self.mark_mem(self.varied_mem, owned)
        self.mark_mem(self.useful_mem, owned)
        readable = [self.unknown, *self.global_objects.values()]
        if self.const_memory_read_back:
            readable += self.arg_objects.values()
        self.mark_mem(self.useful_mem, self.reach(readable))
        active = self.varied_mem & self.useful_mem
        grew = True
        while grew:  # memory holding pointers to active memory needs a shadow too
            grew = False
            for o in self.objects:
                if o not in active and self.contents[o] & active:
                    active.add(o)
                    grew = True
        if not active <= self.active_mem:
            self.active_mem |= active
            self.changed = True

    # -- transfer functions ------------------------------------------------------------
    def transfer(self, inst: Instruction) -> None:
        if isinstance(inst, LoadInst):
            self.load(inst, inst.pointer)
        elif isinstance(inst, StoreInst):
            self.store(inst.value, inst.pointer)
        elif isinstance(inst, AtomicRMWInst):
            ptr, val = inst.operands
            self.load(inst, ptr)
            self.store(val, ptr)
            if val in self.varied:
                self.mark(self.varied, inst)
        elif isinstance(inst, CmpXchgInst):
            ptr, _cmp, new = inst.operands
            self.load(inst, ptr)
            self.store(new, ptr)
        elif isinstance(inst, AllocaInst):
            self.add_pts(inst, [self.site_object(inst, "alloca")])
        elif isinstance(inst, GEPInst):
            self.add_pts(inst, self.objs(inst.pointer))
        elif isinstance(inst, CallInst):
            self.call(inst)
        elif isinstance(inst, (BinaryOperator, UnaryOperator, CastInst, PhiInst, SelectInst, ExtractValueInst,
                               InsertValueInst, ExtractElementInst, InsertElementInst, ShuffleVectorInst,
                               FreezeInst)):
            self.data_flow(inst, self.data_operands(inst))
            if isinstance(inst, CastInst) and inst.opcode == "inttoptr":
                self.add_pts(inst, [self.unknown])
        elif isinstance(inst, VAArgInst):
            self.load(inst, inst.operand(0))
            self.add_pts(inst, [self.unknown])
        elif isinstance(inst, LandingPadInst):
            self.add_pts(inst, [self.unknown])
        elif isinstance(inst, OpaqueInst):
            self.unknown_call(inst, inst.operands)

    @staticmethod
    def data_operands(inst: Instruction) -> Sequence[Value]:
        if isinstance(inst, PhiInst):
            return [v for v, _ in inst.incoming]
        if isinstance(inst, SelectInst):
            return inst.operands[1:]
        if isinstance(inst, (ExtractElementInst, InsertElementInst)):
            return inst.operands[:-1] if isinstance(inst, InsertElementInst) else inst.operands[:1]
        return inst.operands

    def data_flow(self, inst: Instruction, data: Sequence[Value]) -> None:
        for d in data:
            p = self.objs(d)
            if p:
                self.add_pts(inst, p)
        if any(d in self.varied for d in data):
            self.mark(self.varied, inst)
        if inst in self.useful:
            for d in data:
                self.mark(self.useful, d)

    def load(self, inst: Instruction, ptr: Value) -> None:
        p = self.objs(ptr)
        if _may_hold_pointer_bits(inst.type):
            for o in p:
                if self.contents[o]:
                    self.add_pts(inst, self.contents[o])
        if p & self.varied_mem:
            self.mark(self.varied, inst)
        if inst in self.useful:
            self.mark_mem(self.useful_mem, p)

    def store(self, val: Value, ptr: Value) -> None:
        p = self.objs(ptr)
        vp = self.objs(val)
        if vp:
            for o in p:
                self.add_contents(o, vp)
        if val in self.varied:
            self.mark_mem(self.varied_mem, p)
        if p & self.useful_mem:
            self.mark(self.useful, val)

    # -- calls ----------------------------------------------------------------------------
    def call(self, inst: CallInst) -> None:
        callee = inst.called_function
        args = inst.args
        kind = known.call_kind(callee.name) if callee is not None else "unknown"
        if kind == "unknown" and known.pure_intrinsic(callee, args):
            kind = "rule"  # arithmetic without a rule yet: the engine will ask for one
        if callee is not None and callee in self.rule_functions:
            kind = "rule"
        if kind == "inactive":
            if type_has_pointer(inst.type):
                self.add_pts(inst, [self.unknown])
        elif kind in ("alloc", "calloc"):
            block = self.site_object(inst, "heap")
            mf = known.memory_function(callee.name or "") if callee is not None else None
            out = known.memory_operand(args, mf.out) if mf is not None else None
            if out is None:
                self.add_pts(inst, [block])
            else:  # posix_memalign stores the new block through its first operand
                for o in self.objs(out):
                    self.add_contents(o, [block])
        elif kind in ("realloc", "free", "copy", "set"):
            self.memory_call(inst, kind, args)
        elif kind == "rule":
            self.rule_call(inst, args)
        elif kind == "communication":
            self.communication_call(inst, args)
        elif (callee is not None and not callee.is_declaration and not callee.function_type.vararg
              and len(args) == len(callee.args)):
            self.defined_call(inst, callee, args)
        else:
            self.unknown_call(inst, args + ([inst.callee] if callee is None else []))

    def memory_call(self, inst: CallInst, kind: str, args: list[Value]) -> None:
        """realloc, free, memcpy/memmove and memset, by the operand roles of the memory table."""
        callee = inst.called_function
        mf = known.memory_function(callee.name or "") if callee is not None else None
        assert mf is not None  # call_kind said it is a memory function
        dst_arg, src_arg = known.memory_operand(args, mf.dst), known.memory_operand(args, mf.src)
        dst = self.objs(dst_arg) if dst_arg is not None else set()
        if kind == "realloc":
            new = self.site_object(inst, "heap")
            self.add_pts(inst, [new])
            ptr = known.memory_operand(args, mf.ptr)
            old = self.objs(ptr) if ptr is not None else set()
            for o in old:
                self.add_contents(new, self.contents[o])
            if old & self.varied_mem:
                self.mark_mem(self.varied_mem, [new])
            if new in self.useful_mem:
                self.mark_mem(self.useful_mem, old)
        elif kind == "copy" and src_arg is not None:
            src = self.objs(src_arg)
            for d in dst:
                for s in src:
                    self.add_contents(d, self.contents[s])
            if src & self.varied_mem:
                self.mark_mem(self.varied_mem, dst)
            if dst & self.useful_mem:
                self.mark_mem(self.useful_mem, src)
        if mf.returns in (Returns.DST, Returns.DST_END):  # memcpy returns dst, mempcpy dst + n: same block
            self.add_pts(inst, dst)

    def rule_call(self, inst: CallInst, args: list[Value]) -> None:
        """A function with a derivative rule: arithmetic on its float operands, reading/writing pointees."""
        mem: set[MemoryObject] = set()
        for a in args:
            if self.holds_pointer(a):
                mem |= self.objs(a)
        if any(a in self.varied for a in args) or mem & self.varied_mem:
            self.mark(self.varied, inst)
            self.mark_mem(self.varied_mem, mem)
        if inst in self.useful or mem & self.useful_mem:
            for a in args:
                self.mark(self.useful, a)
            self.mark_mem(self.useful_mem, mem)
        if type_has_pointer(inst.type):
            self.add_pts(inst, [self.unknown])

    def communication_call(self, inst: CallInst, args: list[Value]) -> None:
        """An MPI call with a derivative (rules.mpi): data it sends may reach another rank's result, data it
        receives may carry another rank's derivatives, whatever this rank's own code does with them."""
        for buf, written in known.communication_buffers(inst.callee_name, args):
            self.mark_mem(self.useful_mem, self.objs(buf))
            if written:
                self.mark_mem(self.varied_mem, self.objs(buf))

    def defined_call(self, inst: CallInst, callee: Function, args: list[Value]) -> None:
        for a, formal in zip(args, callee.args):
            self.add_pts(formal, self.objs(a))
            if a in self.varied:
                self.mark(self.varied, formal)
            if formal in self.useful:
                self.mark(self.useful, a)
        site_varied = self._site_varied(callee, args)
        for r in self.returns.get(callee, []):
            self.add_pts(inst, self.objs(r))
            if r in self.varied and site_varied:
                self.mark(self.varied, inst)
            if inst in self.useful:
                self.mark(self.useful, r)

    def globals_used_by(self, callee: Function) -> set[MemoryObject]:
        """Objects of the globals named in ``callee`` and the functions it calls."""
        out = self._globals_used.get(callee)
        if out is None:
            out = set()
            for g in reachable_functions(callee):
                for inst in g.instructions():
                    for op in inst.operands:
                        if isinstance(op, Constant):
                            out |= {o for o in self.objs(op) if o.kind == "global"}
            self._globals_used[callee] = out
        return out

    def _site_varied(self, callee: Function, args: list[Value]) -> bool:
        """Can this call's result be varied, given what *its* arguments are?

        The callee's body is analysed for all its calls together; this keeps a
        call with constant arguments from inheriting another call's activity.
        """
        deps = self.ret_deps.get(callee, ALL_DEPS)
        if any(isinstance(d, int) and d < len(args) and args[d] in self.varied for d in deps):
            return True
        if MEMORY not in deps:
            return False
        start: set[MemoryObject] = {self.unknown, *self.global_objects.values()}
        for a in args:
            start |= self.objs(a)
        internal = self._internal.get(callee)
        if internal is None:
            internal = self._internal[callee] = {i for g in reachable_functions(callee) for i in g.instructions()}
        start |= {o for i, o in self.site_objects.items() if i in internal}
        return bool(self.reach(start) & self.varied_mem)

    def unknown_call(self, inst: Instruction, args: Sequence[Value]) -> None:
        """Code we cannot see: it may read and write everything reachable from its arguments and globals."""
        start: set[MemoryObject] = {self.unknown, *self.global_objects.values()}
        for a in args:
            start |= self.objs(a)
        p = self.reach(start)
        for o in p:
            self.add_contents(o, p)
        if not inst.type.is_void and _may_hold_pointer_bits(inst.type):
            self.add_pts(inst, p)
        if any(a in self.varied for a in args) or p & self.varied_mem:
            self.mark(self.varied, inst)
            self.mark_mem(self.varied_mem, p)
        if inst in self.useful or p & self.useful_mem:
            for a in args:
                self.mark(self.useful, a)
            self.mark_mem(self.useful_mem, p)

