"""A Cargo package as one source: ``cargo build`` with bitcode emitted for every crate, linked into one module.

The package's library crate and its dependencies (path or vendored ones:
the build runs ``--offline``) are built with the profile pyenzyme needs
(``panic=abort``, one codegen unit, no LTO, the requested opt-level), each
crate also writing its LLVM bitcode; those are linked, so a derivative may
reach into any crate of the graph.  std comes from the Rust runtime library,
as for single-file crates.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from enzyme import llvm
from enzyme.errors import CompileError, ToolNotFoundError
from enzyme.toolchain.depfiles import write_depfile
from enzyme.toolchain.request import CompileRequest
from enzyme.toolchain.tools import find_tool, run_tool

MANIFEST = "Cargo.toml"


def cargo_path() -> str:
    """cargo next to the rustc pyenzyme uses (same toolchain), else on PATH."""
    beside = Path(find_tool("rustc").path).with_name("cargo")
    found = str(beside) if beside.is_file() else shutil.which("cargo")
    if found is None:
        raise ToolNotFoundError("cargo not found next to rustc or on PATH; install it with rustup "
                                "(or pass the crate's root source file instead of its Cargo.toml)")
    return found


def compile_cargo(request: CompileRequest) -> Path:
    """``request.source`` is a ``Cargo.toml``: build its package, write the linked bitcode of every crate."""
    manifest = request.source.resolve()
    target = request.output.parent / f"{request.output.stem}-cargo-target"
    low = request.opt_level < 2
    debug = "full" if request.debug else "line-tables-only" if request.line_tables else "false"
    env = {
        "CARGO_TARGET_DIR": str(target),
        "CARGO_PROFILE_RELEASE_OPT_LEVEL": str(request.opt_level),
        "CARGO_PROFILE_RELEASE_PANIC": "abort",
        "CARGO_PROFILE_RELEASE_CODEGEN_UNITS": "1",
        "CARGO_PROFILE_RELEASE_LTO": "false",
        "CARGO_PROFILE_RELEASE_INCREMENTAL": "false",
        "CARGO_PROFILE_RELEASE_DEBUG": debug,
        # Below -O2 each crate keeps its own generic instances (see rustc.compile_rust).
        "RUSTFLAGS": " ".join(["--emit=llvm-bc,link", *(["-Zshare-generics=no"] if low else []), *request.flags]),
        "RUSTC": find_tool("rustc").path,
        **({"RUSTC_BOOTSTRAP": "1"} if low else {}),
    }
    run_tool([cargo_path(), "build", "--release", "--lib", "--offline", "--quiet", "--manifest-path", str(manifest)],
             what=f"cargo failed to build {manifest}", cwd=manifest.parent, env=env)
    bitcode = sorted((target / "release" / "deps").glob("*.bc"))
    if not bitcode:
        raise CompileError(f"cargo built {manifest} but wrote no bitcode (is there a [lib] target?)")
    module = llvm.link([(str(p), p.read_bytes()) for p in bitcode])
    request.output.write_bytes(llvm.to_bitcode(module))
    if request.depfile is not None:
        package = manifest.parent
        sources = sorted(p for p in package.rglob("*.rs") if target not in p.parents)
        lock = [package / "Cargo.lock"] if (package / "Cargo.lock").is_file() else []
        write_depfile(request.depfile, request.output, [manifest, *lock, *sources], {})
    return request.output
