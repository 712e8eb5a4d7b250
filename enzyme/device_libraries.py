"""GPU math in device code: libdevice (CUDA) and ocml (ROCm) linked after differentiation, not before.

clang normally links NVIDIA's libdevice (``__nv_sin`` ...) into device code
and inlines it, which leaves the differentiator bit tricks and NVVM
intrinsics (``llvm.nvvm.d2i.hi``, ``llvm.nvvm.fabs.f64``) with no derivative.
pyenzyme compiles CUDA with ``-nocudalib`` instead: math calls stay calls of
``__nv_*`` functions, which the math rules know by their libm names
(``__nv_sin`` is ``sin``, ``__nv_expf`` is ``expf``).  After differentiation,
:func:`link_libdevice` points the derivative's own math calls -- LLVM
intrinsics the NVPTX backend cannot select (``llvm.cos.f64``) and libm names
(``erf``) -- at their libdevice twins; :func:`finish_device_module` links
libdevice before PTX is made, and keeps only what is called.

HIP code is handled the same way with ROCm's device libraries: compiled with
``-nogpulib``, math stays calls of ``__ocml_sin_f64`` and friends (the rules know
them as ``sin``), the derivative's math is pointed at ocml, and ocml, ockl and
the ``oclc_*`` control libraries for the module's architecture are linked.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable

from enzyme import llvm
from enzyme.errors import ToolNotFoundError, UsageError

NVPTX_PREFIX = "nvptx"
# Intrinsics the NVPTX backend selects itself (no libdevice call needed).
_NATIVE = frozenset({"sqrt", "fabs", "fma", "fmuladd", "minnum", "maxnum", "minimum", "maximum", "copysign",
                     "floor", "ceil", "trunc", "rint", "nearbyint", "roundeven", "canonicalize",
                     "arithmetic.fence"})
_DECLARE = re.compile(r"^declare [^@\n]*@([-\w.$]+)\(([^)\n]*)\)[^\n]*$", re.M)
_INTRINSIC = re.compile(r"llvm\.([a-z0-9.]+?)\.(f32|f64)(?:\.i32)?")


@functools.lru_cache(maxsize=1)
def _libdevice() -> tuple[bytes, frozenset[str]]:
    from enzyme.toolchain.cuda import cuda_path

    path = cuda_path() / "nvvm" / "libdevice" / "libdevice.10.bc"
    if not path.is_file():
        raise UsageError(f"libdevice not found at {path}; CUDA math in device code needs the CUDA toolkit's "
                         "nvvm/libdevice/libdevice.10.bc (set ENZYME_CUDA_PATH)")
    data = path.read_bytes()
    return data, llvm.device_library_functions(data, prefix="__nv_")


def _twin(name: str, names: frozenset[str]) -> str | None:
    """The libdevice function for a declared math function ``name``, if there is one to call."""
    found = _INTRINSIC.fullmatch(name)
    if found:
        base, t = found.groups()
        if base in _NATIVE:
            return None
        candidate = f"__nv_{base}{'f' if t == 'f32' else ''}"
    elif name.startswith(("llvm.", "__nv_")):
        return None
    else:
        candidate = f"__nv_{name}"
    return candidate if candidate in names else None


def retarget_math(text: str, names: frozenset[str]) -> str:
    """``text`` with math declarations that libdevice implements renamed to their ``__nv_*`` twins."""
    return _retarget(text, lambda name: _twin(name, names))


def _retarget(text: str, twin_of: Callable[[str], str | None]) -> str:
    renames = {}
    for found in _DECLARE.finditer(text):
        twin = twin_of(found.group(1))
        if twin is not None:
            renames[found.group(1)] = (twin, found.group(0))
    if not renames:
        return text
    declared = {m.group(1) for m in _DECLARE.finditer(text)}
    for old, (new, line) in renames.items():
        # The old declaration goes; the twin is declared once (it may be declared already).
        replacement = "" if new in declared else line.replace(f"@{old}(", f"@{new}(")
        text = text.replace(line, re.sub(r"\s#\d+\s*$", "", replacement), 1)
        declared.add(new)
        text = re.sub(rf"@{re.escape(old)}(?=[\s(),])", f"@{new}", text)
    return text


def libdevice_names() -> frozenset[str]:
    """The ``__nv_*`` functions of the toolkit's libdevice; empty without a CUDA toolkit (nothing is retargeted,
    and making PTX then fails naming what is missing)."""
    try:
        return _libdevice()[1]
    except (UsageError, ToolNotFoundError):
        return frozenset()


def finish_device_module(module: llvm.ModuleRef, opt_level: int, *, name: str) -> llvm.ModuleRef:
    """``module`` ready for PTX or a code object: libdevice (CUDA) or the ROCm device libraries (HIP) linked
    when it calls them, and optimized again."""
    if module.triple.startswith("amdgcn"):
        linked = with_rocm_device_libs(module, name=name)
        if opt_level == 0:
            # A code object may leave nothing undefined: at -O0 the replaced requests' declarations and the
            # unused tape's free(NULL) are still there; O1 removes them.
            llvm.optimize(linked, 1)
            return linked
    else:
        linked = with_libdevice(module, name=name)
    if linked is not module:
        llvm.optimize(linked, opt_level)
    return linked


def link_libdevice(text: str, *, name: str) -> llvm.ModuleRef:
    """The NVPTX module ``text`` with libdevice linked in for every ``__nv_*`` function it calls (internal,
    so the optimizer drops the rest)."""
    data, names = _libdevice()
    text = retarget_math(text, names)
    module = llvm.parse(text, name=name)
    _, undefined = llvm.global_symbols(module)
    if not any(n.startswith("__nv_") for n in undefined):
        return module
    return llvm.link_device_library(text, name, data, "libdevice.10.bc", internal_prefix="__nv_")


def is_nvptx_text(text: str) -> bool:
    return re.search(r'^target triple = "nvptx', text, re.M) is not None


def with_libdevice(module: llvm.ModuleRef, *, name: str) -> llvm.ModuleRef:
    """``module`` (not differentiated) with libdevice linked when it is CUDA device code calling ``__nv_*``."""
    if not module.triple.startswith(NVPTX_PREFIX):
        return module
    _, undefined = llvm.global_symbols(module)
    if not any(n.startswith("__nv_") for n in undefined):
        return module
    return link_libdevice(llvm.to_text(module), name=name)


_ALLOCA = re.compile(r"^(?P<indent>\s+)%(?P<name>[-\w.$]+) = alloca (?P<rest>(?:(?!addrspace\()[^\n])*)$", re.M)


def is_amdgpu_text(text: str) -> bool:
    return re.search(r'^target triple = "amdgcn', text, re.M) is not None


def private_allocas(text: str) -> str:
    """AMDGPU keeps stack objects in address space 5: the derivative's allocas (made in the generic space) are
    moved there, each followed by a cast back to a generic pointer for its users."""
    def move(m: re.Match[str]) -> str:
        rest, attachments = m["rest"], ""
        if ", !" in rest:
            rest, attachments = rest.split(", !", 1)
            attachments = ", !" + attachments
        private = f"%pyenzyme.private.{m['name']}"
        return (f"{m['indent']}{private} = alloca {rest}, addrspace(5){attachments}\n"
                f"{m['indent']}%{m['name']} = addrspacecast ptr addrspace(5) {private} to ptr")
    return _ALLOCA.sub(move, text)


# -- ROCm (HIP) ----------------------------------------------------------------------------------------------

_OCML_SUFFIX = {"f64": "_f64", "f32": "_f32"}
# The control libraries clang links for HIP (ROCm 5.2's set, code object v5).
_OCLC = ("oclc_finite_only_off.bc", "oclc_unsafe_math_off.bc", "oclc_daz_opt_off.bc",
         "oclc_correctly_rounded_sqrt_on.bc", "oclc_wavefrontsize64_on.bc", "oclc_abi_version_500.bc")
_ROCM_PREFIXES = ("__ocml_", "__ockl_", "__oclc_")


@functools.lru_cache(maxsize=1)
def _ocml_names() -> frozenset[str]:
    from enzyme.toolchain.hip import rocm_device_lib_dir

    return llvm.device_library_functions((rocm_device_lib_dir() / "ocml.bc").read_bytes(), prefix="__ocml_")


def ocml_names() -> frozenset[str]:
    """The ``__ocml_*`` functions of the installed ROCm device libraries; empty without them."""
    try:
        return _ocml_names()
    except (UsageError, ToolNotFoundError, OSError):
        return frozenset()


def _ocml_twin(name: str, names: frozenset[str]) -> str | None:
    found = _INTRINSIC.fullmatch(name)
    if found:
        base, t = found.groups()
        if base in _NATIVE:
            return None
        candidate = f"__ocml_{base}{_OCML_SUFFIX[t]}"
    elif name.startswith(("llvm.", "__ocml_", "__ockl_")):
        return None
    elif name.endswith("f") and f"__ocml_{name[:-1]}_f32" in names:
        candidate = f"__ocml_{name[:-1]}_f32"
    else:
        candidate = f"__ocml_{name}_f64"
    return candidate if candidate in names else None


def retarget_amdgpu_math(text: str, names: frozenset[str]) -> str:
    """``text`` with math declarations that ocml implements renamed to their ``__ocml_*`` twins."""
    return _retarget(text, lambda name: _ocml_twin(name, names))


def with_rocm_device_libs(module: llvm.ModuleRef, *, name: str) -> llvm.ModuleRef:
    """An AMDGPU ``module`` calling ``__ocml_*``/``__ockl_*`` with the ROCm device libraries linked in."""
    from enzyme.toolchain.hip import rocm_device_lib_dir

    _, undefined = llvm.global_symbols(module)
    if not any(n.startswith(_ROCM_PREFIXES) for n in undefined):
        return module
    found = re.search(r'"target-cpu"="gfx([0-9a-f]+)"', llvm.to_text(module))
    if found is None:
        raise UsageError(f"{name}: AMDGPU code without a target-cpu; compile it with --offload-arch=gfxNNN")
    directory = rocm_device_lib_dir()
    isa = directory / f"oclc_isa_version_{found.group(1)}.bc"
    if not isa.is_file():
        raise UsageError(f"{name}: the ROCm device libraries in {directory} have no {isa.name}: gfx{found.group(1)} "
                         "is not supported by this ROCm install")
    libraries = [(p.name, p.read_bytes()) for p in (directory / "ocml.bc", directory / "ockl.bc", isa,
                                                     *(directory / n for n in _OCLC))]
    return llvm.link_device_libraries(llvm.to_text(module), name, libraries, internal_prefixes=_ROCM_PREFIXES)
