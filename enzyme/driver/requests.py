"""Find ``__enzyme_autodiff`` / ``__enzyme_fwddiff`` / ``__enzyme_augmentfwd`` / ``__enzyme_reverse`` calls.

Argument conventions follow upstream Enzyme's C ABI: the first argument is
the function to differentiate; each primal argument may be preceded by a
marker global (``enzyme_dup``, ``enzyme_dupnoneed``, ``enzyme_const``,
``enzyme_out``); dup/dupnoneed arguments are followed by their shadow.
Without a marker, integers are const, floating-point values are ``out`` in
reverse mode and ``dup`` (value, tangent) in forward mode, pointers are dup.

C passes ``...`` arguments with the default argument promotions: ``bool``,
``char`` and ``short`` arrive as ``int``, ``float`` as ``double``.  The
decoder converts them back to the callee's parameter type, as a direct call
would (``bool``: ``!= 0``; ``char``/``short``: truncation; ``float``:
``fptrunc``), for values, forward-mode tangents and the ``dret`` of
``__enzyme_reverse``; other type mismatches are refused.  (Upstream Enzyme
converts only ``int`` to ``bool``, by truncation.)

Batch mode: ``enzyme_width, W`` right after the function (every entry point,
split mode included, where ``__enzyme_reverse`` then takes W drets); every dup argument is followed by W shadows,
or marked ``enzyme_dupv, stride`` with one shadow pointer whose direction j
lies ``j * stride`` bytes further.
``__enzyme_reverse`` takes, after the arguments, ``dret`` when the function
returns a floating-point value, then the tape from ``__enzyme_augmentfwd``.
Split mode also takes ``enzyme_allocated, bytes, enzyme_tape, ptr`` (the tape in
the caller's memory) before or after the arguments; ``enzyme_nocache`` before an
argument is accepted as a hint, ``enzyme_context, ctx`` in any call names the
program's global shadows (enzyme.driver.context_shadows).
"""
from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from ..ad.common import carries_float
from ..ad.modes import Activity
from ..errors import DifferentiationError, UsageError
from ..ir import (CallInst, Constant, ConstantInt, Function, GlobalVariable, Instruction, LoadInst,
                  Module, PhiInst, Type, Value, strip_pointer_casts)
from ..ir.types import DOUBLE, FLOAT, I1, I8, I32, I64, FloatType, IntType, PointerType, VectorType

MARKERS = {"enzyme_dup": Activity.DUP, "enzyme_dupnoneed": Activity.DUPNONEED, "enzyme_const": Activity.CONST,
           "enzyme_out": Activity.ACTIVE, "enzyme_dupv": Activity.DUP, "enzyme_dupnoneedv": Activity.DUPNONEED}
VECTOR_MARKERS = frozenset({"enzyme_dupv", "enzyme_dupnoneedv"})  # followed by a byte stride, then x, then dx
WIDTH_MARKER = "enzyme_width"
TAPE_MARKER = "enzyme_tape"
CONTEXT_MARKER = "enzyme_context"  # followed by what __enzyme_context returned (enzyme.driver.context_shadows)
ALLOCATED_MARKER = "enzyme_allocated"  # followed by the size in bytes of the caller's tape memory
# Before an argument: its memory is not changed between the sweeps, so upstream need not cache it.  A hint
# only: the split sweeps here cache what the reverse sweep reads either way, which is always correct.
NOCACHE_MARKER = "enzyme_nocache"
# What the call returns besides the derivatives (the C++ header <enzyme/enzyme> passes them first): the primal
# result or not, and the activity of the result (const: not seeded/no tangent; active: seeded with 1; dup: tangent).
RETURN_MARKERS = {"enzyme_primal_return": ("primal", True), "enzyme_noret": ("primal", False),
                  "enzyme_const_return": ("ret", "const"), "enzyme_active_return": ("ret", "active"),
                  "enzyme_dup_return": ("ret", "dup")}
UNSUPPORTED_MARKERS = frozenset({
    "enzyme_vector", "enzyme_scalar",
    "enzyme_shadow_return", "enzyme_interleave"})
