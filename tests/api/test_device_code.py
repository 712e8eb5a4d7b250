"""Code for another target never reaches the in-process JIT: CUDA and HIP sources, and IR for other machines,
are refused by enzyme.compile with a message that says what to do instead (never LLVM's internal
"incompatible data layouts")."""
from __future__ import annotations

import pytest

import enzyme
from enzyme import llvm, pipeline
from enzyme.errors import LinkError, UsageError

KERNEL = """
extern __device__ int enzyme_dup, enzyme_const;
extern __device__ double __enzyme_autodiff(void *, ...);
__device__ double energy(const double *x, int n) { return x[0] * x[1] * n; }
extern "C" __global__ void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, n);
}
"""
SQUARE = "define double @sq(double %x) {\n  %y = fmul double %x, %x\n  ret double %y\n}\n"
NVPTX = ('target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"\n'
         'target triple = "nvptx64-nvidia-cuda"\n' + SQUARE)
AARCH64 = 'target triple = "aarch64-unknown-linux-gnu"\n' + SQUARE
I386_LAYOUT = 'target datalayout = "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128"\n' + SQUARE


@pytest.fixture
def no_compiler(monkeypatch):
    """The refusal comes before any compiler runs."""
    def refuse(*args, **kwargs):
        raise AssertionError("a compiler ran for device code")
    monkeypatch.setattr(pipeline, "compile_sources_with_dependencies", refuse)


@pytest.mark.parametrize(("suffix", "kind", "advice"), [
    (".cu", "CUDA", (r"enzyme_add_differentiable\(<target> SOURCES grad\.cu\) writes differentiated PTX \(see "
                     r"examples/cuda\), or run `enzyme bitcode grad\.cu -o k\.bc && enzyme build k\.bc -o k\.ptx`")),
    (".cu", "CUDA", r"load the PTX from Python with cupy\.RawModule or cuda-python \(docs/gpu\.md\)"),
    (".hip", "HIP", r"run `enzyme bitcode grad\.hip -o k\.bc && enzyme build k\.bc -o k\.hsaco`"),
])
def test_gpu_sources_are_refused_at_compile_time(tmp_path, no_compiler, suffix, kind, advice):
    src = tmp_path / f"grad{suffix}"
    src.write_text(KERNEL)
    host = tmp_path / "host.c"
    host.write_text("double f(double x) { return x; }\n")
    for sources in ([src], [host, src]):
        with pytest.raises(UsageError, match=rf"^enzyme.compile: .*grad{suffix} is {kind} device code \(target "
                                             rf".*\), which cannot be JIT-compiled into this Python process; "
                                             rf"build it ahead of time instead: .*{advice}"):
            enzyme.compile(sources)


@pytest.mark.parametrize(("text", "problem"), [
    (NVPTX, r"targets nvptx64-nvidia-cuda, not this machine"),
    (AARCH64, r"targets aarch64-unknown-linux-gnu, not this machine"),
    (I386_LAYOUT, r"has the data layout 'e-m:e-p:32:32.*', not this machine's"),
])
def test_ir_for_another_target_is_refused_at_compile_time(tmp_path, text, problem):
    ll = tmp_path / "other.ll"
    ll.write_text(text)
    for sources in ([ll], text):
        with pytest.raises(UsageError, match=rf"^enzyme.compile: the module linked from (other\.ll|<IR text>) "
                                             rf"{problem}.*only code for this machine can be JIT-compiled"):
            enzyme.compile(sources)


def test_device_bitcode_gets_the_gpu_advice(tmp_path):
    ll = tmp_path / "kernel.ll"
    ll.write_text(NVPTX)
    with pytest.raises(UsageError, match=r"targets nvptx64-nvidia-cuda, .*; for CUDA device code: with CMake, "
                                         r"enzyme_add_differentiable"):
        enzyme.compile([ll])


def test_host_ir_with_another_vendor_is_accepted():
    rust_style = 'target triple = "x86_64-unknown-linux-gnu"\n' + SQUARE
    assert enzyme.compile(rust_style).sq(3.0) == 9.0
    assert enzyme.compile('target triple = "x86_64-pc-linux-gnu"\n' + SQUARE).sq(3.0) == 9.0


def test_host_and_device_modules_do_not_link(tmp_path):
    ll = tmp_path / "device.ll"
    ll.write_text(NVPTX.replace("@sq", "@sq_device"))
    host = tmp_path / "host.c"
    host.write_text("double f(double x) { return x; }\n")
    with pytest.raises(LinkError, match=r"cannot link .*device\.ll \(target nvptx64-nvidia-cuda\) with .*host\.c"):
        enzyme.compile([host, ll])


def test_ir_without_a_triple_for_another_data_layout_does_not_link_with_host_code(tmp_path):
    ll = tmp_path / "i386.ll"
    ll.write_text(I386_LAYOUT.replace("@sq", "@sq32"))
    host = tmp_path / "host.c"
    host.write_text("double f(double x) { return x; }\n")
    with pytest.raises(LinkError, match=r"cannot link .*i386\.ll \(data layout 'e-m:e-p:32:32.*'\) with .*host\.c"):
        enzyme.compile([host, ll])


def test_library_of_device_bitcode_gives_a_clear_error_at_the_jit():
    """A Library made directly from device bitcode (no enzyme.compile) meets the same check in the JIT."""
    lib = enzyme.Library(llvm.to_bitcode(llvm.parse(NVPTX)), name="device")
    with pytest.raises(UsageError, match=r"cannot JIT-compile module .*: it targets nvptx64-nvidia-cuda, not this "
                                         r"machine .*; the in-process JIT runs code for this machine only"):
        lib.sq(2.0)
