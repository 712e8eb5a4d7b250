"""Instructions.

Each class knows its operands (as tracked uses) and how to spell its body;
the printer adds ``%name = `` in front and metadata attachments behind.
Words the model does not interpret (flags, attributes, orderings) are kept
as text so they print back unchanged.
"""
from __future__ import annotations

from typing import Callable, Protocol, Sequence

from .blocks import Block, Function
from .types import LABEL, VOID, FunctionType, OpaqueType, Type
from .values import Constant, User, Value


# The slots of each instruction class and its bases, for Instruction.clone.
_SLOTS: dict[type, tuple[str, ...]] = {}


class Spelling(Protocol):
    """What an instruction needs from the printer."""

    def ref(self, v: Value) -> str: ...

    def typed(self, v: Value) -> str: ...


BINARY_OPCODES = frozenset({
    "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor",
    "fadd", "fsub", "fmul", "fdiv", "frem"})
FP_BINARY_OPCODES = frozenset({"fadd", "fsub", "fmul", "fdiv", "frem"})
CAST_OPCODES = frozenset({
    "trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp",
    "ptrtoint", "ptrtoaddr", "inttoptr", "bitcast", "addrspacecast"})
TERMINATOR_OPCODES = frozenset({
    "ret", "br", "switch", "indirectbr", "invoke", "callbr", "resume", "unreachable",
    "catchswitch", "catchret", "cleanupret"})


def _words(flags: Sequence[str]) -> str:
    return "".join(" " + f for f in flags)


class Instruction(User):
    """Base class; ``opcode`` is LLVM's keyword for the instruction."""

    __slots__ = ("parent", "opcode", "metadata", "debug_records")

    def __init__(self, opcode: str, type: Type, operands: Sequence[Value] = (), name: str | None = None) -> None:
        super().__init__(type, list(operands), name)
        self.parent: Block | None = None
        self.opcode = opcode
        self.metadata: list[tuple[str, str]] = []
        self.debug_records: list[DebugRecord] = []

    # -- structure -----------------------------------------------------------
    @property
    def is_terminator(self) -> bool:
        return self.opcode in TERMINATOR_OPCODES

    @property
    def function(self) -> "Function | None":
        return self.parent.parent if self.parent is not None else None

    def successor_blocks(self) -> list["Block"]:
        return [v for v in self.operands if isinstance(v, Block)]

    def get_metadata(self, kind: str) -> str | None:
        for k, v in self.metadata:
            if k == kind:
                return v
        return None

    def body(self, p: Spelling) -> str:
        raise NotImplementedError

    # -- editing ---------------------------------------------------------------
    def clone(self, mapper: Callable[[Value], Value] = lambda v: v) -> "Instruction":
        """A detached copy whose operands are ``mapper(operand)``; no name, no debug records.

        Metadata attachments other than ``!dbg`` are kept (a ``!dbg`` location
        belongs to the original function's subprogram).
        """
        cls = type(self)
        new = object.__new__(cls)
        slots = _SLOTS.get(cls)
        if slots is None:
            slots = _SLOTS[cls] = tuple(slot for c in cls.__mro__ for slot in getattr(c, "__slots__", ())
                                        if slot != "__weakref__")
        for slot in slots:
            if hasattr(self, slot):
                v = getattr(self, slot)
                object.__setattr__(new, slot, list(v) if isinstance(v, list) else v)
        new._uses = {}
        new._ops = []
        new._values = ()
        new.name = None
        new.parent = None
        new.debug_records = []
        new.metadata = [(k, v) for k, v in self.metadata if k != "dbg"]
        for u in self._ops:
            new._append_operand(mapper(u.value))
        return new

    def remove_from_parent(self) -> None:
        assert self.parent is not None
        self.parent.instructions.remove(self)
        self.parent = None

    def erase(self) -> None:
        """Delete an instruction that nothing uses any more (debug uses become ``poison``)."""
        for use in self.uses:
            if isinstance(use.user, DebugRecord):
                use.user.drop_value(use.index)
        if self.has_uses:
            users = ", ".join(getattr(u.user, "opcode", type(u.user).__name__) for u in self.uses[:3])
            raise ValueError(f"cannot erase {self.opcode} {self.name or ''}: still used by {users}")
        if self.parent is not None:
            self.remove_from_parent()
        for rec in self.debug_records:
            rec.drop_operands()
        self.debug_records = []
        self.drop_operands()

    def __repr__(self) -> str:
        return f"<{self.opcode} {self.name or ''}: {self.type}>"


