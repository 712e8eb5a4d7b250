"""Read a gcc/clang/flang-style command line into what the wrappers need.

Every argument lands in one place: the output and mode (``-o``, ``-c``,
``-shared``), the optimization level, the flags of the frontend compile
(``-I``, ``-D``, ``-W``, ``-f``, ``-std=`` and anything unknown), dependency
file flags (``-MD`` ...), or the ordered list of link items (inputs, ``-l``,
``-L``, ``-Wl,`` ...), whose order the linker cares about.  Commands the
wrappers do not change (``-E``, ``-S``, ``--version`` ...) are marked for
delegation to the real compiler.
"""
from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from enzyme.errors import UsageError
from enzyme.toolchain import language_of

DRIVER_NAMES = {"cc": "enzyme-cc", "c++": "enzyme-c++", "flang": "enzyme-flang"}
# The language a driver links the runtime of, as clang, clang++ and flang do.
DRIVER_LANGUAGES = {"cc": "c", "c++": "cxx", "flang": "fortran"}
ASSEMBLER = "assembler"
_ASSEMBLER_SUFFIXES = (".s", ".S", ".sx", ".asm")
_MAX_RESPONSE_FILE_DEPTH = 16

# Commands that only print, preprocess or stop before an object: the real compiler does them.
_DELEGATED = {"-E", "-S", "-M", "-MM", "-fsyntax-only", "-###", "--version", "-dumpversion", "-dumpmachine",
              "-dumpfullversion", "--help", "-help", "-fdriver-only"}
_DELEGATED_PREFIXES = ("-print-", "--print-")

# Flags whose value is the next argument, by where they go.
_FRONTEND_WITH_VALUE = {"-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter", "-iquote", "-iprefix",
                        "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-Xclang", "-Xpreprocessor",
                        "-Xassembler", "-Xflang", "-mllvm", "-target", "--param", "-ivfsoverlay", "-MJ"}
_LINKER_WITH_VALUE = {"-L", "-Xlinker", "-u", "-T", "-z", "-e"}
_DEPENDENCY_WITH_VALUE = {"-MF", "-MT", "-MQ"}
_DEPENDENCY_FLAGS = {"-MD", "-MMD", "-MP", "-MG"}
# Flags that matter to both the compile and the link (runtimes, ABI, instrumentation).
_COMPILE_AND_LINK = {"-pthread", "-fopenmp", "--coverage", "-coverage", "-m32", "-m64", "-fPIE", "-fpie",
                     "-fno-PIE", "-fno-pie"}
_COMPILE_AND_LINK_PREFIXES = ("-fopenmp=", "-fsanitize", "-fno-sanitize", "-fprofile-", "-fcoverage-",
                              "--sysroot", "--gcc-toolchain", "--rtlib", "--unwindlib", "-stdlib=")
_LINK_ONLY = {"-static", "-rdynamic", "-pie", "-no-pie", "-nostdlib", "-nodefaultlibs", "-nostartfiles",
              "-static-libgcc", "-static-libstdc++", "-s", "-symbolic", "-shared-libgcc"}
_LINK_ONLY_PREFIXES = ("-Wl,", "-fuse-ld=", "--ld-path=", "-L")

# -x names -> our language names.
_X_LANGUAGES = {
    "c": "c", "c-header": "c", "cpp-output": "c",
    "c++": "cxx", "c++-header": "cxx", "c++-cpp-output": "cxx",
    "f95": "fortran", "f77": "fortran", "f90": "fortran", "fortran": "fortran",
    "f95-cpp-input": "fortran", "f77-cpp-input": "fortran",
    "assembler": ASSEMBLER, "assembler-with-cpp": ASSEMBLER,
    "ir": "ir",
    "cuda": "cuda", "hip": "hip",
}


@dataclass(frozen=True)
class Source:
    """A file to compile: ``language`` is one of toolchain.LANGUAGES or ``assembler``.

    ``explicit_language`` is the ``-x`` name when one applied (passed on to flang
    and the assembler; clang gets the language directly).
    """

    path: Path
    language: str
    explicit_language: str | None = None


@dataclass(frozen=True)
class LinkerInput:
    """A file only the linker reads: object, archive, shared library, linker script."""

    path: Path


@dataclass(frozen=True)
class Library:
    """``-l<spec>``: ``m`` for ``-lm``, ``:libx.a`` for ``-l:libx.a``."""

    spec: str


@dataclass(frozen=True)
class LinkerArgs:
    """Linker arguments kept verbatim and in place (``-L``, ``-Wl,...``, ``-pthread``)."""

    args: tuple[str, ...]


LinkItem = Source | LinkerInput | Library | LinkerArgs


