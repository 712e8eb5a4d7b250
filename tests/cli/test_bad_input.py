"""Bad inputs to the CLI fail cleanly: exit 1, one ``error: ...`` line that names
the problem, no traceback (unless --debug), and no output file left behind."""
from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

C_SOURCE = "double square(double x) { return x * x; }\n"
CHAR6 = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._"
Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="session")
def good_bitcode(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    from enzyme import toolchain

    directory = tmp_path_factory.mktemp("bad-input")
    (directory / "square.c").write_text(C_SOURCE)
    return toolchain.compile_to_bitcode(directory / "square.c", directory / "square.bc").read_bytes()


def with_producer_major(bitcode: bytes, major: int) -> bytes:
    """The bitcode with its producer string ``LLVM22.x.y`` changed to ``LLVM<major>.x.y``.

    The producer is stored as char6 (6 bits per character) at some bit offset
    of the identification block; a same-length replacement keeps every
    offset in the file valid.
    """
    from enzyme.llvm.bitcode_header import read_producer

    producer = read_producer(bitcode)
    assert producer is not None and producer.startswith("LLVM22."), producer
    new = f"LLVM{major:02d}" + producer[6:]
    width = 6 * len(producer)

    def encode(text: str) -> int:
        return sum(CHAR6.index(ch) << (6 * i) for i, ch in enumerate(text))

    bits, pattern = int.from_bytes(bitcode, "little"), encode(producer)
    mask = (1 << width) - 1
    # The identification block is the first thing in the file: search its first bytes only.
    for offset in range(64, 8 * min(len(bitcode), 256)):
        if (bits >> offset) & mask == pattern:
            bits = (bits & ~(mask << offset)) | (encode(new) << offset)
            patched = bits.to_bytes(len(bitcode), "little")
            assert read_producer(patched) == new
            return patched
    raise AssertionError(f"producer {producer!r} not found in the bitcode")


def assert_clean_failure(result: subprocess.CompletedProcess[str], out_dir: Path, *fragments: str) -> None:
    """Exit 1, one error naming the problem (a compiler's own lines follow it indented), no traceback, nothing
    written to ``out_dir``."""
    assert result.returncode == 1, f"exit {result.returncode}\n{result.stderr}"
    lines = result.stderr.rstrip().splitlines()
    assert lines[0].startswith("error: ") and all(line.startswith("  ") for line in lines[1:]), result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment.lower() in result.stderr.lower(), f"{fragment!r} not in: {result.stderr}"
    leftovers = sorted(p.name for p in out_dir.iterdir()) if out_dir.exists() else []
    assert leftovers == [], f"files left in the output directory: {leftovers}"


@pytest.fixture
def out_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "out"
    directory.mkdir()
    return directory


def _opt(run_enzyme: Run, source: Path, out_dir: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return run_enzyme("opt", *extra, "--no-preopt", "--no-postopt", source, "-o", out_dir / "result.ll", check=False)


def test_truncated_bitcode(run_enzyme: Run, good_bitcode: bytes, tmp_path: Path, out_dir: Path) -> None:
    source = tmp_path / "truncated.bc"
    source.write_bytes(good_bitcode[: len(good_bitcode) // 2])
    assert_clean_failure(_opt(run_enzyme, source, out_dir), out_dir, "truncated.bc", "bitcode")


def test_bitcode_magic_only(run_enzyme: Run, tmp_path: Path, out_dir: Path) -> None:
    source = tmp_path / "magic.bc"
    source.write_bytes(b"BC\xc0\xde")
    assert_clean_failure(_opt(run_enzyme, source, out_dir), out_dir, "magic.bc")


def test_random_bytes(run_enzyme: Run, tmp_path: Path, out_dir: Path) -> None:
    source = tmp_path / "noise.bc"
    source.write_bytes(bytes(range(256)) * 8 + os.urandom(512))
    assert_clean_failure(_opt(run_enzyme, source, out_dir), out_dir, "noise.bc", "not LLVM bitcode or IR")


def test_empty_file(run_enzyme: Run, tmp_path: Path, out_dir: Path) -> None:
    source = tmp_path / "empty.ll"
    source.write_text("")
    result = _opt(run_enzyme, source, out_dir)
    # An empty text file is a valid, empty module; it must not crash either way.
    if result.returncode != 0:
        assert_clean_failure(result, out_dir, "empty.ll")
    else:
        assert "Traceback" not in result.stderr


def test_text_ir_with_syntax_error(run_enzyme: Run, tmp_path: Path, out_dir: Path) -> None:
    source = tmp_path / "broken.ll"
    source.write_text("define i32 @f(i32 %x) {\n  %y = add i32 %x\n  ret i32 %y\n}\n")
    assert_clean_failure(_opt(run_enzyme, source, out_dir), out_dir, "broken.ll:3:3", "expected")


def test_typed_pointer_ir_that_llvm_22_still_reads(run_enzyme: Run, tmp_path: Path) -> None:
    """LLVM 22 reads ``T*`` as ``ptr``: LLVM 14 style IR is then converted, not refused."""
    source = tmp_path / "llvm14.ll"
    source.write_text(
        "define i32* @f(i32* %p) {\n"
        "  %q = getelementptr inbounds i32, i32* %p, i64 1\n"
        "  %v = load i32, i32* %q, align 4\n"
        "  ret i32* %q\n"
        "}\n"
    )
    out = tmp_path / "out.ll"
    run_enzyme("opt", "--no-preopt", "--no-postopt", source, "-o", out)
    assert "define ptr @f(ptr %p)" in out.read_text()


def test_typed_pointer_ir_llvm_22_cannot_read(run_enzyme: Run, tmp_path: Path, out_dir: Path) -> None:
    """Typed-pointer syntax LLVM 22 no longer reads (``load <ptr type>``) gets an LLVM-version hint."""
    source = tmp_path / "old.ll"
    source.write_text("define i32 @f(i32* %p) {\n  %v = load i32* %p\n  ret i32 %v\n}\n")
    assert_clean_failure(_opt(run_enzyme, source, out_dir), out_dir, "old.ll:2:", "typed pointers", "LLVM 22")


def test_bitcode_from_another_llvm_major(run_enzyme: Run, good_bitcode: bytes, tmp_path: Path, out_dir: Path) -> None:
    source = tmp_path / "llvm17.bc"
    source.write_bytes(with_producer_major(good_bitcode, 17))
    assert_clean_failure(_opt(run_enzyme, source, out_dir), out_dir, "llvm17.bc", "LLVM 17", "22")


@pytest.mark.requires_tool("rocm-device-libs")
def test_real_llvm_15_bitcode(run_enzyme: Run, out_dir: Path) -> None:
    from enzyme.toolchain.hip import rocm_device_lib_dir

    source = rocm_device_lib_dir() / "ocml.bc"
    assert_clean_failure(_opt(run_enzyme, source, out_dir), out_dir, "ocml.bc", "LLVM 15")


def test_missing_input_file(run_enzyme: Run, tmp_path: Path, out_dir: Path) -> None:
    result = _opt(run_enzyme, tmp_path / "does-not-exist.bc", out_dir)
    assert_clean_failure(result, out_dir, "does-not-exist.bc")


def test_missing_compiler(run_enzyme: Run, tmp_path: Path, out_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "x.c"
    source.write_text(C_SOURCE)
    monkeypatch.setenv("ENZYME_CLANG", "/nonexistent")
    result = run_enzyme("compile", source, "-o", out_dir / "y.bc", check=False)
    assert_clean_failure(result, out_dir, "clang", "/nonexistent")


def test_c_compile_error(run_enzyme: Run, tmp_path: Path, out_dir: Path) -> None:
    source = tmp_path / "oops.c"
    source.write_text("double f(double x) { return x * ; }\n")
    result = run_enzyme("compile", source, "-o", out_dir / "y.bc", check=False)
    assert_clean_failure(result, out_dir, "oops.c")


def test_bad_bitcode_as_compile_input(run_enzyme: Run, good_bitcode: bytes, tmp_path: Path, out_dir: Path) -> None:
    source = tmp_path / "half.bc"
    source.write_bytes(good_bitcode[:100])
    result = run_enzyme("compile", source, "-o", out_dir / "linked.bc", check=False)
    assert_clean_failure(result, out_dir, "half.bc")


def test_failure_removes_stale_output(run_enzyme: Run, tmp_path: Path, out_dir: Path) -> None:
    """An output from an earlier successful run must not survive a failed run (it would look current)."""
    source = tmp_path / "broken.ll"
    source.write_text("define void @f() {\n  ret i32\n}\n")
    (out_dir / "result.ll").write_text("; stale output of an earlier run\n")
    assert_clean_failure(_opt(run_enzyme, source, out_dir), out_dir, "broken.ll")


def test_debug_flag_shows_traceback(run_enzyme: Run, tmp_path: Path, out_dir: Path) -> None:
    source = tmp_path / "broken.ll"
    source.write_text("define void @f() {\n  ret i32\n}\n")
    result = _opt(run_enzyme, source, out_dir, "--debug")
    assert result.returncode == 1
    assert "Traceback" in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("error: ")
    assert not (out_dir / "result.ll").exists()


def test_error_lines_are_not_python_reprs(run_enzyme: Run, tmp_path: Path, out_dir: Path) -> None:
    """The message is for people: no exception class names or escaped newlines."""
    source = tmp_path / "noise.ll"
    source.write_bytes(b"\x00\x01garbage")
    result = _opt(run_enzyme, source, out_dir)
    assert_clean_failure(result, out_dir, "noise.ll")
    assert "\\n" not in result.stderr and "Error(" not in result.stderr


def test_python_module_entry_point_exists() -> None:
    result = subprocess.run([sys.executable, "-m", "enzyme", "--help"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "compile" in result.stdout
