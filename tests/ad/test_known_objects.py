"""Copies of a run-time length inside known library objects holding no floats (enzyme.analysis.tbaa).

libstdc++ moves a short ``std::string`` by copying its buffer with the string's run-time length; the string's
TBAA name says those bytes hold no floats, so the copy moves no adjoints -- as long as it stays inside the
buffer, which the derivative checks at run time (the program stops with a ``pyenzyme:`` message otherwise).
The IR below is written by hand: two strings identified by a struct-path tag on their length, and a
``memcpy`` between their buffers whose length the caller chooses.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from enzyme import llvm, toolchain
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

STRINGS_IR = """
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @move_and_square(ptr %s, ptr %t, i64 %n, double %x) {
  %slen = getelementptr inbounds i8, ptr %s, i64 8
  %len = load i64, ptr %slen, align 8, !tbaa !6
  %tlen = getelementptr inbounds i8, ptr %t, i64 8
  store i64 %len, ptr %tlen, align 8, !tbaa !6
  %sbuf = getelementptr inbounds i8, ptr %s, i64 16
  %tbuf = getelementptr inbounds i8, ptr %t, i64 16
  call void @llvm.memcpy.p0.p0.i64(ptr %tbuf, ptr %sbuf, i64 %n, i1 false)
  %y = fmul double %x, %x
  ret double %y
}

!0 = !{!"omnipotent char", !1, i64 0}
!1 = !{!"Simple C++ TBAA"}
!2 = !{!"long", !0, i64 0}
!3 = !{!"any pointer", !0, i64 0}
!4 = !{!"_ZTSNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_Alloc_hiderE", !3, i64 0}
!5 = !{!"_ZTSNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE", !4, i64 0, !2, i64 8, !0, i64 16}
!6 = !{!5, !2, i64 8}
"""

MAIN_C = r"""
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double move_and_square(void *s, void *t, long n, double x);
int main(int argc, char **argv) {
  long n = atol(argv[1]);
  /* 64 bytes each: a copy past the 32-byte string stays inside the blocks. */
  char *s = calloc(64, 1), *t = calloc(64, 1), *ds = calloc(64, 1), *dt = calloc(64, 1);
  double d = __enzyme_autodiff((void *)move_and_square, enzyme_dup, s, ds, enzyme_dup, t, dt, enzyme_const, n, 1.5);
  printf("%g\n", d);
  return 0;
}
"""


@pytest.mark.parametrize("opt_level", [0, 2])
def test_run_time_length_copy_in_a_string_buffer_is_checked(tmp_path: Path, opt_level: int) -> None:
    (tmp_path / "strings.ll").write_text(STRINGS_IR)
    (tmp_path / "main.c").write_text(MAIN_C)
    module = compile_sources([tmp_path / "strings.ll", tmp_path / "main.c"], CompileOptions(opt_level=opt_level))
    result = transform_module(module, TransformOptions(postopt_level=opt_level), name="strings")
    bitcode = tmp_path / "prog.bc"
    bitcode.write_bytes(llvm.to_bitcode(result))
    obj = toolchain.compile_ir_object(bitcode, tmp_path / "prog.o", opt_level=opt_level)
    exe = toolchain.link_executable([obj], tmp_path / "prog", libraries=["-lm"])

    def run(n: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(exe), str(n)], capture_output=True, text=True, timeout=60, check=False)

    for n in (1, 8, 16):  # within the 16-byte buffer: the derivative of x*x at 1.5
        ok = run(n)
        assert ok.returncode == 0 and ok.stdout == "3\n", (n, ok.stdout, ok.stderr)
    stopped = run(17)  # one byte past the buffer: stopped, never a silent guess
    assert stopped.returncode != 0 and stopped.stdout == ""
    assert "pyenzyme: " in stopped.stderr and "known to hold no floating-point data" in stopped.stderr, stopped.stderr