# Anywhere among the arguments (a whole-call flag): the derivative need not free its memory.  __enzyme_fwdsplit
# then keeps the tape for further calls; the combined modes and __enzyme_augmentfwd free what they allocate
# either way (their tapes are internal or consumed by __enzyme_reverse), so there it changes nothing.
NOFREE_MARKER = "enzyme_nofree"
# Anywhere among the arguments: check at run time that no duplicated pointer is its own shadow
# (enzyme.driver.runtime_activity).
RUNTIME_ACTIVITY_MARKER = "enzyme_runtime_activity"
KNOWN_MARKERS = frozenset(MARKERS) | UNSUPPORTED_MARKERS | frozenset(RETURN_MARKERS) | {
    WIDTH_MARKER, TAPE_MARKER, ALLOCATED_MARKER, CONTEXT_MARKER, NOCACHE_MARKER, RUNTIME_ACTIVITY_MARKER,
    NOFREE_MARKER}
# Entry points by mode; "__enzyme_reverse" must not be tried before the others it is not a part of.
ENTRY_POINTS = (("__enzyme_autodiff", "reverse"), ("__enzyme_fwddiff", "forward"),
                ("__enzyme_augmentfwd", "augment"), ("__enzyme_reverse", "split_reverse"),
                ("__enzyme_fwdsplit", "forward_split"))
MODE_DESCRIPTIONS = {"reverse": "reverse", "forward": "forward", "augment": "reverse", "split_reverse": "reverse",
                     "forward_split": "forward"}
SPLIT_MODES = ("augment", "split_reverse", "forward_split")  # the calls that take a tape


@dataclass
class Arg:
    """One primal argument of a request and its activity (``shadows``: one per batch direction)."""

    activity: Activity
    value: Value
    shadows: list[Value] = field(default_factory=list)

    @property
    def shadow(self) -> Value | None:
        return self.shadows[0] if self.shadows else None


@dataclass
class Request:
    """One ``__enzyme_*`` call, decoded.

    ``mode`` is forward, reverse (``__enzyme_autodiff``), augment
    (``__enzyme_augmentfwd``) or split_reverse (``__enzyme_reverse``, which
    also has ``tape`` and, for a floating-point result, ``drets``: one per batch direction).
    """

    call: CallInst
    mode: str
    function: Function
    args: list[Arg]
    sret: Value | None = None  # where a struct result goes when the ABI returns it through memory
    width: int = 1
    drets: list[Value] = field(default_factory=list)  # __enzyme_reverse: the result's adjoint, one per direction
    tape: Value | None = None
    # enzyme_allocated: the caller's tape memory (``tape``, given with enzyme_tape) and its size in bytes
    allocated: Value | None = None
    context: Value | None = None  # enzyme_context: what __enzyme_context returned
    primal_return: bool = False  # enzyme_primal_return: the primal result comes first in what the call returns
    ret_activity: str | None = None  # enzyme_{const,active,dup}_return; None: the default for the mode
    runtime_activity: bool = False  # enzyme_runtime_activity
    nofree: bool = False  # enzyme_nofree: __enzyme_fwdsplit keeps the tape
    # made by decode before the call: enzyme_dupv address arithmetic, conversions of promoted arguments
    inserted: list[Instruction] = field(default_factory=list)

    def refreshed(self) -> Request:
        """Decoded again: replacing an earlier request may have replaced values this one passes (a tape, say)."""
        for inst in reversed(self.inserted):
            if not inst.has_uses:
                inst.erase()
        return decode(self.call, self.mode)

    @property
    def activities(self) -> tuple[str, ...]:
        return tuple(a.activity for a in self.args)


def where(call: CallInst) -> str:
    """``in @caller (file.c:12)`` for error messages."""
    from ..ir.debugloc import source_location
    f = call.function
    loc = source_location(call)
    return f"in @{f.name if f else '?'}" + (f" ({loc})" if loc else "")


def _marker(v: Value, seen: frozenset[Value] = frozenset()) -> str | None:
    """The marker global ``v`` is (or loads), if any; also through phis all of whose incoming values are the same
    marker (the LCSSA phi of a marker load that loop passes hoisted out of a loop)."""
    if isinstance(v, PhiInst):
        if v in seen:
            return ""  # a cycle back to a phi being looked at: no information
        names = {_marker(x, seen | {v}) for x, _ in v.incoming} - {""}
        return names.pop() if len(names) == 1 else None
    return marker_global(v, KNOWN_MARKERS)


