"""Import LLVM 22 textual IR (as LLVM prints it) into the IR model.

Top level is read line by line (LLVM prints one entity per line, functions
from ``define`` to the closing ``}``); function bodies, types and constants
are read from tokens.  What the model does not interpret (attribute groups,
metadata, comdats, attributes on parameters and calls) is kept as text.
"""
from __future__ import annotations

import gc
import re
from typing import Callable, NoReturn

from ..errors import IRParseError
from . import instructions as I
from .blocks import Block, Function, Module, RawEntity
from .lexer import Token, tokenize
from .names import unescape_string
from .types import (I1, LABEL, METADATA, PTR, SIMPLE_TYPES, TOKEN, ArrayType, FloatType, FunctionType, IntType,
                    NamedStructType, OpaqueType, PointerType, StructType, TargetExtType, Type, VectorType)
from .values import (ConstantAggregate, ConstantExpr, ConstantFP, ConstantInt, ConstantKeyword,
                     ConstantText, GlobalAlias, GlobalValue, GlobalVariable, Value)

FMF = frozenset({"nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc", "fast"})
INT_FLAGS = frozenset({"nuw", "nsw", "exact", "disjoint", "nneg", "samesign"})
GEP_FLAGS = frozenset({"inbounds", "nuw", "nusw"})
VALUE_KEYWORDS = frozenset({
    "true", "false", "null", "undef", "poison", "zeroinitializer", "none", "splat", "getelementptr",
    "blockaddress", "dso_local_equivalent", "no_cfi", "ptrauth", "asm", "extractelement", "insertelement",
    "shufflevector", "add", "sub", "mul", "xor", "shl", "and", "or", "icmp", "fcmp", "select"} | I.CAST_OPCODES)
_INT_TYPE = re.compile(r"i(\d+)\Z")


def _is_numbered(name: str | None) -> bool:
    return name is not None and name.isdigit()


class Placeholder(Value):
    """A forward reference to a local value, replaced when its definition is read."""

    __slots__ = ()


class _Cursor:
    """A position in a token list with the helpers every parser here needs."""

    def __init__(self, src: str, toks: list[Token]) -> None:
        self.src = src
        self.toks = toks
        self.i = 0

    @property
    def tok(self) -> Token:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self) -> Token:
        t = self.toks[self.i]
        self.i += 1
        return t

    def at(self, text: str) -> bool:
        t = self.toks[self.i]
        return t.text == text and t.kind in ("punct", "word")

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.i += 1
            return True
        return False

    def expect(self, text: str, what: str = "") -> Token:
        if not self.at(text):
            self.error(f"expected '{text}'{' ' + what if what else ''}")
        return self.next()

    def error(self, msg: str, tok: Token | None = None) -> NoReturn:
        t = tok or self.tok
        line = self.src.count("\n", 0, t.start) + 1
        col = t.start - (self.src.rfind("\n", 0, t.start) + 1) + 1
        got = repr(t.text) if t.kind != "eof" else "end of input"
        raise IRParseError(f"line {line}:{col}: {msg}, got {got}")

    def skip_balanced(self) -> None:
        """Skip one token, or a whole bracketed group when at an opening bracket."""
        pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
        t = self.next()
        if t.text not in pairs or t.kind != "punct":
            return
        stack = [pairs[t.text]]
        while stack:
            t = self.next()
            if t.kind == "eof":
                self.error("unbalanced brackets", t)
            if t.kind == "punct":
                if t.text in pairs:
                    stack.append(pairs[t.text])
                elif t.text == stack[-1]:
                    stack.pop()

    def text_between(self, a: int, b: int) -> str:
        """Source text of tokens ``a``..``b-1``."""
        if a >= b:
            return ""
        return self.src[self.toks[a].start:self.toks[b - 1].end]

    def same_line(self) -> bool:
        return not self.tok.line_start and self.tok.kind != "eof"


