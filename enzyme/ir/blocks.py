"""Basic blocks, functions and the module."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from .types import LABEL, PTR, FunctionType, NamedStructType, Type
from .values import Argument, GlobalAlias, GlobalValue, GlobalVariable, Value

if TYPE_CHECKING:
    from .instructions import Instruction, PhiInst


class Block(Value):
    """A basic block: a label value owning a list of instructions."""

    __slots__ = ("parent", "instructions")

    def __init__(self, name: str | None = None, parent: "Function | None" = None) -> None:
        super().__init__(LABEL, name)
        self.parent = parent
        self.instructions: list[Instruction] = []

    @property
    def terminator(self) -> "Instruction | None":
        if self.instructions and self.instructions[-1].is_terminator:
            return self.instructions[-1]
        return None

    @property
    def successors(self) -> list["Block"]:
        term = self.terminator
        if term is None:
            return []
        out: dict[Block, None] = {}
        for op in term.successor_blocks():
            out[op] = None
        return list(out)

    @property
    def predecessors(self) -> list["Block"]:
        """Blocks whose terminator branches here (in use order, no duplicates)."""
        out: dict[Block, None] = {}
        for use in self._uses:
            user = use.user
            if getattr(user, "is_terminator", False) and user.parent is not None:  # type: ignore[attr-defined]
                out[user.parent] = None  # type: ignore[attr-defined]
        return list(out)

    def phis(self) -> list["PhiInst"]:
        from .instructions import PhiInst
        out = []
        for inst in self.instructions:
            if not isinstance(inst, PhiInst):
                break
            out.append(inst)
        return out

    def first_non_phi_index(self) -> int:
        from .instructions import LandingPadInst, PhiInst
        for i, inst in enumerate(self.instructions):
            if not isinstance(inst, (PhiInst, LandingPadInst)):
                return i
        return len(self.instructions)

    def append(self, inst: "Instruction") -> "Instruction":
        return self.insert(len(self.instructions), inst)

    def insert(self, index: int, inst: "Instruction") -> "Instruction":
        assert inst.parent is None, "instruction already belongs to a block"
        self.instructions.insert(index, inst)
        inst.parent = self
        return inst

    def erase(self) -> None:
        """Remove this (unreferenced) block and its instructions from its function."""
        if self.has_uses:
            users = ", ".join(type(u.user).__name__ for u in self.uses[:3])
            raise ValueError(f"cannot erase block {self.name!r}: still used by {users}")
        for inst in reversed(list(self.instructions)):
            inst.drop_operands()
            inst.parent = None
        self.instructions = []
        if self.parent is not None:
            self.parent.blocks.remove(self)
            self.parent = None

    def __repr__(self) -> str:
        return f"<Block {self.name!r}>"


class Function(GlobalValue):
    """``define``/``declare`` of a function.

    ``prefix`` is the text between the keyword and the return type (linkage,
    visibility, calling convention, return attributes); ``suffix`` is the text
    between the parameter list and the body (function attributes, section,
    personality, metadata attachments).
    """

    __slots__ = ("prefix", "function_type", "args", "suffix", "blocks")

    def __init__(self, name: str, function_type: FunctionType, *, arg_names: list[str | None] | None = None,
                 arg_attrs: list[str] | None = None, prefix: str = "", suffix: str = "") -> None:
        super().__init__(name, PTR)
        self.prefix = prefix
        self.function_type = function_type
        self.suffix = suffix
        names = arg_names or [None] * len(function_type.params)
        attrs = arg_attrs or [""] * len(function_type.params)
        self.args = [Argument(t, n, self, i, a)
                     for i, (t, n, a) in enumerate(zip(function_type.params, names, attrs))]
        self.blocks: list[Block] = []

    @property
    def return_type(self) -> Type:
        return self.function_type.ret

    @property
    def is_declaration(self) -> bool:
        return not self.blocks

    @property
    def entry(self) -> Block:
        return self.blocks[0]

    def append_block(self, name: str | None = None) -> Block:
        b = Block(name, self)
        self.blocks.append(b)
        return b

    def insert_block_after(self, after: Block, name: str | None = None) -> Block:
        b = Block(name, self)
        self.blocks.insert(self.blocks.index(after) + 1, b)
        return b

    def instructions(self) -> Iterator["Instruction"]:
        for b in self.blocks:
            yield from b.instructions


class Module:
    """A module: an ordered list of top-level entities, printed back in order.

    Entities are :class:`Function`, :class:`GlobalVariable`,
    :class:`GlobalAlias`, :class:`NamedStructType` definitions and
    :class:`RawEntity` (attribute groups, metadata, comdats, header lines and
    anything else the model carries as text).
    """

    def __init__(self) -> None:
        self.entities: list[object] = []
        self.struct_types: dict[str, NamedStructType] = {}
        self.globals: dict[str, GlobalValue] = {}
        self.triple: str | None = None
        self.datalayout: str | None = None

    # -- lookup ------------------------------------------------------------
    @property
    def functions(self) -> list[Function]:
        return [e for e in self.entities if isinstance(e, Function)]

    @property
    def global_variables(self) -> list[GlobalVariable]:
        return [e for e in self.entities if isinstance(e, GlobalVariable)]

    def get(self, name: str) -> GlobalValue | None:
        return self.globals.get(name)

    def get_function(self, name: str) -> Function | None:
        f = self.globals.get(name)
        return f if isinstance(f, Function) else None

    def unique_name(self, base: str) -> str:
        if base not in self.globals:
            return base
        i = 1
        while f"{base}.{i}" in self.globals:
            i += 1
        return f"{base}.{i}"

    # -- adding --------------------------------------------------------------
    def add(self, g: GlobalValue) -> GlobalValue:
        """Add a global after the last entity of its kind (functions last)."""
        if g.name in self.globals:
            raise ValueError(f"module already defines @{g.name}")
        self.globals[g.name] = g  # type: ignore[index]
        g.module = self
        kinds = (Function,) if isinstance(g, Function) else (GlobalVariable, GlobalAlias)
        # The last entity of its kind, searched from the end: derivatives add functions by the hundred.
        pos = next((i for i in range(len(self.entities) - 1, -1, -1) if isinstance(self.entities[i], kinds)), None)
        if pos is None:  # first of its kind: before the first function / metadata / attributes
            pos = len(self.entities) - 1
            for i, e in enumerate(self.entities):
                if isinstance(e, Function) or (isinstance(e, RawEntity) and e.kind in ("attributes", "metadata")):
                    pos = i - 1
                    break
        self.entities.insert(pos + 1, g)
        return g

    def declare_function(self, name: str, function_type: FunctionType, *, suffix: str = "") -> Function:
        f = self.get_function(name)
        if f is not None:
            return f
        f = Function(name, function_type, suffix=suffix)
        self.add(f)
        return f

    def add_struct_type(self, t: NamedStructType) -> NamedStructType:
        self.struct_types[t.name] = t
        pos = 0
        for i, e in enumerate(self.entities):
            if isinstance(e, NamedStructType) or (isinstance(e, RawEntity) and e.kind == "header"):
                pos = i + 1
        self.entities.insert(pos, t)
        return t


class RawEntity:
    """A top-level line kept as text (``kind``: header, attributes, metadata, comdat, asm, other)."""

    __slots__ = ("kind", "text")

    def __init__(self, kind: str, text: str) -> None:
        self.kind = kind
        self.text = text

    def __repr__(self) -> str:
        return f"<RawEntity {self.kind}: {self.text[:40]!r}>"
