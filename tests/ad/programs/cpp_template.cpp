#include "check.h"
// Function and class templates instantiated for double and float, a template recursion over an int parameter.
template <typename T> T poly(T x) { return T(3) * x * x * x - T(2) * x + T(1); }
template <typename T, int N> struct Fixed {
  T v[N];
  T norm2() const { T s = T(0); for (int i = 0; i < N; i++) s += v[i] * v[i]; return s; }
};
template <int N> double power(double x) { return x * power<N - 1>(x); }
template <> double power<0>(double) { return 1.0; }

double f_double(double x) { return poly<double>(x) + power<5>(x); }
float f_float(float x) { return poly<float>(x); }
double f_fixed(Fixed<double, 3> *a) { return a->norm2() * a->v[0]; }
extern "C" float __enzyme_autodiff_f(void *, float);

int main() {
  double x = 0.9, v;
  CHECK_SCALAR("template double", f_double, x, 9 * x * x - 2 + 5 * pow(x, 4));
  check("template float", __enzyme_autodiff_f((void *)f_float, 0.5f), 9 * 0.25 - 2, 1e-6);
  Fixed<double, 3> a = {{1.0, -2.0, 0.5}}, da = {{0, 0, 0}};
  __enzyme_autodiff((void *)f_fixed, enzyme_dup, &a, &da);
  double n2 = a.norm2();
  check("class template d0", da.v[0], n2 + 2 * a.v[0] * a.v[0], 1e-12);
  check("class template d1", da.v[1], 2 * a.v[1] * a.v[0], 1e-12);
  check("class template d2 central", da.v[2], CENTRAL(f_fixed(&a), a.v[2], a.v[2]), 1e-6);
  (void)v;
  return finish();
}
