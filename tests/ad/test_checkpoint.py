"""Checkpointed loops (``<enzyme/checkpoint.h>``, enzyme.ad.checkpoint).

tests/ad/programs/checkpoint_heat.c checks the numbers (every scheme against the plain loop and central
differences).  Here: that checkpointing does what it is for -- the gradient of 2000 steps keeps one step's
tape and a few snapshots instead of every step's tape, with the same numbers -- and that what it cannot do
is refused in one line.  tests/ad/programs/checkpoint_hessian.c checks forward over reverse mode.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from enzyme import _paths, llvm, toolchain
from enzyme.errors import DifferentiationError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

HERE = Path(__file__).parent / "checkpoint"


def _build(source: Path, opt_level: int, tmp_path: Path) -> Path:
    module = compile_sources([source], CompileOptions(opt_level=opt_level))
    result = transform_module(module, TransformOptions(postopt_level=opt_level), name=source.name)
    bitcode = tmp_path / "prog.bc"
    bitcode.write_bytes(llvm.to_bitcode(result))
    obj = toolchain.compile_ir_object(bitcode, tmp_path / "prog.o", opt_level=opt_level)
    return toolchain.link_executable([obj], tmp_path / "prog", libraries=["-lm"])


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory is read from /proc (Linux)")
@pytest.mark.parametrize("opt_level", [0, 2])
def test_checkpointing_bounds_the_memory_of_the_gradient(opt_level: int, tmp_path: Path) -> None:
    exe = _build(HERE / "tape_memory.c", opt_level, tmp_path)
    runs = {}
    for mode in ("plain", "revolve", "periodic"):
        out = subprocess.run([str(exe), mode], capture_output=True, text=True, timeout=120, check=True).stdout
        kib, *grad = out.split()
        runs[mode] = (int(kib), [float(g) for g in grad])
    plain_kib, plain_grad = runs["plain"]
    for mode in ("revolve", "periodic"):
        kib, grad = runs[mode]
        assert grad == pytest.approx(plain_grad, rel=1e-13), mode
        # The plain gradient keeps 2000 steps of tape (~30 MiB); the checkpointed ones one step's tape and
        # 10 (revolve) or 45 + 44 (periodic) snapshots of 4 KiB.
        assert plain_kib > 20_000 and plain_kib - kib > 15_000, (mode, plain_kib, kib)


@pytest.mark.parametrize("language", ["c", "c++"])
def test_reference_schemes_follow_the_protocol(language: str, tmp_path: Path) -> None:
    """The schemes of <enzyme/checkpoint.h> replayed on a model of the driver (plain C/C++, no derivative)."""
    exe = tmp_path / "schedules"
    subprocess.run([str(toolchain.find_tool("clang").path), "-x", language, "-O1", "-Wall", "-Wextra", "-Werror",
                    "-I", str(_paths.include_dir()), str(HERE / "schedules.c"), "-o", str(exe)], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0 and "ALL OK" in run.stdout, run.stdout


PROLOGUE = """
#include <enzyme/checkpoint.h>
extern int enzyme_dup, enzyme_const, enzyme_width;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
static EnzymeCkptConfig config = {2, 0, 0, 0, 0};
"""


def _refused(tmp_path: Path, body: str, opt_level: int, pattern: str) -> str:
    src = tmp_path / "prog.c"
    src.write_text(PROLOGUE + body)
    with pytest.raises(DifferentiationError, match=pattern) as info:
        module = compile_sources([src], CompileOptions(opt_level=opt_level, debug=True))
        transform_module(module, TransformOptions(postopt_level=0), name="prog.c")
    message = str(info.value)
    assert "\n" not in message and "prog.c:" in message, message
    return message


STEP = """
__attribute__((noinline)) static void step(int64_t i, double *u, double *aux) {
  aux[0] = u[0] * u[0];
  u[0] = sin(u[0]) + aux[0] * 0.1 + 0.01 * i;
}
"""


@pytest.mark.parametrize("opt_level", [0, 2])
def test_step_writing_memory_no_region_names_is_refused(opt_level: int, tmp_path: Path) -> None:
    # aux is written by every step but is not a region: recomputing from a snapshot would read stale aux.
    body = "#include <math.h>\n" + STEP + """
