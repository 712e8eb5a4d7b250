"""Enzyme's source annotations, read back from the IR into :class:`~enzyme.ad.custom.CustomRules`.

Three spellings reach the module, all upstream Enzyme's:

* attributes, lowered by the clang plugin (``frontends/clang``) to entries of
  ``@llvm.global.annotations``: ``enzyme_inactivefn`` (or ``enzyme_inactive``)
  and ``enzyme_inactivenoblockfn`` on a function, ``enzyme_inactive`` on a
  global variable, ``enzyme_function_like=<name>``, ``enzyme_nofree``
  (applied by LLVM, see :mod:`enzyme.llvm.registrations`), ``enzyme_shadow``
  with the shadow globals as arguments.  An entry on a ``__pyenzyme_autoreg_*``
  variable is about what that variable points to;
* tables, as C code writes them::

      void *__enzyme_function_like[2] = {(void *)my_log, (void *)"log"};
      void *__enzyme_allocation_like[4] = {(void *)arena_alloc, (void *)1, (void *)"0,-1", (void *)arena_free};
      void *__enzyme_inactive_global_x = (void *)&table;

  ``allocation_like``: the allocator, the index of its byte-count argument,
  then for each argument of the deallocator the allocator argument it
  takes (``-1``: the block itself), then the deallocator;
* ``!enzyme_shadow !{ptr @dglobal}`` metadata on a global (hand-written IR).

Semantics (as upstream): an *inactive function*'s calls carry no derivative,
neither through the result nor through what they write into pointer
arguments (those writes are invisible to the derivative; ``_noblock`` differs
only in whether upstream may inline the function first, which pyenzyme does
not, so the derivatives are the same); an *inactive global* holds constants:
values loaded from it carry no derivative and values stored into it drop
theirs; a *function_like* function is differentiated with the named
function's rule; an *allocation_like* function gets a zeroed shadow block
from the same allocator, released by the deallocator; a global with a
*shadow* is active memory whose shadow is that global.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import UsageError
from ..ir import (ConstantAggregate, ConstantExpr, ConstantInt, ConstantKeyword, ConstantText, Function,
                  GlobalVariable, Module, RawEntity, Value, strip_pointer_casts)

ANNOTATIONS = "llvm.global.annotations"
AUTOREG_PREFIX = "__pyenzyme_autoreg_"
FUNCTION_LIKE_TABLE = "__enzyme_function_like"
ALLOCATION_LIKE_TABLE = "__enzyme_allocation_like"
INACTIVE_GLOBAL_TABLE = "__enzyme_inactive_global"
TABLE_PREFIXES = (FUNCTION_LIKE_TABLE, ALLOCATION_LIKE_TABLE, INACTIVE_GLOBAL_TABLE)
_INACTIVE_FUNCTION = frozenset({"enzyme_inactivefn", "enzyme_inactive", "enzyme_inactivenoblockfn"})
_FUNCTION_LIKE = "enzyme_function_like="
# The annotations pyenzyme implements; any other enzyme_* entry of the table is refused.
_KNOWN = ("enzyme_inactivefn", "enzyme_inactive", "enzyme_inactivenoblockfn", "enzyme_nofree", "enzyme_shadow")


@dataclass(frozen=True)
class AllocationLike:
    """An allocator declared with ``__enzyme_allocation_like``."""

    size: int                           # index of the byte-count argument
    deallocator: Function
    deallocator_args: tuple[int, ...]   # per deallocator argument: allocator argument index, -1 = the block

    @property
    def block_index(self) -> int:
        """The deallocator argument that receives the block."""
        return self.deallocator_args.index(-1)

    def release_args(self, block: Value, allocator_arg: Callable[[int], Value]) -> list[Value]:
        """The deallocator's arguments for ``block``: the block and the allocator arguments it names."""
        return [block if k == -1 else allocator_arg(k) for k in self.deallocator_args]


@dataclass
class Annotations:
    inactive_functions: set[Function]
    inactive_globals: set[GlobalVariable]
    function_like: dict[Function, str]
    allocation_like: dict[Function, AllocationLike]
    shadows: dict[GlobalVariable, list[GlobalVariable]]
    tables: list[GlobalVariable]   # registration globals, removed after differentiation


def table_name(name: str) -> str:
    """``name`` without C++'s internal-linkage mangling (``_ZL24__enzyme_function_like`` -> ``__enzyme_...``)."""
    m = re.match(r"_ZL\d+", name)
    return name[m.end():] if m else name


