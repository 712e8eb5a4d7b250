"""Find external tools, check that they are built on LLVM 22, and run them.

Every tool is looked up the same way: an ``ENZYME_<TOOL>`` environment
variable wins (tests point it at fake or missing programs), then the
versioned name (``clang-22``), then LLVM 22's own bin directory.  The version
is checked once per process and tool path.
"""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from enzyme.errors import CompileError, LLVMVersionError, ToolNotFoundError
from enzyme.llvm import REQUIRED_LLVM_MAJOR

LLVM_BIN_DIR = Path(f"/usr/lib/llvm-{REQUIRED_LLVM_MAJOR}/bin")
_APT = "apt-get install -y"
# How many lines of a failing tool's output an error message quotes.
_QUOTED_ERROR_LINES = 4


@dataclass(frozen=True)
class ToolSpec:
    """How to find, version-check and install one external program."""

    name: str
    env_var: str
    candidates: tuple[str, ...]
    version_args: tuple[str, ...]
    # Group 1 is the LLVM version (or the tool's version when llvm_based is False).
    version_pattern: str
    fix: str
    llvm_based: bool = True
    required: bool = True
    # For tools whose own version is not the LLVM version (rustc): group 1 is shown beside it.
    release_pattern: str | None = None


_VERSION = r"(\d+\.\d+(?:\.\d+)?)"


def _llvm_tool(name: str, env_var: str, banner: str, package: str, *, required: bool = True) -> ToolSpec:
    """An LLVM program: ``<name>-22`` on PATH or in LLVM 22's bin directory, from Debian ``<package>-22``."""
    return ToolSpec(
        name, env_var,
        (f"{name}-{REQUIRED_LLVM_MAJOR}", str(LLVM_BIN_DIR / name)),
        ("--version",), banner + _VERSION,
        f"{_APT} {package}-{REQUIRED_LLVM_MAJOR}", required=required,
    )


TOOL_SPECS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        _llvm_tool("clang", "ENZYME_CLANG", r"clang version ", "clang"),
        _llvm_tool("flang", "ENZYME_FLANG", r"flang(?:-new)? version ", "flang"),
        ToolSpec(
            "rustc", "ENZYME_RUSTC", ("rustc",),
            ("-vV",), r"LLVM version: " + _VERSION,
            f"install a Rust toolchain built on LLVM {REQUIRED_LLVM_MAJOR} (rustup toolchain install 1.95)",
            release_pattern=r"release: (\S+)", required=False,  # Rust sources only
        ),
        _llvm_tool("ld.lld", "ENZYME_LLD", r"LLD ", "lld"),
        _llvm_tool("llc", "ENZYME_LLC", r"LLVM version ", "llvm", required=False),
        _llvm_tool("llvm-link", "ENZYME_LLVM_LINK", r"LLVM version ", "llvm", required=False),
        # The compiler wrappers carry bitcode in a section of their objects.
        _llvm_tool("llvm-objcopy", "ENZYME_LLVM_OBJCOPY", r"LLVM version ", "llvm", required=False),
        ToolSpec(
            "ptxas", "ENZYME_PTXAS", ("ptxas", "/usr/local/cuda-13.0/bin/ptxas", "/usr/local/cuda/bin/ptxas"),
            ("--version",), r"release (\d+\.\d+)",
            "install the CUDA toolkit (ptxas validates generated PTX)", llvm_based=False, required=False,
        ),
    )
}


@dataclass(frozen=True)
class Tool:
    """A located, version-checked program."""

    name: str
    path: str
    version: str
    llvm_major: int | None


def locate(spec: ToolSpec) -> str | None:
    """Path of the program for ``spec`` (environment override first), or None."""
    override = os.environ.get(spec.env_var)
    if override:
        if shutil.which(override):
            return shutil.which(override)
        return override if Path(override).is_file() and os.access(override, os.X_OK) else None
    for candidate in spec.candidates:
        found = shutil.which(candidate)
        if found:
            return found
    return None


def find_directory(what: str, env_var: str, defaults: Sequence[str], marker: str, fix: str) -> Path:
    """First of ``$env_var`` (alone, when set) or ``defaults`` that contains file ``marker``."""
    override = os.environ.get(env_var)
    candidates = [override] if override else list(defaults)
    for candidate in candidates:
        if (Path(candidate) / marker).is_file():
            return Path(candidate)
    raise ToolNotFoundError(f"{what} not found (looked in {', '.join(candidates)}); {fix}")


def find_tool(name: str) -> Tool:
    """Locate and version-check tool ``name``; raise ToolNotFoundError or LLVMVersionError."""
    spec = TOOL_SPECS[name]
    path = locate(spec)
    if path is None:
        where = os.environ.get(spec.env_var)
        looked = f"{spec.env_var}={where}" if where else ", ".join(spec.candidates)
        raise ToolNotFoundError(f"{name} not found (looked for {looked}); install it: {spec.fix}")
    return _checked_tool(spec, path)


