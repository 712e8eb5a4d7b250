"""Differentiation plans: one generated IR wrapper per request, JIT-compiled, called through an argument block.

A request (function x mode x per-argument activities x width x return
handling) becomes a wrapper ``void @__pyenzyme_w(ptr %block)`` that loads the
primal values and shadows from a C struct, calls ``__enzyme_fwddiff`` /
``__enzyme_autodiff`` / ``__enzyme_augmentfwd`` / ``__enzyme_reverse`` with
the C ABI's markers, and stores the results back into the struct.  The
struct is a ``ctypes.Structure`` on the Python side, so one ctypes call of
one pointer serves every signature.

The primal result, when wanted, is stored by a helper
``@__pyenzyme_h(args..., ptr %out)`` through a duplicated pointer ``out``
into the block: in forward mode the engine writes the result's tangent(s)
into its shadow(s); in reverse mode the shadow is a zero seed.  That gives
the primal and the tangents from one derivative call, whatever the engine
returns by value.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

from ..ad.modes import Activity
from ..ir.names import quote_name
from .custom_rules import pending_errors, raise_pending
from .signature import Signature

WRAPPER = "__pyenzyme_w"
HELPER = "__pyenzyme_h"
_ENTRY = {
    "forward": "__enzyme_fwddiff",
    "reverse": "__enzyme_autodiff",
    "augment": "__enzyme_augmentfwd",
    "split_reverse": "__enzyme_reverse",
}
_MARKERS = ("enzyme_const", "enzyme_out", "enzyme_dup", "enzyme_dupnoneed", "enzyme_width")


@dataclass(frozen=True)
class Request:
    """What to generate.

    ``kind``: ``forward`` | ``reverse`` | ``augment`` (split forward sweep) |
    ``split_reverse``; ``args``: per argument ``const`` | ``out`` | ``dup`` |
    ``dupnoneed``; ``width``: shadows per duplicated argument; ``ret``:
    ``const`` | ``active`` (reverse: seed the result with 1) | ``dup``
    (forward: return the tangents); ``primal``: also return the result.
    ``hvp``: forward mode over the reverse gradient of the ``dup`` argument
    (Hessian-vector products, ``width`` directions), see :func:`_generate_hvp`.
    """

    kind: str
    args: tuple[Activity, ...]
    width: int = 1
    ret: str = "const"
    primal: bool = False


_MARKER_OF = {Activity.CONST: "enzyme_const", Activity.ACTIVE: "enzyme_out", Activity.DUP: "enzyme_dup",
              Activity.DUPNONEED: "enzyme_dupnoneed"}


@dataclass(frozen=True)
class Field:
    name: str
    ir_type: str
    ctype: Any


class Plan:
    """Compiled requests (one module, so split-mode halves share their tape layout).

    ``run(inputs, part)`` fills the input fields of request ``part`` in order,
    calls its wrapper and returns the block.
    """

    def __init__(self, signature: Signature, requests: tuple[Request, ...], library: Any) -> None:
        self.signature = signature
        self.requests = requests
        decls: dict[str, None] = {}
        bodies: list[str] = []
        self.parts: list[tuple[list[Field], list[Field], Any]] = []
        for k, request in enumerate(requests):
            inputs, outputs, part_decls, body = _generate(signature, request, str(k))
            decls.update(dict.fromkeys(part_decls))
            bodies.append(body)
            fields = [(f.name, f.ctype) for f in (*inputs, *outputs)]
            self.parts.append((inputs, outputs, type("PyenzymeBlock", (ctypes.Structure,), {"_fields_": fields})))
        self.ir = "".join(decls) + "".join(bodies)
        kinds = "+".join(r.kind for r in requests)
        jit = library.compiled(self.ir, label=f"{kinds} derivative of {signature.name}")
        self._jit = jit  # keeps the code alive
        prototype = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
        self._fns = [prototype(jit.address(f"{WRAPPER}{k}")) for k in range(len(requests))]

    def run(self, inputs: list[Any], part: int = 0) -> Any:
        block = self.parts[part][2](*inputs)
        self._fns[part](ctypes.addressof(block))
        if pending_errors:
            raise_pending()
        return block


# --------------------------------------------------------------------- IR text
class _Emitter:
    def __init__(self, fields: list[Field]) -> None:
        self.struct = "{ " + ", ".join(f.ir_type for f in fields) + " }"
        self.index = {f.name: i for i, f in enumerate(fields)}
        self.types = {f.name: f.ir_type for f in fields}
        self.lines: list[str] = []

    def addr(self, name: str) -> str:
        reg = f"%p.{name}"
        self.lines.append(f"  {reg} = getelementptr inbounds {self.struct}, ptr %block, i32 0, i32 {self.index[name]}")
        return reg

    def load(self, name: str) -> str:
        ptr = self.addr(name)
        self.lines.append(f"  %v.{name} = load {self.types[name]}, ptr {ptr}")
        return f"%v.{name}"


def _argument_fields(sig: Signature, req: Request) -> list[Field]:
    """The block's input fields for the arguments: each value ``a<i>``, then its shadows ``a<i>s<k>``."""
    fields: list[Field] = []
    for i, (p, act) in enumerate(zip(sig.params, req.args)):
        fields.append(Field(f"a{i}", p.ir_type, p.ctype))
        if act.has_shadow:
            fields += [Field(f"a{i}s{k}", p.ir_type, p.ctype) for k in range(req.width)]
    return fields


