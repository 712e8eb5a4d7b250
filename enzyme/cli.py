"""The ``enzyme`` command line.

    enzyme compile a.c flux.f90 scale.rs -o prog.bc [-O0..-O3] [-g] [-I DIR] [-D X=Y] [--strip-debug]
    enzyme opt prog.bc -o out.ll [--no-preopt] [--no-postopt] [-O LEVEL]     (-o - prints the IR)
    enzyme opt prog.ll --print-types F | --print-activity F --activity dup,const [--ret-active]
    enzyme bitcode SRC -o out.bc [-O N] [-g] [-I DIR] [-D X=Y] [--depfile F] [--module-dir D] [--flag=F]
    enzyme build a.bc b.bc -o out.o|out.ptx|out.hsaco [-O N] [--no-preopt] [--cuda-arch sm_90]
    enzyme build-info [--language fortran ...]
    enzyme doctor
    enzyme --version | --cmake-dir
    enzyme-cc / enzyme-c++ / enzyme-flang ARGS...   (compiler drivers, see enzyme.wrappers)

Every failure prints ``error: <message>`` on stderr and exits with 1; ``--debug``
adds the Python traceback.
"""
from __future__ import annotations

import argparse
import os
import sys
import traceback
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import enzyme
from enzyme.errors import EnzymeError, EnzymeWarning, UsageError

if TYPE_CHECKING:
    from enzyme.ir import Module

_OPT_LEVELS = (0, 1, 2, 3)


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors follow our ``error:`` / exit 1 convention."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def _add_common_flags(parser: argparse.ArgumentParser, *, default: object) -> None:
    """--debug and --verbose, on the main parser and on each command."""
    parser.add_argument("--debug", action="store_true", default=default,
                        help="show the Python traceback of errors")
    parser.add_argument("--verbose", action="store_true", default=default,
                        help="print each phase (compile, optimize, differentiate, ...) and its duration to stderr "
                             "(also ENZYME_VERBOSE=1)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="enzyme", description="Enzyme-style automatic differentiation of LLVM 22 IR.")
    _add_common_flags(parser, default=False)
    parser.add_argument("--version", action="store_true", help="print the pyenzyme version")
    parser.add_argument("--cmake-dir", action="store_true",
                        help="print the directory of EnzymeConfig.cmake (for -DEnzyme_DIR=...)")
    parser.add_argument("--include-dir", action="store_true",
                        help="print the include directory of <enzyme/enzyme.h> (for -I...; pyenzyme's own "
                             "compiles add it themselves)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    compile_ = commands.add_parser("compile", help="compile and link sources into one LLVM module")
    compile_.add_argument("sources", nargs="+", metavar="SOURCE",
                          help="C, C++, Fortran, Rust, CUDA, HIP sources or .ll/.bc files")
    compile_.add_argument("-o", dest="output", required=True, metavar="OUT", help="output .bc or .ll")
    _add_frontend_options(compile_)
    compile_.add_argument("--strip-debug", action="store_true", help="remove debug info after linking")
    _add_common_flags(compile_, default=argparse.SUPPRESS)
    compile_.set_defaults(run=_run_compile)

    opt = commands.add_parser("opt", help="preoptimize, differentiate and optimize a module")
    opt.add_argument("input", metavar="IN", help="input .ll or .bc")
    opt.add_argument("-o", dest="output", metavar="OUT",
                     help="output .ll (or .bc), - for textual IR on stdout; not needed with --print-*")
    opt.add_argument("--no-preopt", action="store_true", help="skip the O2 preparation before AD")
    opt.add_argument("--no-postopt", action="store_true", help="skip optimization after AD")
    opt.add_argument("-O", dest="opt_level", type=int, choices=_OPT_LEVELS, default=3,
                     help="optimization level after AD (default 3)")
    opt.add_argument("--print-types", metavar="FNAME", help="print the type analysis of FNAME (input as given)")
    opt.add_argument("--print-activity", metavar="FNAME", help="print the activity analysis of FNAME")
    opt.add_argument("--activity", default="", metavar="A,B,...",
                     help="argument activities for --print-activity: const, active (out), dup, dupnoneed")
    opt.add_argument("--ret-active", action="store_true", help="with --print-activity: the return value is active")
    _add_common_flags(opt, default=argparse.SUPPRESS)
    opt.set_defaults(run=_run_opt)

    _add_build_commands(commands)

    doctor = commands.add_parser("doctor", help="check the compilers and tools pyenzyme uses")
    _add_common_flags(doctor, default=argparse.SUPPRESS)
    doctor.set_defaults(run=_run_doctor)
    return parser


def _add_frontend_options(parser: argparse.ArgumentParser) -> None:
    """-O, -g, -I, -D: what every command that runs a frontend takes."""
    parser.add_argument("-O", dest="opt_level", type=int, choices=_OPT_LEVELS, default=2,
                        help="frontend optimization level (default 2)")
    parser.add_argument("-g", dest="debug_info", action="store_true", help="emit debug info")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="add an include directory")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                        help="define a preprocessor macro (a --cfg for Rust)")


