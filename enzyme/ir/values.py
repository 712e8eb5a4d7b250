"""Values, uses and users: the SSA graph of the IR model.

Every operand of a :class:`User` is a :class:`Use` registered on the used
value, so ``value.uses`` is exact and O(uses).  Constants are immutable and
not tracked (a constant may be shared by many users).  IR nodes compare by
identity.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from .names import quote_name
from .types import LABEL, PTR, Type

if TYPE_CHECKING:
    from .blocks import Block


class Use:
    """Operand slot ``index`` of ``user``, holding ``value``."""

    __slots__ = ("user", "index", "value")

    def __init__(self, user: "User", index: int, value: "Value") -> None:
        self.user = user
        self.index = index
        self.value = value

    def __repr__(self) -> str:
        return f"Use({type(self.user).__name__}#{self.index} -> {self.value!r})"


class Value:
    """Anything that can be an operand: instructions, arguments, blocks, globals, constants."""

    __slots__ = ("type", "name", "_uses", "__weakref__")

    def __init__(self, type: Type, name: str | None = None) -> None:
        self.type = type
        self.name = name
        self._uses: dict[Use, None] = {}

    # -- use-lists -------------------------------------------------------
    def _add_use(self, use: Use) -> None:
        self._uses[use] = None

    def _remove_use(self, use: Use) -> None:
        self._uses.pop(use, None)

    @property
    def uses(self) -> list[Use]:
        return list(self._uses)

    @property
    def users(self) -> list["User"]:
        """Distinct users, in the order their first use was made."""
        seen: dict[User, None] = {}
        for u in self._uses:
            seen[u.user] = None
        return list(seen)

    @property
    def has_uses(self) -> bool:
        return bool(self._uses)

    def replace_all_uses_with(self, new: "Value") -> None:
        if new is self:
            return
        for use in list(self._uses):
            use.user.set_operand(use.index, new)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}: {self.type}>"


class User(Value):
    """A value with operands (instructions, debug records)."""

    # _values: the operand values as a tuple, built on first read and dropped by every operand change.
    __slots__ = ("_ops", "_values")

    def __init__(self, type: Type, operands: list[Value] | tuple[Value, ...] = (), name: str | None = None) -> None:
        super().__init__(type, name)
        self._ops: list[Use] = []
        self._values: tuple[Value, ...] | None = ()
        for v in operands:
            self._append_operand(v)

    @property
    def operands(self) -> tuple[Value, ...]:
        """The operand values.  The same tuple object until an operand changes (cfg.py's caches rely on it)."""
        values = self._values
        if values is None:
            values = self._values = tuple(u.value for u in self._ops)
        return values

    @property
    def operand_uses(self) -> list[Use]:
        return list(self._ops)

    def operand(self, i: int) -> Value:
        return self._ops[i].value

    def set_operand(self, i: int, value: Value) -> None:
        use = self._ops[i]
        use.value._remove_use(use)
        use.value = value
        value._add_use(use)
        self._values = None

    def _append_operand(self, value: Value) -> None:
        use = Use(self, len(self._ops), value)
        self._ops.append(use)
        value._add_use(use)
        self._values = None

    def _insert_operand(self, i: int, value: Value) -> None:
        use = Use(self, i, value)
        self._ops.insert(i, use)
        for j in range(i + 1, len(self._ops)):
            self._ops[j].index = j
        value._add_use(use)
        self._values = None

    def _remove_operand(self, i: int) -> None:
        use = self._ops.pop(i)
        use.value._remove_use(use)
        for j in range(i, len(self._ops)):
            self._ops[j].index = j
        self._values = None

    def drop_operands(self) -> None:
        """Unregister every operand (before erasing the user)."""
        for use in self._ops:
            use.value._remove_use(use)
        self._ops = []
        self._values = ()


class Argument(Value):
    """A formal parameter; ``attrs`` is its attribute text (``noundef nonnull``)."""

    __slots__ = ("function", "index", "attrs")

    def __init__(self, type: Type, name: str | None, function: object, index: int, attrs: str = "") -> None:
        super().__init__(type, name)
        self.function = function
        self.index = index
        self.attrs = attrs


# ---------------------------------------------------------------- constants
class Constant(Value):
    """Immutable constant; use-lists are not tracked for constants."""

    __slots__ = ()

    def _add_use(self, use: Use) -> None:
        pass

    def _remove_use(self, use: Use) -> None:
        pass

    def text(self) -> str:
        """Spelling without the type (``1.0``, ``null``, ``{ i32 1 }``)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.type} {self.text()}>"


class ConstantInt(Constant):
    __slots__ = ("value",)

    def __init__(self, type: Type, value: int) -> None:
        super().__init__(type)
        self.value = value

    def text(self) -> str:
        if str(self.type) == "i1":
            return "true" if self.value & 1 else "false"
        return str(self.value)


class ConstantFP(Constant):
    """A floating-point literal; keeps its spelling so it prints back exactly."""

    __slots__ = ("spelling",)

    def __init__(self, type: Type, spelling: str) -> None:
        super().__init__(type)
        self.spelling = spelling

    @classmethod
    def of(cls, type: Type, value: float) -> "ConstantFP":
        from .fpconst import spell_float
        return cls(type, spell_float(str(type), value))

    @property
    def value(self) -> float:
        from .fpconst import parse_float
        return parse_float(str(self.type), self.spelling)

    def text(self) -> str:
        return self.spelling


class ConstantKeyword(Constant):
    """``null``, ``undef``, ``poison``, ``zeroinitializer``, ``none``."""

    __slots__ = ("keyword",)

    def __init__(self, type: Type, keyword: str) -> None:
        super().__init__(type)
        self.keyword = keyword

    def text(self) -> str:
        return self.keyword


class ConstantAggregate(Constant):
    """A struct, array or vector constant with element constants."""

    __slots__ = ("elements",)

    def __init__(self, type: Type, elements: list[Value]) -> None:
        super().__init__(type)
        self.elements = elements

    def text(self) -> str:
        from .types import ArrayType, StructType, VectorType
        inner = ", ".join(f"{e.type} {ref(e)}" for e in self.elements)
        if isinstance(self.type, VectorType):
            return f"<{inner}>"
        if isinstance(self.type, ArrayType):
            return f"[{inner}]"
        assert isinstance(self.type, StructType)
        body = "{ " + inner + " }" if inner else "{}"
        return f"<{body}>" if self.type.packed else body


class ConstantText(Constant):
    """A constant kept as its spelling (``c"..."``, ``blockaddress(...)``, metadata operands)."""

    __slots__ = ("spelling",)

    def __init__(self, type: Type, spelling: str) -> None:
        super().__init__(type)
        self.spelling = spelling

    def text(self) -> str:
        return self.spelling


class ConstantExpr(Constant):
    """A constant expression: ``getelementptr``, casts, binary operators, ``splat``.

    ``operands`` are constants (including globals); ``extra`` holds what else
    is spelled (GEP source type, cast destination type, flags).
    """

    __slots__ = ("opcode", "operands", "flags", "source_type")

    def __init__(self, type: Type, opcode: str, operands: list[Value], flags: str = "",
                 source_type: Type | None = None) -> None:
        super().__init__(type)
        self.opcode = opcode
        self.operands = operands
        self.flags = flags
        self.source_type = source_type

    def text(self) -> str:
        fl = f" {self.flags}" if self.flags else ""
        ops = ", ".join(f"{o.type} {ref(o)}" for o in self.operands)
        if self.opcode == "getelementptr":
            return f"getelementptr{fl} ({self.source_type}, {ops})"
        if self.opcode == "splat":
            return f"splat ({ops})"
        if self.opcode in CAST_OPCODES:
            return f"{self.opcode}{fl} ({ops} to {self.type})"
        return f"{self.opcode}{fl} ({ops})"


CAST_OPCODES = frozenset({
    "trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp",
    "ptrtoint", "ptrtoaddr", "inttoptr", "bitcast", "addrspacecast"})


# ---------------------------------------------------------------- globals
class GlobalValue(Constant):
    """A module-level symbol; its value is its address (type ``ptr``).

    Unlike other constants, uses of globals are tracked (callers of a
    function are found from its uses).
    """

    __slots__ = ("module",)

    def __init__(self, name: str, type: Type = PTR) -> None:
        super().__init__(type, name)
        self.module: object | None = None

    _add_use = Value._add_use
    _remove_use = Value._remove_use

    def text(self) -> str:
        return "@" + quote_name(self.name or "")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} @{self.name}>"


class GlobalVariable(GlobalValue):
    """``@name = <prefix> global|constant <value_type> [<initializer>]<suffix>``."""

    __slots__ = ("prefix", "is_constant", "value_type", "initializer", "suffix")

    def __init__(self, name: str, value_type: Type, *, initializer: Constant | None = None,
                 is_constant: bool = False, prefix: str = "", suffix: str = "", type: Type = PTR) -> None:
        super().__init__(name, type)
        self.prefix = prefix
        self.is_constant = is_constant
        self.value_type = value_type
        self.initializer = initializer
        self.suffix = suffix


class GlobalAlias(GlobalValue):
    """An alias or ifunc, kept as the text after ``@name = ``."""

    __slots__ = ("definition",)

    def __init__(self, name: str, definition: str, type: Type = PTR) -> None:
        super().__init__(name, type)
        self.definition = definition


def ref(value: Value) -> str:
    """Spelling of a reference to a constant or global (locals need a printer)."""
    if isinstance(value, Constant):
        return value.text()
    raise TypeError(f"{value!r} is local to a function; use a Printer to spell it")


def iter_constant_operands(c: Value) -> Iterator[Value]:
    if isinstance(c, ConstantAggregate):
        yield from c.elements
    elif isinstance(c, ConstantExpr):
        yield from c.operands


def is_label(v: Value) -> bool:
    return v.type == LABEL


if TYPE_CHECKING:
    _ = Block


def strip_pointer_casts(v: Value) -> Value:
    """``v`` without constant ``bitcast``/``addrspacecast`` wrappers (GPU code reaches globals through them)."""
    while isinstance(v, ConstantExpr) and v.opcode in ("bitcast", "addrspacecast") and v.operands:
        v = v.operands[0]
    return v
