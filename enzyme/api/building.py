"""The linked module behind ``enzyme.compile``: built once, then reused while what it was made from is unchanged.

The cache key covers what is known before compiling: the sources' paths and
contents (IR text as given), the options (with the contents of ``@file``
response files), the working directory (relative ``-I`` flags depend on it),
the compiler-related environment, the compilers (path, file stamp and version),
and pyenzyme's own code (in every key, see
:func:`enzyme.api.cache.cache_key`).  The entry also records what the
compilers actually read (:mod:`enzyme.api.dependencies`), so a header
changed anywhere -- a sibling directory, an include directory, a system
header -- or a Fortran module file rebuilt elsewhere makes the next
lookup miss.

Device code (CUDA, HIP) and modules for another target are refused here,
before anything is cached or JIT-compiled: the in-process JIT runs host
code only.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from .. import llvm, pipeline, toolchain
from ..errors import UsageError
from . import cache, dependencies

# Environment variables that change what clang and flang do.
_COMPILER_ENVIRONMENT = ("CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "CCC_OVERRIDE_OPTIONS", "SOURCE_DATE_EPOCH")
# Device code cannot run in this (host) process; what to do instead, per language.
_DEVICE_CODE = {
    "cuda": ("CUDA", "nvptx64-nvidia-cuda", (
        "with CMake, enzyme_add_differentiable(<target> SOURCES {name}) writes differentiated PTX (see "
        "examples/cuda), or run `enzyme bitcode {name} -o k.bc && enzyme build k.bc -o k.ptx`; then load the "
        "PTX from Python with cupy.RawModule or cuda-python (docs/gpu.md); a whole CUDA program builds with "
        "enzyme-c++")),
    "hip": ("HIP", "amdgcn-amd-amdhsa", (
        "run `enzyme bitcode {name} -o k.bc && enzyme build k.bc -o k.hsaco` (or enzyme-c++ -c {name} -o k.hsaco) "
        "and load the code object with the HIP runtime (hipModuleLoad)")),
}


def refuse_device_code(paths: Iterable[Path]) -> None:
    """GPU sources compile to device modules, which the in-process JIT cannot run: say so before compiling."""
    for path in paths:
        device = _DEVICE_CODE.get(toolchain.language_of(path))
        if device is not None:
            kind, triple, instead = device
            raise UsageError(f"enzyme.compile: {path} is {kind} device code (target {triple}), which cannot be "
                             "JIT-compiled into this Python process; build it ahead of time instead: "
                             + instead.format(name=path.name))


def _contents(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError:
        return b"(unreadable)"


def linked_bitcode(items: Sequence[Path | str], options: pipeline.CompileOptions) -> bytes:
    """Bitcode of the module linked from ``items`` (source paths, or IR text as ``str``), from the cache if current."""
    paths = [item for item in items if isinstance(item, Path)]
    parts: list[bytes | str] = ["linked-module", repr(options), os.getcwd()]
    parts += [f"{name}={os.environ.get(name)}" for name in _COMPILER_ENVIRONMENT]
    compilers = sorted({toolchain.COMPILERS[lang] for lang in map(toolchain.language_of, paths)
                        if lang in toolchain.COMPILERS})
    parts += [toolchain.tool_identity(name) for name in compilers]
    # Response files (@file) hold more flags.
    parts += [_contents(flag[1:]) for flag in options.flags if flag.startswith("@")]
    known_files: dict[Path, str] = {}
    for item in items:
        if isinstance(item, str):
            parts += ["text", item]
            continue
        contents = item.read_bytes()
        path = toolchain.absolute(item)
        known_files[path] = hashlib.sha256(contents).hexdigest()
        parts += ["file", str(item), str(path), contents]
    key = cache.cache_key(*parts)
    bitcode = cache.load(key)
    if bitcode is not None:
        return bitcode

    searched = [*options.include_dirs, *toolchain.search_directories(options.flags)]
    watched = [toolchain.absolute(d) for d in searched] + [p.parent for p in known_files]
    known_listings = {directory: dependencies.listing(directory) for directory in watched}
    started_ns = time.time_ns()
    with tempfile.TemporaryDirectory(prefix="enzyme-api-") as scratch:
        inputs: list[Path] = []
        for i, item in enumerate(items):
            if isinstance(item, str):
                inputs.append(Path(scratch) / f"source{i}.ll")
                inputs[-1].write_text(item)
            else:
                inputs.append(item)
        module, found = pipeline.compile_sources_with_dependencies(inputs, options)
        read = [f for f in found.prerequisites if Path(scratch) not in f.parents]
    problem = llvm.host_target_problem(module)
    if problem is not None:
        names = [p.name for p in paths] + (["<IR text>"] if len(paths) < len(items) else [])
        device = next((d for d in _DEVICE_CODE.values() if module.triple == d[1]), None)
        instead = (f"; for {device[0]} device code: " + device[2].format(name="<source>")) if device else ""
        raise UsageError(f"enzyme.compile: the module linked from {', '.join(names)} {problem}; only code for "
                         f"this machine can be JIT-compiled into this process (compile it for the host){instead}")
    bitcode = llvm.to_bitcode(module)
    recorded = dependencies.record(read, watched, found.environment, started_ns=started_ns,
                                   known_files=known_files, known_listings=known_listings, sources=known_files)
    if recorded is not None:  # else a file changed while the compilers ran: do not cache what they saw
        cache.store(key, bitcode, recorded)
    return bitcode