def marker_global(v: Value, names: Collection[str]) -> str | None:
    """The name of the global among ``names`` that ``v`` is or loads (``enzyme_dup``, ``enzyme_scheme``...)."""
    g = strip_pointer_casts(v.pointer if isinstance(v, LoadInst) else v)
    return g.name if isinstance(g, GlobalVariable) and g.name in names else None


def step_function(call: CallInst, site: str) -> Function:
    """The step function a loop entry point (``__enzyme_fixed_point``, ``__enzyme_checkpoint_for``) gets first."""
    step = strip_pointer_casts(call.args[0]) if call.args else None
    if not isinstance(step, Function) or step.is_declaration:
        raise UsageError(f"{site}: the first argument must be the step function, defined in this program")
    return step


def _is_float(t: object) -> bool:
    return isinstance(t, FloatType) or (isinstance(t, VectorType) and isinstance(t.element, FloatType))


def calls_named(functions: Iterable[Function], name: str) -> list[CallInst]:
    """The calls in ``functions`` whose callee's name contains ``name`` (C declares upstream's entry points under
    names with suffixes, ``__enzyme_batch_v2``), collected before any of them is replaced."""
    functions = list(functions)
    module = getattr(functions[0], "module", None) if functions else None
    if module is not None and not any(name in symbol for symbol in module.globals):
        return []  # nothing in the module is named so (most modules): no need to look at every instruction
    return [inst for f in functions for inst in f.instructions()
            if isinstance(inst, CallInst) and name in (inst.callee_name or "")]


def find_requests(module: Module) -> list[Request]:
    out = []
    # Collected first: decoding enzyme_dupv inserts address arithmetic before the call.
    calls = [inst for f in module.functions for inst in f.instructions() if isinstance(inst, CallInst)]
    for inst in calls:
        name = inst.callee_name or ""
        mode = next((m for entry, m in ENTRY_POINTS if entry in name), None)
        if mode is not None:
            out.append(decode(inst, mode))
        elif "__enzyme_iter" in name or "todense" in name:
            continue  # enzyme.driver.iteration_counts, enzyme.driver.todense
        elif "__enzyme_" in name and inst.called_function is not None and inst.called_function.is_declaration:
            # Another upstream entry point (__enzyme_checkpoint_for, ...): nothing would define it, so the program could not link; say which one instead.
            raise DifferentiationError(
                f"{_source_name(name)} {where(inst)}: this Enzyme entry point is not supported yet (supported: "
                "__enzyme_autodiff, __enzyme_fwddiff, __enzyme_augmentfwd, __enzyme_reverse, __enzyme_fwdsplit, "
                "__enzyme_augmentsize, "
                "__enzyme_batch, __enzyme_context, __enzyme_shadow, __enzyme_zero_shadows, __enzyme_virtualreverse, "
                "__enzyme_iter, __enzyme_fixed_point, __enzyme_checkpoint_for, __enzyme_checkpoint_while, __enzyme_todense)")
    return out


def _source_name(name: str) -> str:
    """``__enzyme_iter`` for the C++ (Itanium-mangled) ``_Z13__enzyme_iterll`` as well as for C."""
    m = re.match(r"_Z(\d+)", name)
    return name[m.end():m.end() + int(m.group(1))] if m else name


class _Decoder:
    """Walks the arguments of one request call."""

    def __init__(self, call: CallInst, mode: str) -> None:
        self.call = call
        self.mode = mode
        self.reverse = mode not in ("forward", "forward_split")
        self.what = call.callee_name or "__enzyme_*"

    def fail(self, text: str, error: type[Exception] = UsageError) -> Exception:
        return error(f"{self.what} {where(self.call)}: {text}")


