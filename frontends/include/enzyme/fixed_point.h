/* <enzyme/fixed_point.h>: derivatives of loops iterated to convergence (pyenzyme).
 *
 *   __enzyme_fixed_point((void *)step, enzyme_fp_state, z, bytes,      one or more states (arrays of doubles)
 *                        [enzyme_fp_reduction, r,]                     stopping threshold, default 1e-12
 *                        [enzyme_fp_max_iters, n,]                     derivative passes, default 1000, 0: no limit
 *                        [enzyme_fp_control, control,]                 int control(double *cumul, double *reduction)
 *                        args...);
 *
 * runs  int64_t i = 0; while (step(i++, args...));  where step(int64_t i, args...) overwrites the state with
 * the next iterate and returns whether to iterate again.  Derivatives are taken at the converged state z* =
 * phi(z*, x) by the implicit function theorem rather than through every iteration: forward mode iterates
 * the tangent of one step at z*, starting from a zero state tangent; reverse mode keeps only the tape of the
 * last iteration and runs that iteration's reverse sweep again and again until the state's adjoint has died
 * out, which sums (I - phi_z^T)^-1 applied to it (code after the loop may overwrite what the step read).  Passes stop when the squared 2-norm of the change of the state's tangent
 * (forward) or of the state's adjoint (reverse) falls below r times its value after the first pass, is
 * zero, grows again after five passes, or after n passes; a control function decides instead: it is called
 * with *cumul = -1 before the first pass and with the squared norm after each, and returns whether to run
 * another.  The state's shadow is zero after the reverse pass, and the primal state is left as the loop (in
 * forward mode) or the code before the reverse pass (in reverse mode) left it.  The options must be
 * constants.
 *
 *   while (...) { __enzyme_set_fixed_point(reduction, max_iters, control, z, bytes, ...); ... }
 *
 * marks a loop from inside instead (negative reduction or max_iters, or a null control: the defaults): one
 * iteration is outlined as the step.  The loop needs one latch and must leave from its header or its latch.
 */
#ifndef PYENZYME_FIXED_POINT_H
#define PYENZYME_FIXED_POINT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

extern int enzyme_fp_state, enzyme_fp_reduction, enzyme_fp_max_iters, enzyme_fp_control;
extern int enzyme_checkpoint_region;

void __enzyme_fixed_point(void *step, ...);
void __enzyme_set_fixed_point(double reduction, int64_t max_iters, void *control, ...);

#ifdef __cplusplus
}
#endif

#endif /* PYENZYME_FIXED_POINT_H */