class BinaryOperator(Instruction):
    __slots__ = ("flags",)

    def __init__(self, opcode: str, lhs: Value, rhs: Value, flags: Sequence[str] = (), name: str | None = None):
        super().__init__(opcode, lhs.type, [lhs, rhs], name)
        self.flags = list(flags)

    def body(self, p: Spelling) -> str:
        a, b = self.operands
        return f"{self.opcode}{_words(self.flags)} {p.typed(a)}, {p.ref(b)}"


class UnaryOperator(Instruction):
    __slots__ = ("flags",)

    def __init__(self, opcode: str, x: Value, flags: Sequence[str] = (), name: str | None = None):
        super().__init__(opcode, x.type, [x], name)
        self.flags = list(flags)

    def body(self, p: Spelling) -> str:
        return f"{self.opcode}{_words(self.flags)} {p.typed(self.operand(0))}"


class CastInst(Instruction):
    __slots__ = ("flags",)

    def __init__(self, opcode: str, x: Value, to: Type, flags: Sequence[str] = (), name: str | None = None):
        super().__init__(opcode, to, [x], name)
        self.flags = list(flags)

    def body(self, p: Spelling) -> str:
        return f"{self.opcode}{_words(self.flags)} {p.typed(self.operand(0))} to {self.type}"


class CmpInst(Instruction):
    """``icmp``/``fcmp``; ``type`` is i1 or a vector of i1."""

    __slots__ = ("predicate", "flags")

    def __init__(self, opcode: str, predicate: str, a: Value, b: Value, type: Type,
                 flags: Sequence[str] = (), name: str | None = None):
        super().__init__(opcode, type, [a, b], name)
        self.predicate = predicate
        self.flags = list(flags)

    def body(self, p: Spelling) -> str:
        a, b = self.operands
        return f"{self.opcode}{_words(self.flags)} {self.predicate} {p.typed(a)}, {p.ref(b)}"


class SelectInst(Instruction):
    __slots__ = ("flags",)

    def __init__(self, cond: Value, a: Value, b: Value, flags: Sequence[str] = (), name: str | None = None):
        super().__init__("select", a.type, [cond, a, b], name)
        self.flags = list(flags)

    def body(self, p: Spelling) -> str:
        c, a, b = self.operands
        return f"select{_words(self.flags)} {p.typed(c)}, {p.typed(a)}, {p.typed(b)}"


class PhiInst(Instruction):
    """Operands alternate value, block."""

    __slots__ = ("flags",)

    def __init__(self, type: Type, incoming: Sequence[tuple[Value, "Block"]] = (),
                 flags: Sequence[str] = (), name: str | None = None):
        ops: list[Value] = []
        for v, b in incoming:
            ops += [v, b]
        super().__init__("phi", type, ops, name)
        self.flags = list(flags)

    @property
    def incoming(self) -> list[tuple[Value, "Block"]]:
        ops = self.operands
        return [(ops[i], ops[i + 1]) for i in range(0, len(ops), 2)]  # type: ignore[misc]

    def add_incoming(self, value: Value, block: "Block") -> None:
        self._append_operand(value)
        self._append_operand(block)

    def remove_incoming(self, block: "Block") -> None:
        for i in range(len(self._ops) - 2, -1, -2):
            if self._ops[i + 1].value is block:
                self._remove_operand(i + 1)
                self._remove_operand(i)

    def value_for(self, block: "Block") -> Value:
        for v, b in self.incoming:
            if b is block:
                return v
        raise KeyError(block)

    def body(self, p: Spelling) -> str:
        pairs = ", ".join(f"[ {p.ref(v)}, {p.ref(b)} ]" for v, b in self.incoming)
        return f"phi{_words(self.flags)} {self.type} {pairs}"