def read_annotations(module: Module) -> Annotations:
    """The annotations of ``module``, checked (raises UsageError naming the annotation and how to fix it)."""
    out = Annotations(set(), set(), {}, {}, {}, [])
    for target, annotation, args in _annotation_entries(module):
        _apply(out, target, annotation, args)
    for g in module.global_variables:
        name = table_name(g.name or "")
        if name.startswith(FUNCTION_LIKE_TABLE):
            fn, like = _function_like_table(g)
            _add_function_like(out, fn, like, f"@{g.name}")
            out.tables.append(g)
        elif name.startswith(ALLOCATION_LIKE_TABLE):
            fn, spec = _allocation_like_table(g)
            out.allocation_like[fn] = spec
            out.tables.append(g)
        elif name.startswith(INACTIVE_GLOBAL_TABLE):
            held = strip_pointer_casts(g.initializer) if g.initializer is not None else None
            if not isinstance(held, GlobalVariable):
                raise UsageError(f"@{g.name}: an __enzyme_inactive_global* variable must hold the address of a global "
                                 "variable (void *__enzyme_inactive_global_x = (void *)&x;)")
            out.inactive_globals.add(held)
            out.tables.append(g)
        shadows = _shadow_metadata(module, g)
        if shadows:
            _add_shadows(out, g, shadows, "its !enzyme_shadow metadata")
    for g in out.shadows:
        if g in out.inactive_globals:
            raise UsageError(f"@{g.name} is declared both inactive and with a shadow (active); keep one")
    return out


def _annotation_entries(module: Module) -> list[tuple[Value, str, list[Value]]]:
    """(annotated value, annotation text, arguments) of every enzyme_* entry of @llvm.global.annotations."""
    table = module.globals.get(ANNOTATIONS)
    if not isinstance(table, GlobalVariable) or not isinstance(table.initializer, ConstantAggregate):
        return []
    out = []
    for entry in table.initializer.elements:
        if not isinstance(entry, ConstantAggregate) or len(entry.elements) < 2:
            continue
        text = c_string(entry.elements[1])
        if text is None or not text.startswith("enzyme_"):
            continue
        target = strip_pointer_casts(entry.elements[0])
        if isinstance(target, GlobalVariable) and table_name(target.name or "").startswith(AUTOREG_PREFIX):
            target = strip_pointer_casts(target.initializer) if target.initializer is not None else target
        args: list[Value] = []
        if len(entry.elements) > 4:
            packed = strip_pointer_casts(entry.elements[4])
            if isinstance(packed, GlobalVariable) and isinstance(packed.initializer, ConstantAggregate):
                args = [strip_pointer_casts(a) for a in packed.initializer.elements]
        out.append((target, text, args))
    return out


def _apply(out: Annotations, target: Value, annotation: str, args: list[Value]) -> None:
    what = f"the {annotation} annotation of {_describe(target)}"
    if annotation.startswith(_FUNCTION_LIKE):
        if not isinstance(target, Function):
            raise UsageError(f"{what}: enzyme_function_like applies to functions only")
        _add_function_like(out, target, annotation[len(_FUNCTION_LIKE):], what)
    elif annotation in _INACTIVE_FUNCTION and isinstance(target, Function):
        out.inactive_functions.add(target)
    elif annotation == "enzyme_inactive" and isinstance(target, GlobalVariable):
        out.inactive_globals.add(target)
    elif annotation == "enzyme_shadow" and isinstance(target, GlobalVariable):
        _add_shadows(out, target, args, what)
    elif annotation == "enzyme_nofree" and isinstance(target, Function):
        pass  # an LLVM attribute, set before optimizing (enzyme.llvm.registrations)
    elif annotation in _KNOWN:
        raise UsageError(f"{what}: does not apply to {_describe(target)}")
    else:
        raise UsageError(f"{what}: pyenzyme does not implement this Enzyme annotation; remove it (ignoring it "
                         "would give a wrong derivative)")


def _add_function_like(out: Annotations, fn: Function, target: str, where: str) -> None:
    if not target:
        raise UsageError(f"{where}: enzyme_function_like needs the name of a function, e.g. \"exp\"")
    known = out.function_like.get(fn)
    if known is not None and known != target:
        raise UsageError(f"{where}: @{fn.name} is declared like both {known} and {target}; keep one")
    out.function_like[fn] = target


def _add_shadows(out: Annotations, g: GlobalVariable, shadows: list[Value], where: str) -> None:
    found = []
    for s in shadows:
        s = strip_pointer_casts(s)
        if not isinstance(s, GlobalVariable) or s is g:
            raise UsageError(f"{where}: the shadow of @{g.name} must be another global variable, not {_describe(s)}")
        if s.value_type != g.value_type:
            raise UsageError(f"{where}: the shadow @{s.name} ({s.value_type}) of @{g.name} must have its type "
                             f"({g.value_type})")
        found.append(s)
    known = out.shadows.get(g)
    if known is not None and known != found:
        raise UsageError(f"{where}: @{g.name} is given two different shadows; keep one")
    out.shadows[g] = found


