// C++ kernels (templates, std::vector, lambdas, <numeric>) behind a C ABI.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace {
template <typename T>
T weighted(const T *x, std::int64_t n, T w) {
    std::vector<T> v(x, x + n);
    return std::sqrt(std::accumulate(v.begin(), v.end(), T{}, [w](T acc, T xi) {
        return acc + w * xi * xi + std::sin(xi) * std::exp(-std::fabs(xi));
    }));
}
}  // namespace

extern "C" double cxx_weighted_norm(const double *x, std::int64_t n, double w) { return weighted(x, n, w); }

extern "C" void cxx_axpy(double *y, const double *x, std::int64_t n, double a) {
    for (std::int64_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i] / (1.0 + static_cast<double>(i));
}

extern "C" double cxx_prefix_max(double *out, const double *x, std::int64_t n) {
    std::vector<double> sums(static_cast<std::size_t>(n));
    std::partial_sum(x, x + n, sums.begin());
    double best = -INFINITY;
    for (std::int64_t i = 0; i < n; ++i) {
        best = std::max(best, sums[static_cast<std::size_t>(i)]);
        out[i] = best * std::pow(std::fabs(sums[static_cast<std::size_t>(i)]) + 1.0, 0.25);
    }
    return best;
}
