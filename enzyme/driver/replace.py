"""Replace one ``__enzyme_*`` call by a call to the generated derivative."""
from __future__ import annotations

from collections.abc import Callable

from ..ad.common import ADContext
from ..ad.forward import forward_derivative, returns_tangent
from ..ad.modes import Activity
from ..errors import DifferentiationError, UsageError
from ..ir import (ArrayType, CallInst, ConstantInt, ConstantKeyword, FloatType, Function, InvokeInst, Module, PhiInst,
                  StructType, Type, Value, VectorType, strip_pointer_casts)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I64, IntType, PointerType
from .requests import Request, calls_named, where


def replace_request(ctx: ADContext, req: Request) -> CallInst:
    """Replace ``req``'s call; returns the call of the derivative that took its place."""
    if req.runtime_activity:
        from .runtime_activity import check_own_shadows
        check_own_shadows(ctx.module, req)
    if req.mode in ("forward", "forward_split"):
        return _replace_forward(ctx, req)
    if req.mode == "augment":
        return _replace_augment(ctx, req)
    if req.mode == "split_reverse":
        return _replace_split_reverse(ctx, req)
    from ..ad.reverse import reverse_derivative
    return _replace_reverse(ctx, req, lambda c, fn, acts, width: reverse_derivative(
        c, fn, acts, width, seed=req.ret_activity != "const", with_primal=req.primal_return))


def _finish(req: Request, result: Value | None) -> None:
    call = req.call
    if req.sret is not None:
        if result is None:
            raise UsageError(f"{call.callee_name} {where(call)}: declared to return a struct but "
                             f"@{req.function.name} has no enzyme_out arguments")
        Builder(InsertPoint.before_inst(call)).store(result, req.sret)
        result = None
    if call.type.is_void or result is None:
        if call.has_uses and result is None:
            raise UsageError(f"{call.callee_name} {where(call)}: the result is used but @{req.function.name} "
                             "returns no derivative")
    else:
        if result.type != call.type:
            result = _repack(Builder(InsertPoint.before_inst(call)), result, call.type)
        if isinstance(result.type, FloatType) and isinstance(call.type, FloatType) and \
                result.type.bits < call.type.bits:
            # A float derivative where C declared the usual `double __enzyme_autodiff(void *, ...)`: exact.
            result = Builder(InsertPoint.before_inst(call)).cast("fpext", result, call.type)
        if result.type != call.type:
            raise UsageError(f"{call.callee_name} {where(call)}: declared to return {call.type} but the "
                             f"derivative of @{req.function.name} is {result.type}")
        call.replace_all_uses_with(result)
    erase_call(call)


def erase_call(call: CallInst) -> None:
    """Remove a replaced call; an ``invoke`` (C++) continues on its normal path, without the unwind edge.

    Phis only the call used go too: an LCSSA phi of a marker load (``enzyme_const`` loaded once before a loop)
    would keep the load, and the undefined marker symbol, alive through code generation at -O0."""
    phis = [a for a in call.operands if isinstance(a, PhiInst)]
    _erase_call(call)
    for phi in dict.fromkeys(phis):
        _erase_dead_phis(phi)


def _erase_dead_phis(v: Value) -> None:
    if isinstance(v, PhiInst) and not v.has_uses and v.parent is not None:
        incoming = [x for x, _ in v.incoming]
        v.erase()
        for x in dict.fromkeys(incoming):
            _erase_dead_phis(x)


def _erase_call(call: CallInst) -> None:
    if isinstance(call, InvokeInst):
        block = call.parent
        Builder(InsertPoint.before_inst(call)).br(call.normal_dest)
        unwind = call.unwind_dest
        call.erase()
        if block not in unwind.predecessors:
            for phi in unwind.phis():
                phi.remove_incoming(block)  # type: ignore[arg-type]
        return
    call.erase()


def _call_args(req: Request) -> list[Value]:
    """The derivative's arguments: each primal value, followed by its shadow if it has one."""
    args: list[Value] = []
    for a in req.args:
        args.append(a.value)
        args += a.shadows
    return args


