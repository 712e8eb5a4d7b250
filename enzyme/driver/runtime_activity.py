"""``enzyme_runtime_activity``: upstream's run-time activity checks, as far as pyenzyme needs them.

Upstream Enzyme, with runtime activity on, treats a pointer whose shadow is the primal itself as
inactive when the derivative runs.  pyenzyme decides the activity of every value inside the function
when it builds it (and refuses what it cannot decide), so the marker changes one thing only: a
duplicated pointer argument passed as its own shadow.  The derivative would then write adjoints or
tangents into the primal, so the call stops with a message naming the argument instead (pass it as
``enzyme_const``).
"""
from __future__ import annotations

from ..ir import Module, PointerType
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.splice import add_helper_functions
from ..ir.types import I64
from .requests import Request, where

_CHECK = "__pyenzyme_runtime_activity_check"


def check_own_shadows(module: Module, req: Request) -> None:
    """Before ``req``'s call: stop with a message if a duplicated pointer argument is its own shadow."""
    _define_check(module)
    check = module.get_function(_CHECK)
    assert check is not None  # defined just above
    b = Builder(InsertPoint.before_inst(req.call))
    name = req.function.name
    for k, arg in enumerate(req.args):
        if not isinstance(arg.value.type, PointerType):
            continue
        for shadow in arg.shadows:
            message = (f"pyenzyme: {req.call.callee_name} {where(req.call)}: argument {k + 1} of @{name} is passed "
                       "as its own shadow under enzyme_runtime_activity; pyenzyme decides activity when it builds "
                       "the derivative, so pass that argument as enzyme_const\n")
            text = message.encode()
            glob = module.unique_name(".pyenzyme_runtime_activity_msg")
            add_helper_functions(module, f"@{glob} = private unnamed_addr constant [{len(text)} x i8] "
                                         f'c"{_escape(text)}"\n')
            msg = module.get(glob)
            assert msg is not None  # added just above
            b.call(check, [arg.value, shadow, msg, const_int(I64, len(text))])


def _escape(data: bytes) -> str:
    return "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else f"\\{c:02X}" for c in data)


def _define_check(module: Module) -> None:
    if module.get_function(_CHECK) is not None:
        return
    # write(2, ...) rather than stdio: abort() does not flush buffered streams.
    add_helper_functions(module, (
        "declare i64 @write(i32, ptr, i64)\ndeclare void @abort()\n"
        f"define internal void @{_CHECK}(ptr %primal, ptr %shadow, ptr %msg, i64 %len) {{\n"
        "entry:\n  %same = icmp eq ptr %primal, %shadow\n  br i1 %same, label %fail, label %ok\n"
        "fail:\n  %r = call i64 @write(i32 2, ptr %msg, i64 %len)\n  call void @abort()\n  unreachable\n"
        "ok:\n  ret void\n}\n"))
