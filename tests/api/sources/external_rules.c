/* Rules for external.c written in C, following the ABI of enzyme.ad.custom. */
double ext_scale_fwd(double x, double dx) { return 3.0 * dx; }
