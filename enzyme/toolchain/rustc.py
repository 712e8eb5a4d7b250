"""Rust to LLVM bitcode with rustc (built on LLVM 22), and Rust's std as a runtime library."""
from __future__ import annotations

import re
from pathlib import Path

from enzyme.errors import ToolchainError
from enzyme.toolchain.cache import cached_entry
from enzyme.toolchain.depfiles import read_depfile, search_directories, write_depfile
from enzyme.toolchain.linker import link_shared_whole_archive
from enzyme.toolchain.request import CompileRequest
from enzyme.toolchain.tools import find_tool, run_tool, rustc_release

STD_STATICLIB = "libenzyme_rust_std.a"
STD_SHARED = "libenzyme_rust_std.so"
_NATIVE_LIBS_FILE = "native-static-libs.txt"


def crate_name(source: Path) -> str:
    """A valid crate name from a file name (``my-model.rs`` -> ``my_model``)."""
    name = re.sub(r"\W", "_", source.stem)
    return name if name and not name[0].isdigit() else f"crate_{name}"


def compile_rust(request: CompileRequest) -> Path:
    """Compile a library crate to bitcode.

    ``panic=abort`` avoids unwinding tables AD would have to mirror; one
    codegen unit makes rustc write exactly one bitcode file.  Defines become
    ``--cfg`` options; include directories have no meaning for Rust.
    """
    if request.source.name == "Cargo.toml":
        from enzyme.toolchain.cargo import compile_cargo

        return compile_cargo(request)
    rustc = find_tool("rustc")
    cfgs: list[str] = []
    for define in request.defines:
        key, sep, value = define.partition("=")
        cfgs += ["--cfg", f'{key}="{value}"' if sep else key]
    depfile = request.depfile.resolve() if request.depfile is not None else None
    # Below -O2 rustc shares generic instances with the crates that made them first (std's RawVec helpers,
    # instantiated in std's dependencies, whose bitcode does not ship): the crate's own instances, which AD
    # can see, need -Zshare-generics=no, which a stable rustc accepts under RUSTC_BOOTSTRAP.
    local_generics = request.opt_level < 2
    # Edition 2021 unless the user's flags say otherwise: rustc alone defaults to 2015 (no TryFrom in the
    # prelude, ...), which is not what a Rust programmer's code is written for; 2021 still takes the plain
    # #[no_mangle] and extern blocks that 2024 rejects.
    edition = [] if any(f == "--edition" or f.startswith("--edition=") for f in request.flags) else ["--edition=2021"]
    run_tool(
        [
            rustc.path, "--crate-type=lib", "--crate-name", crate_name(request.source), *edition,
            "-C", "panic=abort", "-C", f"opt-level={request.opt_level}", "-C", "codegen-units=1",
            *(["-Z", "share-generics=no"] if local_generics else []),
            *(["-C", "debuginfo=2"] if request.debug else
              ["-C", "debuginfo=line-tables-only"] if request.line_tables else []),
            *cfgs, *request.flags,
            # Absolute paths: rustc runs in the output directory so its scratch files land there.
            f"--emit=llvm-bc={request.output.resolve()}", str(request.source.resolve()),
            *([f"--emit=dep-info={depfile}"] if depfile is not None else []),
        ],
        what=f"rustc failed on {request.source}",
        cwd=request.output.parent,
        env={"RUSTC_BOOTSTRAP": "1"} if local_generics else None,
    )
    if depfile is not None:
        # rustc's dep-info lists the crate's files and env!() variables but not the crates it links.
        found = read_depfile(depfile)
        crates = _extern_crates(request.flags, request.output.parent)
        write_depfile(depfile, request.output, [*found.prerequisites, *crates], found.environment)
    return request.output


def _extern_crates(flags: tuple[str, ...], cwd: Path) -> list[Path]:
    """Crate files the flags make available: ``--extern name=path`` and every crate in ``-L`` directories.

    Relative paths are relative to ``cwd``, where rustc runs.
    """
    crates: list[Path] = []
    for i, flag in enumerate(flags):
        value = flag.removeprefix("--extern=") if flag.startswith("--extern=") else (
            flags[i + 1] if flag == "--extern" and i + 1 < len(flags) else "")
        _name, sep, path = value.partition("=")
        if sep:
            crates.append((cwd / path).resolve())
    for directory in (cwd / d for d in search_directories(list(flags))):
        if directory.is_dir():
            crates += sorted(p.resolve() for p in directory.iterdir() if p.suffix in (".rlib", ".rmeta", ".so"))
    return crates


def std_runtime_dir() -> Path:
    """Cache entry holding Rust's std built by this rustc as a staticlib and a shared library.

    Bitcode of a crate using std references std's symbols and the allocator
    shim (``__rust_alloc``...); both exist only in a final artifact, so an
    empty staticlib crate is built once per rustc version to provide them.
    """
    rustc = find_tool("rustc")
    return cached_entry(f"rust-std-{rustc_release(rustc)}", lambda d: _build_std(rustc.path, d))


def std_native_libs(runtime_dir: Path) -> list[str]:
    """The system libraries the std staticlib needs (as rustc reported them)."""
    return (runtime_dir / _NATIVE_LIBS_FILE).read_text().split()


def _build_std(rustc: str, directory: Path) -> None:
    crate = directory / "enzyme_rust_std.rs"
    crate.write_text("// Empty crate: its staticlib carries Rust's std and the allocator shim.\n")
    result = run_tool(
        [
            rustc, "--crate-type=staticlib", "--crate-name", "enzyme_rust_std",
            "-C", "panic=abort", "-C", "opt-level=2", "--print", "native-static-libs",
            str(crate), "-o", str(directory / STD_STATICLIB),
        ],
        what="rustc failed to build the Rust std runtime", error=ToolchainError, cwd=directory,
    )
    match = re.search(r"native-static-libs: (.*)", result.stderr + result.stdout)
    native = match.group(1).split() if match else ["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"]
    (directory / _NATIVE_LIBS_FILE).write_text(" ".join(native) + "\n")
    link_shared_whole_archive(directory / STD_STATICLIB, directory / STD_SHARED, libraries=native)

