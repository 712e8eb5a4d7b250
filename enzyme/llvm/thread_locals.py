"""Thread-local variables for the JIT, lowered to emulated TLS before code generation.

The JIT links with RuntimeDyld, which cannot apply ELF TLS relocations: a
``thread_local`` global defined in a JIT-compiled module crashes the linker,
and an access to one defined by a loaded shared library (Rust's std, libstdc++)
reads the address of the JIT-ing thread's copy with native offsets and crashes
at run time.  So before JIT-compiling, accesses are rewritten:

- A thread-local variable the module defines becomes libgcc's emulated-TLS
  layout (the one LLVM's ``-emulated-tls`` uses): a control variable
  ``__emutls_v.<name> = { size, align, index, template }`` and an initializer
  template ``__emutls_t.<name>``; every access calls
  ``__emutls_get_address(&control)``, which allocates and initializes the
  calling thread's copy on first use (freed at thread exit).
- A thread-local variable declared here but defined by a loaded library has a
  native TLS block there; its address for the calling thread is what
  ``dlsym(RTLD_DEFAULT, name)`` returns (glibc resolves TLS symbols per
  thread).  An accessor function looks it up once per thread and keeps it in a
  module-defined thread-local slot, itself emulated as above.

Uses that cannot be rewritten (the address of a thread-local variable in
another global's initializer, an alias of one) raise LinkError naming the
variable: never a crash, never a silently shared copy.
"""
from __future__ import annotations

import ctypes
import math
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from enzyme.errors import LinkError

if TYPE_CHECKING:
    from enzyme.analysis.layout import DataLayout
    from enzyme.ir import Function, GlobalVariable, Instruction, Module, Value

_THREAD_LOCAL = re.compile(r"\bthread_local\b")
# A global variable line whose linkage words include thread_local (names may mention it too: Rust's std::thread_local).
_THREAD_LOCAL_GLOBAL = re.compile(r'^@(?:"[^"]*"|\S+) = [^"\n]*?\bthread_local\b', re.M)
# Globals whose initializers only list symbols to keep; they may name the control variable instead.
_SYMBOL_LISTS = ("llvm.used", "llvm.compiler.used")
_NON_DEFINITION_LINKAGES = ("external ", "extern_weak ", "available_externally ")
EMUTLS_RUNTIME = "gcc_s"  # libgcc_s provides __emutls_get_address on glibc systems


def has_thread_locals(text: str) -> bool:
    """Whether IR ``text`` defines or declares a thread-local variable (without parsing it)."""
    return _THREAD_LOCAL_GLOBAL.search(text) is not None


def lower_thread_locals(text: str) -> str:
    """IR ``text`` with every thread-local variable accessed through emulated TLS (see the module docstring)."""
    from enzyme.analysis.layout import DataLayout
    from enzyme.ir import parse_module, print_module

    module = parse_module(text)
    variables = _thread_locals(module)
    if not variables:
        return text
    _refuse_aliases(module, variables)
    # Library-defined variables: accessors, whose per-thread cache slots are defined variables lowered next.
    addresses: dict[Value, Value] = {g: _library_accessor(module, g) for g in variables if _is_declaration(g)}
    layout = DataLayout.of_module(module)
    addresses.update((g, _emulate(module, g, layout)) for g in _thread_locals(module) if not _is_declaration(g))
    for function in module.functions:
        rewriter = _UseRewriter(module, function, addresses)
        for inst in list(function.instructions()):
            rewriter.rewrite(inst)
    _rewrite_initializers(module, addresses)
    for g in _thread_locals(module):
        _remove(module, g)
    return print_module(module)


# ----------------------------------------------------------------- definitions
def _thread_locals(module: Module) -> list[GlobalVariable]:
    return [g for g in module.global_variables if _THREAD_LOCAL.search(f" {g.prefix} ")]


def _is_declaration(g: GlobalVariable) -> bool:
    prefix = f"{g.prefix} "
    return g.initializer is None or prefix.startswith(_NON_DEFINITION_LINKAGES) or " available_externally " in prefix


def _emulate(module: Module, g: GlobalVariable, layout: DataLayout) -> GlobalVariable:
    """The emulated-TLS control variable (and initializer template) replacing defined ``g``."""
    from enzyme.ir import ConstantAggregate, ConstantInt, ConstantKeyword, GlobalVariable, IntType, StructType
    from enzyme.ir.types import PTR

    word = IntType(8 * layout.pointer_size())
    align_match = re.search(r"\balign (\d+)", g.suffix)
    align = max(int(align_match.group(1)) if align_match else 1, layout.abi_align(g.value_type))
    initializer = g.initializer
    template: Value = ConstantKeyword(PTR, "null")  # libgcc zero-fills a copy without a template
    if initializer is not None and not _is_zero(initializer):
        template = module.add(GlobalVariable(
            module.unique_name(f"__emutls_t.{g.name}"), g.value_type, initializer=initializer,
            is_constant=True, prefix="internal unnamed_addr", suffix=f", align {align}"))
    control_type = StructType((word, word, PTR, PTR))
    fields = [ConstantInt(word, layout.alloc_size(g.value_type)), ConstantInt(word, align),
              ConstantKeyword(PTR, "null"), template]
    return module.add(GlobalVariable(  # type: ignore[return-value]
        module.unique_name(f"__emutls_v.{g.name}"), control_type,
        initializer=ConstantAggregate(control_type, fields), prefix="internal",
        suffix=f", align {layout.pointer_size()}"))