def _add_build_commands(commands: argparse._SubParsersAction) -> None:
    """The commands the CMake package's enzyme_add_differentiable() runs (see enzyme.build)."""
    bitcode = commands.add_parser("bitcode", help="compile one source to bitcode, with a depfile (CMake's step)")
    bitcode.add_argument("source", metavar="SOURCE", help="C, C++, Fortran, Rust, CUDA or HIP source")
    bitcode.add_argument("-o", dest="output", required=True, metavar="OUT", help="output .bc")
    _add_frontend_options(bitcode)
    bitcode.add_argument("--depfile", metavar="FILE", help="write make-style dependencies of the output here")
    bitcode.add_argument("--module-dir", metavar="DIR", help="where Fortran .mod files are written and found")
    bitcode.add_argument("--flag", dest="flags", action="append", default=[], metavar="FLAG",
                         help="pass FLAG to the compiler (write --flag=-fno-math-errno)")
    bitcode.add_argument("--cuda-program", action="store_true",
                         help="a .cu source of a CUDA program: differentiate its device code, embed it, and "
                              "write the host side's bitcode")
    _add_common_flags(bitcode, default=argparse.SUPPRESS)
    bitcode.set_defaults(run=_run_bitcode)

    build = commands.add_parser("build", help="link bitcode, differentiate, emit one object (CMake's step)")
    build.add_argument("inputs", nargs="+", metavar="BITCODE", help=".bc or .ll files")
    build.add_argument("-o", dest="output", required=True, metavar="OUT",
                       help="output .o (position independent), .ptx for CUDA device code, .hsaco for HIP "
                            "device code")
    build.add_argument("-O", dest="opt_level", type=int, choices=_OPT_LEVELS, default=2,
                       help="optimization level after AD (default 2)")
    build.add_argument("--no-preopt", action="store_true", help="skip the O2 preparation before AD")
    build.add_argument("--cuda-arch", default="sm_90", metavar="SM",
                       help="architecture of CUDA device code, for a .ptx output (default sm_90)")
    _add_common_flags(build, default=argparse.SUPPRESS)
    build.set_defaults(run=_run_build)

    info = commands.add_parser("build-info", help="versions, tools and runtime libraries, as key=value lines")
    info.add_argument("--language", dest="languages", action="append", default=[], metavar="LANG",
                      help="a language of the target (c, cxx, fortran, rust, cuda, hip, ir); repeatable")
    _add_common_flags(info, default=argparse.SUPPRESS)
    info.set_defaults(run=_run_build_info)

    cache = commands.add_parser("cache", help="show or clear pyenzyme's caches of compiled code")
    cache.add_argument("action", choices=("info", "clear"), help="info: where the caches are and their size; "
                                                                 "clear: delete them (they are rebuilt on demand)")
    _add_common_flags(cache, default=argparse.SUPPRESS)
    cache.set_defaults(run=_run_cache)


def _run_bitcode(args: argparse.Namespace) -> int:
    from enzyme import build

    options = build.BitcodeOptions(
        opt_level=args.opt_level,
        debug=args.debug_info,
        include_dirs=tuple(Path(d) for d in args.include_dirs),
        defines=tuple(args.defines),
        flags=tuple(args.flags),
        module_dir=Path(args.module_dir) if args.module_dir else None,
        depfile=Path(args.depfile) if args.depfile else None,
        cuda_program=args.cuda_program,
    )
    build.compile_bitcode(args.source, args.output, options)
    return 0


def _run_build(args: argparse.Namespace) -> int:
    from enzyme import build

    options = build.BuildOptions(opt_level=args.opt_level, preopt=not args.no_preopt, cuda_arch=args.cuda_arch)
    build.build_object(args.inputs, args.output, options)
    return 0


def _run_build_info(args: argparse.Namespace) -> int:
    from enzyme import build

    print("\n".join(build.build_info(args.languages).lines()))
    return 0


def _run_cache(args: argparse.Namespace) -> int:
    from enzyme.toolchain import cache

    if args.action == "clear":
        freed = cache.clear_cache()
        print(f"cleared {cache.cache_dir()} ({cache.format_size(freed)} freed)")
        return 0
    for line in cache.cache_report():
        print(line)
    return 0


def _produce(output: str, make: Callable[[Path], object]) -> None:
    """Run ``make(checked_output)``; on any failure leave no (stale) output behind."""
    from enzyme import pipeline

    path = pipeline.check_module_output(output)
    try:
        make(path)
    except BaseException:
        pipeline.remove_stale_outputs(path)
        raise


def _run_compile(args: argparse.Namespace) -> int:
    from enzyme import pipeline

    options = pipeline.CompileOptions(
        opt_level=args.opt_level,
        debug=args.debug_info,
        include_dirs=tuple(Path(d) for d in args.include_dirs),
        defines=tuple(args.defines),
        strip_debug=args.strip_debug,
    )
    _produce(args.output, lambda out: pipeline.write_module(pipeline.compile_sources(args.sources, options), out))
    return 0


