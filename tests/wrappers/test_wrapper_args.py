"""How the wrappers sort a compiler command line (no compilers run)."""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme.errors import UsageError
from enzyme.wrappers import parse_command_line
from enzyme.wrappers.args import Library, LinkerArgs, LinkerInput, Source, opt_level_of


@pytest.mark.parametrize("flag, level", [
    ("-O0", 0), ("-O1", 1), ("-O2", 2), ("-O3", 3), ("-O4", 3), ("-O", 1),
    ("-Os", 2), ("-Oz", 2), ("-Og", 1), ("-Ofast", 3),
])
def test_optimization_levels(flag: str, level: int) -> None:
    assert opt_level_of(flag) == level


def test_compile_command() -> None:
    inv = parse_command_line("cc", ["-O2", "-O3", "-c", "-Iinc", "-D", "A=1", "-UB", "-std=c11", "-Wall", "-g",
                                    "-fPIC", "-isystem", "sys", "-fno-strict-aliasing", "f.c", "-o", "f.o"])
    assert inv.compile_only and not inv.delegate and inv.output == Path("f.o")
    assert inv.opt_level == 3 and inv.opt_level_given
    # Order kept: -D/-U order matters to the preprocessor.
    assert inv.frontend_flags == ("-Iinc", "-D", "A=1", "-UB", "-std=c11", "-Wall", "-g", "-fPIC",
                                  "-isystem", "sys", "-fno-strict-aliasing")
    assert inv.sources == [Source(Path("f.c"), "c")]


def test_ofast_adds_fast_math() -> None:
    inv = parse_command_line("cc", ["-Ofast", "-c", "f.c"])
    assert inv.opt_level == 3 and "-ffast-math" in inv.frontend_flags


def test_link_items_keep_their_order() -> None:
    inv = parse_command_line("cc", ["main.o", "-L", "libs", "-Lmore", "-lf", "-Wl,--as-needed", "-l", "m",
                                    "libx.a", "-pthread", "-Xlinker", "-zdefs", "-shared", "-o", "libp.so"])
    assert inv.shared and not inv.compile_only
    assert inv.items == (
        LinkerInput(Path("main.o")), LinkerArgs(("-L", "libs")), LinkerArgs(("-Lmore",)), Library("f"),
        LinkerArgs(("-Wl,--as-needed",)), Library("m"), LinkerInput(Path("libx.a")), LinkerArgs(("-pthread",)),
        LinkerArgs(("-Xlinker", "-zdefs")),
    )
    assert inv.library_dirs == (Path("libs"), Path("more"))
    assert "-pthread" in inv.frontend_flags  # -pthread also defines _REENTRANT when compiling


@pytest.mark.parametrize("args", [
    ["-E", "f.c"], ["-S", "f.c"], ["-M", "f.c"], ["-MM", "f.c"], ["--version"], ["-v"], ["-dumpmachine"],
    ["-print-file-name=libm.so"], ["--print-resource-dir"], ["-###", "f.c"], ["-fsyntax-only", "f.c"],
])
def test_delegated_commands(args: list[str]) -> None:
    assert parse_command_line("cc", args).delegate


def test_verbose_compile_is_not_delegated() -> None:
    inv = parse_command_line("cc", ["-v", "-c", "f.c"])
    assert not inv.delegate and "-v" in inv.frontend_flags


def test_languages_from_suffix_and_x() -> None:
    inv = parse_command_line("c++", ["-c", "a.c", "b.cc", "c.f90", "d.S", "e.ll", "-x", "c", "f.inc",
                                     "-x", "none", "g.o"])
    assert [(s.path.name, s.language, s.explicit_language) for s in inv.sources] == [
        ("a.c", "cxx", None),  # clang++ compiles .c as C++
        ("b.cc", "cxx", None), ("c.f90", "fortran", None), ("d.S", "assembler", None), ("e.ll", "ir", None),
        ("f.inc", "c", "c"),
    ]
    assert inv.items[-1] == LinkerInput(Path("g.o"))
    assert parse_command_line("cc", ["-c", "a.c"]).sources[0].language == "c"


def test_dependency_and_module_flags() -> None:
    inv = parse_command_line("flang", ["-MMD", "-MP", "-MF", "x.d", "-MTx.o", "-J", "mods", "-c", "m.f90"])
    assert inv.dependency_flags == ("-MMD", "-MP", "-MF", "x.d", "-MT", "x.o")
    assert inv.module_dir == Path("mods")
    assert parse_command_line("flang", ["-Jmods2", "-c", "m.f90"]).module_dir == Path("mods2")
    assert parse_command_line("flang", ["-module-dir", "m3", "-c", "m.f90"]).module_dir == Path("m3")


def test_undef_is_not_a_linker_flag() -> None:
    inv = parse_command_line("cc", ["-undef", "-u", "sym", "-c", "f.c"])
    assert inv.frontend_flags == ("-undef",)
    assert LinkerArgs(("-u", "sym")) in inv.items


@pytest.mark.parametrize("args, fragment", [
    (["-c", "-"], "stdin"),
    (["k.hip"], "HIP host programs are not supported"),
    (["-x"], "argument to '-x' is missing"),
    (["-x", "pascal", "a.p"], "language 'pascal'"),
    (["-r", "a.o"], "-r (relocatable link)"),
])
def test_refused_command_lines(args: list[str], fragment: str) -> None:
    with pytest.raises(UsageError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        parse_command_line("cc", args)


def test_unknown_driver() -> None:
    with pytest.raises(UsageError, match="unknown compiler driver"):
        parse_command_line("fortran77", [])


def test_response_files(tmp_path: Path) -> None:
    (tmp_path / "inner.rsp").write_text("-lm\n")
    (tmp_path / "link.rsp").write_text(f"main.o 'dir with space/f.o' @{tmp_path / 'inner.rsp'}\n")
    inv = parse_command_line("cc", [f"@{tmp_path / 'link.rsp'}", "@not-a-file", "-o", "prog"])
    assert inv.items == (LinkerInput(Path("main.o")), LinkerInput(Path("dir with space/f.o")), Library("m"),
                         LinkerInput(Path("@not-a-file")))
