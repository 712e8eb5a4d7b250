"""LLVM types.

Types are immutable and compare structurally, except identified (named)
struct types, which compare by identity: two modules may define ``%T``
differently, and a named struct's body may be set after creation (it can
refer to itself).
"""
from __future__ import annotations

from dataclasses import dataclass

from .names import quote_name

_FLOAT_BITS = {"half": 16, "bfloat": 16, "float": 32, "double": 64,
               "x86_fp80": 80, "fp128": 128, "ppc_fp128": 128}


class Type:
    """Base class of all types; ``str(t)`` is LLVM's spelling."""

    __slots__ = ()

    @property
    def is_void(self) -> bool:
        return isinstance(self, VoidType)

    @property
    def is_float(self) -> bool:
        """A scalar floating-point type."""
        return isinstance(self, FloatType)

    @property
    def is_fp_or_fp_vector(self) -> bool:
        t = self.element if isinstance(self, VectorType) else self
        return isinstance(t, FloatType)

    @property
    def is_integer(self) -> bool:
        return isinstance(self, IntType)

    @property
    def is_pointer(self) -> bool:
        return isinstance(self, PointerType)

    @property
    def is_aggregate(self) -> bool:
        return isinstance(self, (StructType, ArrayType))

    @property
    def is_first_class(self) -> bool:
        return not isinstance(self, (VoidType, FunctionType, LabelType))


@dataclass(frozen=True, slots=True)
class VoidType(Type):
    def __str__(self) -> str:
        return "void"


@dataclass(frozen=True, slots=True)
class LabelType(Type):
    def __str__(self) -> str:
        return "label"


@dataclass(frozen=True, slots=True)
class MetadataType(Type):
    def __str__(self) -> str:
        return "metadata"


@dataclass(frozen=True, slots=True)
class TokenType(Type):
    def __str__(self) -> str:
        return "token"


@dataclass(frozen=True, slots=True)
class IntType(Type):
    bits: int

    def __str__(self) -> str:
        return f"i{self.bits}"


@dataclass(frozen=True, slots=True)
class FloatType(Type):
    kind: str  # one of _FLOAT_BITS

    @property
    def bits(self) -> int:
        return _FLOAT_BITS[self.kind]

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class PointerType(Type):
    addrspace: int = 0

    def __str__(self) -> str:
        return "ptr" if self.addrspace == 0 else f"ptr addrspace({self.addrspace})"


@dataclass(frozen=True, slots=True)
class VectorType(Type):
    count: int
    element: Type
    scalable: bool = False

    def __str__(self) -> str:
        v = "vscale x " if self.scalable else ""
        return f"<{v}{self.count} x {self.element}>"


@dataclass(frozen=True, slots=True)
class ArrayType(Type):
    count: int
    element: Type

    def __str__(self) -> str:
        return f"[{self.count} x {self.element}]"


@dataclass(frozen=True, slots=True)
class FunctionType(Type):
    ret: Type
    params: tuple[Type, ...]
    vararg: bool = False

    def __str__(self) -> str:
        ps = [str(p) for p in self.params]
        if self.vararg:
            ps.append("...")
        return f"{self.ret} ({', '.join(ps)})"


@dataclass(frozen=True, slots=True)
class StructType(Type):
    """A literal (unnamed) struct type ``{ a, b }`` or packed ``<{ a, b }>``."""

    elements: tuple[Type, ...]
    packed: bool = False

    def __str__(self) -> str:
        body = "{ " + ", ".join(map(str, self.elements)) + " }" if self.elements else "{}"
        return f"<{body}>" if self.packed else body


class NamedStructType(StructType):
    """An identified struct ``%name = type {...}``; compares by identity."""

    __slots__ = ("name", "_elements", "_packed", "opaque")
    name: str
    _elements: tuple[Type, ...]
    _packed: bool
    opaque: bool

    def __init__(self, name: str, elements: tuple[Type, ...] = (), packed: bool = False,
                 opaque: bool = True) -> None:
        object.__setattr__(self, "name", name)
        self.set_body(elements, packed, opaque)

    def set_body(self, elements: tuple[Type, ...], packed: bool = False, opaque: bool = False) -> None:
        object.__setattr__(self, "_elements", tuple(elements))
        object.__setattr__(self, "_packed", packed)
        object.__setattr__(self, "opaque", opaque)

    @property
    def elements(self) -> tuple[Type, ...]:
        return self._elements

    @property
    def packed(self) -> bool:
        return self._packed

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)

    def __str__(self) -> str:
        return "%" + quote_name(self.name)

    def body_str(self) -> str:
        """The right-hand side of the type definition."""
        if self.opaque:
            return "opaque"
        return StructType.__str__(StructType(self._elements, self._packed))

    def __repr__(self) -> str:
        return f"NamedStructType({self.name!r})"


@dataclass(frozen=True, slots=True)
class TargetExtType(Type):
    """``target("name", types..., ints...)``, kept as its spelling."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class OpaqueType(Type):
    """The result type of an instruction the model does not interpret."""

    def __str__(self) -> str:
        return "<unknown type>"


VOID = VoidType()
LABEL = LabelType()
METADATA = MetadataType()
TOKEN = TokenType()
PTR = PointerType(0)
I1 = IntType(1)
I8 = IntType(8)
I32 = IntType(32)
I64 = IntType(64)
FLOAT = FloatType("float")
DOUBLE = FloatType("double")

SIMPLE_TYPES: dict[str, Type] = {
    "void": VOID, "label": LABEL, "metadata": METADATA, "token": TOKEN, "ptr": PTR,
    "x86_amx": TargetExtType("x86_amx"),
    **{k: FloatType(k) for k in _FLOAT_BITS},
}


def scalar_of(t: Type) -> Type:
    """The element type of a vector, else the type itself."""
    return t.element if isinstance(t, VectorType) else t
