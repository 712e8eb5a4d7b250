/* ADBench's bundle adjustment objective (Srajer, Kukelova, Fitzgibbon 2018), written the way its C reference
   is: n cameras of 11 parameters (Rodrigues rotation, centre, focal length, principal point, two radial
   distortion coefficients), m points, p observations (camera, point) of 2-D features with one weight each.
   ADBench asks for the Jacobian of the residuals; here they are summed in squares (reprojection errors
   weighted by w, and the weight penalties 1 - w^2), so the gradient is J^T r, one reverse sweep. */
#include <math.h>

#define BA_NCAMPARAMS 11

static double sqsum(int n, const double *x) {
  double res = 0;
  for (int i = 0; i < n; i++) res += x[i] * x[i];
  return res;
}

static void cross(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

static void rodrigues_rotate_point(const double *rot, const double *pt, double *rotated) {
  double sqtheta = sqsum(3, rot);
  if (sqtheta != 0) {
    double theta = sqrt(sqtheta), costheta = cos(theta), sintheta = sin(theta), theta_inverse = 1.0 / theta;
    double w[3], w_cross_pt[3];
    for (int i = 0; i < 3; i++) w[i] = rot[i] * theta_inverse;
    cross(w, pt, w_cross_pt);
    double tmp = (w[0] * pt[0] + w[1] * pt[1] + w[2] * pt[2]) * (1. - costheta);
    for (int i = 0; i < 3; i++) rotated[i] = pt[i] * costheta + w_cross_pt[i] * sintheta + w[i] * tmp;
  } else {
    double rot_cross_pt[3];
    cross(rot, pt, rot_cross_pt);
    for (int i = 0; i < 3; i++) rotated[i] = pt[i] + rot_cross_pt[i];
  }
}

static void radial_distort(const double *rad_params, double *proj) {
  double rsq = sqsum(2, proj), l = 1. + rad_params[0] * rsq + rad_params[1] * rsq * rsq;
  proj[0] = proj[0] * l;
  proj[1] = proj[1] * l;
}

static void project(const double *cam, const double *X, double *proj) {
  const double *C = &cam[3];
  double Xo[3], Xcam[3];
  for (int i = 0; i < 3; i++) Xo[i] = X[i] - C[i];
  rodrigues_rotate_point(&cam[0], Xo, Xcam);
  proj[0] = Xcam[0] / Xcam[2];
  proj[1] = Xcam[1] / Xcam[2];
  radial_distort(&cam[9], proj);
  proj[0] = proj[0] * cam[6] + cam[7];
  proj[1] = proj[1] * cam[6] + cam[8];
}

double ba_objective(int n, int m, int p, const double *cams, const double *X, const double *w, const int *obs,
                    const double *feats) {
  double s = 0;
  (void)n; (void)m;
  for (int i = 0; i < p; i++) {
    double proj[2];
    project(&cams[BA_NCAMPARAMS * obs[2 * i]], &X[3 * obs[2 * i + 1]], proj);
    double r0 = w[i] * (proj[0] - feats[2 * i]), r1 = w[i] * (proj[1] - feats[2 * i + 1]);
    s += r0 * r0 + r1 * r1;
  }
  for (int i = 0; i < p; i++) {
    double we = 1. - w[i] * w[i];
    s += we * we;
  }
  return s;
}