def decode(call: CallInst, mode: str) -> Request:
    d = _Decoder(call, mode)
    args = call.args
    sret = None
    if args and "sret" in call.arg_attrs[0]:
        # A struct result too big for registers: the ABI passes a pointer to it first.
        sret, args = args[0], args[1:]
    if not args:
        raise d.fail("missing the function to differentiate")
    fn = strip_pointer_casts(args[0])
    if not isinstance(fn, Function):
        raise d.fail("the first argument must be a function known at compile time (got a computed pointer)")
    if fn.is_declaration:
        raise d.fail(f"@{fn.name} has no body in this module; compile and link its source together with the caller",
                     DifferentiationError)
    i = 1
    width = 1
    if i < len(args) and _marker(args[i]) == WIDTH_MARKER:
        if i + 1 >= len(args):
            raise d.fail("enzyme_width is not followed by the width")
        w = args[i + 1]
        if not isinstance(w, ConstantInt) or w.value <= 0:
            raise d.fail(f"enzyme_width must be followed by a positive integer constant, got {_spell(w)}")
        width = w.value
        i += 2
    params = fn.function_type.params
    # A function returning a struct through a hidden pointer, asked for its tangent (the C++ interface's
    # Duplicated/DuplicatedNoNeed<std::vector<double>>): that pointer is a duplicated argument, see _sret_result.
    # (Only with enzyme_dup_return: a C caller may pass the hidden pointer and its shadow itself.)
    sret_result = sret is not None and mode == "forward" and bool(fn.args) and "sret" in fn.args[0].attrs \
        and any(_marker(a) == "enzyme_dup_return" for a in args)
    if sret_result:
        params = params[1:]
    decoded: list[Arg] = []
    inserted: list[Instruction] = []
    returns: dict[str, object] = {}
    tape_options: dict[str, Value] = {}  # enzyme_allocated, enzyme_tape, enzyme_context: the value after each
    options: set[str] = set()  # markers without a value: enzyme_runtime_activity

    explicit_width = width > 1

    def set_width(w: int | None) -> None:
        """A context of several lanes (``__enzyme_context(2)``) makes the call that many directions wide."""
        nonlocal width
        if w is None or w == width:
            return
        if explicit_width:
            raise d.fail(f"enzyme_width {width} contradicts the width {w} of the context")
        if decoded:
            raise d.fail(f"a context of width {w} must come before the arguments (their shadows depend on it)")
        width = w

    def skip_options(i: int) -> int:
        """Past the markers that may come before any argument or at the end: return markers, enzyme_nocache,
        enzyme_context ctx, and in split mode enzyme_allocated size / enzyme_tape ptr."""
        while i < len(args) and (mark := _marker(args[i])) is not None:
            if mark in RETURN_MARKERS:
                what, value = RETURN_MARKERS[mark]
                if returns.get(what, value) != value:
                    raise d.fail(f"{mark} contradicts an earlier return marker")
                returns[what] = value
                i += 1
            elif mark == NOCACHE_MARKER:
                i += 1
            elif mark in (RUNTIME_ACTIVITY_MARKER, NOFREE_MARKER):
                options.add(mark)
                i += 1
            elif mark == CONTEXT_MARKER:
                # The context's shadows are globals the derivative names itself: nothing to pass.
                if i + 1 >= len(args) or _marker(args[i + 1]) is not None:
                    raise d.fail("enzyme_context is not followed by the context (what __enzyme_context returned)")
                tape_options[CONTEXT_MARKER] = args[i + 1]
                set_width(_context_width(args[i + 1]))
                i += 2
            elif mark in (ALLOCATED_MARKER, TAPE_MARKER) and mode in SPLIT_MODES:
                i = _decode_tape_option(d, args, i, mark, tape_options)
            else:
                break
        return i

    for k, pt in enumerate(params):
        i = skip_options(i)
        if i >= len(args):
            raise d.fail(f"@{fn.name} takes {len(params)} arguments but only {len(decoded)} were given")
        mark = _marker(args[i])
        activity: Activity
        stride: Value | None = None
        if mark is not None:
            if mark in UNSUPPORTED_MARKERS:
                raise d.fail(f"marker {mark} is not supported yet", DifferentiationError)
            if mark == WIDTH_MARKER:
                raise d.fail("enzyme_width must come right after the function")
            if mark in (TAPE_MARKER, ALLOCATED_MARKER):
                raise d.fail(f"{mark} belongs to split mode (__enzyme_augmentfwd / __enzyme_reverse / "
                             "__enzyme_fwdsplit), not to "
                             f"{d.what}")
            activity = MARKERS[mark]
            i += 1
            if mark in VECTOR_MARKERS:
                if i >= len(args) or not isinstance(args[i].type, IntType):
                    raise d.fail(f"{mark} must be followed by a byte stride (an integer), the value and its shadow")
                stride = args[i]
                i += 1
            if i >= len(args):
                raise d.fail(f"{mark} is not followed by an argument")
        else:
            if isinstance(pt, PointerType):
                activity = Activity.DUP
            elif _is_float(pt):
                activity = Activity.ACTIVE if d.reverse else Activity.DUP
            else:
                activity = Activity.CONST
        v = _unpromoted(d, args[i], pt, f"argument {k + 1} of @{fn.name} has type {pt} but {{got}} was passed",
                        inserted)
        i += 1
        shadows: list[Value] = []
        if activity.has_shadow:
            if d.reverse and not isinstance(pt, PointerType):
                raise d.fail(f"argument {k + 1} of @{fn.name} is a {pt} value; in reverse mode pass it as "
                             "enzyme_out (or enzyme_const), not enzyme_dup")
            if stride is not None:
                if i >= len(args):
                    raise d.fail(f"argument {k + 1} of @{fn.name} is {mark} but has no shadow after it")
                shadows = _strided_shadows(d, args[i], pt, stride, width, k, fn, inserted)
                i += 1
            else:
                for j in range(width):
                    if i < len(args) and _marker(args[i]) == WIDTH_MARKER:
                        raise d.fail("enzyme_width must come right after the function")
                    if i >= len(args) or _marker(args[i]) is not None:
                        if width == 1:
                            raise d.fail(f"argument {k + 1} of @{fn.name} is {activity} but has no shadow after it")
                        leaf = (" (one shadow holding every direction of each element, upstream's "
                                "vectorize-at-leaf-nodes layout, is not supported; use enzyme_dupv for one "
                                "shadow with the directions one after another)") if j == 1 else ""
                        raise d.fail(f"argument {k + 1} of @{fn.name} is {activity} and needs {width} shadows "
                                     f"after it (enzyme_width {width}), got {j}{leaf}")
                    shadow = args[i]
                    i += 1
                    shadows.append(_unpromoted(d, shadow, pt, f"shadow {j + 1} of argument {k + 1} of @{fn.name} "
                                               f"has type {{got}}, expected {pt}", inserted))
        elif activity is Activity.ACTIVE:
            if not d.reverse:
                raise d.fail("enzyme_out is a reverse-mode marker; in forward mode pass the value and its tangent "
                             "(enzyme_dup)")
            if not _is_float(pt):
                raise d.fail(f"argument {k + 1} of @{fn.name} is a {pt}; only floating-point values can be "
                             "enzyme_out")
        decoded.append(Arg(activity, v, shadows))
    i = skip_options(i)
    if sret_result:
        assert sret is not None
        decoded.insert(0, _sret_result(d, fn, sret, width, returns, inserted))
        sret, returns = None, {}
    req = Request(call, mode, fn, decoded, sret, width, inserted=inserted,
                  primal_return=bool(returns.get("primal", False)), ret_activity=returns.get("ret"),  # type: ignore[arg-type]
                  runtime_activity=RUNTIME_ACTIVITY_MARKER in options, nofree=NOFREE_MARKER in options)
    if req.nofree and mode == "split_reverse":
        raise d.fail("enzyme_nofree is not supported with __enzyme_reverse (its reverse sweep uses its tape up)",
                     DifferentiationError)
    _check_return_markers(d, req)
    if mode in ("split_reverse", "forward_split"):
        i = _decode_split_tail(d, req, args, i, tape_options)
    if ALLOCATED_MARKER in tape_options and TAPE_MARKER not in tape_options:
        raise d.fail("enzyme_allocated gives the size of the caller's tape memory; pass that memory with "
                     "enzyme_tape, ptr")
    if mode == "augment" and TAPE_MARKER in tape_options and ALLOCATED_MARKER not in tape_options:
        raise d.fail("enzyme_tape in __enzyme_augmentfwd needs enzyme_allocated, size before it (the bytes "
                     "available there; __enzyme_augmentsize tells how many are needed)")
    req.tape = tape_options.get(TAPE_MARKER, req.tape)
    req.allocated = tape_options.get(ALLOCATED_MARKER)
    req.context = tape_options.get(CONTEXT_MARKER)
    if i != len(args):
        raise d.fail(f"@{fn.name} takes {len(params)} arguments but {len(args) - i} more were given")
    return req