def _replace_forward(ctx: ADContext, req: Request) -> CallInst:
    acts = tuple(Activity.DUP if a.activity.has_shadow else Activity.CONST for a in req.args)
    extra: list[Value] = []
    if req.mode == "forward_split":
        from ..ad.forward_split import forward_split
        extra = _caller_tape_args(req)
        d = forward_split(ctx, req.function, acts, bool(extra), req.width, keep=req.nofree)
        assert req.tape is not None
        extra = extra or [req.tape]
    else:
        d = forward_derivative(ctx, req.function, acts, req.width)
    b = Builder(InsertPoint.before_inst(req.call))
    res = b.call(d, _call_args(req) + extra)
    pair = isinstance(d.return_type, StructType) and d.return_type != req.function.return_type  # {primal, tangent}
    tangent = b.extractvalue(res, [1]) if returns_tangent(req.function) and req.ret_activity != "const" else None
    result: Value | None = tangent
    if req.primal_return:  # decode refuses enzyme_primal_return of a void function
        primal = b.extractvalue(res, [0]) if pair else res
        result = primal if tangent is None else _pair(b, primal, tangent)
    _finish(req, result)
    return res


def _pair(b: Builder, first: Value, second: Value) -> Value:
    both = b.insertvalue(ConstantKeyword(StructType((first.type, second.type)), "undef"), first, [0])
    return b.insertvalue(both, second, [1])


def _replace_reverse(ctx: ADContext, req: Request,
                     generate: Callable[[ADContext, Function, tuple[str, ...], int], tuple[Function, tuple[Type, ...]]]
                     ) -> CallInst:
    d, out_types = generate(ctx, req.function, req.activities, req.width)
    b = Builder(InsertPoint.before_inst(req.call))
    res = b.call(d, _call_args(req))
    if req.primal_return:
        result: Value | None = res  # {primal, {adjoints}}
    elif not out_types:
        result = None
    elif len(out_types) == 1:
        result = b.extractvalue(res, [0])
    else:
        result = res
    if result is None and not req.call.type.is_void and req.call.has_uses:
        raise DifferentiationError(f"{req.call.callee_name} {where(req.call)}: no enzyme_out arguments, so there "
                                   "is no result to return")
    _finish(req, result)
    return res


def _replace_augment(ctx: ADContext, req: Request) -> CallInst:
    from ..ad.split import augmented_result_type, split_augmented
    caller_tape = _caller_tape_args(req)
    d = split_augmented(ctx, req.function, req.activities, caller_tape=bool(caller_tape), width=req.width)
    b = Builder(InsertPoint.before_inst(req.call))
    res = b.call(d, _call_args(req) + caller_tape)
    result: Value | None = None if d.return_type.is_void else res
    if result is not None and not caller_tape and req.call.type != result.type:
        result = _reordered_by_type(b, result, req.call.type, augmented_result_type(req.function))
    _finish(req, result)
    return res


def _reordered_by_type(b: Builder, v: Value, want: Type, have: Type) -> Value:
    """``{ptr tape, T primal}`` as the struct the caller declared with the same two fields the other way
    round (``struct { double x; void *tape; }``): each field is told apart by its type, so only when T is
    not a pointer; anything else is left for :func:`_finish` to refuse."""
    if not (isinstance(want, StructType) and isinstance(have, StructType) and len(want.elements) == 2
            and want.elements == tuple(reversed(have.elements)) and have.elements[0] != have.elements[1]):
        return v
    return _pair(b, b.extractvalue(v, [1]), b.extractvalue(v, [0]))


def _caller_tape_args(req: Request) -> list[Value]:
    """``[tape, bytes]`` for enzyme_allocated/enzyme_tape (bytes as i64), else ``[]``; a constant size too
    small is refused here, one known only at run time is checked by the sweep."""
    from ..ad.split import TAPE_BYTES
    if req.allocated is None:
        return []
    assert req.tape is not None
    size = req.allocated
    if isinstance(size, ConstantInt) and size.value < TAPE_BYTES:
        raise UsageError(f"{req.call.callee_name} {where(req.call)}: enzyme_allocated gives {size.value} bytes "
                         f"of tape memory but @{req.function.name} needs {TAPE_BYTES} "
                         "(ask __enzyme_augmentsize)")
    if size.type != I64:
        size = Builder(InsertPoint.before_inst(req.call)).cast("zext", size, I64)
    return [req.tape, size]