class ModuleParser:
    def __init__(self, text: str) -> None:
        self.src = text
        self.module = Module()

    # ----------------------------------------------------------------- module
    def parse(self) -> Module:
        src = self.src
        lines: list[tuple[int, int]] = []  # (start, end) offsets of each line
        pos = 0
        n = len(src)
        while pos <= n:
            e = src.find("\n", pos)
            if e < 0:
                e = n
            lines.append((pos, e))
            pos = e + 1
        entities: list[tuple[str, int, int]] = []
        i = 0
        while i < len(lines):
            s, e = lines[i]
            first = src[s:e][:1]
            if first in ("", ";", " ", "\t", "\r"):
                if src[s:e].strip() and not src[s:e].lstrip().startswith(";"):
                    self._line_error(s, "unexpected indented text at top level")
                i += 1
                continue
            if src.startswith("define", s):
                j = i
                while j < len(lines) and src[lines[j][0]:lines[j][1]].rstrip() != "}":
                    j += 1
                if j == len(lines):
                    self._line_error(s, "function body has no closing '}'")
                entities.append(("define", s, lines[j][1]))
                i = j + 1
                continue
            entities.append((self._classify(s, e), s, e))
            i += 1
        # Pass 1: named types and global symbols, so bodies may refer forward.
        for kind, s, e in entities:
            if kind == "type":
                name = self._local_name(s)
                if name not in self.module.struct_types:
                    self.module.struct_types[name] = NamedStructType(name)
        for kind, s, e in entities:
            if kind == "type":
                self._parse_type_def(s, e)
        for kind, s, e in entities:
            if kind in ("define", "declare"):
                self._declare_function(kind, s, e)
            elif kind == "global":
                self._declare_global(s, e)
        # Pass 2: everything, in order.
        for kind, s, e in entities:
            if kind == "define":
                ent: object = self._parse_function_body(s, e)
            elif kind == "declare":
                ent = self.module.globals[self._pending_name[s]]
            elif kind == "global":
                ent = self._finish_global(s, e)
            elif kind == "type":
                ent = self.module.struct_types[self._local_name(s)]
            else:
                ent = RawEntity(kind, src[s:e])
            self.module.entities.append(ent)
        return self.module

    _HEADER = re.compile(r'(source_filename|target datalayout|target triple)\s*=\s*"([^"]*)"')

    def _classify(self, s: int, e: int) -> str:
        src = self.src
        c = src[s]
        if c == "%":
            return "type"
        if c == "@":
            return "global"
        if c == "!":
            return "metadata"
        if c == "$":
            return "comdat"
        if src.startswith("declare", s):
            return "declare"
        if src.startswith("attributes", s):
            return "attributes"
        m = self._HEADER.match(src, s, e)
        if m:
            if m.group(1) == "target triple":
                self.module.triple = m.group(2)
            elif m.group(1) == "target datalayout":
                self.module.datalayout = m.group(2)
            return "header"
        if src.startswith("module asm", s):
            return "asm"
        if src.startswith("uselistorder", s):
            return "other"
        self._line_error(s, "unknown top-level entity")
        raise AssertionError

    def _line_error(self, offset: int, msg: str) -> None:
        line = self.src.count("\n", 0, offset) + 1
        text = self.src[offset:self.src.find("\n", offset) if "\n" in self.src[offset:] else None]
        raise IRParseError(f"line {line}: {msg}: {text[:80]!r}")

    def _local_name(self, s: int) -> str:
        t = tokenize(self.src, s, self.src.find("=", s))[0]
        return _strip_sigil(t.text)

    # ------------------------------------------------------------ named types
    def _parse_type_def(self, s: int, e: int) -> None:
        c = _Cursor(self.src, tokenize(self.src, s, e))
        name = _strip_sigil(c.next().text)
        c.expect("=")
        c.expect("type")
        t = self.module.struct_types[name]
        if c.accept("opaque"):
            t.set_body((), False, opaque=True)
        else:
            body = TypeParser(c, self.module).parse_type()
            if not isinstance(body, StructType):
                c.error("expected a struct body in a type definition")
            t.set_body(body.elements, body.packed, opaque=False)
        if c.tok.kind != "eof":
            c.error("unexpected text after type definition")

    # ------------------------------------------------------------- globals
    _pending_name: dict[int, str]

    def _declare_global(self, s: int, e: int) -> None:
        c = _Cursor(self.src, tokenize(self.src, s, e))
        name = _strip_sigil(c.next().text)
        c.expect("=")
        start = c.i
        while c.tok.kind != "eof" and not (c.tok.kind == "word" and c.tok.text in
                                            ("global", "constant", "alias", "ifunc")):
            c.skip_balanced()
        if c.tok.kind == "eof":
            c.error("expected 'global', 'constant', 'alias' or 'ifunc'")
        kw = c.next().text
        if kw in ("alias", "ifunc"):
            g: GlobalValue = GlobalAlias(name, self.src[c.toks[start].start:e])
        else:
            prefix = c.text_between(start, c.i - 1)
            addrspace = re.search(r"addrspace\((\d+)\)", prefix)
            vt = TypeParser(c, self.module).parse_type()
            g = GlobalVariable(name, vt, is_constant=(kw == "constant"), prefix=prefix,
                               type=PointerType(int(addrspace.group(1))) if addrspace else PTR)
        self._register_global(g, c)

    def _register_global(self, g: GlobalValue, c: _Cursor) -> None:
        if g.name in self.module.globals:
            c.error(f"redefinition of @{g.name}", c.toks[0])
        self.module.globals[g.name] = g  # type: ignore[index]
        g.module = self.module

    def _finish_global(self, s: int, e: int) -> GlobalValue:
        c = _Cursor(self.src, tokenize(self.src, s, e))
        g = self.module.globals[_strip_sigil(c.tok.text)]
        if not isinstance(g, GlobalVariable):
            return g
        while not (c.tok.kind == "word" and c.tok.text in ("global", "constant")):
            c.skip_balanced()
        c.next()
        tp = TypeParser(c, self.module)
        tp.parse_type()
        words = g.prefix.split()
        if c.tok.kind != "eof" and not c.at(",") and "external" not in words and "extern_weak" not in words:
            g.initializer = ValueParser(c, self.module, None).parse_value(g.value_type)  # type: ignore[assignment]
        g.suffix = self.src[c.tok.start:e] if c.tok.kind != "eof" else ""
        return g

    # ------------------------------------------------------------- functions
    def _declare_function(self, kind: str, s: int, e: int) -> None:
        body_open = self.src.find("{\n", s, e) if kind == "define" else -1
        header_end = e if kind == "declare" else self._header_end(s, e)
        c = _Cursor(self.src, tokenize(self.src, s, header_end))
        c.next()  # define / declare
        start = c.i
        # The return type is the type that ends right before @name.
        name_i = next((k for k in range(c.i, len(c.toks)) if c.toks[k].kind == "global"), None)
        if name_i is None:
            c.error("expected a function name")
        tp = TypeParser(c, self.module)
        ret = None
        k = start
        while k < name_i:
            c.i = k
            t = _try_type(tp)
            if t is not None and c.i == name_i:
                ret = t
                break
            c.i = k
            c.skip_balanced()
            k = c.i
        if ret is None:
            c.error("expected a return type before the function name", c.toks[name_i])
        prefix = c.text_between(start, k)
        c.i = name_i
        name = _strip_sigil(c.next().text)
        c.expect("(", "after the function name")
        params: list[Type] = []
        names: list[str | None] = []
        attrs: list[str] = []
        vararg = False
        while not c.at(")"):
            if c.accept("..."):
                vararg = True
                break
            params.append(tp.parse_type())
            a0 = c.i
            while not (c.at(",") or c.at(")") or c.tok.kind == "local"):
                if c.tok.kind == "eof":
                    c.error("unterminated parameter list")
                c.skip_balanced()
            attrs.append(c.text_between(a0, c.i))
            names.append(_strip_sigil(c.next().text) if c.tok.kind == "local" else None)
            if not c.accept(","):
                break
        c.expect(")", "to close the parameter list")
        suffix = self.src[c.tok.start:header_end].rstrip() if c.tok.kind != "eof" else ""
        if body_open >= 0:
            suffix = suffix.rstrip("{").rstrip()
        f = Function(name, FunctionType(ret, tuple(params), vararg), arg_names=names, arg_attrs=attrs,
                     prefix=prefix, suffix=suffix)
        self._register_global(f, c)
        if not hasattr(self, "_pending_name"):
            self._pending_name = {}
        self._pending_name[s] = name

    def _header_end(self, s: int, e: int) -> int:
        """Offset just past the ``{`` that opens the body (end of the header line)."""
        nl = self.src.find("\n", s, e)
        line_end = nl if nl >= 0 else e
        brace = self.src.rfind("{", s, line_end)
        if brace < 0:
            self._line_error(s, "expected '{' to open the function body")
        return brace + 1

    def _parse_function_body(self, s: int, e: int) -> Function:
        f = self.module.globals[self._pending_name[s]]
        assert isinstance(f, Function)
        start = self._header_end(s, e)
        close = self.src.rfind("}", s, e)
        c = _Cursor(self.src, tokenize(self.src, start, close))
        FunctionBodyParser(c, self.module, f).parse()
        return f