def _checked_tool(spec: ToolSpec, path: str) -> Tool:
    version = read_version(spec, path)
    if version is None:
        raise LLVMVersionError(
            f"cannot tell the version of {spec.name} at {path} (ran {' '.join(spec.version_args)}); "
            f"pyenzyme needs LLVM {REQUIRED_LLVM_MAJOR}: {spec.fix}"
        )
    major = int(version.split(".")[0]) if spec.llvm_based else None
    if major is not None and major != REQUIRED_LLVM_MAJOR:
        raise LLVMVersionError(
            f"{spec.name} at {path} uses LLVM {version}, but pyenzyme needs LLVM {REQUIRED_LLVM_MAJOR} "
            f"(bitcode of other majors does not mix): {spec.fix}, or point {spec.env_var} at an LLVM "
            f"{REQUIRED_LLVM_MAJOR} {spec.name}"
        )
    return Tool(spec.name, path, version, major)


def read_version(spec: ToolSpec, path: str) -> str | None:
    """The version ``spec.version_pattern`` finds in the tool's version output."""
    return _search_version_output(spec, path, spec.version_pattern)


def describe_version(spec: ToolSpec, path: str) -> str | None:
    """The version as people know it: ``22.1.8``, or ``1.95.0 (LLVM 22.1.2)`` for rustc."""
    version = read_version(spec, path)
    release = _search_version_output(spec, path, spec.release_pattern) if spec.release_pattern else None
    return f"{release} (LLVM {version})" if release and version else version


@functools.cache  # a tool's version does not change while we run; ask once per path
def _version_output(path: str, args: tuple[str, ...]) -> str:
    try:
        result = subprocess.run([path, *args], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return result.stdout + result.stderr


def _search_version_output(spec: ToolSpec, path: str, pattern: str) -> str | None:
    match = re.search(pattern, _version_output(path, spec.version_args))
    return match.group(1) if match else None


def tool_identity(name: str) -> str:
    """Path, size, modification time and version output of tool ``name``: what keys results the tool made.

    The file's size and time catch a compiler rebuilt or reinstalled under the same version string.
    """
    tool = find_tool(name)
    try:
        stat = os.stat(os.path.realpath(tool.path))
        stamp = f"{stat.st_size} {stat.st_mtime_ns}"
    except OSError:
        stamp = "?"
    return f"{tool.path} {stamp}\n{_version_output(tool.path, TOOL_SPECS[name].version_args)}"


def rustc_release(tool: Tool) -> str:
    """``rustc -vV`` release and commit, e.g. ``1.95.0-59807616e1fa``: keys caches built with rustc."""
    spec = TOOL_SPECS["rustc"]
    release = _search_version_output(spec, tool.path, r"release: (\S+)")
    commit = _search_version_output(spec, tool.path, r"commit-hash: (\w{12})")
    return "-".join(part for part in (release, commit) if part) or tool.version


def run_tool(argv: Sequence[str], *, what: str, cwd: str | os.PathLike[str] | None = None,
             error: type[Exception] = CompileError, echo_warnings: bool = False,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run a tool; on failure raise ``error`` quoting the tool's first error lines.

    ``what`` names the job for the message, e.g. ``"clang-22 failed on model.c"``.
    ``echo_warnings`` copies the output of a successful run to our stderr, as a
    compiler driver shows its warnings (the compiler wrappers use it).  ``env`` adds environment variables.
    """
    try:
        result = subprocess.run(list(argv), capture_output=True, text=True, cwd=cwd, check=False,
                                env={**os.environ, **env} if env else None)
    except OSError as exc:
        raise ToolNotFoundError(f"{what}: cannot run {argv[0]}: {exc.strerror or exc}") from None
    if result.returncode != 0:
        raise error(f"{what}:\n{first_errors(result.stderr + result.stdout)}")
    if echo_warnings and (result.stderr or result.stdout):
        sys.stderr.write(result.stderr + result.stdout)
    return result


# A line that starts a diagnostic (``file:1:2: error: ...``, ``error: ...``) rather than showing its context.
_DIAGNOSTIC = re.compile(r"^(\S[^:\n]*:\d+(:\d+)?: |(error|warning|note)(\[\w+\])?: |\d+ (error|warning)s? generated)")
_CONTEXT_LINES = 6


def first_errors(output: str) -> str:
    """The compiler's first few errors, each with the source lines and carets it printed under it."""
    lines = [line.rstrip() for line in output.splitlines()]
    blocks: list[str] = []
    for i, line in enumerate(lines):
        if len(blocks) == _QUOTED_ERROR_LINES:
            break
        if not re.search(r"\berror\b", line, re.IGNORECASE) or re.match(r"^(\d+ errors? generated|error: aborting)",
                                                                         line.strip()):
            continue
        context = []
        for follower in lines[i + 1:i + 1 + _CONTEXT_LINES]:
            if not follower.strip() or _DIAGNOSTIC.match(follower):
                break
            context.append(follower)
        blocks.append("\n".join(["  " + line.strip(), *("  " + c for c in context)]))
    if not blocks:
        shown = [line.strip() for line in lines if line.strip()][:_QUOTED_ERROR_LINES]
        return "\n".join("  " + line for line in shown) if shown else "  no output (exit status non-zero)"
    return "\n".join(blocks)