def _marked_arguments(em: _Emitter, sig: Signature, req: Request) -> list[str]:
    """The entry point's arguments for the function's parameters: ``enzyme_width, W`` when batched, then per
    argument its marker, value and shadows, loaded from the block."""
    args = [f"ptr @enzyme_width, i32 {req.width}"] if req.width > 1 else []
    for i, (p, act) in enumerate(zip(sig.params, req.args)):
        vals = [f"{p.ir_type} {em.load(f'a{i}')}"]
        if act.has_shadow:
            vals += [f"{p.ir_type} {em.load(f'a{i}s{k}')}" for k in range(req.width)]
        args.append(f"ptr @{_MARKER_OF[act]}, " + ", ".join(vals))
    return args


def _generate(sig: Signature, req: Request, suffix: str) -> tuple[list[Field], list[Field], list[str], str]:
    """Input fields, output fields, declarations and definitions of wrapper ``suffix``."""
    if req.kind == "hvp":
        return _generate_hvp(sig, req, suffix)
    params = sig.params
    has_result = sig.ret_kind != "void"
    inputs = _argument_fields(sig, req)
    outputs: list[Field] = []
    if req.kind == "split_reverse":
        if sig.ret_kind == "float":  # the engine takes the result's adjoint (0 for a Const result)
            inputs.append(Field("dret", sig.ret_ir_type, sig.ret_ctype))
        inputs.append(Field("tape", "ptr", ctypes.c_void_p))

    # Does the helper store the result through a pointer (forward/reverse modes only)?
    wants_out = has_result and req.kind in ("forward", "reverse") and (
        req.primal or (req.kind == "forward" and req.ret == "dup"))
    out_dup = wants_out and sig.ret_kind == "float"
    if wants_out:
        outputs.append(Field("ret", sig.ret_ir_type, sig.ret_ctype))
        if out_dup:
            outputs += [Field(f"rets{k}", sig.ret_ir_type, sig.ret_ctype) for k in range(req.width)]
    adjoints = [i for i, a in enumerate(req.args) if a is Activity.ACTIVE] if req.kind in ("reverse", "split_reverse") else []
    if req.width == 1:
        outputs += [Field(f"d{i}", params[i].ir_type, params[i].ctype) for i in adjoints]
    else:  # batch reverse: W adjoints per out argument, as the engine returns them ([W x T])
        outputs += [Field(f"d{i}", f"[{req.width} x {params[i].ir_type}]", params[i].ctype * req.width)
                    for i in adjoints]
    if req.kind == "augment":
        outputs.append(Field("tape", "ptr", ctypes.c_void_p))
        if has_result:
            outputs.append(Field("ret", sig.ret_ir_type, sig.ret_ctype))

    em = _Emitter([*inputs, *outputs])
    callee = "@" + quote_name(sig.name)
    call_args = _marked_arguments(em, sig, req)

    helper = ""
    target = callee
    param_list = ", ".join(f"{p.ir_type} %x{p.index}" for p in params)
    arg_list = ", ".join(f"{p.ir_type} %x{p.index}" for p in params)
    ret_seeded = req.kind == "reverse" and req.ret == "active" and sig.ret_kind == "float"
    if wants_out:
        out_ptr = em.addr("ret")
        if out_dup:
            shadows = ", ".join(f"ptr {em.addr(f'rets{k}')}" for k in range(req.width))
            call_args.append(f"ptr @enzyme_dup, ptr {out_ptr}, {shadows}")
        else:
            call_args.append(f"ptr @enzyme_const, ptr {out_ptr}")
        h_ret = sig.ret_ir_type if ret_seeded else "void"
        h_body = f"  %r = call {sig.ret_ir_type} {callee}({arg_list})\n  store {sig.ret_ir_type} %r, ptr %out\n"
        h_body += f"  ret {sig.ret_ir_type} %r\n" if ret_seeded else "  ret void\n"
        sep = ", " if params else ""
        helper = f"define internal {h_ret} @{HELPER}{suffix}({param_list}{sep}ptr %out) {{\n{h_body}}}\n"
        target = f"@{HELPER}{suffix}"
    elif has_result and req.kind == "reverse" and not ret_seeded and sig.ret_kind == "float":
        # A Const float result must not be seeded: differentiate a helper that drops it.
        helper = (f"define internal void @{HELPER}{suffix}({param_list}) {{\n"
                  f"  %r = call {sig.ret_ir_type} {callee}({arg_list})\n  ret void\n}}\n")
        target = f"@{HELPER}{suffix}"

    if req.kind == "split_reverse":
        if any(f.name == "dret" for f in inputs):
            call_args.append(f"{sig.ret_ir_type} {em.load('dret')}")
        call_args.append(f"ptr {em.load('tape')}")

    # What the entry point returns, and where it goes.
    results: list[Field] = [f for f in outputs if f.name.startswith("d")]
    if req.kind == "augment":
        results = [f for f in outputs if f.name in ("tape", "ret")]
    if not results:
        res_type = "void"
    elif len(results) == 1:
        res_type = results[0].ir_type
    else:
        res_type = "{ " + ", ".join(f.ir_type for f in results) + " }"
    entry = f"{_ENTRY[req.kind]}_pyenzyme{suffix}"
    call = f"call {res_type} (...) @{entry}(ptr {target}, {', '.join(call_args)})".replace(", )", ")")
    if res_type == "void":
        em.lines.append(f"  {call}")
    else:
        em.lines.append(f"  %res = {call}")
        if len(results) == 1:
            em.lines.append(f"  store {res_type} %res, ptr {em.addr(results[0].name)}")
        else:
            for k, f in enumerate(results):
                em.lines.append(f"  %res.{k} = extractvalue {res_type} %res, {k}")
                em.lines.append(f"  store {f.ir_type} %res.{k}, ptr {em.addr(f.name)}")
    decls = [f"@{m} = external global i32\n" for m in _MARKERS]
    decls.append(f"declare {sig.ret_ir_type} {callee}({', '.join(p.ir_type for p in params)})\n")
    decls.append(f"declare {res_type} @{entry}(...)\n")
    body = "\n".join(em.lines)
    wrapper = f"define void @{WRAPPER}{suffix}(ptr %block) {{\n{body}\n  ret void\n}}\n"
    return inputs, outputs, decls, helper + wrapper


