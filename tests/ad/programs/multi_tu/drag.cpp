// Quadratic drag, written in C++ with a small helper class; exported with C linkage.
#include <cmath>
namespace {
struct Velocity {
  double x, y;
  double speed() const { return std::sqrt(x * x + y * y); }
};
}  // namespace
extern "C" void drag_accel(double vx, double vy, double k, double *ax, double *ay) {
  Velocity v{vx, vy};
  double s = v.speed();
  *ax = -k * s * v.x;
  *ay = -k * s * v.y;
}
