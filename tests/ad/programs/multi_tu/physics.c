/* Explicit Euler integration of a projectile with drag (drag force in drag.cpp). */
#include <math.h>
void drag_accel(double vx, double vy, double k, double *ax, double *ay);
double trajectory_range(const double *params, int steps) {
  double vx = params[0] * cos(params[1]), vy = params[0] * sin(params[1]), x = 0, y = 0, dt = 0.01;
  for (int i = 0; i < steps; i++) {
    double ax, ay;
    drag_accel(vx, vy, params[2], &ax, &ay);
    x += vx * dt; y += vy * dt;
    vx += ax * dt; vy += (ay - 9.81) * dt;
  }
  return x + 0.1 * y;
}
