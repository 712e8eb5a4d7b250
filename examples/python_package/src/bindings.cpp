// rosenbrock_ad._core: the Python functions, by nanobind (no CPython glue by hand).  The numerical code is
// C in a static library that pyenzyme differentiated (CMakeLists.txt).
#include <nanobind/nanobind.h>
#include <nanobind/stl/vector.h>

#include <vector>

extern "C" {
double rosenbrock(const double *x, long n);
void rosenbrock_gradient(const double *x, double *dx, long n);
}

namespace nb = nanobind;

NB_MODULE(_core, m) {
  m.def("rosenbrock", [](const std::vector<double> &x) { return rosenbrock(x.data(), static_cast<long>(x.size())); },
        nb::arg("x"), "rosenbrock(x) -> float: the Rosenbrock function of a sequence x.");
  m.def("gradient",
        [](const std::vector<double> &x) {
          std::vector<double> dx(x.size());
          rosenbrock_gradient(x.data(), dx.data(), static_cast<long>(x.size()));
          return dx;
        },
        nb::arg("x"), "gradient(x) -> list[float]: its gradient, by reverse-mode AD.");
}
