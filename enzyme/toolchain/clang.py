"""C and C++ to LLVM bitcode with clang-22.

Every compile of C, C++, CUDA and HIP source goes through :func:`run_clang`,
which loads pyenzyme's clang plugin (Enzyme's source attributes, see
:mod:`enzyme.toolchain.clang_plugin`) and turns clang's "unknown attribute
ignored" warning for an ``enzyme_*`` name into an error: a misspelt or
unimplemented Enzyme attribute must not silently leave a wrong derivative.
"""
from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

from enzyme import _paths, llvm
from enzyme.errors import CompileError, ToolNotFoundError
from enzyme.toolchain.clang_plugin import PluginStatus, clang_plugin
from enzyme.toolchain.request import CompileRequest
from enzyme.toolchain.tools import Tool, find_tool, run_tool

#: The Enzyme attributes pyenzyme implements (each also spelled ``[[enzyme::inactive]]``, ...).
SUPPORTED_ATTRIBUTES = ("enzyme_inactive", "enzyme_inactive_noblock", "enzyme_function_like", "enzyme_nofree",
                        "enzyme_shadow")
#: Enzyme attributes accepted as hints that change nothing here: ``enzyme_notypeanalysis`` on a global tells
#: upstream's type analysis to ignore its conflicting uses; pyenzyme's refuses what such uses would make
#: ambiguous instead of guessing, so there is nothing to switch off.  ``enzyme_sparse_accumulate`` marks the
#: function a todense store function reports an entry with, for upstream's loop sparsification (an
#: optimization: pyenzyme calls it as written, docs/decisions.md).
HINT_ATTRIBUTES = ("enzyme_notypeanalysis", "enzyme_sparse_accumulate")
#: Loop annotations asking for checkpointing (``[[enzyme_checkpointing_enable("binomial", 3)]]``,
#: ``[[enzyme::checkpoint("revolve", 2)]]``, the GNU spellings): checkpointing changes the memory a gradient
#: keeps, never its value, so the loop is differentiated plainly, with a warning saying so
#: (``__enzyme_checkpoint_for`` from <enzyme/checkpoint.h> does checkpoint).
CHECKPOINT_ANNOTATIONS = ("enzyme_checkpointing_enable", "enzyme_checkpoint")
_UNKNOWN_ATTRIBUTE = re.compile(
    r"^(?P<where>.*?): warning: unknown attribute '(?P<name>enzyme(?:_|::)\w*)' ignored", re.MULTILINE)
# User flags that hide clang's unknown-attribute warning: a syntax-only pass then looks for them.
_HIDING_FLAGS = frozenset({"-w", "-Wno-unknown-attributes", "-Wno-attributes", "-Wno-everything"})


def optimization_args(level: int) -> list[str]:
    """clang's -O flag; at -O0 keep functions optimisable.

    Plain ``-O0`` marks every function ``optnone noinline``, and the pre-AD
    pipeline would then leave them untouched.
    """
    if level == 0:
        return ["-O0", "-Xclang", "-disable-O0-optnone"]
    # Like upstream Enzyme: differentiate scalar code; vectorization and unrolling
    # happen after AD, in the post-AD O3 pipeline.  Not -fno-unroll-loops: it marks every loop
    # llvm.loop.unroll.disable, which the post-AD pipeline would obey too.  Unroll counts of 1
    # (partial and full) keep every loop rolled and leave no mark.
    return [f"-O{level}", "-fno-vectorize", "-fno-slp-vectorize",
            "-mllvm", "-unroll-max-count=1", "-mllvm", "-unroll-full-max-count=1"]


def clang_args(request: CompileRequest, *, language: str) -> list[str]:
    """Arguments (after the program name) for a clang bitcode compile of ``language``.

    ``language`` is clang's ``-x`` name: ``c``, ``c++``, ``cuda`` or ``hip``.
    """
    return [
        # g++ driver mode gives C++/CUDA/HIP sources the C++ standard library headers.
        *(["--driver-mode=g++"] if language != "c" else []),
        "-x", language,
        *optimization_args(request.opt_level),
        *(["-g"] if request.debug else ["-gline-tables-only"] if request.line_tables else []),
        "-emit-llvm", "-c",
        *request.preprocessor_args,
        # <enzyme/enzyme.h> works without -I; after the user's own directories, so theirs win.
        "-idirafter", str(_paths.include_dir()),
    ]


def user_chose_arch(request: CompileRequest) -> bool:
    """Whether the user's flags already pick the GPU architecture (then we add no default)."""
    return any(flag.startswith(("--cuda-gpu-arch", "--offload-arch")) for flag in request.flags)