def _sret_result(d: _Decoder, fn: Function, sret: Value, width: int, returns: dict[str, object],
                 inserted: list[Instruction]) -> Arg:
    """The hidden result pointer of ``fn`` as a duplicated argument: the tangent of the result is written to
    the call's own result (the entry point returns a struct too: ``{tangent}`` or, with
    enzyme_primal_return, ``{result, tangent}``); without enzyme_primal_return the result goes to a
    temporary of the caller."""
    from ..analysis.layout import DataLayout
    from ..ir.builder import Builder, InsertPoint, const_int
    if width != 1:
        raise d.fail(f"@{fn.name} returns its result through a hidden pointer; its tangent in {width} directions "
                     "is not supported yet", DifferentiationError)
    m = re.search(r'sret\(%("[^"]+"|[-\w.$]+)\)', fn.args[0].attrs)
    module = fn.module
    caller = d.call.function
    t = module.struct_types.get(m.group(1).strip('"')) if m and isinstance(module, Module) else None
    if t is None or not isinstance(module, Module) or caller is None:
        raise d.fail(f"cannot tell the result type of @{fn.name} from {fn.args[0].attrs!r}", DifferentiationError)
    entry = caller.blocks[0]
    if returns.get("primal"):
        b = Builder(InsertPoint.before_inst(d.call))
        shadow = b.gep(I8, sret, [const_int(I64, DataLayout.of_module(module).alloc_size(t))])
        inserted.append(shadow)  # type: ignore[arg-type]
        return Arg(Activity.DUP, sret, [shadow])
    primal = Builder(InsertPoint.before_inst(entry.instructions[0])).alloca(t)
    inserted.append(primal)  # type: ignore[arg-type]
    return Arg(Activity.DUP, primal, [sret])


