"""Fortran to LLVM bitcode with flang-22."""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from enzyme.errors import ToolNotFoundError
from enzyme.llvm import REQUIRED_LLVM_MAJOR
from enzyme.toolchain.cache import cached_entry
from enzyme.toolchain.depfiles import absolute, search_directories, write_depfile
from enzyme.toolchain.fortran_dependencies import fortran_dependencies
from enzyme.toolchain.linker import link_shared_whole_archive
from enzyme.toolchain.request import CompileRequest
from enzyme.toolchain.tools import find_tool, run_tool

RUNTIME_ARCHIVE = "libflang_rt.runtime.a"
RUNTIME_SHARED = "libflang_rt.runtime.so"
# Libraries the Fortran runtime itself calls into (it is written in C++).
RUNTIME_DEPENDENCIES = ("-lm", "-lstdc++")


def compile_fortran(request: CompileRequest) -> Path:
    """Compile one Fortran file; ``.mod`` files go to ``request.module_dir``.

    Sharing one module directory between the files of a build lets later
    files ``use`` modules of earlier ones (compile them in dependency order).
    """
    if request.module_dir is None:
        with tempfile.TemporaryDirectory(prefix="enzyme-fortran-modules-") as scratch:
            return _run_flang(request, Path(scratch))
    request.module_dir.mkdir(parents=True, exist_ok=True)
    return _run_flang(request, request.module_dir)


def _run_flang(request: CompileRequest, module_dir: Path) -> Path:
    flang = find_tool("flang")
    # flang adds no optnone at -O0, unlike clang, so -O0 needs nothing extra.
    run_tool(
        [
            flang.path, *_optimization_args(request.opt_level), *(["-g"] if request.debug else ["-gline-tables-only"] if request.line_tables else []),
            "-emit-llvm", "-c", "-module-dir", str(module_dir), f"-I{module_dir}",
            *request.preprocessor_args, *request.flags,
            str(request.source), "-o", str(request.output),
        ],
        what=f"flang-{flang.llvm_major} failed on {request.source}",
        echo_warnings=request.show_warnings,
    )
    if request.depfile is not None:  # flang writes none: scan for include and module files
        search = [*request.include_dirs, module_dir, *search_directories(request.flags)]
        write_depfile(request.depfile, request.output,
                      [absolute(request.source), *fortran_dependencies(request.source, search)])
    return request.output


def _optimization_args(level: int) -> list[str]:
    """As for clang: AD sees scalar code; vectorization and unrolling happen after AD (post-AD O3)."""
    if level == 0:
        return ["-O0"]
    return [f"-O{level}", "-fno-vectorize", "-fno-slp-vectorize", "-fno-unroll-loops"]


def runtime_archive() -> Path:
    """flang's static runtime library (there is no shared one in LLVM 22 packages)."""
    flang = find_tool("flang")
    result = subprocess.run([flang.path, "-print-resource-dir"], capture_output=True, text=True, check=False)
    resource_dir = Path(result.stdout.strip() or f"/usr/lib/llvm-{REQUIRED_LLVM_MAJOR}/lib/clang/{REQUIRED_LLVM_MAJOR}")
    found = sorted(resource_dir.glob(f"lib/*/{RUNTIME_ARCHIVE}"), key=lambda p: "x86_64" not in str(p))
    if not found:
        raise ToolNotFoundError(
            f"Fortran runtime {RUNTIME_ARCHIVE} not found under {resource_dir}/lib; "
            f"install it: apt-get install -y libflang-{REQUIRED_LLVM_MAJOR}-dev"
        )
    return found[0]


def runtime_shared_library() -> Path:
    """A shared copy of the Fortran runtime for the JIT, built once per flang version."""
    flang = find_tool("flang")
    archive = runtime_archive()

    def build(directory: Path) -> None:
        link_shared_whole_archive(archive, directory / RUNTIME_SHARED, libraries=RUNTIME_DEPENDENCIES)

    return cached_entry(f"flang-rt-{flang.version}", build) / RUNTIME_SHARED
