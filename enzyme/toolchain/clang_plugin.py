"""pyenzyme's clang plugin: Enzyme's source attributes (``frontends/clang/enzyme_attributes.cpp``).

clang-22 knows none of ``enzyme_inactive``, ``enzyme_function_like(...)``, ...;
the plugin teaches it upstream Enzyme's spellings and lowers each attribute to
an ``annotate`` that reaches the IR (read by :mod:`enzyme.ad.annotations`).
It is built once per clang and plugin source, with that clang, against the
clang headers of the same LLVM (Debian: ``libclang-22-dev``), cached, and loaded
with ``-fplugin`` into every C/C++/CUDA/HIP compile.  Without the headers it is
unavailable: sources that use no ``enzyme_*`` attribute do not notice, the
others fail with the fix (see :mod:`enzyme.toolchain.clang`).
"""
from __future__ import annotations

import functools
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from enzyme import _paths
from enzyme.errors import CompileError
from enzyme.toolchain.cache import cached_entry
from enzyme.toolchain.tools import Tool, find_tool, run_tool

_LIBRARY = "enzyme_attributes.so"
# What LLVM's own headers are compiled with (llvm-config --cxxflags); LLVM has no RTTI.
_CXX_FLAGS = ("-std=c++17", "-fno-rtti", "-fno-exceptions", "-fPIC", "-O2", "-D_GNU_SOURCE",
              "-D__STDC_CONSTANT_MACROS", "-D__STDC_FORMAT_MACROS", "-D__STDC_LIMIT_MACROS")


@dataclass(frozen=True)
class PluginStatus:
    """The built plugin (``path``), or why there is none (``missing``)."""

    path: Path | None
    missing: str = ""

    @property
    def flags(self) -> list[str]:
        """The clang arguments that load it (none when unavailable)."""
        return [f"-fplugin={self.path}"] if self.path is not None else []


def clang_plugin() -> PluginStatus:
    """The plugin for the clang pyenzyme uses, built into the cache the first time."""
    return _plugin_for(find_tool("clang"))


@functools.cache
def _plugin_for(clang: Tool) -> PluginStatus:
    include = Path(os.path.realpath(clang.path)).parent.parent / "include"
    if not (include / "clang" / "Sema" / "ParsedAttr.h").is_file():
        major = clang.llvm_major
        return PluginStatus(None, f"the clang {major} headers are not installed ({include / 'clang'} is missing); "
                                  f"install them with `apt-get install libclang-{major}-dev` (ci/setup.sh does)")
    source = _paths.clang_plugin_source()
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:12]
    entry = cached_entry(f"clang-plugin-{clang.version}-{digest}",
                         lambda directory: _build(clang, include, source, directory / _LIBRARY))
    return PluginStatus(entry / _LIBRARY)


def _build(clang: Tool, include: Path, source: Path, output: Path) -> None:
    run_tool([clang.path, "--driver-mode=g++", "-shared", *_CXX_FLAGS, f"-I{include}", str(source),
              "-o", str(output)],
             what=f"building pyenzyme's clang plugin ({source}) failed; please report this", error=CompileError)
