/* ADBench's GMM objective (gmm.c). */
typedef struct { double gamma; int m; } Wishart;

void gmm_objective(int d, int k, int n, const double *alphas, const double *means, const double *icf,
                   const double *x, Wishart wishart, double *err);