class TypeParser:
    def __init__(self, c: _Cursor, module: Module) -> None:
        self.c = c
        self.module = module

    def parse_type(self) -> Type:
        c = self.c
        t = c.next()
        ty: Type
        if t.kind == "word":
            w = t.text
            simple = SIMPLE_TYPES.get(w)
            if simple is not None:
                ty = simple
                if w == "ptr" and c.at("addrspace"):
                    c.next()
                    c.expect("(")
                    ty = PointerType(int(c.next().text))
                    c.expect(")")
            elif (m := _INT_TYPE.match(w)) is not None:
                ty = IntType(int(m.group(1)))
            elif w == "target":
                c.i -= 1
                a = c.i
                c.next()
                c.skip_balanced()
                ty = TargetExtType(c.text_between(a, c.i))
            else:
                c.i -= 1
                c.error("expected a type")
                raise AssertionError
        elif t.kind == "local":
            name = _strip_sigil(t.text)
            found = self.module.struct_types.get(name)
            if found is None:
                c.i -= 1
                c.error(f"use of undefined type %{name}")
            ty = found
        elif t.text == "[":
            n = int(c.next().text)
            c.expect("x")
            el = self.parse_type()
            c.expect("]")
            ty = ArrayType(n, el)
        elif t.text == "<":
            if c.at("{"):
                inner = self.parse_type()
                c.expect(">")
                ty = StructType(inner.elements, packed=True)  # type: ignore[attr-defined]
            else:
                scalable = c.accept("vscale")
                if scalable:
                    c.expect("x")
                n = int(c.next().text)
                c.expect("x")
                el = self.parse_type()
                c.expect(">")
                ty = VectorType(n, el, scalable)
        elif t.text == "{":
            els: list[Type] = []
            if not c.at("}"):
                els.append(self.parse_type())
                while c.accept(","):
                    els.append(self.parse_type())
            c.expect("}", "to close the struct type")
            ty = StructType(tuple(els))
        else:
            c.i -= 1
            c.error("expected a type")
            raise AssertionError
        while True:
            if c.at("("):
                c.next()
                ps: list[Type] = []
                va = False
                while not c.at(")"):
                    if c.accept("..."):
                        va = True
                        break
                    ps.append(self.parse_type())
                    if not c.accept(","):
                        break
                c.expect(")")
                ty = FunctionType(ty, tuple(ps), va)
            elif c.at("*"):
                c.error("typed pointers ('T*') are from LLVM <= 14; pyenzyme reads LLVM 22 IR (opaque 'ptr')")
            else:
                return ty


