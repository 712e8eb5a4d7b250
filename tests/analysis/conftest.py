"""Compile the C functions the analysis tests look at, once per session, at -O0 and -O2 (with -g)."""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme import llvm, toolchain
from enzyme.ir import Module, parse_module

C_SOURCE = r"""
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct particle { int id; double mass; double *pos; long n; };

double weighted(struct particle *p) {
  double s = 0;
  for (long i = 0; i < p->n; i++) s += p->mass * p->pos[i];
  return s + p->id;
}

double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

double matrix_sum(double **m, int rows, int cols) {
  double s = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) s += m[i][j];
  return s;
}

double copied(const double *x) {
  double tmp[8];
  memcpy(tmp, x, sizeof tmp);
  double s = 0;
  for (int i = 0; i < 8; i++) s += sin(tmp[i]);
  return s;
}

int over_limit(const long *counts, const int *limits) {
  return counts[0] > 3 && limits[2] > 1;
}

double truncated(double x) {
  int k = (int)x;
  return k * x;
}

void scratch(const double *x, double *buf, double *out) {
  buf[0] = x[0] * x[1];
  out[0] = buf[0] * 2;
}

static double helper(double a, double b) { return a * b + sin(a); }
double calls(double x, double y) { return helper(x, y) + helper(y, 3.0); }

double heap_copy(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = x[i] * 2;
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i];
  free(t);
  return s;
}
"""


@pytest.fixture(scope="session")
def c_modules(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Module]:
    """``c_modules[0]`` / ``c_modules[2]``: C_SOURCE compiled at -O0 / -O2 with -g, as our IR."""
    directory = tmp_path_factory.mktemp("analysis-c")
    source = directory / "funcs.c"
    source.write_text(C_SOURCE)
    out: dict[int, Module] = {}
    for level in (0, 2):
        bc = toolchain.compile_to_bitcode(source, directory / f"funcs{level}.bc", opt_level=level, debug=True)
        out[level] = parse_module(llvm.to_text(llvm.parse(Path(bc).read_bytes())))
    return out
