/* The gradient requests of benchmarks/bench_adbench.py, one kernel per build (-DKERNEL_<NAME>), so each
   kernel's AD build is timed alone. */
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

#ifdef KERNEL_BA
double ba_objective(int n, int m, int p, const double *cams, const double *X, const double *w, const int *obs,
                    const double *feats);
void grad_ba(int n, int m, int p, const double *cams, double *dcams, const double *X, double *dX, const double *w,
             double *dw, const int *obs, const double *feats) {
  __enzyme_autodiff((void *)ba_objective, enzyme_const, n, enzyme_const, m, enzyme_const, p, enzyme_dup, cams, dcams,
                    enzyme_dup, X, dX, enzyme_dup, w, dw, enzyme_const, obs, enzyme_const, feats);
}
#endif

#ifdef KERNEL_LSTM
void lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                    const double *state, const double *sequence, double *loss);
void grad_lstm(int l, int c, int b, const double *main_params, double *dmain, const double *extra_params,
               double *dextra, const double *state, const double *sequence, double *loss, double *dloss) {
  __enzyme_autodiff((void *)lstm_objective, enzyme_const, l, enzyme_const, c, enzyme_const, b, enzyme_dup,
                    main_params, dmain, enzyme_dup, extra_params, dextra, enzyme_const, state, enzyme_const, sequence,
                    enzyme_dupnoneed, loss, dloss);
}
#endif

#ifdef KERNEL_HEAT
double heat_energy(const double *u0, long n, long steps);
void grad_heat(const double *u0, double *du0, long n, long steps) {
  __enzyme_autodiff((void *)heat_energy, enzyme_dup, u0, du0, enzyme_const, n, enzyme_const, steps);
}
#endif

#ifdef KERNEL_SPRINGS
double springs_energy(const double *x, unsigned long n);
void grad_springs(const double *x, double *dx, unsigned long n) {
  __enzyme_autodiff((void *)springs_energy, enzyme_dup, x, dx, enzyme_const, n);
}
#endif
