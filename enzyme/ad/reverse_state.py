"""The state of one reverse-mode differentiation, apart from the walk that fills it.

``ReverseState`` holds what the augmented and reverse sweeps of one
function share: the augmented value of each primal value (``fwd``), the
shadows and adjoint slots of each lane (lanes.py), which values are
active, the tape, and the recompute-or-tape decision (recompute.py).  Its
public methods are what instruction and call handlers (handlers.py and the
family modules, reverse_calls.py) use; they never see the generator that
walks the blocks (reverse.py).
"""
from __future__ import annotations

from collections.abc import Callable

from ..analysis.layout import DataLayout
from ..errors import DifferentiationError
from ..ir import (AllocaInst, ArrayType, CallInst, CastInst, ConstantExpr, ConstantKeyword, ExtractValueInst,
                  FreezeInst, Function, FunctionType, GEPInst, GlobalVariable, InsertValueInst, Instruction, LoadInst,
                  PhiInst, SelectInst, StructType, Value)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I8, I64, PTR, VOID, FloatType, Type, VectorType
from .activity_plan import ActivityPlan
from .aggregate_shadows import holds_pointers, null_shadow_error
from .allocators import is_allocator_call
from .call_kinds import CallSites
from .common import (ADContext, address_origins, adjoint_zero, carries_float, describe, is_null_pointer,
                     underlying_global, value_name, zero)
from .code_pointers import needs_no_shadow
from .memcopy import string_characters
from .custom import custom_rules
from .indirect import reaches_shadowed_global, reverse_dispatchers
from .integer_addresses import AddressDisplacements
from .modes import Activities, Activity, Mode
from .recompute import Recomputation
from .lanes import LaneState
from .sweep_pair import SweepPair
from .tape import defer_free, slot_size, tape_functions

#: How the state gets the sweeps of a callee (the generator of reverse.py, for other functions).
SweepsOf = Callable[[Function, Activities], SweepPair]


def is_fp(t: Type) -> bool:
    return isinstance(t, FloatType) or (isinstance(t, VectorType) and isinstance(t.element, FloatType))


def fadd_deep(b: Builder, a: Value, d: Value) -> Value:
    """``a + d`` for floats, float vectors, and structs/arrays of them (integer and pointer fields kept)."""
    t = a.type
    if isinstance(t, (StructType, ArrayType)):
        elements = t.elements if isinstance(t, StructType) else (t.element,) * t.count
        for i, et in enumerate(elements):
            if carries_float(et):
                a = b.insertvalue(a, fadd_deep(b, b.extractvalue(a, [i]), b.extractvalue(d, [i])), [i])
        return a
    return b.fadd(a, d)


def returned_adjoints(b: Builder, res: Value) -> Value:
    """Adjoints handed to the user (a ``diffe``/split-mode result): ``+0.0`` where nothing contributed.

    Adjoints start from ``-0.0`` (common.adjoint_zero); adding ``+0.0`` turns only that zero positive,
    so callers see the zero gradient they expect.
    """
    return fadd_deep(b, res, zero(res.type))


