"""Partials of the floating-point instructions.

Only arithmetic is here.  Structural instructions move values without
changing them (``select``, ``phi``, ``extractelement``, ``insertvalue``,
``shufflevector``, ``load``, ``store``, ``bitcast``) and the generators route
their tangents and adjoints directly; ``fcmp`` and the int<->float
conversions (``fptosi``, ``sitofp``, ...) carry no derivative.
"""
from __future__ import annotations

from .dsl import RuleTable, X, rule

INSTRUCTIONS: RuleTable = {}

x, y = X[0], X[1]

rule(INSTRUCTIONS, "fadd", 1.0, 1.0)
rule(INSTRUCTIONS, "fsub", 1.0, -1.0)
rule(INSTRUCTIONS, "fmul", y, x)
# -(x/y)/y rather than -x/y²: y² overflows for |y| > 1e154 where the quotient is still finite.
rule(INSTRUCTIONS, "fdiv", 1.0 / y, -(x / y) / y)
rule(INSTRUCTIONS, "fneg", -1.0)
rule(INSTRUCTIONS, "frem", 1.0, -(x / y).call("trunc"))  # as fmod (see math.py)

# Conversions between float types are linear (the derivative is 1) but change the type: forward
# mode applies the conversion itself to the tangent (fpext dx), reverse mode its transpose to the
# adjoint (fptrunc dr for fpext).  Conversion -> its transpose.
LINEAR_CONVERSIONS: dict[str, str] = {"fpext": "fptrunc", "fptrunc": "fpext"}