class ValueParser:
    """Parses operands: locals (through ``lookup``), globals and constants."""

    def __init__(self, c: _Cursor, module: Module, lookup: Callable[[str, Type, Token], Value] | None) -> None:
        self.c = c
        self.module = module
        self.types = TypeParser(c, module)
        self.lookup = lookup

    def parse_typed(self) -> Value:
        t = self.types.parse_type()
        return self.parse_value(t)

    def parse_value(self, ty: Type) -> Value:
        c = self.c
        t = c.tok
        k = t.kind
        if k == "local":
            c.next()
            if self.lookup is None:
                c.error("local value in a constant", t)
            return self.lookup(_strip_sigil(t.text), ty, t)
        if k == "global":
            c.next()
            g = self.module.globals.get(_strip_sigil(t.text))
            if g is None:
                c.error(f"use of undefined global {t.text}", t)
            return g
        if k == "num":
            c.next()
            if isinstance(ty, IntType):
                return ConstantInt(ty, _int_literal(t.text, ty.bits))
            if isinstance(ty, FloatType):
                return ConstantFP(ty, t.text)
            c.error(f"number is not a valid {ty} constant", t)
        if k == "cstr":
            c.next()
            return ConstantText(ty, t.text)
        if k == "meta" or (t.text == "!" and k == "punct"):
            a = c.i
            c.next()
            if c.at("(") or c.at("{"):
                c.skip_balanced()
            return ConstantText(ty if ty != OpaqueType() else METADATA, c.text_between(a, c.i))
        if k == "punct":
            if t.text in ("{", "[") or (t.text == "<" and c.peek().text == "{"):
                return self._aggregate(ty)
            if t.text == "<":
                return self._aggregate(ty)
        if k == "word":
            w = t.text
            if w in ("true", "false"):
                c.next()
                return ConstantInt(ty, 1 if w == "true" else 0)
            if w in ("null", "undef", "poison", "zeroinitializer", "none"):
                c.next()
                return ConstantKeyword(ty, w)
            if w == "splat":
                c.next()
                c.expect("(")
                el = self.parse_typed()
                c.expect(")")
                return ConstantExpr(ty, "splat", [el])
            if w == "getelementptr":
                c.next()
                fl = self._flags(GEP_FLAGS, allow_inrange=True)
                c.expect("(")
                st = self.types.parse_type()
                ops: list[Value] = []
                while c.accept(","):
                    ops.append(self.parse_typed())
                c.expect(")")
                return ConstantExpr(ty, "getelementptr", ops, fl, st)
            if w in I.CAST_OPCODES:
                c.next()
                fl = self._flags(INT_FLAGS)
                c.expect("(")
                x = self.parse_typed()
                c.expect("to")
                to = self.types.parse_type()
                c.expect(")")
                return ConstantExpr(to, w, [x], fl)
            if w in ("add", "sub", "mul", "xor", "shl", "and", "or"):
                c.next()
                fl = self._flags(INT_FLAGS)
                c.expect("(")
                lhs = self.parse_typed()
                c.expect(",")
                rhs = self.parse_typed()
                c.expect(")")
                return ConstantExpr(lhs.type, w, [lhs, rhs], fl)
            if w == "asm":
                a = c.i
                c.next()
                while c.tok.kind == "word":
                    c.next()
                c.next()  # asm string
                c.expect(",")
                c.next()  # constraints
                return ConstantText(ty, c.text_between(a, c.i))
            if w in VALUE_KEYWORDS:  # blockaddress(...), dso_local_equivalent @f, ...
                a = c.i
                c.next()
                if c.at("("):
                    c.skip_balanced()
                elif c.tok.kind == "global":
                    c.next()
                return ConstantText(ty, c.text_between(a, c.i))
        c.error(f"expected a value of type {ty}")
        raise AssertionError

    def _aggregate(self, ty: Type) -> Value:
        c = self.c
        open_ = c.next().text
        packed = open_ == "<" and c.accept("{")
        close = {"{": "}", "[": "]", "<": ">"}[open_]
        els: list[Value] = []
        if not c.at("}" if packed else close):
            els.append(self.parse_typed())
            while c.accept(","):
                els.append(self.parse_typed())
        if packed:
            c.expect("}")
        c.expect(close, "to close the constant")
        return ConstantAggregate(ty, els)

    def _flags(self, allowed: frozenset[str], allow_inrange: bool = False) -> str:
        c = self.c
        a = c.i
        while c.tok.kind == "word" and (c.tok.text in allowed or (allow_inrange and c.tok.text == "inrange")):
            if c.next().text == "inrange":
                c.skip_balanced()
        return c.text_between(a, c.i)