class AllocaInst(Instruction):
    """``alloca [flags] T[, ty n][, align a]<tail>``; result type is a pointer."""

    __slots__ = ("allocated_type", "align", "flags", "tail")

    def __init__(self, allocated_type: Type, count: Value | None = None, align: int | None = None,
                 type: Type | None = None, flags: Sequence[str] = (), tail: str = "", name: str | None = None):
        from .types import PTR
        super().__init__("alloca", type or PTR, [count] if count is not None else [], name)
        self.allocated_type = allocated_type
        self.align = align
        self.flags = list(flags)
        self.tail = tail

    @property
    def count(self) -> Value | None:
        return self.operand(0) if self._ops else None

    def body(self, p: Spelling) -> str:
        s = f"alloca{_words(self.flags)} {self.allocated_type}"
        if self._ops:
            s += f", {p.typed(self.operand(0))}"
        if self.align is not None:
            s += f", align {self.align}"
        return s + self.tail


class LoadInst(Instruction):
    """``ordering`` is e.g. ``syncscope("x") acquire`` for atomic loads, else empty."""

    __slots__ = ("align", "volatile", "atomic", "ordering", "tail")

    def __init__(self, type: Type, ptr: Value, align: int | None = None, volatile: bool = False,
                 atomic: bool = False, ordering: str = "", tail: str = "", name: str | None = None):
        super().__init__("load", type, [ptr], name)
        self.align, self.volatile, self.atomic, self.ordering, self.tail = align, volatile, atomic, ordering, tail

    @property
    def pointer(self) -> Value:
        return self.operand(0)

    def body(self, p: Spelling) -> str:
        s = "load" + (" atomic" if self.atomic else "") + (" volatile" if self.volatile else "")
        s += f" {self.type}, {p.typed(self.operand(0))}"
        if self.ordering:
            s += " " + self.ordering
        if self.align is not None:
            s += f", align {self.align}"
        return s + self.tail


class StoreInst(Instruction):
    __slots__ = ("align", "volatile", "atomic", "ordering", "tail")

    def __init__(self, value: Value, ptr: Value, align: int | None = None, volatile: bool = False,
                 atomic: bool = False, ordering: str = "", tail: str = ""):
        super().__init__("store", VOID, [value, ptr])
        self.align, self.volatile, self.atomic, self.ordering, self.tail = align, volatile, atomic, ordering, tail

    @property
    def value(self) -> Value:
        return self.operand(0)

    @property
    def pointer(self) -> Value:
        return self.operand(1)

    def body(self, p: Spelling) -> str:
        s = "store" + (" atomic" if self.atomic else "") + (" volatile" if self.volatile else "")
        s += f" {p.typed(self.operand(0))}, {p.typed(self.operand(1))}"
        if self.ordering:
            s += " " + self.ordering
        if self.align is not None:
            s += f", align {self.align}"
        return s + self.tail


class GEPInst(Instruction):
    """``getelementptr [flags] SourceType, ptr p, idx...``."""

    __slots__ = ("source_type", "flags")

    def __init__(self, source_type: Type, ptr: Value, indices: Sequence[Value], type: Type | None = None,
                 flags: Sequence[str] = (), name: str | None = None):
        super().__init__("getelementptr", type or ptr.type, [ptr, *indices], name)
        self.source_type = source_type
        self.flags = list(flags)

    @property
    def pointer(self) -> Value:
        return self.operand(0)

    @property
    def indices(self) -> list[Value]:
        return list(self.operands[1:])

    def body(self, p: Spelling) -> str:
        ops = ", ".join(p.typed(v) for v in self.operands)
        return f"getelementptr{_words(self.flags)} {self.source_type}, {ops}"