def run_clang(request: CompileRequest, args: list[str], *, depfile_through_cc1: bool = False) -> Path:
    """Run clang-22 with the plugin, ``args`` and the user's flags, writing ``request.output``.

    Raises CompileError when clang fails or the source uses an ``enzyme_*``
    attribute that pyenzyme does not implement.
    """
    clang = find_tool("clang")
    plugin = clang_plugin()
    # After the user's flags: the depfile asked for must be the one written.
    dependencies = ["-MD", "-MF", str(request.depfile), "-MT", str(request.output)] if request.depfile else []
    if request.depfile and depfile_through_cc1:
        # The driver ignores -MD/-MF for HIP device-only compiles: ask the compiler proper.
        dependencies = [x for flag in ("-dependency-file", str(request.depfile), "-MT", str(request.output),
                                       "-sys-header-deps") for x in ("-Xclang", flag)]
    result = run_tool(
        [clang.path, *plugin.flags, *args, *request.flags, *dependencies, str(request.source), "-o",
         str(request.output)],
        what=f"clang-{clang.llvm_major} failed on {request.source}",
    )
    output = result.stderr + result.stdout
    diagnostics = output
    if _HIDING_FLAGS.intersection(request.flags):
        diagnostics += _unknown_attribute_pass(clang, plugin, args, request)
    refuse_unknown_enzyme_attributes(diagnostics, plugin)
    if request.show_warnings and output:
        sys.stderr.write(output)
    return request.output


def _unknown_attribute_pass(clang: Tool, plugin: PluginStatus, args: list[str], request: CompileRequest) -> str:
    """clang's unknown-attribute warnings alone, for a command whose flags hide them (``-w``, ...)."""
    flags = [f for f in request.flags if f not in _HIDING_FLAGS]
    result = run_tool(
        [clang.path, *plugin.flags, *args, *flags, "-fsyntax-only", "-Wno-everything", "-Wunknown-attributes",
         str(request.source)],
        what=f"clang-{clang.llvm_major} failed on {request.source}",
    )
    return result.stderr + result.stdout


def refuse_unknown_enzyme_attributes(diagnostics: str, plugin: PluginStatus) -> None:
    """Raise CompileError for every ``enzyme_*`` attribute clang reported as unknown in ``diagnostics``."""
    problems = []
    notes = []
    for m in _UNKNOWN_ATTRIBUTE.finditer(diagnostics):
        name = m["name"]
        if name.replace("::", "_") in HINT_ATTRIBUTES:
            continue
        if name.replace("::", "_") in CHECKPOINT_ANNOTATIONS:
            notes.append(f"pyenzyme: warning: {m['where']}: '{name}' is not implemented: the loop is differentiated "
                         "without checkpointing (the same derivative, every step's tape kept); "
                         "__enzyme_checkpoint_for from <enzyme/checkpoint.h> checkpoints\n")
            continue
        if name.replace("::", "_") in SUPPORTED_ATTRIBUTES and plugin.path is None:
            problems.append(f"{m['where']}: '{name}' needs pyenzyme's clang plugin, which is unavailable: "
                            f"{plugin.missing}")
        else:
            problems.append(f"{m['where']}: unknown attribute '{name}': pyenzyme implements "
                            f"{', '.join(SUPPORTED_ATTRIBUTES)} (misspelt, or an Enzyme attribute pyenzyme does "
                            "not support); ignoring it would give a wrong derivative")
    if problems:
        raise CompileError("; ".join(dict.fromkeys(problems)))
    for note in dict.fromkeys(notes):
        sys.stderr.write(note)


def compile_c(request: CompileRequest) -> Path:
    return _compile_host(request, "c")


def compile_cxx(request: CompileRequest) -> Path:
    return _compile_host(request, "c++")


# A source that registers derivatives (enzyme.h's macros or the globals written out).
_REGISTRATION_MARKERS = ("__enzyme_register_", "__enzyme_inactivefn", "__enzyme_inactive_global", "__enzyme_function_like",
                         "__enzyme_allocation_like", "ENZYME_REGISTER")


def _compile_host(request: CompileRequest, language: str) -> Path:
    """clang's bitcode, optimized at the requested level.

    A file registering derivatives is optimized here instead of in clang, with
    the registered functions marked ``noinline`` first: clang's inliner would
    otherwise copy them into their callers, where the rule no longer applies.
    """
    args = clang_args(request, language=language)
    mark = request.output.with_name(request.output.name + ".mark.bc")
    if _marks_optimized_unit(request):
        mark.write_bytes(llvm.host_mark_bitcode(_unit_name(request, language)))
        args += ["-Xclang", "-mlink-bitcode-file", "-Xclang", str(mark)]
    try:
        if request.opt_level == 0 or not _registers_derivatives(request.source):
            return run_clang(request, args)
        run_clang(request, [*args, "-Xclang", "-disable-llvm-passes"])
    finally:
        mark.unlink(missing_ok=True)
    mod = llvm.parse(request.output.read_bytes(), name=str(request.source))
    llvm.keep_registered_calls(mod)
    llvm.optimize(mod, request.opt_level, vectorize_and_unroll=False)
    request.output.write_bytes(llvm.to_bitcode(mod))
    return request.output


