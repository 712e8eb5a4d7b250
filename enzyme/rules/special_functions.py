"""Functions that derivative rules need but libm lacks, emitted into the module as IR.

Rules call them by name like libm functions (``x.call("digamma")``); the
emitter defines ``__pyenzyme_<name>_<type>`` on first use.

digamma ψ(x) = d/dx log Γ(x):

* x <= 0: the poles (non-positive integers) give NaN; elsewhere the
  reflection ψ(x) = ψ(1 - x) - π / tan(π x), with tan evaluated at the exact
  fractional part x - floor(x) (tan has period π) so large |x| loses nothing;
* the recurrence ψ(z) = ψ(z + 1) - 1/z until z >= 10;
* the asymptotic series ψ(z) = log z - 1/(2z) - Σ B₂ₖ / (2k z²ᵏ), k = 1..7,
  whose next term is below 4.5e-17 for z >= 10.

float and long double go through the double version (their derivatives
are then as accurate as double allows, which is enough for float and
slightly below long double precision).
"""
from __future__ import annotations

from ..errors import DifferentiationError
from ..ir import Function, Module, Type
from ..ir.splice import add_helper_functions
from ..ir.types import VectorType

# Σ B₂ₖ/(2k) w²ᵏ in Horner form in w² = 1/z²: B₂/2 = 1/12, B₄/4 = -1/120, B₆/6 = 1/252, B₈/8 = -1/240,
# B₁₀/10 = 1/132, B₁₂/12 = -691/32760, B₁₄/14 = 1/12.
_DIGAMMA_F64 = """
declare double @llvm.floor.f64(double)
declare double @llvm.tan.f64(double)
declare double @llvm.log.f64(double)

define internal double @__pyenzyme_digamma_f64(double %x) {
entry:
  %nonpos = fcmp ole double %x, 0.0
  br i1 %nonpos, label %reflect, label %start
reflect:
  %fl = call double @llvm.floor.f64(double %x)
  %frac = fsub double %x, %fl
  %pole = fcmp oeq double %frac, 0.0
  br i1 %pole, label %nan, label %mirror
nan:
  ret double 0x7FF8000000000000
mirror:
  %pifrac = fmul double %frac, 0x400921FB54442D18
  %tan = call double @llvm.tan.f64(double %pifrac)
  %cot = fdiv double 0x400921FB54442D18, %tan
  %negcot = fneg double %cot
  %oneminus = fsub double 1.0, %x
  br label %start
start:
  %z0 = phi double [ %x, %entry ], [ %oneminus, %mirror ]
  %acc0 = phi double [ 0.0, %entry ], [ %negcot, %mirror ]
  br label %loop
loop:
  %z = phi double [ %z0, %start ], [ %z1, %step ]
  %acc = phi double [ %acc0, %start ], [ %acc1, %step ]
  %small = fcmp olt double %z, 10.0
  br i1 %small, label %step, label %series
step:
  %inv = fdiv double 1.0, %z
  %acc1 = fsub double %acc, %inv
  %z1 = fadd double %z, 1.0
  br label %loop
series:
  %w = fdiv double 1.0, %z
  %w2 = fmul double %w, %w
  %h7 = fmul double %w2, 0x3FB5555555555555
  %h6 = fsub double 0x3F95995995995996, %h7
  %h6w = fmul double %w2, %h6
  %h5 = fsub double 0x3F7F07C1F07C1F08, %h6w
  %h5w = fmul double %w2, %h5
  %h4 = fsub double 0x3F71111111111111, %h5w
  %h4w = fmul double %w2, %h4
  %h3 = fsub double 0x3F70410410410410, %h4w
  %h3w = fmul double %w2, %h3
  %h2 = fsub double 0x3F81111111111111, %h3w
  %h2w = fmul double %w2, %h2
  %h1 = fsub double 0x3FB5555555555555, %h2w
  %sum = fmul double %w2, %h1
  %log = call double @llvm.log.f64(double %z)
  %half = fmul double %w, 0.5
  %a = fsub double %log, %half
  %b = fsub double %a, %sum
  %r = fadd double %acc, %b
  ret double %r
}
"""

_VIA_DOUBLE = """
declare double @__pyenzyme_{fn}_f64(double)

define internal {t} @__pyenzyme_{fn}_{tag}({t} %x) {{
entry:
  %d = {widen} {t} %x to double
  %r = call double @__pyenzyme_{fn}_f64(double %d)
  %n = {narrow} double %r to {t}
  ret {t} %n
}}
"""

HELPERS: dict[str, str] = {"digamma": _DIGAMMA_F64}
_TAGS = {"double": "f64", "float": "f32", "half": "f16", "x86_fp80": "f80", "fp128": "f128"}


def is_helper(fn: str) -> bool:
    """Is ``fn`` a function this module provides (rather than libm or an intrinsic)?"""
    return fn in HELPERS


def helper_function(module: Module, fn: str, t: Type) -> Function:
    """The definition of helper ``fn`` for float type ``t``, added to ``module`` on first use."""
    tag = _TAGS.get(str(t)) if not isinstance(t, VectorType) else None
    if tag is None:
        raise DifferentiationError(f"a derivative rule needs {fn}() for type {t}, which pyenzyme provides only "
                                   "for scalar half/float/double/x86_fp80/fp128; give the operation a custom rule")
    name = f"__pyenzyme_{fn}_{tag}"
    f = module.get_function(name)
    if f is not None and not f.is_declaration:
        return f
    double_name = f"__pyenzyme_{fn}_f64"
    d = module.get_function(double_name)
    if d is None or d.is_declaration:
        add_helper_functions(module, HELPERS[fn])
    if tag != "f64":
        wider = tag in ("f80", "f128")
        add_helper_functions(module, _VIA_DOUBLE.format(fn=fn, t=t, tag=tag, widen="fptrunc" if wider else "fpext",
                                                        narrow="fpext" if wider else "fptrunc"))
    f = module.get_function(name)
    assert f is not None
    return f
