"""The first function kinds: libm expressions, loops, stencils, branches, heap memory, tables, recursion, lists.

Each generator takes the program's :class:`Gen` and the function's index and returns the body of
``double f<i>(const double *x, int n)`` (helpers it needs go to ``g.helpers``).
"""
from __future__ import annotations

from .grammar import Gen, X


def plain(g: Gen, i: int) -> str:
    return f"return {g.expr(4, X)};"


def loop(g: Gen, i: int) -> str:
    return (f"double s = x[0];\n  for (int i = 0; i < n; i++) {{ double t = x[i % 4]; "
            f"s = 0.5 * {g.expr(3, ['s', 't', 'x[(i + 1) % 4]'])}; }}\n  return s;")


def stencil(g: Gen, i: int) -> str:
    return (f"double w[6];\n  for (int i = 0; i < 6; i++) w[i] = {g.expr(2, ['x[i % 4]', 'x[(i + 2) % 4]'])};\n"
            f"  for (int r = 0; r < 2; r++) for (int i = 1; i < 6; i++) "
            f"w[i] = 0.7 * {g.expr(2, ['w[i]', 'w[i - 1]'])};\n"
            "  double s = 0; for (int i = 0; i < 6; i++) s += w[i] * (i + 1);\n  return s;")


def branch(g: Gen, i: int) -> str:
    return (f"double a = {g.expr(3, X)};\n  if (a > {g.const(-1, 1)}) a = {g.expr(2, ['a', *X])}; "
            f"else a = {g.expr(2, ['a', *X])};\n  while (fabs(a) > 10.0) a *= 0.5;\n  return a;")


def heap(g: Gen, i: int) -> str:
    return (f"double *b = malloc(2 * n * sizeof(double));\n"
            f"  for (int i = 0; i < 2 * n; i++) b[i] = {g.expr(2, ['x[i % 4]', 'x[(i + 3) % 4]'])};\n"
            "  double s = 0; for (int i = 0; i < 2 * n; i++) s += b[i] * b[(i + 1) % (2 * n)];\n"
            "  free(b);\n  return s;")


def struct(g: Gen, i: int) -> str:
    return (f"struct {{ double a; int k; double b[2]; }} S, T;\n  S.a = {g.expr(2, X)}; S.k = n; "
            f"S.b[0] = {g.expr(2, X)}; S.b[1] = x[3];\n  T = S; T.a *= T.k;\n"
            f"  return {g.expr(2, ['T.a', 'T.b[0]', 'T.b[1]'])};")


def recursion(g: Gen, i: int) -> str:
    g.helpers.append(f"static double rec{i}(const double *x, int d) {{\n  if (d == 0) return x[0];\n"
                     f"  double r = rec{i}(x, d - 1), t = x[d % 4];\n  return 0.5 * {g.expr(2, ['r', 't'])};\n}}")
    return f"return rec{i}(x, n);"


def linked_list(g: Gen, i: int) -> str:
    return ("struct node { double v; struct node *next; } nodes[5];\n"
            "  for (int i = 0; i < 5; i++) { nodes[i].v = x[i % 4] * (i + 1); "
            "nodes[i].next = i + 1 < n ? &nodes[(i + 1) % 5] : 0; }\n"
            f"  double s = 0; int steps = 0;\n  for (struct node *p = &nodes[0]; p && steps < 7; "
            f"p = p->next, steps++) {{ double v = p->v; s = {g.expr(2, ['s', 'v'])}; }}\n  return s;")


def table(g: Gen, i: int) -> str:
    names = [f"g{i}_{j}" for j in range(3)]
    g.helpers += [f"static double {h}(double a, double b) {{ return {g.expr(2, ['a', 'b'])}; }}" for h in names]
    g.helpers.append(f"static double (*const table{i}[3])(double, double) = {{{', '.join(names)}}};")
    call = f"table{i}[i % 3](x[i % 4], x[(i + 1) % 4])"
    return f"double s = 0;\n  for (int i = 0; i < n; i++) s += 0.5 * {call};\n  return s;"


KINDS = {"plain": plain, "loop": loop, "stencil": stencil, "branch": branch, "heap": heap, "struct": struct,
         "table": table, "recursion": recursion, "list": linked_list}