def _is_zero(c: Value) -> bool:
    from enzyme.ir import ConstantAggregate, ConstantFP, ConstantInt, ConstantKeyword

    if isinstance(c, ConstantKeyword):
        return c.keyword in ("zeroinitializer", "null", "undef", "poison")
    if isinstance(c, ConstantInt):
        return c.value == 0
    if isinstance(c, ConstantFP):
        return c.value == 0.0 and math.copysign(1.0, c.value) > 0  # -0.0 needs its template
    if isinstance(c, ConstantAggregate):
        return all(_is_zero(e) for e in c.elements)
    return False


def _library_accessor(module: Module, g: GlobalVariable) -> Function:
    """``ptr @__enzyme_tls.<name>()``: the calling thread's copy of a library's variable, looked up once per thread."""
    from enzyme.ir import ArrayType, ConstantKeyword, ConstantText, Function, FunctionType, GlobalVariable
    from enzyme.ir.builder import Builder
    from enzyme.ir.names import escape_string
    from enzyme.ir.types import I8, PTR

    name = g.name or ""
    if " extern_weak " not in f" {g.prefix} " and not _found_by_dlsym(name):
        raise LinkError(f"cannot JIT thread-local variable @{name}: no loaded library defines it; pass the shared "
                        "library that provides it (libraries=[...])")
    string_type = ArrayType(len(name.encode()) + 1, I8)
    symbol = module.add(GlobalVariable(
        module.unique_name(f"__enzyme_tls_name.{name}"), string_type,
        initializer=ConstantText(string_type, f'c"{escape_string(name)}\\00"'),
        is_constant=True, prefix="private unnamed_addr"))
    slot = module.add(GlobalVariable(
        module.unique_name(f"__enzyme_tls_slot.{name}"), PTR, initializer=ConstantKeyword(PTR, "null"),
        prefix="internal thread_local", suffix=", align 8"))
    dlsym = module.declare_function("dlsym", FunctionType(PTR, (PTR, PTR)))
    threadlocal_address = module.declare_function("llvm.threadlocal.address.p0", FunctionType(PTR, (PTR,)))
    accessor = Function(module.unique_name(f"__enzyme_tls.{name}"), FunctionType(PTR, ()), prefix="internal")
    module.add(accessor)
    entry, lookup, done = accessor.append_block("entry"), accessor.append_block("lookup"), accessor.append_block("done")
    b = Builder(entry)
    cell = b.call(threadlocal_address, [slot], name="cell")
    cached = b.load(PTR, cell, name="cached", align=8)
    b.cond_br(b.icmp("eq", cached, ConstantKeyword(PTR, "null"), name="first"), lookup, done)
    b.position(lookup)
    found = b.call(dlsym, [ConstantKeyword(PTR, "null"), symbol], name="found")  # RTLD_DEFAULT is null
    b.store(found, cell, align=8)
    b.br(done)
    b.position(done)
    address = b.phi(PTR, name="address")
    address.add_incoming(cached, entry)
    address.add_incoming(found, lookup)
    b.ret(address)
    return accessor


def _found_by_dlsym(name: str) -> bool:
    """Whether the accessor's run-time lookup, ``dlsym(RTLD_DEFAULT, name)``, finds ``name``."""
    libc = ctypes.CDLL(None)
    libc.dlsym.restype = ctypes.c_void_p
    libc.dlsym.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    return libc.dlsym(None, name.encode()) is not None


