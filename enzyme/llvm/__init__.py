"""The LLVM boundary: the only package of pyenzyme that imports ``llvmlite.binding``.

Everything the rest of pyenzyme needs from LLVM 22 goes through this facade:
parsing and printing modules, verification, linking, pass pipelines, code
generation and the JIT.  LLVM-version specifics stay here.
"""
from __future__ import annotations

from llvmlite.binding import ModuleRef

from enzyme.llvm.argument_access import read_only_arguments
from enzyme.llvm.jit import JIT, load_library, unresolved_symbols
from enzyme.llvm.linking import device_library_functions, link, link_device_libraries, link_device_library
from enzyme.llvm.optimized_unit import host_mark_bitcode, is_one_optimized_unit
from enzyme.llvm.modules import declares_function, to_bitcode, to_text, verify
from enzyme.llvm.parsing import REQUIRED_LLVM_MAJOR, bundled_llvm_version, parse, parse_file
from enzyme.llvm.passes import optimize, preopt, strip_debug
from enzyme.llvm.registrations import keep_registered_calls, registered_functions
from enzyme.llvm.symbols import global_symbols
from enzyme.llvm.targets import (
    emit_amdgpu_object,
    emit_object,
    emit_ptx,
    host_target_machine,
    host_target_problem,
    target_machine_for,
)

__all__ = [
    "declares_function",
    "link_device_libraries",
    "device_library_functions",
    "link_device_library",
    "JIT",
    "REQUIRED_LLVM_MAJOR",
    "bundled_llvm_version",
    "ModuleRef",
    "emit_amdgpu_object",
    "emit_object",
    "emit_ptx",
    "global_symbols",
    "host_mark_bitcode",
    "is_one_optimized_unit",
    "host_target_machine",
    "host_target_problem",
    "keep_registered_calls",
    "link",
    "load_library",
    "unresolved_symbols",
    "optimize",
    "parse",
    "parse_file",
    "preopt",
    "read_only_arguments",
    "registered_functions",
    "strip_debug",
    "target_machine_for",
    "to_bitcode",
    "to_text",
    "verify",
]