class FunctionBodyParser:
    def __init__(self, c: _Cursor, module: Module, f: Function) -> None:
        self.c = c
        self.module = module
        self.f = f
        self.symbols: dict[str, Value] = {}
        self.values = ValueParser(c, module, self._lookup)
        self.types = self.values.types
        self.pending_blocks: dict[str, Block] = {}
        self._type_cache: dict[str, Type] = {}

    # -- symbols -------------------------------------------------------------
    def _lookup(self, name: str, ty: Type, tok: Token) -> Value:
        v = self.symbols.get(name)
        if v is not None and isinstance(v.type, OpaqueType) and not isinstance(ty, OpaqueType):
            v.type = ty  # a use tells the type of a value whose definition the model keeps as text
        if v is None:
            if ty == LABEL:
                return self._block_ref(name)
            v = Placeholder(ty, name)
            self.symbols[name] = v
        return v

    def _block_ref(self, name: str) -> Block:
        v = self.symbols.get(name)
        if isinstance(v, Block):
            return v
        if v is not None and not isinstance(v, Placeholder):
            self.c.error(f"%{name} is not a basic block")
        b = self.pending_blocks.get(name)
        if b is None:
            b = Block(name, None)
            self.pending_blocks[name] = b
        return b

    def _define(self, name: str, v: Value, tok: Token) -> None:
        old = self.symbols.get(name)
        if old is not None:
            if not isinstance(old, Placeholder):
                self.c.error(f"redefinition of %{name}", tok)
            old.replace_all_uses_with(v)
        self.symbols[name] = v

    # -- body ------------------------------------------------------------------
    def parse(self) -> None:
        c, f = self.c, self.f
        for a in f.args:
            if a.name is not None:
                self.symbols[a.name] = a
        block: Block | None = None
        records: list[I.DebugRecord] = []
        while c.tok.kind != "eof":
            t = c.tok
            if t.kind == "label" and t.line_start:
                c.next()
                name = _strip_sigil("%" + t.text[:-1])
                block = self.pending_blocks.pop(name, None) or Block(name, f)
                block.parent = f
                if name in self.symbols and not isinstance(self.symbols[name], Placeholder):
                    c.error(f"redefinition of label {name}", t)
                self._define(name, block, t)
                f.blocks.append(block)
                continue
            if t.kind == "word" and t.text in ("uselistorder", "uselistorder_bb") and t.line_start and f.blocks:
                # Use-list order directives end a body; use-list order has no meaning for us (LLVM keeps its own).
                c.next()
                while not c.tok.line_start and c.tok.kind != "eof":
                    c.next()
                continue
            if block is None:
                if f.blocks:
                    c.error("instruction after a terminator needs a block label")
                # The unlabeled entry block takes the next slot number after the arguments.
                name = str(sum(1 for a in f.args if _is_numbered(a.name)))
                block = self.pending_blocks.pop(name, None) or Block(name, f)
                block.parent = f
                self._define(name, block, t)
                f.blocks.append(block)
            if t.kind == "dbg":
                records.append(self._debug_record())
                continue
            inst = self._instruction()
            inst.debug_records = records
            records = []
            block.instructions.append(inst)
            inst.parent = block
            if inst.is_terminator:
                block = None
        if records:
            c.error("debug record at the end of a block")
        if self.pending_blocks:
            name = next(iter(self.pending_blocks))
            raise IRParseError(f"@{f.name}: use of undefined label %{name}")
        for name, v in self.symbols.items():
            if isinstance(v, Placeholder):
                raise IRParseError(f"@{f.name}: use of undefined value %{name}")
        for blk in f.blocks:
            if blk.terminator is None:
                raise IRParseError(f"@{f.name}: block {blk.name or '(entry)'} has no terminator")
        # Numbered names are slots: the printer renumbers them.
        for a in f.args:
            if _is_numbered(a.name):
                a.name = None
        for blk in f.blocks:
            if _is_numbered(blk.name):
                blk.name = None
            for inst in blk.instructions:
                if _is_numbered(inst.name):
                    inst.name = None

    def _debug_record(self) -> I.DebugRecord:
        c = self.c
        t = c.next()
        kind = t.text[len("#dbg_"):]
        a = c.i
        c.skip_balanced()
        inner = c.toks[a + 1:c.i - 1]
        pieces: list[str | int] = []
        operands: list[Value] = []
        pos = c.toks[a].end
        for j, tk in enumerate(inner):
            if tk.kind == "local":
                pieces.append(self.c.src[pos:tk.start])
                prev = inner[j - 1] if j > 0 else None
                ty: Type = OpaqueType()
                if prev is not None:
                    try:
                        ty = self._type_from_text(prev.text)
                    except IRParseError:
                        pass
                pieces.append(len(operands))
                operands.append(self._lookup(_strip_sigil(tk.text), ty, tk))
                pos = tk.end
        pieces.append(self.c.src[pos:c.toks[c.i - 1].start])
        return I.DebugRecord(kind, [p for p in pieces if p != ""], operands)

    def _type_from_text(self, text: str) -> Type:
        cache = self._type_cache
        t = cache.get(text)
        if t is None:
            if not _could_start_type(tokenize(text)[0]):
                raise IRParseError(f"not a type: {text}")
            t = cache[text] = TypeParser(_Cursor(text, tokenize(text)), self.module).parse_type()
        return t

    def _instruction(self) -> I.Instruction:
        c = self.c
        name = None
        name_tok = c.tok
        if c.tok.kind == "local" and c.peek().text == "=":
            name = _strip_sigil(c.next().text)
            c.next()
        op_tok = c.tok
        if op_tok.kind != "word":
            c.error("expected an instruction")
        op = op_tok.text
        handler = _HANDLERS.get(op)
        if handler is None:
            inst = self._opaque(name is not None)
        else:
            inst = handler(self)
        self._attachments(inst)
        if name is not None:
            if inst.type.is_void:
                c.error(f"cannot name a void {op}", name_tok)
            inst.name = name
            self._define(name, inst, name_tok)
        return inst

    def _attachments(self, inst: I.Instruction) -> None:
        c = self.c
        while c.at(",") and c.peek().kind == "meta":
            c.next()
            kind = c.next().text[1:]
            a = c.i
            c.next()
            if c.at("{") or c.at("("):
                c.skip_balanced()
            inst.metadata.append((kind, c.text_between(a, c.i)))
        if c.same_line():
            c.error(f"unexpected text after {inst.opcode}")

    # -- helpers -------------------------------------------------------------
    def _flags(self, allowed: frozenset[str]) -> list[str]:
        c = self.c
        out = []
        while c.tok.kind == "word" and c.tok.text in allowed:
            out.append(c.next().text)
        return out

    def _typed(self) -> Value:
        return self.values.parse_typed()

    def _value(self, ty: Type) -> Value:
        return self.values.parse_value(ty)

    def _align(self) -> int | None:
        c = self.c
        if c.at(",") and c.peek().text == "align":
            c.next()
            c.next()
            return int(c.next().text)
        return None

    def _tail(self) -> str:
        """Remaining ``, clause`` text on the line that is not a metadata attachment."""
        c = self.c
        a = c.i
        while c.same_line() and not (c.at(",") and c.peek().kind == "meta"):
            c.skip_balanced()
        return c.text_between(a, c.i)

    def _ordering(self) -> str:
        c = self.c
        a = c.i
        while c.tok.kind == "word" and c.same_line() or c.at("syncscope"):
            if c.next().text == "syncscope":
                c.skip_balanced()
        return c.text_between(a, c.i)

    # -- instruction kinds -------------------------------------------------
    def binary(self) -> I.Instruction:
        op = self.c.next().text
        flags = self._flags(FMF | INT_FLAGS)
        a = self._typed()
        self.c.expect(",")
        b = self._value(a.type)
        return I.BinaryOperator(op, a, b, flags)

    def unary(self) -> I.Instruction:
        op = self.c.next().text
        flags = self._flags(FMF)
        return I.UnaryOperator(op, self._typed(), flags)

    def cast(self) -> I.Instruction:
        op = self.c.next().text
        flags = self._flags(FMF | INT_FLAGS)
        x = self._typed()
        self.c.expect("to")
        return I.CastInst(op, x, self.types.parse_type(), flags)

    def cmp(self) -> I.Instruction:
        c = self.c
        op = c.next().text
        flags = self._flags(FMF | INT_FLAGS)
        pred = c.next().text
        a = self._typed()
        c.expect(",")
        b = self._value(a.type)
        rt: Type = VectorType(a.type.count, I1, a.type.scalable) if isinstance(a.type, VectorType) else I1
        return I.CmpInst(op, pred, a, b, rt, flags)

    def select(self) -> I.Instruction:
        c = self.c
        c.next()
        flags = self._flags(FMF)
        cond = self._typed()
        c.expect(",")
        a = self._typed()
        c.expect(",")
        b = self._typed()
        return I.SelectInst(cond, a, b, flags)

    def phi(self) -> I.Instruction:
        c = self.c
        c.next()
        flags = self._flags(FMF)
        ty = self.types.parse_type()
        inc: list[tuple[Value, Block]] = []
        while True:
            c.expect("[", "in phi")
            v = self._value(ty)
            c.expect(",")
            bt = c.next()
            if bt.kind != "local":
                c.error("expected a block label in phi", bt)
            inc.append((v, self._block_ref(_strip_sigil(bt.text))))
            c.expect("]")
            if not (c.at(",") and c.peek().text == "["):
                break
            c.next()
        return I.PhiInst(ty, inc, flags)

    def alloca(self) -> I.Instruction:
        c = self.c
        c.next()
        flags = self._flags(frozenset({"inalloca", "swifterror"}))
        ty = self.types.parse_type()
        count = None
        if c.at(",") and c.peek().text not in ("align", "addrspace") and c.peek().kind != "meta":
            c.next()
            count = self._typed()
        align = self._align()
        tail = self._tail()
        rt = PTR
        m = re.search(r"addrspace\((\d+)\)", tail)
        if m:
            rt = PointerType(int(m.group(1)))
        return I.AllocaInst(ty, count, align, rt, flags, tail)

    def load(self) -> I.Instruction:
        c = self.c
        c.next()
        atomic = c.accept("atomic")
        volatile = c.accept("volatile")
        ty = self.types.parse_type()
        c.expect(",")
        p = self._typed()
        ordering = self._ordering() if atomic else ""
        align = self._align()
        return I.LoadInst(ty, p, align, volatile, atomic, ordering, self._tail())

    def store(self) -> I.Instruction:
        c = self.c
        c.next()
        atomic = c.accept("atomic")
        volatile = c.accept("volatile")
        v = self._typed()
        c.expect(",")
        p = self._typed()
        ordering = self._ordering() if atomic else ""
        align = self._align()
        return I.StoreInst(v, p, align, volatile, atomic, ordering, self._tail())

    def gep(self) -> I.Instruction:
        c = self.c
        c.next()
        flags: list[str] = []
        while c.tok.kind == "word" and c.tok.text in GEP_FLAGS:
            flags.append(c.next().text)
        st = self.types.parse_type()
        c.expect(",")
        p = self._typed()
        idx: list[Value] = []
        while c.at(",") and c.peek().kind != "meta":
            c.next()
            idx.append(self._typed())
        rt = p.type
        for v in [p, *idx]:
            if isinstance(v.type, VectorType):
                rt = VectorType(v.type.count, p.type if not isinstance(p.type, VectorType) else p.type.element,
                                v.type.scalable)
                break
        return I.GEPInst(st, p, idx, rt, flags)

    def call(self) -> I.Instruction:
        c = self.c
        tail_kind = ""
        if c.tok.text in ("tail", "musttail", "notail"):
            tail_kind = c.next().text
        opcode = c.next().text  # call / invoke
        flags = self._flags(FMF)
        a = c.i
        # Skip calling convention / return attributes up to "<type> <callee>(".
        shown: Type | None = None
        while True:
            k = c.i
            shown = _try_type(self.types)
            if shown is not None and (c.tok.kind in ("local", "global")
                                      or (c.tok.kind == "word" and c.tok.text in VALUE_KEYWORDS)):
                break
            c.i = k
            if c.tok.kind == "eof" or not c.same_line() and c.i > a:
                c.error(f"expected the callee of the {opcode}")
            c.skip_balanced()
        prefix = c.text_between(a, k)
        # LLVM declares an intrinsic that is called without a declaration; so do we, once the call's type is known.
        undeclared = None
        if c.tok.kind == "global" and c.tok.text.startswith("@llvm.") \
                and _strip_sigil(c.tok.text) not in self.values.module.globals:
            undeclared = _strip_sigil(c.next().text)
        else:
            callee = self._value(PTR)
        c.expect("(", "to open the argument list")
        args: list[Value] = []
        arg_attrs: list[str] = []
        while not c.at(")"):
            ty = self.types.parse_type()
            a0 = c.i
            while c.tok.kind in ("word", "str", "punct", "label") and not (
                    c.tok.kind == "word" and c.tok.text in VALUE_KEYWORDS) and c.tok.text not in (",", ")", "{", "[", "<"):
                w = c.tok.text
                c.skip_balanced()
                if w == "align" and c.tok.kind == "num":
                    c.next()
                elif c.at("="):  # "key"="value"
                    c.next()
                    c.next()
            arg_attrs.append(c.text_between(a0, c.i))
            args.append(self._value(ty))
            if not c.accept(","):
                break
        c.expect(")", "to close the argument list")
        if isinstance(shown, FunctionType):
            fty = shown
        else:
            fty = FunctionType(shown, tuple(v.type for v in args))
        if undeclared is not None:
            callee = self.values.module.declare_function(undeclared, fty)
        fa = c.i
        while c.same_line() and c.tok.kind in ("attrgrp", "word", "str") and c.tok.text not in ("to",):
            c.skip_balanced()
        fn_attrs = c.text_between(fa, c.i)
        bundles: list[tuple[str, list[Value]]] = []
        if c.same_line() and c.at("["):
            c.next()
            while True:
                tag = c.next().text
                c.expect("(")
                ins: list[Value] = []
                while not c.at(")"):
                    ins.append(self._typed())
                    if not c.accept(","):
                        break
                c.expect(")")
                bundles.append((tag, ins))
                if not c.accept(","):
                    break
            c.expect("]")
        kw = dict(arg_attrs=arg_attrs, tail_kind=tail_kind, flags=flags, prefix=prefix, fn_attrs=fn_attrs,
                  bundles=bundles)
        if opcode == "invoke":
            c.expect("to")
            normal = self._label()
            c.expect("unwind")
            unwind = self._label()
            return I.InvokeInst(fty, callee, args, normal, unwind, **kw)
        return I.CallInst(fty, callee, args, **kw)  # type: ignore[arg-type]

    def _label(self) -> Block:
        c = self.c
        c.expect("label")
        t = c.next()
        if t.kind != "local":
            c.error("expected a block label", t)
        return self._block_ref(_strip_sigil(t.text))

    def ret(self) -> I.Instruction:
        c = self.c
        c.next()
        if c.accept("void"):
            return I.ReturnInst()
        return I.ReturnInst(self._typed())

    def br(self) -> I.Instruction:
        c = self.c
        c.next()
        if c.at("label"):
            return I.BranchInst(self._label())
        cond = self._typed()
        c.expect(",")
        t = self._label()
        c.expect(",")
        return I.BranchInst(cond, t, self._label())

    def switch(self) -> I.Instruction:
        c = self.c
        c.next()
        cond = self._typed()
        c.expect(",")
        default = self._label()
        c.expect("[")
        cases: list[tuple[Value, Block]] = []
        while not c.at("]"):
            v = self._typed()
            c.expect(",")
            cases.append((v, self._label()))
        c.expect("]")
        return I.SwitchInst(cond, default, cases)

    def unreachable(self) -> I.Instruction:
        self.c.next()
        return I.UnreachableInst()

    def resume(self) -> I.Instruction:
        self.c.next()
        return I.ResumeInst(self._typed())

    def _indices(self) -> list[int]:
        c = self.c
        out = []
        while c.at(",") and c.peek().kind == "num":
            c.next()
            out.append(int(c.next().text))
        return out

    def extractvalue(self) -> I.Instruction:
        self.c.next()
        agg = self._typed()
        idx = self._indices()
        t = agg.type
        for k in idx:
            t = t.elements[k] if isinstance(t, StructType) else t.element  # type: ignore[attr-defined]
        return I.ExtractValueInst(agg, idx, t)

    def insertvalue(self) -> I.Instruction:
        c = self.c
        c.next()
        agg = self._typed()
        c.expect(",")
        v = self._typed()
        return I.InsertValueInst(agg, v, self._indices())

    def extractelement(self) -> I.Instruction:
        c = self.c
        c.next()
        v = self._typed()
        c.expect(",")
        return I.ExtractElementInst(v, self._typed())

    def insertelement(self) -> I.Instruction:
        c = self.c
        c.next()
        v = self._typed()
        c.expect(",")
        x = self._typed()
        c.expect(",")
        return I.InsertElementInst(v, x, self._typed())

    def shufflevector(self) -> I.Instruction:
        c = self.c
        c.next()
        a = self._typed()
        c.expect(",")
        b = self._typed()
        c.expect(",")
        mask = self._typed()
        assert isinstance(a.type, VectorType) and isinstance(mask.type, VectorType)
        rt = VectorType(mask.type.count, a.type.element, mask.type.scalable)
        return I.ShuffleVectorInst(a, b, mask, rt)  # type: ignore[arg-type]

    def freeze(self) -> I.Instruction:
        self.c.next()
        return I.FreezeInst(self._typed())

    def va_arg(self) -> I.Instruction:
        c = self.c
        c.next()
        p = self._typed()
        c.expect(",")
        return I.VAArgInst(p, self.types.parse_type())

    def atomicrmw(self) -> I.Instruction:
        c = self.c
        c.next()
        volatile = c.accept("volatile")
        operation = c.next().text
        p = self._typed()
        c.expect(",")
        v = self._typed()
        ordering = self._ordering()
        return I.AtomicRMWInst(operation, p, v, ordering, self._align(), volatile)

    def cmpxchg(self) -> I.Instruction:
        c = self.c
        c.next()
        flags = self._flags(frozenset({"weak", "volatile"}))
        p = self._typed()
        c.expect(",")
        cmp = self._typed()
        c.expect(",")
        new = self._typed()
        ordering = self._ordering()
        return I.CmpXchgInst(p, cmp, new, ordering, StructType((cmp.type, I1)), flags, self._align())

    def fence(self) -> I.Instruction:
        self.c.next()
        return I.FenceInst(self._ordering())

    def landingpad(self) -> I.Instruction:
        c = self.c
        c.next()
        ty = self.types.parse_type()
        cleanup = c.accept("cleanup")
        clauses: list[tuple[str, Value]] = []
        while c.tok.kind == "word" and c.tok.text in ("catch", "filter"):
            k = c.next().text
            clauses.append((k, self._typed()))
        return I.LandingPadInst(ty, cleanup, clauses)

    def _opaque(self, has_result: bool) -> I.Instruction:
        """Keep an instruction we do not model as text with tracked value references."""
        c = self.c
        op = c.tok.text
        a = c.i
        first = True
        while c.tok.kind != "eof" and (first or c.same_line() or self._inside_brackets(a)
                                       or (c.tok.kind == "word" and c.tok.text in ("to", "unwind"))):
            first = False
            if c.at(",") and c.peek().kind == "meta" and not self._inside_brackets(a):
                break
            c.next()
        toks = c.toks[a:c.i]
        pieces: list[str | int] = []
        operands: list[Value] = []
        pos = toks[0].start
        for j, tk in enumerate(toks):
            if tk.kind == "local" and not self._is_type_name(tk):
                pieces.append(c.src[pos:tk.start])
                is_label = j > 0 and toks[j - 1].text == "label"
                v = self._block_ref(_strip_sigil(tk.text)) if is_label else \
                    self._lookup(_strip_sigil(tk.text), OpaqueType(), tk)
                pieces.append(len(operands))
                operands.append(v)
                pos = tk.end
        pieces.append(c.src[pos:toks[-1].end])
        inst = I.OpaqueInst(op, [p for p in pieces if p != ""], operands, has_result)
        if has_result and op in ("catchswitch", "catchpad", "cleanuppad"):
            inst.type = TOKEN
        return inst

    def _inside_brackets(self, a: int) -> bool:
        depth = 0
        for t in self.c.toks[a:self.c.i]:
            if t.kind == "punct":
                if t.text in "([{":
                    depth += 1
                elif t.text in ")]}":
                    depth -= 1
        return depth > 0

    def _is_type_name(self, tk: Token) -> bool:
        name = _strip_sigil(tk.text)
        return name in self.module.struct_types and name not in self.symbols


