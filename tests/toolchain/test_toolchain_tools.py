"""Tool discovery and LLVM-major checks, with fake and missing tools."""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme import toolchain
from enzyme.errors import CompileError, LLVMVersionError, ToolNotFoundError, UsageError


def fake_tool(directory: Path, name: str, version_text: str) -> Path:
    script = directory / name
    script.write_text(f"#!/bin/sh\ncat <<'EOF'\n{version_text}\nEOF\n")
    script.chmod(0o755)
    return script


def test_required_tools_are_llvm_22() -> None:
    for name in ("clang", "flang", "rustc", "ld.lld"):
        tool = toolchain.find_tool(name)
        assert tool.llvm_major == 22, tool
        assert Path(tool.path).is_file()


def test_missing_tool_names_the_install_command(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ENZYME_CLANG", "/nonexistent/clang")
    with pytest.raises(ToolNotFoundError, match=r"clang not found \(looked for ENZYME_CLANG=/nonexistent/clang\); "
                                               r"install it: apt-get install -y clang-22"):
        toolchain.find_tool("clang")
    source = tmp_path / "a.c"
    source.write_text("int f(void) { return 1; }\n")
    with pytest.raises(ToolNotFoundError, match="apt-get install -y clang-22"):
        toolchain.compile_to_bitcode(source, tmp_path / "a.bc")


@pytest.mark.parametrize(
    ("tool", "variable", "version_text", "shown"),
    [
        ("clang", "ENZYME_CLANG", "Ubuntu clang version 17.0.6\nTarget: x86_64-pc-linux-gnu", "17.0.6"),
        ("flang", "ENZYME_FLANG", "flang-new version 18.1.3", "18.1.3"),
        ("rustc", "ENZYME_RUSTC", "rustc 1.80.0\nrelease: 1.80.0\nLLVM version: 18.1.7", "18.1.7"),
    ],
)
def test_wrong_llvm_major_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                     tool: str, variable: str, version_text: str, shown: str) -> None:
    monkeypatch.setenv(variable, str(fake_tool(tmp_path, f"fake-{tool}", version_text)))
    with pytest.raises(LLVMVersionError, match=rf"{tool} at .*fake-{tool} uses LLVM {shown}, but pyenzyme needs LLVM 22") as info:
        toolchain.find_tool(tool)
    assert variable in str(info.value)


def test_unreadable_version_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ENZYME_CLANG", str(fake_tool(tmp_path, "mystery", "some compiler 1.0")))
    with pytest.raises(LLVMVersionError, match="cannot tell the version of clang"):
        toolchain.find_tool("clang")


@pytest.mark.parametrize(
    ("name", "language"),
    [("a.c", "c"), ("b.cpp", "cxx"), ("b.C", "cxx"), ("c.cc", "cxx"), ("d.f90", "fortran"), ("d.F90", "fortran"),
     ("e.f", "fortran"), ("f.rs", "rust"), ("g.cu", "cuda"), ("h.hip", "hip"), ("i.ll", "ir"), ("j.bc", "ir")],
)
def test_language_of(name: str, language: str) -> None:
    assert toolchain.language_of(name) == language


def test_unknown_suffix_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match=r"cannot tell the language of notes.txt: unknown suffix '.txt'"):
        toolchain.language_of("notes.txt")
    with pytest.raises(UsageError, match="unknown suffix '\\(none\\)'"):
        toolchain.language_of("Makefile")


def test_compile_error_quotes_the_compiler(tmp_path: Path) -> None:
    source = tmp_path / "broken.c"
    source.write_text("int f(void) { return undeclared_name; }\n")
    with pytest.raises(CompileError) as info:
        toolchain.compile_to_bitcode(source, tmp_path / "broken.bc")
    message = str(info.value)
    # The compiler's error with the source line and caret it printed, indented under our line.
    assert message.splitlines() == [f"clang-22 failed on {source}:",
                                    f"  {source}:1:22: error: use of undeclared identifier 'undeclared_name'",
                                    "      1 | int f(void) { return undeclared_name; }",
                                    "        |                      ^~~~~~~~~~~~~~~"], message
    assert not (tmp_path / "broken.bc").exists()