class CallInst(Instruction):
    """A call.  Operands: arguments, then operand-bundle inputs, then the callee.

    ``prefix`` holds calling convention, return attributes and address space
    (``fastcc noundef``); ``fn_attrs`` the attributes after the argument list
    (``#8`` or ``nounwind``); ``bundles`` the tags and input counts.
    """

    __slots__ = ("function_type", "tail_kind", "flags", "prefix", "arg_attrs", "fn_attrs", "bundles", "n_args")

    def __init__(self, function_type: FunctionType, callee: Value, args: Sequence[Value], *,
                 arg_attrs: Sequence[str] | None = None, tail_kind: str = "", flags: Sequence[str] = (),
                 prefix: str = "", fn_attrs: str = "", bundles: Sequence[tuple[str, Sequence[Value]]] = (),
                 name: str | None = None, opcode: str = "call"):
        ops: list[Value] = list(args)
        for _, inputs in bundles:
            ops += list(inputs)
        ops.append(callee)
        super().__init__(opcode, function_type.ret, ops, name)
        self.function_type = function_type
        self.n_args = len(args)
        self.arg_attrs = list(arg_attrs) if arg_attrs is not None else [""] * len(args)
        self.tail_kind = tail_kind
        self.flags = list(flags)
        self.prefix = prefix
        self.fn_attrs = fn_attrs
        self.bundles = [(tag, len(inputs)) for tag, inputs in bundles]

    @property
    def callee(self) -> Value:
        return self._ops[self._callee_index()].value

    def _callee_index(self) -> int:
        return self.n_args + sum(n for _, n in self.bundles)

    @property
    def args(self) -> list[Value]:
        return [u.value for u in self._ops[:self.n_args]]

    @property
    def called_function(self) -> "Function | None":
        c = self.callee
        return c if isinstance(c, Function) else None

    @property
    def callee_name(self) -> str | None:
        f = self.called_function
        return f.name if f is not None else None

    def _call_text(self, p: Spelling) -> str:
        ft = self.function_type
        shown = ft if ft.vararg else ft.ret
        args = ", ".join(
            f"{v.type}{' ' + a if a else ''} {p.ref(v)}" for v, a in zip(self.args, self.arg_attrs))
        pre = f" {self.prefix}" if self.prefix else ""
        s = f"{pre} {shown} {p.ref(self.callee)}({args})"
        if self.fn_attrs:
            s += " " + self.fn_attrs
        if self.bundles:
            parts, i = [], self.n_args
            for tag, n in self.bundles:
                ins = ", ".join(p.typed(u.value) for u in self._ops[i:i + n])
                parts.append(f"{tag}({ins})")
                i += n
            s += " [ " + ", ".join(parts) + " ]"
        return s

    def body(self, p: Spelling) -> str:
        tk = f"{self.tail_kind} " if self.tail_kind else ""
        return f"{tk}call{_words(self.flags)}{self._call_text(p)}"


class InvokeInst(CallInst):
    """A call with normal and unwind destinations (the last two operands)."""

    __slots__ = ()

    def __init__(self, function_type: FunctionType, callee: Value, args: Sequence[Value], normal: "Block",
                 unwind: "Block", **kw: object):
        super().__init__(function_type, callee, args, opcode="invoke", **kw)  # type: ignore[arg-type]
        self._append_operand(normal)
        self._append_operand(unwind)

    @property
    def normal_dest(self) -> "Block":
        return self._ops[-2].value  # type: ignore[return-value]

    @property
    def unwind_dest(self) -> "Block":
        return self._ops[-1].value  # type: ignore[return-value]

    def successor_blocks(self) -> list["Block"]:
        return [self.normal_dest, self.unwind_dest]

    def body(self, p: Spelling) -> str:
        return (f"invoke{_words(self.flags)}{self._call_text(p)}\n          to {p.typed(self.normal_dest)}"
                f" unwind {p.typed(self.unwind_dest)}")


def invoke_as_call(inv: InvokeInst) -> CallInst:
    """A detached ``call`` doing what ``inv`` does, without its destinations."""
    bundles, k = [], inv.n_args
    ops = [u.value for u in inv.operand_uses]
    for tag, n in inv.bundles:
        bundles.append((tag, ops[k:k + n]))
        k += n
    call = CallInst(inv.function_type, inv.callee, inv.args, arg_attrs=inv.arg_attrs, flags=inv.flags,
                    prefix=inv.prefix, fn_attrs=inv.fn_attrs, bundles=bundles)
    call.metadata = list(inv.metadata)
    return call


class ReturnInst(Instruction):
    __slots__ = ()

    def __init__(self, value: Value | None = None):
        super().__init__("ret", VOID, [value] if value is not None else [])

    @property
    def value(self) -> Value | None:
        return self.operand(0) if self._ops else None

    def body(self, p: Spelling) -> str:
        return f"ret {p.typed(self.operand(0))}" if self._ops else "ret void"


