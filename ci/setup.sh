#!/usr/bin/env bash
# Installs everything pyenzyme needs on Debian 12 and installs pyenzyme itself
# (editable, with the test extra).  Safe to run again: when everything is already
# there it only checks and finishes in about a second.
#
#   bash ci/setup.sh        # as root (apt-get); otherwise sudo is used for apt-get
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
# Everything must come from one LLVM major (22): bitcode is not forward compatible.
REQUIRED_APT=(clang-22 flang-22 llvm-22 lld-22 libclang-22-dev libomp-22-dev ninja-build make)
REQUIRED_TOOLS=(clang-22 clang++-22 flang-22 ld.lld-22 llc-22 llvm-link-22 ninja make)
# MPI programs (tests/ad/test_mpi.py, benchmarks/bench_mpi.py) build with OpenMPI's mpicc and run under mpirun.
REQUIRED_APT+=(libopenmpi-dev openmpi-bin)
REQUIRED_TOOLS+=(mpicc mpirun)
# pyenzyme's clang plugin (Enzyme's source attributes, built on first use) needs clang's headers.
CLANG_HEADER=/usr/lib/llvm-22/include/clang/Sema/ParsedAttr.h
# OpenMP programs (-fopenmp) need clang-22's OpenMP runtime and its omp.h.
OPENMP_RUNTIME=/usr/lib/llvm-22/lib/libomp.so
# HIP device tests (compile only) need the ROCm device libraries and HIP headers;
# Debian's are small (~20 MB download) but the suite skips those tests without them.
OPTIONAL_APT=(rocm-device-libs libamdhip64-dev)
ROCM_BITCODE_DIR=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
HIP_HEADER=/usr/include/hip/hip_runtime.h

log() { echo "setup: $*"; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else log "error: '$*' needs root; run ci/setup.sh as root"; exit 1
    fi
}

missing_tools=()
for tool in "${REQUIRED_TOOLS[@]}"; do
    command -v "$tool" >/dev/null || missing_tools+=("$tool")
done
[ -f "$CLANG_HEADER" ] || missing_tools+=("libclang-22-dev")
[ -f "$OPENMP_RUNTIME" ] || missing_tools+=("libomp-22-dev")
need_optional=0
[ -d "$ROCM_BITCODE_DIR" ] && [ -f "$HIP_HEADER" ] || need_optional=1
need_pip=0
"$PYTHON" -m pip --version >/dev/null 2>&1 || need_pip=1

if [ ${#missing_tools[@]} -gt 0 ] || [ $need_optional -eq 1 ] || [ $need_pip -eq 1 ]; then
    log "installing system packages (missing: ${missing_tools[*]:-none}; optional HIP libs: $need_optional)"
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -q
    packages=("${REQUIRED_APT[@]}")
    [ $need_pip -eq 1 ] && packages+=(python3-pip)
    as_root apt-get install -y -q "${packages[@]}"
    if [ $need_optional -eq 1 ]; then
        as_root apt-get install -y -q --no-install-recommends "${OPTIONAL_APT[@]}" \
            || log "warning: could not install ${OPTIONAL_APT[*]}; HIP tests will be skipped"
    fi
fi

for tool in "${REQUIRED_TOOLS[@]}"; do
    command -v "$tool" >/dev/null || { log "error: $tool is still missing after apt-get install"; exit 1; }
done
[ -f "$CLANG_HEADER" ] || { log "error: $CLANG_HEADER is still missing after apt-get install libclang-22-dev"; exit 1; }
[ -f "$OPENMP_RUNTIME" ] || { log "error: $OPENMP_RUNTIME is still missing after apt-get install libomp-22-dev"; exit 1; }

# rustc cannot come from Debian (its rustc uses an older LLVM): it must be a rustup
# toolchain on LLVM 22 (rustc 1.95 or newer in the 22 series).
if ! command -v rustc >/dev/null; then
    log "warning: rustc not found; Rust sources cannot be compiled (install rustc 1.95 with rustup)"
elif ! rustc -vV | grep -q '^LLVM version: 22\.'; then
    log "warning: $(rustc -V) is not built on LLVM 22; Rust sources will be rejected"
fi

# Debian's own python3 refuses pip installs into it (PEP 668); CI machines are
# throwaway, so allow it there.  Virtual environments and pyenv are not affected.
if "$PYTHON" -c 'import os, sys, sysconfig; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")) and sys.prefix == sys.base_prefix else 1)'; then
    export PIP_BREAK_SYSTEM_PACKAGES=1
fi

# Is pyenzyme installed editable from this checkout, at this version, with the
# dependencies and scripts pyproject.toml asks for?  Exit 0 if so.
python_install_ok() {
    "$PYTHON" - <<'PY'
import json, os, sys
from importlib import metadata
try:
    import tomllib
    from packaging.requirements import Requirement
except ImportError:
    sys.exit(1)

with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)["project"]
try:
    dist = metadata.distribution(project["name"])
    direct_url = json.loads(dist.read_text("direct_url.json") or "{}")
except metadata.PackageNotFoundError:
    sys.exit(1)
checkout = os.path.realpath(os.getcwd())
if not direct_url.get("dir_info", {}).get("editable") or \
        os.path.realpath(direct_url.get("url", "").removeprefix("file://")) != checkout:
    sys.exit(1)
version_line = next(l for l in open("enzyme/__init__.py") if l.startswith("__version__"))
if dist.version != version_line.split('"')[1]:
    sys.exit(1)
scripts = {ep.name for ep in dist.entry_points if ep.group == "console_scripts"}
if scripts != set(project.get("scripts", {})):
    sys.exit(1)
wanted = project["dependencies"] + project["optional-dependencies"]["test"]
for text in wanted:
    req = Requirement(text)
    try:
        if not req.specifier.contains(metadata.version(req.name), prereleases=True):
            sys.exit(1)
    except metadata.PackageNotFoundError:
        sys.exit(1)
PY
}

# Until 2026-11 the distribution was named "pyenzyme" (taken on PyPI by EnzymeML); an editable install
# of ours under that name would keep importing `enzyme` from wherever it points, so it goes first.
if "$PYTHON" - <<'PY'
import sys
from importlib import metadata
try:
    summary = metadata.distribution("pyenzyme").metadata["Summary"] or ""
except metadata.PackageNotFoundError:
    sys.exit(1)
sys.exit(0 if summary.startswith("Enzyme-style automatic differentiation") else 1)
PY
then
    log "removing this project's install under its old distribution name 'pyenzyme'"
    "$PYTHON" -m pip uninstall -y -q pyenzyme
fi

if python_install_ok; then
    log "pyenzyme already installed (editable) with its test dependencies"
else
    log "installing pyenzyme (editable) with the test extra"
    "$PYTHON" -m pip install -q -e ".[test]"
    python_install_ok || { log "error: pip install -e .[test] did not give a usable install"; exit 1; }
fi

# The toolchain report; informative only, setup does not depend on it.
"$PYTHON" -m enzyme doctor || log "warning: 'enzyme doctor' failed (see above)"

log "ok: $(clang-22 --version | head -1), $("$PYTHON" -c 'import llvmlite.binding as b, enzyme; print(f"llvmlite LLVM {b.llvm_version_info[0]}.{b.llvm_version_info[1]}, pyenzyme {enzyme.__version__}")')"