def replace_size_queries(module: Module) -> int:
    """``__enzyme_augmentsize(f, markers...)``: the bytes of tape memory enzyme_allocated must give (a constant)."""
    from ..ad.split import TAPE_BYTES
    calls = calls_named(module.functions, "__enzyme_augmentsize")
    for call in calls:
        fn = strip_pointer_casts(call.args[0]) if call.args else None
        if not isinstance(fn, Function):
            raise UsageError(f"{call.callee_name} {where(call)}: the first argument must be the function whose "
                             "augmented forward sweep the tape is for")
        if not isinstance(call.type, IntType):
            raise UsageError(f"{call.callee_name} {where(call)}: declared to return {call.type}; the size is an "
                             "integer (size_t)")
        call.replace_all_uses_with(const_int(call.type, TAPE_BYTES))
        erase_call(call)
    return len(calls)


def replace_virtual_reverse(module: Module) -> int:
    """``__enzyme_virtualreverse(fp)``: the shadow of a function pointer (or of a C++ vtable pointer).

    Upstream returns a pointer to the function's augmented forward and reverse sweeps, which its
    derivatives call through shadow function pointers.  Derivatives here dispatch on the primal pointer
    (enzyme.ad.indirect) and never call through a shadow one, so the shadow is the pointer itself.
    """
    calls = calls_named(module.functions, "__enzyme_virtualreverse")
    for call in calls:
        if len(call.args) != 1 or call.args[0].type != call.type or not isinstance(call.type, PointerType):
            raise UsageError(f"__enzyme_virtualreverse {where(call)}: takes one function or vtable pointer and "
                             "returns a pointer of the same type")
        call.replace_all_uses_with(call.args[0])
        erase_call(call)
    return len(calls)


def _replace_split_reverse(ctx: ADContext, req: Request) -> CallInst:
    from ..ad.split import split_reverse
    caller_tape = _caller_tape_args(req)
    d, out_types, takes_dret = split_reverse(ctx, req.function, req.activities, caller_tape=bool(caller_tape),
                                             width=req.width)
    assert req.tape is not None and takes_dret == bool(req.drets)
    b = Builder(InsertPoint.before_inst(req.call))
    args = _call_args(req) + req.drets + (caller_tape or [req.tape])
    res = b.call(d, args)
    result: Value | None = None
    if len(out_types) == 1:
        result = b.extractvalue(res, [0])
    elif out_types:
        result = res
    if result is None and not req.call.type.is_void and req.call.has_uses:
        raise DifferentiationError(f"{req.call.callee_name} {where(req.call)}: no enzyme_out arguments, so there "
                                   "is no result to return")
    _finish(req, result)
    return res


def _scalar_types(t: Type) -> list[Type] | None:
    """The scalars of a flat aggregate in memory order (None for non-aggregates)."""
    if isinstance(t, StructType):
        out: list[Type] = []
        for e in t.elements:
            inner = _scalar_types(e)
            out += inner if inner is not None else [e]
        return out
    if isinstance(t, (ArrayType, VectorType)):
        inner = _scalar_types(t.element)
        return (inner if inner is not None else [t.element]) * t.count
    return None


def _repack(b: Builder, v: Value, t: Type) -> Value:
    """``v`` rebuilt as type ``t`` when both hold the same scalars in the same order, else ``v`` unchanged.

    A batch derivative returns ``[W x double]``; C declares a struct of W
    doubles, which the ABI returns as ``{double, double}`` or ``<2 x float>``;
    C++'s ``enzyme::tuple<double>`` is ``{double}`` for a ``double``.
    """
    have, want = _scalar_types(v.type) or [v.type], _scalar_types(t) or [t]
    if have != want:
        return v
    scalars: list[Value] = []

    def flatten(x: Value) -> None:
        xt = x.type
        if isinstance(xt, VectorType):
            for i in range(xt.count):
                scalars.append(b.extractelement(x, i))
        elif isinstance(xt, (StructType, ArrayType)):
            n = len(xt.elements) if isinstance(xt, StructType) else xt.count
            for i in range(n):
                flatten(b.extractvalue(x, [i]))
        else:
            scalars.append(x)

    flatten(v)
    it = iter(scalars)

    def build(ty: Type) -> Value:
        if isinstance(ty, VectorType):
            agg: Value = ConstantKeyword(ty, "undef")
            for i in range(ty.count):
                agg = b.insertelement(agg, build(ty.element), i)
            return agg
        if isinstance(ty, (StructType, ArrayType)):
            elements = ty.elements if isinstance(ty, StructType) else (ty.element,) * ty.count
            agg = ConstantKeyword(ty, "undef")
            for i, et in enumerate(elements):
                agg = b.insertvalue(agg, build(et), [i])
            return agg
        return next(it)

    return build(t)