# User flags after which the bitcode is not marked: they may change the target's data layout (the mark module
# is written for the host's), the optimization level or LLVM's pipeline.
_TARGET_FLAGS = ("--target", "-target", "-m32", "-m16", "-mx32", "-mabi", "-arch", "--config", "-mlong-double",
                 "-mllvm", "-Xclang", "-O")


def _unit_name(request: CompileRequest, language: str) -> str:
    """What the mark calls the unit: its source and a digest of how it was compiled.  Not the output's path
    (often a temporary one): the same compile gives the same bitcode, and units linked together differ."""
    how = repr((language, request.opt_level, request.debug, request.line_tables, request.flags,
                [str(d) for d in request.include_dirs], request.defines))
    return f"{request.source} ({hashlib.sha256(how.encode()).hexdigest()[:16]})"


def _marks_optimized_unit(request: CompileRequest) -> bool:
    """Whether the bitcode of ``request`` gets the mark of a unit optimized at -O2 or higher for AD
    (``enzyme.llvm.optimized_unit``: the pre-AD pipeline then does not run O2 over it again)."""
    return request.opt_level >= 2 and not any(flag.startswith(_TARGET_FLAGS) for flag in request.flags)


def _registers_derivatives(source: Path) -> bool:
    try:
        text = source.read_text(errors="replace")
    except OSError:
        return False  # clang reports unreadable sources
    return any(marker in text for marker in _REGISTRATION_MARKERS)


def compile_ir_object(bitcode: Path, output: Path, *, opt_level: int) -> Path:
    """Code generation only: an ELF object for already optimized bitcode, as clang-22 makes it.

    Not llvmlite's ``emit_object``: its target machine leaves LLVM's
    ``UseInitArray`` off, so static constructors land in ``.ctors``, which lld
    does not turn into ``.init_array`` -- C++ globals such as ``std::cout``
    would never be initialized.  ``-fPIC`` suits executables and shared libraries.
    """
    clang = find_tool("clang")
    run_tool(
        [clang.path, "-c", "-x", "ir", f"-O{opt_level}", "-fPIC",
         # The IR is optimized already: only the backend runs.
         "-Xclang", "-disable-llvm-passes", str(bitcode), "-o", str(output)],
        what=f"clang-{clang.llvm_major} could not generate code for {bitcode}",
    )
    return output


def optimize_ir_object(bitcode: Path, output: Path, *, opt_level: int) -> Path:
    """LLVM's ``O<opt_level>`` pipeline and code generation of ``bitcode`` in one clang-22 run: an ELF object as
    :func:`compile_ir_object` makes it from bitcode optimized at that level.

    Used for the derivative module: clang's own LLVM optimizes and compiles it in 60-75% of the CPU time
    llvmlite's copy of LLVM 22 takes for the same pipeline.  The verifier checks the optimized IR (release
    clang skips it: it compiles what LLVM 22's SLP vectorizer breaks, see tests/llvm/test_postopt_fallback.py,
    without a word), so a pass that breaks the module stops with an error, not a wrong object.
    """
    clang = find_tool("clang")
    run_tool(
        [clang.path, "-c", "-x", "ir", f"-O{opt_level}", "-fPIC", "-fverify-intermediate-code",
         "-fno-crash-diagnostics", str(bitcode), "-o", str(output)],
        what=f"clang-{clang.llvm_major} could not optimize and compile {bitcode}",
    )
    return output


def compile_amdgpu_object(bitcode: Path, output: Path, *, arch: str) -> Path:
    """Code generation of optimized AMDGPU bitcode by clang-22, whose assembler also parses the inline
    assembly of the HIP headers (llvmlite has no AMDGPU assembly parser)."""
    clang = find_tool("clang")
    run_tool(
        [clang.path, "-c", "-x", "ir", "--target=amdgcn-amd-amdhsa", f"-mcpu={arch}", "-O3", "-nogpulib",
         "-Xclang", "-disable-llvm-passes", str(bitcode), "-o", str(output)],
        what=f"clang-{clang.llvm_major} could not generate AMDGPU code for {bitcode}",
    )
    return output


def openmp_runtime() -> str:
    """clang's OpenMP runtime (LLVM's libomp), which the ``__kmpc_*`` calls of ``-fopenmp`` code need."""
    clang = find_tool("clang")
    result = run_tool([clang.path, "-print-file-name=libomp.so"], what=f"{clang.path} -print-file-name=libomp.so")
    path = Path(result.stdout.strip())
    if not path.is_absolute() or not path.exists():
        raise ToolNotFoundError(f"OpenMP runtime libomp.so of {clang.path} not found; install it: "
                                "apt-get install -y libomp-22-dev (ci/setup.sh does)")
    return str(path)
