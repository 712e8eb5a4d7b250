"""Structs with padding holes, copied the ways C code copies them.

A random layout mixes char, short, int, long, float, double, double arrays, a pointer into ``x`` and a
nested struct, in random order, so the compiler leaves holes between fields.  The struct is filled from
``x``, then copied by assignment, ``memcpy``, ``memmove`` (also overlapping, within an array of structs),
through arrays, through noinline helpers taking and returning it by value, and into an enclosing struct;
the result reads the copy.  Integer and float fields hold inactive data (counts, tags, scales): an active
float field would round the primal to single precision and blind the finite differences.
"""
from __future__ import annotations

from dataclasses import dataclass

from .grammar import Gen, X


@dataclass(frozen=True)
class Field:
    decl: str  # "double d0", "double a1[2]", "const double *p2", "struct in5 n3"
    active: tuple[str, ...]  # member paths holding derivatives ("d0", "a1[0]", "n3.v")
    init: str  # statements filling the field of a struct called S from x and n


def layout(g: Gen, i: int) -> tuple[str, list[Field]]:
    """A struct definition ``struct s<i>`` (and its nested struct) with fields in random order."""
    fields: list[Field] = []
    for j in range(g.rng.randint(2, 3)):
        fields.append(Field(f"double d{j}", (f"d{j}",), f"S.d{j} = {g.expr(2, X)};"))
    if g.rng.random() < 0.5:
        fields.append(Field("double a[2]", ("a[0]", "a[1]"), f"S.a[0] = {g.expr(1, X)}; S.a[1] = {g.expr(1, X)};"))
    if g.rng.random() < 0.5:
        k = g.rng.randrange(4)
        fields.append(Field("const double *p", ("p[0]",), f"S.p = &x[{k}];"))
    nested = ""
    if g.rng.random() < 0.4:
        nested = f"struct in{i} {{ char t; double v; short m; }};\n"
        fields.append(Field(f"struct in{i} in", ("in.v",), f"S.in.t = 'q'; S.in.v = {g.expr(2, X)}; S.in.m = 3;"))
    extras = [Field("char c", (), "S.c = (char)('a' + n);"), Field("short h", (), "S.h = (short)(n - 2);"),
              Field("int k", (), "S.k = n;"), Field("long l", (), "S.l = 2L * n;"),
              Field("float f", (), f"S.f = {g.const(0.5, 1.5)}f;"), Field("unsigned char b", (), "S.b = 7;")]
    fields += g.rng.sample(extras, g.rng.randint(2, 4))
    g.rng.shuffle(fields)
    body = " ".join(f"{f.decl};" for f in fields)
    return f"{nested}struct s{i} {{ {body} }};", fields


def reads(fields: list[Field], var: str) -> list[str]:
    """Expressions reading the copy ``var``: active members, and inactive ones as scales."""
    names = [f"{var}.{a}" for f in fields for a in f.active]
    for f in fields:
        name = f.decl.split()[-1]
        if name in ("k", "h", "c", "l", "b"):
            names.append(f"(0.1 * {var}.{name})")
        elif name == "f":
            names.append(f"{var}.f")
    return names


def struct_copies(g: Gen, i: int) -> str:
    """Filled, copied a random number of times in random ways, then read."""
    definition, fields = layout(g, i)
    g.helpers.append(definition)
    inits = " ".join(f.init for f in fields)
    steps = []
    cur = "S"
    for step in range(g.rng.randint(1, 3)):
        nxt = f"T{step}"
        how = g.choice(("assign", "memcpy", "memmove", "helper", "array", "shift", "nest", "update"))
        if how == "assign":
            steps.append(f"struct s{i} {nxt} = {cur};")
        elif how == "memcpy":
            steps.append(f"struct s{i} {nxt}; memcpy(&{nxt}, &{cur}, sizeof {nxt});")
        elif how == "memmove":
            steps.append(f"struct s{i} {nxt}; memmove(&{nxt}, &{cur}, sizeof(struct s{i}));")
        elif how == "helper":
            name = f"pass{i}_{step}"
            active = [a for f in fields for a in f.active if not a.startswith("p")]
            a = g.choice(active)
            g.helpers.append(f"__attribute__((noinline)) static struct s{i} {name}(struct s{i} v, double w) "
                             f"{{ v.{a} = {g.uses(1, [f'v.{a}', 'w'], f'v.{a}')}; return v; }}")
            steps.append(f"struct s{i} {nxt} = {name}({cur}, x[{g.rng.randrange(4)}]);")
        elif how == "array":
            steps.append(f"struct s{i} arr{step}[3]; arr{step}[0] = {cur}; "
                         f"for (int j = 1; j < 3; j++) {{ arr{step}[j] = arr{step}[j - 1]; }} "
                         f"struct s{i} {nxt}; memcpy(&{nxt}, &arr{step}[n % 3], sizeof {nxt});")
        elif how == "shift":
            # memmove between overlapping elements of an array of structs.
            steps.append(f"struct s{i} arr{step}[3] = {{{cur}, {cur}, {cur}}}; "
                         f"arr{step}[0].{g.choice([a for f in fields for a in f.active if not a.startswith('p')])} "
                         f"*= 1.5; memmove(arr{step} + 1, arr{step}, 2 * sizeof arr{step}[0]); "
                         f"struct s{i} {nxt} = arr{step}[2];")
        elif how == "nest":
            steps.append(f"struct o{i}_{step} {{ char tag; struct s{i} s; int z; }} O{step}, Q{step}; "
                         f"O{step}.tag = 'o'; O{step}.s = {cur}; O{step}.z = n; Q{step} = O{step}; "
                         f"struct s{i} {nxt} = Q{step}.s;")
        else:
            a = g.choice([a for f in fields for a in f.active if not a.startswith("p")])
            steps.append(f"struct s{i} {nxt} = {cur}; {nxt}.{a} = {g.uses(1, [f'{nxt}.{a}', *X], f'{nxt}.{a}')};")
        cur = nxt
    if g.rng.random() < 0.4:
        maker = f"make{i}"
        g.helpers.append(f"__attribute__((noinline)) static struct s{i} {maker}(const double *x, int n) "
                         f"{{ struct s{i} S; {inits} return S; }}")
        fill = f"struct s{i} S = {maker}(x, n);"
    else:
        fill = f"struct s{i} S; {inits}"
    names = reads(fields, cur)
    total = " + ".join(f"{g.const(0.2, 1.0)} * {n}" for n in names if "0.1 *" not in n and not n.endswith(".f"))
    return (f"{fill}\n  " + "\n  ".join(steps) +
            f"\n  return {g.expr(2, names)} + {total};")


KINDS = {"struct_copies": struct_copies}
# Reverse mode moves the adjoints of copied bytes only when every copied byte is typed by type analysis, or
# is padding or a lone char field of the declared type of the stack object copied (enzyme/ad/copy_types.py).
# A short or int field only ever stored with a constant (``S.in.m = 3``) stays untyped -- a constant integer
# store may be the bits of a float -- so such copies are refused: conservative, never wrong
# (findings/struct_copy_constant_int_field.c).
MAY_REFUSE = {"struct_copies": r"type analysis cannot tell which copied bytes"}