def _context_width(v: Value) -> int | None:
    """The width of a context handle (enzyme.driver.context_shadows), None for another value."""
    g = strip_pointer_casts(v)
    if isinstance(g, GlobalVariable) and (g.name or "").startswith("__pyenzyme_context") and \
            isinstance(g.initializer, ConstantInt):
        return g.initializer.value
    return None


def _check_return_markers(d: _Decoder, req: Request) -> None:
    fn, ret = req.function, req.ret_activity
    if ret is None and not req.primal_return:
        return
    if req.mode in SPLIT_MODES:
        raise d.fail("return markers (enzyme_primal_return, enzyme_*_return, enzyme_noret) are not supported in "
                     "split mode yet", DifferentiationError)
    if req.primal_return and fn.return_type.is_void:
        raise d.fail(f"enzyme_primal_return but @{fn.name} returns void")
    floating = _is_float(fn.return_type)
    allowed = {"forward": ("const", "dup"), "reverse": ("const", "active")}[req.mode]
    if ret is not None and ret not in allowed:
        raise d.fail(f"enzyme_{ret}_return is not a {MODE_DESCRIPTIONS[req.mode]}-mode return activity; use "
                     + " or ".join(f"enzyme_{a}_return" for a in allowed))
    if ret in ("dup", "active") and not floating:
        raise d.fail(f"enzyme_{ret}_return but @{fn.name} returns {fn.return_type}, which has no derivative; use "
                     "enzyme_const_return")


def _is_promotion(passed: Type, param: Type) -> bool:
    """Is ``passed`` what C's default argument promotions make of a ``param`` passed through ``...``?"""
    if isinstance(param, IntType):
        return param.bits < 32 and passed == I32   # bool, char, short -> int
    return param == FLOAT and passed == DOUBLE      # (_Float16 is passed as it is)


def _unpromoted(d: _Decoder, v: Value, pt: Type, mismatch: str, inserted: list[Instruction]) -> Value:
    """``v`` converted back to the parameter type ``pt`` it was promoted from, as a direct call converts
    (``bool`` parameters get ``v != 0``, like C's conversion to ``_Bool``); other types are refused with
    ``mismatch`` (its ``{got}`` is the type passed)."""
    from ..ir.builder import Builder, InsertPoint, const_int
    if v.type == pt:
        return v
    if not _is_promotion(v.type, pt):
        raise d.fail(mismatch.replace("{got}", str(v.type)))
    b = Builder(InsertPoint.before_inst(d.call))
    if pt == I1:
        out = b.icmp("ne", v, const_int(I32, 0))
    else:
        out = b.cast("trunc" if isinstance(pt, IntType) else "fptrunc", v, pt)
    inserted.append(out)  # type: ignore[arg-type]
    return out


