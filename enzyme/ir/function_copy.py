"""An internal copy of a function, for passes that specialize a callee for some of its call sites."""
from __future__ import annotations

from .blocks import Function, Module
from .target_attributes import inherit_target_attributes
from .types import FunctionType, Type
from .values import Value


def copy_function(module: Module, fn: Function, name: str, params: tuple[Type, ...] | None = None) -> Function:
    """A copy of ``fn`` named after ``name`` (made unique), internal to ``module``, with ``fn``'s body; ``params``
    (``fn``'s own first) extends its parameter list for the caller to use."""
    function_type = fn.function_type if params is None else FunctionType(fn.function_type.ret, params)
    copy = Function(module.unique_name(name), function_type, prefix="internal")
    inherit_target_attributes(fn, copy)
    module.add(copy)
    vmap: dict[Value, Value] = dict(zip(fn.args, copy.args))
    for blk in fn.blocks:
        vmap[blk] = copy.append_block(blk.name)
    made = []
    for blk in fn.blocks:
        nb = vmap[blk]
        for inst in blk.instructions:
            ni = inst.clone()
            ni.name = inst.name
            nb.append(ni)  # type: ignore[attr-defined]
            vmap[inst] = ni
            made.append(ni)
    for ni in made:
        for use in ni.operand_uses:
            mapped = vmap.get(use.value)
            if mapped is not None:
                ni.set_operand(use.index, mapped)
    return copy