def _run_opt(args: argparse.Namespace) -> int:
    from enzyme import llvm, pipeline

    if args.print_types or args.print_activity:
        return _print_analyses(args)
    if args.output is None:
        raise UsageError("opt needs -o OUT (or --print-types/--print-activity FNAME)")
    options = pipeline.TransformOptions(
        preopt=not args.no_preopt,
        postopt_level=0 if args.no_postopt else args.opt_level,
    )

    def transformed() -> llvm.ModuleRef:
        return pipeline.transform_module(llvm.parse_file(args.input), options, name=args.input)

    if args.output == "-":
        sys.stdout.write(llvm.to_text(transformed()))
        return 0

    def make(out: Path) -> None:
        pipeline.write_module(transformed(), out)

    _produce(args.output, make)
    return 0


def _print_analyses(args: argparse.Namespace) -> int:
    from enzyme import analysis, llvm
    from enzyme.ir import parse_module

    module = parse_module(llvm.to_text(llvm.parse_file(args.input)))
    if args.print_types:
        sys.stdout.write(analysis.print_types(module, args.print_types))
    if args.print_activity:
        sys.stdout.write(_engine_activity(module, args.print_activity, [a for a in args.activity.split(",") if a],
                                          args.ret_active))
    return 0


def _engine_activity(module: Module, fname: str, activities: list[str], ret_active: bool) -> str:
    """The activity the derivative engine uses for @fname handed to ``__enzyme_*`` (enzyme.ad.activity_plan);
    the engine sees the module after its pre-AD optimization, this is the module as given."""
    from enzyme import analysis
    from enzyme.ad.activity_plan import activity_of
    from enzyme.ad.common import ADContext

    f = module.get_function(fname.lstrip("@"))
    if f is None or f.is_declaration:
        return analysis.print_activity(module, fname, activities, ret_active)  # its clear error
    return analysis.format_activity(activity_of(ADContext(module, roots=[f]), f, activities, ret_active))


def _run_doctor(args: argparse.Namespace) -> int:
    from enzyme import toolchain

    rows = toolchain.doctor(_version())
    print(toolchain.format_table(rows))
    broken = [row.name for row in rows if row.required and not row.usable]
    if broken:
        print(f"error: required tools not usable: {', '.join(broken)} (see the fix column)", file=sys.stderr)
        return 1
    return 0


def _version() -> str:
    return getattr(enzyme, "__version__", "unknown")


def _cmake_dir() -> Path:
    from enzyme import _paths

    return _paths.cmake_dir()


def _run_wrapper(driver: str) -> int:
    """A compiler wrapper on ``sys.argv``; ``ENZYME_DEBUG=1`` shows tracebacks (``--debug`` is a clang flag)."""
    from enzyme import wrappers

    debug = os.environ.get("ENZYME_DEBUG", "") not in ("", "0")
    return _guarded(lambda: wrappers.run_wrapper(driver, sys.argv[1:]), debug=lambda: debug,
                    rerun_hint="rerun with ENZYME_DEBUG=1")


def cc_main() -> int:
    """``enzyme-cc``: a clang-22 drop-in that differentiates ``__enzyme_*`` requests at link time."""
    return _run_wrapper("cc")


def cxx_main() -> int:
    """``enzyme-c++``: the clang++ drop-in."""
    return _run_wrapper("c++")


def flang_main() -> int:
    """``enzyme-flang``: the flang-22 drop-in."""
    return _run_wrapper("flang")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``enzyme`` console script; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv

    def run() -> int:
        nonlocal debug
        args = build_parser().parse_args(argv)
        debug = args.debug
        if getattr(args, "verbose", False):
            from enzyme import progress

            progress.enable_stderr()
        if args.version:
            print(f"pyenzyme {_version()}")
            return 0
        if args.cmake_dir:
            print(_cmake_dir())
            return 0
        if args.include_dir:
            from enzyme import _paths

            print(_paths.include_dir())
            return 0
        if args.command is None:
            raise UsageError("no command given; use one of: compile, opt, bitcode, build, build-info, doctor, cache (see enzyme --help)")
        return int(args.run(args))

    return _guarded(run, debug=lambda: debug, rerun_hint="rerun with --debug")


def _guarded(run: Callable[[], int], *, debug: Callable[[], bool], rerun_hint: str) -> int:
    """``run()``, with every failure turned into one ``error:`` line and exit status 1."""
    plain = warnings.formatwarning

    def one_line(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> str:
        if issubclass(category, EnzymeWarning):
            return f"warning: {message}\n"
        return plain(message, category, *args, **kwargs)

    warnings.formatwarning = one_line
    try:
        return int(run())
    except EnzymeError as exc:
        if debug():
            traceback.print_exc()
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the CLI turns every failure into one line
        if debug():
            traceback.print_exc()
        print(f"error: internal error: {type(exc).__name__}: {exc} ({rerun_hint} for the traceback; "
              "please report it)", file=sys.stderr)
        return 1