@dataclass(frozen=True)
class Invocation:
    """One wrapper command line, sorted out."""

    driver: str  # "cc", "c++" or "flang"
    argv: tuple[str, ...]
    delegate: bool = False
    compile_only: bool = False
    shared: bool = False
    output: Path | None = None
    opt_level: int = 0
    opt_level_given: bool = False
    frontend_flags: tuple[str, ...] = ()
    dependency_flags: tuple[str, ...] = ()
    module_dir: Path | None = None
    items: tuple[LinkItem, ...] = ()
    library_dirs: tuple[Path, ...] = field(default=())

    @property
    def name(self) -> str:
        return DRIVER_NAMES[self.driver]

    @property
    def sources(self) -> list[Source]:
        return [item for item in self.items if isinstance(item, Source)]


def opt_level_of(flag: str) -> int:
    """The -O level the wrappers run at: ``-Os``/``-Oz`` are -O2, ``-Og`` and ``-O`` are -O1, ``-Ofast`` -O3."""
    value = flag[2:]
    if value == "":
        return 1
    if value.isdigit():
        return min(int(value), 3)
    levels = {"s": 2, "z": 2, "g": 1, "fast": 3}
    if value not in levels:
        raise UsageError(f"unknown optimization flag {flag}; use -O0, -O1, -O2, -O3, -Os, -Oz, -Og or -Ofast")
    return levels[value]


class _Reader:
    """Walks the arguments once; the fields fill an Invocation."""

    def __init__(self, driver: str, argv: Sequence[str]) -> None:
        self.driver = driver
        self.argv = list(argv)
        self.position = 0
        self.delegate = False
        self.verbose_only = False
        self.compile_only = False
        self.shared = False
        self.output: Path | None = None
        self.opt_level = 0
        self.opt_level_given = False
        self.frontend: list[str] = []
        self.dependency: list[str] = []
        self.module_dir: Path | None = None
        self.items: list[LinkItem] = []
        self.library_dirs: list[Path] = []
        self.x_language: str | None = None

    def value(self, flag: str) -> str:
        if self.position >= len(self.argv):
            raise UsageError(f"argument to '{flag}' is missing (expected 1 value)")
        value = self.argv[self.position]
        self.position += 1
        return value

    def read(self) -> None:
        while self.position < len(self.argv):
            arg = self.argv[self.position]
            self.position += 1
            if arg == "-" or not arg.startswith("-"):
                self.add_input(arg)
            else:
                self.add_flag(arg)

    def add_flag(self, arg: str) -> None:
        if arg in _DELEGATED or arg.startswith(_DELEGATED_PREFIXES):
            self.delegate = True
        elif arg == "-c":
            self.compile_only = True
        elif arg == "-shared":
            self.shared = True
        elif arg == "-r":
            raise UsageError("-r (relocatable link) is not supported: the bitcode "
                             "sections of the objects would be merged; archive the objects with ar instead")
        elif arg == "-o":
            self.output = Path(self.value(arg))
        elif arg.startswith("-o"):
            self.output = Path(arg[2:])
        elif arg.startswith("-O"):
            self.opt_level = opt_level_of(arg)
            self.opt_level_given = True
            if arg == "-Ofast":
                self.frontend.append("-ffast-math")  # what -Ofast adds to -O3
        elif arg == "-x":
            self.set_x_language(self.value(arg))
        elif arg.startswith("-x"):
            self.set_x_language(arg[2:])
        elif arg in ("-J", "-module-dir"):
            self.module_dir = Path(self.value(arg))
        elif arg.startswith("-J"):
            self.module_dir = Path(arg[2:])
        elif arg == "-l":
            self.items.append(Library(self.value(arg)))
        elif arg.startswith("-l"):
            self.items.append(Library(arg[2:]))
        elif arg in _DEPENDENCY_FLAGS:
            self.dependency.append(arg)
        elif arg in _DEPENDENCY_WITH_VALUE:
            self.dependency += [arg, self.value(arg)]
        elif arg[:3] in _DEPENDENCY_WITH_VALUE:
            self.dependency += [arg[:3], arg[3:]]
        elif arg == "-L":
            directory = self.value(arg)
            self.library_dirs.append(Path(directory))
            self.items.append(LinkerArgs((arg, directory)))
        elif arg in _LINKER_WITH_VALUE:
            self.items.append(LinkerArgs((arg, self.value(arg))))
        elif arg in _LINK_ONLY or arg.startswith(_LINK_ONLY_PREFIXES):
            if arg.startswith("-L"):
                self.library_dirs.append(Path(arg[2:]))
            self.items.append(LinkerArgs((arg,)))
        elif arg in _COMPILE_AND_LINK or arg.startswith(_COMPILE_AND_LINK_PREFIXES) or self.is_machine_flag(arg):
            self.frontend.append(arg)
            self.items.append(LinkerArgs((arg,)))
        elif arg in _FRONTEND_WITH_VALUE:
            self.frontend += [arg, self.value(arg)]
        elif arg == "-v":
            self.verbose_only = True
            self.frontend.append(arg)
        else:
            # -I -D -U -W -f -g -std= and everything we do not know: the frontend decides.
            self.frontend.append(arg)

    @staticmethod
    def is_machine_flag(arg: str) -> bool:
        # -m64, -mavx2 ... go to both; -mllvm takes a value and is a frontend flag.
        return arg.startswith("-m") and arg != "-mllvm"

    def set_x_language(self, name: str) -> None:
        if name == "none":
            self.x_language = None
            return
        if name not in _X_LANGUAGES:
            raise UsageError(f"language '{name}' given with -x is not supported "
                             f"(supported: {', '.join(sorted(_X_LANGUAGES))}, none)")
        self.x_language = name

    def add_input(self, arg: str) -> None:
        if arg == "-":
            self.items.append(Source(Path("-"), "stdin"))
            return
        path = Path(arg)
        if self.x_language is not None:
            self.items.append(Source(path, _X_LANGUAGES[self.x_language], self.x_language))
            return
        if path.suffix in _ASSEMBLER_SUFFIXES:
            self.items.append(Source(path, ASSEMBLER))
            return
        try:
            language = language_of(path)
        except UsageError:
            self.items.append(LinkerInput(path))  # objects, archives, shared libraries, linker scripts
            return
        if language == "c" and self.driver == "c++" and path.suffix == ".c":
            language = "cxx"  # clang++ compiles .c files as C++
        self.items.append(Source(path, language))

    def invocation(self) -> Invocation:
        has_inputs = any(isinstance(item, (Source, LinkerInput)) for item in self.items)
        delegate = self.delegate or (self.verbose_only and not has_inputs)
        if not delegate:
            self.check_sources()
        return Invocation(
            driver=self.driver, argv=tuple(self.argv), delegate=delegate,
            compile_only=self.compile_only, shared=self.shared, output=self.output,
            opt_level=self.opt_level, opt_level_given=self.opt_level_given,
            frontend_flags=tuple(self.frontend), dependency_flags=tuple(self.dependency),
            module_dir=self.module_dir, items=tuple(self.items), library_dirs=tuple(self.library_dirs),
        )

    def check_sources(self) -> None:
        for item in self.items:
            if not isinstance(item, Source):
                continue
            if item.language == "stdin":
                raise UsageError("reading a source from stdin ('-') is only supported with -E; "
                                 "write it to a file")
            if item.language == "hip" and not self.compile_only:
                raise UsageError(f"HIP source {item.path}: the compiler wrappers build HIP device code only, into "
                                 "an AMDGPU code object (-c ... -o k.hsaco, loaded with hipModuleLoad); HIP host "
                                 "programs are not supported")


