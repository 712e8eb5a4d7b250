"""Report which external tools pyenzyme can use (``enzyme doctor``)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from enzyme.errors import EnzymeError, ToolNotFoundError
from enzyme.llvm import REQUIRED_LLVM_MAJOR
from enzyme.toolchain.clang_plugin import clang_plugin
from enzyme.toolchain.cuda import cuda_path
from enzyme.toolchain.flang import runtime_archive
from enzyme.toolchain.hip import ROCM_DEVICE_LIBS_FIX, rocm_device_lib_dir
from enzyme.toolchain.tools import TOOL_SPECS, describe_version, locate, read_version

_PACKAGE_DIR = Path(__file__).resolve().parents[1]  # the enzyme package
OK = "ok"
MISSING = "missing"
WRONG_VERSION = "wrong-version"
OPTIONAL_MISSING = "optional-missing"


@dataclass(frozen=True)
class ToolStatus:
    """One row of the doctor table."""

    name: str
    path: str | None
    version: str | None
    llvm_major: int | None
    status: str  # OK, MISSING, WRONG_VERSION or OPTIONAL_MISSING
    fix: str
    required: bool = True

    @property
    def usable(self) -> bool:
        return self.status == OK


def _tool_status(name: str) -> ToolStatus:
    spec = TOOL_SPECS[name]
    path = locate(spec)
    fix = f"{spec.fix}, or set {spec.env_var}=/path/to/{name}"
    if path is None:
        status = MISSING if spec.required else OPTIONAL_MISSING
        return ToolStatus(name, None, None, None, status, fix, spec.required)
    version = read_version(spec, path)
    major = int(version.split(".")[0]) if version and spec.llvm_based else None
    good = version is not None and (not spec.llvm_based or major == REQUIRED_LLVM_MAJOR)
    status = OK if good else WRONG_VERSION
    shown = describe_version(spec, path)
    return ToolStatus(name, path, shown, major, status, "" if good else fix, spec.required)


def _path_status(name: str, find: Callable[[], Path], fix: str, *, required: bool) -> ToolStatus:
    try:
        path = find()
    except EnzymeError:
        return ToolStatus(name, None, None, None, MISSING if required else OPTIONAL_MISSING, fix, required)
    return ToolStatus(name, str(path), None, None, OK, "", required)


def _clang_plugin_path() -> Path:
    status = clang_plugin()
    if status.path is None:
        raise ToolNotFoundError(status.missing)
    return status.path


def _installation(version: str) -> list[ToolStatus]:
    """pyenzyme itself (``version``, where it is installed) and the llvmlite (LLVM) it runs on."""
    import llvmlite

    from enzyme.llvm import bundled_llvm_version

    bundled = bundled_llvm_version()
    llvm_version = ".".join(map(str, bundled))
    good = bundled[0] == REQUIRED_LLVM_MAJOR
    return [
        ToolStatus("pyenzyme", str(_PACKAGE_DIR), version, None, OK, ""),
        ToolStatus("llvmlite", str(Path(llvmlite.__file__).parent), f"{llvmlite.__version__} (LLVM {llvm_version})",
                   bundled[0], OK if good else WRONG_VERSION,
                   "" if good else f"pip install 'llvmlite>=0.50' (LLVM {REQUIRED_LLVM_MAJOR})"),
    ]


def doctor(version: str) -> list[ToolStatus]:
    """Status of pyenzyme's installation (``version``: the package's, which the caller knows; this layer
    does not import the package root), then every tool and runtime, required ones first."""
    rows = [*_installation(version), *(_tool_status(name) for name in TOOL_SPECS)]
    rows.append(_path_status(
        "flang-runtime", runtime_archive, f"apt-get install -y libflang-{REQUIRED_LLVM_MAJOR}-dev", required=True,
    ))
    rows.append(_path_status(
        "cuda-toolkit", cuda_path, "install the CUDA toolkit or set ENZYME_CUDA_PATH", required=False,
    ))
    rows.append(_path_status("rocm-device-libs", rocm_device_lib_dir, ROCM_DEVICE_LIBS_FIX, required=False))
    # Enzyme's source attributes (enzyme_inactive, ...) need it; sources without them do not.
    rows.append(_path_status("clang-plugin", _clang_plugin_path,
                             f"apt-get install -y libclang-{REQUIRED_LLVM_MAJOR}-dev", required=False))
    return sorted(rows, key=lambda row: not row.required)


def format_table(rows: list[ToolStatus]) -> str:
    """The doctor rows as an aligned text table."""
    header = ("tool", "status", "version", "path", "fix")
    cells = [header] + [
        (r.name, r.status, r.version or "-", r.path or "-", r.fix or "") for r in rows
    ]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header) - 1)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1] for row in cells]
    return "\n".join(line.rstrip() for line in lines)
