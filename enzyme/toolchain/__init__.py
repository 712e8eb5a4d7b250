"""The toolchain boundary: every call of an external compiler or linker lives here.

One module per tool (``clang``, ``flang``, ``rustc``, ``cuda``, ``hip``,
``linker``, ``objcopy``, ``compiler_driver``); ``tools`` finds programs and checks they are built on LLVM 22;
``depfiles`` reads and writes the lists of files each compile read.
"""
from __future__ import annotations

from enzyme.toolchain.bitcode import compile_to_bitcode
from enzyme.toolchain.cache import cache_dir
from enzyme.toolchain.clang import compile_amdgpu_object, compile_ir_object, openmp_runtime, optimize_ir_object
from enzyme.toolchain.compiler_driver import compile_native_object, run_driver
from enzyme.toolchain.depfiles import Depfile, absolute, read_depfile, search_directories, write_depfile
from enzyme.toolchain.doctor import ToolStatus, doctor, format_table
from enzyme.toolchain.languages import COMPILERS, LANGUAGES, language_of, missing_source_message, source_path
from enzyme.toolchain.linker import link_code_object, link_executable, link_shared
from enzyme.toolchain.objcopy import add_section
from enzyme.toolchain.runtimes import jit_libraries, link_libraries, uses_openmp
from enzyme.toolchain.tools import Tool, find_tool, tool_identity

__all__ = [
    "COMPILERS",
    "LANGUAGES",
    "Depfile",
    "Tool",
    "ToolStatus",
    "absolute",
    "add_section",
    "cache_dir",
    "compile_amdgpu_object",
    "compile_ir_object",
    "compile_native_object",
    "compile_to_bitcode",
    "doctor",
    "find_tool",
    "format_table",
    "jit_libraries",
    "language_of",
    "missing_source_message",
    "source_path",
    "link_code_object",
    "link_executable",
    "link_libraries",
    "link_shared",
    "openmp_runtime",
    "optimize_ir_object",
    "read_depfile",
    "run_driver",
    "search_directories",
    "tool_identity",
    "uses_openmp",
    "write_depfile",
]