def _try_type(tp: TypeParser) -> Type | None:
    """A type at the cursor, or None (cursor then undefined) when there is none."""
    if not _could_start_type(tp.c.tok):
        return None
    try:
        return tp.parse_type()
    except IRParseError:
        return None


def _could_start_type(t: Token) -> bool:
    if t.kind == "word":
        return t.text in SIMPLE_TYPES or t.text == "target" or _INT_TYPE.match(t.text) is not None
    return t.kind == "local" or (t.kind == "punct" and t.text in "[<{")


def _strip_sigil(text: str) -> str:
    """``%"a b"`` -> ``a b``; ``@f`` -> ``f``; ``x:`` label text is passed with a ``%`` prefix."""
    body = text[1:]
    if body.startswith('"'):
        return unescape_string(body[1:-1])
    return body


_HANDLERS: dict[str, Callable[[FunctionBodyParser], I.Instruction]] = {
    **{op: FunctionBodyParser.binary for op in I.BINARY_OPCODES},
    **{op: FunctionBodyParser.cast for op in I.CAST_OPCODES},
    "fneg": FunctionBodyParser.unary,
    "icmp": FunctionBodyParser.cmp, "fcmp": FunctionBodyParser.cmp,
    "select": FunctionBodyParser.select, "phi": FunctionBodyParser.phi,
    "alloca": FunctionBodyParser.alloca, "load": FunctionBodyParser.load, "store": FunctionBodyParser.store,
    "getelementptr": FunctionBodyParser.gep,
    "call": FunctionBodyParser.call, "tail": FunctionBodyParser.call, "musttail": FunctionBodyParser.call,
    "notail": FunctionBodyParser.call, "invoke": FunctionBodyParser.call,
    "ret": FunctionBodyParser.ret, "br": FunctionBodyParser.br, "switch": FunctionBodyParser.switch,
    "unreachable": FunctionBodyParser.unreachable, "resume": FunctionBodyParser.resume,
    "extractvalue": FunctionBodyParser.extractvalue, "insertvalue": FunctionBodyParser.insertvalue,
    "extractelement": FunctionBodyParser.extractelement, "insertelement": FunctionBodyParser.insertelement,
    "shufflevector": FunctionBodyParser.shufflevector, "freeze": FunctionBodyParser.freeze,
    "va_arg": FunctionBodyParser.va_arg, "atomicrmw": FunctionBodyParser.atomicrmw,
    "cmpxchg": FunctionBodyParser.cmpxchg, "fence": FunctionBodyParser.fence,
    "landingpad": FunctionBodyParser.landingpad,
}


def parse_module(text: str) -> Module:
    """Parse LLVM 22 textual IR into a :class:`Module`; raises :class:`IRParseError`."""
    # The parser allocates many small objects and frees none: the cyclic GC
    # would only rescan them again and again.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return ModuleParser(text).parse()
    finally:
        if enabled:
            gc.enable()



def _int_literal(text: str, bits: int) -> int:
    """The value of an integer literal: decimal, ``0x`` hex, or LLVM's ``u0x``/``s0x`` hex (``s`` reads the digits as
    two's complement of their own width); wrapped to the signed range of ``bits`` as LLVM prints it."""
    neg = text.startswith("-")
    digits = text.lstrip("-")
    if digits[:1] in ("u", "s"):
        value = int(digits[3:], 16)
        width = 4 * len(digits[3:])
        if digits[0] == "s" and value >> (width - 1):
            value -= 1 << width
    elif digits.startswith("0x"):
        value = int(digits, 16)
    else:
        value = int(digits)
    value = -value if neg else value
    half = 1 << (bits - 1) if bits > 0 else 1
    if bits > 1 and not -half <= value < half:
        value = (value + half) % (1 << bits) - half
    return value