def _generate_hvp(sig: Signature, req: Request, suffix: str) -> tuple[list[Field], list[Field], list[str], str]:
    """Forward mode over reverse: ``@__pyenzyme_g`` writes the gradient of the float result with respect to the
    one ``dup`` argument into its last parameter (``__enzyme_autodiff``, result seeded with 1); the wrapper
    differentiates it with ``__enzyme_fwddiff`` along the argument's shadows (the directions), so the gradient
    buffer ``g`` receives the gradient and each of its shadows ``gs<k>`` the product of the Hessian with
    direction ``k``."""
    params = sig.params
    inputs = _argument_fields(sig, req)
    inputs += [Field("g", "ptr", ctypes.c_void_p)] + [Field(f"gs{k}", "ptr", ctypes.c_void_p) for k in range(req.width)]
    em = _Emitter(inputs)
    callee = "@" + quote_name(sig.name)
    gradient = f"@{HELPER}g{suffix}"
    inner = [f"ptr @enzyme_dup, ptr %x{i}, ptr %grad" if act.has_shadow else f"ptr @enzyme_const, {p.ir_type} %x{i}"
             for i, (p, act) in enumerate(zip(params, req.args))]
    param_list = "".join(f"{p.ir_type} %x{p.index}, " for p in params)
    helper = (f"define internal void {gradient}({param_list}ptr %grad) {{\n"
              f"  call void (...) @__enzyme_autodiff_pyenzyme_g{suffix}(ptr {callee}, {', '.join(inner)})\n"
              "  ret void\n}\n")
    outer = _marked_arguments(em, sig, req)
    outer.append("ptr @enzyme_dup, " + ", ".join(f"ptr {em.load(n)}" for n in ["g", *(f"gs{k}" for k in range(req.width))]))
    em.lines.append(f"  call void (...) @__enzyme_fwddiff_pyenzyme{suffix}(ptr {gradient}, {', '.join(outer)})")
    decls = [f"@{m} = external global i32\n" for m in _MARKERS]
    decls.append(f"declare {sig.ret_ir_type} {callee}({', '.join(p.ir_type for p in params)})\n")
    decls += [f"declare void @__enzyme_autodiff_pyenzyme_g{suffix}(...)\n",
              f"declare void @__enzyme_fwddiff_pyenzyme{suffix}(...)\n"]
    body = "\n".join(em.lines)
    return inputs, [], decls, helper + f"define void @{WRAPPER}{suffix}(ptr %block) {{\n{body}\n  ret void\n}}\n"