# ------------------------------------------------------------------------ uses
class _UseRewriter:
    """Rewrites a function's accesses to thread-local variables into calls giving this thread's address.

    ``addresses`` maps each variable to an emulated variable's control
    variable or to a library variable's accessor function.
    """

    def __init__(self, module: Module, function: Function, addresses: dict[Value, Value]) -> None:
        self.module = module
        self.function = function
        self.addresses = addresses

    def rewrite(self, inst: Instruction) -> None:
        from enzyme.ir import CallInst, ConstantExpr, PhiInst

        if isinstance(inst, CallInst) and (inst.callee.name or "").startswith("llvm.threadlocal.address") \
                and inst.args[0] in self.addresses:
            call = self._address_call(inst.args[0], inst)
            call.name, inst.name = inst.name, None
            inst.replace_all_uses_with(call)
            inst.erase()
            return
        # Direct uses (IR older than llvm.threadlocal.address, hand-written, C++'s __cxa_thread_atexit
        # arguments) mean the same thing.
        per_block: dict[tuple[Value, Value], Value] = {}  # a phi lists a block once per edge, with one value
        for index, operand in enumerate(inst.operands):
            if not _mentions(operand, self.addresses):
                continue
            if not isinstance(operand, ConstantExpr) and operand not in self.addresses:
                where = f"an operand of {inst.opcode} in @{self.function.name}"
                raise LinkError(_refusal(operand, self.addresses, where))
            if isinstance(inst, PhiInst):  # the value must exist at the end of the incoming block
                block: Any = inst.operands[index + 1]
                if (block, operand) not in per_block:
                    per_block[block, operand] = self._materialize(operand, block.terminator)
                inst.set_operand(index, per_block[block, operand])
            else:
                inst.set_operand(index, self._materialize(operand, inst))

    def _materialize(self, c: Value, where: Instruction) -> Value:
        """``c`` computed by instructions before ``where``, with thread-local variables at this thread's address."""
        from enzyme.ir import CastInst, ConstantExpr, GEPInst
        from enzyme.ir.values import CAST_OPCODES

        if c in self.addresses:
            return self._address_call(c, where)
        if not isinstance(c, ConstantExpr) or not any(_mentions(o, self.addresses) for o in c.operands):
            return c
        operands = [self._materialize(o, where) for o in c.operands]
        inst: Instruction
        if c.opcode == "getelementptr" and c.source_type is not None and "(" not in c.flags:
            inst = GEPInst(c.source_type, operands[0], operands[1:], type=c.type, flags=c.flags.split())
        elif c.opcode in CAST_OPCODES:
            inst = CastInst(c.opcode, operands[0], c.type, flags=c.flags.split())
        else:
            raise LinkError(_refusal(c, self.addresses, f"a '{c.opcode}' constant expression in @{self.function.name}"))
        _insert_before(where, inst)
        return inst

    def _address_call(self, variable: Value, where: Instruction) -> Instruction:
        """A call, inserted before ``where``, giving the calling thread's address of ``variable``."""
        from enzyme.ir import CallInst, Function, FunctionType
        from enzyme.ir.types import PTR

        target = self.addresses[variable]
        if isinstance(target, Function):
            call = CallInst(target.function_type, target, [])
        else:
            emutls = self.module.declare_function("__emutls_get_address", FunctionType(PTR, (PTR,)))
            call = CallInst(emutls.function_type, emutls, [target])
        _insert_before(where, call)
        return call


def _insert_before(where: Instruction, inst: Instruction) -> None:
    block = where.parent
    assert block is not None
    block.insert(block.instructions.index(where), inst)


def _rewrite_initializers(module: Module, addresses: dict[Value, Value]) -> None:
    from enzyme.ir import ArrayType, ConstantAggregate, Function
    from enzyme.ir.types import PTR

    for g in module.global_variables:
        if g.initializer is None or not _mentions(g.initializer, addresses):
            continue
        if g.name in _SYMBOL_LISTS and isinstance(g.initializer, ConstantAggregate):
            # Keep the variable's storage alive: list its control variable (or drop a library's symbol).
            kept = [addresses.get(e, e) for e in g.initializer.elements if not isinstance(addresses.get(e), Function)]
            g.value_type = ArrayType(len(kept), PTR)
            g.initializer = ConstantAggregate(g.value_type, kept)
            continue
        raise LinkError(_refusal(g.initializer, addresses, f"the initializer of @{g.name}"))


def _refuse_aliases(module: Module, variables: list[GlobalVariable]) -> None:
    from enzyme.ir import GlobalAlias
    from enzyme.ir.names import quote_name

    for alias in (e for e in module.entities if isinstance(e, GlobalAlias)):
        for g in variables:
            if re.search(rf"@{re.escape(quote_name(g.name or ''))}(?![\w.$\"])", alias.definition):
                raise LinkError(f"cannot JIT thread-local variable @{g.name}: alias @{alias.name} refers to it; "
                                "the JIT supports thread-local variables only through direct accesses")


def _mentions(c: Value, addresses: dict[Value, Value]) -> bool:
    return any(v in addresses for v in _constants_in(c))


def _constants_in(c: Value) -> Iterator[Value]:
    from enzyme.ir.values import iter_constant_operands

    yield c
    for operand in iter_constant_operands(c):
        yield from _constants_in(operand)


def _refusal(c: Value, addresses: dict[Value, Value], where: str) -> str:
    name = next(v.name for v in _constants_in(c) if v in addresses)
    return (f"cannot JIT thread-local variable @{name}: its address is used in {where}, which cannot be "
            "computed per thread; access it in code instead (or build a shared library or executable)")


def _remove(module: Module, g: GlobalVariable) -> None:
    from enzyme.ir import DebugRecord

    for use in list(g.uses):
        if isinstance(use.user, DebugRecord):
            use.user.drop_value(use.index)
    if g.has_uses:
        raise LinkError(f"cannot JIT thread-local variable @{g.name}: a use was left unrewritten "
                        f"({type(g.uses[0].user).__name__})")
    del module.globals[g.name or ""]
    module.entities.remove(g)