def expand_response_files(argv: Sequence[str], *, depth: int = 0) -> list[str]:
    """Replace each ``@file`` naming an existing file by the arguments in it (as gcc and clang do).

    Build systems pass long link lines this way.  ``@name`` without such a file stays as it is.
    """
    expanded: list[str] = []
    for arg in argv:
        path = Path(arg[1:]) if arg.startswith("@") and len(arg) > 1 else None
        if path is None or not path.is_file():
            expanded.append(arg)
            continue
        if depth >= _MAX_RESPONSE_FILE_DEPTH:
            raise UsageError(f"response file {path} nests more than {_MAX_RESPONSE_FILE_DEPTH} levels deep")
        try:
            words = shlex.split(path.read_text(), comments=False, posix=True)
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot read response file {path}: {exc}") from None
        expanded += expand_response_files(words, depth=depth + 1)
    return expanded


def parse_command_line(driver: str, argv: Sequence[str]) -> Invocation:
    """Sort ``argv`` (without the program name) of wrapper ``driver`` into an Invocation.

    >>> inv = parse_command_line("cc", ["-O2", "-c", "f.c", "-o", "f.o", "-Iinc"])
    >>> inv.compile_only, inv.opt_level, inv.output, inv.frontend_flags
    (True, 2, PosixPath('f.o'), ('-Iinc',))
    """
    if driver not in DRIVER_NAMES:
        raise UsageError(f"unknown compiler driver {driver!r}; known: {', '.join(DRIVER_NAMES)}")
    reader = _Reader(driver, expand_response_files(argv))
    reader.read()
    return reader.invocation()