def _function_like_table(g: GlobalVariable) -> tuple[Function, str]:
    items = _items(g)
    fn = strip_pointer_casts(items[0]) if items else None
    target = c_string(items[1]) if len(items) > 1 else None
    if len(items) != 2 or not isinstance(fn, Function) or not target:
        raise UsageError(f"@{g.name}: expected {{(void *)function, (void *)\"name\"}} (a function and the name of "
                         f"the function it is like), found {_initializer(g)}")
    return fn, target


def _allocation_like_table(g: GlobalVariable) -> tuple[Function, AllocationLike]:
    items = _items(g)
    shape = ("{(void *)allocator, (void *)size_argument_index, (void *)\"deallocator arguments\", "
             "(void *)deallocator}")
    if len(items) != 4:
        raise UsageError(f"@{g.name}: expected {shape}, found {_initializer(g)}")
    fn, index, spec, dealloc = (strip_pointer_casts(v) for v in items)
    size = _integer(index)
    text = c_string(spec)
    if not isinstance(fn, Function) or not isinstance(dealloc, Function) or size is None or text is None:
        raise UsageError(f"@{g.name}: expected {shape}, found {_initializer(g)}")
    try:
        args = tuple(int(part) for part in text.split(","))
    except ValueError:
        args = ()
    nparams = len(fn.function_type.params)
    if (args.count(-1) != 1 or len(args) != len(dealloc.function_type.params)
            or any(not -1 <= a < nparams for a in args)):
        raise UsageError(f"@{g.name}: the deallocator arguments \"{text}\" must list, for each of the "
                         f"{len(dealloc.function_type.params)} arguments of @{dealloc.name}, the allocator argument "
                         "it receives (0-based) or -1 for the block, with exactly one -1")
    if not 0 <= size < nparams:
        raise UsageError(f"@{g.name}: argument index {size} is not an argument of @{fn.name} (it has {nparams})")
    return fn, AllocationLike(size, dealloc, args)


def _shadow_metadata(module: Module, g: GlobalVariable) -> list[Value]:
    """The globals named by ``!enzyme_shadow`` metadata on ``g`` (an attached node or an inline one)."""
    m = re.search(r"!enzyme_shadow\s+(!\d+|!\{[^}]*\})", g.suffix)
    if m is None:
        return []
    node = m.group(1)
    if not node.startswith("!{"):
        text = next((e.text for e in module.entities if isinstance(e, RawEntity) and e.kind == "metadata"
                     and re.match(re.escape(node) + r"\s*=", e.text)), "")
        node = text.split("=", 1)[1] if "=" in text else ""
    names = re.findall(r'@("(?:[^"\\]|\\.)*"|[-\w$.]+)', node)
    out: list[Value] = []
    for n in names:
        s = module.globals.get(n.strip('"'))
        if s is None:
            raise UsageError(f"@{g.name}: its !enzyme_shadow metadata names @{n}, which the module does not have")
        out.append(s)
    return out


def c_string(v: Value) -> str | None:
    """The text of a C string constant (``@.str = ... c"log\\00"``), or None."""
    v = strip_pointer_casts(v)
    while isinstance(v, ConstantExpr) and v.opcode == "getelementptr" and v.operands:
        v = strip_pointer_casts(v.operands[0])
    if not isinstance(v, GlobalVariable) or not isinstance(v.initializer, ConstantText):
        return None
    spelling = v.initializer.spelling
    if not spelling.startswith('c"'):
        return None
    raw = re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), spelling[2:-1])
    return raw.split("\0", 1)[0]


def _integer(v: Value) -> int | None:
    if isinstance(v, ConstantKeyword) and v.keyword in ("null", "zeroinitializer"):
        return 0
    if isinstance(v, ConstantExpr) and v.opcode == "inttoptr" and v.operands:
        v = v.operands[0]
    return v.value if isinstance(v, ConstantInt) else None


def _items(g: GlobalVariable) -> list[Value]:
    init = g.initializer
    return list(init.elements) if isinstance(init, ConstantAggregate) else []


def _initializer(g: GlobalVariable) -> str:
    return g.initializer.text() if g.initializer is not None else "no initializer"


def _describe(v: Value) -> str:
    if isinstance(v, Function):
        return f"function @{v.name}"
    if isinstance(v, GlobalVariable):
        return f"global variable @{v.name}"
    return v.text() if hasattr(v, "text") else repr(v)