class BranchInst(Instruction):
    """``br label %d`` or ``br i1 %c, label %t, label %f``."""

    __slots__ = ()

    def __init__(self, *operands: Value):
        super().__init__("br", VOID, list(operands))

    @property
    def is_conditional(self) -> bool:
        return len(self._ops) == 3

    @property
    def condition(self) -> Value:
        return self.operand(0)

    def body(self, p: Spelling) -> str:
        return "br " + ", ".join(p.typed(v) for v in self.operands)


class SwitchInst(Instruction):
    """Operands: condition, default, then (case value, block) pairs."""

    __slots__ = ()

    def __init__(self, cond: Value, default: "Block", cases: Sequence[tuple[Value, "Block"]] = ()):
        ops: list[Value] = [cond, default]
        for v, b in cases:
            ops += [v, b]
        super().__init__("switch", VOID, ops)

    @property
    def cases(self) -> list[tuple[Value, "Block"]]:
        ops = self.operands
        return [(ops[i], ops[i + 1]) for i in range(2, len(ops), 2)]  # type: ignore[misc]

    def body(self, p: Spelling) -> str:
        cases = "".join(f"\n    {p.typed(v)}, {p.typed(b)}" for v, b in self.cases)
        return f"switch {p.typed(self.operand(0))}, {p.typed(self.operand(1))} [{cases}\n  ]"


class UnreachableInst(Instruction):
    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("unreachable", VOID)

    def body(self, p: Spelling) -> str:
        return "unreachable"


class ResumeInst(Instruction):
    __slots__ = ()

    def __init__(self, value: Value):
        super().__init__("resume", VOID, [value])

    def body(self, p: Spelling) -> str:
        return f"resume {p.typed(self.operand(0))}"


class ExtractValueInst(Instruction):
    __slots__ = ("indices",)

    def __init__(self, agg: Value, indices: Sequence[int], type: Type, name: str | None = None):
        super().__init__("extractvalue", type, [agg], name)
        self.indices = list(indices)

    def body(self, p: Spelling) -> str:
        return f"extractvalue {p.typed(self.operand(0))}, " + ", ".join(map(str, self.indices))


class InsertValueInst(Instruction):
    __slots__ = ("indices",)

    def __init__(self, agg: Value, value: Value, indices: Sequence[int], name: str | None = None):
        super().__init__("insertvalue", agg.type, [agg, value], name)
        self.indices = list(indices)

    def body(self, p: Spelling) -> str:
        a, v = self.operands
        return f"insertvalue {p.typed(a)}, {p.typed(v)}, " + ", ".join(map(str, self.indices))


class ExtractElementInst(Instruction):
    __slots__ = ()

    def __init__(self, vec: Value, index: Value, name: str | None = None):
        super().__init__("extractelement", vec.type.element, [vec, index], name)  # type: ignore[attr-defined]

    def body(self, p: Spelling) -> str:
        return "extractelement " + ", ".join(p.typed(v) for v in self.operands)


class InsertElementInst(Instruction):
    __slots__ = ()

    def __init__(self, vec: Value, value: Value, index: Value, name: str | None = None):
        super().__init__("insertelement", vec.type, [vec, value, index], name)

    def body(self, p: Spelling) -> str:
        return "insertelement " + ", ".join(p.typed(v) for v in self.operands)


class ShuffleVectorInst(Instruction):
    """The mask is a constant that is not an operand (as in LLVM)."""

    __slots__ = ("mask",)

    def __init__(self, a: Value, b: Value, mask: Constant, type: Type, name: str | None = None):
        super().__init__("shufflevector", type, [a, b], name)
        self.mask = mask

    def body(self, p: Spelling) -> str:
        a, b = self.operands
        return f"shufflevector {p.typed(a)}, {p.typed(b)}, {self.mask.type} {self.mask.text()}"


class FreezeInst(Instruction):
    __slots__ = ()

    def __init__(self, x: Value, name: str | None = None):
        super().__init__("freeze", x.type, [x], name)

    def body(self, p: Spelling) -> str:
        return f"freeze {p.typed(self.operand(0))}"


class VAArgInst(Instruction):
    __slots__ = ()

    def __init__(self, ptr: Value, type: Type, name: str | None = None):
        super().__init__("va_arg", type, [ptr], name)

    def body(self, p: Spelling) -> str:
        return f"va_arg {p.typed(self.operand(0))}, {self.type}"