def _decode_split_tail(d: _Decoder, req: Request, args: list[Value], i: int, options: dict[str, Value]) -> int:
    """``__enzyme_reverse``'s trailing ``[dret,]`` then the tape: ``enzyme_allocated, size, enzyme_tape, ptr``
    (unless given among the arguments), ``enzyme_tape, ptr`` or just the pointer; ``__enzyme_fwdsplit``'s
    trailing tape (its tangents come with the arguments)."""
    fn = req.function
    rt = fn.return_type
    for j in range(req.width if carries_float(rt) and req.mode == "split_reverse" else 0):
        if i >= len(args) or _marker(args[i]) is not None or isinstance(args[i].type, PointerType):
            what = "its adjoint (dret)" if req.width == 1 else f"its {req.width} adjoints (one dret per direction)"
            raise d.fail(f"@{fn.name} returns {rt}: pass {what} and then the tape after the arguments")
        req.drets.append(_unpromoted(d, args[i], rt, f"the adjoint of the result (dret) of @{fn.name} must be a "
                                     f"{rt}, got {{got}}", req.inserted))
        i += 1
    while i < len(args) and (mark := _marker(args[i])) in (ALLOCATED_MARKER, TAPE_MARKER):
        i = _decode_tape_option(d, args, i, mark, options)
    if TAPE_MARKER in options:
        return i
    if i >= len(args):
        raise d.fail("missing the tape: pass the pointer __enzyme_augmentfwd returned as the last argument")
    if not isinstance(args[i].type, PointerType):
        raise d.fail(f"the tape must be the pointer __enzyme_augmentfwd returned, got a {args[i].type}")
    req.tape = args[i]
    return i + 1


def _decode_tape_option(d: _Decoder, args: list[Value], i: int, mark: str, seen: dict[str, Value]) -> int:
    """``enzyme_allocated, bytes`` or ``enzyme_tape, ptr`` (anywhere among the arguments of a split-mode call)."""
    if mark in seen:
        raise d.fail(f"{mark} is given twice")
    if i + 1 >= len(args) or _marker(args[i + 1]) is not None:
        raise d.fail(f"{mark} is not followed by " + ("the size in bytes" if mark == ALLOCATED_MARKER else
                                                      "the tape pointer"))
    v = args[i + 1]
    want = IntType if mark == ALLOCATED_MARKER else PointerType
    if not isinstance(v.type, want):
        raise d.fail(f"{mark} must be followed by " + ("an integer size" if mark == ALLOCATED_MARKER else
                                                       "a pointer") + f", got a {v.type}")
    seen[mark] = v
    return i + 2


def _strided_shadows(d: _Decoder, base: Value, pt: Type, stride: Value, width: int, k: int,
                     fn: Function, inserted: list[Instruction]) -> list[Value]:
    """``enzyme_dupv``: direction j's shadow is at byte ``j * stride`` from ``base`` (loaded for values)."""
    from ..ir.builder import Builder, InsertPoint, const_int
    if not isinstance(base.type, PointerType):
        raise d.fail(f"the shadow of an enzyme_dupv argument ({k + 1} of @{fn.name}) must be a pointer, got "
                     f"{base.type}")
    b = Builder(InsertPoint.before_inst(d.call))
    before = len(b.block.instructions)
    step = stride if stride.type == I64 else b.cast("sext", stride, I64)
    out: list[Value] = []
    for j in range(width):
        p = base if j == 0 else b.gep(I8, base, [b.mul(step, const_int(I64, j))])
        out.append(p if isinstance(pt, PointerType) else b.load(pt, p))
    at = b.block.instructions.index(d.call)
    inserted += b.block.instructions[at - (len(b.block.instructions) - before):at]
    return out


def _spell(v: Value) -> str:
    if isinstance(v, ConstantInt):
        return str(v.value)
    return "a value computed at run time" if not isinstance(v, Constant) else v.text()
