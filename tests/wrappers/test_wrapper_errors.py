"""Wrapper failures: one ``error:`` line, exit status 1, and no output file (not even an old one)."""
from __future__ import annotations

import subprocess

import pytest
from wrapper_env import Wrappers

BAD_C = "int main(void) { return undeclared_variable; }\n"
GOOD_C = "int main(void) { return 0; }\n"


def assert_one_line_error(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode == 1, result
    assert result.stderr.startswith("error: "), result.stderr
    # One error; a compiler's or linker's own lines (source, carets) follow it indented.
    assert all(line.startswith("  ") for line in result.stderr.splitlines()[1:]), result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr


def test_missing_source_with_c(wrappers: Wrappers) -> None:
    result = wrappers.run("enzyme-cc", "-c", "missing.c", "-o", "missing.o", check=False)
    assert_one_line_error(result, "missing.c", "does not exist")
    assert not (wrappers.cwd / "missing.o").exists()


def test_missing_source_when_linking(wrappers: Wrappers) -> None:
    result = wrappers.run("enzyme-cc", "missing.c", "-o", "prog", check=False)
    assert_one_line_error(result, "missing.c")
    assert not (wrappers.cwd / "prog").exists()


def test_missing_object_when_linking(wrappers: Wrappers) -> None:
    wrappers.write("main.c", GOOD_C)
    result = wrappers.run("enzyme-cc", "main.c", "gone.o", "-o", "prog", check=False)
    assert_one_line_error(result, "gone.o")
    assert not (wrappers.cwd / "prog").exists()


@pytest.mark.parametrize("tool, name, text, compiler", [
    ("enzyme-cc", "bad.c", BAD_C, "clang-22"),
    ("enzyme-c++", "bad.cpp", "int main() { return undeclared_variable; }\n", "clang-22"),
    ("enzyme-flang", "bad.f90", "program p\n  implicit none\n  x = 1\nend program\n", "flang-22"),
])
def test_compiler_error_leaves_no_object(wrappers: Wrappers, tool: str, name: str, text: str, compiler: str) -> None:
    w = wrappers
    w.write(name, text)
    (w.cwd / "bad.o").write_text("an object from an earlier, successful build")
    result = w.run(tool, "-c", name, "-o", "bad.o", check=False)
    assert_one_line_error(result, f"{compiler} failed on {name}")
    assert not (w.cwd / "bad.o").exists()  # like clang: no stale object that make would take as current
    assert not list(w.cwd.glob(".bad.o.*"))


def test_compiler_error_on_the_link_line(wrappers: Wrappers) -> None:
    wrappers.write("bad.c", BAD_C)
    result = wrappers.run("enzyme-cc", "bad.c", "-o", "prog", check=False)
    assert_one_line_error(result, "undeclared_variable")
    assert not (wrappers.cwd / "prog").exists()


def test_link_error_names_the_output(wrappers: Wrappers) -> None:
    wrappers.write("main.c", "int nowhere(void);\nint main(void) { return nowhere(); }\n")
    result = wrappers.run("enzyme-cc", "main.c", "-o", "prog", check=False)
    assert_one_line_error(result, "linking executable prog failed", "undefined symbol: nowhere")
    assert not (wrappers.cwd / "prog").exists()
    assert not list(wrappers.cwd.glob(".prog.*"))


def test_differentiation_error(wrappers: Wrappers) -> None:
    # The derivative needs one of an external function nobody defined or gave a rule for.
    wrappers.write("main.c", """\
double mystery(double);
double __enzyme_autodiff(void *, ...);
static double f(double x) { return mystery(x) * x; }
int main(void) { return (int)__enzyme_autodiff((void *)f, 2.0); }
""")
    wrappers.write("mystery.c", "double mystery(double x) { return x; }\n")
    result = wrappers.run("enzyme-cc", "-O2", "main.c", "-o", "prog", check=False)
    assert_one_line_error(result, "mystery")
    assert not (wrappers.cwd / "prog").exists()


@pytest.mark.parametrize("args, fragment", [
    (["-c", "a.c", "b.c", "-o", "ab.o"], "cannot specify -o"),
    (["-r", "a.c", "-o", "a.o"], "-r (relocatable link) is not supported"),
    (["-x", "cobol", "a.c"], "language 'cobol'"),
    (["k.hip", "-o", "k"], "HIP host programs are not supported"),
    (["-c"], "no input files"),
    (["-O7x", "-c", "a.c"], "unknown optimization flag -O7x"),
    (["-c", "a.c", "-o"], "argument to '-o' is missing"),
])
def test_usage_errors(wrappers: Wrappers, args: list[str], fragment: str) -> None:
    wrappers.write("a.c", GOOD_C)
    wrappers.write("b.c", GOOD_C)
    wrappers.write("k.cu", "__global__ void k() {}\n")
    assert_one_line_error(wrappers.run("enzyme-cc", *args, check=False), fragment)


def test_internal_errors_point_at_enzyme_debug(wrappers: Wrappers) -> None:
    # A garbage "object" that claims to be ELF: a clean message, not a traceback.
    (wrappers.cwd / "junk.o").write_bytes(b"\x7fELF\x02\x01\x01" + b"\0" * 9 + b"\x01\x00" + b"\xff" * 10)
    result = wrappers.run("enzyme-cc", "junk.o", "-o", "prog", check=False)
    assert_one_line_error(result, "junk.o")
    assert not (wrappers.cwd / "prog").exists()