class AtomicRMWInst(Instruction):
    """``atomicrmw [volatile] op ptr p, T v <ordering>[, align a]``."""

    __slots__ = ("operation", "volatile", "ordering", "align")

    def __init__(self, operation: str, ptr: Value, value: Value, ordering: str, align: int | None = None,
                 volatile: bool = False, name: str | None = None):
        super().__init__("atomicrmw", value.type, [ptr, value], name)
        self.operation, self.ordering, self.align, self.volatile = operation, ordering, align, volatile

    def body(self, p: Spelling) -> str:
        a, v = self.operands
        s = f"atomicrmw{' volatile' if self.volatile else ''} {self.operation} {p.typed(a)}, {p.typed(v)} {self.ordering}"
        return s + (f", align {self.align}" if self.align is not None else "")


class CmpXchgInst(Instruction):
    __slots__ = ("flags", "ordering", "align")

    def __init__(self, ptr: Value, cmp: Value, new: Value, ordering: str, type: Type, flags: Sequence[str] = (),
                 align: int | None = None, name: str | None = None):
        super().__init__("cmpxchg", type, [ptr, cmp, new], name)
        self.flags, self.ordering, self.align = list(flags), ordering, align

    def body(self, p: Spelling) -> str:
        ops = ", ".join(p.typed(v) for v in self.operands)
        s = f"cmpxchg{_words(self.flags)} {ops} {self.ordering}"
        return s + (f", align {self.align}" if self.align is not None else "")


class FenceInst(Instruction):
    __slots__ = ("ordering",)

    def __init__(self, ordering: str):
        super().__init__("fence", VOID)
        self.ordering = ordering

    def body(self, p: Spelling) -> str:
        return f"fence {self.ordering}"


class LandingPadInst(Instruction):
    """Clauses are ``catch``/``filter`` with a constant operand each."""

    __slots__ = ("cleanup", "clause_kinds")

    def __init__(self, type: Type, cleanup: bool = False, clauses: Sequence[tuple[str, Value]] = (),
                 name: str | None = None):
        super().__init__("landingpad", type, [v for _, v in clauses], name)
        self.cleanup = cleanup
        self.clause_kinds = [k for k, _ in clauses]

    def body(self, p: Spelling) -> str:
        s = f"landingpad {self.type}" + ("\n          cleanup" if self.cleanup else "")
        for k, v in zip(self.clause_kinds, self.operands):
            s += f"\n          {k} {p.typed(v)}"
        return s


class OpaqueInst(Instruction):
    """An instruction the model does not interpret, kept as text with tracked value references.

    ``pieces`` alternates literal text (``str``) and operand indices (``int``).
    Its result type is unknown to the model; the AD engine refuses it.
    """

    __slots__ = ("pieces",)

    def __init__(self, opcode: str, pieces: list[str | int], operands: Sequence[Value], has_result: bool,
                 name: str | None = None):
        super().__init__(opcode, OpaqueType() if has_result else VOID, operands, name)
        self.pieces = pieces

    def body(self, p: Spelling) -> str:
        return "".join(x if isinstance(x, str) else p.ref(self.operand(x)) for x in self.pieces)

    def successor_blocks(self) -> list["Block"]:
        return [v for v in self.operands if v.type == LABEL]  # type: ignore[misc]


class DebugRecord(User):
    """``#dbg_value(...)`` and friends, attached before an instruction.

    Kept as text pieces with tracked value references, like :class:`OpaqueInst`.
    """

    __slots__ = ("kind", "pieces")

    def __init__(self, kind: str, pieces: list[str | int], operands: Sequence[Value]):
        super().__init__(VOID, list(operands))
        self.kind = kind
        self.pieces = pieces

    def drop_value(self, index: int) -> None:
        """Replace a reference to a deleted value by ``poison`` (as LLVM does)."""
        from .values import ConstantKeyword
        self.set_operand(index, ConstantKeyword(self.operand(index).type, "poison"))

    def text(self, p: Spelling) -> str:
        inner = "".join(x if isinstance(x, str) else p.ref(self.operand(x)) for x in self.pieces)
        return f"#dbg_{self.kind}({inner})"
