"""Reading objects and archives the way the wrappers' link step does."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from enzyme import llvm
from enzyme.errors import UsageError
from enzyme.wrappers.objects import archive_members, is_archive, read_object

SOURCES = {
    "alpha.c": "extern int shared_counter;\nint beta_helper(void);\n"
               "int alpha(void) { return shared_counter + beta_helper(); }\n"
               "static int hidden(void) { return 1; }\nint (*keep)(void) = hidden;\n",
    "a_member_with_a_long_file_name.c": "int shared_counter = 3;\nint beta_helper(void) { return 4; }\n",
}


@pytest.fixture
def objects(tmp_path: Path) -> Path:
    for name, text in SOURCES.items():
        (tmp_path / name).write_text(text)
        subprocess.run(["clang-22", "-O1", "-c", name, "-o", name.replace(".c", ".o")],
                       cwd=tmp_path, check=True)
    return tmp_path


def test_symbols_of_a_plain_object(objects: Path) -> None:
    obj = read_object("alpha.o", (objects / "alpha.o").read_bytes())
    assert obj is not None and obj.bitcode is None
    assert obj.defined == {"alpha", "keep"}  # `hidden` is local
    assert obj.undefined == {"shared_counter", "beta_helper"}


@pytest.mark.parametrize("make", [
    ["ar", "rcs"], ["llvm-ar-22", "rcs", "--format=gnu"], ["llvm-ar-22", "rcs", "--format=bsd"],
    ["ar", "rcsT"],  # thin: members stay in their files
])
def test_archive_members(objects: Path, make: list[str]) -> None:
    subprocess.run([*make, "libx.a", "alpha.o", "a_member_with_a_long_file_name.o"], cwd=objects, check=True)
    data = (objects / "libx.a").read_bytes()
    assert is_archive(data)
    members = list(archive_members(objects / "libx.a", data))
    assert [name for name, _ in members] == ["alpha.o", "a_member_with_a_long_file_name.o"]
    assert members[1][1] == (objects / "a_member_with_a_long_file_name.o").read_bytes()


def test_embedded_and_pure_bitcode(objects: Path) -> None:
    subprocess.run(["clang-22", "-O1", "-c", "-fembed-bitcode", "alpha.c", "-o", "embedded.o"],
                   cwd=objects, check=True)
    embedded = read_object("embedded.o", (objects / "embedded.o").read_bytes())
    assert embedded is not None and embedded.bitcode is not None and embedded.bitcode[:2] == b"BC"
    subprocess.run(["clang-22", "-O1", "-flto", "-c", "alpha.c", "-o", "lto.o"], cwd=objects, check=True)
    lto = read_object("lto.o", (objects / "lto.o").read_bytes())
    assert lto is not None and lto.is_pure_bitcode
    defined, undefined = llvm.global_symbols(llvm.parse(lto.bitcode or b""))
    assert defined == {"alpha", "keep"} and undefined == {"shared_counter", "beta_helper"}


def test_shared_libraries_and_scripts_are_for_the_linker(objects: Path) -> None:
    subprocess.run(["clang-22", "-shared", "a_member_with_a_long_file_name.o", "-o", "libm2.so"],
                   cwd=objects, check=True)
    assert read_object("libm2.so", (objects / "libm2.so").read_bytes()) is None
    assert read_object("script", b"GROUP ( /lib/libc.so.6 )\n") is None


def test_truncated_elf_is_refused() -> None:
    with pytest.raises(UsageError, match="broken.o: malformed ELF object"):
        read_object("broken.o", b"\x7fELF\x02\x01\x01" + b"\0" * 9 + b"\x01\x00")


def test_truncated_archive_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="malformed archive member header"):
        list(archive_members(tmp_path / "bad.a", b"!<arch>\n" + b"x" * 60))


def test_weak_references_are_not_undefined(tmp_path: Path) -> None:
    # A linker takes no archive member for a weak reference; neither does the link step.
    source = "extern int maybe __attribute__((weak));\nint probe(void) { return &maybe ? maybe : 0; }\n"
    (tmp_path / "weak.c").write_text(source)
    subprocess.run(["clang-22", "-O1", "-c", "weak.c"], cwd=tmp_path, check=True)
    obj = read_object("weak.o", (tmp_path / "weak.o").read_bytes())
    assert obj is not None and obj.defined == {"probe"} and obj.undefined == frozenset()
    subprocess.run(["clang-22", "-O1", "-flto", "-c", "weak.c", "-o", "weak.bc"], cwd=tmp_path, check=True)
    assert llvm.global_symbols(llvm.parse((tmp_path / "weak.bc").read_bytes())) == ({"probe"}, frozenset())
