"""Print the IR model as LLVM 22 textual IR.

Unnamed values are numbered at print time in LLVM's slot order (arguments,
then each block followed by its instructions), so instructions can be added
anywhere without renumbering by hand.  Clashing names get a numeric suffix.
"""
from __future__ import annotations

from .blocks import Block, Function, Module, RawEntity
from .instructions import Instruction
from .names import quote_name
from .types import NamedStructType
from .values import Constant, GlobalAlias, GlobalVariable, Value


class FunctionPrinter:
    """Spells references to the values of one function."""

    def __init__(self, f: Function) -> None:
        self.f = f
        self.names: dict[Value, str] = {}
        every = {a.name for a in f.args if a.name}
        for b in f.blocks:
            if b.name:
                every.add(b.name)
            every.update(i.name for i in b.instructions if i.name)
        taken: set[str] = set()
        # Name -> the suffix to try next: the search for a free ``<name><k>`` resumes where it stopped, so
        # a name given to thousands of values costs linear time (the smallest free k only grows).
        next_suffix: dict[str, int] = {}
        slot = 0

        def assign(v: Value) -> None:
            nonlocal slot
            if v.name is None:
                self.names[v] = str(slot)
                slot += 1
                return
            n = v.name
            if n in taken:
                k = next_suffix.get(n, 1)
                while f"{n}{k}" in taken or f"{n}{k}" in every:
                    k += 1
                next_suffix[n] = k + 1
                n = f"{n}{k}"
            taken.add(n)
            self.names[v] = quote_name(n)

        for a in f.args:
            assign(a)
        for b in f.blocks:
            assign(b)
            for i in b.instructions:
                if not i.type.is_void:
                    assign(i)

    def ref(self, v: Value) -> str:
        if isinstance(v, Constant):
            return v.text()
        n = self.names.get(v)
        if n is None:
            raise ValueError(f"@{self.f.name}: {v!r} is not defined in this function (dangling operand)")
        return "%" + n

    def typed(self, v: Value) -> str:
        return f"{v.type} {self.ref(v)}"

    def label(self, b: Block) -> str:
        return self.names[b] + ":"

    def instruction(self, i: Instruction) -> str:
        out = []
        for rec in i.debug_records:
            out.append("    " + rec.text(self) + "\n")
        head = "  "
        if not i.type.is_void:
            head += "%" + self.names[i] + " = "
        md = "".join(f", !{k} {v}" for k, v in i.metadata)
        out.append(head + i.body(self) + md + "\n")
        return "".join(out)


def function_header(f: Function, p: FunctionPrinter | None) -> str:
    params = []
    for a in f.args:
        s = str(a.type)
        if a.attrs:
            s += " " + a.attrs
        if p is not None:
            s += " " + p.ref(a)
        params.append(s)
    if f.function_type.vararg:
        params.append("...")
    kw = "declare" if f.is_declaration else "define"
    pre = f" {f.prefix}" if f.prefix else ""
    suf = f" {f.suffix}" if f.suffix else ""
    return f"{kw}{pre} {f.return_type} @{quote_name(f.name or '')}({', '.join(params)}){suf}"


def print_function(f: Function) -> str:
    if f.is_declaration:
        return function_header(f, None) + "\n"
    p = FunctionPrinter(f)
    out = [function_header(f, p) + " {\n"]
    for bi, b in enumerate(f.blocks):
        if bi > 0:
            out.append("\n" + p.label(b) + "\n")
        elif b.name is not None:
            out.append(p.label(b) + "\n")
        for i in b.instructions:
            out.append(p.instruction(i))
    out.append("}\n")
    return "".join(out)


def print_global(g: GlobalVariable) -> str:
    pre = f"{g.prefix} " if g.prefix else ""
    kw = "constant" if g.is_constant else "global"
    init = f" {g.initializer.text()}" if g.initializer is not None else ""
    return f"@{quote_name(g.name or '')} = {pre}{kw} {g.value_type}{init}{g.suffix}\n"


def print_module(m: Module) -> str:
    """The module as LLVM textual IR."""
    out: list[str] = []
    prev = None
    for e in m.entities:
        if isinstance(e, Function):
            out.append("\n" + print_function(e))
        elif isinstance(e, GlobalVariable):
            out.append(print_global(e))
        elif isinstance(e, GlobalAlias):
            out.append(f"@{quote_name(e.name or '')} = {e.definition}\n")
        elif isinstance(e, NamedStructType):
            out.append(f"{e} = type {e.body_str()}\n")
        elif isinstance(e, RawEntity):
            if prev is not None and type(prev) is not RawEntity:
                out.append("\n")
            out.append(e.text + "\n")
        else:
            raise TypeError(f"unknown module entity {e!r}")
        prev = e
    return "".join(out)
