#include "hunt.h"
/* Temperature control of a heated tank with transport delay: a discrete PID controller with a filtered
   derivative on the measurement, actuator saturation (fmin/fmax) and back-calculation anti-windup, a
   setpoint schedule given as segments chosen by a switch on an enum, the sensor delay held in a ring
   buffer (modulo index), the plant two first-order lags integrated by explicit Euler sub-steps, and a
   controller struct updated through a pointer.  Objective: integral squared error plus control-move
   penalty.  Inputs: gains Kp, Ki, Kd and the tracking time Tt (dup, in a struct), and the plant gain
   (active). */
typedef enum { RAMP, HOLD, STEP_DOWN } segment_kind;
typedef struct { segment_kind kind; double t_end, value; } segment;
typedef struct { double kp, ki, kd, tt; } pid_gains;
typedef struct { pid_gains g; double integral, d_filtered, prev_meas, u_min, u_max, tf; } pid_state;
typedef struct { double gain, tau1, tau2, ambient; int delay_samples; } plant;

static const segment SCHEDULE[] = {{RAMP, 40.0, 60.0}, {HOLD, 90.0, 60.0}, {STEP_DOWN, 150.0, 45.0}};
enum { NSEG = sizeof SCHEDULE / sizeof SCHEDULE[0], MAX_DELAY = 16 };

static double setpoint(double t, double start) {
  double t0 = 0.0, v0 = start;
  for (int s = 0; s < NSEG; s++) {
    const segment *seg = &SCHEDULE[s];
    if (t <= seg->t_end) {
      switch (seg->kind) {
      case RAMP: return v0 + (seg->value - v0) * (t - t0) / (seg->t_end - t0);
      case HOLD: return seg->value;
      case STEP_DOWN: return seg->value;
      }
    }
    t0 = seg->t_end;
    v0 = seg->value;
  }
  return SCHEDULE[NSEG - 1].value;
}

static double pid_update(pid_state *c, double sp, double meas, double dt) {
  double e = sp - meas;
  /* derivative on measurement, first-order filtered */
  double raw_d = -(meas - c->prev_meas) / dt;
  c->d_filtered += dt / (c->tf + dt) * (raw_d - c->d_filtered);
  c->prev_meas = meas;
  double v = c->g.kp * e + c->integral + c->g.kd * c->d_filtered;
  double u = fmin(fmax(v, c->u_min), c->u_max);
  c->integral += dt * (c->g.ki * e + (u - v) / c->g.tt); /* back-calculation */
  return u;
}

double tracking_cost(const pid_gains *gains, double plant_gain, int steps) {
  plant p = {plant_gain, 12.0, 4.0, 20.0, 6};
  pid_state c = {*gains, 0.0, 0.0, p.ambient, 0.0, 100.0, 0.5};
  double ring[MAX_DELAY];
  for (int i = 0; i < MAX_DELAY; i++) ring[i] = p.ambient;
  int head = 0;
  double x1 = p.ambient, x2 = p.ambient, dt = 0.5, cost = 0.0, u_prev = 0.0;
  for (int k = 0; k < steps; k++) {
    double t = k * dt;
    double meas = ring[(head + MAX_DELAY - p.delay_samples) % MAX_DELAY];
    double sp = setpoint(t, p.ambient);
    double u = pid_update(&c, sp, meas, dt);
    for (int sub = 0; sub < 5; sub++) { /* heater lag, then tank lag */
      double h = dt / 5;
      x1 += h * (p.ambient + p.gain * u - x1) / p.tau2;
      x2 += h * (x1 - x2) / p.tau1;
    }
    head = (head + 1) % MAX_DELAY;
    ring[head] = x2;
    double e = sp - x2;
    cost += dt * e * e + 0.01 * (u - u_prev) * (u - u_prev);
    u_prev = u;
  }
  return cost / (steps * dt);
}

enum { STEPS = 320 };
static pid_gains gains = {3.0, 0.25, 2.0, 4.0};
int main(void) {
  double kg = 0.5, fd[5], ad[5];
  printf("cost %.12g\n", tracking_cost(&gains, kg, STEPS));
  fd[0] = HUNT_FD(tracking_cost(&gains, kg, STEPS), gains.kp);
  fd[1] = HUNT_FD(tracking_cost(&gains, kg, STEPS), gains.ki);
  fd[2] = HUNT_FD(tracking_cost(&gains, kg, STEPS), gains.kd);
  fd[3] = HUNT_FD(tracking_cost(&gains, kg, STEPS), gains.tt);
  fd[4] = HUNT_FD(tracking_cost(&gains, kg, STEPS), kg);
#ifdef MODE_REV
  pid_gains dg = {0};
  ad[4] = __enzyme_autodiff((void *)tracking_cost, enzyme_dup, &gains, &dg, enzyme_out, kg, enzyme_const, STEPS);
  ad[0] = dg.kp; ad[1] = dg.ki; ad[2] = dg.kd; ad[3] = dg.tt;
  hunt_check_vec("grad", ad, fd, 5);
#endif
#ifdef MODE_FWD
  pid_gains seeds[4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}, zero = {0};
  for (int k = 0; k < 4; k++)
    ad[k] = __enzyme_fwddiff((void *)tracking_cost, enzyme_dup, &gains, &seeds[k], enzyme_const, kg, enzyme_const, STEPS);
  ad[4] = __enzyme_fwddiff((void *)tracking_cost, enzyme_dup, &gains, &zero, enzyme_dup, kg, 1.0, enzyme_const, STEPS);
  hunt_check_vec("grad", ad, fd, 5);
#endif
  return hunt_finish();
}