class ReverseState(LaneState, Recomputation):
    """Maps and services of one function's augmented and reverse sweeps (see the module docstring)."""

    # Set by the generator (reverse.py) as it builds the sweeps.
    drets: list[Value]
    aug_tape: Value
    rev_tape: Value
    returns_shadow: bool
    return_bits: FloatType | None
    displacements: list[AddressDisplacements]
    plan: ActivityPlan  # what activity analysis lets the sweeps skip
    zero_usable: bool  # shadows of heap blocks a realloc may copy are zeroed over their usable size (realloc.py)

    def __init__(self, ctx: ADContext, fn: Function, activities: Activities, sweeps_of: SweepsOf,
                 top_level: bool = False, width: int = 1) -> None:
        if fn.is_declaration:
            raise DifferentiationError(f"@{fn.name} has no body to differentiate")
        self._init_lanes(width)  # shadows per lane (lanes.py)
        self.adj_slots: list[dict[Value, Value]] = [{} for _ in range(width)]  # primal value -> adjoint alloca
        # Adjoints of block-local values (see add_adjoint), per lane: primal value -> its adjoint so far in SSA.
        self.local_adjs: list[dict[Value, Value]] = [{} for _ in range(width)]
        self._block_local: dict[Value, bool] = {}
        self.top_level = top_level
        self.ctx = ctx
        self.m = ctx.module
        self.fn = fn
        self.acts = activities
        self.sweeps_of = sweeps_of
        self.call_site = CallSites(self.m, Mode.REVERSE)  # what each call's callee is, for both sweeps
        self.push_fn, self.pop_fn = tape_functions(self.m)
        self.fwd: dict[Value, Value] = {}      # primal -> augmented value
        self.active: set[Value] = set()        # primal float values that carry adjoints
        self.unshadowed: set[Instruction] = set()  # pointer phis/selects merging shadowless pointers
        self.inactive_locals: set[Instruction] = set()  # allocas activity analysis proves hold no derivatives
        self.float_bits: dict[Value, FloatType] = {}  # active integers holding float bits -> their adjoint type
        self.receives_active: dict[Value, bool] = {}  # allocas: may active data be stored into them?
        self.alloca_bytes: dict[Value, Value] = {}  # alloca -> its size in bytes (augmented)
        self.layout = DataLayout.of_module(ctx.module)
        self.realloc_copied: dict[Value, Value] = {}  # realloc -> shadow bytes it copied (augmented)
        self.custom_tapes: dict[Value, Value] = {}  # call with a custom gradient -> its rule's tape (augmented)

    @property
    def adj_slot(self) -> dict[Value, Value]:
        """The current lane's adjoint allocas (in the reverse function)."""
        return self.adj_slots[self.lane]

    def maybe_shadowed(self, p: Value) -> bool:
        """Conservative pre-pass check: could ``p`` point to memory with a shadow?"""
        if p in self.shadow:
            return True
        if p in self.inactive_locals:
            return False
        if isinstance(p, CastInst) and p.opcode == "inttoptr":
            x = p.operand(0)  # an address computed from a pointer, or loaded as an integer from shadowed memory
            return bool(address_origins(x, self.maybe_shadowed)) or (
                isinstance(x, LoadInst) and self.maybe_shadowed(x.pointer))
        if isinstance(p, (GEPInst, CastInst, ExtractValueInst, FreezeInst)):
            return self.maybe_shadowed(p.operand(0))
        if isinstance(p, InsertValueInst):
            return self.maybe_shadowed(p.operand(0)) or self.maybe_shadowed(p.operand(1))
        if isinstance(p, (AllocaInst, LoadInst, PhiInst, SelectInst, CallInst)):
            return holds_pointers(p.type)
        return False

    def shadow_or_null(self, inst: Instruction, v: Value) -> Value:
        """The shadow of ``v`` (a pointer or a struct holding pointers), else null shadows where that loses
        nothing; refused where it would lose derivatives."""
        s = self.shadow.get(v)
        if s is not None:
            return s
        error = self.null_shadow_error(inst, v)
        if error is not None:
            raise error
        return zero(v.type)

    def incoming_shadow(self, phi: Instruction, v: Value) -> Value:
        """The shadow of ``v`` coming into the pointer ``phi``.  Where ``v`` has none, a null shadow where that
        loses nothing: every value the phi merges is a std::string's data pointer (a moved-into string swaps its
        buffer with the source's), or ``v``'s memory holds no floats; refused otherwise."""
        s = self.shadow_or_none(v)
        if s is not None:
            return s
        if isinstance(phi, PhiInst) and all(string_characters(w) for w, _ in phi.incoming):
            return zero(v.type)
        if self.null_shadow_error(phi, v) is None:
            return zero(v.type)
        raise DifferentiationError(f"{describe(phi)}: a pointer that may point to active memory merges with one "
                                   "that has no shadow; not supported yet")

    def null_shadow_error(self, inst: Instruction, v: Value) -> DifferentiationError | None:
        """Why ``v`` (without a shadow) cannot take a null shadow at ``inst``, or None where that loses nothing."""
        return null_shadow_error(inst, v, lambda q: needs_no_shadow(self.ctx, self.fn, q))

    def offset_of(self, t: Type, path: tuple[int, ...]) -> int:
        """Byte offset of the element at ``path`` inside an aggregate of type ``t``."""
        off = 0
        for i in path:
            o, t = self.layout.element_offset(t, i)
            off += o
        return off

    def shadow_or_none(self, p: Value) -> Value | None:
        """The shadow of pointer ``p``; null, undef and addresses in the never-mapped first page (Rust's dangling
        ``NonNull`` of an empty Vec is its alignment) are their own shadows: nothing is ever read through them."""
        if isinstance(p, ConstantKeyword) and p.keyword in ("null", "undef", "poison") or is_dangling_address(p):
            return p
        if isinstance(p, Function):
            return p  # code holds no derivatives; calls through it dispatch on the primal pointer (indirect.py)
        if isinstance(p, (GlobalVariable, ConstantExpr)) and p not in self.shadow:
            g = underlying_global(p)
            if g is not None and g.is_constant and not carries_float(g.value_type):
                return p  # read-only data without floats (a C++ vtable) holds no derivatives, gets no adjoints
        return self.shadow.get(p)

    def heap_alloc(self, b: Builder, nbytes: Value, align: int, name: str | None) -> Value:
        if align <= 16:
            malloc = self.m.declare_function("malloc", FunctionType(PTR, (I64,)))
            return b.call(malloc, [nbytes], name=name)
        aligned = self.m.declare_function("aligned_alloc", FunctionType(PTR, (I64, I64)))
        rounded = b.binop("and", b.add(nbytes, const_int(I64, align - 1)), const_int(I64, -align))
        return b.call(aligned, [const_int(I64, align), rounded], name=name)

    def adjoint_type(self, v: Value) -> Type:
        """The type of ``v``'s adjoint: its own, or the float whose bits an integer holds."""
        return self.float_bits.get(v, v.type)

    def adjoint_slot(self, v: Value) -> Value:
        s = self.adj_slot.get(v)
        if s is None:
            t = self.adjoint_type(v)
            b = Builder(InsertPoint(self.rentry, self.rentry.instructions[0] if self.rentry.instructions else None))
            s = b.alloca(t, name=value_name(v, self.lane_suffix(".adj")))
            b.store(adjoint_zero(t), s)
            self.adj_slot[v] = s
        return s

    def block_local(self, v: Value) -> bool:
        """Is ``v`` a float (or float vector) whose every use is an ordinary instruction of its own block
        (no phi, no terminator)?

        Then every contribution to ``v``'s adjoint and its take happen in the reverse of that block,
        one straight line of code, and each visit of it starts from zero: the adjoint lives in SSA
        there (no alloca), and no ``0.0 + d`` is ever built.  (Aggregates keep their slots: the first
        contribution's integer and pointer fields are not adjoints.)
        """
        got = self._block_local.get(v)
        if got is None:
            got = isinstance(v, Instruction) and v.parent is not None and is_fp(self.adjoint_type(v)) and all(
                isinstance(u.user, Instruction) and u.user.parent is v.parent and not isinstance(u.user, PhiInst)
                and not u.user.is_terminator for u in v.uses)
            self._block_local[v] = got
        return got

    def start_block(self) -> None:
        """A new reverse block begins: block-local adjoints start from zero."""
        for lane in self.local_adjs:
            lane.clear()

    def add_adjoint(self, b: Builder, v: Value, d: Value) -> None:
        if v not in self.active:
            return
        if self.block_local(v):
            # The first contribution is ``d`` itself, not ``-0.0 + d`` (the same number, see adjoint_zero).
            local = self.local_adjs[self.lane]
            prev = local.get(v)
            local[v] = d if prev is None else fadd_deep(b, prev, d)
            return
        s = self.adjoint_slot(v)
        b.store(fadd_deep(b, b.load(self.adjoint_type(v), s), d), s)

    def load_adjoint(self, b: Builder, v: Value) -> Value:
        if self.block_local(v):
            got = self.local_adjs[self.lane].get(v)
            return got if got is not None else adjoint_zero(self.adjoint_type(v))
        return b.load(self.adjoint_type(v), self.adjoint_slot(v))

    def take_adjoint(self, b: Builder, v: Value) -> Value:
        """Read the adjoint of ``v`` and reset it (each loop iteration starts from zero)."""
        t = self.adjoint_type(v)
        if self.block_local(v):
            got = self.local_adjs[self.lane].pop(v, None)
            return got if got is not None else adjoint_zero(t)
        s = self.adjoint_slot(v)
        d = b.load(t, s)
        b.store(adjoint_zero(t), s)
        return d

    def push(self, b: Builder, v: Value) -> None:
        slot = b.call(self.push_fn, [self.aug_tape, const_int(I64, slot_size(v.type, self.layout))])
        b.store(v, slot, 8)  # slots are 8-byte aligned: vectors must not assume their ABI alignment

    def pop(self, b: Builder, t: Type) -> Value:
        slot = b.call(self.pop_fn, [self.rev_tape, const_int(I64, slot_size(t, self.layout))])
        return b.load(t, slot, align=8)

    def push_group(self, b: Builder, values: list[Value]) -> None:
        """Push ``values`` as one entry of the tape (one capacity check), each in its 8-byte aligned slot."""
        if len(values) <= 1:
            for v in values:
                self.push(b, v)
            return
        offsets = self._group_offsets([v.type for v in values])
        base = b.call(self.push_fn, [self.aug_tape, const_int(I64, offsets[-1])])
        for v, offset in zip(values, offsets):
            b.store(v, b.gep(I8, base, [offset], inbounds=True), 8)

    def pop_group(self, b: Builder, types: list[Type]) -> list[Value]:
        """The values ``push_group`` pushed (in the same order), popped as one entry."""
        if len(types) <= 1:
            return [self.pop(b, t) for t in types]
        offsets = self._group_offsets(types)
        base = b.call(self.pop_fn, [self.rev_tape, const_int(I64, offsets[-1])])
        return [b.load(t, b.gep(I8, base, [offset], inbounds=True), align=8) for t, offset in zip(types, offsets)]

    def _group_offsets(self, types: list[Type]) -> list[int]:
        """Each value's byte offset in a group entry, then the entry's size."""
        offsets = [0]
        for t in types:
            offsets.append(offsets[-1] + slot_size(t, self.layout))
        return offsets

    def free_after_reverse(self, b: Builder, block: Value, primal: Value) -> None:
        """Free ``primal`` (the augmented ``block``) and its shadows (all lanes) after the reverse sweep."""
        defer_free(self.m, b, self.aug_tape, primal)
        for lane in self.shadows:
            if block in lane:
                defer_free(self.m, b, self.aug_tape, lane[block])

    def release_custom_allocation(self, b: Builder, inst: CallInst) -> None:
        """An allocation_like block and its shadows (all lanes) go back to the user's deallocator."""
        spec = custom_rules(self.m).allocation(inst)
        assert spec is not None
        allocator_args = inst.args

        def allocator_arg(k: int) -> Value:
            return self.primal(allocator_args[k])

        for lane in self.shadows:
            b.call(spec.deallocator, spec.release_args(self.available(lane[inst]), allocator_arg))
        b.call(spec.deallocator, spec.release_args(self.primal(inst), allocator_arg))

    def free_both(self, b: Builder, inst: Instruction) -> None:
        """Free a stack object moved to the heap, and its shadows (all lanes), once the reverse sweep has passed it."""
        free = self.m.declare_function("free", FunctionType(VOID, (PTR,)))
        for lane in self.shadows:
            if inst in lane:
                b.call(free, [self.available(lane[inst])])
        b.call(free, [self.primal(inst)])

    def call_activities(self, inst: CallInst) -> Activities | None:
        """The activities of a call's arguments for the callee's sweeps; None if nothing is active."""
        acts = []
        for a in inst.args:
            if holds_pointers(a.type) and a in self.shadow:
                if a in self.active:
                    raise DifferentiationError(f"{describe(inst)}: passes a {a.type} mixing pointers and active "
                                               "floating-point values by value; not supported in reverse mode yet")
                acts.append(Activity.DUP)
            elif (is_fp(a.type) or a in self.float_bits) and a in self.active:
                acts.append(Activity.ACTIVE)
            else:
                acts.append(Activity.CONST)
        if all(x is Activity.CONST for x in acts) and inst not in self.active and not is_allocator_call(self.ctx, inst) \
                and not reaches_shadowed_global(self.ctx, inst):
            return None
        # A null pointer is its own shadow: the callee may store it beside shadowed pointers (a list's end).
        return tuple(Activity.DUP if is_null_pointer(a) else x for a, x in zip(inst.args, acts))

    def indirect_pair(self, inst: CallInst, acts: Activities) -> SweepPair:
        return reverse_dispatchers(self.ctx, inst, acts, self.width, lambda g: self.sweeps_of(g, acts))


def is_dangling_address(p: Value) -> bool:
    """``inttoptr (i64 C to ptr)`` with 0 < C < 4096: an address no allocation can have."""
    from ..ir import ConstantExpr, ConstantInt
    return (isinstance(p, ConstantExpr) and p.opcode == "inttoptr" and isinstance(p.operands[0], ConstantInt)
            and 0 < p.operands[0].value < 4096)