double f(double *u, double *aux, int64_t n) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, &EnzymeCkptRevolve, &config,
                          enzyme_checkpoint_region, u, (int64_t)sizeof(double), u, aux);
  return u[0] + aux[0];
}
void g(double *u, double *du, double *a, double *da) { __enzyme_autodiff((void *)f, u, du, a, da, (int64_t)5); }
"""
    _refused(tmp_path, body, opt_level, r"__enzyme_checkpoint_for in @f .*writes through its argument 3, which no "
                                        r"enzyme_checkpoint_region names")


@pytest.mark.parametrize("opt_level", [0, 2])
def test_writing_what_the_steps_read_after_the_loop_is_refused(opt_level: int, tmp_path: Path) -> None:
    # The steps run again in the reverse sweep would read p[0] = 9.
    body = """
#include <math.h>
__attribute__((noinline)) static void step(int64_t i, double *u, double *p) { u[0] = sin(u[0]) * p[0] + 0.1 * i; }
double f(double *u, double *p, int64_t n) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, &EnzymeCkptRevolve, &config,
                          enzyme_checkpoint_region, u, (int64_t)sizeof(double), u, p);
  double r = u[0] * p[0];
  p[0] = 9;
  return r;
}
void g(double *u, double *du, double *p, double *dp) { __enzyme_autodiff((void *)f, u, du, p, dp, (int64_t)5); }
"""
    _refused(tmp_path, body, opt_level, r"__enzyme_checkpoint_for in @f .* writes, after the loop, memory the step "
                                        r"reads through its argument 3")


@pytest.mark.parametrize("opt_level", [0, 2])
def test_writing_what_the_steps_read_in_a_caller_after_the_loop_is_refused(opt_level: int, tmp_path: Path) -> None:
    # The loop lives in a helper; its caller changes the parameter the steps read after the helper returns.
    body = """
#include <math.h>
__attribute__((noinline)) static void step(int64_t i, double *u, double *p) { u[0] = sin(u[0]) * p[0] + 0.1 * i; }
__attribute__((noinline)) static void simulate(double *u, double *p, int64_t n) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, &EnzymeCkptRevolve, &config,
                          enzyme_checkpoint_region, u, (int64_t)sizeof(double), u, p);
}
double f(double *u, double *params, int64_t n) {
  simulate(u, params + 1, n);
  double r = u[0] * params[1];
  params[1] *= 0.5;
  return r;
}
void g(double *u, double *du, double *p, double *dp) { __enzyme_autodiff((void *)f, u, du, p, dp, (int64_t)5); }
"""
    _refused(tmp_path, body, opt_level, r"__enzyme_checkpoint_for in @simulate .* writes, after the loop, memory "
                                        r"the step reads through its argument 3")


@pytest.mark.parametrize("opt_level", [0, 2])
def test_forward_over_reverse_with_a_floating_point_global_is_refused(opt_level: int, tmp_path: Path) -> None:
    # The step's state includes a double global: its one shadow would serve both the tangent and the adjoint.
    body = """
#include <math.h>
static double acc;
__attribute__((noinline)) static void step(int64_t i, double *u) { acc += u[0]; u[0] = sin(u[0]) + 0.1 * acc; }
double f(double *u, int64_t n) {
  acc = 0;
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, &EnzymeCkptRevolve, &config,
                          enzyme_checkpoint_region, u, (int64_t)sizeof(double), u);
  return u[0] * acc;
}
__attribute__((noinline)) void g(double *u, double *du) {
  __enzyme_autodiff((void *)f, enzyme_dup, u, du, enzyme_const, (int64_t)5);
}
void h(double *u, double *tu, double *du, double *tdu) { __enzyme_fwddiff((void *)g, u, tu, du, tdu); }
"""
    _refused(tmp_path, body, opt_level, r"forward mode over the reverse mode of a checkpointed loop whose step "
                                        r"changes the floating-point global @acc is not supported yet")
