"""Link several LLVM modules (from different languages) into one."""
from __future__ import annotations

from collections.abc import Sequence

import llvmlite.binding as llvm

from enzyme.errors import LinkError
from enzyme.llvm.contexts import ContextOwner
from enzyme.llvm.optimized_unit import linked_mark_text
from enzyme.llvm.parsing import parse_in_context

# Panic handler of a no_std Rust crate (mangled as ..._7___rustc17rust_begin_unwind,
# or unmangled from older rustc).  Rust's std defines the same symbol, so a no_std
# crate linked with std (or with a second no_std crate) would clash.
_RUST_PANIC_HANDLER_SUFFIX = "rust_begin_unwind"


def link(modules_data: Sequence[tuple[str, bytes | str]]) -> llvm.ModuleRef:
    """Parse ``(name, bitcode-or-text)`` pairs into one context and link them.

    Target triples that differ only in the vendor (rustc writes
    ``x86_64-unknown-linux-gnu``, clang ``x86_64-pc-linux-gnu``) are unified to
    the first module's triple and data layout; genuinely different targets,
    and modules that state different data layouts, are refused.
    """
    if not modules_data:
        raise LinkError("nothing to link: no input modules given")
    owner = ContextOwner()
    try:
        return _link_in(owner, modules_data)
    finally:
        owner.free_if_unused()  # frees the context at once if no module was made


def _link_in(owner: ContextOwner, modules_data: Sequence[tuple[str, bytes | str]]) -> llvm.ModuleRef:
    named = [(name, parse_in_context(data, name=name, owner=owner)) for name, data in modules_data]
    _unify_targets(named)
    for _name, mod in named:
        _internalize_rust_panic_handlers(mod)
    first_name, result = named[0]
    if len(named) > 1:  # the pre-AD O2 inlines across them (see optimized_unit)
        named.append(("<link mark>", parse_in_context(linked_mark_text(result.data_layout), name="<link mark>",
                                                      owner=owner)))
    for name, mod in named[1:]:
        try:
            llvm.link_modules(result, mod)
        except RuntimeError as exc:
            detail = str(exc).strip().splitlines()[0] if str(exc).strip() else "unknown error"
            raise LinkError(
                f"cannot link {name} with {first_name}: {detail} (rename or make one definition static)"
            ) from None
    return result


def _triple_key(triple: str) -> tuple[str, ...]:
    """Triple parts that matter for linking: everything but the vendor."""
    parts = triple.split("-")
    return (parts[0], *parts[2:]) if len(parts) >= 3 else tuple(parts)


def _unify_targets(named: list[tuple[str, llvm.ModuleRef]]) -> None:
    with_triple = [(name, mod) for name, mod in named if mod.triple]
    if with_triple:
        ref_name, ref_mod = with_triple[0]
        for name, mod in with_triple:
            if _triple_key(mod.triple) != _triple_key(ref_mod.triple):
                raise LinkError(
                    f"cannot link {name} (target {mod.triple}) with {ref_name} (target {ref_mod.triple}); "
                    "compile all sources for the same target (link host and GPU device code separately)"
                )
    _check_data_layouts(named)
    if with_triple:
        triple, layout = ref_mod.triple, ref_mod.data_layout
        for _name, mod in named:
            mod.triple = triple
            if layout:
                mod.data_layout = layout


def _check_data_layouts(named: list[tuple[str, llvm.ModuleRef]]) -> None:
    """Modules that state different data layouts were written for different targets (one may lack a triple):
    giving them one layout would silently change their type sizes and alignments."""
    reference = next(((n, m.data_layout) for n, m in named if m.data_layout), None)
    if reference is None:
        return
    ref_name, ref_layout = reference
    for name, mod in named:
        if mod.data_layout and mod.data_layout != ref_layout:
            raise LinkError(
                f"cannot link {name} (data layout {mod.data_layout!r}) with {ref_name} (data layout "
                f"{ref_layout!r}): they were written for different targets; compile all sources for the same target"
            )


def _internalize_rust_panic_handlers(mod: llvm.ModuleRef) -> None:
    # Only core's panic machinery calls the handler; inside one module the
    # internal definition still serves every caller.
    for function in mod.functions:
        if function.name.endswith(_RUST_PANIC_HANDLER_SUFFIX) and not function.is_declaration:
            function.linkage = llvm.Linkage.internal


def link_device_library(text: str, name: str, library: bytes, library_name: str, *,
                        internal_prefix: str) -> llvm.ModuleRef:
    """``text`` linked with one vendor device library (libdevice); see link_device_libraries."""
    return link_device_libraries(text, name, [(library_name, library)], internal_prefixes=(internal_prefix,))


def link_device_libraries(text: str, name: str, libraries: Sequence[tuple[str, bytes]], *,
                          internal_prefixes: tuple[str, ...]) -> llvm.ModuleRef:
    """``text`` linked with vendor device libraries (libdevice; ROCm's ocml, ockl, oclc_*), each given the
    module's triple and data layout (they are written for any target of their kind; libdevice keeps an old
    bitcode format on purpose, which LLVM 22 reads); their functions and globals named ``internal_prefixes...``
    become internal, so the optimizer keeps only those used."""
    owner = ContextOwner()
    try:
        module = parse_in_context(text, name=name, owner=owner)
        for _library_name, data in libraries:
            lib = llvm.parse_bitcode(data, owner.context)
            owner.adopt(lib)
            lib.triple, lib.data_layout = module.triple, module.data_layout
            llvm.link_modules(module, lib)
    finally:
        owner.free_if_unused()
    for function in module.functions:
        if function.name.startswith(internal_prefixes) and not function.is_declaration:
            function.linkage = llvm.Linkage.internal
    for variable in module.global_variables:
        if variable.name.startswith(internal_prefixes) and not variable.is_declaration:
            variable.linkage = llvm.Linkage.internal
    return module


def device_library_functions(library: bytes, *, prefix: str) -> frozenset[str]:
    """Names of the functions a vendor device library defines that start with ``prefix``."""
    owner = ContextOwner()
    try:
        lib = llvm.parse_bitcode(library, owner.context)
        owner.adopt(lib)
        return frozenset(f.name for f in lib.functions if f.name.startswith(prefix) and not f.is_declaration)
    finally:
        owner.free_if_unused()
